"""Clues running off the picture's edge: refused by default, read as known tails on request
(as `play` requests whenever it sees a window's clues meet its edge).

A game window too small for its clues (Simon Tatham's Pattern never shrinks)
cuts the longest row clues at its left edge. Synthetic screenshots (see
tests/vision_render.py) cropped through a clue stand in for such a window here;
tests/test_pattern_reader.py covers the real game.
"""

from __future__ import annotations

import numpy as np
import pytest
from vision_render import Skin, available, random_puzzle, render

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import puzzle_from_grid
from autoplayer.games.nonogram.reader import read_nonogram

SKIN = Skin("sans", cell=24)


@pytest.fixture(scope="module")
def picture() -> tuple[object, np.ndarray, list]:
    """A 10x10 puzzle whose row 1 is five 1s (the longest clue), its picture and row 1's
    numbers as read from the uncut picture."""
    if not available(SKIN):
        pytest.skip("DejaVu fonts are not installed")
    grid = random_puzzle(10, 10, seed=5).solution.copy()
    grid[0] = [1, 0] * 5
    puzzle = puzzle_from_grid(grid)
    image = np.asarray(render(puzzle, SKIN))
    whole = read_nonogram(image)
    assert (whole.puzzle.rows, whole.puzzle.columns) == (puzzle.rows, puzzle.columns)
    assert not whole.clipped
    return puzzle, image, list(whole.row_numbers[0])


