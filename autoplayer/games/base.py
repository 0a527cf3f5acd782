"""The interface between the game-agnostic play loop and each game's back-end.

It mirrors Simon Tatham's `puzzles.h`: the mid-end (here the play loop in
`autoplayer.play`) never knows which game runs, and moves are plain data. Our
bot is the mirror image of a Tatham front-end: pixels in, input events out.

A back-end is a few pure functions of their arguments, testable on a saved
screenshot; only capture, input, files and the CLI touch the world:

- `read`: a captured frame -> the game's state as the screen shows it, with
  the board's location; raises `InputError` naming the pixel region when the
  picture cannot be read with confidence (the bot never acts on a guess).
  Given the previous reading it may re-read only what input can change (the
  cells, not the clues);
- `solve`: that state -> a `Solved` (one solution, with a note when it is
  one of several);
- `plan`: shown state + solution -> the next batch of moves, in the game's own
  terms, only for what differs from the solution (some games toggle on a
  repeated click); empty when the screen already shows the solution. The loop
  verifies with a fresh capture after every batch, so a game that must see
  the result of its moves (the 15-puzzle) plans one batch at a time, and a
  game whose moves are independent (nonograms) plans everything at once;
- `gestures`: moves -> clicks, drags and keys inside `board`;
- `check`: a fresh reading against the solution -> what is still wrong;
- `outline` (optional): reading + solution -> every gesture the whole game
  would take and what that count assumes, for a dry run of a game that
  learns its input by trying (its `plan` starts with an experiment).

Optional, for games that learn by watching their own presses (nonograms):
- `learn(reading, solution, hands)` -> (frame, reading, note): called once
  before the first batch with `hands` (act on gestures, grab frames);
- `sign_wait`: seconds to watch for the game's own completion sign once the
  board is right; `finish(reading, solution)` -> moves the game's rule for
  done may still want (marks), played when no sign came;
- `monotone`: every batch must leave fewer units wrong, or the loop stops;
- `concluded(check)`: told how the game ended, to remember it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from autoplayer.geometry import Gesture, Rect

if TYPE_CHECKING:
    import numpy as np

    from autoplayer.screen.capture import Frame
    from autoplayer.screen.input import Pace

ReadingT = TypeVar("ReadingT")
SolutionT = TypeVar("SolutionT")
MoveT = TypeVar("MoveT")


@dataclass(frozen=True)
class Solved(Generic[SolutionT]):
    """A solution and what the loop should say about it."""

    solution: SolutionT
    note: str = ""
    """E.g. 'several solutions exist; playing one'."""
    others: tuple[SolutionT, ...] = ()
    """Further solutions the puzzle read allows, tried in turn where the game gives no
    sign on the one played (a game may accept only its own picture)."""


@dataclass(frozen=True)
class Check:
    """A fresh reading compared with the solution."""

    wrong: int
    """Units (cells, tiles) that differ from the solution."""
    total: int
    complete: bool | None = None
    """The game's own sign of completion, where it shows one; None when it shows none."""
    details: tuple[str, ...] = field(default=())
    """A few of the wrong units, for the report."""
    sign: str | None = None
    """The game's completion sign as seen ('a dialog over the board'), with complete=True."""
    blocked: str | None = None
    """Why the bot must send no more input (something covers the board, a cell shows a
    look no press explains); the loop stops with exit 1 and this as the reason."""


class Game(Protocol[ReadingT, SolutionT, MoveT]):
    """One game's back-end; see the module docstring for the contract."""

    name: str
    pace: Pace
    """How fast this game takes input."""
    max_batches: int
    """Batches the loop may play before giving up (the repairs included)."""
    unit: str
    """What one move changes, for the report: 'cell' (nonograms), 'tile' (the 15-puzzle)."""

    def read(self, frame: Frame, previous: ReadingT | None = None) -> ReadingT: ...

    def board(self, reading: ReadingT) -> Rect:
        """Where input may go, in frame pixels: the bot never acts outside it."""
        ...

    def solve(self, reading: ReadingT) -> Solved[SolutionT]: ...

    def plan(self, reading: ReadingT, solution: SolutionT) -> Sequence[MoveT]: ...

    def gestures(self, reading: ReadingT, moves: Sequence[MoveT]) -> Sequence[Gesture]: ...

    def check(self, reading: ReadingT, solution: SolutionT) -> Check: ...

    def units(self, moves: Sequence[MoveT]) -> int:
        """How many cells (tiles) the moves change: the report's gestures-against-cells."""
        ...

    def fixes(self, moves: Sequence[MoveT]) -> int:
        """By how much `check().wrong` should fall once the game has drawn the moves.

        The loop waits to see that before it believes a verification (games draw
        late); a batch that shows less is verified only after a longer stillness.
        """
        ...

    def overlay(self, frame: Frame, reading: ReadingT, solution: SolutionT | None) -> np.ndarray:
        """The dry run's picture: what was read, drawn over the frame (RGB)."""
        ...
