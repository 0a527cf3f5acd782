"""Clues found beside a frameless board with faint lines and faint ink (issue 23).

Random looks of the bundled page with no frame, grid lines at 1.15-3:1 and clue ink
at 2.5-3.5:1 were refused as "no clue numbers line up with the board's rows/columns"
although the board was found whole: the ink's polarity was voted by a gradient's far
end or a box's border along the board; faint ink on a smooth dark ground departed by
less than the fixed least step; a border along the board outshone every digit of a
strip, whose threshold (a share of its strongest ink) then passed nothing; and strips
whose ground is as light as the ink read as empty clues. Synthetic pictures, plus one
screenshot of the page (cropped to the game) committed so no browser is needed.
"""

from __future__ import annotations

import numpy as np
from PIL import Image
from shot_fixtures import DATA, read_exactly

from autoplayer.geometry import Rect
from autoplayer.vision.clue_ground import _off_ground, ink_is_dark, paper_across
from autoplayer.vision.clues import ClueLayout, _band, _lines_dropped
from autoplayer.vision.glyphs import Blob
from autoplayer.vision.grid import Grid
from autoplayer.vision.sides import clue_sides
from autoplayer.vision.strips import Strip
from autoplayer.vision.unseen import unseen_strips

PITCH = 24


def _grid(x0: int, y0: int, n: int) -> Grid:
    spans = tuple((k * PITCH + 1, (k + 1) * PITCH) for k in range(n))
    return Grid(tuple((x0 + a, x0 + b) for a, b in spans),
                tuple((y0 + a, y0 + b) for a, b in spans))


