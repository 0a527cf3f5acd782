"""Where the play loop's frames come from: a monitor, a region, or a window found by title.

A window is re-located before every capture (it may have moved between
cycles), and refused when it is unmapped or something covers it: the bot
would otherwise read or click another program.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from autoplayer.geometry import Rect
from autoplayer.screen.capture import Cover, Frame, Screen


class FrameSource(Protocol):
    def grab(self) -> Frame: ...

    def moved(self, frame: Frame) -> bool:
        """Whether what `frame` shows is no longer where it was (input would miss)."""
        ...

    def close(self) -> None: ...


class RegionSource:
    """A fixed screen rectangle (a monitor is one too)."""

    def __init__(self, screen: Screen, region: Rect) -> None:
        self.screen = screen
        self.region = region

    def grab(self) -> Frame:
        return self.screen.grab(self.region)

    def moved(self, frame: Frame) -> bool:
        return False

    def close(self) -> None:
        self.screen.close()


class WindowSource:
    """A window's client area, followed wherever it goes."""

    def __init__(
        self, screen: Screen, title: str | None = None, *, exact: bool = False,
        wm_class: str | None = None, display: str | None = None, window_id: int | None = None,
    ) -> None:
        """The window by title and/or class, or by X id (a program we started ourselves)."""
        from autoplayer.screen.window import find_window, locate, open_display

        self.screen = screen
        self.disp = open_display(display)
        self.allow_cover = False
        """Once the bot has pressed something, a window over the game (a menu its press
        opened, the game's own dialog) is something to see, not a reason to refuse."""
        self.covered_by: str | None = None
        if window_id is not None:
            self.window = locate(self.disp, window_id)
        else:
            self.window = find_window(self.disp, title, exact=exact, wm_class=wm_class)

    def grab(self) -> Frame:
        from autoplayer.screen.window import check_visible, covering, locate

        self.window = locate(self.disp, self.window.id)
        over = []
        if self.allow_cover and self.window.viewable:
            over = covering(self.disp, self.window)
            self.covered_by = over[0].describe() if over else None
        else:
            check_visible(self.disp, self.window)
        frame = self.screen.grab_window(self.window)
        if not over:
            return frame
        return replace(frame, covers=tuple(Cover(_frame_rect(frame, w.rect), w.title)
                                           for w in over))

    def moved(self, frame: Frame) -> bool:
        from autoplayer.screen.window import locate

        now = locate(self.disp, self.window.id)
        return (now.rect.x, now.rect.y) != frame.origin or not now.viewable

    def close(self) -> None:
        self.disp.close()
        self.screen.close()


def _frame_rect(frame: Frame, rect: Rect) -> Rect:
    """A screen rectangle in `frame`'s pixels, clipped to the frame."""
    x0 = max(0, round((rect.x - frame.origin[0]) * frame.scale))
    y0 = max(0, round((rect.y - frame.origin[1]) * frame.scale))
    x1 = min(frame.width, round((rect.right - frame.origin[0]) * frame.scale))
    y1 = min(frame.height, round((rect.bottom - frame.origin[1]) * frame.scale))
    return Rect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))
