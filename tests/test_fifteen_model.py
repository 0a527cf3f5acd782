"""15-puzzle model: parity rule and ID enumeration checked exhaustively against BFS."""

from __future__ import annotations

import random
from collections import deque
from itertools import permutations
from math import factorial

import pytest

from autoplayer.errors import InputError
from autoplayer.games.fifteen.ids import (
    board_from_id,
    id_count,
    id_of,
    sjt_rank,
    sjt_unrank,
)
from autoplayer.games.fifteen.model import (
    Board,
    from_blank_first,
    goal,
    inversions,
    is_solvable,
    parse_board,
    to_blank_first,
)


def reachable(width: int, height: int) -> set[tuple[int, ...]]:
    """Every arrangement breadth-first search reaches from the solved board."""
    start = goal(width, height)
    seen = {start.cells}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for m in board.legal_moves():
            nxt = board.move(m)
            if nxt.cells not in seen:
                seen.add(nxt.cells)
                queue.append(nxt)
    return seen


@pytest.mark.parametrize("n", range(1, 8))
def test_sjt_order_is_plain_changes(n):
    perms = [tuple(sjt_unrank(n, r)) for r in range(factorial(n))]
    assert len(set(perms)) == factorial(n)
    assert perms[0] == tuple(range(1, n + 1))
    for r, p in enumerate(perms):
        assert sjt_rank(list(p)) == r
        assert inversions(p) % 2 == r % 2
        if r:
            changed = [i for i in range(n) if p[i] != perms[r - 1][i]]
            assert len(changed) == 2 and changed[1] == changed[0] + 1


@pytest.mark.parametrize("size", [(2, 3), (3, 2), (2, 4), (4, 2), (3, 3)])
def test_parity_rule_matches_bfs(size):
    width, height = size
    seen = reachable(width, height)
    n = width * height
    assert len(seen) == factorial(n) // 2
    for cells in permutations(range(n)):
        assert is_solvable(Board(width, height, cells)) == (cells in seen), cells


@pytest.mark.parametrize("size", [(2, 3), (3, 2), (2, 4), (4, 2)])
def test_ids_enumerate_exactly_the_solvable_boards(size):
    width, height = size
    seen = reachable(width, height)
    boards = [board_from_id(i, width, height) for i in range(id_count(width, height))]
    assert boards[0] == goal(width, height)
    assert {b.cells for b in boards} == seen
    assert len({b.cells for b in boards}) == len(boards)
    for i, b in enumerate(boards):
        assert id_of(b) == i


def test_4x4_ids_round_trip_and_bounds():
    count = factorial(16) // 2
    assert id_count() == count
    assert board_from_id(0).is_solved()
    rng = random.Random(15)
    for board_id in [1, 2, 15, 16, count - 1, *(rng.randrange(count) for _ in range(300))]:
        board = board_from_id(board_id)
        assert is_solvable(board)
        assert id_of(board) == board_id
    for bad in (-1, count):
        with pytest.raises(InputError, match="outside"):
            board_from_id(bad)


def test_id_of_refuses_unsolvable():
    with pytest.raises(ValueError):
        id_of(Board(2, 2, (2, 1, 3, 0)))


def test_korf_boards_convert_to_solvable_gap_last_boards(shared_dir):
    lines = (shared_dir / "fifteen" / "korf100.txt").read_text().split("\n")
    boards = [list(map(int, line.split()))[:16] for line in lines if line.strip()]
    assert len(boards) == 100
    for cells in boards:
        board = from_blank_first(cells)
        assert is_solvable(board)
        assert to_blank_first(board) == tuple(cells)
    assert from_blank_first(range(16)).is_solved()


def test_parse_tatham_game_id():
    board = parse_board("4x4:4,6,5,12,9,0,11,1,10,3,8,7,14,13,2,15")
    assert (board.width, board.height, board.gap) == (4, 4, 5)
    assert board.spec() == "4x4:4,6,5,12,9,0,11,1,10,3,8,7,14,13,2,15"
    assert parse_board("3x2: 1 2 3\n4 0 5").cells == (1, 2, 3, 4, 0, 5)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("4x4", "not of the form"),
        ("4x4#805291520", "is a random seed"),
        ("1x4:1,2,3,0", "width 1 is outside 2..6"),
        ("7x2:" + ",".join(map(str, range(14))), "width 7"),
        ("2x2:1,2,0", "has 4 cells, got 3"),
        ("2x2:1,2,2,0", "tile 2 appears twice"),
        ("2x2:1,2,4,0", "tile 4 is outside 0..3"),
        ("2x2:1,x,3,0", "'x', not a number"),
        ("2x2:2,1,3,0", "cannot be solved"),
        ("4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0", "cannot be solved"),
    ],
)
def test_parse_errors_say_why(text, why):
    with pytest.raises(InputError, match=why):
        parse_board(text)


def test_moves_slide_tiles_into_the_gap():
    board = Board(3, 3, (1, 2, 3, 4, 0, 5, 6, 7, 8))
    assert board.move("L").cells == (1, 2, 3, 4, 5, 0, 6, 7, 8)
    assert board.move("R").cells == (1, 2, 3, 0, 4, 5, 6, 7, 8)
    assert board.move("U").cells == (1, 2, 3, 4, 7, 5, 6, 0, 8)
    assert board.move("D").cells == (1, 0, 3, 4, 2, 5, 6, 7, 8)
    corner = goal(3, 3)
    assert sorted(corner.legal_moves()) == ["D", "R"]
    with pytest.raises(ValueError):
        corner.move("L")
