"""The `ripple-effect` and `ripple-effect-check` commands (also `autoplayer ripple ...`).

`run_solve` and `run_check` do the work and raise `UserError` for anything
the user can fix; the two `main_*` entry points add the spec's usage message
and turn those errors into one line on stderr (`exits.guarded`). A file named
`-` is standard input where read, standard output where written.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from autoplayer.errors import InputError, UserError, printable
from autoplayer.exits import guarded, say
from autoplayer.files import is_stdio, read_text, same_file, write_output
from autoplayer.games.ripple.checker import report
from autoplayer.games.ripple.drawing import draw
from autoplayer.games.ripple.formats import format_values, parse_puzzle, parse_solution
from autoplayer.games.ripple.model import Puzzle
from autoplayer.games.ripple.solver import MAX_LISTED, solve
from autoplayer.limits import whole_number

CONVERT_FORMATS = ("text", "puzzlink")
"""`text`: the spec's layout (rooms, a blank line, values with '-'); `puzzlink`: a URL."""

SOLVED, NO_SOLUTION, USER_ERROR = 0, 1, 2
"""Exit codes: solved (unique or not) / solution correct; none / violations; bad input
(and, from `exits`, 74 output not written, 130 Ctrl-C)."""

DEFAULT_LIMIT = 100
"""Solutions `--all` lists at most (ambiguous puzzles can have tens of thousands)."""

SOLVE_USAGE = (
    "USAGE: ripple-effect <input file> <output file>\n"
    "       ripple-effect --all [--limit=N] <input file> <output file>\n"
    f"  --all      list every solution (at most N, default {DEFAULT_LIMIT})\n"
    "<input file> may also be a puzz.link URL (https://puzz.link/p?ripple/...)\n"
    "--version  print the version and exit\n"
)
CHECK_USAGE_LINE = "USAGE: ripple-effect-check <puzzle file> [<solution file>]\n"
"""The usage error: one line; -h adds --version (CHECK_USAGE)."""
CHECK_USAGE = CHECK_USAGE_LINE + "       ripple-effect-check --version\n"
SOLVE_USAGE_LINE = ("USAGE: ripple-effect <input file> <output file> "
                    "(or --all [--limit=N] first; -h for more)\n")
"""The usage error: one line, as every error is; -h gives the whole of SOLVE_USAGE."""



def load_puzzle(path: str | Path) -> Puzzle:
    """A puzzle file in either layout (`-`: standard input), a file holding a puzz.link
    URL, or the URL itself given in place of a file name."""
    from autoplayer.files import exists
    from autoplayer.games.ripple import puzzlink

    if isinstance(path, str) and not exists(path) and puzzlink.looks_like(path):
        try:
            return puzzlink.parse_url(path)
        except InputError as err:
            from autoplayer.puzzlink import WHERE

            raise err.at(WHERE) from None
    text = read_text(path)
    name = "standard input" if is_stdio(path) else path
    if puzzlink.looks_like(text) and "\n" not in text.strip():
        try:
            return puzzlink.parse_url(text)
        except InputError as err:
            raise InputError(err.message, path=name, line=1) from None
    return parse_puzzle(text, name)


def run_convert(input_path: str, output_path: str, fmt: str | None = None) -> int:
    """Writes the puzzle at INPUT (a file or a URL) as a puzz.link URL or in the spec's
    layout (`text`, the default)."""
    from autoplayer.games.ripple import puzzlink
    from autoplayer.games.ripple.formats import format_puzzle

    fmt = fmt or "text"
    if fmt not in CONVERT_FORMATS:
        raise UserError(f"unknown format {fmt!r}; a Ripple Effect puzzle is written as "
                        f"{' or '.join(CONVERT_FORMATS)}")
    if same_file(input_path, output_path):
        raise UserError(f"{output_path}: is the input file; refusing to overwrite it")
    puzzle = load_puzzle(input_path)
    text = puzzlink.url(puzzle) + "\n" if fmt == "puzzlink" else format_puzzle(puzzle)
    write_output(output_path, text)
    return SOLVED


