"""The nonogram back-end for the play loop: reader, solver and planner behind `Game`.

What is particular to one nonogram game (which button does what, whether
empty cells must be marked, how it takes drags, how fast) is a `Profile` plus
a `Pace`; everything else is the same for the bundled browser game and for
Simon Tatham's Pattern.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import Check, Solved
from autoplayer.games.nonogram import planner
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle, clue_text, validate
from autoplayer.games.nonogram.planner import TATHAM_PATTERN, Profile, Stroke
from autoplayer.geometry import Button, Gesture, Rect
from autoplayer.screen.input import Pace

if TYPE_CHECKING:
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.window import WindowInfo

SOLVE_TIMEOUT = 20.0

# The bundled browser game: left click toggles a fill, right click toggles a
# mark; a drag paints every cell the pointer enters with what the press did
# to the first cell.
WEB = Profile(
    name="web",
    press={
        (UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
        (EMPTY, Button.LEFT): FILLED,
        (UNKNOWN, Button.RIGHT): EMPTY, (EMPTY, Button.RIGHT): UNKNOWN,
        (FILLED, Button.RIGHT): EMPTY,
    },
    drags=True,
    drag_each_cell=True,
    mark_empty=False,
)

PROFILES: dict[str, tuple[Profile, Pace]] = {
    "web": (WEB, Pace(gesture=0.0, motion=0.004, click=0.0)),
    # Pattern ends a drag at the last motion GTK reported, and GTK (motion hints)
    # loses a motion that follows the previous one too closely: measured on a 20x20
    # board on a loaded machine, 10 ms between a drag's two motions lost cells, 15 ms
    # now and then, 20 ms none; the release needs no pause (bench/bench_pattern.py).
    # A lost motion is repaired after the verifying capture. It redraws a few ms after
    # the last event.
    "pattern": (TATHAM_PATTERN, Pace(gesture=0.0, motion=0.020, click=0.0, settle=0.05,
                                     release=0.0)),
}


@dataclass(frozen=True, eq=False)
class Reading:
    """A nonogram as the screen shows it, in frame pixels."""

    puzzle: Puzzle
    shown: np.ndarray
    """H×W: what every cell shows (UNKNOWN, EMPTY or FILLED)."""
    xs: tuple[float, ...]
    """Column centres."""
    ys: tuple[float, ...]
    """Row centres."""
    grid: Rect
    """The cells' rectangle; input never leaves it."""
    raw: Any = field(default=None, repr=False)
    """The reader's own result (geometry, confidences), for re-reading and overlays."""


class NonogramGame:
    """`autoplayer.games.base.Game` for nonograms; the profile says how the game takes input."""

    name = "nonogram"
    max_batches = 4

    def __init__(self, profile: Profile = WEB, pace: Pace | None = None,
                 templates: str | None = None) -> None:
        self.profile = profile
        self.pace = pace if pace is not None else PROFILES.get(profile.name, (profile, Pace()))[1]
        self.templates = templates

    # -- reading ----------------------------------------------------------
    def read(self, frame: Frame, previous: Reading | None = None) -> Reading:
        from autoplayer.games.nonogram import reader

        if previous is None:
            return reader_reading(reader.read_nonogram(frame.pixels, templates=self.templates))
        return reader_reading(reader.reread_cells(frame.pixels, previous.raw))

    def board(self, reading: Reading) -> Rect:
        return reading.grid

    # -- solving ----------------------------------------------------------
    def solve(self, reading: Reading) -> Solved[np.ndarray]:
        from autoplayer.games.nonogram.solver import Verdict, solve

        region = (reading.grid.x, reading.grid.y, reading.grid.w, reading.grid.h)
        try:
            validate(reading.puzzle)
        except InputError as err:
            raise InputError(f"the clues read do not make a puzzle: {err.message}",
                             region=region) from None
        result = solve(reading.puzzle, max_solutions=2, timeout=SOLVE_TIMEOUT)
        if result.verdict is Verdict.CONTRADICTION:
            where = ""
            if result.contradiction is not None:
                kind, index = result.contradiction
                clues = reading.puzzle.rows if kind == "row" else reading.puzzle.columns
                where = f": {kind} {index + 1} (clue {clue_text(clues[index])}) cannot be placed"
            raise InputError(f"the clues read have no solution{where}; a clue was misread",
                             region=region)
        if result.verdict is Verdict.TIMEOUT:
            raise UserError(f"the solver found no solution within {SOLVE_TIMEOUT:g} s")
        note = ""
        if result.verdict is Verdict.MULTIPLE:
            note = "the clues allow several solutions; playing one of them"
        return Solved(result.solutions[0], note)

    # -- acting -----------------------------------------------------------
    def plan(self, reading: Reading, solution: np.ndarray) -> list[Stroke]:
        return planner.plan(reading.shown, solution, self.profile)

    def gestures(self, reading: Reading, moves: Sequence[Stroke]) -> list[Gesture]:
        return planner.gestures(moves, reading.xs, reading.ys, self.profile)

    def units(self, moves: Sequence[Stroke]) -> int:
        return sum(len(m) for m in moves)

    def check(self, reading: Reading, solution: np.ndarray) -> Check:
        wrong = [
            (r, c) for (r, c), have in np.ndenumerate(reading.shown)
            if int(have) not in planner.wanted(int(solution[r, c]), self.profile)
        ]
        details = tuple(f"row {r + 1} column {c + 1}" for r, c in wrong[:5])
        return Check(len(wrong), int(solution.size), None, details)

    def overlay(self, frame: Frame, reading: Reading, solution: np.ndarray | None) -> np.ndarray:
        from autoplayer.games.nonogram import reader

        return reader.draw_overlay(frame.pixels, reading.raw, solution)


def reader_reading(result: Any) -> Reading:
    """The reader's result as the loop's Reading."""
    return Reading(
        puzzle=result.puzzle, shown=result.cells, xs=tuple(result.xs), ys=tuple(result.ys),
        grid=result.grid, raw=result,
    )


def profile_for(name: str | None, window: WindowInfo | None) -> str:
    """The profile asked for, or the one the window's class names (Tatham's Pattern), or web."""
    if name is not None:
        if name not in PROFILES:
            raise UserError(f"unknown profile {name!r} (known: {', '.join(sorted(PROFILES))})")
        return name
    if window is not None and any("pattern" in c.lower() for c in window.wm_class):
        return "pattern"
    return "web"


def make_game(*, templates: str | None = None, profile: str | None = None,
              window: WindowInfo | None = None) -> NonogramGame:
    chosen, pace = PROFILES[profile_for(profile, window)]
    if chosen is TATHAM_PATTERN:
        # Pattern's own reader (clipped clues, its palette) and completion rule.
        from autoplayer.games.nonogram.pattern.game import PatternGame

        return PatternGame(templates, pace)
    return NonogramGame(chosen, pace, templates)
