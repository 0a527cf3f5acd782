"""Ripple Effect input never hangs, eats memory or raises (issue 22): the stated limits.

Every case that once raised from `int()`, looped for ever or grew past gigabytes is
here. Refusals run in-process; anything that solves or checks a large board runs in
a child whose address space is capped at 1 GB and whose wall time is capped by a
timeout, so a regression fails the test instead of stalling the suite.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from autoplayer.cli import main as autoplayer_main
from autoplayer.errors import InputError
from autoplayer.games.ripple import solver
from autoplayer.games.ripple.checker import CrossRule, MorePairs, report, violations
from autoplayer.games.ripple.cli import main_check, main_solve
from autoplayer.games.ripple.formats import format_puzzle, parse_puzzle, parse_solution
from autoplayer.games.ripple.generator import generate, random_rooms
from autoplayer.games.ripple.model import EMPTY, MAX_SIDE, MAX_VALUE, Puzzle

REPO = Path(__file__).resolve().parent.parent
DIGITS_5000 = "7" * 5000
PUZZLE = "1 1 2\n1 3 3\n\n- - -\n- - -\n"       # rooms of 3, 1, 2: one solution
SOLUTION = "1 2 1\n3 1 2\n"


def child(code: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh interpreter on this checkout, with at most 1 GB of memory.

    A MemoryError there is a traceback and a non-zero exit; a hang is a TimeoutExpired.
    """
    prelude = ("import resource\n"
               "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)


def one_line_error(err: str, prog: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err[:500]
    assert err.startswith(f"{prog}: error: "), err[:500]
    return err


def grid(rows: list[list[int]]) -> str:
    return "".join(" ".join(map(str, row)) + "\n" for row in rows)


# -- numbers in files ---------------------------------------------------------------


@pytest.mark.parametrize(("text", "line"), [
    (f"1 1 2\n1 {DIGITS_5000} 3\n\n- - -\n- - -\n", 2),      # a room number
    (f"1 1 2\n1 3 3\n\n- - -\n- {DIGITS_5000} -\n", 5),      # a given, spec layout
    (f"0 0 0\n0 {DIGITS_5000} 0\n\n1 1 2\n1 3 3\n", 2),      # a given, values first
])
def test_a_number_of_thousands_of_digits_in_a_puzzle_is_one_line(tmp_path, capsys, text, line):
    (tmp_path / "p.txt").write_text(text)
    out = tmp_path / "o.txt"
    assert main_solve([str(tmp_path / "p.txt"), str(out)]) == 2
    err = one_line_error(capsys.readouterr().err, "ripple-effect")
    assert f"p.txt:{line}: column 2's " in err and "digits; it must be " in err
    assert not out.exists()
    assert main_check([str(tmp_path / "p.txt")]) == 2
    assert f"p.txt:{line}: " in one_line_error(capsys.readouterr().err, "ripple-effect-check")


def test_a_number_of_thousands_of_digits_in_a_solution_is_one_line(tmp_path, capsys):
    (tmp_path / "p.txt").write_text(PUZZLE)
    (tmp_path / "s.txt").write_text(f"1 2 1\n3 1 {DIGITS_5000}\n")
    assert main_check([str(tmp_path / "p.txt"), str(tmp_path / "s.txt")]) == 2
    err = one_line_error(capsys.readouterr().err, "ripple-effect-check")
    assert f"s.txt:2: column 3's value has 5000 digits; it must be 1..{MAX_VALUE}" in err


def test_values_are_bounded_by_their_room_and_the_largest_board():
    for value in (3, MAX_VALUE):
        with pytest.raises(InputError, match=f"value {value} in column 2 is larger than"):
            parse_puzzle(f"1 1\n\n- {value}\n")
    past = f"column 2's value {MAX_VALUE + 1} is outside"
    with pytest.raises(InputError, match=f"{past} 1..{MAX_VALUE}"):
        parse_puzzle(f"1 1\n\n- {MAX_VALUE + 1}\n")
    with pytest.raises(InputError, match=f"{past} 0..{MAX_VALUE}"):
        parse_puzzle(f"0 {MAX_VALUE + 1}\n\n1 2\n")      # values first, 0 = empty
    with pytest.raises(InputError, match="column 1's room number 1000000000 is outside"):
        parse_puzzle("1000000000 1\n\n- -\n")
    assert parse_puzzle("999999999 0999999999\n\n- 0002\n").givens == (0, 2)
    # Beyond its room but not beyond the limit: a violation the checker words, not bad input.
    puzzle = parse_puzzle("1 1\n2 2\n\n- -\n- -\n")
    correct, text = report(puzzle, parse_solution(f"1 2\n{MAX_VALUE} 1\n", puzzle))
    assert not correct and f"Values out of range: {MAX_VALUE}" in text
    with pytest.raises(InputError, match=f"column 1's value {MAX_VALUE + 1} is outside 1.."):
        parse_solution(f"1 2\n{MAX_VALUE + 1} 1\n", puzzle)


@pytest.mark.parametrize("value", [2**64 + 1, 10**8])
def test_a_huge_value_in_a_solution_is_refused_at_once(tmp_path, value):
    """It once looped `range(1, value + 1)`: 2^64+1 never ended, 10^8 took 10 s."""
    (tmp_path / "p.txt").write_text(PUZZLE)
    (tmp_path / "s.txt").write_text(f"1 2 1\n3 {value} 2\n")
    done = child("from autoplayer.games.ripple.cli import main_check\n"
                 f"raise SystemExit(main_check([{str(tmp_path / 'p.txt')!r}, "
                 f"{str(tmp_path / 's.txt')!r}]))", timeout=20)
    assert done.returncode == 2, done.stderr[-2000:]
    err = one_line_error(done.stderr, "ripple-effect-check")
    assert "s.txt:2: column 2's value" in err and f"1..{MAX_VALUE}" in err


def test_the_checker_is_bounded_by_the_board_not_by_the_values():
    """Called directly with values no file may hold, and on a 100x100 grid of one value
    (a million pairs break the cross rule): bounded time, and a bounded listing."""
    done = child("""
from autoplayer.games.ripple.checker import MAX_PAIRS, report, violations
from autoplayer.games.ripple.formats import parse_puzzle
small = parse_puzzle("1 1 2\\n1 3 3\\n\\n- - -\\n- - -\\n")
for huge in (2**64 + 1, 10**8):
    found = violations(small, [1, 2, 1, 3, huge, huge])
    assert any(getattr(v, "value", 0) == huge for v in found), found
n = 100
row = " ".join(["1"] * n) + "\\n"
board = parse_puzzle(row * n + "\\n" + row.replace("1", "-") * n)
correct, text = report(board, [n * n] * (n * n))
lines = text.splitlines()
print(len(lines), lines[-1])
""", timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    count, last = done.stdout.split(" ", 1)
    pairs = 2 * 100 * (100 * 99 // 2)              # every pair of cells in a row or column
    # 3 room-rule lines, 3 lines a listed pair, the closing count.
    assert int(count) == 3 + 3 * 10_000 + 1
    assert last.strip() == (f"... and {pairs - 10_000} more pairs of cells violate cross rule "
                            "(the first 10000 are listed)")


def _pairs_by_definition(puzzle: Puzzle, values: list[int]) -> list[tuple[int, int, int, int]]:
    """Every pair in one row or column with equal values v at most v apart, in report order."""
    cols, found = puzzle.cols, []
    for a in range(len(values)):
        for b in range(a + 1, len(values)):
            (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
            if values[a] == values[b] and (ra == rb or ca == cb):
                distance = abs(ra - rb) + abs(ca - cb)
                if distance <= values[a]:
                    found.append((a, b, values[a], distance))
    return found


def test_cross_pairs_agree_with_the_rule_and_the_listing_stops_at_its_limit(monkeypatch):
    seed = int(os.environ.get("AUTOPLAYER_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    for draw in range(300):
        rows, cols = rng.randint(1, 8), rng.randint(1, 8)
        puzzle = Puzzle.build([[0] * cols] * rows, [[0] * cols] * rows)
        values = [rng.randint(-1, 6) for _ in range(rows * cols)]
        expected = _pairs_by_definition(puzzle, values)
        cap = rng.choice([0, 1, 3, 10_000])
        monkeypatch.setattr("autoplayer.games.ripple.checker.MAX_PAIRS", cap)
        found = violations(puzzle, values)
        pairs = [(v.first, v.second, v.value, v.distance) for v in found
                 if isinstance(v, CrossRule)]
        more = [v.count for v in found if isinstance(v, MorePairs)]
        why = f"AUTOPLAYER_SEED={seed} draw {draw}"
        assert pairs == expected[:cap], why
        assert more == ([len(expected) - cap] if len(expected) > cap else []), why


# -- the size of what is read --------------------------------------------------------


def test_rows_and_columns_past_the_limit_are_refused_at_the_line():
    wide = " ".join(["1"] * 1_000_000)
    with pytest.raises(InputError) as caught:
        parse_puzzle(f"1 1\n{wide}\n\n- -\n", "p.txt")
    assert str(caught.value) == (f"p.txt:2: row has more than {MAX_SIDE} entries; a board "
                                 f"has at most {MAX_SIDE} columns")
    tall = "1\n" * 1_000_000
    with pytest.raises(InputError) as caught:
        parse_puzzle(tall, "p.txt")
    assert str(caught.value) == (f"p.txt:{MAX_SIDE + 1}: grid has more than {MAX_SIDE} rows; "
                                 f"a board has at most {MAX_SIDE} rows")
    with pytest.raises(InputError, match=r"p\.txt:5: a third grid"):
        parse_puzzle("1\n\n-\n\n" + "1\n\n" * 1_000_000, "p.txt")


def test_line_numbers_survive_blank_stretches_and_every_kind_of_line_break():
    text = "\n" * 500_000 + "1 1\r\n2 2\r\n \t\n\x0c- x\n- -\n"
    line = next(n for n, text in enumerate(text.splitlines(), start=1) if "x" in text)
    with pytest.raises(InputError) as caught:
        parse_puzzle(text, "p.txt")
    assert caught.value.line == line == 500_005
    assert "'x' is not a value or '-'" in str(caught.value)
    assert parse_puzzle("1 1\u20282 2\x85\x0b- 2\r- -").givens == (0, 2, 0, 0)


# -- large rooms --------------------------------------------------------------------


def _solve_in_child(path: Path, out: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return child("from autoplayer.games.ripple.cli import main_solve\n"
                 f"raise SystemExit(main_solve([{str(path)!r}, {str(out)!r}]))", timeout)


@pytest.mark.parametrize(("side", "full"), [(60, False), (MAX_SIDE, False), (MAX_SIDE, True)])
def test_a_board_that_is_one_room_is_solved_at_once(tmp_path, side, full):
    """It once grew past 3-4 GB with no answer: in one room each value occurs once, so any
    order of the values not given is a solution (and a room given in full has one)."""
    givens = [[0] * side for _ in range(side)]
    givens[0][0], givens[side - 1][side - 1], givens[1][0] = 7, side * side, 1
    if full:
        order = [v for v in range(side * side, 0, -1) if v not in (7, side * side, 1)]
        for cell in range(side * side):
            r, c = divmod(cell, side)
            givens[r][c] = givens[r][c] or order.pop()
    text = format_puzzle(Puzzle.build([[5] * side] * side, givens))
    (tmp_path / "p.txt").write_text(text)
    done = _solve_in_child(tmp_path / "p.txt", tmp_path / "o.txt")
    assert done.returncode == 0, done.stderr[-2000:]
    assert ("(it is unique)" if full else "more than one solution") in done.stdout
    puzzle = parse_puzzle(text)
    values = parse_solution((tmp_path / "o.txt").read_text(), puzzle)
    assert violations(puzzle, values) == []


def test_a_big_room_given_in_full_or_but_for_one_cell_is_unique():
    side = 9                                    # 81 cells: past MAX_ROOM
    values = [side * side - v for v in range(side * side)]
    rooms = [[1] * side] * side

    def solved(givens: list[int]) -> solver.SolveResult:
        return solver.solve(Puzzle.build(rooms, [givens[r * side:(r + 1) * side]
                                                 for r in range(side)]))

    for blanks in ([], [40]):
        result = solved([0 if cell in blanks else v for cell, v in enumerate(values)])
        assert result.unique and result.solutions == (tuple(values),)
    two = solved([0 if cell in (3, 77) else v for cell, v in enumerate(values)])
    assert not two.unique and len(two.solutions) == 2 and two.complete
    assert {s[3] for s in two.solutions} == {values[3], values[77]}
    assert solved([81, 81] + [0] * 79).solutions == ()     # one value given twice
    assert solved([82] + [0] * 80).solutions == ()         # a value past the room


def test_a_board_past_the_side_limit_is_refused_in_one_line(tmp_path):
    text = format_puzzle(Puzzle.build([[1] * 200] * 100, [[0] * 200] * 100))
    (tmp_path / "p.txt").write_text(text)
    done = _solve_in_child(tmp_path / "p.txt", tmp_path / "o.txt", timeout=30)
    assert done.returncode == 2
    err = one_line_error(done.stderr, "ripple-effect")
    assert f"p.txt:1: row has more than {MAX_SIDE} entries" in err
    assert not (tmp_path / "o.txt").exists()


def _embedded(puzzle: Puzzle, rows: int, cols: int, at: tuple[int, int]) -> Puzzle:
    """`puzzle` placed at `at` on a rows x cols board whose other cells are one room."""
    rooms = [[0] * cols for _ in range(rows)]
    givens = [[EMPTY] * cols for _ in range(rows)]
    top, left = at
    for cell, (room, given) in enumerate(zip(puzzle.rooms, puzzle.givens, strict=True)):
        r, c = divmod(cell, puzzle.cols)
        rooms[top + r][left + c] = room + 1
        givens[top + r][left + c] = given
    return Puzzle.build(rooms, givens)


def test_one_huge_room_around_small_rooms_is_solved(tmp_path):
    small, answer = generate(10, 10, 3)
    board = _embedded(small, 60, 60, (25, 30))
    (tmp_path / "p.txt").write_text(format_puzzle(board))
    done = _solve_in_child(tmp_path / "p.txt", tmp_path / "o.txt")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "more than one solution" in done.stdout
    values = parse_solution((tmp_path / "o.txt").read_text(), board)
    assert violations(board, values) == []
    inside = tuple(values[(25 + r) * 60 + 30 + c] for r in range(10) for c in range(10))
    assert inside == answer        # the small rooms' one solution holds inside the big room


@pytest.mark.parametrize(("rows", "cols", "split"), [
    (60, 60, lambda r, c: c < 30),                       # two rooms of 1,800
    (MAX_SIDE, MAX_SIDE, lambda r, c: (r < 50) * 2 + (c < 50)),  # four of 2,500
    (20, 20, lambda r, c: (c < 10) if r < 19 else 2 + c),  # two of 190 beside 20 of one
])
def test_many_large_rooms_are_refused_with_the_limit(tmp_path, rows, cols, split):
    rooms = [[int(split(r, c)) for c in range(cols)] for r in range(rows)]
    (tmp_path / "p.txt").write_text(format_puzzle(Puzzle.build(rooms, [[0] * cols] * rows)))
    done = _solve_in_child(tmp_path / "p.txt", tmp_path / "o.txt", timeout=30)
    assert done.returncode == 2, done.stderr[-2000:]
    err = one_line_error(done.stderr, "ripple-effect")
    assert f"every other of at most {solver.MAX_ROOM} cells" in err
    assert not (tmp_path / "o.txt").exists()


def _count_by_brute_force(puzzle: Puzzle) -> int:
    """Solutions counted cell by cell against the rules themselves."""
    n, cols = puzzle.rows * puzzle.cols, puzzle.cols
    values = [0] * n

    def fits(cell: int, v: int) -> bool:
        r, c = divmod(cell, cols)
        if any(values[o] == v for o in puzzle.room_cells[puzzle.rooms[cell]] if o < cell):
            return False
        return not any(values[cell - d] == v for d in range(1, min(v, c) + 1)) and \
            not any(values[cell - d * cols] == v for d in range(1, min(v, r) + 1))

    def count(cell: int) -> int:
        if cell == n:
            return 1
        options = [puzzle.givens[cell]] if puzzle.givens[cell] else \
            range(1, puzzle.room_size[cell] + 1)
        total = 0
        for v in options:
            if fits(cell, v):
                values[cell] = v
                total += count(cell + 1)
        values[cell] = 0
        return total

    return count(0)


def test_free_values_of_the_largest_room_agree_with_brute_force(monkeypatch):
    """With the room limit lowered to 3, small boards exercise what a huge room does: the
    values only the largest room holds are searched as one, and every order of them is
    a solution of its own. Counts, solutions and refusals agree with the rules."""
    monkeypatch.setattr(solver, "MAX_ROOM", 3)
    seed = int(os.environ.get("AUTOPLAYER_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    free = refused = several = 0
    for draw in range(250):
        why = f"AUTOPLAYER_SEED={seed} draw {draw}"
        rows, cols = rng.randint(2, 4), rng.randint(2, 5)
        labels = random_rooms(rows, cols, 7, rng)
        empty = Puzzle.build([labels[r * cols:(r + 1) * cols] for r in range(rows)],
                             [[0] * cols] * rows)
        givens = [rng.randint(1, s) if rng.random() < 0.15 else 0 for s in empty.room_size]
        puzzle = empty.with_givens(givens)
        sizes = sorted(len(cells) for cells in puzzle.room_cells)
        if len(sizes) > 1 and sizes[-2] > 3:
            with pytest.raises(InputError, match="every other of at most 3 cells"):
                solver.solve(puzzle)
            refused += 1
            continue
        free += sizes[-1] > 3
        expected = _count_by_brute_force(puzzle)
        result = solver.solve(puzzle, limit=10**6)
        assert result.complete and len(result.solutions) == expected, why
        assert len(set(result.solutions)) == expected, why
        assert all(violations(puzzle, s) == [] for s in result.solutions), why
        first_two = solver.solve(puzzle)
        assert first_two.solutions == result.solutions[:2], why
        assert first_two.unique == (expected == 1), why
        several += expected > 1
    assert free >= 60 and refused >= 30 and several >= 40, (free, refused, several)


# -- arguments ----------------------------------------------------------------------


def _exit_code(argv: list[str]) -> int:
    try:
        return autoplayer_main(argv)
    except SystemExit as done:   # argparse's own exit for a usage error
        return int(done.code or 0)


@pytest.mark.parametrize(("args", "words"), [
    (["generate", "--size", "0x5"], "the width (columns) 0 is outside 1..60"),
    (["generate", "--size", "5x61"], "the height (rows) 61 is outside 1..60"),
    (["generate", "--size", f"{DIGITS_5000}x5"], "has 5000 digits; it must be 1..60"),
    (["generate", "--size", "5x5", "--max-room", "10"], "the value 10 is outside 1..9"),
    (["generate", "--size", "5x5", "--max-room", DIGITS_5000], "5000 digits; it must be 1..9"),
    (["solve", "--all", "--limit", "0", "p", "o"], "the value 0 is outside 1..1000"),
    (["solve", "--all", "--limit", "1001", "p", "o"], "the value 1001 is outside 1..1000"),
    (["solve", "--all", "--limit", DIGITS_5000, "p", "o"], "5000 digits; it must be 1..1000"),
])
def test_absurd_arguments_are_refused_with_the_limit(capsys, args, words):
    assert _exit_code(["ripple", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and DIGITS_5000 not in err


@pytest.mark.parametrize("side", [3, 9])    # 9 cells, and 81: more than MAX_ROOM
def test_all_lists_up_to_the_limit_of_a_one_room_board(tmp_path, capsys, side):
    givens = [[0] * side for _ in range(side)]
    givens[-1][-1] = side * side
    (tmp_path / "p.txt").write_text(format_puzzle(Puzzle.build([[1] * side] * side, givens)))
    assert _exit_code(["ripple", "solve", "--all", "--limit", "7", str(tmp_path / "p.txt"),
                       str(tmp_path / "o.txt")]) == 0
    out = capsys.readouterr().out
    assert out.count("Solution ") == 7 and "more than 7 solutions" in out
    first = grid([list(range(r * side + 1, (r + 1) * side + 1)) for r in range(side)])
    assert (tmp_path / "o.txt").read_text() == first
