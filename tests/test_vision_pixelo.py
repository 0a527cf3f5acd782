"""The real Pixelo screenshot (1920x1080 Firefox capture from PixeloSolver's repository).

The expected clues were read off the picture by eye (zoomed crops of the clue
bands), not taken from the reader's output. The picture's noise: grey "0" boxes
for empty lines, the highlighted first row, a blue-tinted first column strip,
drop shadows under every digit, and the mouse pointer over the board.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from autoplayer.games.nonogram.model import UNKNOWN
from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.games.nonogram.solver import Verdict, solve
from autoplayer.vision.lattice import find_grid

ROWS = (
    (), (1, 4), (1, 1, 4), (1, 1, 1, 2), (1, 3, 1, 2), (1, 1, 2), (1, 7, 1, 1), (1, 9, 1),
    (1, 2, 3, 2, 1), (1, 3, 3, 3, 1), (1, 4, 3, 4, 1), (13,), (13,), (13,), (6, 6),
    (5, 5), (5, 5), (5, 5), (5, 5), (),
)
COLUMNS = (
    (1,), (1,), (1, 1), (1, 10), (1, 11), (1, 12), (1, 2, 8), (1, 2, 8), (1, 1, 9), (1, 2, 8),
    (1, 1, 9), (1, 2, 8), (1, 2, 8), (1, 12), (2, 1, 11), (5, 1, 10), (6, 1, 1), (2, 1), (1,),
    (),
)


@pytest.fixture(scope="module")
def pixelo(shared_dir) -> np.ndarray:
    path = shared_dir / "screenshots" / "pixelo" / "PixeloScreenshot.png"
    if not path.exists():
        pytest.skip(f"{path} not present")
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))


def test_finds_the_20x20_board(pixelo):
    grid = find_grid(pixelo)
    assert (grid.width, grid.height) == (20, 20)
    board = grid.rect
    # The board's outer grid lines sit near x=627..1155, y=411..939 (measured by eye).
    assert abs(board.x - 627) <= 3 and abs(board.y - 411) <= 3
    assert abs(board.right - 1155) <= 3 and abs(board.bottom - 939) <= 3
    assert 26 <= grid.pitch <= 27


def test_reads_every_clue_with_the_state_machines_alone(pixelo):
    reading = read_nonogram(pixelo)  # no templates
    assert reading.puzzle.rows == ROWS
    assert reading.puzzle.columns == COLUMNS
    assert reading.corrections == ()
    assert all(d.sources == "scanline" for _, _, n in reading.numbers() for d in n.digits)


def test_the_puzzle_read_has_a_unique_solution(pixelo):
    reading = read_nonogram(pixelo)
    result = solve(reading.puzzle, max_solutions=2)
    assert result.verdict in (Verdict.LINE_SOLVABLE, Verdict.UNIQUE)


def test_the_empty_board_reads_as_unknown_despite_the_pointer(pixelo):
    reading = read_nonogram(pixelo)
    assert reading.state.shape == (20, 20)
    assert (reading.state == UNKNOWN).all()
    # Each cell rect lies inside the board and cells do not overlap.
    cells = [c for row in reading.cells for c in row]
    assert all(reading.board.contains(c.x, c.y) for c in cells)
    assert all(a.right <= b.x for a, b in zip(reading.cells[0], reading.cells[0][1:], strict=False))
