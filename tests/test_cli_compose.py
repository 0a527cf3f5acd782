"""The commands compose like Unix tools: `-` for stdin, several files or a folder with a
summary line, `--json` lines with stable keys, warnings on stderr, plain text into a pipe
unless `--pretty`, `--size WxH` width first, `--version` on every entry point."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autoplayer.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
BOX = set("─│┌┐└┘├┤┬┴┼█·")

SOLVE_KEYS = {"file", "ok", "verdict", "width", "height", "solution", "solutions", "unique",
              "seconds", "error"}
CHECK_KEYS = {"file", "ok", "width", "height", "checked", "wrong", "error"}
READ_KEYS = {"file", "ok", "width", "height", "board", "rows", "columns", "grid", "templates",
             "tatham", "puzzlink", "warnings", "notes", "error"}
COUNT_KEYS = {"ok", "rows", "columns", "width", "height", "grids", "line_solvable", "unique",
              "seconds", "cpu_seconds", "shards", "error"}


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """This checkout's `autoplayer`, its stdout a pipe (not a terminal)."""
    return subprocess.run([sys.executable, "-m", "autoplayer", *args], cwd=ROOT, input=stdin,
                          capture_output=True, timeout=60)


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """Two good puzzles and a broken one."""
    for name in ("webpbn-00001.non", "data091.nin"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    (tmp_path / "broken.non").write_text("junk\n")
    return tmp_path


def test_solve_reads_standard_input() -> None:
    done = cli("solve", "-", stdin=(EXAMPLES / "webpbn-00001.non").read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("line-solvable\n")


@pytest.mark.parametrize("command", ["solve", "check"])
def test_a_folder_with_one_broken_file_runs_them_all_and_fails(folder, capsys,
                                                                command) -> None:
    assert main([command, str(folder)]) == 2
    said = capsys.readouterr()
    assert f"autoplayer {command}: 3 files, 2 ok, 1 failed" in said.err.splitlines()
    assert "broken.non" in said.err and "webpbn-00001.non" in said.out
    assert "3 files" not in said.out  # stdout stays data


def test_several_files_all_good_exit_0(folder, capsys) -> None:
    files = [str(folder / "webpbn-00001.non"), str(folder / "data091.nin")]
    assert main(["solve", *files]) == 0
    said = capsys.readouterr()
    assert said.err.strip() == "autoplayer solve: 2 files, 2 ok, 0 failed"
    assert said.out.count("unique") + said.out.count("line-solvable") == 2


def test_convert_a_folder_into_a_folder(folder, tmp_path, capsys) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert main(["convert", str(folder), str(out), "--to", "tatham"]) == 2
    assert sorted(p.name for p in out.iterdir()) == ["data091.pattern",
                                                     "webpbn-00001.pattern"]
    assert "3 files, 2 ok, 1 failed" in capsys.readouterr().err


def test_solve_and_check_json_lines_have_every_key(folder, capsys) -> None:
    assert main(["solve", "--json", str(folder)]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(r["file"]).name for r in records] == ["broken.non", "data091.nin",
                                                       "webpbn-00001.non"]
    assert all(set(r) == SOLVE_KEYS for r in records)
    broken, owl, dancer = records
    assert not broken["ok"] and broken["error"] and broken["solution"] is None
    assert dancer["ok"] and dancer["unique"] and dancer["verdict"] == "line-solvable"
    assert (dancer["width"], dancer["height"]) == (5, 10)
    assert dancer["solution"][0] == ".##.." and len(dancer["solution"]) == 10
    assert owl["ok"] and len(owl["solution"]) == 25

    assert main(["check", "--json", str(folder)]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(set(r) == CHECK_KEYS for r in records)
    assert [r["ok"] for r in records] == [False, True, True]
    assert records[2]["checked"] == ["solution"]


def test_count_json(capsys) -> None:
    assert main(["count", "2", "3", "--json", "--jobs", "1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == COUNT_KEYS
    assert (record["rows"], record["columns"], record["width"]) == (2, 3, 3)
    assert record["grids"] == 64 and record["unique"] is None


def test_read_puts_warnings_on_stderr_and_the_puzzle_alone_on_stdout() -> None:
    done = cli("read", "examples/PixeloScreenshot.png")
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "warning" not in out and "low confidence" not in out and "corrected" not in out
    lines = out.splitlines()
    assert lines[0].startswith("20x20 board at ")
    assert lines[-1].startswith("https://puzz.link/p?nonogram/20/20/")
    assert not BOX & set(out)  # a pipe gets plain text
    for line in done.stderr.decode().splitlines():
        assert line.startswith("autoplayer read: ")


def test_read_json_and_stdin() -> None:
    done = cli("read", "-", "--json", stdin=(EXAMPLES / "PixeloScreenshot.png").read_bytes())
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert set(record) == READ_KEYS
    assert record["ok"] and (record["width"], record["height"]) == (20, 20)
    assert len(record["rows"]) == 20 and record["puzzlink"].startswith("https://puzz.link/")


@pytest.mark.parametrize("command", ["solve", "show"])
def test_box_drawing_only_with_pretty_into_a_pipe(command) -> None:
    plain = cli(command, "examples/webpbn-00001.non")
    pretty = cli(command, "--pretty", "examples/webpbn-00001.non")
    assert plain.returncode == pretty.returncode == 0
    assert not BOX & set(plain.stdout.decode())
    assert "│" in pretty.stdout.decode() and "█" in pretty.stdout.decode()


@pytest.mark.parametrize("argv", [
    ("ripple", "check", "examples/ripple-6x6.txt", "examples/ripple-6x6.sol"),
    ("ripple", "solve", "examples/ripple-6x6.txt", "-"),
    ("fifteen", "show", "--id", "321878651"),
    ("fifteen", "solve", "--fast", "3x3:8,6,7,2,5,4,3,0,1"),
])
def test_every_game_draws_plain_ascii_into_a_pipe(argv) -> None:
    plain = cli(*argv)
    pretty = cli(*argv, "--pretty")
    assert plain.returncode == pretty.returncode == 0
    # `ripple solve IN -` draws on stderr (the solution has stdout)
    side = "stderr" if "-" in argv else "stdout"
    drawn, fancy = getattr(plain, side), getattr(pretty, side).decode()
    assert drawn.isascii(), drawn.decode()
    assert BOX & set(fancy) or "←" in fancy or "↓" in fancy
    # the same picture: only the glyphs differ
    assert len(drawn.decode().splitlines()) == len(fancy.splitlines())


def test_size_is_width_first_everywhere(capsys) -> None:
    from autoplayer.commands.play import board_size
    from autoplayer.webgame.puzzles import parse_size
    from autoplayer.webgame.ripple import parse_board_size

    assert main(["ripple", "generate", "--size", "6x3", "--seed", "2"]) == 0
    rooms = capsys.readouterr().out.split("\n\n")[0].splitlines()
    assert len(rooms) == 3 and all(len(r.split()) == 6 for r in rooms)
    assert main(["ripple", "generate", "--size", "4", "--seed", "2"]) == 0
    rooms = capsys.readouterr().out.split("\n\n")[0].splitlines()
    assert len(rooms) == 4 and all(len(r.split()) == 4 for r in rooms)
    assert board_size("20x15") == (20, 15) and board_size("10") == (10, 10)  # demo
    assert parse_size("20x15") == (20, 15)  # serve, nonogram: (width, height)
    assert parse_board_size("12x8") == (8, 12)  # serve, ripple: (rows, cols)
    assert main(["fifteen", "show", "--id", "0", "--size", "3x2"]) == 0
    assert "3x2:" in capsys.readouterr().out


def test_play_profile_has_one_meaning() -> None:
    import argparse

    from autoplayer.commands.play import _game_profile
    from autoplayer.errors import UserError

    def ns(**given: str) -> argparse.Namespace:
        return argparse.Namespace(**{"profile": None, "scheme": None, "solver": None, **given})

    assert _game_profile(ns(profile="rules.json"), "nonogram") == "rules.json"
    assert _game_profile(ns(scheme="count"), "ripple") == "count"
    assert _game_profile(ns(solver="fast"), "fifteen") == "fast"
    assert _game_profile(ns(profile="fast"), "fifteen") == "fast"  # the old spelling
    with pytest.raises(UserError, match="--profile is the nonogram rules file"):
        _game_profile(ns(profile="rules.json"), "ripple")
    with pytest.raises(UserError, match="--scheme is for ripple"):
        _game_profile(ns(scheme="type"), "nonogram")


def test_version_on_every_entry_point(capsys) -> None:
    import tomllib

    from autoplayer import __version__

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    for name, target in scripts.items():
        module, _, function = target.partition(":")
        entry = getattr(__import__(module, fromlist=[function]), function)
        assert entry(["--version"]) == 0, name
        assert __version__ in capsys.readouterr().out, name
    assert cli("--version").returncode == 0


def test_play_json_keys_are_the_documented_ones() -> None:
    """`play --json` needs a screen; its object is `Report.as_dict`, held to docs/cli.md."""
    import re

    from autoplayer.play.report import Report

    row = next(line for line in (ROOT / "docs" / "cli.md").read_text().splitlines()
               if line.strip().startswith("| `play` |"))
    documented = re.sub(r"\(the game's answer:[^)]*\)", "", row.split("|")[2])
    keys = set(re.findall(r"`(\w+)`", documented))
    assert set(Report(game="nonogram").as_dict()) == keys


def test_read_out_to_stdout_pipes_into_solve() -> None:
    read = cli("read", "examples/PixeloScreenshot.png", "--out", "-")
    assert read.returncode == 0, read.stderr
    assert read.stderr.decode().startswith("20x20 board at ")  # the report, off stdout
    solved = cli("solve", "-", "--json", stdin=read.stdout)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["verdict"] == "line-solvable"
