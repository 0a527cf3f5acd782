"""`autoplayer solve FILE`: the solver's verdict on a puzzle file, and its solution(s).

Everything heavy (numpy, the formats, the solver) is imported inside `run`,
so building the parser costs nothing for the other commands.
"""

from __future__ import annotations

import argparse
import os
import sys

from autoplayer.commands import summary
from autoplayer.commands.batch import (
    add_pretty_option,
    emit_json,
    expand,
    pretty,
    rows_text,
    run_each,
)
from autoplayer.errors import UserError, printable
from autoplayer.files import is_stdio, same_file

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    from autoplayer.games.nonogram.model import Puzzle

EXIT_SOLVED = 0
"""line-solvable, unique, or (with --max-solutions 1) solved."""
EXIT_MULTIPLE = 1
EXIT_BAD_INPUT = 2
EXIT_CONTRADICTION = 4
EXIT_TIMEOUT = 5
EXIT_STALLED = 6
"""--logic-only: line logic stopped with cells unknown."""
EXIT_INTERNAL = 70
"""A grid the solver returned breaks a clue (a solver bug): nothing is printed or written.
70 is EX_SOFTWARE in sysexits.h."""

MAX_SOLUTIONS = 1000
"""The search keeps every solution it finds (at most 40 kB each, at 200x200), and only
two are ever shown: 1000 bounds its memory at 40 MB."""
MAX_TIMEOUT = 86_400.0

_EXIT = {
    "line-solvable": EXIT_SOLVED, "unique": EXIT_SOLVED, "solved": EXIT_SOLVED,
    "multiple": EXIT_MULTIPLE, "contradiction": EXIT_CONTRADICTION,
    "timeout": EXIT_TIMEOUT, "stalled": EXIT_STALLED,
}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    solve = subparsers.add_parser(
        "solve",
        help=summary("solve"),
        description="Prints the verdict (line-solvable, unique, multiple, contradiction, "
        "timeout; stalled with --logic-only) and the solution; two different solutions "
        "when there are several. Exit status: 0 solved (line-solvable or unique), "
        "1 multiple, 2 bad input, 4 contradiction, 5 timeout, 6 stalled, "
        "70 internal error (a solution that breaks a clue, never printed).",
    )
    solve.add_argument("files", metavar="FILE", nargs="+",
                       help="puzzle file (format from its extension or content), a folder "
                       "of them, a Pattern game ID, a puzz.link URL, or - for standard "
                       "input; with several, each is solved in turn and a summary line "
                       "goes to stderr")
    solve.add_argument("--logic-only", action="store_true",
                       help="line logic only: no probing, no search (is it line-solvable?)")
    solve.add_argument("--max-solutions", default="2", metavar="N",
                       help="stop after N solutions (default 2, enough to prove uniqueness; "
                       f"1 skips the uniqueness check; at most {MAX_SOLUTIONS})")
    solve.add_argument("--timeout", default=None, metavar="S",
                       help="give up after S seconds (verdict timeout, what logic decided "
                       f"shown; at most {MAX_TIMEOUT:g}, a day: leave it out for no limit)")
    solve.add_argument("--out", metavar="FILE",
                       help="write the puzzle with its solution, in the format FILE's "
                       "extension names (.non gets a goal line, the native format a "
                       "solution section); - writes the native format to stdout and the "
                       "report to stderr")
    add_pretty_option(solve)
    solve.add_argument("--json", action="store_true",
                       help="one JSON object a puzzle, one a line (keys in docs/cli.md)")
    solve.add_argument("--stats", action="store_true",
                       help="print solver statistics (lines, probes, nodes, time) to stderr")
    solve.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from autoplayer.commands.options import seconds, whole

    max_solutions = whole(args.max_solutions, "--max-solutions", 1, MAX_SOLUTIONS)
    timeout = None if args.timeout is None else seconds(args.timeout, "--timeout", MAX_TIMEOUT)
    files = expand(args.files)
    if args.out is not None and len(files) > 1:
        raise UserError("--out takes one puzzle; with several files, leave it out "
                        "(or use --json)")
    if args.out is not None and args.json and is_stdio(args.out):
        raise UserError("--json and --out - would both write to standard output")

    def failed(file: str, err: UserError) -> int:
        if args.json:
            emit_json(_record(file, error=str(err)))
        return err.exit_code

    def one(file: str) -> int:
        return _solve_one(args, file, max_solutions, timeout, several=len(files) > 1)

    return run_each("autoplayer solve", files, one, failed)


def _record(file: str, **fields: object) -> dict[str, object]:
    """`solve --json`'s object: every key always there, null when it does not apply."""
    record: dict[str, object] = {
        "file": file, "ok": False, "verdict": None, "width": None, "height": None,
        "solution": None, "solutions": 0, "unique": None, "seconds": None, "error": None,
    }
    record.update(fields)
    return record


