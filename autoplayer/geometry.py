"""Pixel rectangles and input gestures: the vocabulary shared by readers, planners and input.

Coordinates are integers in one space: pixels of the captured frame, whose
origin on the screen is carried by the frame (see `autoplayer.screen.capture`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Rect:
    """An axis-aligned pixel rectangle; `x + w` and `y + h` are exclusive."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.right and self.y <= py < self.bottom

    def offset(self, dx: int, dy: int) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


def astuple(rect: Rect) -> tuple[int, int, int, int]:
    """(x, y, w, h): how errors name a pixel region (`InputError(region=...)`)."""
    return (rect.x, rect.y, rect.w, rect.h)


class Button(Enum):
    LEFT = "left"
    RIGHT = "right"
    MIDDLE = "middle"


@dataclass(frozen=True)
class Click:
    x: int
    y: int
    button: Button = Button.LEFT


@dataclass(frozen=True)
class Drag:
    """Press at the start, move straight to the end in `steps` paced motions, release there.

    Games that act on the last motion only (Tatham's) need one step; games that
    act on every cell the pointer enters need a step a cell.
    """

    x0: int
    y0: int
    x1: int
    y1: int
    button: Button = Button.LEFT
    steps: int = 1

    def waypoints(self) -> list[tuple[int, int]]:
        """The motion targets after the press, ending at (x1, y1)."""
        n = max(self.steps, 1)
        return [
            (round(self.x0 + (self.x1 - self.x0) * i / n),
             round(self.y0 + (self.y1 - self.y0) * i / n))
            for i in range(1, n + 1)
        ]


@dataclass(frozen=True)
class Key:
    """A key press and release, named as pynput names keys ('esc', 'left', 'a')."""

    name: str


@dataclass(frozen=True)
class Move:
    """The pointer moved with no button down: parking it off the board so that hover
    tints do not colour the cells a capture reads. It may leave the board (never the
    window); it presses nothing."""

    x: int
    y: int
    dwell: float = 0.0
    """Seconds the pointer stays here before anything else is sent. A toolkit that
    handles only the last of several queued motions (Qt compresses them) never sees a
    point the pointer only passed through on its way: a game that lights the cell the
    pointer entered would keep the one before."""


@dataclass(frozen=True)
class Dismiss:
    """Esc sent to close a menu the bot's own press opened (Esc is otherwise the user's
    abort key, so the driver lets this one through)."""


Gesture = Click | Drag | Key | Move | Dismiss


def points(gesture: Gesture) -> list[tuple[int, int]]:
    """Every pointer position a gesture visits with a button down or pressing (none for a
    key or a Move)."""
    if isinstance(gesture, Click):
        return [(gesture.x, gesture.y)]
    if isinstance(gesture, Drag):
        return [(gesture.x0, gesture.y0), *gesture.waypoints()]
    return []



def to_screen(gesture: Gesture, origin: tuple[int, int], scale: float = 1.0) -> Gesture:
    """A gesture in frame pixels moved to screen coordinates (see `Frame.to_screen`)."""
    ox, oy = origin

    def tx(v: int) -> int:
        return round(ox + v / scale)

    def ty(v: int) -> int:
        return round(oy + v / scale)

    if isinstance(gesture, Click):
        return Click(tx(gesture.x), ty(gesture.y), gesture.button)
    if isinstance(gesture, Drag):
        return Drag(tx(gesture.x0), ty(gesture.y0), tx(gesture.x1), ty(gesture.y1),
                    gesture.button, gesture.steps)
    if isinstance(gesture, Move):
        return Move(tx(gesture.x), ty(gesture.y), gesture.dwell)
    return gesture
