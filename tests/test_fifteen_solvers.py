"""15-puzzle solvers: optimal lengths against BFS and Korf's table; human-style validity."""

from __future__ import annotations

import random

import numpy as np
import pytest
from fifteen_search import distances as distances_from

from autoplayer.games.fifteen import pdb
from autoplayer.games.fifteen.human import solve_fast, solve_steps
from autoplayer.games.fifteen.ids import board_from_id, id_count
from autoplayer.games.fifteen.model import Board, from_blank_first, goal
from autoplayer.games.fifteen.optimal import solve_optimal


def distances(width: int, height: int) -> dict[tuple[int, ...], int]:
    return distances_from(goal(width, height))


@pytest.mark.parametrize("size", [(2, 2), (2, 3), (4, 2), (3, 3)])
def test_optimal_matches_bfs_on_small_boards(size):
    width, height = size
    dist = distances(width, height)
    rng = random.Random(width * 10 + height)
    sample = rng.sample(sorted(dist), min(150, len(dist)))
    for cells in sample:
        board = Board(width, height, cells)
        result = solve_optimal(board)
        assert board.play(result.moves).is_solved()
        assert len(result.moves) == dist[cells], board.spec()
        assert result.start_h == dist[cells]  # one group holding every tile is exact


@pytest.fixture(scope="module")
def korf(shared_dir):
    lines = (shared_dir / "fifteen" / "korf100.txt").read_text().split("\n")
    rows = [list(map(int, line.split())) for line in lines if line.strip()]
    return [(i + 1, from_blank_first(r[:16]), r[16]) for i, r in enumerate(rows)]


def test_optimal_lengths_on_the_ten_easiest_korf_instances(korf):
    pdb.tables(4, 4)  # built once per machine (cached), loaded otherwise
    easiest = sorted(korf, key=lambda item: item[2])[:10]
    for number, board, length in easiest:
        result = solve_optimal(board)
        assert board.play(result.moves).is_solved(), number
        assert len(result.moves) == length, f"Korf #{number}"
        assert result.start_h <= length


def test_optimal_solves_random_4x4_boards_admissibly():
    rng = random.Random(4)
    for _ in range(3):
        # a short random walk from the goal: the optimal length is at most the walk
        board = goal()
        walk = 0
        for _ in range(30):
            board = board.move(rng.choice(board.legal_moves()))
            walk += 1
        result = solve_optimal(board)
        assert board.play(result.moves).is_solved()
        assert result.start_h <= len(result.moves) <= walk


def test_optimal_refuses_sizes_without_tables():
    with pytest.raises(ValueError, match="no optimal solver for 5x5"):
        solve_optimal(goal(5, 5).move("D"))


@pytest.mark.parametrize("width", range(2, 7))
@pytest.mark.parametrize("height", range(2, 7))
def test_human_style_solves_every_size_without_undoing_finished_tiles(width, height):
    rng = random.Random(width * 10 + height)
    for _ in range(2):
        board = board_from_id(rng.randrange(id_count(width, height)), width, height)
        done: set[int] = set()  # home cells finished by earlier steps
        for step in solve_steps(board):
            for m in step.moves:
                board = board.move(m)
                for cell in done:
                    assert board.cells[cell] == cell + 1, (step.title, board.spec())
            assert all(board.cells[t - 1] == t for t in step.tiles), step.title
            done.update(t - 1 for t in step.tiles)
        assert board.is_solved()


def test_human_style_is_far_shorter_than_the_greedy_peer_on_korf(korf):
    lengths = []
    for _, board, _ in korf[:20]:
        moves = solve_fast(board)
        assert board.play(moves).is_solved()
        lengths.append(len(moves))
    # fifteen-puzzle-solvers averages about 121 moves on these boards
    assert sum(lengths) / len(lengths) < 110


def test_unsolvable_boards_are_refused_by_both_solvers():
    bad = Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    with pytest.raises(ValueError, match="not solvable"):
        solve_fast(bad)
    with pytest.raises(ValueError, match="not solvable"):
        solve_optimal(bad)


def test_tables_are_cached_on_disk_and_rebuilt_when_damaged(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tiles = (1, 2, 3, 4, 5)
    path = pdb.cache_path(2, 3, tiles)
    assert path.is_relative_to(tmp_path / "autoplayer")
    built = pdb.load_or_build(2, 3, tiles)
    assert path.exists()
    assert int(built[built != pdb.UNSEEN].max()) == max(distances(2, 3).values())

    def no_build(*args, **kwargs):
        raise AssertionError("should have been read from the cache")

    monkeypatch.setattr(pdb, "build_table", no_build)
    assert np.array_equal(pdb.load_or_build(2, 3, tiles), built)
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path.write_bytes(b"not a table")
    assert np.array_equal(pdb.load_or_build(2, 3, tiles), built)
    assert np.array_equal(np.load(path), built)


def test_progress_is_reported_while_building():
    seen: list[float] = []
    pdb.build_table(3, 2, (1, 2, 3), lambda label, fraction: seen.append(fraction))
    assert seen[-1] == 1.0
    assert seen == sorted(seen)


def test_an_unwritable_cache_only_costs_a_warning(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    table = pdb.load_or_build(2, 2, (1, 2, 3))
    assert int(table[table != pdb.UNSEEN].max()) == max(distances(2, 2).values())
    assert "could not cache" in capsys.readouterr().err
