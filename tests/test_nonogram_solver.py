"""The whole solver: verdicts on the shared puzzle files, small exhaustive checks, edge cases."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.model import (
    EMPTY,
    FILLED,
    UNKNOWN,
    Puzzle,
    first_disagreement,
    line_clue,
    line_fits,
    puzzle_from_grid,
    satisfies,
)
from autoplayer.games.nonogram.solver import BACKENDS, Verdict, solve
from tests.draws import run_seed

UNFINISHED = {"knotty.non", "faase.non"}
"""No known solver finished these (see the research notes); checked for soundness with a
short limit (knotty's verdict has its own test, below)."""


def puzzle_files(shared: Path) -> list[Path]:
    root = shared / "nonograms"
    return sorted(p for p in root.rglob("*") if p.suffix in (".non", ".nin", ".xml"))


@pytest.fixture(scope="module")
def files(shared_dir: Path) -> list[Path]:
    found = puzzle_files(shared_dir)
    assert len(found) >= 30
    return found


def check_verdict(puzzle: Puzzle, result) -> None:
    assert result.verdict in (Verdict.LINE_SOLVABLE, Verdict.UNIQUE, Verdict.MULTIPLE)
    for grid in result.solutions:
        assert satisfies(puzzle, grid)
    decided = result.grid != UNKNOWN
    for grid in result.solutions:
        assert (grid[decided] == result.grid[decided]).all()
    if result.verdict is Verdict.MULTIPLE:
        assert len(result.solutions) == 2
        assert (result.solutions[0] != result.solutions[1]).any()
    else:
        assert len(result.solutions) == 1
        if puzzle.solution is not None:
            assert (result.solutions[0] == puzzle.solution).all()


def test_every_shared_puzzle_gets_the_right_verdict(files: list[Path]) -> None:
    verdicts = {}
    for path in files:
        if path.name in UNFINISHED:
            continue
        puzzle = load_puzzle(path)
        result = solve(puzzle, timeout=60)
        check_verdict(puzzle, result)
        verdicts[path.name] = result.verdict
    # what the survey and picross-solver's PERF.md report for these
    assert verdicts["webpbn-00001.non"] is Verdict.LINE_SOLVABLE
    assert verdicts["webpbn-00529.non"] is Verdict.LINE_SOLVABLE
    assert verdicts["webpbn-06574.non"] is Verdict.UNIQUE
    assert verdicts["webpbn-00803.non"] is Verdict.UNIQUE


@pytest.mark.parametrize("name", sorted(UNFINISHED))
def test_unfinished_puzzles_decide_only_true_cells(shared_dir: Path, name: str) -> None:
    puzzle = load_puzzle(shared_dir / "nonograms" / "griddler-solver" / name)
    result = solve(puzzle, timeout=4)
    decided = result.grid != UNKNOWN
    assert decided.sum() > 0
    assert (result.grid[decided] == puzzle.solution[decided]).all()
    if result.verdict is not Verdict.TIMEOUT:  # should a future version finish them
        check_verdict(puzzle, result)


@pytest.mark.parametrize("name", ["webpbn-00436.non", "webpbn-00803.non"])
def test_probing_search_alone_proves_uniqueness(shared_dir: Path, name: str) -> None:
    puzzle = load_puzzle(shared_dir / "nonograms" / "griddler-solver" / name)
    result = solve(puzzle, timeout=60, backend="search")
    assert result.verdict is Verdict.UNIQUE
    assert not result.stats.sat
    assert result.stats.nodes >= 1 and result.stats.probes > 0
    assert (result.solutions[0] == puzzle.solution).all()


def brute_force_solutions(puzzle: Puzzle, limit: int | None = None) -> list[np.ndarray]:
    """Every solution (or the first `limit`), without the solver: rows one at a time from
    all patterns of their clue, a branch dropped as soon as some column prefix fits no
    placement of the column's clue (`line_fits`, a separate DP in the model)."""
    width, height = puzzle.width, puzzle.height
    patterns = {
        clue: [p for p in itertools.product((0, 1), repeat=width) if line_clue(p) == clue]
        for clue in set(puzzle.rows)
    }
    found: list[np.ndarray] = []
    chosen: list[tuple[int, ...]] = []

    def extend(r: int) -> None:
        if limit is not None and len(found) >= limit:
            return
        if r == height:
            found.append(np.array(chosen, dtype=np.int8))
            return
        rest = [UNKNOWN] * (height - r - 1)
        for pattern in patterns[puzzle.rows[r]]:
            chosen.append(pattern)
            if all(line_fits(clue, [row[c] for row in chosen] + rest)
                   for c, clue in enumerate(puzzle.columns)):
                extend(r + 1)
            chosen.pop()

    extend(0)
    assert all(satisfies(puzzle, grid) for grid in found)
    return found


@st.composite
def small_puzzles(draw: st.DrawFn) -> tuple[Puzzle, np.ndarray | None]:
    """Clues of a random grid up to 8x8, most 4x4 or more at a middling density, whose
    clues then often have several solutions; one in eight has a row clue from another
    random line instead, which may leave none. Two in five come with some of the grid's
    cells given, as in a saved game: a back end then starts from a board with cells
    already known, as SAT does after probing.

    Everything comes from a Random that hypothesis seeds: its own draws lean towards
    small and all-equal values, whose clues mostly have a single solution."""
    rng = draw(st.randoms(use_true_random=True))
    low = 1 if rng.random() < 0.2 else 4
    height, width = rng.randint(low, 8), rng.randint(low, 8)
    density = rng.choice([0.25, 0.4, 0.5, 0.6])
    cells = np.array([[rng.random() < density for _ in range(width)] for _ in range(height)],
                     dtype=np.int8)
    puzzle = puzzle_from_grid(cells)
    rows = list(puzzle.rows)
    if rng.random() < 1 / 8:
        rows[rng.randrange(height)] = line_clue([rng.random() < 0.5 for _ in range(width)])
    start = None
    if rng.random() < 0.4:
        given_cells = np.array([[rng.random() < 0.2 for _ in range(width)]
                                for _ in range(height)])
        start = np.where(given_cells, cells, UNKNOWN).astype(np.int8)
    return Puzzle(tuple(rows), puzzle.columns), start


def check_against_brute_force(
    puzzle: Puzzle, start: np.ndarray | None, backend: str, expected: list[np.ndarray],
    max_solutions: int,
) -> None:
    """The verdict and every grid of one solve agree with the full list of solutions."""
    result = solve(puzzle, max_solutions=max_solutions, backend=backend, grid=start)
    keys = {grid.tobytes() for grid in expected}
    got = [grid.tobytes() for grid in result.solutions]
    where = f"backend={backend} max_solutions={max_solutions} verdict={result.verdict}"
    assert all(key in keys for key in got), f"a returned grid breaks a clue ({where})"
    assert len(set(got)) == len(got), f"a grid returned twice ({where})"
    decided = result.grid != UNKNOWN
    for grid in expected:  # logic decides only what every solution has
        assert (grid[decided] == result.grid[decided]).all(), where
    n = len(expected)
    if result.verdict is Verdict.STALLED:  # probing alone may stop short, never wrongly
        assert backend == "probe" and not got, where
    elif result.verdict is Verdict.CONTRADICTION:
        assert n == 0 and not got, where
    elif result.verdict in (Verdict.LINE_SOLVABLE, Verdict.UNIQUE):
        assert n == 1 and len(got) == 1, where
    elif result.verdict is Verdict.SOLVED:
        assert max_solutions == 1 and n >= 1 and len(got) == 1, where
    else:
        assert result.verdict is Verdict.MULTIPLE, where
        assert n >= 2 and len(got) == min(n, max_solutions), where
    if backend != "probe":  # the others always reach a verdict
        assert result.verdict is not Verdict.STALLED, where
        if n == 0:
            assert result.verdict is Verdict.CONTRADICTION, where
        elif n >= 2 and max_solutions >= 2:
            assert result.verdict is Verdict.MULTIPLE, where


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=200, deadline=None)
@given(case=small_puzzles())
def test_every_path_matches_brute_force(
    case: tuple[Puzzle, np.ndarray | None], backend: str
) -> None:
    """Each back end forced on its own, so every path is covered and not only the one the
    pipeline happens to take; max_solutions 1, 2 and 5, then room for every solution
    (which lists every grid the SAT encoding admits, whatever CaDiCaL tries first)."""
    puzzle, start = case
    expected = brute_force_solutions(puzzle)
    if start is not None:
        given_cells = start != UNKNOWN
        expected = [g for g in expected if (g[given_cells] == start[given_cells]).all()]
    event(f"solutions: {len(expected) if len(expected) < 6 else '6 or more'}")
    for max_solutions in (1, 2, 5):
        check_against_brute_force(puzzle, start, backend, expected, max_solutions)
    if backend != "probe":
        everything = solve(
            puzzle, max_solutions=len(expected) + 1, backend=backend, grid=start
        )
        assert sorted(g.tobytes() for g in everything.solutions) == sorted(
            g.tobytes() for g in expected
        ), f"backend={backend}: not exactly the brute-force solutions"


