"""Unsure digits settled by the puzzle, and a board's digits learnt from the board.

`autoplayer.vision.digit_classes` groups one board's glyphs by shape and names the
groups from the readers' sure readings; `autoplayer.games.nonogram.settle` tries
the unsure groups' digits against the puzzle and takes a reading only when exactly
one combination fits every line, agrees in its totals and solves. The pictures are
drawn with Pillow (tests/vision_render.py) in fonts the generic readers misread:
a black-weight sans and an italic serif.
"""

from __future__ import annotations

import numpy as np
import pytest
from vision_render import Skin, available, random_puzzle, render

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import Puzzle
from autoplayer.games.nonogram.reader import NonogramReading, read_nonogram
from autoplayer.games.nonogram.settle import Ambiguous, settle
from autoplayer.games.nonogram.validation import _solvable, puzzle_of
from autoplayer.geometry import Rect
from autoplayer.vision.digit_classes import (
    SURE,
    different_shapes,
    group_glyphs,
    shape_distance,
    strokes_differ,
)
from autoplayer.vision.glyphs import Glyph
from autoplayer.vision.grid import Grid
from autoplayer.vision.numbers import ClueNumber, DigitReading, make_number

# --- grouping glyphs by shape -----------------------------------------------------------

BAR = np.zeros((12, 7), bool)
BAR[:, 3:5] = True
RING = np.zeros((12, 7), bool)
RING[[0, 1, 10, 11], 1:6] = True
RING[:, [0, 1, 5, 6]] = True
RING[[0, 11], 0] = RING[[0, 11], 6] = False


def _shifted(mask: np.ndarray) -> np.ndarray:
    """The same digit with one pixel of antialiasing more at its edge."""
    out = mask.copy()
    out[5, 2] = True
    return out


def test_one_shape_drawn_again_is_near_and_another_digit_is_far() -> None:
    assert shape_distance(BAR, BAR) == 0.0
    assert shape_distance(BAR, _shifted(BAR)) < 0.1
    assert shape_distance(RING, BAR) > 0.3
    assert shape_distance(np.ones((12, 2), bool), np.ones((12, 7), bool)) == np.inf


def test_an_unsure_glyph_takes_the_name_of_the_sure_shape_it_matches() -> None:
    masks = [BAR, BAR, _shifted(BAR), RING]
    ranked = [((1, 0.9), (7, 0.1)), ((1, 0.8), (7, 0.1)), ((4, 0.05), (1, 0.04)),
              ((0, 0.9), (8, 0.1))]
    groups = group_glyphs(masks, ranked)
    by_member = {i: g for g in groups for i in g.members}
    assert by_member[2] is by_member[0], "the unsure bar joins the sure bars"
    assert by_member[0].digits[0] == 1 and by_member[0].sure
    assert by_member[3] is not by_member[0]


def test_sure_readings_that_disagree_never_share_a_group() -> None:
    masks = [BAR, BAR]
    groups = group_glyphs(masks, [((1, 0.9),), ((7, 0.9),)])
    assert sorted(len(g.members) for g in groups) == [1, 1]


def test_unsure_glyphs_of_one_shape_form_one_unsure_group_ranked_by_their_readers() -> None:
    masks = [RING, RING, _shifted(RING)]
    ranked = [((9, 0.05), (0, 0.04)), ((9, 0.1), (0, 0.05)), ((8, 0.02), (0, 0.01))]
    groups = group_glyphs(masks, ranked)
    assert len(groups) == 1
    (group,) = groups
    assert not group.sure and group.confidence < SURE
    assert group.digits[0] == 9 and 0 in group.digits



def test_a_digit_read_alike_at_another_pixel_phase_joins_its_shape() -> None:
    """A bar 1 and the same 1 with a flag and a foot (another pixel phase of a serif
    font) are a little apart but read alike: one group, one unknown for the puzzle; a
    shape that far apart read as another digit stays apart."""
    footed = BAR.copy()
    footed[0:2, 2] = True
    footed[11, 2:6] = True
    assert 0.1 < shape_distance(BAR, footed) <= 0.2
    alike = group_glyphs([BAR, footed], [((1, 0.9),), ((1, 0.6),)])
    assert len(alike) == 1 and alike[0].members == (0, 1)
    unlike = group_glyphs([BAR, footed], [((1, 0.9),), ((7, 0.6),)])
    assert len(unlike) == 2


# A serif 3 and 5 five pixels tall and their tones (0 paper, 1 the ink's tone), as a
# browser drew them on dotted clue cells: the bitmaps differ by one pixel, (1, 1).
THREE = np.array([[0, 1, 1, 1, 0], [0, 0, 1, 1, 0], [0, 0, 0, 1, 1], [0, 0, 0, 1, 1],
                  [1, 1, 1, 1, 0]], bool)
FIVE = THREE.copy()
FIVE[1, 1] = True
THREE_TONE = np.array([[.20, .71, .45, .80, .19], [0, .09, .84, .91, .03],
                       [0, 0, .21, .76, .49], [.32, .09, 0, .56, .61],
                       [.61, .93, .47, .72, .14]], np.float32)
