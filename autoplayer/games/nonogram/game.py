"""The nonogram back-end for the play loop: reader, solver and planner behind `Game`.

What is particular to one nonogram game (which button does what, whether
empty cells must be marked, how it takes drags, how fast) is a `Profile` plus
a `Pace`; everything else is the same for the bundled browser game and for
Simon Tatham's Pattern.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
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

# The bundled browser game (webgame/static/nonogram/game.js): left sets FILLED
# and right sets EMPTY, except on a cell already in that state, which they
# clear; a drag paints the run from the pressed cell to the pointer with what
# the press did to the first cell.
WEB = Profile(
    name="web",
    press={
        (UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
        (EMPTY, Button.LEFT): FILLED,
        (UNKNOWN, Button.RIGHT): EMPTY, (EMPTY, Button.RIGHT): UNKNOWN,
        (FILLED, Button.RIGHT): EMPTY,
    },
    drags=True,
    drag_each_cell=False,
    mark_empty=False,
)

PROFILES: dict[str, tuple[Profile, Pace]] = {
    # Without 10 ms around a drag's motion, Chromium under load applied some drags wrongly
    # (bench nonogram-play: 2 of 5 20x20 runs needed repairs; with it, none).
    "web": (WEB, Pace(gesture=0.0, motion=0.01, click=0.0)),
    # Pattern ends a drag at the last motion GTK reported, and GTK (motion hints)
    # loses a motion that follows the previous one too closely: measured on 20x20
    # boards on a loaded machine (bench/bench_pattern.py), 10 ms between a drag's two
    # motions lost cells, 15 ms now and then, 20 ms none, with the release at once.
    # A lost motion is repaired after the verifying capture.
    "pattern": (TATHAM_PATTERN, Pace(gesture=0.0, motion=0.020, click=0.0, release=0.0)),
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
    unknown_level: float | None = None
    """Median luminance of the cells first read as UNKNOWN: an undecided cell's look."""
    layout: Any = field(default=None, repr=False)
    """The clue layout as first seen (ink dark or light): games recolour clues as you play
    (Pattern greys them, the bundled game dims them when solved), so it is not re-derived."""


class NonogramGame:
    """`autoplayer.games.base.Game` for nonograms; the profile says how the game takes input."""

    name = "nonogram"
    max_batches = 4
    unit = "cell"
    reads_clipped = False
    """Clues running off the window's edge are read as unknown tails (`read_nonogram`'s
    `clipped`) rather than refused; the game's `solve` must then honour the tails."""
    min_digit_height = 0.0
    """Clue digits shorter than this (px) are refused rather than read."""

    def __init__(self, profile: Profile = WEB, pace: Pace | None = None,
                 templates: str | None = None) -> None:
        self.profile = profile
        self.pace = pace if pace is not None else PROFILES.get(profile.name, (profile, Pace()))[1]
        self.templates = templates
        self._loaded: Any = None

    # -- reading ----------------------------------------------------------
    def read(self, frame: Frame, previous: Reading | None = None) -> Reading:
        """The whole board; after input only the cells (the clues cannot have changed)."""
        from autoplayer.games.nonogram.reader import read_cells, read_nonogram

        if previous is None:
            result = read_nonogram(frame.pixels, templates=self._templates(),
                                   fallbacks=self._fallbacks(), clipped=self.reads_clipped,
                                   margin=True, min_digit_height=self.min_digit_height,
                                   source="window")
            first = reader_reading(result)
            levels = cell_levels(frame.pixels, first.raw.cells)
            unknown = levels[first.shown == UNKNOWN]
            level = float(np.median(unknown)) if unknown.size else None
            return replace(first, unknown_level=level, layout=result.layout)
        raw = previous.raw
        state = read_cells(frame.pixels, raw.grid, previous.layout)
        if previous.unknown_level is not None:
            state = settle_unknowns(state, cell_levels(frame.pixels, raw.cells),
                                    previous.unknown_level)
        return replace(previous, shown=state, raw=replace(raw, state=state))

    def _templates(self) -> Any:
        from autoplayer.vision.templates import NO_TEMPLATES, load_templates

        if self.templates in (None, NO_TEMPLATES):
            return None
        if self._loaded is None:
            self._loaded = load_templates(self.templates)
        return self._loaded

    def _fallbacks(self) -> Iterator[Any]:
        """Every calibrated set, tried in turn when no set was named and the clues do not
        check out (see `read_nonogram`)."""
        if self.templates is None:
            from autoplayer.vision.templates import every_template_set

            yield from every_template_set()

    def board(self, reading: Reading) -> Rect:
        return reading.grid

    # -- solving ----------------------------------------------------------
    def solve(self, reading: Reading) -> Solved[np.ndarray]:
        from autoplayer.games.nonogram.solver import Verdict, solve

        region = (reading.grid.x, reading.grid.y, reading.grid.w, reading.grid.h)
        if not any(n for clue in (*reading.puzzle.rows, *reading.puzzle.columns)
                   for n in (clue or ())):
            # Nothing to fill anywhere: not a puzzle the bot may call solved.
            raise InputError("no nonogram here: every clue read is empty", region=region)
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
        notes = []
        used = getattr(reading.raw, "template_set", None)
        if used is not None and used != getattr(self._templates(), "name", None):
            notes.append(f"clues read with the calibrated templates {used}")
        if result.verdict is Verdict.MULTIPLE:
            notes.append("the clues allow several solutions; playing one of them")
        return Solved(result.solutions[0], "; ".join(notes))

    # -- acting -----------------------------------------------------------
    def plan(self, reading: Reading, solution: np.ndarray) -> list[Stroke]:
        return planner.plan(reading.shown, solution, self.profile)

    def gestures(self, reading: Reading, moves: Sequence[Stroke]) -> list[Gesture]:
        return planner.gestures(moves, reading.xs, reading.ys, self.profile)

    def units(self, moves: Sequence[Stroke]) -> int:
        return sum(len(m) for m in moves)

    def fixes(self, moves: Sequence[Stroke]) -> int:
        """Every cell the strokes press is a wrong cell they put right."""
        return len({cell for m in moves for cell in m.cells()})

    def check(self, reading: Reading, solution: np.ndarray) -> Check:
        wrong = [
            (r, c) for (r, c), have in np.ndenumerate(reading.shown)
            if int(have) not in planner.wanted(int(solution[r, c]), self.profile)
        ]
        details = tuple(f"row {r + 1} column {c + 1}" for r, c in wrong[:5])
        return Check(len(wrong), int(solution.size), None, details)

    def overlay(self, frame: Frame, reading: Reading, solution: np.ndarray | None) -> np.ndarray:
        """The board, every cell and every number read (low-confidence ones marked), and
        what the bot would do: '#' a cell to fill, 'x' one to mark, '-' one to clear."""
        from autoplayer.games.nonogram.reader import LOW_CONFIDENCE
        from autoplayer.vision.overlay import draw_overlay

        raw = reading.raw
        marks = []
        if solution is not None:
            label = {FILLED: "#", EMPTY: "x", UNKNOWN: "-"}
            for stroke in self.plan(reading, solution):
                for r, c in stroke.cells():
                    after = self.profile.press[(int(reading.shown[r, c]), stroke.button)]
                    marks.append((raw.cells[r][c], label[after]))
        # A number cut by the picture's edge has no value: it shows as '?'.
        cut = {(c.kind, c.index) for c in getattr(raw, "clipped", ()) if c.cut}
        numbers: list[tuple[int | str, float, Rect]] = [
            ("?", 0.0, n.box) if (kind, i) in cut and n is raw.row_or_column(kind, i)[0]
            else (n.value, n.confidence, n.box) for kind, i, n in raw.numbers()]
        ignored = raw.layout.ignored if getattr(raw, "layout", None) is not None else ()
        return draw_overlay(frame.pixels, raw.board, raw.cells, numbers, low=LOW_CONFIDENCE,
                            cell_marks=marks, ignored=ignored)