ONES_ROW = Puzzle(
    rows=((1, 1, 1, 1), (2, 1), (1, 3), (1, 1, 1), (1, 1)),
    columns=((1,), (1, 1), (3,), (1,), (1,), (), (1, 1, 1), (1,), (1, 1), (1, 1)),
)
"""The shape of issue 12's failure (a row clue of 1s whose cells gave one 1 more), in 5x10
with 8 solutions: column 7's "1 1 1" in five rows fills row 1's seventh cell, and the
row's four 1s still fit around it, so an encoding that leaves known filled cells out of
the blocks admits row 1 = 1010101010, five 1s."""


@pytest.mark.parametrize("backend", ["auto", "sat", "search"])
def test_row_of_ones_keeps_its_filled_cell_in_a_block(backend: str) -> None:
    expected = brute_force_solutions(ONES_ROW)
    assert len(expected) == 8
    keys = {g.tobytes() for g in expected}
    for max_solutions in (1, 2, 5):
        result = solve(ONES_ROW, max_solutions=max_solutions, backend=backend)
        assert all(g.tobytes() in keys for g in result.solutions), max_solutions
        assert len(result.solutions) == min(8, max_solutions)
    everything = solve(ONES_ROW, max_solutions=9, backend=backend)
    assert everything.verdict is Verdict.MULTIPLE
    assert sorted(g.tobytes() for g in everything.solutions) == sorted(keys)


