"""`autoplayer count N [M]`: how many N×M nonograms line logic solves (and have one solution).

Output is one `key value` line each, for scripts: `size NxM`, `grids`,
`line-solvable`, `unique` (with --unique), `seconds`. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from autoplayer.commands import summary
from autoplayer.errors import UserError

MAX_JOBS = 256
"""Threads beyond the CPUs only share them; past this many they cost memory (a stack
each) and gain nothing on any machine the count could finish on."""
BAR_WIDTH = 30
PLAIN_EVERY = 10.0
"""Seconds between progress lines when stderr is not a terminal (a log, CI)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
    parser = subparsers.add_parser(
        "count",
        help=summary("count"),
        description=(
            "Enumerate every grid of N rows and M columns and count those whose clues the "
            "complete line solver, repeated over rows and columns to a fixpoint, solves from "
            "an empty grid; with --unique also the clue sets that have exactly one solution. "
            "Prints `key value` lines: size, grids, line-solvable, unique, seconds."
        ),
    )
    parser.add_argument("rows", metavar="N", help="rows (0..8)")
    parser.add_argument("columns", nargs="?", metavar="M", help="columns (0..8; default N)")
    parser.add_argument(
        "--unique", action="store_true",
        help="also count clue sets with exactly one solution (OEIS A242876 for squares)",
    )
    parser.add_argument(
        "--jobs", metavar="J",
        help=f"threads to count on, 1..{MAX_JOBS} (default: the CPUs this process may use)")
    parser.add_argument("--json", action="store_true",
                        help="print the counts as one JSON object (keys in docs/cli.md)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from autoplayer.commands.options import integer
    from autoplayer.games.nonogram.count import MAX_SIDE, check_size, count_grids, default_jobs

    sides = f"0..{MAX_SIDE}"
    rows = integer(args.rows, "N", limit=sides)
    columns = rows if args.columns is None else integer(args.columns, "M", limit=sides)
    check_size(rows, columns)
    jobs = default_jobs() if args.jobs is None else integer(args.jobs, "--jobs",
                                                            limit=f"1..{MAX_JOBS}")
    if not 1 <= jobs <= MAX_JOBS:
        raise UserError(f"--jobs must be at least 1 and at most {MAX_JOBS}, not {jobs}")
    bar = ProgressBar(sys.stderr, f"{rows}x{columns}")
    try:
        result = count_grids(rows, columns, unique=args.unique, jobs=jobs, progress=bar.update)
    finally:
        bar.close()
    if args.json:
        from autoplayer.commands.batch import emit_json

        emit_json({"ok": True, "rows": result.rows, "columns": result.columns,
                   "width": result.columns, "height": result.rows, "grids": result.grids,
                   "line_solvable": result.line_solvable, "unique": result.unique,
                   "seconds": round(result.seconds, 6), "error": None})
        return 0
    print(f"size {result.rows}x{result.columns}")
    print(f"grids {result.grids}")
    print(f"line-solvable {result.line_solvable}")
    if result.unique is not None:
        print(f"unique {result.unique}")
    print(f"seconds {result.seconds:.3f}")
    return 0


class ProgressBar:
    """A redrawn bar on a terminal; otherwise a plain line every PLAIN_EVERY seconds."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream = stream
        self.label = label
        self.tty = stream.isatty()
        self.began = time.monotonic()
        self.last = self.began
        self.drawn = False

    def update(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.tty and now - self.last < 0.1 and done < total:
            return
        if not self.tty and now - self.last < PLAIN_EVERY:
            return
        self.last = now
        elapsed = now - self.began
        fraction = done / total if total else 1.0
        eta = elapsed * (1 - fraction) / fraction if fraction else 0.0
        counts = f"{done}/{total} grids, {elapsed:.1f} s, {eta:.0f} s left"
        if self.tty:
            filled = round(BAR_WIDTH * fraction)
            bar = "#" * filled + "." * (BAR_WIDTH - filled)
            self.stream.write(f"\rcount {self.label} [{bar}] {fraction:6.1%} {counts} ")
            self.drawn = True
        else:
            self.stream.write(f"count {self.label}: {fraction:.1%} ({counts})\n")
        self.stream.flush()

    def close(self) -> None:
        """Leave the terminal line clean for whatever is printed next."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
