"""The `autoplayer` command line: parses arguments and dispatches to commands.

Each command group lives in its own module under `autoplayer.commands` and
exposes `register(subparsers)`, which adds its sub-parsers and sets
`func(args) -> int` on them. Modules import their heavy dependencies (numpy,
OpenCV, numba, pynput) inside the command function, so `autoplayer solve`
starts in well under a second and a headless machine can run the offline tools.
A run imports only the module of the command it names (`COMMANDS`); every
module is imported only to list them all (`--help`, a mistyped command).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from autoplayer import __version__
from autoplayer.errors import UserError
from autoplayer.exits import INTERRUPTED, guarded, say

# One line a command group; the order is the order of `autoplayer --help`.
COMMAND_MODULES: tuple[str, ...] = (
    "autoplayer.commands.formats",
    "autoplayer.commands.solve",
    "autoplayer.commands.count",
    "autoplayer.commands.hint",
    "autoplayer.commands.play",
    "autoplayer.commands.vision",
    "autoplayer.commands.webgame",
    "autoplayer.commands.ripple",
    "autoplayer.commands.fifteen",
)


COMMANDS: dict[str, str] = {
    "convert": "autoplayer.commands.formats",
    "show": "autoplayer.commands.formats",
    "check": "autoplayer.commands.formats",
    "solve": "autoplayer.commands.solve",
    "count": "autoplayer.commands.count",
    "hint": "autoplayer.commands.hint",
    "play": "autoplayer.commands.play",
    "demo": "autoplayer.commands.play",
    "read": "autoplayer.commands.vision",
    "calibrate": "autoplayer.commands.vision",
    "serve": "autoplayer.commands.webgame",
    "ripple": "autoplayer.commands.ripple",
    "fifteen": "autoplayer.commands.fifteen",
}
"""Each command name and the module in COMMAND_MODULES that registers it."""


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line (argparse prints the usage block first), control bytes escaped."""

    def error(self, message: str) -> NoReturn:
        say(self.prog, f"{message} (see {self.prog} --help)")
        raise SystemExit(UserError.exit_code)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for `command` alone when it is a known one, else for every command."""
    modules = (COMMANDS[command],) if command in COMMANDS else COMMAND_MODULES
    parser = OneLineParser(
        prog="autoplayer",
        description="Plays logic-puzzle games from the screen, and solves puzzle files.",
    )
    parser.add_argument("--version", action="version", version=f"autoplayer {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in modules:
        importlib.import_module(name).register(subparsers)
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