FIVE_TONE = np.array([[.12, .89, .69, .69, .04], [.31, .86, .64, .57, .02],
                      [.24, .36, 0, .66, .49], [.26, .15, 0, .55, .58],
                      [.39, .97, .47, .80, .31]], np.float32)


def test_small_glyphs_a_pixel_apart_are_two_digits_where_that_pixel_is_a_stroke() -> None:
    """Where the bitmaps cannot tell (one pixel apart, as one digit at two pixel phases
    is), the tones can: the 5's pixel is solid ink where the 3 has paper. Read alike and
    unsure, they are two groups and two different shapes; as the same 3 drawn with that
    pixel only partly inked, one group."""
    assert shape_distance(THREE, FIVE) < 0.1
    assert strokes_differ(THREE, THREE_TONE, FIVE, FIVE_TONE)
    ranked = [((2, 0.16), (7, 0.1)), ((2, 0.07), (7, 0.05))]
    groups = group_glyphs([THREE, FIVE], ranked, [THREE_TONE, FIVE_TONE])
    assert [g.members for g in groups] == [(0,), (1,)]
    assert different_shapes([THREE, FIVE], groups, [THREE_TONE, FIVE_TONE])[0, 1]
    # Without tones the bitmaps alone decide: one shape.
    assert len(group_glyphs([THREE, FIVE], ranked)) == 1
    faint = FIVE_TONE.copy()
    faint[1, 1] = 0.45  # an edge both inked in part: the 3 drawn at another phase
    assert not strokes_differ(THREE, THREE_TONE, FIVE, faint)
    assert len(group_glyphs([THREE, FIVE], ranked, [THREE_TONE, faint])) == 1

# --- settling a reading by the puzzle ---------------------------------------------------

def _reading(rows: list[list[list[tuple[np.ndarray, tuple]]]],
             columns: list[list[list[tuple[np.ndarray, tuple]]]]) -> NonogramReading:
    """A reading built from glyphs: each line a list of numbers, each number a list of
    (mask, ranked digits)."""
    x = 0

    def number(digits: list[tuple[np.ndarray, tuple]]) -> ClueNumber:
        nonlocal x
        readings = []
        for mask, ranked in digits:
            x += 10
            readings.append(DigitReading(Glyph(Rect(x, 0, mask.shape[1], mask.shape[0]), mask),
                                         ranked, "scanline"))
        return make_number(readings)

    row_numbers = [[number(n) for n in line] for line in rows]
    column_numbers = [[number(n) for n in line] for line in columns]
    w, h = len(columns), len(rows)
    grid = Grid(tuple((10 * i, 10 * i + 9) for i in range(w)),
                tuple((10 * i, 10 * i + 9) for i in range(h)))
    return NonogramReading(puzzle_of(row_numbers, column_numbers), grid, Rect(0, 0, 10 * w, 10 * h),
                           (), np.zeros((h, w), np.int8),
                           tuple(map(tuple, row_numbers)), tuple(map(tuple, column_numbers)))


def _solves(puzzle: Puzzle, seconds: float) -> bool:
    return _solvable(puzzle, seconds)[0]


def test_an_unsure_shape_is_settled_when_one_digit_alone_fits() -> None:
    """3x3, every line '3' but the ring shape is read as 9 (unsure): only 3 fits."""
    three = (RING, ((9, 0.05), (3, 0.04), (8, 0.02)))
    reading = _reading([[[three]]] * 3, [[[three]]] * 3)
    assert reading.puzzle.rows == ((9,),) * 3
    settled = settle(reading, _solves)
    assert settled is not None
    assert settled.reading.puzzle.rows == ((3,),) * 3 == settled.reading.puzzle.columns
    assert settled.changed == ("row 1: digit 9 -> 3 (and 5 more of that shape)",)


def test_two_digits_that_both_solve_are_refused_naming_the_glyphs() -> None:
    """All 3s or all 1s: a full 3x3 and a permutation both solve, so the picture does not
    say which it is."""
    unsure = (RING, ((3, 0.05), (1, 0.04)))
    reading = _reading([[[unsure]]] * 3, [[[unsure]]] * 3)
    with pytest.raises(Ambiguous, match="could be 3 or 1") as refused:
        settle(reading, _solves)
    assert refused.value.region is not None


def test_a_sure_reading_that_fits_is_left_alone() -> None:
    sure = (RING, ((3, 0.9), (1, 0.04)))
    reading = _reading([[[sure]]] * 3, [[[sure]]] * 3)
    settled = settle(reading, _solves)
    assert settled is not None and settled.changed == ()
    assert settled.reading.puzzle.rows == ((3,),) * 3


