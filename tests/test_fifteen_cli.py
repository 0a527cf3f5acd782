"""`autoplayer fifteen solve/show`: output that replays to the goal, one-line errors, fast start."""

from __future__ import annotations

import subprocess
import sys

import pytest
from fresh import modules_after

from autoplayer.cli import main
from autoplayer.games.fifteen.ids import board_from_id
from autoplayer.games.fifteen.model import parse_board


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["fifteen", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_optimal_moves_that_solve_the_board(capsys):
    spec = "3x3:8,6,7,2,5,4,3,0,1"  # one of the two hardest 3x3 boards: 31 moves
    code, out, _ = run(capsys, "solve", spec)
    assert code == 0
    assert out.splitlines()[0] == "31 moves, optimal (each tile and the way it slides):"
    code, out, _ = run(capsys, "solve", spec, "--letters")
    moves = out.strip()
    assert len(moves) == 31
    assert parse_board(spec).play(moves).is_solved()


def test_solve_fast_lists_human_steps(capsys):
    board = board_from_id(7 * 10**24 + 123_456_789, 5, 5)
    code, out, _ = run(capsys, "solve", board.spec(), "--pretty")  # no 5x5 tables: human-style
    assert code == 0
    arrows = {"←": "L", "→": "R", "↑": "U", "↓": "D"}
    _, plain, _ = run(capsys, "solve", board.spec())  # into a pipe: letters, not arrows
    assert plain == out.translate(str.maketrans(arrows))
    assert plain.isascii()
    lines = out.splitlines()
    total = int(lines[0].split()[0])
    assert "human-style" in lines[0]
    assert lines[1].startswith("row 1: tile 1 ")
    assert any(line.startswith("the last 3x2 block") for line in lines)
    # every listed move names the tile that really slides, and the whole list solves it
    words = [w for line in lines if line.startswith("  ") for w in line.split()]
    assert len(words) == total
    b = board
    for w in words:
        move = arrows[w[-1]]
        assert b.cells[b.tile_to_move(move)] == int(w[:-1])
        b = b.move(move)
    assert b.is_solved()
    code, out, _ = run(capsys, "solve", board.spec(), "--fast", "--letters")
    assert board.play(out.strip()).is_solved()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0"], "cannot be solved"),
        (["solve", "4x4:1,2,3"], "has 16 cells, got 3"),
        (["solve", "four by four"], "not of the form WxH"),
        (["solve", "8x2:1,2"], "width 8 is outside 2..6"),
        (["solve", "3x2:1,1,2,3,4,0"], "tile 1 appears twice"),
        (["solve", "5x5:" + ",".join(map(str, [*range(1, 25), 0])), "--optimal"],
         "no optimal solver for 5x5"),
        (["show", "--id", "99999999999999"], "outside 0..10461394943999"),
        (["play", "--size", "9x9"], "width 9 is outside"),
    ],
)
def test_bad_boards_are_one_line_errors_with_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err
    assert "Traceback" not in err


def test_show_draws_the_board_and_its_id(capsys):
    code, out, _ = run(capsys, "show", "--id", "321878651", "--pretty")
    assert code == 0
    lines = out.splitlines()
    board = board_from_id(321878651)
    assert lines[0] == f"{board.spec()}  ID 321878651"
    assert lines[1] == "┌────┬────┬────┬────┐"
    assert lines[2] == "│" + "│".join(f"{t:>3} " if t else "    " for t in board.cells[:4]) + "│"
    code, out, _ = run(capsys, "show", "3x3:1,2,3,4,5,6,7,8,0")
    assert out.splitlines()[0].endswith("ID 0")
    assert out.splitlines()[-1] == "Note: this board is solved"


def test_play_needs_a_terminal(capsys):
    code, _, err = run(capsys, "play", "--seed", "1")  # pytest's stdin is not a tty
    assert code == 2 and "needs a terminal" in err


def test_commands_start_without_numba():
    argv = ["fifteen", "solve", "--fast", "3x3:1,2,3,4,5,6,7,0,8"]
    assert modules_after(argv, "numba", "numpy") == ([], 0)


def test_first_optimal_solve_builds_the_tables_with_a_progress_bar(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    argv = [sys.executable, "-m", "autoplayer", "fifteen", "solve", "3x3:0,1,2,3,4,5,6,7,8"]
    first = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    assert "building 3x3 pattern databases (once)" in first.stderr
    assert "100.0%" in first.stderr
    assert first.stdout.startswith("22 moves, optimal")
    assert list((tmp_path / "autoplayer" / "fifteen").glob("pdb-3x3-*.npy"))
    again = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    assert again.stderr == ""
    assert again.stdout == first.stdout


def test_plain_ascii_output_where_the_encoding_has_no_box_drawing():
    env = {"PYTHONIOENCODING": "ascii", "PATH": "/usr/bin:/bin"}
    base = [sys.executable, "-m", "autoplayer", "fifteen"]
    solved = subprocess.run([*base, "solve", "--fast", "3x3:1,2,3,4,5,6,0,7,8"],
                            capture_output=True, text=True, env=env, check=True).stdout
    assert solved.splitlines()[-1] == "  7L 8L"
    shown = subprocess.run([*base, "show", "--id", "5", "--size", "2x2"],
                           capture_output=True, text=True, env=env, check=True).stdout
    assert shown.splitlines()[1:] == [
        "+----+----+", "|  3 |  1 |", "+----+----+", "|    |  2 |", "+----+----+",
    ]
    pretty = subprocess.run([*base, "show", "--id", "5", "--size", "2x2", "--pretty"],
                            capture_output=True, text=True, env=env, check=True).stdout
    assert pretty == shown  # --pretty cannot put box drawing into an ASCII stream
