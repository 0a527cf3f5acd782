"""The interface between the game-agnostic mid-end and each game's back-end.

It mirrors Simon Tatham's `puzzles.h`: the mid-end (here the play loop in
`autoplayer.play`) never knows which game runs, and moves are plain data. Our
bot is the mirror image of a Tatham front-end: pixels in, input events out.

A back-end is a few pure functions:

- `read`: a captured frame -> the game's state as the screen shows it, with
  the board's location; raises `InputError` naming the pixel region when the
  picture cannot be read with confidence (the bot never acts on a guess);
- `solve`: that state -> a solution (any one, when several exist);
- `plan`: shown state + solution -> moves in the game's own terms, only for
  what differs from the solution (some games toggle on a repeated click);
- `gestures`: moves -> clicks, drags and keys inside the board located;
- `done`: whether a fresh reading shows the game finished.

Everything here is a pure function of its arguments and testable on a saved
screenshot; only capture, input, files and the CLI touch the world.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import numpy as np

from autoplayer.geometry import Gesture, Rect

ReadingT = TypeVar("ReadingT")
SolutionT = TypeVar("SolutionT")
MoveT = TypeVar("MoveT")


class Game(Protocol[ReadingT, SolutionT, MoveT]):
    """One game's back-end; see the module docstring for the contract."""

    name: str

    def read(self, frame: np.ndarray) -> ReadingT: ...

    def board(self, reading: ReadingT) -> Rect:
        """Where input may go: the bot never acts outside this rectangle."""
        ...

    def solve(self, reading: ReadingT) -> SolutionT: ...

    def plan(self, reading: ReadingT, solution: SolutionT) -> Sequence[MoveT]: ...

    def gestures(self, reading: ReadingT, moves: Sequence[MoveT]) -> Sequence[Gesture]: ...

    def done(self, reading: ReadingT, solution: SolutionT) -> bool: ...