def test_two_shapes_read_as_one_digit_are_both_doubted() -> None:
    """A font draws a digit one way: a bar and a ring both read as 1 (surely) cannot both
    be right; the puzzle decides that the ring is the 3 of its alternatives."""
    one = (BAR, ((1, 0.9), (7, 0.1)))
    ring = (RING, ((1, 0.6), (3, 0.1), (7, 0.05)))
    # 3x3 '###/.#./###': rows 3, 1, 3 and columns 1 1, 3, 1 1.
    reading = _reading([[[ring]], [[one]], [[ring]]],
                       [[[one], [one]], [[ring]], [[one], [one]]])
    settled = settle(reading, _solves)
    assert settled is not None
    assert settled.reading.puzzle.rows == ((3,), (1,), (3,))
    assert settled.reading.puzzle.columns == ((1, 1), (3,), (1, 1))


def test_a_shape_is_not_settled_as_a_digit_a_different_shape_is_read_as() -> None:
    """Two shapes, each read surely as itself; the puzzle would fit if the ring were the bar's
    digit too, but one font does not draw a digit two ways: no settling by that."""
    one = (BAR, ((1, 0.9), (7, 0.1)))
    ring = (RING, ((9, 0.05), (1, 0.04), (8, 0.02)))
    # 3x3 permutation: every line '1'; the ring stands for row 1's and column 1's 1.
    reading = _reading([[[ring]], [[one]], [[one]]], [[[ring]], [[one]], [[one]]])
    try:
        settled = settle(reading, _solves)
    except Ambiguous as refused:  # other digits fit too: refused, which is as honest
        assert "could be" in str(refused)
    else:
        assert settled is None or settled.reading.puzzle.rows[0] != (1,)


SLANT = np.zeros((12, 7), bool)
for _row in range(12):
    SLANT[_row, 5 - _row // 3:7 - _row // 3] = True


def test_a_digit_drawn_two_ways_is_settled_when_nothing_else_fits() -> None:
    """Small glyphs at different pixel phases: the font's 1 comes out as a bar (read as 1)
    and as a slant (read, fairly surely, as 7). Only 1 fits the slant's lines, whatever
    digit it is given: it is settled as 1 although the two shapes differ."""
    assert shape_distance(SLANT, BAR) > 0.2
    one = (BAR, ((1, 0.9), (7, 0.1)))
    slant = (SLANT, ((7, 0.3), (1, 0.2)))
    # 3x3 '#.#/.#./#.#': rows 1 1, 1, 1 1 and columns 1 1, 1, 1 1.
    reading = _reading([[[slant], [slant]], [[one]], [[slant], [slant]]],
                       [[[one], [one]], [[slant]], [[one], [one]]])
    assert reading.puzzle.rows[0] == (7, 7)
    settled = settle(reading, _solves)
    assert settled is not None
    assert settled.reading.puzzle.rows == ((1, 1), (1,), (1, 1))
    assert settled.reading.puzzle.columns == ((1, 1), (1,), (1, 1))
    assert settled.changed == ("row 1: digit 7 -> 1 (and 4 more of that shape)",)


# --- whole pictures in fonts the readers misread ----------------------------------------

CASES = [("black", 16, 1), ("black", 30, 3), ("black", 30, 0), ("italic", 16, 3),
         ("italic", 22, 6), ("italic", 28, 5)]


@pytest.mark.parametrize(("font", "cell", "seed"), CASES,
                         ids=[f"{f}-{c}px-seed{s}" for f, c, s in CASES])
def test_display_fonts_read_exactly_once_the_puzzle_settles_them(font: str, cell: int,
                                                                  seed: int) -> None:
    """Read untrained: the first reading misreads a whole digit's shape (so the clues do
    not add up); the board's shapes and the puzzle settle it, exactly."""
    skin = Skin(font, cell=cell, dark=seed % 3 == 0)
    if not available(skin):
        pytest.skip(f"font {font} not installed (tools/ensure-system-deps)")
    w, h = [(10, 10), (15, 15), (20, 15), (25, 20)][seed % 4]
    puzzle = random_puzzle(w, h, seed)
    image = np.asarray(render(puzzle, skin).convert("RGB"))
    raw = read_nonogram(image, verify=False)
    assert (raw.puzzle.rows, raw.puzzle.columns) != (puzzle.rows, puzzle.columns), \
        "the readers alone misread this picture (else it tests nothing)"
    reading = read_nonogram(image)
    assert (reading.puzzle.rows, reading.puzzle.columns) == (puzzle.rows, puzzle.columns)
    assert reading.corrections


def test_a_misread_that_the_puzzle_cannot_settle_is_still_refused() -> None:
    """Every glyph's shape made unsure and one digit deleted from a clue: no combination of
    digits repairs a missing number, so the reading is refused, not guessed."""
    puzzle = random_puzzle(10, 10, 4)
    image = np.asarray(render(puzzle, Skin("sans", cell=24)).convert("RGB"))
    raw = read_nonogram(image, verify=False)
    rows = [list(r) for r in raw.row_numbers]
    rows[2] = rows[2][:-1] if len(rows[2]) > 1 else rows[2] + rows[2]
    broken = NonogramReading(puzzle_of(rows, [list(c) for c in raw.column_numbers]), raw.grid,
                             raw.board, raw.cells, raw.state, tuple(map(tuple, rows)),
                             raw.column_numbers)
    from autoplayer.games.nonogram.validation import validate_reading
    with pytest.raises(InputError):
        validate_reading(broken)
