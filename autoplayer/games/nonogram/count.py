"""Counting the N×M nonograms that line logic alone solves, and those with one solution.

"Line-solvable" (the SolvableNonogram write-up's "locally solvable"): start
from an all-unknown grid and apply the *complete* line solver (it decides every
cell on which all placements of a line's clue, consistent with the line's known
cells, agree) to rows and columns until nothing changes; the grid counts when
every cell is decided. Every grid's clues have at least one solution (the grid),
so no line ever contradicts, and a line-solvable clue set has exactly one
solution: counting grids and counting clue sets agree.

The line solver is a table. Because it is sound, each cell it decides equals
the grid's own cell, so its answer depends only on the true line `t` and the
mask `k` of cells already decided: `line_table(n)[t << n | k]` is the new mask.
That is 4^n bytes (64 KiB for n = 8), built once by enumerating placements.

The compiled loop over grids (`count_kernel`) enumerates them in groups that
share every row's clue and skips grids that mirrors and (on squares) the
transpose show to count the same as a grid it does propagate.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import cache
from itertools import islice, pairwise

import numpy as np

from autoplayer.errors import UserError
from autoplayer.games.nonogram.model import Clue, line_clue

MAX_SIDE = 8
"""Boards are packed into one 64-bit word, and 4^n-entry line tables stay in cache."""

MAX_CELLS = 48
"""2^48 grids is 4096 times 6×6 (about 20 CPU minutes): months of CPU time on one
machine; larger counts are taken only with --cluster."""

MAX_CLUSTER_CELLS = 56
"""With --cluster: 7x8 still fits an int64 board with room for the kernel's masks."""

MAX_GROUP = 1 << 25
"""Largest row-clue group `--unique` keys at once (a hash table of 34-68 bytes a grid,
per job: 1.1 GB at most)."""

Progress = Callable[[int, int], None]
"""Called with (grids done, grids in all) as batches finish."""


@dataclass(frozen=True)
class CountResult:
    rows: int
    columns: int
    grids: int
    line_solvable: int
    unique: int | None
    """Clue sets with exactly one solution; None when not asked for."""
    seconds: float


def check_size(rows: int, columns: int, *, most_cells: int = MAX_CELLS) -> None:
    """Refuse sizes the count cannot hold or finish, with the reason.

    `most_cells` is MAX_CELLS on one machine; a cluster takes up to MAX_CLUSTER_CELLS.
    """
    for name, value in (("N", rows), ("M", columns)):
        if not 0 <= value <= MAX_SIDE:
            raise UserError(
                f"{name}={value} is outside 0..{MAX_SIDE}: a grid is held in one 64-bit "
                f"word, so {MAX_SIDE}x{MAX_SIDE} is the largest square that fits"
            )
    cells = rows * columns
    if cells > MAX_CLUSTER_CELLS:
        raise UserError(
            f"{rows}x{columns} has 2^{cells} grids; counts above 2^{MAX_CLUSTER_CELLS} grids "
            f"are refused: a grid must fit one 64-bit word with room for the kernel's masks"
        )
    if cells > most_cells:
        raise UserError(
            f"{rows}x{columns} has 2^{cells} grids; counts above 2^{most_cells} grids need "
            f"--cluster (7x7 takes about 1,500-2,000 core-hours: docs/counts.md)"
        )


def _clue_of_bits(value: int, length: int) -> Clue:
    return line_clue([(value >> i) & 1 for i in range(length)])


@cache
def line_clues(length: int) -> tuple[tuple[Clue, ...], np.ndarray]:
    """Every clue of a line of `length` cells, and each line value's clue id (index)."""
    ids = np.zeros(1 << length, dtype=np.int64)
    clues: dict[Clue, int] = {}
    for value in range(1 << length):
        ids[value] = clues.setdefault(_clue_of_bits(value, length), len(clues))
    return tuple(clues), ids


