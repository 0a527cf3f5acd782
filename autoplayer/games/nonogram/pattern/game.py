"""Simon Tatham's Pattern behind the play loop: its reader, clipped clues, its completion.

Everything else (planning strokes, the paced drags GTK needs, verifying and
repairing) is the shared nonogram back-end with the `pattern` profile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import Check, Solved
from autoplayer.games.nonogram.game import (
    NO_TEMPLATES,
    PROFILES,
    SOLVE_TIMEOUT,
    NonogramGame,
    Reading,
)
from autoplayer.games.nonogram.model import line_clue
from autoplayer.games.nonogram.pattern import completion
from autoplayer.games.nonogram.pattern.reader import PatternRead, read_pattern, reread_cells
from autoplayer.screen.input import Pace
from autoplayer.vision.templates import BUNDLED

if TYPE_CHECKING:
    from autoplayer.screen.capture import Frame
    from autoplayer.vision.templates import TemplateSet

TEMPLATES_DIR = BUNDLED
DEFAULT_TEMPLATES = "pattern"
ENUMERATE = 64
"""With clipped clues: solutions enumerated to find the one the visible numbers allow."""


def load_named(name: str | None) -> TemplateSet | None:
    """The set NAME (a directory, or a name on the template search path).

    With no name, Pattern's own set when it is there, else None: the state
    machines then read alone.
    """
    from autoplayer.vision.templates import load_templates

    if name == NO_TEMPLATES:
        return None
    if name is None:
        default = TEMPLATES_DIR / DEFAULT_TEMPLATES
        return load_templates(default) if (default / "index.json").exists() else None
    return load_templates(name)


def to_reading(read: PatternRead) -> Reading:
    return Reading(puzzle=read.puzzle, shown=read.cells, xs=read.xs, ys=read.ys,
                   grid=read.board, raw=read)


class PatternGame(NonogramGame):
    """`Game` for Tatham's Pattern."""

    name = "pattern"

    def __init__(self, templates: str | None = None, pace: Pace | None = None) -> None:
        profile, default_pace = PROFILES["pattern"]
        super().__init__(profile, pace or default_pace, templates)
        self.digit_templates = load_named(templates)

    def read(self, frame: Frame, previous: Reading | None = None) -> Reading:
        if previous is None:
            return to_reading(read_pattern(frame.pixels, self.digit_templates))
        return to_reading(reread_cells(frame.pixels, previous.raw))

    def solve(self, reading: Reading) -> Solved[np.ndarray]:
        read = reading.raw
        if isinstance(read, PatternRead) and read.clipped:
            return solve_clipped(read)
        return super().solve(reading)

    def check(self, reading: Reading, solution: np.ndarray) -> Check:
        base = super().check(reading, solution)
        if completion.flashing(reading.shown, solution):
            return Check(0, base.total, True, ("caught the game's completion flash",))
        rows, columns = _lines(reading)
        done = completion.finished(reading.shown, rows, columns)
        return Check(base.wrong, base.total, done, base.details)


    def overlay(self, frame: Frame, reading: Reading, solution: np.ndarray | None) -> np.ndarray:
        """The dry run's picture: board, cells, every number read (clipped ones as '?')."""
        return draw_reading(frame.pixels, reading.raw, solution)


def _lines(reading: Reading) -> tuple[list[completion.Line], list[completion.Line]]:
    """Each line's clue as completion counts it: from Pattern's reader, clipping and all,
    or (a reading made elsewhere) from the puzzle, an unknown clue counting as open."""
    read = reading.raw
    if isinstance(read, PatternRead):
        return ([(line.known, line.clipped, line.hidden) for line in read.rows],
                [(line.known, line.clipped, line.hidden) for line in read.columns])

    def line(clue: tuple[int, ...] | None) -> completion.Line:
        return ((), True, 0) if clue is None else (clue, False, 0)

    return ([line(c) for c in reading.puzzle.rows], [line(c) for c in reading.puzzle.columns])


def draw_reading(pixels: np.ndarray, read: PatternRead,
                 solution: np.ndarray | None) -> np.ndarray:
    from autoplayer.games.nonogram.model import EMPTY, FILLED
    from autoplayer.games.nonogram.pattern.digits import SURE
    from autoplayer.geometry import Rect
    from autoplayer.vision.overlay import draw_overlay

    g = read.grid
    cells = [[Rect(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in
              (g.cell_box(r, c) for c in range(g.width))] for r in range(g.height)]
    numbers = []
    for line in (*read.rows, *read.columns):
        for n in line.numbers:
            x0, y0, x1, y1 = n.box
            shown = "?" if n.value is None else n.value
            numbers.append((shown, 0.0 if n.clipped else n.confidence,
                            Rect(x0, y0, x1 - x0, y1 - y0)))
    marks = []
    wanted = solution if solution is not None else read.cells
    for (r, c), state in np.ndenumerate(wanted):
        if state in (FILLED, EMPTY):
            marks.append((cells[r][c], "#" if state == FILLED else "x"))
    return draw_overlay(pixels, read.board, cells, numbers, low=SURE,  # type: ignore[arg-type]
                        cell_marks=marks)


def solve_clipped(read: PatternRead) -> Solved[np.ndarray]:
    """Solve with clipped lines' clues unknown, keeping solutions their visible tails allow.

    Never guesses: when more than one solution is left (or the enumeration
    could not finish), it stops and names the clipped lines.
    """
    from autoplayer.games.nonogram.solver import Verdict, solve

    clipped = read.clipped
    names = ", ".join(line.name for line in clipped)
    region = (read.grid.rect.x, read.grid.rect.y, read.grid.rect.w, read.grid.rect.h)
    result = solve(read.puzzle, max_solutions=ENUMERATE, timeout=SOLVE_TIMEOUT)
    if result.verdict is Verdict.TIMEOUT:
        raise UserError(f"{names}: clue clipped at the window's edge, and the solver found no "
                        f"solution from the other clues within {SOLVE_TIMEOUT:g} s")
    if result.verdict is Verdict.CONTRADICTION:
        raise InputError("the clues read have no solution even with the clipped clues of "
                         f"{names} left open; a clue was misread", region=region)

    def allowed(grid: np.ndarray) -> bool:
        return all(
            completion.tail_fits(line_clue(grid[line.index] if line.kind == "row"
                                           else grid[:, line.index]), line.known, line.hidden)
            for line in clipped)

    left = [s for s in result.solutions if allowed(s)]
    complete = len(result.solutions) < ENUMERATE
    if complete and len(left) == 1:
        note = (f"{names}: clue clipped at the window's edge; solved from the numbers "
                "visible and the other clues")
        return Solved(left[0], note)
    if complete and not left:
        raise InputError(f"no solution agrees with the visible part of the clipped clues of "
                         f"{names}; a clue was misread", region=region)
    raise UserError(f"{names}: clue clipped at the window's left edge, and the clues that are "
                    "visible allow more than one solution; a number is missing, so the bot "
                    "will not guess (run Pattern with a larger PATTERN_TILESIZE or a smaller "
                    "puzzle)")

