"""Issue 22: every number a puzzle file, a game ID or a numeric option holds is capped at a
stated limit; past it the command says so in one line and exits 2, never a traceback.

Python refuses to turn more than 4,300 digits into an int, so a 5,000-digit number used to
end in a ValueError from deep inside a parser; `nan`, `inf` and `1e400` passed float().
"""

from __future__ import annotations

import pytest

from autoplayer.cli import main

BIG = "1" + "0" * 5000
"""A number of 5,001 digits: past Python's own limit for int()."""

NATIVE = "3x2\n\nrows\n2\n1,1\n\ncolumns\n2\n1\n1\n"
NON = "width 3\nheight 2\n\nrows\n2\n1,1\n\ncolumns\n2\n1\n1\n"
NIN = "3 2\n2\n1 1\n2\n1\n1\n"
TATHAM = "3x2:2/1/1/2/1.1\n"
WEBPBN = """\
<?xml version="1.0"?>
<puzzleset><puzzle type="grid" defaultcolor="black">
<clues type="columns">
<line><count>2</count></line><line><count>1</count></line><line><count>1</count></line>
</clues>
<clues type="rows">
<line><count>2</count></line>
<line><count>1</count><count>1</count></line>
</clues>
</puzzle></puzzleset>
"""
SAVE_HEAD = ("SAVEFILE:41:Simon Tatham's Portable Puzzle Collection\nVERSION :1:1\n"
             "GAME    :7:Pattern\nPARAMS  :3:3x2\nDESC    :11:2/1/1/2/1.1\n")
