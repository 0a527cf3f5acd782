"""Reading a Pattern canvas: grid, cells, clues (templates + shape reader), clipping.

`read_pattern` is a pure function of the pixels: it raises `InputError`
naming the pixel region when something cannot be read with confidence, and
never guesses a number hidden by clipping (that line's clue is left unknown,
with the numbers that are visible kept as a known tail).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import Clue, Puzzle, min_length
from autoplayer.games.nonogram.pattern.clues import (
    Canvas,
    ClueLine,
    bands,
    digit_size,
    find_canvas,
    segment,
)
from autoplayer.games.nonogram.pattern.digits import SURE, DigitReading, read_digit
from autoplayer.games.nonogram.pattern.grid import Grid, cell_states, find_grid
from autoplayer.geometry import Rect

if TYPE_CHECKING:
    from autoplayer.vision.templates import TemplateSet

MIN_DIGIT_HEIGHT = 6
"""Shorter digits (Pattern's small font below 14 px tiles) are misread as often as not."""



@dataclass(frozen=True, eq=False)
class NumberRead:
    value: int | None
    """None when clipped (unknown) or unread."""
    digits: tuple[DigitReading, ...]
    box: tuple[int, int, int, int]
    clipped: bool = False

    @property
    def confidence(self) -> float:
        return min((d.confidence for d in self.digits), default=0.0)


@dataclass(frozen=True, eq=False)
class LineRead:
    kind: str
    index: int
    numbers: tuple[NumberRead, ...]
    open: bool = False
    """Numbers may lie beyond the canvas edge: `known` is then only the clue's tail."""

    @property
    def clipped(self) -> bool:
        return self.open or any(n.clipped for n in self.numbers)

    @property
    def hidden(self) -> int:
        """Numbers certainly there but not readable (a number cut by the edge)."""
        return sum(n.clipped for n in self.numbers)

    @property
    def known(self) -> Clue:
        """The numbers certainly there: all of them, or the tail after a clipped one."""
        return tuple(n.value for n in self.numbers if not n.clipped and n.value is not None)

    @property
    def name(self) -> str:
        return f"{self.kind} {self.index + 1}"


@dataclass(frozen=True, eq=False)
class PatternRead:
    """What the screen shows, in frame pixels."""

    grid: Grid
    canvas: Canvas
    rows: tuple[LineRead, ...]
    columns: tuple[LineRead, ...]
    cells: np.ndarray
    cell_sure: np.ndarray = field(repr=False)
    ink: float = 0.0
    """The clue text's luminance (cells as dark as it are filled)."""

    @property
    def puzzle(self) -> Puzzle:
        """The clues; a clipped line's clue is None (unknown)."""
        def clue(line: LineRead) -> Clue | None:
            return None if line.clipped else line.known

        return Puzzle(tuple(clue(r) for r in self.rows),  # type: ignore[misc]
                      tuple(clue(c) for c in self.columns))  # type: ignore[misc]

    @property
    def clipped(self) -> tuple[LineRead, ...]:
        return tuple(line for line in (*self.rows, *self.columns) if line.clipped)

    @property
    def xs(self) -> tuple[float, ...]:
        return self.grid.centres()[0]

    @property
    def ys(self) -> tuple[float, ...]:
        return self.grid.centres()[1]

    @property
    def board(self) -> Rect:
        """Where input may go: the cells, not the outline."""
        g = self.grid
        return Rect(g.x_ends[0] + 1, g.y_ends[0] + 1, g.xs[-1] - g.x_ends[0] - 1,
                    g.ys[-1] - g.y_ends[0] - 1)


def _read_line(line: ClueLine, templates: TemplateSet | None) -> LineRead:
    numbers = []
    for num in line.numbers:
        digits = tuple(read_digit(g.ink, templates) for g in num.glyphs)
        value = None
        if not num.clipped and all(d.value is not None for d in digits):
            value = int("".join(str(d.value) for d in digits))
        numbers.append(NumberRead(value, digits, num.box, num.clipped))
    return LineRead(line.kind, line.index, tuple(numbers), line.clipped)


def read_pattern(pixels: np.ndarray, templates: TemplateSet | None = None) -> PatternRead:
    """The whole reading; `InputError` naming the region of whatever could not be read."""
    grid = find_grid(pixels)
    canvas = find_canvas(pixels, grid)
    raw = bands(pixels, grid, canvas)
    height, _ = digit_size(raw)
    if 0 < height < MIN_DIGIT_HEIGHT:
        r = grid.rect
        raise InputError(f"the clue digits are {height:g} px tall, too small to read "
                         f"reliably (at least {MIN_DIGIT_HEIGHT} px; give the game larger "
                         "tiles, e.g. PATTERN_TILESIZE=16)", region=(0, 0, r.x, r.y + r.h))
    lines = [_read_line(line, templates) for line in segment(raw, canvas)]
    rows = tuple(line for line in lines if line.kind == "row")
    columns = tuple(line for line in lines if line.kind == "column")
    ink = _ink_luminance(pixels, lines)
    cells, sure = cell_states(pixels, grid, ink)
    read = PatternRead(grid, canvas, rows, columns, cells, sure, ink)
    return settle(read)


def _ink_luminance(pixels: np.ndarray, lines: list[LineRead]) -> float:
    """The darkest clue pixel's luminance (the text colour), 0 when there is no text."""
    from autoplayer.games.nonogram.pattern.grid import luminance

    darkest = 255.0
    for line in lines:
        for n in line.numbers:
            x0, y0, x1, y1 = n.box
            if x1 > x0 and y1 > y0:
                darkest = min(darkest, float(np.min(luminance(pixels[y0:y1, x0:x1]))))
    return darkest if darkest < 255 else 0.0


def reread_cells(pixels: np.ndarray, previous: PatternRead) -> PatternRead:
    """Only the cells again (input changes nothing else); the grid must be where it was."""
    grid = find_grid(pixels)
    if (grid.xs, grid.ys) != (previous.grid.xs, previous.grid.ys):
        r = grid.rect
        raise InputError("the board changed size or place since it was read (window resized?)",
                         region=(r.x, r.y, r.w, r.h))
    cells, sure = cell_states(pixels, grid, previous.ink)
    return replace(previous, grid=grid, cells=cells, cell_sure=sure)


# -- validation ------------------------------------------------------------------------
def _problems(read: PatternRead) -> list[tuple[LineRead, str]]:
    """Lines whose reading cannot be right, with why."""
    out = []
    for line in (*read.rows, *read.columns):
        length = read.grid.width if line.kind == "row" else read.grid.height
        for n in line.numbers:
            if n.clipped:
                continue
            if n.value is None:
                out.append((line, "a digit reads as no digit"))
                break
            if n.value < 1 or (len(n.digits) > 1 and n.digits[0].value == 0):
                out.append((line, f"the number {n.value} cannot be a clue"))
                break
        else:
            if min_length(line.known) > length:
                out.append((line, f"the clue {' '.join(map(str, line.known))} does not fit "
                                  f"its {length} cells"))
    if not read.clipped and not out:
        rows = sum(map(sum, (r.known for r in read.rows)))
        cols = sum(map(sum, (c.known for c in read.columns)))
        if rows != cols:
            out.append((read.rows[0], f"row clues fill {rows} cells, column clues {cols}"))
    return out


def doubtful(read: PatternRead) -> list[tuple[LineRead, int, int]]:
    """(line, number index, digit index) of every digit read without certainty."""
    return [(line, i, j) for line in (*read.rows, *read.columns)
            for i, n in enumerate(line.numbers) if not n.clipped
            for j, d in enumerate(n.digits) if d.confidence < SURE]


def with_digit(read: PatternRead, line: LineRead, i: int, j: int, value: int) -> PatternRead:
    """The reading with one digit replaced (trying a next-best reading)."""
    n = line.numbers[i]
    digits = list(n.digits)
    digits[j] = replace(digits[j], value=value, confidence=SURE)
    number = replace(n, digits=tuple(digits),
                     value=int("".join(str(d.value) for d in digits)))
    new_line = replace(line, numbers=(*line.numbers[:i], number, *line.numbers[i + 1:]))
    if line.kind == "row":
        rows = tuple(new_line if r is line else r for r in read.rows)
        return replace(read, rows=rows)
    columns = tuple(new_line if c is line else c for c in read.columns)
    return replace(read, columns=columns)


def settle(read: PatternRead) -> PatternRead:
    """The reading made consistent, or `InputError` naming the line and glyph that are not.

    Where a line cannot be right and holds doubtful digits, their next-best
    readings are tried (one digit at a time, then two); the first that makes
    every line plausible wins.
    """
    problems = _problems(read)
    if not problems:
        return read
    unsure = doubtful(read)
    for k in (1, 2):
        for combo in itertools.combinations(unsure, k):
            options = []
            for line, i, j in combo:
                d = line.numbers[i].digits[j]
                options.append([v for v in (d.template, d.shape, *d.alternatives)
                                if v is not None and v != d.value])
            for values in itertools.product(*options):
                trial = read
                for (line, i, j), v in zip(combo, values, strict=True):
                    current = next(x for x in (*trial.rows, *trial.columns)
                                   if x.kind == line.kind and x.index == line.index)
                    trial = with_digit(trial, current, i, j, v)
                if not _problems(trial):
                    return trial
    line, why = problems[0]
    bad = next((n for n in line.numbers if n.value is None or n.confidence < SURE),
               line.numbers[0] if line.numbers else None)
    region = None
    if bad is not None:
        x0, y0, x1, y1 = bad.box
        region = (x0, y0, x1 - x0, y1 - y0)
    raise InputError(f"cannot read the clue of {line.name}: {why}", region=region)