def reader_reading(result: Any) -> Reading:
    """The reader's result as the loop's Reading: cell centres and the board to click in."""
    xs = tuple((x0 + x1 - 1) / 2 for x0, x1 in result.grid.xs)
    ys = tuple((y0 + y1 - 1) / 2 for y0, y1 in result.grid.ys)
    return Reading(puzzle=result.puzzle, shown=result.state, xs=xs, ys=ys,
                   grid=result.board, raw=result)


UNDECIDED_TOLERANCE = 40.0
"""Luminance steps (0..255) an undecided cell may differ by from how undecided cells looked."""


def cell_levels(pixels: np.ndarray, cells: Sequence[Sequence[Rect]]) -> np.ndarray:
    """Median luminance of the middle of every cell (a quarter in from each side).

    Cells differ by a pixel where thick lines run: one patch of the smallest cell's
    middle size is taken from each, all at once.
    """
    from autoplayer.vision.image import luminance

    if not cells or not cells[0]:
        return np.zeros((len(cells), 0), dtype=np.float32)
    lum = luminance(pixels)
    side = min(min(c.w, c.h) for row in cells for c in row)
    m = max(1, side // 4) if side > 2 else 0
    k = max(1, side - 2 * m)
    ys = np.array([row[0].y + m for row in cells])[:, None] + np.arange(k)
    xs = np.array([c.x + m for c in cells[0]])[:, None] + np.arange(k)
    patches = lum[ys[:, None, :, None], xs[None, :, None, :]]
    return np.median(patches.reshape(len(cells), len(cells[0]), k * k), axis=2
                     ).astype(np.float32)


def settle_unknowns(state: np.ndarray, levels: np.ndarray, unknown_level: float) -> np.ndarray:
    """Cells read UNKNOWN that no longer look like the undecided cells did are marked EMPTY.

    The reader alone cannot tell Pattern's white (empty) from an undecided cell
    once no grey one is left to compare with; the first reading saw them.
    """
    out = state.copy()
    out[(state == UNKNOWN) & (np.abs(levels - unknown_level) > UNDECIDED_TOLERANCE)] = EMPTY
    return out


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
        # Pattern's clipped clues and its completion rule.
        from autoplayer.games.nonogram.pattern.game import PatternGame

        return PatternGame(templates, pace)
    return NonogramGame(chosen, pace, templates)
