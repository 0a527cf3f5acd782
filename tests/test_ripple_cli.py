"""`ripple-effect`, `ripple-effect-check` and `autoplayer ripple`, run as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from autoplayer.cli import main as autoplayer_main
from autoplayer.games.ripple.cli import main_check, main_solve

BIN = Path(sys.executable).parent
PUZZLE = "1 1 2\n1 3 3\n\n- - -\n- - -\n"          # rooms of 3, 1, 2: one solution
SOLUTION = "1 2 1\n3 1 2\n"
AMBIGUOUS = "1 1\n2 2\n\n- -\n- -\n"                # two dominoes: two solutions
CLASH = "1 1\n\n1 1\n"


def run(script: str, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = BIN / script
    if not exe.exists():
        pytest.fail(f"{exe} is not installed; run `make venv`")
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=60)


@pytest.fixture()
def files(tmp_path: Path) -> Path:
    (tmp_path / "p.txt").write_text(PUZZLE)
    (tmp_path / "amb.txt").write_text(AMBIGUOUS)
    (tmp_path / "clash.txt").write_text(CLASH)
    (tmp_path / "old.txt").write_text("precious\n")
    return tmp_path


def test_usage_on_wrong_argument_count(files):
    for args in ((), ("p.txt",), ("p.txt", "a", "b")):
        done = run("ripple-effect", *args, cwd=files)
        assert done.returncode == 2
        assert done.stderr.startswith("USAGE: ripple-effect <input file> <output file>")
        assert "Traceback" not in done.stderr
    done = run("ripple-effect-check", cwd=files)
    assert done.returncode == 2 and done.stderr.startswith("USAGE: ripple-effect-check")


def test_solves_writes_and_draws(files):
    done = run("ripple-effect", "p.txt", "out.txt", cwd=files)
    assert done.returncode == 0, done.stderr
    assert (files / "out.txt").read_text() == SOLUTION
    assert done.stdout == ("┌───┬─┐\n"
                           "│1 2│1│\n"
                           "│ ┌─┴─┤\n"
                           "│3│1 2│\n"
                           "└─┴───┘\n"
                           "Solution written to out.txt (it is unique)\n")


def test_no_solution_writes_nothing(files):
    done = run("ripple-effect", "clash.txt", "old.txt", cwd=files)
    assert done.returncode == 1
    assert done.stdout == "This puzzle has no solution\n"
    assert (files / "old.txt").read_text() == "precious\n"


@pytest.mark.parametrize(("content", "message"), [
    ("1 1 2\n1 3\n\n- - -\n- - -\n", "p.txt:2: row has 2 entries"),
    ("1 1\n\n- 3\n", "p.txt:3: value 3 in column 2 is larger than its room (2 cells)"),
    ("1 2 1\n\n- - -\n", "p.txt:1: room 1 is in separate pieces"),
    ("hello world\n\n- -\n", "p.txt:1: 'hello' is not a room number"),
    ("\x00\xff", "p.txt"),
])
def test_malformed_input_is_one_line_and_output_untouched(files, content, message):
    (files / "p.txt").write_bytes(content.encode("latin-1"))
    done = run("ripple-effect", "p.txt", "old.txt", cwd=files)
    assert done.returncode == 2
    assert done.stderr.startswith(f"ripple-effect: error: {message}")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert (files / "old.txt").read_text() == "precious\n"


def test_unreadable_input_and_unwritable_output(files, capsys):
    assert main_solve([str(files / "missing.txt"), str(files / "o.txt")]) == 2
    assert "missing.txt: no such file\n" in capsys.readouterr().err
    assert main_solve([str(files / "p.txt"), str(files / "no/such/dir/o.txt")]) == 74
    assert "cannot write" in capsys.readouterr().err
    assert main_solve([str(files / "p.txt"), str(files)]) == 74
    assert "is a directory" in capsys.readouterr().err
    assert main_solve([str(files / "p.txt"), str(files / "p.txt")]) == 2
    assert "would overwrite the puzzle" in capsys.readouterr().err
    assert (files / "p.txt").read_text() == PUZZLE
    if os.geteuid() != 0:  # root writes anywhere
        locked = files / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        assert main_solve([str(files / "p.txt"), str(locked / "o.txt")]) == 74
        assert "Permission denied" in capsys.readouterr().err


def test_not_unique_writes_the_first_and_all_lists_them(files, capsys):
    assert main_solve([str(files / "amb.txt"), str(files / "o.txt")]) == 0
    out = capsys.readouterr().out
    assert "more than one solution" in out and "--all" in out
    first = (files / "o.txt").read_text()
    assert first in ("1 2\n2 1\n", "2 1\n1 2\n")
    assert main_solve(["--all", str(files / "amb.txt"), str(files / "o.txt")]) == 0
    out = capsys.readouterr().out
    assert "Solution 1:" in out and "Solution 2:" in out and "has 2 solutions" in out
    assert main_solve(["--all", "--limit=1", str(files / "amb.txt"), str(files / "o.txt")]) == 0
    out = capsys.readouterr().out
    assert "Solution 2:" not in out and "more than 1 solutions" in out


def test_checker_draws_and_checks(files):
    done = run("ripple-effect-check", "p.txt", cwd=files)
    assert done.returncode == 0
    assert done.stdout == "┌───┬─┐\n│   │ │\n│ ┌─┴─┤\n│ │   │\n└─┴───┘\n"
    (files / "s.txt").write_text(SOLUTION)
    done = run("ripple-effect-check", "p.txt", "s.txt", cwd=files)
    assert done.returncode == 0 and done.stdout.endswith("│3│1 2│\n└─┴───┘\nSolution correct\n")
    (files / "bad.txt").write_text("1 2 1\n3 1 1\n")
    done = run("ripple-effect-check", "p.txt", "bad.txt", cwd=files)
    assert done.returncode == 1
    assert done.stdout.endswith(
        "Room at positions (2,2), (2,3) violates Room Rule:\n"
        "Missing values: 2\n"
        "Duplicate values: 1\n"
        "Cells at positions (1,3) and (2,3) violate cross rule:\n"
        "Value in both cells: 1\n"
        "Distance between cells: 1\n"
        "Cells at positions (2,2) and (2,3) violate cross rule:\n"
        "Value in both cells: 1\n"
        "Distance between cells: 1\n")


def test_check_reports_a_bad_solution_file(files, capsys):
    (files / "short.txt").write_text("1 2 1\n")
    assert main_check([str(files / "p.txt"), str(files / "short.txt")]) == 2
    assert "short.txt:1: the solution is 1x3, the puzzle 2x3" in capsys.readouterr().err


def test_shared_puzzles_through_the_command(shared_dir, tmp_path, capsys):
    puzzle = shared_dir / "ripple/puzzlekit-janko/hakyuu_448_15x15.txt"
    assert main_solve([str(puzzle), str(tmp_path / "o.txt")]) == 0
    assert (tmp_path / "o.txt").read_text() == puzzle.with_suffix(".sol").read_text()
    assert main_check([str(puzzle), str(tmp_path / "o.txt")]) == 0
    assert capsys.readouterr().out.endswith("Solution correct\n")
    hunter = shared_dir / "ripple/hunterknepshield"
    assert main_check([str(hunter / "Puzzle4.txt"), str(hunter / "Solution4.txt")]) == 0
    assert main_solve([str(hunter / "MultipleSolutions1.txt"), str(tmp_path / "m.txt")]) == 0
    assert "more than one solution" in capsys.readouterr().out


def test_autoplayer_ripple_subcommands(files, capsys):
    assert autoplayer_main(["ripple", "solve", str(files / "p.txt"), str(files / "o.txt")]) == 0
    assert (files / "o.txt").read_text() == SOLUTION
    assert autoplayer_main(["ripple", "check", str(files / "p.txt"), str(files / "o.txt")]) == 0
    assert capsys.readouterr().out.endswith("Solution correct\n")
    assert autoplayer_main(["ripple", "solve", str(files / "clash.txt"), str(files / "o.txt")]) == 1
    assert autoplayer_main(["ripple", "check", str(files / "missing.txt")]) == 2
    assert "missing.txt: no such file" in capsys.readouterr().err
    out = files / "gen.txt"
    sol = files / "gen.sol"
    assert autoplayer_main(["ripple", "generate", "--size", "6x7", "--seed", "4",
                            "-o", str(out), "--solution", str(sol)]) == 0
    capsys.readouterr()
    assert autoplayer_main(["ripple", "solve", str(out), str(files / "o.txt")]) == 0
    assert "(it is unique)" in capsys.readouterr().out
    assert (files / "o.txt").read_text() == sol.read_text()


def test_generate_prints_the_spec_layout_deterministically(files):
    one = run("autoplayer", "ripple", "generate", "--size", "6x5", "--seed", "9", cwd=files)
    two = run("autoplayer", "ripple", "generate", "--size", "6x5", "--seed", "9", cwd=files)
    assert one.returncode == 0 and one.stdout == two.stdout
    rooms, values = one.stdout.split("\n\n")
    # --size is WxH, width first: 6 columns, 5 rows
    assert len(rooms.splitlines()) == 5 and len(values.splitlines()) == 5
    assert all(len(line.split()) == 6 for line in rooms.splitlines())
    bad = run("autoplayer", "ripple", "generate", "--size", "0x5", cwd=files)
    assert bad.returncode == 2 and "RxC" not in bad.stdout
    assert "the width (columns) 0 is outside 1..60" in bad.stderr


def test_overwriting_keeps_the_file_mode_and_leaves_no_temp_files(files, capsys):
    target = files / "old.txt"
    target.chmod(0o640)
    assert main_solve([str(files / "p.txt"), str(target)]) == 0
    assert target.read_text() == SOLUTION
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in files.iterdir() if p.name.startswith(".")) == []
