import pytest
from fresh import modules_after

from autoplayer.cli import main


def test_version(capsys):
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code == 0
    assert "autoplayer" in capsys.readouterr().out


def test_command_table_names_every_command_of_every_module():
    """COMMANDS must list exactly what each module registers, or a command goes missing."""
    import argparse
    import importlib

    from autoplayer.cli import COMMAND_MODULES, COMMANDS
    from autoplayer.commands import summary

    registered = {}
    for module in COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(sub)
        registered.update(dict.fromkeys(sub.choices, module))
        for action in sub._choices_actions:  # the line --help shows is the module's own
            assert action.help == summary(action.dest), action.dest
    assert registered == COMMANDS


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["solv"], []])
def test_version_help_and_a_typo_import_no_command_module(argv):
    loaded, code = modules_after(argv, "autoplayer.commands.", "numpy", "autoplayer.games.")
    assert loaded == [] and code == (2 if argv in (["solv"], []) else 0)


@pytest.mark.parametrize("argv", [["--help"], ["-h", "solve"], ["--help", "count"]])
def test_help_still_lists_every_command(capsys, argv):
    from autoplayer.cli import COMMANDS

    assert main(argv) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in COMMANDS)


def test_solve_imports_neither_numpy_nor_other_commands(tmp_path):
    """`autoplayer solve` start-up: the file's goal line is parsed but no array is built."""
    puzzle = tmp_path / "p.non"
    puzzle.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal 1001\n")
    loaded = modules_after(["solve", str(puzzle)], "numpy", "autoplayer.commands.")
    # options: the shared checks on numeric options; batch: several files, --json, --pretty
    # (both standard library only); no other command
    assert loaded == (["autoplayer.commands.batch", "autoplayer.commands.options",
                       "autoplayer.commands.solve"], 1)


def test_a_small_solve_leaves_the_slow_standard_modules_alone(tmp_path):
    """Each of these costs a 5x5 `solve` 1-7 ms of a ~35 ms start-up (bench_startup)."""
    puzzle = tmp_path / "p.non"
    puzzle.write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    slow = ("typing", "dataclasses", "inspect", "html", "json", "shutil")
    assert modules_after(["solve", str(puzzle)], *slow) == ([], 0)
    only = modules_after(["solve", str(puzzle)], "autoplayer.games.nonogram.formats.")
    assert only == (["autoplayer.games.nonogram.formats.common",
                     "autoplayer.games.nonogram.formats.non"], 0)  # the one codec read