def test_default_pipeline_reaches_sat_on_the_row_of_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """The regression above runs the path that failed: search hands a probed board to SAT
    (with a budget of one node, the probed root; the default budget lets the search
    find these few solutions itself)."""
    from autoplayer.games.nonogram.solver import search

    keys = {g.tobytes() for g in brute_force_solutions(ONES_ROW)}
    monkeypatch.setattr(search, "NODE_BUDGET", 1)
    result = solve(ONES_ROW, max_solutions=5)
    assert result.stats.sat and result.stats.nodes == 1
    assert len(result.solutions) == 5 and all(g.tobytes() in keys for g in result.solutions)


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="backend"):
        solve(ONES_ROW, backend="guess")  # type: ignore[arg-type]


def test_probe_backend_never_guesses(shared_dir: Path) -> None:
    puzzle = load_puzzle(shared_dir / "nonograms" / "griddler-solver" / "webpbn-00023.non")
    result = solve(puzzle, backend="probe")  # probing the root decides every cell
    assert result.verdict is Verdict.UNIQUE and result.stats.nodes == 0
    assert (result.solutions[0] == puzzle.solution).all()
    stalled = solve(ONES_ROW, backend="probe")
    assert stalled.verdict is Verdict.STALLED and stalled.solutions == []
    assert stalled.stats.probes > 0 and stalled.stats.nodes == 0


