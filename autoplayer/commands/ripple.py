"""Command group 'ripple': solve, check and generate Ripple Effect (Hakyuu) puzzles.

`solve` and `check` behave like the `ripple-effect` and `ripple-effect-check` console
scripts (same output, same exit codes), except that, like every `autoplayer` command, they
draw the rooms in plain ASCII into a pipe or a file unless `--pretty`; the two scripts keep
the course tools' box drawing everywhere.
"""

from __future__ import annotations

import argparse
import re
import sys

from autoplayer.commands import summary
from autoplayer.commands.batch import add_pretty_option, pretty
from autoplayer.errors import UserError, printable

GENERATE_MAX_SIDE = 60
"""The largest board `generate` makes: 60x60 takes it about a minute, and the time grows
with the fourth power of the side (every given it takes away is proved by a solve)."""

MAX_ROOM_SIZE = 9
"""The largest room `generate --max-room` may ask for (the room-size odds stop there)."""


def _number(text: str, most: int, what: str, least: int = 1) -> int:
    """An argument as a number of least..most; one argparse line naming the limit."""
    from autoplayer.limits import whole_number

    try:
        return whole_number(text, most, what, least=least)
    except UserError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _size(text: str) -> tuple[int, int]:
    """`WxH`, width (columns) first as everywhere else, or `N` for a square: (rows, cols).
    In version 0.1.0 this option was ROWSxCOLS; a non-square size now means the other
    board, so the help and docs/cli.md say so."""
    from autoplayer.limits import shown

    square = re.fullmatch(r"\s*(\d+)\s*", text)
    if square:
        side = _number(square[1], GENERATE_MAX_SIDE, "the side")
        return side, side
    match = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(
            f"{shown(text)!r} is not WIDTHxHEIGHT (columns x rows, width first), e.g. 12x8, "
            "or one side for a square")
    cols = _number(match[1], GENERATE_MAX_SIDE, "the width (columns)")
    rows = _number(match[2], GENERATE_MAX_SIDE, "the height (rows)")
    return rows, cols


def _max_room(text: str) -> int:
    return _number(text, MAX_ROOM_SIZE, "the value")


def _limit(text: str) -> int:
    from autoplayer.games.ripple.solver import MAX_LISTED

    return _number(text, MAX_LISTED, "the value")


def _solve(args: argparse.Namespace) -> int:
    from autoplayer.games.ripple.cli import run_solve

    return run_solve(args.input, args.output, list_all=args.all, limit=args.limit,
                     unicode=pretty(args))


def _check(args: argparse.Namespace) -> int:
    from autoplayer.games.ripple.cli import run_check

    return run_check(args.puzzle, args.solution, unicode=pretty(args))


def _convert(args: argparse.Namespace) -> int:
    from autoplayer.games.ripple.cli import run_convert

    return run_convert(args.input, args.output, args.fmt)


def _generate(args: argparse.Namespace) -> int:
    from autoplayer.files import is_stdio, write_output
    from autoplayer.games.ripple.drawing import draw
    from autoplayer.games.ripple.formats import format_puzzle, format_values
    from autoplayer.games.ripple.generator import generate

    rows, cols = args.size
    puzzle, solution = generate(rows, cols, args.seed, max_room=args.max_room)
    text = format_puzzle(puzzle)
    if args.output and not is_stdio(args.output):
        write_output(args.output, text)
        sys.stdout.write(draw(puzzle, unicode=pretty(args)))
        print(f"Puzzle written to {printable(args.output)}")
    else:
        sys.stdout.write(text)
    if args.solution:
        write_output(args.solution, format_values(solution, cols))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    from autoplayer.games.ripple.solver import MAX_LISTED

    group = subparsers.add_parser(
        "ripple", help=summary("ripple"),
        description="Ripple Effect (Hakyuu) puzzle files: solve, check, generate.")
    commands = group.add_subparsers(dest="ripple_command", metavar="SUBCOMMAND", required=True)

    solve = commands.add_parser(
        "solve", help="solve a puzzle file (like ripple-effect)",
        description="Solves INPUT, writes the solution to OUTPUT and draws it. Exit 0 when "
                    "solved (says so when not unique), 1 when there is no solution, 2 on bad "
                    "input.")
    solve.add_argument("input", metavar="INPUT",
                       help="puzzle file (either layout) or puzz.link URL")
    solve.add_argument("output", metavar="OUTPUT", help="where to write the solution")
    solve.add_argument("--all", action="store_true", help="list every solution (up to --limit)")
    solve.add_argument("--limit", type=_limit, default=100, metavar="N",
                       help=f"most solutions --all lists (default 100, at most {MAX_LISTED})")
    add_pretty_option(solve)
    solve.set_defaults(func=_solve)

    check = commands.add_parser(
        "check", help="draw a puzzle, or check a solution (like ripple-effect-check)",
        description="Draws PUZZLE with its rooms; with SOLUTION, draws that, lists every "
                    "violation or says 'Solution correct'. Exit 0 when correct, 1 when not.")
    check.add_argument("puzzle", metavar="PUZZLE", help="puzzle file or puzz.link URL")
    check.add_argument("solution", metavar="SOLUTION", nargs="?")
    add_pretty_option(check)
    check.set_defaults(func=_check)

    convert = commands.add_parser(
        "convert", help="write a puzzle as a puzz.link URL, or a URL as a puzzle file",
        description="Reads INPUT (a puzzle file in either layout, or a puzz.link URL) and "
                    "writes it to OUTPUT ('-': standard output) in the spec's layout, or as "
                    "a puzz.link URL with --to puzzlink.")
    convert.add_argument("input", metavar="INPUT", help="puzzle file or puzz.link URL")
    convert.add_argument("output", metavar="OUTPUT", help="file to write, or - for stdout")
    convert.add_argument("--to", dest="fmt", choices=("text", "puzzlink"), default="text",
                         help="text: rooms, a blank line, values (default); puzzlink: a URL")
    convert.set_defaults(func=_convert)

    gen = commands.add_parser(
        "generate", help="make a random puzzle with exactly one solution",
        description="Makes a puzzle with a unique solution; the same size and seed always "
                    "give the same puzzle. Prints it in the spec's layout unless -o is given.")
    gen.add_argument("--size", type=_size, required=True, metavar="WxH",
                     help="width (columns) x height (rows), width first as in every "
                     "command, e.g. 12x8, or N for a square (at most "
                     f"{GENERATE_MAX_SIDE}x{GENERATE_MAX_SIDE}); it was rows x columns "
                     "before, so an old 8x12 now makes a 12-row board")
    gen.add_argument("--seed", default="0", help="any text or number (default 0)")
    gen.add_argument("--max-room", type=_max_room, default=6, metavar="N",
                     help="largest room to cut at first (default 6; fixing dead ends may "
                          "join rooms a little past it)")
    gen.add_argument("-o", "--output", metavar="FILE", help="write the puzzle here")
    gen.add_argument("--solution", metavar="FILE", help="also write its solution here")
    add_pretty_option(gen)
    gen.set_defaults(func=_generate)
