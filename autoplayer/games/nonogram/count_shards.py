"""A count cut into shards that any worker can run, and the checkpoint that keeps them.

A shard is a range of row-clue groups (see `count_kernel.count_groups`). The plan
depends on the size and on `--unique` alone, never on the workers, so every machine
cuts the same shards, a checkpoint written by one run is valid for any other, and the
answer is the same sum whatever ran it. Shards hold about SHARD_GRIDS grids each
(a few CPU-minutes), counted by the groups they span; small sizes get MIN_SHARDS.

The checkpoint directory holds `plan.json` (what is counted, how it is cut) and
`shards.jsonl`, one JSON line per finished shard, appended with a single write and
fsynced: a run killed at any moment leaves whole lines and at most one torn last
line, which the next run drops. Each line names its shard, its group range, its
counts, its CPU seconds and the worker that ran it, so the total can be audited (and
any shard recounted) line by line.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import random
import socket
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from itertools import pairwise
from pathlib import Path

from autoplayer.errors import UserError, printable
from autoplayer.games.nonogram.count import _plan, count_range

SHARD_GRIDS = 1 << 35
"""Grids a shard spans: a few CPU-minutes of the kernel (about 5-10 ns a grid)."""

MIN_SHARDS = 16
"""Small sizes still get this many (fewer only when there are fewer groups), so a
local cluster has something to share and a resume something to skip."""

ENUMERATION = 1
"""Bumped whenever group numbering changes: a shard's range then means other grids,
so an older checkpoint must be refused rather than mixed in."""

PLAN_FILE = "plan.json"
RESULTS_FILE = "shards.jsonl"
LOCK_FILE = "lock"


@dataclass(frozen=True)
class ShardPlan:
    rows: int
    columns: int
    unique: bool
    bounds: tuple[int, ...]
    """Shard i is the groups [bounds[i], bounds[i + 1])."""

    @property
    def shards(self) -> int:
        return len(self.bounds) - 1

    @property
    def grids(self) -> int:
        return 1 << (self.rows * self.columns)

    def label(self) -> str:
        return f"{self.rows}x{self.columns}{' --unique' if self.unique else ''}"

    def digest(self) -> str:
        """One hash of the bounds, so plan.json need not list thousands of them."""
        text = ",".join(map(str, self.bounds)).encode()
        return hashlib.sha256(text).hexdigest()[:16]

    def header(self) -> dict:
        return {"format": 1, "enumeration": ENUMERATION, "rows": self.rows,
                "columns": self.columns, "unique": self.unique, "grids": self.grids,
                "shards": self.shards, "groups": self.bounds[-1],
                "bounds_sha256": self.digest()}


@dataclass(frozen=True)
class ShardResult:
    shard: int
    lo: int
    hi: int
    grids: int
    """Grids the shard's counts stand for (mirror images included): sums to 2^(N*M)."""
    line_solvable: int
    unique: int | None
    cpu_seconds: float
    worker: str

    def line(self) -> str:
        return json.dumps({
            "shard": self.shard, "groups": [self.lo, self.hi], "grids": self.grids,
            "line_solvable": self.line_solvable, "unique": self.unique,
            "cpu_seconds": round(self.cpu_seconds, 3), "worker": self.worker,
            "finished": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }, separators=(",", ":")) + "\n"


