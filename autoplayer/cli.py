"""The `autoplayer` command line: parses arguments and dispatches to commands.

Each command group lives in its own module under `autoplayer.commands` and
exposes `register(subparsers)`, which adds its sub-parsers and sets
`func(args) -> int` on them. Modules import their heavy dependencies (numpy,
OpenCV, numba, pynput) inside the command function, so `autoplayer solve`
starts in well under a second and a headless machine can run the offline tools.
A run imports only the module of the command it names (`COMMANDS`); `--help`,
`--version` and a mistyped command import none (the table in `autoplayer.commands`
gives each command's line).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from autoplayer import __version__
from autoplayer.commands import COMMANDS as TABLE
from autoplayer.errors import UserError
from autoplayer.exits import INTERRUPTED, guarded, say

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any, NoReturn

COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(m for m, _ in TABLE.values()))
"""Every command module, once each, in the order of `autoplayer --help`."""

COMMANDS: dict[str, str] = {name: module for name, (module, _) in TABLE.items()}
"""Each command name and the module in COMMAND_MODULES that registers it."""


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` gives it, without importing shutil
    (argparse's formatter would, for every parser built: start-up time)."""
    import os

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _HelpFormatter(argparse.HelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         width if width is not None else _columns() - 2)


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line (argparse prints the usage block first), control bytes
    escaped; help laid out to the terminal's width."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        say(self.prog, f"{message} (see {self.prog} --help)")
        raise SystemExit(UserError.exit_code)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for `command` alone when it is a known one; else one that lists every
    command from the table (for --help, --version and a mistyped command) and imports
    no command module."""
    parser = OneLineParser(
        prog="autoplayer",
        description="Plays logic-puzzle games from the screen, and solves puzzle files.",
    )
    parser.add_argument("--version", action="version", version=f"autoplayer {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    if command in COMMANDS:
        importlib.import_module(COMMANDS[command]).register(subparsers)
    else:
        for name, (_, line) in TABLE.items():
            subparsers.add_parser(name, help=line, add_help=False)
    return parser


def _command_in(argv: Sequence[str]) -> str | None:
    """The command word when it comes first (`autoplayer -h solve` is the full help)."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    prog = "autoplayer"
    try:
        parser = build_parser(_command_in(argv))
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help, --version, or a usage error already said
            return done.code if isinstance(done.code, int) else 0
        return guarded(prog, lambda: int(args.func(args) or 0))
    except KeyboardInterrupt:  # before the command started
        print(f"{prog}: interrupted", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