def _solve_one(args: argparse.Namespace, file: str, max_solutions: int,
               timeout: float | None, *, several: bool) -> int:
    import time

    out = args.out
    if out is not None:
        _check_output(file, out)
    # With `--out -` standard output carries the file alone; the report goes to stderr.
    report = sys.stderr if is_stdio(out) else sys.stdout

    from autoplayer.games.nonogram import formats
    from autoplayer.games.nonogram.render import render_puzzle
    from autoplayer.games.nonogram.solver import solve

    began = time.perf_counter()
    puzzle = formats.load_puzzle(file)
    result = solve(
        puzzle, logic_only=args.logic_only, max_solutions=max_solutions, timeout=timeout,
    )
    verdict = result.verdict.value
    solutions = result.solution_rows  # row lists: printing them needs no numpy
    broken = _broken_clue(puzzle, solutions)
    if broken is not None:
        print(f"autoplayer solve: internal error: {broken}; not printed", file=sys.stderr)
        return EXIT_INTERNAL
    if args.json:
        emit_json(_record(
            file, ok=_EXIT[verdict] == EXIT_SOLVED, verdict=verdict, width=puzzle.width,
            height=puzzle.height, solution=rows_text(solutions[0]) if solutions else None,
            solutions=len(solutions),
            unique={"line-solvable": True, "unique": True, "multiple": False,
                    "contradiction": False}.get(verdict),
            seconds=round(time.perf_counter() - began, 6)))
        report = open(os.devnull, "w")  # noqa: SIM115 - the text report is not wanted
    cells = puzzle.width * puzzle.height
    unicode = pretty(args)
    lines = [f"{file}:"] if several else []
    if verdict == "contradiction":
        if result.contradiction is not None:
            kind, index = result.contradiction
            lines.append(f"contradiction: {kind} {index + 1} has no placement")
        else:
            lines.append("contradiction: every line fits, but no grid fits them all "
                         "(proven by search)")
    elif verdict in ("timeout", "stalled"):
        why = f"after {timeout:g} s" if verdict == "timeout" else "line logic alone"
        lines.append(f"{verdict}: {why} decided {result.decided} of {cells} cells")
        lines.append(render_puzzle(puzzle, result.grid_rows, unicode=unicode))
        if solutions:
            lines.append("a solution found in time (not proven unique):")
            lines.append(render_puzzle(puzzle, solutions[0], unicode=unicode))
    elif verdict == "multiple":
        lines.append("multiple: at least two solutions; two of them:")
        for i, grid in enumerate(solutions[:2], 1):
            lines.append(f"solution {i}:")
            lines.append(render_puzzle(puzzle, grid, unicode=unicode))
    else:
        lines.append(verdict)
        lines.append(render_puzzle(puzzle, solutions[0], unicode=unicode))
    report.write("\n".join(lines).rstrip("\n") + "\n")
    report.flush()
    if args.json:
        report.close()
    if args.stats:
        s = result.stats
        print(f"autoplayer solve: {s.seconds:.3f} s ({s.cpu:.3f} s CPU), "
              f"{s.lines_solved} line solves ({s.cache_hits} cached), {s.probes} probes, "
              f"{s.nodes} search nodes"
              f"{', finished by SAT' if s.sat else ''}", file=sys.stderr)
    if out is not None:
        if result.solutions:
            formats.save_puzzle(puzzle.with_solution(result.solutions[0]), out)
            note = {"multiple": " (the first of several solutions)",
                    "timeout": " (a solution not proven unique)"}.get(verdict, "")
            if not is_stdio(out):
                print(f"autoplayer solve: wrote {printable(out)}{note}", file=sys.stderr)
        else:
            print(f"autoplayer solve: no solution, {printable(out)} not written", file=sys.stderr)
    return _EXIT[verdict]


def _broken_clue(puzzle: Puzzle, solutions: list[list[list[int]]]) -> str | None:
    """The first way a returned grid breaks the puzzle, or None: the last line of defence
    against a solver bug, so that a wrong grid is never printed or written as an answer.

    Checked on the row lists with `line_clue` alone, not with anything the solver uses.
    """
    from autoplayer.games.nonogram.model import clue_text, line_clue

    for number, grid in enumerate(solutions, 1):
        if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
            return f"solution {number} is not {puzzle.width}x{puzzle.height}"
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if cell not in (0, 1):
                    return f"solution {number} leaves row {r + 1} column {c + 1} undecided"
        columns = list(zip(*grid, strict=True))
        lines = (("row", puzzle.rows, grid), ("column", puzzle.columns, columns))
        for kind, clues, cells in lines:
            for i, (clue, line) in enumerate(zip(clues, cells, strict=True), 1):
                if clue is not None and (got := line_clue(line)) != clue:
                    return (f"solution {number} breaks {kind} {i} (clue is {clue_text(clue)} "
                            f"but the cells give {clue_text(got)})")
    return None


def _check_output(source: str, out: str) -> None:
    """Refuse to overwrite the input, and fail before solving on an unknown extension."""
    from autoplayer.games.nonogram.formats import FORMATS, format_for_extension

    if is_stdio(out):
        return  # the native format, which carries a solution
    fmt = format_for_extension(out)
    with_solution = [f for f in FORMATS.values() if "solution" in f.carries]
    known = ", ".join(f"{ext} ({f.name})" for f in with_solution for ext in f.extensions)
    if fmt is None:
        raise UserError(f"{out}: cannot tell the output format from the extension; "
                        f"use one of {known} (or - for the native format on stdout)")
    if "solution" not in FORMATS[fmt].carries:
        raise UserError(f"{out}: the {fmt} format cannot hold a solution; use one of {known}")
    if same_file(source, out):
        raise UserError(f"{out}: is the input file; refusing to overwrite it")
