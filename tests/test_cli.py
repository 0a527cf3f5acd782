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

    registered = {}
    for module in COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(sub)
        registered.update(dict.fromkeys(sub.choices, module))
    assert registered == COMMANDS


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
