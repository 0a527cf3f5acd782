"""Reading a nonogram from a screenshot: board, cells, clues, and a check before anyone acts.

`read_nonogram` finds the grid, reads every clue number (scanline state
machines, plus calibrated templates when given), reads what each cell shows,
and validates the puzzle: every clue fits its line, row and column totals
agree and the solver finds a solution. When that fails it re-reads the least
confident numbers with their next-best readings; when nothing works it raises
`InputError` naming the line and the glyph's pixel region, with an ASCII
picture of the glyph. The bot never acts on a reading it could not verify.
What it refuses before reading a clue is in `refusals`, the check and its
corrections in `validation`, the cells in `cell_states`, and clues cut by
the picture's edge in `clipped`.

A clue may run off the picture's edge (a game window too small for its
clues). By default clue ink on the edge is an error naming the lines, and a
reading whose clues start near the edge is taken only as read, never
corrected (a whole number beyond the edge would explain a misfit too). A
caller that opts in (`clipped=True`) gets those lines' clues as unknown
(None), their visible numbers kept as a known tail, nothing guessed; and it
is cautious the other way too: a number stopping closer to the edge than the
digits of one number stand apart may be cut (its value unknown), and a clue
starting closer to it than numbers are spaced may have whole numbers beyond.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from autoplayer.errors import InputError
from autoplayer.games.nonogram.boards import rank_boards
from autoplayer.games.nonogram.cell_states import read_cells
from autoplayer.games.nonogram.clipped import ClippedLine, clipped_lines, edge_error
from autoplayer.games.nonogram.model import Puzzle
from autoplayer.games.nonogram.refusals import (
    refuse_cut_board,
    refuse_if_not_a_nonogram,
    refuse_numbers_on_every_side,
    refuse_other_puzzles,
    refuse_short_board,
    refuse_unseen_clues,
)
from autoplayer.games.nonogram.validation import puzzle_of, validate_reading
from autoplayer.geometry import Rect
from autoplayer.vision.clues import ClueLayout, find_clues
from autoplayer.vision.grid import Grid
from autoplayer.vision.image import luminance, shared_luminance
from autoplayer.vision.ink_axis import ink_axis_luminances
from autoplayer.vision.lattice import find_lattices
from autoplayer.vision.numbers import ClueNumber, clue_slant, read_lines
from autoplayer.vision.sides import clue_sides
from autoplayer.vision.templates import TemplateSet
from autoplayer.vision.texture import flatten_texture

LOW_CONFIDENCE = 0.5
"""Numbers read with less confidence than this are marked on overlays."""
REREAD_SECONDS = 3.0
"""No new reading is validated after this many seconds of reading the board again (an
italic font set upright, glyphs judged in the board's digit width): on the looks corpora
the re-readings that validated did so within 0.5 s, while a board refused after them
took up to 15 s."""
MIN_DIGIT_HEIGHT = 5.0
"""Clue digits shorter than this (px; the board's smaller digits, `small_digits`) are
refused rather than read, whatever draws them: too few pixels are left to tell digits
apart. Measured on generated boards, a 4 px font (Tatham's Pattern's small one at 12 px
tiles) was misread on 10 of 11 (each caught by validation, which cannot be counted on),
while 5 px fonts read right (Pattern at 13 px tiles: 26 of 27, one refused; the bundled
page's fonts at 12 px cells, with their templates)."""


@dataclass(frozen=True)
class NonogramReading:
    puzzle: Puzzle
    grid: Grid
    board: Rect
    cells: tuple[tuple[Rect, ...], ...]
    """cells[row][col]: each cell's interior."""
    state: np.ndarray
    """H×W int8: UNKNOWN, FILLED or EMPTY (marked) as the screen shows it."""
    row_numbers: tuple[tuple[ClueNumber, ...], ...]
    column_numbers: tuple[tuple[ClueNumber, ...], ...]
    clipped_rows: tuple[int, ...] = ()
    corrections: tuple[str, ...] = field(default=())
    """What the validator changed from the first reading, e.g. 'row 3: 8 -> 6'."""
    template_set: str | None = None
    """The calibrated templates the clues were read with (None: state machines alone)."""
    clipped: tuple[ClippedLine, ...] = ()
    """Lines whose clue runs off the picture's edge (only with `read_nonogram(clipped=True)`;
    their clue in `puzzle` is None)."""
    layout: ClueLayout | None = field(default=None, repr=False)
    """The clue bands as found (ink dark or light, its levels)."""
    near_edge: tuple[ClippedLine, ...] = ()
    """Without `clipped`: lines whose clue starts nearer the picture's edge than numbers
    stand apart, so that a whole number beyond the edge would not show (see `edge_lines`)."""
    passed_over: tuple[Rect, ...] = ()
    """Other ruled regions in view that were candidates for the board (a menu panel of
    boxes, a toolbar) and were passed over for this one, for the overlay to show."""

    def numbers(self) -> list[tuple[str, int, ClueNumber]]:
        """Every number read, as (kind, line index, number)."""
        return ([("row", i, n) for i, line in enumerate(self.row_numbers) for n in line]
                + [("column", j, n) for j, line in enumerate(self.column_numbers) for n in line])

    def row_or_column(self, kind: str, index: int) -> tuple[ClueNumber, ...]:
        """The numbers read for one line."""
        return (self.row_numbers if kind == "row" else self.column_numbers)[index]

    def tail(self, line: ClippedLine) -> tuple[int, ...]:
        """The numbers of a clipped line certainly in its clue: those after a cut one."""
        return tuple(n.value for n in self.row_or_column(line.kind, line.index)[int(line.cut):])


def read_nonogram(image: np.ndarray, *, templates: TemplateSet | None = None,
                  fallbacks: Iterable[TemplateSet] = (),
                  verify: bool = True, clipped: bool = False, margin: bool = False,
                  min_digit_height: float = MIN_DIGIT_HEIGHT, source: str = "picture"
                  ) -> NonogramReading:
    """Read the puzzle and board state shown in an H×W×3 RGB image (see module docstring).

    `fallbacks`: template sets to read the clues with when the first reading
    (with `templates`, or the state machines alone) does not validate; the
    reading of the set that fits the glyphs best and validates is taken, and
    `template_set` names it. A game's look is unknown to the bot, so it tries
    every calibrated font it has rather than trusting a guess; the iterable is
    only consumed on that path (loading sets is not free).

    `clipped`: clues running off the picture's edge are left unknown (see the
    module docstring) instead of being an error. `margin`: clues starting near
    the edge (`near_edge`) are an error too, for a caller about to act on the
    reading. `source`: what the picture is, for messages naming its edges ('picture'
    for a file, 'window' for a window's capture). `min_digit_height`: clue
    digits shorter than this many pixels are refused rather than read, whatever
    draws them (`MIN_DIGIT_HEIGHT`: too small to trust).
    """
    if image.ndim != 3 or image.shape[2] < 3:
        raise InputError(f"expected an RGB image, got an array of shape {image.shape}")
    image = image[..., :3]
    with shared_luminance(image):
        return _read_nonogram(image, templates, fallbacks, verify, clipped, margin,
                              min_digit_height, source)


def _read_nonogram(image: np.ndarray, templates: TemplateSet | None,
                   fallbacks: Iterable[TemplateSet], verify: bool, clipped: bool, margin: bool,
                   min_digit_height: float, source: str) -> NonogramReading:
    """`read_nonogram` of an RGB picture, its luminance made once."""
    candidates = find_lattices(image)
    if len(candidates) > 1:
        candidates = rank_boards(luminance(image), candidates)
        fallbacks = _Replayable(fallbacks)  # each candidate may need them
    first_error: InputError | None = None
    for grid in candidates:
        try:
            reading = _read_board(image, grid, templates, fallbacks, verify, clipped, margin,
                                  min_digit_height, source)
        except InputError as err:
            first_error = first_error or err
            continue
        return replace(reading, passed_over=tuple(g.rect for g in candidates if g is not grid))
    assert first_error is not None
    raise first_error


def _read_board(image: np.ndarray, grid: Grid, templates: TemplateSet | None,
                fallbacks: Iterable[TemplateSet], verify: bool, clipped: bool, margin: bool,
                min_digit_height: float, source: str) -> NonogramReading:
    """`read_nonogram` on one candidate board. When it is refused and a periodic texture
    lies under the clues (a halftone of dots, whose dots pass for specks of ink and rows
    of them for rules), the board is read again with the texture flattened to its paper
    (`flatten_texture`); the first refusal stands if that is refused too."""
    if not isinstance(fallbacks, _Replayable):
        fallbacks = _Replayable(fallbacks)  # the second reading may want them too
    try:
        return _read_one_board(image, grid, templates, fallbacks, verify, clipped, margin,
                               min_digit_height, source)
    except InputError as first:
        for seen in _other_sights(image, grid):
            try:
                with shared_luminance(image, seen):
                    return _read_one_board(image, grid, templates, fallbacks, verify, clipped,
                                           margin, min_digit_height, source)
            except InputError:
                continue
        raise first from None


def _other_sights(image: np.ndarray, grid: Grid) -> Iterator[np.ndarray]:
    """Other luminances to read a refused board in, each made when reached: its texture
    flattened (`flatten_texture`), then along the clue ink's colour axis."""
    flat = flatten_texture(luminance(image), grid.rect, grid.pitch)
    if flat is not None:
        yield flat
    yield from _ink_axis(image, grid)


def _ink_axis(image: np.ndarray, grid: Grid) -> list[np.ndarray]:
    """The picture's luminances along the clue ink's colour axis (`ink_axis_luminances`),
    for a board refused as luminance shows it; none when its clues cannot be found or
    luminance already sets their ink apart about as well."""
    try:
        layout = find_clues(image, grid, clue_sides(luminance(image), grid))
    except InputError:
        return []
    return ink_axis_luminances(image, layout)


def _read_one_board(image: np.ndarray, grid: Grid, templates: TemplateSet | None,
                    fallbacks: Iterable[TemplateSet], verify: bool, clipped: bool,
                    margin: bool, min_digit_height: float, source: str) -> NonogramReading:
    """`_read_board` once the picture's luminance is what its stages should see."""
    refuse_cut_board(image, grid, source)
    refuse_other_puzzles(luminance(image), grid)
    sides = clue_sides(luminance(image), grid)
    refuse_numbers_on_every_side(sides, grid)
    layout = find_clues(image, grid, sides)
    refuse_if_not_a_nonogram(layout)
    refuse_unseen_clues(image, layout)
    refuse_short_board(image, layout)
    small = small_digits(layout)
    if small is not None and small < min_digit_height:
        board = grid.rect
        raise InputError(f"the clue digits are {small:g} px tall, too small to "
                         f"read reliably (at least {min_digit_height:g} px; make the game draw "
                         "larger)", region=(0, 0, board.x, board.bottom))
    cells = tuple(tuple(grid.cell(r, c) for c in range(grid.width)) for r in range(grid.height))
    state = read_cells(image, grid, layout)
    cut_lines: tuple[ClippedLine, ...] | None = None

    def reading_with(chosen: TemplateSet | None, slant: float = 0.0,
                     board_width: bool = False) -> NonogramReading:
        nonlocal cut_lines
        rows, columns = read_lines(layout, chosen, luminance(image), slant, board_width)
        if cut_lines is None:  # where ink meets the edge does not depend on the digits
            # Without the opt-in only ink on the edge itself counts: clues a game packs
            # close to its window's edge are read as they are, as they always were.
            cut_lines = clipped_lines(layout, rows, columns) if clipped else tuple(
                ClippedLine(kind, i, True, 1) for kind, lines in
                (("row", layout.clipped_rows), ("column", layout.clipped_columns))
                for i in lines)
        return NonogramReading(
            puzzle_of(rows, columns, cut_lines), grid, grid.rect, cells, state,
            tuple(tuple(r) for r in rows), tuple(tuple(c) for c in columns),
            layout.clipped_rows, template_set=chosen.name if chosen is not None else None,
            clipped=cut_lines, layout=layout,
        )

    reading = reading_with(templates)
    if reading.clipped and not clipped:
        raise edge_error(layout, reading.clipped, "run off", ": numbers may be missing")
    # Without the opt-in, a clue that starts nearer the edge than numbers stand apart is
    # read as it is, and said to be so. When the clues then do not add up, a number
    # wholly beyond the edge explains that as well as a misread digit does: nothing is
    # corrected or re-read.
    near_edge = () if clipped else clipped_lines(
        layout, [list(r) for r in reading.row_numbers], [list(c) for c in reading.column_numbers])
    if near_edge and margin:
        raise edge_error(layout, near_edge, "start near", ": whole numbers beyond the edge "
                         "would not show (give the game more room)")
    reading = replace(reading, near_edge=near_edge)
    if not verify:
        return reading
    try:
        return validate_reading(reading, correct=not near_edge)
    except InputError as first_error:
        if near_edge:
            raise edge_error(
                layout, near_edge, "start near", " and the clues read do not add up: whole "
                "numbers may lie beyond the edge",
            ) from None
        tried = templates.name if templates is not None else None
        sets = [t for t in fallbacks if t.name != tried]
        # Then, as a person looks again at a board that does not add up: an italic font
        # set upright, by every reader (`clue_slant`: the readers describe upright digits,
        # and an italic 1 leans like a 7's diagonal); and each glyph judged against the
        # width the board's digits take (a narrow 1's flag spans its own width as a 7's
        # bar does). Each round only when the ones before found nothing.
        slant = clue_slant(layout)
        rounds = [lambda: [reading_with(t) for t in sets],
                  lambda: [reading_with(t, slant) for t in (templates, *sets)] if slant else [],
                  lambda: [reading_with(t, slant, True) for t in (templates, *sets)]]
        seen = {_clues(reading)}
        deadline = None
        for n, readings in enumerate(rounds):
            if n == 1:  # looking again is bounded: a refusal should not keep one waiting
                deadline = time.monotonic() + REREAD_SECONDS
            for other in _by_confidence(readings()):
                if deadline is not None and time.monotonic() > deadline:
                    break
                if _clues(other) in seen:  # validated already: it fails as it did
                    continue
                seen.add(_clues(other))
                try:
                    return validate_reading(other)
                except InputError:
                    continue
        raise first_error from None


class _Replayable(Iterable[TemplateSet]):
    """An iterable loaded once, when first reached, and replayed after: template sets
    load lazily (`every_template_set`), and more than one board may want them."""

    def __init__(self, source: Iterable[TemplateSet]) -> None:
        self._source: Iterable[TemplateSet] | None = source
        self._items: list[TemplateSet] = []

    def __iter__(self) -> Iterator[TemplateSet]:
        if self._source is not None:
            self._items, self._source = list(self._source), None
        return iter(self._items)


def small_digits(layout: ClueLayout) -> float | None:
    """How tall the board's smaller clue digits are (px): the height one in ten is
    shorter than. One misread digit spoils a clue, so a font that draws some of its
    numbers smaller (a second, small font for wide clues) is judged by those. None
    when no clue ink was found."""
    heights = [b.box.h for s in (*layout.rows, *layout.columns) for g in s.groups for b in g]
    return float(np.percentile(heights, 10)) if heights else None


def _clues(reading: NonogramReading) -> tuple:
    """What validation sees of a reading: every glyph's ranked digits, line by line."""
    return tuple(tuple(tuple(d.ranked for d in n.digits) for n in line)
                 for line in (*reading.row_numbers, *reading.column_numbers))


def _by_confidence(readings: Iterable[NonogramReading]) -> list[NonogramReading]:
    """The readings, the best-matched first (`_mean_confidence`)."""
    return sorted(readings, key=lambda r: -_mean_confidence(r))


def _mean_confidence(reading: NonogramReading) -> float:
    """How well a reading's glyphs matched (the better-fitting template set comes first)."""
    numbers = reading.numbers()
    return sum(n.confidence for _, _, n in numbers) / len(numbers) if numbers else 0.0