@cache
def _clue_sizes(rows: int, columns: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How many row values each row clue has (a group's grids are their product), and
    how many all lesser clues have."""
    start = _plan(rows, columns).args[3]  # class_start: row values grouped by clue
    sizes = tuple(int(b - a) for a, b in pairwise(start))
    return sizes, tuple(int(v) for v in start[:-1])


def grids_before(rows: int, columns: int, group: int) -> int:
    """Grids in all groups numbered below `group` (digit r of a group is row r's clue).

    A lesser group agrees with `group` on the rows above some row r and has a lesser
    clue at r, with any clues below: sum those choices from the top row down.
    """
    sizes, below = _clue_sizes(rows, columns)
    n_clues = len(sizes)
    if group >= n_clues**rows:
        return 1 << (rows * columns)
    digits = []
    for _ in range(rows):
        digits.append(group % n_clues)
        group //= n_clues
    count = 0
    above = 1  # grids of the rows above r when they keep `group`'s clues
    for r in range(rows - 1, -1, -1):
        count += below[digits[r]] * above << (columns * r)
        above *= sizes[digits[r]]
    return count


@cache
def plan_shards(rows: int, columns: int, unique: bool) -> ShardPlan:
    """Cut the groups into shards of about SHARD_GRIDS grids each."""
    n_groups = _plan(rows, columns).n_groups
    total = 1 << (rows * columns)
    wanted = min(n_groups, max(MIN_SHARDS, -(-total // SHARD_GRIDS)))
    bounds = [0]
    for i in range(1, wanted):
        target = total * i // wanted
        lo, hi = bounds[-1], n_groups  # the least group with target grids before it
        while lo < hi:
            mid = (lo + hi) // 2
            if grids_before(rows, columns, mid) < target:
                lo = mid + 1
            else:
                hi = mid
        if lo > bounds[-1]:
            bounds.append(lo)
    bounds.append(n_groups)
    return ShardPlan(rows, columns, unique, tuple(bounds))


def nominal_grids(plan: ShardPlan, shard: int) -> int:
    """Grids in the shard's groups before mirror savings: what progress counts."""
    lo, hi = plan.bounds[shard], plan.bounds[shard + 1]
    return grids_before(plan.rows, plan.columns, hi) - grids_before(plan.rows, plan.columns, lo)


def run_shard(rows: int, columns: int, unique: bool, shard: int, lo: int, hi: int) -> ShardResult:
    """Count one shard here (a worker process or a thread); CPU time is this thread's."""
    p = _plan(rows, columns)
    count_range(p, lo, lo, unique)  # compiled or loaded before the clock starts
    began = time.thread_time()
    grids, solvable, unique_count = count_range(p, lo, hi, unique)
    cpu = time.thread_time() - began
    return ShardResult(shard, lo, hi, int(grids), int(solvable),
                       int(unique_count) if unique else None, cpu,
                       f"{socket.gethostname()}:{os.getpid()}")


Runner = Callable[[Iterable[tuple[int, int, int]]], Iterator[ShardResult]]
"""Runs (shard, lo, hi) tasks of one plan and yields their results as they finish."""


class Checkpoint:
    """A directory of shard results for one plan, locked while a count uses it."""

    def __init__(self, directory: str | Path, plan: ShardPlan) -> None:
        self.dir = Path(directory)
        self.plan = plan
        shown = printable(str(self.dir))
        if self.dir.exists() and not self.dir.is_dir():
            raise UserError(f"--checkpoint {shown} is a file, not a directory")
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            self._lock = os.open(self.dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise UserError(f"cannot use --checkpoint {shown}: {error.strerror}") from None
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._lock)
            raise UserError(f"checkpoint {shown} is in use by another count") from None
        try:
            self._check_plan(shown)
            self.done = self._load(shown)
        except BaseException:
            self.close()
            raise
        self._out = os.open(self.dir / RESULTS_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                            0o644)

    def _check_plan(self, shown: str) -> None:
        path = self.dir / PLAN_FILE
        header = self.plan.header()
        if not path.exists():
            if (self.dir / RESULTS_FILE).exists():
                raise UserError(f"checkpoint {shown} has shard results but no {PLAN_FILE}: "
                                "use an empty directory")
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(header, indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, path)
            return
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
            label = f"{old['rows']}x{old['columns']}{' --unique' if old['unique'] else ''}"
        except (ValueError, KeyError, TypeError):
            raise UserError(f"checkpoint {shown}: {PLAN_FILE} is not a count plan") from None
        if old != header:
            what = (f"shards of {label}" if label != self.plan.label()
                    else f"shards of {label} cut another way (enumeration "
                         f"{old.get('enumeration')}, {old.get('shards')} shards)")
            raise UserError(f"checkpoint {shown} holds {what}, not of {self.plan.label()}: "
                            "use another directory")

    def _load(self, shown: str) -> dict[int, ShardResult]:
        path = self.dir / RESULTS_FILE
        if not path.exists():
            return {}
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):  # a run killed mid-write: drop the torn line
            keep = data.rfind(b"\n") + 1
            os.truncate(path, keep)
            data = data[:keep]
        done: dict[int, ShardResult] = {}
        for number, text in enumerate(data.decode("utf-8").splitlines(), 1):
            result = self._parse(text)
            if result is None:
                raise UserError(f"checkpoint {shown}/{RESULTS_FILE} line {number} is not a "
                                f"shard of this plan")
            if result.shard in done and done[result.shard].line_solvable != result.line_solvable:
                raise UserError(f"checkpoint {shown}/{RESULTS_FILE} line {number} counts shard "
                                f"{result.shard} differently from an earlier line")
            done[result.shard] = result
        return done

    def _parse(self, text: str) -> ShardResult | None:
        try:
            record = json.loads(text)
            shard = record["shard"]
            lo, hi = record["groups"]
            result = ShardResult(shard, lo, hi, record["grids"], record["line_solvable"],
                                 record["unique"], float(record["cpu_seconds"]),
                                 str(record["worker"]))
        except (ValueError, KeyError, TypeError):
            return None
        bounds = self.plan.bounds
        if not (isinstance(shard, int) and 0 <= shard < self.plan.shards
                and (lo, hi) == (bounds[shard], bounds[shard + 1])
                and (result.unique is None) != self.plan.unique):
            return None
        return result

    def append(self, result: ShardResult) -> None:
        """One write of one whole line, on disk before the shard counts as done."""
        data = result.line().encode()
        if os.write(self._out, data) != len(data):
            raise OSError(f"short write to {self.dir / RESULTS_FILE}")
        os.fsync(self._out)
        self.done[result.shard] = result

    def close(self) -> None:
        for name in ("_out", "_lock"):
            fd = getattr(self, name, None)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)


@dataclass(frozen=True)
class ShardedCount:
    plan: ShardPlan
    line_solvable: int
    unique: int | None
    cpu_seconds: float
    """Kernel CPU of every shard, this run's and the checkpoint's."""
    resumed: int
    """Shards taken from the checkpoint rather than counted in this run."""
    seconds: float


ShardProgress = Callable[[int, int, int, int], None]
"""Called with (grids done, grids in all, shards done, shards in all)."""


def count_sharded(
    plan: ShardPlan,
    runner: Runner,
    checkpoint: Checkpoint | None = None,
    progress: ShardProgress | None = None,
) -> ShardedCount:
    """Run every shard the checkpoint lacks (in a fixed shuffled order) and add them up."""
    began = time.perf_counter()
    done: dict[int, ShardResult] = dict(checkpoint.done) if checkpoint else {}
    resumed = len(done)
    nominal = [nominal_grids(plan, i) for i in range(plan.shards)]
    grids_done = sum(nominal[i] for i in done)
    todo = [i for i in range(plan.shards) if i not in done]
    # Least groups of each mirror set come early: a shuffled order keeps the rate even.
    random.Random(0).shuffle(todo)
    if progress:
        progress(grids_done, plan.grids, len(done), plan.shards)
    for result in runner((i, plan.bounds[i], plan.bounds[i + 1]) for i in todo):
        if checkpoint:
            checkpoint.append(result)
        done[result.shard] = result
        grids_done += nominal[result.shard]
        if progress:
            progress(grids_done, plan.grids, len(done), plan.shards)
    results = [done[i] for i in range(plan.shards)]
    grids = sum(r.grids for r in results)
    if grids != plan.grids:
        raise AssertionError(f"shards add up to {grids} grids, expected {plan.grids}")
    return ShardedCount(
        plan, sum(r.line_solvable for r in results),
        sum(r.unique or 0 for r in results) if plan.unique else None,
        sum(r.cpu_seconds for r in results), resumed, time.perf_counter() - began,
    )


def thread_runner(plan: ShardPlan, jobs: int) -> Runner:
    """Shards on `jobs` threads of this process (the kernel releases the GIL)."""
    from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
    from itertools import islice

    def run(tasks: Iterable[tuple[int, int, int]]) -> Iterator[ShardResult]:
        queue = iter(tasks)
        pending: set[Future] = set()
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="shard") as pool:
            try:
                while True:
                    pending |= {pool.submit(run_shard, plan.rows, plan.columns, plan.unique, *t)
                                for t in islice(queue, 2 * jobs - len(pending))}
                    if not pending:
                        return
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        yield future.result()
            finally:
                for future in pending:
                    future.cancel()

    return run

