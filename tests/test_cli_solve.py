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