@cache
def line_table(length: int) -> np.ndarray:
    """`[t << length | k]` → the mask of cells the complete line solver decides.

    `t` is the true line (its clue is the clue), `k` the cells known so far
    (known as in `t`). A cell is decided when every line with the same clue
    that agrees with `t` on `k` also agrees with `t` on that cell.
    """
    n = 1 << length
    mask = n - 1
    _, ids = line_clues(length)
    known = np.arange(n, dtype=np.int64)
    table = np.zeros(n * n, dtype=np.uint8)
    for cid in range(int(ids.max()) + 1):
        lines = np.flatnonzero(ids == cid).astype(np.int64)
        diff = lines[:, None] ^ lines[None, :]  # [true line, other placement]
        agrees = (diff[:, :, None] & known[None, None, :]) == 0
        varies = np.bitwise_or.reduce(np.where(agrees, diff[:, :, None], 0), axis=1)
        table[(lines[:, None] << length) | known[None, :]] = ~varies & mask
    return table


def spread_table(length: int, stride: int) -> np.ndarray:
    """`[v]` → v with its bit i moved to bit i*stride (a line into a transposed board)."""
    values = np.arange(1 << length, dtype=np.int64)
    out = np.zeros(1 << length, dtype=np.int64)
    for i in range(length):
        out |= ((values >> i) & 1) << (i * stride)
    return out


@dataclass(frozen=True)
class _Plan:
    """Everything the kernel reads for H rows of W cells."""

    width: int
    height: int
    n_groups: int
    max_group: int
    args: tuple


@cache
def _plan(height: int, width: int) -> _Plan:
    row_clues, row_ids = line_clues(width)
    col_clues, col_ids = line_clues(height)
    order = np.argsort(row_ids, kind="stable")
    class_values = order.astype(np.int64)  # row values, grouped by clue id
    class_start = np.searchsorted(row_ids[order], np.arange(len(row_clues) + 1)).astype(np.int64)
    row_table = line_table(width)
    row_first = row_table[class_values[class_start[:-1]] << width]
    sizes = np.diff(class_start)
    mirror = np.array([row_clues.index(clue[::-1]) for clue in row_clues], dtype=np.int64)
    args = (
        row_table, line_table(height), row_first, class_start, class_values,
        spread_table(width, height), spread_table(height, width),
        column_key_table(width, col_ids, len(col_clues), mirror if width == height else None),
        len(row_clues), mirror, width == height,
    )
    return _Plan(width, height, len(row_clues) ** height, int(sizes.max()) ** height, args)


def column_key_table(width: int, col_ids: np.ndarray, n_col_clues: int,
                     mirror: np.ndarray | None) -> np.ndarray:
    """`[image, c, v]`: column c's share, when its value is v, of a grid's column-clue key.

    The key is the column clue ids as base-`n_col_clues` digits, column c the digit of
    n^c (image 0); image 1 is the left-right mirror's key (column c at n^(W-1-c)),
    images 2 and 3 those two with each clue reversed (the top-bottom mirror; squares
    only, where row and column clues are one set and `mirror` maps them).
    """
    table = np.zeros((4, width, len(col_ids)), dtype=np.int64)
    for c in range(width):
        table[0, c] = col_ids * n_col_clues**c
        table[1, c] = col_ids * n_col_clues ** (width - 1 - c)
        if mirror is not None:
            table[2, c] = mirror[col_ids] * n_col_clues**c
            table[3, c] = mirror[col_ids] * n_col_clues ** (width - 1 - c)
    return table


def count_range(plan: _Plan, lo: int, hi: int, unique: bool) -> tuple[int, int, int]:
    """(grids, line-solvable, unique) of the groups [lo, hi): the compiled kernel's."""
    from autoplayer.games.nonogram.count_kernel import count_groups

    return count_groups(plan.width, plan.height, lo, hi, unique, *plan.args)


