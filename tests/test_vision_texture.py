"""Ink against paper that is not plain (issue 23): a halftone of dots under the clues, and
black digits over a pale drop shadow on a mid-grey page.

The two pictures are headless Chromium shots of `autoplayer serve` (seed 4242 draws 29
and 61 of bench/bench_nonogram_looks.py), each with its puzzle beside it as .non.
"""

from __future__ import annotations

import numpy as np
from PIL import Image
from shot_fixtures import DATA, read_exactly

from autoplayer.geometry import Rect
from autoplayer.vision.grid import Grid
from autoplayer.vision.texture import flatten_texture


def test_black_digits_over_a_pale_shadow_are_read_as_the_digits() -> None:
    """Pixel digits in black (60 levels under the page) cast a pale shadow (73 above it)
    on a noisy page: the shadow's tone departs further, but it is the digits' offset copy
    less what they hide, so the ink is dark. Read as light ink, the shadows alone were
    read: broken digits, refused. (skin=pixel theme=dark size=30x8 cell=14 free clues,
    noise.)"""
    read_exactly("pixel-dark-pale-shadow-noise-30x8-seed366236")


def test_a_dotted_texture_under_the_clues_is_flattened() -> None:
    """A halftone of dots under bold serif digits 12 px tall: dots beside the strokes
    joined the digits, and a column of dots with the digits' soft edges made a seam that
    cut a 3 from its ball terminal (read "13"), refused. Read again with the dots set to
    their paper, it reads exactly. (skin=mono theme=dark size=15x14 cell=19 dejavu-serif
    bold, digits=0.62, dotted.)"""
    read_exactly("mono-dark-dotted-serif-15x14-seed650875")


def _page(dotted: bool) -> tuple[np.ndarray, Rect, list[tuple[int, int]]]:
    """A light page, a board at the right, and a band of clue "strokes" (dark bars 3 px
    wide) left of it, over a halftone of 2x2 dots on a diagonal lattice of 6 px when
    `dotted`. Returns the page, the board and the strokes' top-left corners."""
    lum = np.full((240, 400), 250.0, np.float32)
    board = Rect(200, 20, 180, 200)
    if dotted:
        for y in range(0, 240, 6):
            for x in range(0, 200, 6):
                lum[y:y + 2, x:x + 2] = 210.0
                lum[y + 3:y + 5, x + 3:x + 5] = 210.0
    lum[board.y:board.bottom, board.x:board.right] = 255.0
    lum[board.y:board.bottom, board.x] = 80.0
    strokes = [(40 + 23 * k, 30 + 20 * j) for k in range(6) for j in range(9)]
    for x, y in strokes:
        lum[y:y + 12, x:x + 3] = 60.0
    return lum, board, strokes


def test_flattening_sets_dots_to_paper_and_keeps_the_strokes() -> None:
    """Beside the rows: every stroke pixel keeps its tone and none of the paper turns to
    ink; of the dots, only some pixels right beside a stroke may stay (nine in ten go)."""
    lum, board, strokes = _page(dotted=True)
    flat = flatten_texture(lum, board, pitch=20.0)
    assert flat is not None
    rows = slice(board.y, board.bottom)
    band, before = flat[rows, :board.x], lum[rows, :board.x]
    stroke = np.zeros(lum.shape, bool)
    for x, y in strokes:
        stroke[y:y + 12, x:x + 3] = True
    assert ((band < 130) == stroke[rows, :board.x]).all()
    dots = (before > 200) & (before < 240)
    left = dots & (band < 240)
    assert np.count_nonzero(left) < 0.1 * np.count_nonzero(dots)
    inside = (slice(board.y, board.bottom), slice(board.x, board.right))
    assert (flat[inside] == lum[inside]).all()  # the board is left alone


def test_plain_paper_has_no_texture() -> None:
    lum, board, _ = _page(dotted=False)
    assert flatten_texture(lum, board, pitch=20.0) is None


COLUMN_BAND_XS = (  # the board's columns (x spans) under the band of the fixture below
    (325, 335), (338, 349), (352, 363), (366, 377), (380, 391), (395, 405), (408, 419), (422, 433),
    (436, 447), (450, 461), (465, 475), (478, 489), (492, 503), (506, 517), (520, 531), (535, 545),
    (548, 559), (562, 573), (576, 587), (590, 601), (605, 615), (618, 629), (632, 643), (646, 657),
    (660, 671), (675, 685), (688, 699), (702, 713), (716, 727), (730, 741), (745, 755), (758, 769),
    (772, 783), (786, 797), (800, 811), (815, 825), (828, 839), (842, 853), (856, 867),
)


def test_a_stroke_as_dark_as_the_digits_is_no_seam_though_furniture_is_darker():
    """Pixel-font digits (2 px strokes) over a dot texture on bars, a dark page header far
    above the board (BENCH_SEED=4242 draw 99 of bench/bench_nonogram_looks.py; the column
    band's luminance). The digits' ink was judged a mid-tone against the header's darker
    ink, so a column of stacked 1s' stems chained by the dots passed for a seam along the
    strip and was cut out of the 3 beside them ("13"). Judged against the digits' own ink
    (near the board), a stroke is ink and stays."""
    from autoplayer.vision.clue_ground import paper_across
    from autoplayer.vision.clues import _boundaries, _grounded
    from autoplayer.vision.strips import thickest_rule

    band = np.asarray(Image.open(DATA / "pixel-light-dotted-bars-column-band-39x28-"
                                        "seed771107.png").convert("L"), np.float32)
    grid = Grid(COLUMN_BAND_XS, ((240, 250), (254, 264)))  # rows: only the pitch matters
    board, pitch = grid.rect, 13.968323586744638
    rule = thickest_rule(pitch)
    spans = _boundaries(grid.xs, 0, 1392)
    ground = paper_across(band, spans, board.x, 1, True, rule, pitch)
    _, ink = _grounded(band, False, (1, int(2 * pitch) + 1), True, ground, rule,
                       int(3 * pitch), grid.xs, board.x)
    three = ink[128:137, 369 - board.x:374 - board.x] > 0  # the 3 of column 4 (5x9 px)
    assert three[:2].all() and three[-2:].all()  # its top and bottom bars whole
    assert three[4, 1:].all()  # its middle bar
