"""render_puzzle: read the picture back from the text to prove clues and cells line up."""

from __future__ import annotations

import numpy as np
import pytest

from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, puzzle_from_grid
from autoplayer.games.nonogram.render import render_puzzle


def _read_back(text: str, width: int, height: int, unicode: bool):
    """Row clues, column clues and cells as a reader of the printed board sees them."""
    v = "│" if unicode else "|"
    filled, empty = ("█", "·") if unicode else ("#", ".")
    lines = text.rstrip("\n").split("\n")
    board = [line for line in lines if v in line]
    assert len(board) == height
    header = lines[: lines.index(next(line for line in lines if "─" in line or "-" in line))]
    left = board[0].index(v)
    inner = [line[left + 1:].replace(v, "") for line in board]
    cw = len(inner[0]) // width
    assert all(len(row) == cw * width for row in inner)
    cells = []
    for row in inner:
        out = []
        for j in range(width):
            chunk = row[j * cw:(j + 1) * cw]
            out.append(FILLED if chunk == filled * cw else
                       EMPTY if chunk == empty.rjust(cw) else
                       UNKNOWN if chunk == " " * cw else None)
        cells.append(out)
    row_clues = [tuple(int(n) for n in line[:left].split() if n != "0") for line in board]
    column_clues = []
    for j in range(width):
        at = left + 1 + j * cw + j // 5
        words = [line[at:at + cw].strip() for line in header]
        column_clues.append(tuple(int(w) for w in words if w and w != "0"))
    return row_clues, column_clues, np.array(cells)


@pytest.mark.parametrize("unicode", [True, False])
@pytest.mark.parametrize(("w", "h"), [(1, 1), (5, 10), (7, 3), (50, 50)])
def test_rendered_board_reads_back(w, h, unicode):
    rng = np.random.default_rng(w * 100 + h)
    solution = (rng.random((h, w)) < 0.55).astype(np.int8)
    if w == 50:
        solution[:, 3] = FILLED  # a 50-cell run: two-digit column clues widen the cells
        solution[7] = EMPTY      # an empty row shows as 0
    puzzle = puzzle_from_grid(solution)
    text = render_puzzle(puzzle, solution, unicode=unicode)
    rows, columns, cells = _read_back(text, w, h, unicode)
    assert rows == list(puzzle.rows)
    assert columns == list(puzzle.columns)
    assert cells.tolist() == solution.tolist()
    assert all(line == line.rstrip() for line in text.split("\n"))
    if w == 50:
        assert text.split("\n")[0].strip() != ""
        lines = text.split("\n")
        assert len({len(line) for line in lines if "│" in line or "|" in line}) == 1
        # a horizontal rule after every 5 rows: 9 inner rules plus top and bottom
        rules = [line for line in lines if line.strip().startswith(("├", "+", "┌", "└"))]
        assert len(rules) == 11


def test_partial_grid_shows_unknown_cells_blank():
    solution = np.array([[1, 0, 1]], dtype=np.int8)
    grid = np.array([[FILLED, UNKNOWN, EMPTY]], dtype=np.int8)
    text = render_puzzle(puzzle_from_grid(solution), grid)
    assert text.split("\n")[-3] == "1 1 │██   ·│"


def test_no_grid_is_an_empty_board_and_shape_is_checked():
    puzzle = puzzle_from_grid(np.array([[1, 1]], dtype=np.int8))
    assert render_puzzle(puzzle, unicode=False) == (
        "    1 1\n"
        "  +----+\n"
        "2 |    |\n"
        "  +----+\n"
    )
    with pytest.raises(ValueError, match="grid is 1x1, puzzle is 2x1"):
        render_puzzle(puzzle, np.zeros((1, 1), dtype=np.int8))


def test_row_lists_render_as_arrays_do_and_their_shape_is_checked():
    solution = np.array([[1, 0, 1], [0, 1, 0]], dtype=np.int8)
    puzzle = puzzle_from_grid(solution)
    partial = [[FILLED, UNKNOWN, EMPTY], [EMPTY, FILLED, UNKNOWN]]
    for rows in (solution.tolist(), partial):
        assert render_puzzle(puzzle, rows) == render_puzzle(puzzle, np.array(rows, np.int8))
    with pytest.raises(ValueError, match="grid is 2x2, puzzle is 3x2"):
        render_puzzle(puzzle, [[1, 0], [0, 1]])