def count_grids(
    rows: int,
    columns: int,
    *,
    unique: bool = False,
    jobs: int = 1,
    batches: int | None = None,
    progress: Progress | None = None,
) -> CountResult:
    """Count over all grids of `rows` × `columns` cells, on `jobs` threads."""
    check_size(rows, columns)
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, not {jobs}")
    began = time.perf_counter()
    total = 1 << (rows * columns)
    if rows * columns == 0:  # the single empty grid: nothing to decide
        if progress:
            progress(total, total)
        return CountResult(rows, columns, 1, 1, 1 if unique else None, 0.0)
    plan = _plan(rows, columns)
    if unique and plan.max_group > MAX_GROUP:
        raise UserError(
            f"--unique on {rows}x{columns} would key {plan.max_group} grids at once "
            f"(more than {MAX_GROUP}); use a smaller size"
        )
    # Enough batches to share work evenly and show progress every few seconds.
    n = batches or min(plan.n_groups, max(32 * jobs, total >> 22))
    bounds = [plan.n_groups * i // n for i in range(n + 1)]
    # Least groups of each mirror set come early, so batches in a fixed
    # shuffled order make the progress (and its time left) even.
    batch_list = [(lo, hi) for lo, hi in pairwise(bounds) if hi > lo]
    random.Random(0).shuffle(batch_list)
    done = solvable = unique_count = 0

    def run(lo: int, hi: int) -> tuple[int, int, int]:
        return count_range(plan, lo, hi, unique)

    # Batches are handed out a few at a time: a million queued futures would hold
    # gigabytes, and Ctrl-C then waits only for the batches running (about a second).
    queue = iter(batch_list)
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="count")
    pending: set[Future] = set()
    try:
        while True:
            room = 2 * jobs - len(pending)
            pending |= {pool.submit(run, lo, hi) for lo, hi in islice(queue, room)}
            if not pending:
                break
            finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in finished:
                g, s, u = future.result()
                done += g
                solvable += s
                unique_count += u
            if progress and finished:
                progress(done, total)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    if done != total:
        raise AssertionError(f"enumerated {done} grids, expected {total}")
    return CountResult(
        rows, columns, total, solvable, unique_count if unique else None,
        time.perf_counter() - began,
    )


@dataclass(frozen=True)
class SampleEstimate:
    """A count too long to run, projected from random runs of row-clue groups."""

    rows: int
    columns: int
    groups_sampled: int
    groups_total: int
    cpu_seconds: float
    """Kernel time the sample took on one thread."""
    line_solvable: float
    unique: float | None

    @property
    def projected_cpu_seconds(self) -> float:
        """The whole count on one thread; divide by the threads for the wall time."""
        return self.cpu_seconds * self.groups_total / self.groups_sampled


def sample_count(
    rows: int,
    columns: int,
    *,
    runs: int = 200,
    run_groups: int = 500,
    unique: bool = False,
    seed: int = 0,
) -> SampleEstimate:
    """Count `runs` random runs of `run_groups` consecutive groups and scale up.

    Groups are uniform samples of the enumeration (mirror-skipped ones cost
    almost nothing, as in the full count), so the sampled kernel time and
    counts, scaled by groups_total / groups_sampled, estimate the whole count.
    """
    check_size(rows, columns, most_cells=MAX_CLUSTER_CELLS)  # sampling is cheap at any size
    if rows * columns == 0:
        raise UserError("nothing to sample in an empty grid")
    plan = _plan(rows, columns)
    rng = random.Random(seed)
    run_groups = min(run_groups, plan.n_groups)
    count_range(plan, 0, 1, unique)  # compile / load
    sampled = solvable = unique_count = 0
    cpu = 0.0
    for _ in range(runs):
        lo = rng.randrange(plan.n_groups - run_groups + 1)
        hi = lo + run_groups
        began = time.thread_time()
        _, s, u = count_range(plan, lo, hi, unique)
        cpu += time.thread_time() - began
        sampled += run_groups
        solvable += s
        unique_count += u
    scale = plan.n_groups / sampled
    return SampleEstimate(
        rows, columns, sampled, plan.n_groups, cpu, solvable * scale,
        unique_count * scale if unique else None,
    )


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1
