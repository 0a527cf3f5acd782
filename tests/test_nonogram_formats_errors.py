"""Malformed input in every format: one line `FILE:LINE: message`, exit 2, no traceback.

Each case starts from a valid 3x2 puzzle in that format (the corner picture
##. / #.#) and breaks one thing, so the expected line number is known exactly.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from autoplayer.cli import main

NATIVE = "3x2\n\nrows\n2\n1,1\n\ncolumns\n2\n1\n1\n\nsolution\n# # .\n# . #\n"
NON = 'width 3\nheight 2\n\nrows\n2\n1,1\n\ncolumns\n2\n1\n1\n\ngoal "110101"\n'
NIN = "3 2\n2\n1 1\n2\n1\n1\n"
TATHAM = "3x2:2/1/1/2/1.1\n"
WEBPBN = """\
<?xml version="1.0"?>
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<clues type="columns">
<line><count>2</count></line>
<line><count>1</count></line>
<line><count>1</count></line>
</clues>
<clues type="rows">
<line><count>2</count></line>
<line><count>1</count><count>1</count></line>
</clues>
<solution type="goal"><image>|XX.||X.X|</image></solution>
</puzzle>
</puzzleset>
"""
VALID = {".nonogram": NATIVE, ".non": NON, ".nin": NIN, ".pattern": TATHAM, ".xml": WEBPBN}


def _case(ext, old, new, line, message):
    text = VALID[ext]
    assert old in text, (ext, old)
    return pytest.param(ext, text.replace(old, new, 1), line, message,
                        id=f"{ext[1:]}-{message[:30]}")


# Per format: (text of the valid puzzle, what replaces it, the line the error names, part of
# the error message).
BROKEN = {
    ".nonogram": [  # native
        ("1,1\n\ncolumns", "1,1\n3\n\ncolumns", 6, "rows: more than 2 lines"),
        ("1\n1\n\nsol", "1\n\nsol", 9, "columns: 2 lines but the puzzle has 3"),
        ("rows\n2\n", "rows\n4\n", 4, "row 1: clue 4 needs 4 cells but the row has 3"),
        ("1,1\n\ncol", "1,x\n\ncol", 5, "row 2 clue: 'x' is not a number"),
        ("1,1\n\ncol", "1,-1\n\ncol", 5, "-1 is not a positive number"),
        ("1,1\n\ncol", "1,0\n\ncol", 5, "has a 0 beside other numbers"),
        ("3x2", "3y2", 1, "first line must be the size"),
        ("3x2", "0x2", 1, "width 0 is outside 1..200"),
        ("3x2", "3x201", 1, "height 201 is outside 1..200"),
        ("# # .\n# . #", "# # .\n# .", 14, "solution row 2: 2 cells but the puzzle is 3"),
        ("# # .\n# . #", "# # .\n# o #", 14, "unknown cell character 'o'"),
        ("\ncolumns\n2\n1\n1\n\nsolution\n# # .\n# . #\n", "\n", 6, "no columns section"),
        ("rows\n2\n1,1", "rows\n2\n1", 7, "row clues fill 3 cells but column clues fill 4"),
        ("\nrows", "\nfoo", 3, "unknown section 'foo'"),
    ],
    ".non": [
        ("1,1\n\ncolumns", "1,1\n3\n\ncolumns", 7, "rows: more than 2 clue lines"),
        ("2\n1\n1\n\ngoal", "2\n1\ngoal", 10, "columns: 2 clue lines but the puzzle has 3"),
        # with a blank line after two column clues, the blank is the third (empty) column
        ("2\n1\n1\n\ngoal", "2\n1\n\ngoal", 8, "row clues fill 4 cells but column clues fill 3"),
        ("rows\n2\n", "rows\n4\n", 5, "row 1: clue 4 needs 4 cells"),
        ("1,1\n\ncol", "1,1b\n\ncol", 6, "row 2: colour puzzles are not supported"),
        ("1,1\n\ncol", "1,?\n\ncol", 6, "row 2 clue: '?' is not a number"),
        ("1,1\n\ncol", "1,-2\n\ncol", 6, "-2 is not a positive number"),
        ("width 3", "width three", 1, "width: 'three' is not a number"),
        ("height 2", "height 0", 2, "height 0 is outside"),
        ("width 3\nheight 2\n", "height 2\n", 3, "rows section before the width and height"),
        ('"110101"', '"11010"', 13, "goal has 5 cells but the puzzle has 3x2 = 6"),
        ('\ncolumns\n2\n1\n1\n\ngoal "110101"\n', "\n", 7, "no columns section"),
        ('goal "110101"\n', 'goal "110101"\n7\n', 14,
         "clue line '7' outside the rows and columns sections"),
    ],
    ".nin": [
        ("3 2\n", "3 2 1\n", 1, "first line must be 'WIDTH HEIGHT'"),
        ("1\n1\n", "1\n", 5, "4 clue lines but a 3x2 puzzle needs"),
        ("1\n1\n", "1\n1\n1\n", 7, "more than 2 rows + 3 columns"),
        ("2\n1 1\n", "4\n1 1\n", 2, "row 1: clue 4 needs 4 cells"),
        ("2\n1 1\n", "2\n1 z\n", 3, "row 2 clue: 'z' is not a number"),
        ("2\n1 1\n", "2\n1 0\n", 3, "has a 0 beside other numbers"),
        ("3 2", "3 -2", 1, "height: -2 is not a positive number"),
    ],
    ".pattern": [  # Tatham game ID
        ("/1.1\n", "\n", 1, "too few clue entries: 4 for 3 columns + 2 rows"),
        ("/1.1\n", "/1.1/1\n", 1, "too many clue entries"),
        ("3x2:2/", "3x2:3/", 1, "column 1: clue 3 needs 3 cells"),
        ("/1.1\n", "/1.x\n", 1, "row 2 clue: 'x' is not a number"),
        ("/1.1\n", "/1.0\n", 1, "clue numbers must be positive"),
        ("3x2:", "3by2:", 1, "not a Pattern game ID"),
        ("/1.1\n", "/1.1,aaaaaaa\n", 1, "given cells: more data than the grid has cells"),
        ("/1.1\n", "/1.1,a\n", 1, "given cells: less data than the grid has cells"),
        ("/1.1\n", "/1.1,a1\n", 1, "given cells: unrecognised character '1'"),
        ("/1.1\n", "/1.1\n2x2:1/1/1/1\n", 2, "a game ID is a single line"),
    ],
    ".xml": [  # webpbn XML
        ("</clues>\n<clues", "<line><count>1</count></line>\n</clues>\n<clues", 14,
         "solution image row 1: 3 cells but the puzzle is 4 wide"),
        ("<count>2</count></line>\n<line><count>1</count><count>1",
         "<count>4</count></line>\n<line><count>1</count><count>1", 10,
         "row 1: clue 4 needs 4 cells"),
        ("<count>1</count><count>1</count>", "<count>1</count><count>one</count>",
         11, "row 2 clue: 'one' is not a number"),
        ("<count>1</count><count>1</count>", "<count>1</count><count>-1</count>",
         11, "-1 is not a positive number"),
        ("<count>1</count><count>1</count>",
         '<count>1</count><count color="red">1</count>', 11, "colour puzzles are not supported"),
        ("|XX.||X.X|", "|XX.||X.X||...|", 13, "solution image has 3 rows but the puzzle has 2"),
        ("|XX.||X.X|", "|XX.||X.|", 13, "solution image row 2: 2 cells but the puzzle is 3"),
        ("|XX.||X.X|", "|XX.||X#X|", 13, "unknown cell character '#'"),
        ("</puzzle>\n</puzzleset>\n", "", 14, "not well-formed XML: no element found"),
        ('type="grid"', 'type="triddler"', 3, "puzzle type 'triddler' is not supported"),
        ('<?xml version="1.0"?>\n',
         '<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY x "y">]>\n', 2,
         "entity declarations are refused"),
    ],
}
CASES = [_case(ext, *broken) for ext, cases in BROKEN.items() for broken in cases]


@pytest.mark.parametrize(("ext", "text", "line", "message"), CASES)
def test_malformed_input_is_one_line_with_file_and_line(tmp_path, capsys, ext, text, line,
                                                        message):
    path = tmp_path / f"bad{ext}"
    path.write_text(text)
    assert main(["check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"autoplayer: error: {path}:{line}: "), err
    assert message in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("ext", sorted(VALID))
def test_the_base_cases_are_valid(tmp_path, capsys, ext):
    path = tmp_path / f"good{ext}"
    path.write_text(VALID[ext])
    assert main(["check", str(path)]) == 0, capsys.readouterr().err
    assert "ok: valid 3x2 puzzle" in capsys.readouterr().out


@pytest.mark.parametrize("ext", sorted(VALID))
@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"", 1, "empty file"),
        (b"\n  \n", 1, "empty file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, "not a text file"),
        (b"ok line\n\xff\xfe junk", 2, "not a text file (byte 0xff is not UTF-8)"),
        (b"3x2\n\x00\x01\x02", 2, "not a text file (control character U+0000)"),
    ],
    ids=["empty", "blank", "png", "latin1", "nul"],
)
def test_empty_and_binary_files(tmp_path, capsys, ext, data, line, message):
    path = tmp_path / f"junk{ext}"
    path.write_bytes(data)
    assert main(["show", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"autoplayer: error: {path}:{line}: {message}"), err


def test_truncated_files_in_every_format(tmp_path, capsys):
    for ext, text in VALID.items():
        path = tmp_path / f"cut{ext}"
        path.write_text(text[: len(text) // 2])
        assert main(["check", str(path)]) == 2, ext
        err = capsys.readouterr().err
        assert err.startswith(f"autoplayer: error: {path}:"), err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_error_exit_through_a_real_process(tmp_path):
    path = tmp_path / "bad.non"
    path.write_text(VALID[".non"].replace("rows\n2\n", "rows\n4\n"))
    result = subprocess.run(
        [sys.executable, "-m", "autoplayer", "check", str(path)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"autoplayer: error: {path}:5: row 1: clue 4 needs 4 cells but the row has 3\n"
    )