def _digit(lum: np.ndarray, x: int, y: int, level: float) -> None:
    """A blocky '7' about 14 px tall, strokes 3 px."""
    lum[y:y + 3, x:x + 9] = level
    for k in range(11):
        lum[y + 3 + k, x + 6 - k // 2:x + 9 - k // 2] = level


def _page(ground: float, ink: float, gradient: float = 0.0, edge_line: float | None = None
          ) -> tuple[np.ndarray, Grid]:
    """A 5x5 board (white cells, faint lines) at (120, 120), a clue band above and left,
    each clue cell shaded by `gradient` levels from its far side to the board, a digit
    of `ink` in every cell beside the board, and (`edge_line`) a line of that level
    along the board's top and left edges, where a frame would stand."""
    lum = np.full((300, 300), ground, np.float32)
    grid = _grid(120, 120, 5)
    board = grid.rect
    lum[board.y:board.bottom, board.x:board.right] = 240.0
    for a, _ in grid.xs:
        lum[board.y:board.bottom, a - 1] = 215.0
    for a, _ in grid.ys:
        lum[a - 1, board.x:board.right] = 215.0
    for k in range(PITCH):  # the shade runs across each clue cell
        lum[board.y - PITCH + k, board.x:board.right] = ground - gradient * (1 - k / PITCH)
        lum[board.y:board.bottom, board.x - PITCH + k] = ground - gradient * (1 - k / PITCH)
    for a, _ in grid.xs:
        _digit(lum, a + 7, board.y - PITCH + 5, ink)
    for a, _ in grid.ys:
        _digit(lum, board.x - PITCH + 7, a + 4, ink)
    if edge_line is not None:
        lum[board.y - 1, board.x - 3 * PITCH:board.right] = edge_line
        lum[board.y - 3 * PITCH:board.bottom, board.x - 1] = edge_line
    return lum, grid


def test_a_gradient_and_a_bright_border_do_not_outvote_faint_dark_ink():
    # Ink 60 levels under a light ground shaded 100 levels across each cell, a white
    # border along the board: the gradient's dark end and the border are the extremes.
    lum, grid = _page(ground=230.0, ink=170.0, gradient=100.0, edge_line=255.0)
    board = grid.rect
    assert ink_is_dark(_band(lum, board, "top"), _band(lum, board, "left"), grid) is True


def test_a_bright_line_broken_by_every_bars_border_is_no_digit():
    # Bars 11 px wide at 14 px cells, each with a white highlight along the board's edge,
    # their borders 3 px between them (110, 46, 110): the highlight is a line along the
    # band, not the lightest ink of every cell (BENCH_SEED=9090 draw 57 of
    # bench/bench_nonogram_looks.py: it outvoted the dark digits, and no number was found).
    part = np.full((14, 14 * 12), 120.0, np.float32)
    part[11, :] = 232.0
    for x in range(11, part.shape[1], 14):
        part[:, x:x + 3] = (110.0, 46.0, 110.0)
    part[3:9, 5:7] = 30.0  # a digit's stroke
    off = _off_ground(part, 14.0, along=1)
    assert np.all(off[11] <= 0)
    assert off[3:9, 5:7].min() <= -80


def test_faint_ink_on_a_smooth_dark_ground_lines_up():
    # 30 levels over a flat dark ground: under the old fixed least step of 40.
    lum, grid = _page(ground=40.0, ink=70.0)
    sides = clue_sides(lum, grid)
    assert (sides.row, sides.column) == ("left", "top")
    assert sides.score("left") == 1.0 and sides.score("top") == 1.0


def test_a_border_along_the_band_is_no_strip_s_strongest_ink():
    lum, grid = _page(ground=200.0, ink=120.0, edge_line=20.0)
    board = grid.rect
    band = _band(lum, board, "top")
    scale = np.abs(band - 200.0).astype(np.float32)
    free = _lines_dropped(scale, 2 * PITCH + 1, False, 2)
    assert free[-1].max() == 0.0  # the border along the board is gone
    assert free.max() == 80.0  # the digits are not


def test_an_empty_strip_on_a_ground_as_light_as_the_ink_is_unseen():
    """Rows alternate a light and a dark bar; the ink shows only on the light one. An
    empty light row is an empty clue; an empty dark one could hide numbers."""
    lum = np.full((300, 300), 200.0, np.float32)
    grid = _grid(120, 120, 4)
    board = grid.rect
    for i, (a, b) in enumerate(grid.ys):
        lum[a - 1:b + 1, :board.x] = 200.0 if i % 2 == 0 else 125.0
    strips = []
    for i, (a, b) in enumerate(grid.ys):
        box = Rect(0, a, board.x, b - a)
        if i == 0:
            _digit(lum, board.x - 20, a + 4, 120.0)
            mask = lum[a + 4:a + 18, board.x - 20:board.x - 11] == 120.0
            strips.append(Strip("row", i, box, ((Blob(Rect(board.x - 20, a + 4, 9, 14), mask),),)))
        else:
            strips.append(Strip("row", i, box, ()))
    columns = tuple(Strip("column", j, Rect(a, 0, b - a, board.y),
                          ((Blob(Rect(a + 5, board.y - 20, 9, 14), np.ones((14, 9), bool)),),))
                    for j, (a, b) in enumerate(grid.xs))
    for a, _ in grid.xs:
        lum[board.y - 20:board.y - 6, a + 5:a + 14] = 120.0
    layout = ClueLayout(grid, tuple(strips), columns, True, 14.0, ())
    assert [s.index for s in unseen_strips(lum, layout)] == [1, 3]


def test_faint_blue_ink_on_a_gradient_reads_exactly():
    # `autoplayer serve`: size=34x28 seed=368297 skin=serif theme=light cell=12
    # clue_cells=skin texture=gradient font=lato weight=black style=italic digits=0.71
    # frame=0 lines=2.25:blue ink=2.7:blue. The cells' gradient voted the ink light.
    name = "serif-faint-blue-gradient-34x28-seed368297"
    read_exactly(name)


def test_faint_marks_beside_a_board_of_dark_numbers_are_no_clues():
    """A page's faint decoration (30 levels) right of the rows and below the columns of a
    board whose row clues are black: no faint mark is taken for a clue, even where no
    side of the columns holds any (one ink draws every clue)."""
    lum, grid = _page(ground=230.0, ink=0.0)
    board = grid.rect
    lum[board.y - PITCH:board.y - 1, board.x:board.right] = 230.0  # no column clues
    for a, _ in grid.ys:
        _digit(lum, board.right + 8, a + 4, 200.0)
    for a, _ in grid.xs:
        _digit(lum, a + 7, board.bottom + 5, 200.0)
    sides = clue_sides(lum, grid)
    assert sides.row == "left"
    assert sides.score("right") < 0.5 and sides.score("bottom") < 0.5


def test_a_dark_page_beside_a_short_band_is_no_tall_digits_stem():
    # Digits about as tall as the cells (their stems may cross a row's strip whole): a stem
    # 2 px wide has its paper beside it, but 30 px of dark page beside the clue cells is its
    # own paper, not ink (BENCH_SEED=4242 draw 37 of bench/bench_nonogram_looks.py: the page
    # read as digits before a 5x5 board's row clues).
    band = np.full((44, 80), 255.0, np.float32)
    band[:, :30] = 36.0
    band[:, 50:52] = 30.0
    paper = paper_across(band, [(0, 22), (22, 44)], 0, 0, True, 2, 22.0, tall=True)
    assert np.all(paper[:, :28] == 36.0)
    assert np.all(paper[:, 50:52] == 255.0)


def test_grey_ink_with_a_pale_shadow_on_bars_of_two_tones_is_dark():
    # Grey digits with a paler drop shadow on noisy bars alternating white and blue-grey
    # line by line, columns below (BENCH_SEED=9090 draw 133 of bench/bench_nonogram_looks.py;
    # the luminance of the board and the clue cells beside it): a window reaching past a
    # white cell into the darker bar beside it made the white cell's own edges pass for
    # light ink, and the ink read as light ("the clue ink hardly stands out from the
    # ground of column 7").
    lum = np.asarray(Image.open(DATA / "pixel-light-grey-shadow-noisy-bars-near-cells-"
                                       "12x29-seed939546.png").convert("L"), np.float32)
    xs = (
        (27, 49), (52, 74), (77, 99), (102, 124), (127, 149), (153, 174), (177, 199),
        (202, 224), (227, 249), (252, 274), (278, 299), (302, 324),
    )
    ys = (
        (2, 24), (27, 49), (52, 74), (77, 99), (102, 124), (128, 149), (152, 174),
        (177, 199), (202, 224), (227, 249), (253, 274), (277, 299), (302, 324), (327, 349),
        (352, 374), (378, 399), (402, 424), (427, 449), (452, 474), (477, 499), (503, 524),
        (527, 549), (552, 574), (577, 599), (602, 624), (628, 649), (652, 674), (677, 699),
        (702, 724),
    )
    grid = Grid(xs, ys)
    board = grid.rect
    assert ink_is_dark(_band(lum, board, "bottom"), _band(lum, board, "left"), grid) is True
