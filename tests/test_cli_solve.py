"""`autoplayer solve`: verdicts, exit codes, --out, and bad input as one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from autoplayer.cli import main
from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.model import satisfies

CONTRADICTION_NON = """width 3
height 2
rows
1,1
0
columns
1
1
0
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def puzzles(shared_dir: Path) -> Path:
    return shared_dir / "nonograms" / "griddler-solver"


def test_line_solvable_prints_verdict_and_grid(capsys, puzzles: Path) -> None:
    code, out, _ = run(capsys, str(puzzles / "webpbn-00001.non"), "--ascii")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "line-solvable"
    goal = load_puzzle(puzzles / "webpbn-00001.non").solution
    grid_rows = [line for line in lines if line.rstrip().endswith("|")]
    assert len(grid_rows) == 10
    for row, text in zip(goal.tolist(), grid_rows, strict=True):
        cells = text.split("|", 1)[1].replace("|", "").replace(" ", "").replace("##", "#")
        assert cells == "".join(".#"[v] for v in row)


def test_unique_needs_search(capsys, puzzles: Path) -> None:
    code, out, err = run(capsys, str(puzzles / "webpbn-06574.non"), "--stats")
    assert code == 0
    assert out.splitlines()[0] == "unique"
    assert "probes" in err and "search nodes" in err


def test_multiple_prints_two_different_solutions(capsys) -> None:
    code, out, _ = run(capsys, "3x3:1/1/1/1/1/1", "--ascii")
    assert code == 1
    assert out.startswith("multiple")
    first, second = out.split("solution 1:")[1].split("solution 2:")
    assert first.strip() != second.strip()


def test_contradiction_names_the_line(capsys, tmp_path: Path) -> None:
    path = tmp_path / "bad.non"
    path.write_text(CONTRADICTION_NON)
    code, out, _ = run(capsys, str(path))
    assert code == 4
    assert out.startswith("contradiction: column ")
    assert "has no placement" in out


def test_timeout_shows_what_logic_decided(capsys, puzzles: Path) -> None:
    code, out, _ = run(capsys, str(puzzles / "faase.non"), "--timeout", "0.5")
    assert code == 5
    assert out.startswith("timeout: after 0.5 s decided ")


def test_logic_only_stalls(capsys, puzzles: Path) -> None:
    code, out, _ = run(capsys, str(puzzles / "webpbn-06574.non"), "--logic-only")
    assert code == 6
    assert out.startswith("stalled: line logic alone decided ")


@pytest.mark.parametrize("suffix", [".non", ".nonogram"])
def test_out_writes_the_solution(capsys, puzzles: Path, tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"solved{suffix}"
    code, _, err = run(capsys, str(puzzles / "webpbn-00023.non"), "--out", str(target))
    assert code == 0
    assert f"wrote {target}" in err
    written = load_puzzle(target)
    original = load_puzzle(puzzles / "webpbn-00023.non")
    assert written.solution is not None and satisfies(written, written.solution)
    assert (written.solution == original.solution).all()
    assert list(tmp_path.iterdir()) == [target]


def test_out_is_not_written_without_a_solution(capsys, tmp_path: Path) -> None:
    path = tmp_path / "bad.non"
    path.write_text(CONTRADICTION_NON)
    target = tmp_path / "out.non"
    code, _, err = run(capsys, str(path), "--out", str(target))
    assert code == 4 and not target.exists()
    assert "not written" in err


def test_out_refuses_unknown_extension_and_the_input_itself(capsys, tmp_path: Path) -> None:
    path = tmp_path / "p.non"
    path.write_text(CONTRADICTION_NON)
    code, _, err = run(capsys, str(path), "--out", str(tmp_path / "x.unknown"))
    assert code == 2 and "extension" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, str(path), "--out", str(tmp_path / "clues-only.nin"))
    assert code == 2 and "cannot hold a solution" in err
    assert not (tmp_path / "clues-only.nin").exists()
    code, _, err = run(capsys, str(path), "--out", str(path))
    assert code == 2 and "input file" in err
    assert path.read_text() == CONTRADICTION_NON


@pytest.mark.parametrize("argv", [["--max-solutions", "0"], ["--timeout", "-1"]])
def test_bad_options(capsys, tmp_path: Path, argv: list[str]) -> None:
    path = tmp_path / "p.non"
    path.write_text(CONTRADICTION_NON)
    code, out, err = run(capsys, str(path), *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_bad_file_is_one_line_exit_2_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "broken.non"
    path.write_text("width 3\nheight 2\nrows\n1\n")
    proc = subprocess.run(
        [sys.executable, "-m", "autoplayer", "solve", str(path)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert str(path) in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


ONES_ROW_NON = """width 10
height 5
rows
1,1,1,1
2,1
1,3
1,1,1
1,1
columns
1
1,1
3
1
1
0
1,1,1
1
1,1
1,1
"""
"""tests/test_nonogram_solver.ONES_ROW: a row of 1s that an encoding leaving known filled
cells outside every block gave one 1 too many (issue 12)."""


@pytest.mark.parametrize("max_solutions", ["1", "2", "5"])
def test_written_solution_passes_check(
    capsys, tmp_path: Path, max_solutions: str
) -> None:
    """The issue's check: solve --out, then `autoplayer check` on what was written."""
    path = tmp_path / "ones.non"
    path.write_text(ONES_ROW_NON)
    target = tmp_path / "solved.non"
    code, out, _ = run(capsys, str(path), "--max-solutions", max_solutions, "--out", str(target))
    assert code == (0 if max_solutions == "1" else 1)
    assert out.splitlines()[0] == ("solved" if max_solutions == "1" else
                                   "multiple: at least two solutions; two of them:")
    assert main(["check", str(target)]) == 0
    assert "the solution satisfies every clue" in capsys.readouterr().out


def test_a_grid_that_breaks_a_clue_is_never_printed(
    capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last line of defence, fed a solver that returns a wrong grid on purpose (the
    only test where it fires): one line on stderr, exit 70, nothing printed or written."""
    from autoplayer.games.nonogram import solver
    from autoplayer.games.nonogram.solver import SolveResult, Verdict
    from autoplayer.games.nonogram.solver.propagate import Board

    def wrong_solve(puzzle, **_options) -> SolveResult:
        board = Board.blank(puzzle.height, puzzle.width)
        for r in range(puzzle.height):
            for c in range(puzzle.width):
                board.set_cell(r, c, (r, c) in {(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)})
        return SolveResult(Verdict.SOLVED, board, puzzle.width, [board])

    monkeypatch.setattr(solver, "solve", wrong_solve)
    path = tmp_path / "ones.non"
    path.write_text(ONES_ROW_NON)
    target = tmp_path / "solved.non"
    code, out, err = run(capsys, str(path), "--max-solutions", "1", "--out", str(target))
    assert code == 70
    assert out == "" and not target.exists()
    assert err == ("autoplayer solve: internal error: solution 1 breaks row 1 (clue is "
                   "1 1 1 1 but the cells give 1 1 1 1 1); not printed\n")
