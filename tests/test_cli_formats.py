"""`autoplayer convert`, `show` and `check` through the real CLI entry point."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from autoplayer.cli import main
from autoplayer.commands import formats as command
from autoplayer.games.nonogram.formats import FORMATS, load_puzzle
from autoplayer.games.nonogram.model import differences

DANCER = "griddler-solver/webpbn-00001.non"
EXTENSIONS = {name: info.extensions[0] for name, info in FORMATS.items() if info.extensions}
"""Formats a file name can name (a puzz.link URL has no extension: test_puzzlink covers it)."""


def test_command_module_lists_the_registry_formats():
    assert set(command.FORMAT_NAMES) == set(FORMATS)


@pytest.mark.parametrize(("first", "second"), list(itertools.permutations(EXTENSIONS, 2)))
def test_convert_between_every_pair(shared_dir, tmp_path, capsys, first, second):
    source = shared_dir / "nonograms" / DANCER
    a = tmp_path / f"a{EXTENSIONS[first]}"
    b = tmp_path / f"b{EXTENSIONS[second]}"
    assert main(["convert", str(source), str(a)]) == 0
    assert main(["convert", str(a), str(b)]) == 0
    capsys.readouterr()
    original, via_a, via_b = load_puzzle(source), load_puzzle(a), load_puzzle(b)
    kept = set(FORMATS[first].carries) & set(FORMATS[second].carries)
    assert differences(original, via_b, ["rows", "columns", *sorted(kept)]) == []
    assert differences(via_a, via_b, ["rows", "columns"]) == []


def test_convert_names_what_the_target_format_drops(shared_dir, tmp_path, capsys):
    out = tmp_path / "dancer.nin"
    assert main(["convert", str(shared_dir / "nonograms" / DANCER), str(out)]) == 0
    _, err = capsys.readouterr()
    assert err == ("autoplayer convert: the nin format cannot hold the puzzle's title, author, "
                   "copyright, solution; left out\n")
    assert out.read_text().startswith("5 10\n2\n2 1\n")


def test_convert_to_stdout_and_with_to(shared_dir, tmp_path, capsys):
    source = str(shared_dir / "nonograms" / DANCER)
    assert main(["convert", source, "-", "--to", "tatham"]) == 0
    out, _ = capsys.readouterr()
    assert out == "5x10:2.1/2.1.3/7/1.3/2.1/2/2.1/1.1/3/1.1/1.1/2/1.1/1.2/2\n"
    target = tmp_path / "dancer.txt"
    assert main(["convert", source, str(target), "--to", "native"]) == 0
    assert target.read_text().startswith("5x10\n\ntitle\nDemo Puzzle from Front Page\n")


def test_convert_from_a_game_id(tmp_path, capsys):
    out = tmp_path / "p.non"
    assert main(["convert", "4x4:2/1/2/1/1.1/2/1/1", str(out)]) == 0
    assert load_puzzle(out).rows == ((1, 1), (2,), (1,), (1,))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["x.non", "-"], "writing to stdout needs --to FMT"),
        (["x.non", "out.weird"], "cannot tell the output format from the extension"),
        (["x.non", "out.non", "--to", "svg"], "unknown format 'svg'"),
    ],
)
def test_convert_usage_errors(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    assert main(["convert", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.non"]


def test_convert_refuses_to_overwrite_its_input(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "x.non"
    text = "width 1\nheight 1\nrows\n1\ncolumns\n1\n"
    source.write_text(text)
    (tmp_path / "link.non").symlink_to(source)
    for target in ("x.non", "./x.non", str(source), "link.non"):
        assert main(["convert", "x.non", target, "--to", "nin"]) == 2
        assert "is the input file; refusing to overwrite it" in capsys.readouterr().err
    assert source.read_text() == text


def test_convert_bad_input_leaves_existing_output(tmp_path, capsys):
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight 1\nrows\n3\ncolumns\n1\n1\n")
    out = tmp_path / "out.nin"
    out.write_text("keep me\n")
    assert main(["convert", str(bad), str(out)]) == 2
    assert capsys.readouterr().err == (
        f"autoplayer: error: {bad}:4: row 1: clue 3 needs 3 cells but the row has 2\n"
    )
    assert out.read_text() == "keep me\n"


def test_show_prints_title_clues_and_solution(shared_dir, capsys):
    assert main(["show", "--pretty", str(shared_dir / "nonograms" / DANCER)]) == 0
    out = capsys.readouterr().out
    lines = out.split("\n")
    assert lines[0] == "Demo Puzzle from Front Page (5x10)"
    assert lines[1] == "by Jan Wolter"
    assert "  2 │ ·████ · ·│" in lines  # row 1: clue 2, cells .##..
    assert "1 2 │ ·██ ·████│" in lines


def test_show_ascii_grid_and_solution_both(tmp_path, capsys):
    path = tmp_path / "p.nonogram"
    path.write_text("2x1\n\nrows\n1\n\ncolumns\n1\n0\n\ngrid\n. X\n\nsolution\n# .\n")
    assert main(["show", "--ascii", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.split("\n")[0] == "2x1"
    assert "solution:" in out and "grid:" in out
    assert "1 |## .|" in out  # the solution
    assert "1 |   .|" in out  # the grid: first cell unknown, second crossed out


def test_check_exit_codes(tmp_path, capsys):
    good = tmp_path / "good.nonogram"
    good.write_text("3x2\n\nrows\n2\n1,1\n\ncolumns\n2\n1\n1\n\nsolution\n# # .\n# . #\n")
    assert main(["check", str(good)]) == 0
    assert capsys.readouterr().out == (
        f"{good}: ok: valid 3x2 puzzle; the solution satisfies every clue\n"
    )
    wrong = tmp_path / "wrong.nonogram"
    wrong.write_text(good.read_text().replace("# . #", "# # #"))
    assert main(["check", str(wrong)]) == 1
    assert capsys.readouterr().out == (
        f"{wrong}: solution is wrong: row 2: clue is 1 1 but the cells give 3\n"
    )
    columns_wrong = tmp_path / "cols.nonogram"
    columns_wrong.write_text(good.read_text().replace("# # .\n# . #", "# # .\n. # #")
                             .replace("1,1\n", "2\n"))
    assert main(["check", str(columns_wrong)]) == 1
    assert "solution is wrong: column 1: clue is 2 but the cells give 1" in (
        capsys.readouterr().out)
    clues_only = tmp_path / "plain.nin"
    clues_only.write_text("3 2\n2\n1 1\n2\n1\n1\n")
    assert main(["check", str(clues_only)]) == 0
    assert "no solution or grid to check" in capsys.readouterr().out
    bad = tmp_path / "bad.nin"
    bad.write_text("3 2\n2\n1 1\n2\n1\n")
    assert main(["check", str(bad)]) == 2


def test_check_partial_grid_from_a_game_id(capsys):
    # given: cell 0 filled; every line can still be completed
    assert main(["check", "4x4:2/1/2/1/1.1/2/1/1,Ap"]) == 0
    assert "every line's known cells fit its clue" in capsys.readouterr().out
    # cells 0 and 1 filled: row 1 (clue 1 1) cannot start with two filled cells
    assert main(["check", "4x4:2/1/2/1/1.1/2/1/1,AAo"]) == 1
    assert "grid is wrong: row 1: no placement of 1 1 fits its known cells" in (
        capsys.readouterr().out)


def test_bad_game_id_error_quotes_the_id(capsys):
    assert main(["check", "4x4:2/1/2/1/1.1/2/1/9"]) == 2
    assert capsys.readouterr().err == (
        "autoplayer: error: game ID 4x4:2/1/2/1/1.1/2/1/9: "
        "row 4: clue 9 needs 9 cells but the row has 4\n"
    )
    assert main(["show", "no-such-file.non"]) == 2
    assert capsys.readouterr().err == "autoplayer: error: no-such-file.non: no such file\n"


def test_every_shared_puzzle_checks_ok(shared_dir, capsys):
    files = sorted((shared_dir / "nonograms").rglob("*.non"))
    for path in files:
        assert main(["check", str(path)]) == 0, path
    assert capsys.readouterr().out.count(": ok: ") == len(files)


def test_command_module_imports_nothing_heavy():
    import subprocess
    import sys

    code = "import sys, autoplayer.commands.formats; print('numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_solution_and_grid_round_trip_through_convert(tmp_path, capsys):
    source = tmp_path / "p.nonogram"
    source.write_text("3x2\n\nrows\n2\n1,1\n\ncolumns\n2\n1\n1\n\ngrid\n# . X\n. . .\n\n"
                      "solution\n# # .\n# . #\n")
    for ext in (".non", ".xml"):
        out = tmp_path / f"p{ext}"
        assert main(["convert", str(source), str(out)]) == 0
        back = load_puzzle(out)
        assert back.grid.tolist() == [[1, -1, 0], [-1, -1, -1]]
        assert np.array_equal(back.solution, np.array([[1, 1, 0], [1, 0, 1]]))
