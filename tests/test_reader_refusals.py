"""Pictures the reader must refuse rather than read in part, drawn without a browser.

A grid with no clues beside it (another kind of puzzle), a reading whose
clues are all empty (never to be "solved"), and a board cut by the picture's
edge (named, not read as misread clues).
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw
from vision_render import Skin, random_puzzle, render

from autoplayer.errors import InputError, UserError
from autoplayer.games.nonogram.reader import read_nonogram


def plain_grid(n: int = 6, cell: int = 30, digits: bool = True) -> np.ndarray:
    """A sudoku-like grid: thin lines, a thick frame, a few digits inside the cells."""
    from vision_render import FONTS, ImageFont

    size = n * cell + 80
    page = Image.new("RGB", (size, size), (240, 240, 240))
    d = ImageDraw.Draw(page)
    x0 = y0 = 40
    for i in range(n + 1):
        w = 3 if i in (0, n) else 1
        d.line((x0 + i * cell, y0, x0 + i * cell, y0 + n * cell), fill=(0, 0, 0), width=w)
        d.line((x0, y0 + i * cell, x0 + n * cell, y0 + i * cell), fill=(0, 0, 0), width=w)
    if digits:
        font = ImageFont.truetype(FONTS["sans"], 16)
        for k, (r, c) in enumerate([(0, 1), (2, 3), (4, 0), (5, 5)]):
            d.text((x0 + c * cell + 9, y0 + r * cell + 6), str(k + 3), font=font, fill=(0, 0, 0))
    return np.asarray(page)


@pytest.mark.parametrize("digits", [False, True], ids=["empty", "digits-in-cells"])
def test_a_grid_without_clues_is_no_nonogram(digits):
    with pytest.raises(InputError, match="no nonogram here"):
        read_nonogram(plain_grid(digits=digits))


def test_empty_clues_are_never_solved():
    from autoplayer.games.nonogram.game import NonogramGame, Reading
    from autoplayer.games.nonogram.model import Puzzle
    from autoplayer.geometry import Rect

    puzzle = Puzzle(((),) * 5, ((),) * 5)
    reading = Reading(puzzle, np.full((5, 5), -1, np.int8), (0.0,) * 5, (0.0,) * 5,
                      Rect(0, 0, 50, 50))
    with pytest.raises(InputError, match="no nonogram here"):
        NonogramGame().solve(reading)


def test_the_play_loop_refuses_a_game_with_nothing_to_check():
    from autoplayer.games.base import Check, Solved
    from autoplayer.play import play

    class Nothing:
        name, unit, max_batches, pace = "nothing", "cell", 1, None

        def read(self, frame, previous=None):
            return "reading"

        def solve(self, reading):
            return Solved(np.zeros((0, 0)), "")

        def check(self, reading, solution):
            return Check(0, 0)

    class Source:
        def grab(self):
            return "frame"

    class Driver:
        events = 0

        def start(self):
            return self

        def stop(self):
            pass

    with pytest.raises(UserError, match="nothing to play"):
        play(Nothing(), Source(), driver_factory=lambda *a: Driver())


@pytest.mark.parametrize(("edge", "crop"), [
    ("bottom", lambda im, b, c: im[:b.bottom - c // 2]),
    ("right", lambda im, b, c: im[:, :b.right - c - c // 3]),
])
def test_a_board_cut_by_the_edge_names_the_edge(edge, crop):
    skin = Skin("sans", cell=24)
    image = np.asarray(render(random_puzzle(15, 15, seed=4), skin))
    board = read_nonogram(image, verify=False).board
    cut = np.ascontiguousarray(crop(image, board, skin.cell))
    bigger = "taller" if edge == "bottom" else "wider"
    with pytest.raises(InputError, match=f"the board continues past the picture's {edge} edge: "
                                         f"make the window {bigger} or zoom out"):
        read_nonogram(cut)
    with pytest.raises(InputError, match=f"the board continues past the window's {edge} edge"):
        read_nonogram(cut, source="window")


@pytest.mark.parametrize("edge", ["bottom", "right"])
@pytest.mark.parametrize("line", [10, 12], ids=["thick-line", "thin-line"])
@pytest.mark.parametrize("skin", [Skin("sans", cell=24), Skin("serif", dark=True, cell=30)],
                         ids=["sans", "serif-dark"])
@pytest.mark.parametrize("extra", [0, 1], ids=["line-last", "sliver"])
def test_a_board_cut_on_a_grid_line_names_the_edge(edge, line, skin, extra):
    """The picture's edge on a grid line (a thick 5-line or a thin one), or a pixel past
    it: the board presses against the edge with no margin, unlike its other sides, and
    is taken as cut rather than as a board that ends there."""
    from autoplayer.vision.lattice import find_grid

    image = np.asarray(render(random_puzzle(15, 15, seed=4), skin))
    grid = find_grid(image)
    if edge == "bottom":
        cut = image[:grid.ys[line][0] - 1 + extra]
    else:
        cut = image[:, :grid.xs[line][0] - 1 + extra]
    with pytest.raises(InputError, match=f"the board continues past the picture's {edge} edge"):
        read_nonogram(np.ascontiguousarray(cut))


def _hide_last_lines(image: np.ndarray, board, cell: int, end: str, lines: int = 2
                     ) -> np.ndarray:
    """The picture with the board's last `lines` columns (rows) painted over in the cells'
    colour, lines and frame included: a grid whose last lines are too faint to see, its
    clue numbers still standing beyond the board found."""
    out = image.copy()
    paper = image[board.y + cell // 2, board.x + cell // 2].copy()
    if end == "right":
        out[board.y:board.bottom + 1, board.right - lines * cell:board.right + 2] = paper
    else:
        out[board.bottom - lines * cell:board.bottom + 2, board.x:board.right + 1] = paper
    return out


@pytest.mark.parametrize("end", ["right", "bottom"])
@pytest.mark.parametrize("skin", [Skin("sans", cell=24), Skin("serif", dark=True, cell=30),
                                  Skin("mono", boxed=True, cell=20)],
                         ids=["sans", "serif-dark", "mono-boxed"])
def test_clues_past_the_board_found_refuse_a_short_board(end, skin):
    """Clue numbers lined up beyond the board's end: the lattice was found too short
    (8 columns where the game has 10), named rather than read as misread clues."""
    image = np.asarray(render(random_puzzle(10, 10, seed=1), skin))
    board = read_nonogram(image, verify=False).board
    short = _hide_last_lines(image, board, skin.cell, end)
    with pytest.raises(InputError, match=f"clue numbers continue past the board's {end} end: "
                                         "the grid was not found whole") as err:
        read_nonogram(short)
    x, y, _, _ = err.value.region
    if end == "right":  # the region is the next column's clue ink, past the board found
        assert board.right - 2 * skin.cell - 2 <= x <= board.right - skin.cell and y < board.y
    else:
        assert board.bottom - 2 * skin.cell - 2 <= y <= board.bottom - skin.cell
        assert x < board.x