def test_a_number_cut_by_the_edge_is_refused_by_default(picture) -> None:
    _, image, numbers = picture
    cut = image[:, numbers[0].box.x + numbers[0].box.w // 2:]
    with pytest.raises(InputError, match="row 1 run off the left edge") as err:
        read_nonogram(cut)
    assert err.value.region is not None and err.value.region[0] == 0


def test_a_number_cut_by_the_edge_is_unknown_and_the_rest_a_known_tail(picture) -> None:
    puzzle, image, numbers = picture
    cut = image[:, numbers[0].box.x + numbers[0].box.w // 2:]
    reading = read_nonogram(cut, clipped=True)
    assert [(c.name, c.cut, c.hidden) for c in reading.clipped] == [("row 1", True, 1)]
    assert reading.tail(reading.clipped[0]) == (1, 1, 1, 1)
    assert reading.puzzle.rows[0] is None
    assert reading.puzzle.rows[1:] == puzzle.rows[1:]
    assert reading.puzzle.columns == puzzle.columns


def test_a_number_wholly_beyond_the_edge_leaves_the_clue_open(picture) -> None:
    """No ink touches the edge, but the clue starts closer to it than numbers stand
    apart: a whole number may lie beyond, so the clue is not taken as 1 1 1 1."""
    puzzle, image, numbers = picture
    cut = image[:, numbers[0].box.right + 3:]
    reading = read_nonogram(cut, clipped=True)
    first = reading.clipped[0]
    assert (first.name, first.cut, first.hidden) == ("row 1", False, 0)
    assert reading.tail(first) == (1, 1, 1, 1)
    # Other rows starting as near the edge are as open; each keeps a true tail.
    for line in reading.clipped:
        tail = reading.tail(line)
        assert reading.puzzle.rows[line.index] is None
        assert puzzle.rows[line.index][-len(tail):] == tail
    kept = [i for i in range(10) if reading.puzzle.rows[i] is not None]
    assert len(kept) >= 5
    assert all(reading.puzzle.rows[i] == puzzle.rows[i] for i in kept)
    assert reading.puzzle.columns == puzzle.columns


def test_clues_clear_of_the_edge_are_not_clipped(picture) -> None:
    puzzle, image, _ = picture
    reading = read_nonogram(image, clipped=True)
    assert reading.clipped == ()
    assert (reading.puzzle.rows, reading.puzzle.columns) == (puzzle.rows, puzzle.columns)


def test_a_number_wholly_beyond_the_edge_is_never_corrected_into_a_wrong_puzzle() -> None:
    """By default a clue starting near the edge is read as it is; when the clues then do
    not add up, the missing number must not be "fixed" by changing another one (which
    made 5 of these 20 pictures read as a wrong, consistent puzzle)."""
    if not available(SKIN):
        pytest.skip("DejaVu fonts are not installed")
    refused = 0
    for seed in range(5, 25):
        grid = random_puzzle(10, 10, seed=seed).solution.copy()
        grid[0] = [1, 0] * 5
        puzzle = puzzle_from_grid(grid)
        image = np.asarray(render(puzzle, SKIN))
        first = read_nonogram(image).row_numbers[0][0]
        cut = image[:, first.box.right + 3:]  # row 1's first number wholly beyond the edge
        try:
            reading = read_nonogram(cut)
        except InputError as err:
            assert "start near the left edge of the picture" in str(err), (seed, str(err))
            assert "rows 1" in str(err) or "row 1 " in str(err)
            _, y, _, h = err.region or (0, 0, 0, 0)
            assert y <= first.box.y < y + h  # the region is row 1's clue strip
            refused += 1
        else:
            assert (reading.puzzle.rows, reading.puzzle.columns) == (
                puzzle.rows, puzzle.columns), (seed, reading.corrections)
    assert refused == 20  # row 1 is always one 1 short, so the totals never add up


@pytest.fixture(scope="module")
def both_edges() -> tuple[object, np.ndarray]:
    """Row 1 and column 1 each five 1s, their first 1 cut away wholly: the clues read are
    both one 1 short, so the totals still agree and a wrong puzzle checks out."""
    if not available(SKIN):
        pytest.skip("DejaVu fonts are not installed")
    grid = random_puzzle(10, 10, seed=5).solution.copy()
    grid[0] = [1, 0] * 5
    grid[:, 0] = [1, 0] * 5
    puzzle = puzzle_from_grid(grid)
    image = np.asarray(render(puzzle, SKIN))
    whole = read_nonogram(image)
    row, column = whole.row_numbers[0][0], whole.column_numbers[0][0]
    return puzzle, image[column.box.bottom + 3:, row.box.right + 3:]


def test_a_reading_that_checks_out_near_the_edge_says_so(both_edges) -> None:
    puzzle, cut = both_edges
    reading = read_nonogram(cut)
    assert reading.puzzle.rows[0] == (1, 1, 1, 1) != puzzle.rows[0]  # what the picture shows
    named = {c.name for c in reading.near_edge}
    assert {"row 1", "column 1"} <= named
    whole = read_nonogram(np.asarray(render(puzzle, SKIN)))
    assert whole.near_edge == ()


def test_a_caller_about_to_act_refuses_clues_near_the_edge(both_edges) -> None:
    _, cut = both_edges
    with pytest.raises(InputError, match=r"clues of rows? 1\b.* start near the left edge of "
                       r"the picture and of columns? 1\b.* the top edge") as err:
        read_nonogram(cut, margin=True)
    assert err.value.region is not None


def test_read_command_warns_of_clues_near_the_edge(both_edges, tmp_path, capsys) -> None:
    from PIL import Image

    from autoplayer.cli import main

    _, cut = both_edges
    shot = tmp_path / "tight.png"
    Image.fromarray(cut).save(shot)
    assert main(["read", str(shot)]) == 0
    said = capsys.readouterr()
    warnings = [line for line in said.err.splitlines()
                if line.startswith("autoplayer read: warning: ")]
    assert len([w for w in warnings if "start near the left edge" in w]) == 1
    assert "warning" not in said.out and "low confidence" not in said.out


def test_play_reads_clues_near_the_edge_as_clipped_and_never_guesses(both_edges) -> None:
    """The bot acts on what it reads, so clues cut this close are not taken as they show
    (each one 1 short): seeing them meet the window's edge, it reads them as clipped
    (unknown, the numbers visible a known tail). Solved from what is certain, they leave
    several solutions here, so it stops naming the lines before any input."""
    from autoplayer.errors import UserError
    from autoplayer.games.nonogram.game import NonogramGame
    from autoplayer.screen.capture import Frame

    _, cut = both_edges
    game = NonogramGame()
    reading = game.read(Frame(np.ascontiguousarray(cut)))
    assert {"row 1", "column 1"} <= {c.name for c in reading.raw.clipped}
    assert reading.puzzle.rows[0] is None and reading.puzzle.columns[0] is None
    with pytest.raises(UserError, match=r"row 1,.*column 1,.*clue clipped.*will not guess"):
        game.solve(reading)
