"""The interface between the game-agnostic play loop and each game's back-end.

It mirrors Simon Tatham's `puzzles.h`: the mid-end (here `autoplayer.play`)
never knows which game runs, and moves are plain data. Our bot is the mirror
image of a Tatham front-end: pixels in, input events out. The mid-end alone
owns time, the screen, input and the verdict; a back-end answers questions
with data and never presses a key or waits itself.

Every hook is declared once here, on `Game`, with its default; a back-end
overrides what its game needs:

- `read`: a captured frame -> the game's state as the screen shows it, with
  the board's location; raises `InputError` naming the pixel region when the
  picture cannot be read with confidence (the bot never acts on a guess).
  Given the previous reading it may re-read only what input can change;
- `solve`: that state -> a `Solved` (one solution, others the clues allow);
- `plan`: shown state + solution -> the next batch of moves, only for what
  differs from the solution; empty when the screen shows the solution;
- `gestures`: moves -> clicks, drags and keys inside `board`;
- `cells`: moves -> the rectangles whose look the moves should change; with
  the pointer's path, all the moves should change (`play.ending`);
- `last`: a batch that completes the board split into the moves before and the
  last move, which the loop sends alone, once the rest is verified settled, so
  that whatever else changes is the game's answer to it;
- `check`: a fresh reading against the solution -> what is still wrong, and
  how many units are hidden (unseen is never wrong);
- `experiment` (optional): the presses that teach the game's input rules, as a
  generator of `play.experiment.Press` the mid-end carries out, watched;
- `finish`: moves the game's rule for done may still want once the board is
  right and the game has not answered (every empty cell marked);
- `outline`: every gesture a dry run would make, and what that count assumes;
- `concluded`: told how the game ended, to remember it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from autoplayer.geometry import Gesture, Rect

if TYPE_CHECKING:
    import numpy as np

    from autoplayer.play.experiment import Steps
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
    """Units (cells, tiles) in view that differ from the solution."""
    total: int
    details: tuple[str, ...] = field(default=())
    """A few of the wrong units, for the report."""
    unseen: int = 0
    """Units hidden under something (a dialog, a menu): never counted wrong."""
    unreadable: int = 0
    """Of the wrong units, those in view that show something no move explains: no plan
    puts them right, so a batch that fixes every other wrong unit completes the board
    as far as the bot can tell, and is sent without its last move."""
    blocked: str | None = None
    """Why the bot must send no more input (a cell shows a look no press explains); the
    loop stops with exit 1 and this as the reason."""
    covered: str | None = None
    """Something covers the board (a dialog, a menu): no input may follow. With nothing
    wrong in view and nothing unseen, the game has answered."""


LANDS = 0.9
"""Share of a batch's moves that rules the game could not be sure of must make to hold.
Another scheme's rules make some by chance (a click that counts up to 1 where a 1
belongs, the first of a run of slides); a game's own rules make all but a dropped few,
and learning them again costs a few presses."""


class Game(Generic[ReadingT, SolutionT, MoveT]):
    """One game's back-end; see the module docstring for the contract."""

    name: str = "game"
    pace: Pace
    """How fast this game takes input."""
    max_batches: int = 6
    """Batches the loop may play before giving up (the repairs included)."""
    unit: str = "cell"
    """What one move changes, for the report: 'cell' (nonograms), 'tile' (the 15-puzzle)."""
    monotone: bool = False
    """Every batch must leave fewer units wrong than the one before, or the loop stops (a
    game that undoes what the bot did would otherwise be played back and forth)."""

    def read(self, frame: Frame, previous: ReadingT | None = None) -> ReadingT:
        raise NotImplementedError

    def board(self, reading: ReadingT) -> Rect:
        """Where input may go, in frame pixels: the bot never acts outside it."""
        raise NotImplementedError

    def solve(self, reading: ReadingT) -> Solved[SolutionT]:
        raise NotImplementedError

    def plan(self, reading: ReadingT, solution: SolutionT) -> Sequence[MoveT]:
        raise NotImplementedError

    def gestures(self, reading: ReadingT, moves: Sequence[MoveT]) -> Sequence[Gesture]:
        raise NotImplementedError

    def check(self, reading: ReadingT, solution: SolutionT) -> Check:
        raise NotImplementedError

    def units(self, moves: Sequence[MoveT]) -> int:
        """How many cells (tiles) the moves change: the report's gestures-against-cells."""
        return len(moves)

    def fixes(self, moves: Sequence[MoveT]) -> int:
        """By how much `check().wrong` should fall once the game has drawn the moves.

        The loop waits to see that before it believes a verification (games draw
        late); a batch that shows less is verified only after a longer stillness. A
        batch that fixes every wrong unit completes the board: its last move is sent
        alone (`last`)."""
        return len(moves)

    def cells(self, reading: ReadingT, moves: Sequence[MoveT]) -> Sequence[Rect]:
        """Frame rectangles whose look the moves should change (default: the board)."""
        return [self.board(reading)]

    def last(self, reading: ReadingT, moves: Sequence[MoveT]
             ) -> tuple[Sequence[MoveT], Sequence[MoveT]]:
        """A batch that completes the board, split into the moves before the last one and
        the last one, sent alone."""
        return moves[:-1], moves[-1:]

    def experiment(self, reading: ReadingT, solution: SolutionT) -> Steps[str] | None:
        """The presses that teach the game's input rules, before the first batch (None:
        nothing to learn); the generator returns a line for the report."""
        return None

    presses: int = 0
    """Presses the experiment took."""

    def misfit(self, reading: ReadingT) -> str | None:
        """Asked after every batch until it says something: when `reading` shows that input
        rules the game could not be sure of (kept from an earlier game under the same
        window, or assumed by its experiment) did not make the batch's moves (`LANDS`),
        drop them, so that `experiment` learns afresh on this board (`presses` from 0),
        and say what went wrong for the report. None: nothing to doubt, or the rules held."""
        return None

    def finish(self, reading: ReadingT, solution: SolutionT) -> Sequence[MoveT]:
        """Moves the game's rule for done may still want once the board is right and the
        game has not answered."""
        return []

    paced: bool = False
    """The game may drop input that comes while it draws the last: the mid-end sends each
    gesture only once the one before has changed the window (or shown nothing for a
    moment)."""
    paced_quiet: float = 0.02
    """For a paced game: how long the window must hold still after a gesture changed it
    for the gesture to count as drawn (a game that animates each move needs longer than
    the gap between two drawn frames of the animation)."""

    @property
    def paced_floor(self) -> float:
        """For a paced game: the least time after a gesture before what the window shows can
        count as drawn (0: as soon as it has changed and held still). A browser under
        load can show a move's first frame and then stall longer than `paced_quiet`; a game
        that watched how long its moves take to draw says so here."""
        return 0.0

    exploring: bool = False
    """The last plan held a probe, whose batch may not bring the board closer."""

    def why_stuck(self) -> str:
        """For a batch that left the board no better: what the bot did and expected."""
        return ""

    def outline(self, reading: ReadingT, solution: SolutionT) -> tuple[Sequence[Gesture], str]:
        """A dry run's gestures for the whole game and what that count assumes."""
        return self.gestures(reading, self.plan(reading, solution)), ""

    def concluded(self, answered: bool, finished: bool) -> None:
        """Told how the game ended: whether it answered, and whether `finish` had to
        place moves first."""

    def overlay(self, frame: Frame, reading: ReadingT, solution: SolutionT | None) -> np.ndarray:
        """The dry run's picture: what was read, drawn over the frame (RGB)."""
        raise NotImplementedError