def random_grid_puzzle(seed: int) -> Puzzle:
    """The clues of a random 25x25..60x60 grid, 50-65 % filled (most have several solutions
    and go through probing, search and SAT), from `random.Random(seed)`."""
    rng = random.Random(seed)
    height, width = rng.randint(25, 60), rng.randint(25, 60)
    density = rng.uniform(0.5, 0.65)
    cells = [[rng.random() < density for _ in range(width)] for _ in range(height)]
    clues = puzzle_from_grid(np.array(cells, dtype=np.int8))
    return Puzzle(clues.rows, clues.columns)  # without the goal: only the clues count


BIG_SEEDS = (1, 2, 3, 5, 6, 7, 8, 10, 12, 13, 14, 16, 18, 19, 20, 23, 24, 26, 29, 32, 34, 37)
"""Seeds of `random_grid_puzzle` whose puzzles this solver finishes in a fraction of a
second (the others of the first 40 take seconds: sparse-ish random clues are hard
for every path). Seed 24 (49x36) is one the old SAT encoding answered wrongly."""


@pytest.mark.parametrize("max_solutions", [1, 2, 5])
def test_big_random_puzzles_get_only_valid_grids(max_solutions: int) -> None:
    several = 0
    for seed in BIG_SEEDS:
        puzzle = random_grid_puzzle(seed)
        result = solve(puzzle, max_solutions=max_solutions)
        where = f"seed {seed}, {puzzle.width}x{puzzle.height}, verdict {result.verdict}"
        assert result.verdict is not Verdict.TIMEOUT, where
        assert result.solutions, where
        for i, grid in enumerate(result.solutions, 1):
            assert first_disagreement(puzzle, grid) is None, f"{where}: solution {i}"
        assert len({g.tobytes() for g in result.solutions}) == len(result.solutions), where
        several += result.verdict is Verdict.MULTIPLE
    if max_solutions >= 2:
        assert several >= len(BIG_SEEDS) // 2  # the point: puzzles with several solutions


def test_contradiction_names_the_first_line_without_placement() -> None:
    # row 1 "1 1" in 3 cells forces columns 1 and 3, but column 3's clue is empty
    puzzle = Puzzle(rows=((1, 1), ()), columns=((1,), (1,), ()))
    result = solve(puzzle)
    assert result.verdict is Verdict.CONTRADICTION
    assert result.contradiction in (("column", 1), ("column", 2))
    assert result.solutions == []


def test_contradiction_only_search_can_find() -> None:
    # every line fits on its own and line logic stalls, but no grid fits all lines
    rows = columns = ((2,), (2,), (1, 1), (1, 1))
    puzzle = Puzzle(rows, columns)
    assert brute_force_solutions(puzzle) == []
    assert solve(puzzle, logic_only=True).verdict is Verdict.STALLED
    result = solve(puzzle)
    assert result.verdict is Verdict.CONTRADICTION
    assert result.contradiction is None and result.solutions == []


def test_logic_only_stalls_where_search_is_needed(shared_dir: Path) -> None:
    puzzle = load_puzzle(shared_dir / "nonograms" / "griddler-solver" / "webpbn-06574.non")
    result = solve(puzzle, logic_only=True)
    assert result.verdict is Verdict.STALLED
    assert result.solutions == [] and result.stats.probes == 0
    decided = result.grid != UNKNOWN
    assert 0 < decided.sum() < puzzle.width * puzzle.height
    assert (result.grid[decided] == puzzle.solution[decided]).all()


def test_max_solutions_one_skips_the_uniqueness_proof() -> None:
    puzzle = Puzzle(rows=((1,), (1,), (1,)), columns=((1,), (1,), (1,)))
    result = solve(puzzle, max_solutions=1)
    assert result.verdict is Verdict.SOLVED
    assert len(result.solutions) == 1 and satisfies(puzzle, result.solutions[0])
    with pytest.raises(ValueError):
        solve(puzzle, max_solutions=0)


