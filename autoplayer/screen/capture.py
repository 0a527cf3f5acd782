"""Screen capture with mss into numpy RGB arrays, with no temporary files.

A `Frame` carries its pixels and where they came from, so whatever a reader
finds in frame pixels maps back to the screen coordinates input uses. On X11
both are root-window pixels; where a platform captures at another resolution
than it takes input in (macOS Retina, scaled Windows displays), the ratio is
measured from the grab itself instead of being assumed to be 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.geometry import Rect, astuple

if TYPE_CHECKING:
    from autoplayer.screen.window import WindowInfo


@dataclass(frozen=True)
class Cover:
    """Another window over the one captured (a message box the game opened, a menu), in
    the frame's pixels."""

    rect: Rect
    title: str


@dataclass(frozen=True, eq=False)
class Frame:
    """H×W×3 uint8 RGB pixels whose pixel (0, 0) sits at `origin` on the screen.

    `scale` is frame pixels per screen unit (1.0 on X11). `covers`: windows stacked
    over a captured window when it was grabbed (only a window source knows them).
    """

    pixels: np.ndarray
    origin: tuple[int, int] = (0, 0)
    scale: float = 1.0
    covers: tuple[Cover, ...] = ()

    @property
    def width(self) -> int:
        return int(self.pixels.shape[1])

    @property
    def height(self) -> int:
        return int(self.pixels.shape[0])

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        """The screen point under frame pixel (x, y)."""
        return (
            round(self.origin[0] + x / self.scale),
            round(self.origin[1] + y / self.scale),
        )

    def rect_to_screen(self, rect: Rect) -> Rect:
        """The screen rectangle a frame rectangle covers (rounded inwards)."""
        x0, y0 = self.origin[0] + rect.x / self.scale, self.origin[1] + rect.y / self.scale
        x1 = self.origin[0] + rect.right / self.scale
        y1 = self.origin[1] + rect.bottom / self.scale
        left, top = int(np.ceil(x0)), int(np.ceil(y0))
        return Rect(left, top, int(np.floor(x1)) - left, int(np.floor(y1)) - top)

    def crop(self, rect: Rect) -> Frame:
        """The part of this frame inside `rect` (frame pixels), keeping screen positions."""
        r = clamp(rect, Rect(0, 0, self.width, self.height))
        if r is None:
            raise InputError("crop lies outside the frame", region=astuple(rect))
        ox, oy = self.to_screen(r.x, r.y)
        return Frame(self.pixels[r.y:r.bottom, r.x:r.right], (ox, oy), self.scale)


def clamp(region: Rect, bounds: Rect) -> Rect | None:
    """`region` cut to `bounds`; None when nothing is left.

    Old mss versions killed the process with an X BadMatch for regions outside
    the root window, and new ones return garbage there, so every grab is clamped.
    """
    x0, y0 = max(region.x, bounds.x), max(region.y, bounds.y)
    x1, y1 = min(region.right, bounds.right), min(region.bottom, bounds.bottom)
    if x1 <= x0 or y1 <= y0:
        return None
    return Rect(x0, y0, x1 - x0, y1 - y0)


def parse_region(text: str) -> Rect:
    """'X,Y,W,H' as given on the command line."""
    try:
        x, y, w, h = (int(p) for p in text.split(","))
    except ValueError:
        raise UserError(f"region {text!r} is not X,Y,W,H (four integers)") from None
    if w <= 0 or h <= 0:
        raise UserError(f"region {text!r} has no area")
    return Rect(x, y, w, h)


def bgra_to_rgb(bgra: np.ndarray) -> np.ndarray:
    """mss hands out BGRA; readers want contiguous RGB."""
    return np.ascontiguousarray(bgra[:, :, 2::-1])


class Screen:
    """One mss connection; `grab*` return Frames. Use as a context manager."""

    def __init__(self, display: str | None = None) -> None:
        import mss

        try:
            self._mss = mss.MSS(display=display) if display else mss.MSS()
        except mss.exception.ScreenShotError as err:
            raise UserError(f"cannot capture the screen: {err}") from None

    def monitors(self) -> list[Rect]:
        """[all monitors' bounding box, monitor 1, monitor 2, ...] in screen coordinates."""
        return [
            Rect(m["left"], m["top"], m["width"], m["height"]) for m in self._mss.monitors
        ]

    def root(self) -> Rect:
        return self.monitors()[0]

    def monitor(self, number: int) -> Rect:
        mons = self.monitors()
        if not 0 <= number < len(mons):
            raise UserError(
                f"monitor {number} does not exist (0 is all of them; 1..{len(mons) - 1} "
                "are single monitors)"
            )
        return mons[number]

    def grab(self, region: Rect) -> Frame:
        """The pixels of `region` (screen coordinates), clamped to the screen."""
        r = clamp(region, self.root())
        if r is None:
            raise UserError(
                f"region x={region.x} y={region.y} w={region.w} h={region.h} is off the screen "
                f"(the screen is {self.root().w}x{self.root().h})"
            )
        shot = self._mss.grab({"left": r.x, "top": r.y, "width": r.w, "height": r.h})
        pixels = bgra_to_rgb(np.asarray(shot))
        # Measured, not assumed: pixels delivered per screen unit requested.
        scale = pixels.shape[1] / r.w
        return Frame(pixels, (r.x, r.y), scale)

    def grab_monitor(self, number: int = 1) -> Frame:
        return self.grab(self.monitor(number))

    def grab_window(self, window: WindowInfo) -> Frame:
        """The window's client area as it shows on screen now."""
        return self.grab(window.rect)

    def close(self) -> None:
        self._mss.close()

    def __enter__(self) -> Screen:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def window_pixels(display: str, window_id: int) -> np.ndarray:
    """A window's client area as it is now (RGB), found afresh (it may have moved)."""
    from autoplayer.screen.window import locate, open_display

    disp = open_display(display)
    try:
        info = locate(disp, window_id)
    finally:
        disp.close()
    with Screen(display) as screen:
        return screen.grab_window(info).pixels
