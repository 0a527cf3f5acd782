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

MAX_CLUSTER_CELLS = 56
"""As `count.MAX_CLUSTER_CELLS` (not imported here: that module brings numpy)."""
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
    parser.add_argument(
        "--cluster", metavar="WHERE",
        help="count in shards on Dask distributed (the [cluster] extra): `local` starts a "
        "local cluster, an ADDRESS (host:port of a `dask scheduler`) joins one; "
        f"allows up to {MAX_CLUSTER_CELLS} cells")
    parser.add_argument(
        "--workers", metavar="W",
        help=f"worker processes of --cluster local, 1..{MAX_JOBS} (default: the CPUs)")
    parser.add_argument(
        "--checkpoint", metavar="DIR",
        help="count in shards and append each finished one to DIR/shards.jsonl; rerun with "
        "the same DIR to resume where a run stopped")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from autoplayer.commands.options import integer
    from autoplayer.games.nonogram.count import (
        MAX_CELLS,
        MAX_SIDE,
        check_size,
        count_grids,
        default_jobs,
    )

    sides = f"0..{MAX_SIDE}"
    rows = integer(args.rows, "N", limit=sides)
    columns = rows if args.columns is None else integer(args.columns, "M", limit=sides)
    check_size(rows, columns,
               most_cells=MAX_CLUSTER_CELLS if args.cluster is not None else MAX_CELLS)
    jobs = default_jobs() if args.jobs is None else integer(args.jobs, "--jobs",
                                                            limit=f"1..{MAX_JOBS}")
    if not 1 <= jobs <= MAX_JOBS:
        raise UserError(f"--jobs must be at least 1 and at most {MAX_JOBS}, not {jobs}")
    if args.workers is not None and args.cluster != "local":
        raise UserError("--workers sets the size of --cluster local; a joined cluster has "
                        "the workers it has")
    if args.cluster is not None or args.checkpoint is not None:
        return run_sharded(args, rows, columns, jobs)
    bar = ProgressBar(sys.stderr, f"{rows}x{columns}")
    cpu = time.process_time()
    try:
        result = count_grids(rows, columns, unique=args.unique, jobs=jobs, progress=bar.update)
    finally:
        bar.close()
    report(args, result.rows, result.columns, result.grids, result.line_solvable,
           result.unique, result.seconds, time.process_time() - cpu, None)
    return 0


def run_sharded(args: argparse.Namespace, rows: int, columns: int, jobs: int) -> int:
    """The count in shards: on threads here, or on a Dask cluster; checkpointed to a DIR."""
    from autoplayer.commands.options import integer
    from autoplayer.games.nonogram.count_shards import (
        Checkpoint,
        count_sharded,
        plan_shards,
        thread_runner,
    )

    workers = jobs
    if args.workers is not None:
        workers = integer(args.workers, "--workers", limit=f"1..{MAX_JOBS}")
        if not 1 <= workers <= MAX_JOBS:
            raise UserError(f"--workers must be at least 1 and at most {MAX_JOBS}, not {workers}")
    if rows * columns == 0:
        raise UserError("an empty grid has nothing to shard: drop --cluster and --checkpoint")
    began = time.perf_counter()
    plan = plan_shards(rows, columns, args.unique)
    checkpoint = Checkpoint(args.checkpoint, plan) if args.checkpoint is not None else None
    try:
        if checkpoint and checkpoint.done:
            print(f"count {plan.label()}: resuming from {args.checkpoint}, "
                  f"{len(checkpoint.done)} of {plan.shards} shards done", file=sys.stderr)
        bar = ProgressBar(sys.stderr, f"{rows}x{columns}")
        try:
            if args.cluster is None:
                result = count_sharded(plan, thread_runner(plan, jobs), checkpoint, bar.shards)
            else:
                from autoplayer.games.nonogram.count_cluster import dask_client, dask_runner

                with dask_client(args.cluster, workers) as client:
                    result = count_sharded(plan, dask_runner(client, plan), checkpoint,
                                           bar.shards)
        finally:
            bar.close()
    finally:
        if checkpoint:
            checkpoint.close()
    # Wall time of this run, a cluster's start included; CPU of every shard, resumed or not.
    report(args, rows, columns, plan.grids, result.line_solvable, result.unique,
           time.perf_counter() - began, result.cpu_seconds, plan.shards)
    return 0


def report(args: argparse.Namespace, rows: int, columns: int, grids: int, solvable: int,
           unique: int | None, seconds: float, cpu: float, shards: int | None) -> None:
    """`key value` lines, or one JSON object with --json."""
    if args.json:
        from autoplayer.commands.batch import emit_json

        emit_json({"ok": True, "rows": rows, "columns": columns, "width": columns,
                   "height": rows, "grids": grids, "line_solvable": solvable,
                   "unique": unique, "seconds": round(seconds, 6),
                   "cpu_seconds": round(cpu, 3), "shards": shards, "error": None})
        return
    print(f"size {rows}x{columns}")
    print(f"grids {grids}")
    print(f"line-solvable {solvable}")
    if unique is not None:
        print(f"unique {unique}")
    print(f"seconds {seconds:.3f}")
    print(f"cpu-seconds {cpu:.3f}")
    if shards is not None:
        print(f"shards {shards}")


class ProgressBar:
    """A redrawn bar on a terminal; otherwise a plain line every PLAIN_EVERY seconds."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream = stream
        self.label = label
        self.tty = stream.isatty()
        self.began = time.monotonic()
        self.last = self.began
        self.drawn = False
        self.start = 0
        """Grids already done when this run began (a resumed checkpoint's): not in the rate."""
        self.note = ""

    def shards(self, done: int, total: int, shards_done: int, shards: int) -> None:
        """`count_sharded`'s progress: grids as in `update`, and the shards; its first call
        (before any shard of this run) gives the checkpoint's grids."""
        first = not self.note
        self.note = f", {shards_done}/{shards} shards"
        if first:
            self.start = done
            return
        self.update(done, total)

    def update(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.tty and now - self.last < 0.1 and done < total:
            return
        if not self.tty and now - self.last < PLAIN_EVERY:
            return
        self.last = now
        elapsed = now - self.began
        fraction = done / total if total else 1.0
        rate = (done - self.start) / elapsed if elapsed > 0 else 0.0
        eta = f"{(total - done) / rate:.0f} s left" if rate > 0 else "time left unknown"
        counts = (f"{done}/{total} grids{self.note}, {rate:.3g} grids/s, {elapsed:.1f} s, "
                  f"{eta}")
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