def test_starting_grid_is_taken_as_given() -> None:
    # six permutation matrices; two given cells leave one
    puzzle = Puzzle(rows=((1,), (1,), (1,)), columns=((1,), (1,), (1,)))
    start = np.full((3, 3), UNKNOWN, dtype=np.int8)
    start[0, 1] = FILLED
    start[1, 0] = FILLED
    result = solve(puzzle, grid=start)
    assert result.verdict is Verdict.LINE_SOLVABLE
    assert result.solutions[0].tolist() == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    start[2, 2] = EMPTY
    assert solve(puzzle, grid=start).verdict is Verdict.CONTRADICTION


def test_unknown_clues_constrain_nothing(shared_dir: Path) -> None:
    puzzle = load_puzzle(shared_dir / "nonograms" / "griddler-solver" / "webpbn-00006.non")
    # the first three row clues clipped off, as a screen reader may see them
    rows = (None, None, None, *puzzle.rows[3:])
    partial = Puzzle(rows, puzzle.columns)
    result = solve(partial, max_solutions=2)
    assert result.verdict in (Verdict.UNIQUE, Verdict.LINE_SOLVABLE, Verdict.MULTIPLE)
    for grid in result.solutions:
        assert all(line_clue(r) == c for r, c in zip(grid[3:], rows[3:], strict=True))
        assert all(line_clue(c) == k for c, k in zip(grid.T, puzzle.columns, strict=True))
    decided = result.grid != UNKNOWN
    assert (result.grid[decided] == puzzle.solution[decided]).all()
    everything_unknown = Puzzle((None, None), (None, None, None))
    free = solve(everything_unknown)
    assert free.verdict is Verdict.MULTIPLE
    assert (free.grid == UNKNOWN).all()


def test_timeout_keeps_the_solutions_found_in_time() -> None:
    # 2^36 grids fit six unknown row and column clues: no search can list them all
    free = Puzzle((None,) * 6, (None,) * 6)
    result = solve(free, max_solutions=10**9, timeout=0.5)
    assert result.verdict is Verdict.TIMEOUT
    assert len(result.solutions) >= 2
    assert len({g.tobytes() for g in result.solutions}) == len(result.solutions)
    assert result.stats.seconds < 5


def test_result_rows_are_the_arrays_as_lists():
    """The CLI prints `grid_rows`/`solution_rows` (no numpy); they must match the arrays."""
    puzzle = Puzzle(((1,), (1,), ()), ((1,), (1,)))  # two solutions, third row empty
    result = solve(puzzle)
    assert result.verdict is Verdict.MULTIPLE
    assert result.grid_rows == result.grid.tolist()
    assert result.grid_rows[2] == [EMPTY, EMPTY] and result.decided == 2
    assert result.solution_rows == [s.tolist() for s in result.solutions]
    assert all(s.dtype == np.int8 for s in result.solutions)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.sampled_from("01?"), min_size=n, max_size=n),
    st.lists(st.integers(1, 4), max_size=4))))
def test_sat_line_encoding_has_exactly_the_placements(case: tuple) -> None:
    """The SAT back end's clauses for one line, with some cells known, allow exactly the
    placements of the clue that agree with them (models counted over the cell variables)."""
    pytest.importorskip("pysat")
    from pysat.solvers import Solver

    from autoplayer.games.nonogram.solver.sat import _line_clauses

    n, known, clue = case
    filled = sum(1 << k for k, v in enumerate(known) if v == "1")
    empty = sum(1 << k for k, v in enumerate(known) if v == "0")
    want = {
        grid for grid in itertools.product((0, 1), repeat=n)
        if line_clue(list(grid)) == tuple(clue)
        and all(grid[k] == int(v) for k, v in enumerate(known) if v != "?")
    }
    true = n + 1
    clauses: list[list[int]] = [[true]]
    top = _line_clauses(tuple(clue), n, filled, empty, list(range(1, n + 1)), true, true,
                        clauses)
    if top is None:
        assert not want
        return
    clauses += [[k + 1] for k in range(n) if (filled >> k) & 1]
    clauses += [[-(k + 1)] for k in range(n) if (empty >> k) & 1]
    got = set()
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            grid = tuple(int(model[k] > 0) for k in range(n))
            got.add(grid)
            solver.add_clause([-(k + 1) if v else k + 1 for k, v in enumerate(grid)])
    assert got == want