SAVE = SAVE_HEAD + "NSTATES :1:2\nSTATEPOS:1:2\nMOVE    :8:F0,0,2,1\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of one in-process run."""
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse's own usage errors
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line a refused run printed (asserting exit 2, nothing on stdout, one line)."""
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, err[-300:])
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err[-300:]
    assert "Traceback" not in err and len(err) < 300, err[-300:]
    assert "\x1b" not in err
    return err


# (file extension, valid text, what is replaced, by what, line named, part of the message)
CASES = [
    (".nonogram", NATIVE, "3x2", f"{BIG}x2", 1, "width has 5001 digits; it must be 1..200"),
    (".nonogram", NATIVE, "3x2", f"3x{BIG}", 1, "height has 5001 digits; it must be 1..200"),
    (".nonogram", NATIVE, "1,1\n\ncol", f"1,{BIG}\n\ncol", 5,
     "row 2: clue number of 5001 digits is more than the row's 3 cells"),
    (".nonogram", NATIVE, "1,1\n\ncol", "1,0099\n\ncol", 5,
     "row 2: clue number 0099 is more than the row's 3 cells"),
    (".non", NON, "width 3", f"width {BIG}", 1, "width has 5001 digits; it must be 1..200"),
    (".non", NON, "height 2", f"height {BIG}", 2, "height has 5001 digits; it must be 1..200"),
    (".non", NON, "rows\n2\n", f"rows\n{BIG}\n", 5,
     "row 1: clue number of 5001 digits is more than the row's 3 cells"),
    (".non", NON, "columns\n2\n", f"columns\n1,{BIG}\n", 9,
     "column 1: clue number of 5001 digits is more than the column's 2 cells"),
    (".nin", NIN, "3 2", f"{BIG} 2", 1, "width has 5001 digits; it must be 1..200"),
    (".nin", NIN, "3 2", f"3 {BIG}", 1, "height has 5001 digits; it must be 1..200"),
    (".nin", NIN, "1 1\n", f"1 {BIG}\n", 3, "row 2: clue number of 5001 digits"),
    (".pattern", TATHAM, "3x2", f"{BIG}x2", 1, "width has 5001 digits; it must be 1..200"),
    (".pattern", TATHAM, "3x2", f"3x{BIG}", 1, "height has 5001 digits; it must be 1..200"),
    (".pattern", TATHAM, "1.1", f"1.{BIG}", 1, "row 2: clue number of 5001 digits"),
    (".pattern", TATHAM, "2/1/1/", f"2/1/{BIG}/", 1, "column 3: clue number of 5001 digits"),
    (".xml", WEBPBN, "<count>2</count></line><line>", f"<count>{BIG}</count></line><line>", 4,
     "column 1: clue number of 5001 digits is more than the column's 2 cells"),
    (".xml", WEBPBN, "<count>1</count><count>1</count>",
     f"<count>1</count><count>{BIG}</count>", 8, "row 2: clue number of 5001 digits"),
    (".pattern", SAVE, "STATEPOS:1:2", f"STATEPOS:{len(BIG)}:{BIG}", 7,
     "STATEPOS has 5001 digits; it must be 1..2"),
    (".pattern", SAVE, "STATEPOS:1:2", "STATEPOS:1:9", 7, "STATEPOS 9 is outside 1..2"),
    (".pattern", SAVE, "MOVE    :8:F0,0,2,1", f"MOVE    :{len(BIG) + 7}:F0,0,2,{BIG}", 8,
     "save file: a move's coordinate has 5001 digits; it must be 0..200"),
    (".pattern", SAVE, "MOVE    :8:", f"MOVE    :{BIG}:", 8,
     f"save file: record length has 5001 digits; it must be 0..{16 * 1024 * 1024}"),
]


@pytest.mark.parametrize(("ext", "text", "old", "new", "line", "message"), CASES,
                         ids=[f"{c[0][1:]}-{c[5][:34]}" for c in CASES])
@pytest.mark.parametrize("command", ["check", "solve"])
def test_numbers_past_their_limit_in_every_format_are_one_line(
        capsys, tmp_path, command, ext, text, old, new, line, message):
    assert old in text
    path = tmp_path / f"puzzle{ext}"
    path.write_text(text.replace(old, new, 1))
    err = refused(capsys, command, str(path))
    assert err.startswith(f"autoplayer: error: {path}:{line}: "), err[:200]
    assert message in err, err


def test_the_unbroken_puzzles_still_read(capsys, tmp_path):
    """The cases above break puzzles that are otherwise fine (so they test the number)."""
    for ext, text in {".nonogram": NATIVE, ".non": NON, ".nin": NIN, ".pattern": TATHAM,
                      ".xml": WEBPBN}.items():
        path = tmp_path / f"puzzle{ext}"
        path.write_text(text)
        code, out, err = run(capsys, "solve", str(path))
        assert (code, err) == (0, ""), (ext, err)
        assert out.startswith("line-solvable")
    path = tmp_path / "saved.pattern"
    path.write_text(SAVE)
    code, out, err = run(capsys, "show", str(path))
    assert code == 0, err


@pytest.mark.parametrize(("game_id", "message"), [
    ("3x" + "9" * 200 + ":2/1/1", "height has 200 digits; it must be 1..200"),
    ("999x2:2/1/1/2/1.1", "width 999 is outside 1..200"),
    ("3x2:2/1/1/2/1." + "9" * 200, "row 2: clue number of 200 digits"),
    ("3x2:2/1/1/2/1.1,a" + "z" * 200, "given cells: more data than the grid has cells"),
])
def test_pattern_game_ids_on_the_command_line(capsys, game_id, message):
    """(Kept under 255 bytes: a longer argument is first tried as a file name.)"""
    err = refused(capsys, "solve", game_id)
    assert message in err and err.startswith("autoplayer: error: game ID "), err


@pytest.mark.parametrize(("argv", "message"), [
    (["solve", "4x4:1,2," + BIG], "a 4x4 board has 16 cells, got 3"),
    (["solve", "4x4:" + ",".join(["1"] * 15 + [BIG])], "tile 16 of the board, 1000000"),
    (["solve", "4x4:" + ",".join([*map(str, range(1, 15)), "0099", "0"])],
     "tile 99 is outside 0..15 (0 is the gap)"),
    (["solve", "4x4:" + ",".join([*map(str, range(1, 15)), "00999", "0"])],
     "tile 15 of the board, 00999, is outside 0..15"),
    (["solve", f"{BIG}x4:1,2"], "board width has 5001 digits; it must be 2..6"),
    (["solve", f"4x{BIG}:1,2"], "board height has 5001 digits; it must be 2..6"),
    (["solve", "99999999999x4:1"], "board width 99999999999 is outside 2..6"),
    (["solve", "9" * 19 + "x4:1"], "board width has 19 digits; it must be 2..6"),
    (["solve", "4x4:" + "," * 5000 + "1"], "a 4x4 board has 16 cells, got 1"),
    (["solve", "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0" + ",7" * 3000],
     "a 4x4 board has 16 cells, got 3016"),
    (["solve", "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,\x1b[31m,0"],
     "tile 15 of the board is '\\x1b[31m', not a number"),
    (["solve", "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,\u00b2,0"],
     "tile 15 of the board is '\u00b2', not a number"),
    (["solve", "\x1b]0;title\x07"], "board '\\x1b]0;title\\x07' is not of the form"),
    (["show", "--id", BIG], "--id has 5001 digits; it must be 0..10461394943999"),
    (["show", "--id", "-1"], "board ID -1 is outside 0..10461394943999 for 4x4"),
    (["show", "--id", "1e400"], "--id must be a whole number, not '1e400'"),
    (["show", "--id", "5", "--size", f"{BIG}x4"], "board width has 5001 digits"),
    (["show", "--id", "5", "--size", "4x4\x1b"], "size '4x4\\x1b' is not of the form WxH"),
    (["play", "--seed", BIG], "--seed has 5001 digits; at most 18 are taken"),
    (["play", "--seed", "nan"], "--seed must be a whole number, not 'nan'"),
    (["play", "--id", BIG, "--size", "3x3"], "--id has 5001 digits; it must be 0..181439"),
])
def test_fifteen_ids_and_options_past_their_limits(capsys, argv, message):
    err = refused(capsys, "fifteen", *argv)
    assert message in err, err


def test_fifteen_ids_within_the_limits_still_work(capsys):
    code, out, _ = run(capsys, "fifteen", "show", "--id", "0003", "--size", "2x2")
    assert code == 0 and out.startswith("2x2:0,1,3,2  ID 3\n")
    code, out, _ = run(capsys, "fifteen", "solve", "3x3:1,2,3,4,5,6,0,7,8", "--fast",
                       "--letters")
    assert (code, out) == (0, "LL\n")


@pytest.mark.parametrize("value", ["1e400", "nan", "inf", "-inf", "-1", "0", BIG, "86401",
                                   "1e-400", "", "five", "\x1b[2J"])
def test_solve_timeout_must_be_a_sane_number_of_seconds(capsys, tmp_path, value):
    path = tmp_path / "p.non"
    path.write_text(NON)
    err = refused(capsys, "solve", str(path), f"--timeout={value}")
    assert "--timeout must be a number of seconds above 0 and at most 86400" in err, err


@pytest.mark.parametrize(("value", "message"), [
    ("0", "--max-solutions must be 1..1000, not 0"),
    ("-1", "--max-solutions must be 1..1000, not -1"),
    ("1001", "--max-solutions must be 1..1000, not 1001"),
    (BIG, "--max-solutions has 5001 digits; it must be 1..1000"),
    ("1e400", "--max-solutions must be a whole number, not '1e400'"),
    ("nan", "--max-solutions must be a whole number, not 'nan'"),
])
def test_solve_max_solutions_is_capped(capsys, tmp_path, value, message):
    path = tmp_path / "p.non"
    path.write_text(NON)
    assert message in refused(capsys, "solve", str(path), "--max-solutions", value)


def test_solve_options_within_the_limits_still_work(capsys, tmp_path):
    path = tmp_path / "p.non"
    path.write_text(NON)
    for argv in (["--timeout", "86400"], ["--timeout", "0.25"], ["--max-solutions", "1000"],
                 ["--max-solutions", "1"]):
        code, out, err = run(capsys, "solve", str(path), *argv)
        assert (code, err) == (0, ""), (argv, err)
        assert out.splitlines()[0] in ("line-solvable", "solved"), argv


@pytest.mark.parametrize(("argv", "message"), [
    (["count", BIG], "N has 5001 digits; it must be 0..8"),
    (["count", "3", BIG], "M has 5001 digits; it must be 0..8"),
    (["count", "1e400"], "N must be a whole number, not '1e400'"),
    (["count", "nan"], "N must be a whole number, not 'nan'"),
    (["count", "3", "--jobs", BIG], "--jobs has 5001 digits; it must be 1..256"),
    (["count", "3", "--jobs", "1e400"], "--jobs must be a whole number, not '1e400'"),
    (["count", "3", "--jobs", "inf"], "--jobs must be a whole number, not 'inf'"),
    (["count", "3", "--jobs", "-1"], "--jobs must be at least 1 and at most 256, not -1"),
    (["count", "3", "--jobs", "257"], "--jobs must be at least 1 and at most 256, not 257"),
    (["count", "3", "--jobs", "99999999999999999"], "at most 256, not 99999999999999999"),
])
def test_count_numbers_are_capped(capsys, argv, message):
    assert message in refused(capsys, *argv)