def run_solve(input_path: str, output_path: str, *, list_all: bool = False,
              limit: int = DEFAULT_LIMIT, out: TextIO | None = None,
              unicode: bool = True) -> int:
    """Solves INPUT, writes the (first) solution to OUTPUT and reports on `out` (the rooms
    in box drawing, or plain ASCII unless `unicode`)."""
    # With OUTPUT `-` standard output carries the solution alone; the report goes to stderr.
    out = out or (sys.stderr if is_stdio(output_path) else sys.stdout)
    if not 1 <= limit <= MAX_LISTED:
        raise UserError(f"--limit={limit} is outside 1..{MAX_LISTED}")
    if same_file(input_path, output_path):
        raise UserError(f"{output_path} is the input file; the solution would overwrite the puzzle")
    puzzle = load_puzzle(input_path)
    try:
        result = solve(puzzle, limit=max(limit, 2) if list_all else 2)
    except InputError as err:  # rooms too large to search: the puzzle's fault
        raise err.at(input_path) from None
    if not result.solutions:
        print("This puzzle has no solution", file=out)
        return NO_SOLUTION
    first = result.solutions[0]
    write_output(output_path, format_values(first, puzzle.cols))
    where = "standard output" if is_stdio(output_path) else printable(output_path)
    if result.unique:
        out.write(draw(puzzle, first, unicode=unicode))
        print(f"Solution written to {where} (it is unique)", file=out)
        return SOLVED
    if not list_all:
        out.write(draw(puzzle, first, unicode=unicode))
        print(f"This puzzle has more than one solution; the first one found is written to "
              f"{where} (--all lists them)", file=out)
        return SOLVED
    shown = result.solutions[:limit]
    for number, values in enumerate(shown, start=1):
        print(f"Solution {number}:", file=out)
        out.write(draw(puzzle, values, unicode=unicode))
    if result.complete and len(result.solutions) <= limit:
        print(f"This puzzle has {len(shown)} solutions; the first is written to {where}",
              file=out)
    else:
        print(f"This puzzle has more than {len(shown)} solutions (listing stopped at "
              f"--limit={limit}); the first is written to {where}", file=out)
    return SOLVED


def run_check(puzzle_path: str, solution_path: str | None = None,
              out: TextIO | None = None, unicode: bool = True) -> int:
    """Draws the puzzle (plain ASCII unless `unicode`); with a solution, draws that and
    lists what breaks the rules."""
    out = out or sys.stdout
    puzzle = load_puzzle(puzzle_path)
    if solution_path is None:
        out.write(draw(puzzle, unicode=unicode))
        return SOLVED
    if is_stdio(puzzle_path) and is_stdio(solution_path):
        raise UserError("the puzzle and the solution cannot both be standard input")
    shown = "standard input" if is_stdio(solution_path) else solution_path
    values = parse_solution(read_text(solution_path), puzzle, shown)
    correct, text = report(puzzle, values)
    out.write(draw(puzzle, values, unicode=unicode))
    out.write(text)
    return SOLVED if correct else NO_SOLUTION


def _version(prog: str) -> int:
    from autoplayer import __version__

    print(f"{prog} (autoplayer) {__version__}")
    return SOLVED


def main_solve(argv: Sequence[str] | None = None) -> int:
    """`ripple-effect [--all] [--limit=N] INPUT OUTPUT`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        sys.stdout.write(SOLVE_USAGE)
        return SOLVED
    if "--version" in args:
        return _version("ripple-effect")
    list_all, limit, files = False, DEFAULT_LIMIT, []
    for arg in args:
        if arg == "--all":
            list_all = True
        elif arg.startswith("--limit="):
            try:
                limit = whole_number(arg.removeprefix("--limit="), MAX_LISTED, "--limit",
                                     least=1)
            except InputError as err:
                say("ripple-effect", err.message)
                return USER_ERROR
        elif arg.startswith("-") and arg != "-":
            sys.stderr.write(SOLVE_USAGE_LINE)
            return USER_ERROR
        else:
            files.append(arg)
    if len(files) != 2:
        sys.stderr.write(SOLVE_USAGE_LINE)
        return USER_ERROR
    return guarded("ripple-effect",
                    lambda: run_solve(files[0], files[1], list_all=list_all, limit=limit))


def main_check(argv: Sequence[str] | None = None) -> int:
    """`ripple-effect-check PUZZLE [SOLUTION]`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        sys.stdout.write(CHECK_USAGE)
        return SOLVED
    if "--version" in args:
        return _version("ripple-effect-check")
    if not 1 <= len(args) <= 2:
        sys.stderr.write(CHECK_USAGE_LINE)
        return USER_ERROR
    return guarded("ripple-effect-check",
                    lambda: run_check(args[0], args[1] if len(args) == 2 else None))