def _probe_every_cell(engine, board):
    """Probing as it was before probes were skipped: every unknown cell, every pass."""
    from autoplayer.games.nonogram.solver.probe import Branch

    while True:
        changed, best, best_score = False, None, (-1, -1)
        for r in range(engine.height):
            for c in range(engine.width):
                if board.value(r, c) >= 0:
                    continue
                boards = []
                for value in (True, False):
                    trial = board.copy()
                    trial.set_cell(r, c, value)
                    boards.append(None if engine.propagate(trial, (r,), (c,)) else trial)
                on, off = boards
                if on is None and off is None:
                    return None
                if on is None or off is None:
                    board.assign(on or off)
                    changed = True
                    continue
                if not on.unknown or not off.unknown:
                    return Branch(r, c, on, off)
                agreed = [(i, j, on.value(i, j)) for i in range(engine.height)
                          for j in range(engine.width) if board.value(i, j) < 0
                          and on.value(i, j) >= 0 and on.value(i, j) == off.value(i, j)]
                if agreed:
                    for i, j, v in agreed:
                        board.set_cell(i, j, v == 1)
                    if engine.propagate(board, {i for i, _, _ in agreed},
                                        {j for _, j, _ in agreed}):
                        return None
                    changed = True
                    continue
                gains = (board.unknown - on.unknown, board.unknown - off.unknown)
                score = (min(gains), max(gains))
                if score > best_score:
                    best_score, best = score, Branch(r, c, on, off)
        if not changed:
            return best


def test_probing_skips_only_probes_that_cannot_change() -> None:
    """Skipping the cells whose probe read no changed line ends on the same board and
    ranks the same cell best as probing every cell in every pass."""
    from autoplayer.games.nonogram.solver.probe import probe
    from autoplayer.games.nonogram.solver.propagate import Board, Engine

    seed = run_seed()
    print(f"AUTOPLAYER_SEED={seed}")
    rng = random.Random(seed)
    for _ in range(25):
        height, width = rng.randint(6, 14), rng.randint(6, 14)
        density = rng.uniform(0.4, 0.65)
        grid = [[int(rng.random() < density) for _ in range(width)] for _ in range(height)]
        puzzle = puzzle_from_grid(np.array(grid))
        engine = Engine(puzzle.rows, puzzle.columns)
        board = Board.blank(height, width)
        engine.propagate_all(board)
        mine, reference = board.copy(), board.copy()
        got, want = probe(engine, mine), _probe_every_cell(engine, reference)
        assert (mine.rows_f, mine.rows_e) == (reference.rows_f, reference.rows_e), seed
        if board.unknown and want is not None and mine.unknown:
            assert got is not None and (got.row, got.column) == (want.row, want.column), seed
            assert (got.filled.rows_f, got.empty.rows_e) == (want.filled.rows_f,
                                                             want.empty.rows_e), seed


def test_knotty_has_several_solutions() -> None:
    """knotty.non (which no solver in the survey finished) turns onto itself by a quarter
    turn; the SAT back end finds grids the turns leave unchanged first, and two of them."""
    from autoplayer.games.nonogram.solver.symmetry import symmetries

    puzzle = load_puzzle(Path(__file__).resolve().parent.parent / "examples" / "knotty.non")
    assert len(symmetries(puzzle.rows, puzzle.columns)) == 3  # the three turns
    result = solve(puzzle, timeout=300)
    assert result.verdict is Verdict.MULTIPLE and result.stats.sat
    first, second = result.solutions
    assert satisfies(puzzle, first) and satisfies(puzzle, second)
    assert (first != second).any()


