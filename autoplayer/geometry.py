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
    """Press at the start, move straight to the end, release there."""

    x0: int
    y0: int
    x1: int
    y1: int
    button: Button = Button.LEFT


@dataclass(frozen=True)
class Key:
    """A key press and release, named as pynput names keys ('esc', 'left', 'a')."""

    name: str


Gesture = Click | Drag | Key
