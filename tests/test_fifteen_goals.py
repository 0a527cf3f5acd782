"""Goals inferred from the numbers shown; solving toward any goal, optimal where the gap is in
a corner (checked against breadth-first search and Korf's table in his own convention)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from fifteen_search import distances

from autoplayer.games.fifteen import pdb
from autoplayer.games.fifteen.goals import (
    Goal,
    Unsure,
    can_reach,
    conventional_goal,
    infer_goal,
    solve_toward,
)
from autoplayer.games.fifteen.model import Board, is_solvable
from tests.draws import run_seed


def scrambled(goal_cells: tuple[int, ...], width: int, height: int, rng: random.Random,
              steps: int = 60) -> Board:
    board = Board(width, height, goal_cells)
    for _ in range(steps):
        board = board.move(rng.choice(board.legal_moves()))
    return board




def test_one_to_fifteen_shown_means_the_gap_last():
    board = scrambled((*range(1, 16), 0), 4, 4, random.Random(1))
    goal = infer_goal(board)
    assert isinstance(goal, Goal)
    assert goal.cells == (*range(1, 16), 0)
    assert goal.reason == ("the tiles show 1..15: ascending in reading order, the gap stands "
                           "where 16 would, last (bottom-right)")


def test_two_to_sixteen_shown_means_the_gap_first():
    board = scrambled((0, *range(2, 17)), 4, 4, random.Random(2))
    goal = infer_goal(board)
    assert isinstance(goal, Goal)
    assert goal.cells == (0, *range(2, 17))
    assert "2..16" in goal.reason and "first (top-left)" in goal.reason


def test_a_number_missing_in_the_middle_puts_the_gap_there():
    board = scrambled((1, 2, 3, 4, 0, 6, 7, 8, 9), 3, 3, random.Random(3))
    goal = infer_goal(board)
    assert isinstance(goal, Goal)
    assert goal.cells == (1, 2, 3, 4, 0, 6, 7, 8, 9)
    assert "without 5" in goal.reason and "row 2 column 2" in goal.reason


@pytest.mark.parametrize(("cells", "words"), [
    ((1, 2, 3, 3, 5, 6, 7, 8, 0), "3 are shown more than once"),
    ((1, 2, 3, 4, 5, 6, 7, 12, 0), "12, outside 1..9"),
    ((1, 2, 3, 4, 5, 6, 7, 0, 0), "2 gaps"),
    ((1, 2, 3, 4, 5, 6, 8, 7, 0), "no sequence of slides reaches that"),
    # 4x4 showing 1..15 with two tiles swapped: the gap-last goal is out of reach
    ((2, 1, *range(3, 16), 0), "a tile is misread, or the game's goal is another"),
])
def test_no_goal_is_certain_and_the_reason_says_why(cells, words):
    side = 3 if len(cells) == 9 else 4
    verdict = infer_goal(Board(side, side, cells))
    assert isinstance(verdict, Unsure)
    assert words in verdict.reason


def test_can_reach_is_the_parity_rule_for_the_gap_last_goal():
    seed = run_seed()
    print(f"AUTOPLAYER_SEED={seed}")
    rng = random.Random(seed)
    for width, height in ((2, 2), (3, 3), (4, 4), (3, 4), (4, 3), (5, 2)):
        n = width * height
        for _ in range(50):
            cells = list(range(n))
            rng.shuffle(cells)
            board = Board(width, height, tuple(cells))
            assert can_reach(board.cells, (*range(1, n), 0), width) == is_solvable(board)


@pytest.mark.parametrize(("size", "corners"), [((3, 3), "first"), ((2, 3), "all"),
                                               ((4, 2), "all")])
def test_optimal_toward_every_corner_goal_matches_bfs(size, corners):
    """Each corner goal is the gap-last one mirrored and relabelled: lengths stay optimal."""
    width, height = size
    n = width * height
    rng = random.Random(width * 7 + height)
    for gap in (0,) if corners == "first" else (0, width - 1, n - width, n - 1):
        labels = range(2, n + 1)  # as a gap-first game shows them, whatever the corner
        goal = Goal(width, height, (*sorted(labels)[:gap], 0, *sorted(labels)[gap:]), "test")
        dist = distances(goal.board)
        for cells in rng.sample(sorted(dist), 40):
            board = Board(width, height, cells)
            moves, optimal = solve_toward(board, goal)
            assert optimal
            assert board.play(moves).cells == goal.cells
            assert len(moves) == dist[cells], (gap, board.spec())


def test_a_goal_with_the_gap_inside_is_reached_though_not_shortest():
    goal = Goal(3, 2, (1, 0, 2, 3, 4, 5), "test")
    dist = distances(goal.board)
    rng = random.Random(5)
    for method in ("optimal", "fast"):
        for cells in rng.sample(sorted(dist), 30):
            board = Board(3, 2, cells)
            moves, optimal = solve_toward(board, goal, method)
            assert not optimal
            assert board.play(moves).cells == goal.cells
            assert len(moves) >= dist[cells]


def test_fast_solver_reaches_a_gap_first_goal_on_5x5():
    goal = Goal(5, 5, (0, *range(2, 26)), "test")
    board = scrambled(goal.cells, 5, 5, random.Random(6), steps=300)
    moves, optimal = solve_toward(board, goal, "fast")
    assert not optimal and board.play(moves).cells == goal.cells


def test_unreachable_goal_is_a_value_error():
    goal = Goal(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0), "test")
    with pytest.raises(ValueError, match="cannot reach"):
        solve_toward(Board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0)), goal)


@pytest.fixture(scope="module")
def korf_easiest(shared_dir):
    lines = (shared_dir / "fifteen" / "korf100.txt").read_text().splitlines()
    rows = [list(map(int, line.split())) for line in lines if line.strip()]
    numbered = [(i + 1, Board(4, 4, tuple(r[:16])), r[16]) for i, r in enumerate(rows)]
    return sorted(numbered, key=lambda item: item[2])[:6]


def test_korf_instances_in_their_own_convention_solve_optimally(korf_easiest):
    pdb.tables(4, 4)  # built once per machine (cached), loaded otherwise
    for number, board, length in korf_easiest:
        first = conventional_goal(board, "gap-first")
        auto = conventional_goal(board, "auto")
        assert isinstance(first, Goal) and isinstance(auto, Goal)
        assert auto.cells == first.cells == tuple(range(16)) and "parity" in auto.reason
        assert isinstance(conventional_goal(board, "gap-last"), Unsure)
        moves, optimal = solve_toward(board, first)
        assert optimal and board.play(moves).cells == first.cells
        assert len(moves) == length, f"Korf #{number}"


def _reading(board: Board):
    from types import SimpleNamespace

    from autoplayer.games.fifteen.game import Reading
    from autoplayer.games.fifteen.reader import FifteenReading
    from autoplayer.geometry import Rect

    grid = SimpleNamespace(rect=Rect(0, 0, 400, 400))
    return Reading(FifteenReading(board, grid, (), ()))  # type: ignore[arg-type]


def test_the_play_back_end_solves_toward_the_inferred_goal_and_says_which():
    from autoplayer.games.fifteen.game import FifteenGame

    board = scrambled((0, *range(2, 17)), 4, 4, random.Random(8))
    game = FifteenGame(solver="fast", clicks_per_batch=4)
    solved = game.solve(_reading(board))
    assert isinstance(game.goal, Goal) and game.goal.cells == (0, *range(2, 17))
    assert solved.solution.goal.cells == game.goal.cells
    assert "goal: the tiles show 2..16" in solved.note and "first (top-left)" in solved.note
    steps = game.plan(_reading(board), solved.solution)
    assert 1 <= len(steps) <= 4 and steps[0].before == board


def test_the_play_back_end_refuses_before_any_input_when_no_goal_is_certain():
    from autoplayer.errors import InputError
    from autoplayer.games.fifteen.game import FifteenGame

    game = FifteenGame(solver="fast")
    with pytest.raises(InputError, match="no goal is certain: the numbers 5 are shown"):
        game.solve(_reading(Board(3, 3, (1, 2, 3, 4, 5, 6, 7, 5, 0))))
    assert game.goal is None


# --- from the screen: a board numbered 2..16 ---------------------------------------------

def _drawn_board(cells: list[int], width: int, height: int, tile: int = 64) -> np.ndarray:
    """Tiles drawn with Pillow (bordered, a bold sans), the gap left empty."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (width * tile + 80, height * tile + 80), (40, 44, 52))
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype("DejaVuSans-Bold.ttf", tile // 2)
    for i, value in enumerate(cells):
        if value:
            x, y = 40 + (i % width) * tile, 40 + (i // width) * tile
            draw.rectangle([x + 2, y + 2, x + tile - 3, y + tile - 3], fill=(230, 220, 200),
                           outline=(90, 80, 70), width=2)
            draw.text((x + tile / 2, y + tile / 2), str(value), fill=(30, 30, 30), font=font,
                      anchor="mm")
    return np.asarray(img)


def test_a_board_showing_2_to_16_is_read_and_its_gap_goes_first() -> None:
    """A game numbering its tiles 2..16 (gap first when solved): the reader takes 16 as a
    tile, not a misread, and the goal follows from what is shown."""
    from autoplayer.games.fifteen.reader import read_fifteen

    seed = run_seed()
    rng = random.Random(seed)
    cells, gap = [0, *range(2, 17)], 0
    for _ in range(200):  # random slides from the solved board: always solvable
        r, c = divmod(gap, 4)
        k = rng.choice([(r + dr) * 4 + c + dc for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                        if 0 <= r + dr < 4 and 0 <= c + dc < 4])
        cells[gap], cells[k], gap = cells[k], 0, k
    reading = read_fifteen(_drawn_board(cells, 4, 4))
    assert reading.board.cells == tuple(cells), f"seed {seed}"
    goal = infer_goal(reading.board)
    assert isinstance(goal, Goal) and goal.cells == (0, *range(2, 17))
    assert "first" in goal.reason


def test_one_barely_read_tile_is_named_by_the_others_and_two_are_not():
    """A tile read with too little confidence is taken only when it is the one such tile
    and the surely read others leave it exactly the one number nobody shows."""
    import pytest

    from autoplayer.errors import InputError
    from autoplayer.games.fifteen.reader import MIN_CONFIDENCE, _validate
    from autoplayer.geometry import Rect
    from autoplayer.vision.grid import Grid
    from autoplayer.vision.numbers import ClueNumber

    grid = Grid(xs=((0, 40), (50, 90), (100, 140)), ys=((0, 40), (50, 90), (100, 140)))
    cells = tuple(Rect(x0, y0, x1 - x0, y1 - y0) for y0, y1 in grid.ys for x0, x1 in grid.xs)
    weak = MIN_CONFIDENCE / 2

    def numbers(confidences: dict[int, float]) -> list[ClueNumber | None]:
        values = [4, 1, 3, 2, 8, 5, 7, 6, None]
        return [None if v is None else ClueNumber(v, confidences.get(i, 0.9), (), ())
                for i, v in enumerate(values)]

    board, _ = _validate(grid, cells, numbers({0: weak}))
    assert board.cells == (4, 1, 3, 2, 8, 5, 7, 6, 0)
    with pytest.raises(InputError, match="confidence"):
        _validate(grid, cells, numbers({0: weak, 4: weak}))