SYMMETRIES = {
    "turn": lambda g: np.rot90(g, 2), "mirror": lambda g: g[:, ::-1],
    "flip": lambda g: g[::-1, :], "transpose": lambda g: g.T,
    "quarter": lambda g: np.rot90(g),
}


@pytest.mark.parametrize("name", sorted(SYMMETRIES))
def test_symmetric_clues_give_exactly_the_brute_force_solutions(name: str) -> None:
    """Puzzles made symmetric (a grid ORed with its image, so the clues map onto
    themselves): the SAT path that looks for unchanged grids first, adds each grid's
    images and proves with lex-leader constraints finds every solution, no more."""
    from autoplayer.games.nonogram.solver.symmetry import symmetries

    seed = run_seed()
    print(f"AUTOPLAYER_SEED={seed}")
    rng = random.Random(seed)
    image = SYMMETRIES[name]
    checked = 0
    for _ in range(300):
        if checked == 6:
            break
        side = rng.randint(3, 6)
        grid = (np.array([[rng.random() < 0.35 for _ in range(side)] for _ in range(side)]))
        grid = (grid | image(grid)).astype(np.int8)
        if name == "quarter":
            grid = (grid | np.rot90(grid, 2)).astype(np.int8)
        puzzle = puzzle_from_grid(grid)
        if not symmetries(puzzle.rows, puzzle.columns):
            continue  # an empty border cut off to a core that lost the symmetry
        if solve(puzzle, logic_only=True).verdict is Verdict.LINE_SOLVABLE:
            continue  # SAT would not run
        expected = brute_force_solutions(puzzle)
        everything = solve(puzzle, max_solutions=len(expected) + 1, backend="sat")
        assert sorted(g.tobytes() for g in everything.solutions) == sorted(
            g.tobytes() for g in expected), (seed, grid.tolist())
        two = solve(puzzle, backend="sat")
        assert two.verdict is (Verdict.MULTIPLE if len(expected) > 1 else Verdict.UNIQUE)
        checked += 1
    assert checked == 6, seed


def test_a_deadline_stops_the_sat_solver_even_inside_one_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CaDiCaL cannot be interrupted and one of its calls can run for seconds (faase
    with --timeout 10 ended at 13-17 s): with a deadline it runs in a forked child that
    sends each solution as found and is killed at the deadline. Here the child's solver
    sends one grid and then hangs as in a long native call."""
    import time

    from autoplayer.games.nonogram.solver import sat
    from autoplayer.games.nonogram.solver.propagate import Board

    rows, columns = [(1,), (1,)], [(1,), (1,)]
    grid = Board.blank(2, 2)
    grid.set_cell(0, 0, True)
    grid.set_cell(1, 1, True)

    def hangs(*args: object) -> bool:
        args[-1](grid)  # type: ignore[operator]
        time.sleep(60)
        return True

    monkeypatch.setattr(sat, "_search", hangs)
    start = time.monotonic()
    found, exhausted = sat.sat_solutions(rows, columns, Board.blank(2, 2), 2, [], 1.0)
    assert time.monotonic() - start < 3.0
    assert exhausted is False and [g.rows_f for g in found] == [grid.rows_f]

    # Without a deadline the same search runs here, to the end.
    monkeypatch.undo()
    found, exhausted = sat.sat_solutions(rows, columns, Board.blank(2, 2), 5, [], None)
    assert exhausted is True and len(found) == 2
    # With one that is not reached, the child's answer comes back whole.
    found, exhausted = sat.sat_solutions(rows, columns, Board.blank(2, 2), 5, [], 30.0)
    assert exhausted is True and sorted(g.rows_f for g in found) == [[1, 2], [2, 1]]
