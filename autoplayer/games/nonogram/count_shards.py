"""A count cut into shards that any worker can run, and the checkpoint that keeps them.

A shard is a set of blocks of consecutive row-clue groups (see
`count_kernel.count_groups`), dealt out across the whole range of groups: the work
is far from even along it (the symmetry savings skip almost every group past the
first quarter, whose row clues are not the least of their mirror images), so a
shard of consecutive groups would take minutes or nothing. The blocks are numbered
in a scrambled order (an affine permutation) and shard i takes every S-th of them,
so every shard samples the whole range and costs about the same. The plan depends
on the size and on `--unique` alone, never on the workers, so every machine cuts the
same shards, a checkpoint written by one run is valid for any other, and the answer
is the same sum whatever ran it. Shards hold about SHARD_GRIDS grids each (a few
CPU-minutes); small sizes get MIN_SHARDS.

The checkpoint directory holds `plan.json` (what is counted, how it is cut) and
`shards.jsonl`, one JSON line per finished shard, appended with a single write and
fsynced: a run killed at any moment leaves whole lines and at most one torn last
line, which the next run drops. Each line names its shard, its group range, its
counts, its CPU seconds and the worker that ran it, so the total can be audited (and
any shard recounted) line by line.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from math import gcd
from pathlib import Path

from autoplayer.errors import UserError, printable
from autoplayer.games.nonogram.count import _plan, count_range

SHARD_GRIDS = 1 << 35
"""Grids a shard spans: a few CPU-minutes of the kernel (about 5-10 ns a grid)."""

MIN_SHARDS = 16
"""Small sizes still get this many (fewer only when there are fewer groups), so a
local cluster has something to share and a resume something to skip."""

ENUMERATION = 2
"""Bumped whenever group numbering or the dealing of blocks changes: a shard then
means other grids, so an older checkpoint must be refused rather than mixed in."""

PLAN_FILE = "plan.json"
RESULTS_FILE = "shards.jsonl"
LOCK_FILE = "lock"


@dataclass(frozen=True)
class ShardPlan:
    rows: int
    columns: int
    unique: bool
    shards: int
    block: int
    """Groups in a block (the last block may hold fewer)."""
    groups: int
    """Row-clue groups in all (`_plan(rows, columns).n_groups`)."""
    step: int
    """Block j of the scrambled order is block (j * step) % blocks; coprime to blocks."""

    @property
    def blocks(self) -> int:
        return -(-self.groups // self.block)

    @property
    def grids(self) -> int:
        return 1 << (self.rows * self.columns)

    def label(self) -> str:
        return f"{self.rows}x{self.columns}{' --unique' if self.unique else ''}"

    def ranges(self, shard: int) -> list[tuple[int, int]]:
        """The group ranges of one shard, in order."""
        out = []
        for j in range(shard, self.blocks, self.shards):
            b = j * self.step % self.blocks
            out.append((b * self.block, min((b + 1) * self.block, self.groups)))
        return sorted(out)

    def shard_groups(self, shard: int) -> int:
        return sum(hi - lo for lo, hi in self.ranges(shard))

    def header(self) -> dict:
        return {"format": 2, "enumeration": ENUMERATION, "rows": self.rows,
                "columns": self.columns, "unique": self.unique, "grids": self.grids,
                "shards": self.shards, "groups": self.groups, "block": self.block,
                "step": self.step}


@dataclass(frozen=True)
class ShardResult:
    shard: int
    groups: int
    """Row-clue groups the shard covers."""
    grids: int
    """Grids the shard's counts stand for (mirror images included): sums to 2^(N*M)."""
    line_solvable: int
    unique: int | None
    cpu_seconds: float
    worker: str

    def line(self) -> str:
        return json.dumps({
            "shard": self.shard, "groups": self.groups, "grids": self.grids,
            "line_solvable": self.line_solvable, "unique": self.unique,
            "cpu_seconds": round(self.cpu_seconds, 3), "worker": self.worker,
            "finished": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }, separators=(",", ":")) + "\n"


BLOCKS_PER_SHARD = 256
"""Blocks a shard is dealt: enough that every shard samples the whole range evenly."""


@cache
def plan_shards(rows: int, columns: int, unique: bool) -> ShardPlan:
    """About SHARD_GRIDS grids a shard, in blocks dealt across all the groups."""
    groups = _plan(rows, columns).n_groups
    total = 1 << (rows * columns)
    shards = min(groups, max(MIN_SHARDS, -(-total // SHARD_GRIDS)))
    block = max(1, groups // (shards * BLOCKS_PER_SHARD))
    blocks = -(-groups // block)
    step = max(1, round(blocks * 0.6180339887))  # golden ratio: neighbours land far apart
    while gcd(step, blocks) != 1:
        step += 1
    return ShardPlan(rows, columns, unique, shards, block, groups, step)


def run_shard(rows: int, columns: int, unique: bool, shard: int) -> ShardResult:
    """Count one shard here (a worker process or a thread); CPU time is this thread's."""
    plan = plan_shards(rows, columns, unique)
    p = _plan(rows, columns)
    count_range(p, 0, 0, unique)  # compiled or loaded before the clock starts
    began = time.thread_time()
    grids = solvable = unique_count = 0
    for lo, hi in plan.ranges(shard):
        g, s, u = count_range(p, lo, hi, unique)
        grids += g
        solvable += s
        unique_count += u
    cpu = time.thread_time() - began
    return ShardResult(shard, plan.shard_groups(shard), int(grids), int(solvable),
                       int(unique_count) if unique else None, cpu,
                       f"{socket.gethostname()}:{os.getpid()}")


Runner = Callable[[Iterable[int]], Iterator[ShardResult]]
"""Runs shards of one plan and yields their results as they finish."""


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
            result = ShardResult(shard, record["groups"], record["grids"],
                                 record["line_solvable"],
                                 record["unique"], float(record["cpu_seconds"]),
                                 str(record["worker"]))
        except (ValueError, KeyError, TypeError):
            return None
        if not (isinstance(shard, int) and 0 <= shard < self.plan.shards
                and result.groups == self.plan.shard_groups(shard)
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
    """Run every shard the checkpoint lacks and add them up."""
    began = time.perf_counter()
    done: dict[int, ShardResult] = dict(checkpoint.done) if checkpoint else {}
    resumed = len(done)
    # Progress counts each shard's grids as its counts stand for them (all add up to
    # 2^(N*M)): shards are dealt evenly, so these are about equal.
    grids_done = sum(r.grids for r in done.values())
    todo = [i for i in range(plan.shards) if i not in done]
    if progress:
        progress(grids_done, plan.grids, len(done), plan.shards)
    for result in runner(iter(todo)):
        if checkpoint:
            checkpoint.append(result)
        done[result.shard] = result
        grids_done += result.grids
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

    def run(tasks: Iterable[int]) -> Iterator[ShardResult]:
        queue = iter(tasks)
        pending: set[Future] = set()
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="shard") as pool:
            try:
                while True:
                    pending |= {pool.submit(run_shard, plan.rows, plan.columns, plan.unique, t)
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

