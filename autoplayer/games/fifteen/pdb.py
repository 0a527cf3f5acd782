"""Additive pattern databases: for each group of tiles, the fewest moves *of those tiles*
that bring them home from any placement, whatever the other tiles do.

Groups are disjoint and only a group's own moves are counted, so the values of
several groups add up to a lower bound on the solution length (Korf & Felner
2002). A table is built by breadth-first search backwards from the goal over
(placement of the group's tiles, region of the gap): the other tiles are all
alike, so the gap moves freely — at no cost — inside the region of cells they
occupy, and a state is kept once per region, named by the region's lowest cell.
Layers are expanded in order, so the first depth a placement is reached at is
its value.

Only this module and `optimal` (the search) import numba; the compiled code is
cached on disk (`cache=True`), and so are the finished tables (see `load_or_build`).
Build time and sizes are measured by bench/bench_fifteen.py.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from autoplayer.errors import UserError
from autoplayer.files import write_output
from autoplayer.games.fifteen.partitions import partition

UNSEEN = 255
CACHE_VERSION = 2

Progress = Callable[[str, float], None]
"""Called as progress(label, fraction done) while tables are built."""


def falling(n: int, k: int) -> int:
    """n·(n-1)·…·(n-k+1): the placements of k distinct tiles on n cells."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def neighbours(width: int, height: int) -> np.ndarray:
    """adj[cell, d] for d = gap up, down, left, right; -1 off the board."""
    n = width * height
    adj = np.full((n, 4), -1, dtype=np.int64)
    for cell in range(n):
        r, c = divmod(cell, width)
        if r > 0:
            adj[cell, 0] = cell - width
        if r < height - 1:
            adj[cell, 1] = cell + width
        if c > 0:
            adj[cell, 2] = cell - 1
        if c < width - 1:
            adj[cell, 3] = cell + 1
    return adj


@njit(cache=True)
def _rank(pos: np.ndarray, k: int, n: int, weights: np.ndarray) -> int:
    """Index of a placement (distinct cells pos[0..k)) among the falling(n, k) ones."""
    idx = 0
    for i in range(k):
        smaller = 0
        for j in range(i):
            if pos[j] < pos[i]:
                smaller += 1
        idx += (pos[i] - smaller) * weights[i]
    return idx


@njit(cache=True)
def _rank_fast(pos: np.ndarray, k: int, weights: np.ndarray, ones: np.ndarray) -> int:
    """`_rank` with a popcount table (`ones[m]` = bits set in m) in place of the inner loop."""
    idx = 0
    placed = 0
    for i in range(k):
        below = placed & ((1 << pos[i]) - 1)
        idx += (pos[i] - ones[below]) * weights[i]
        placed |= 1 << pos[i]
    return idx


@njit(cache=True)
def _unrank(idx: int, k: int, n: int, weights: np.ndarray, pos: np.ndarray) -> None:
    used = 0
    for i in range(k):
        d = idx // weights[i]
        idx -= d * weights[i]
        # the d-th cell not used by earlier tiles
        c = -1
        while d >= 0:
            c += 1
            if not (used >> c) & 1:
                d -= 1
        pos[i] = c
        used |= 1 << c


@njit(cache=True)
def _flood(start: int, free: int, not_first_col: int, not_last_col: int, width: int) -> int:
    """The gap's region as a cell bitmask: cells in `free` connected to `start`."""
    reg = 1 << start
    while True:
        nxt = (reg | ((reg << 1) & not_first_col) | ((reg >> 1) & not_last_col)
               | (reg << width) | (reg >> width)) & free
        if nxt == reg:
            return reg
        reg = nxt


@njit(cache=True)
def _lowest(mask: int) -> int:
    low = 0
    while not (mask >> low) & 1:
        low += 1
    return low


@njit(cache=True)
def _seed(seen: np.ndarray, table: np.ndarray, goal_pos: np.ndarray, k: int, n: int,
          weights: np.ndarray, masks: np.ndarray, width: int) -> int:
    """Marks the goal state seen; returns it."""
    occ = 0
    for i in range(k):
        occ |= 1 << goal_pos[i]
    reg = _flood(n - 1, masks[0] & ~occ, masks[1], masks[2], width)
    idx = _rank(goal_pos, k, n, weights)
    s = idx * n + _lowest(reg)
    seen[s >> 3] |= np.uint8(1 << (s & 7))
    table[idx] = 0
    return s


@njit(cache=True, nogil=True)
def _expand_layer(seen: np.ndarray, table: np.ndarray, depth: int, k: int, n: int,
                  weights: np.ndarray, adj: np.ndarray, masks: np.ndarray, width: int,
                  frontier: np.ndarray, count: int, out: np.ndarray) -> tuple[np.ndarray, int, int]:
    """Expands the `count` states of `frontier` (all at `depth`) into `out` (grown as needed).

    Returns (out, states in it, placements newly valued).
    """
    board, not_first, not_last = masks[0], masks[1], masks[2]
    pos = np.empty(k, dtype=np.int64)
    owner = np.full(n, -1, dtype=np.int64)
    ones = np.zeros(1 << n, dtype=np.int64)
    for m in range(1, 1 << n):
        ones[m] = ones[m >> 1] + (m & 1)
    made = 0
    valued = 0
    for f in range(count):
        s = frontier[f]
        idx = s // n
        low = s - idx * n
        _unrank(idx, k, n, weights, pos)
        occ = 0
        for i in range(k):
            occ |= 1 << pos[i]
            owner[pos[i]] = i
        free = board & ~occ
        reg = _flood(low, free, not_first, not_last, width)
        # each group tile next to the region may slide into it (cost 1)
        rest = reg
        while rest:
            c = _lowest(rest)
            rest &= rest - 1
            for d in range(4):
                p = adj[c, d]
                if p < 0 or not (occ >> p) & 1:
                    continue
                i = owner[p]
                pos[i] = c
                reg2 = _flood(p, (free & ~(1 << c)) | (1 << p), not_first, not_last, width)
                idx2 = _rank_fast(pos, k, weights, ones)
                pos[i] = p
                s2 = idx2 * n + _lowest(reg2)
                byte = s2 >> 3
                bit = np.uint8(1 << (s2 & 7))
                if not seen[byte] & bit:
                    seen[byte] |= bit
                    if made == out.shape[0]:
                        bigger = np.empty(2 * out.shape[0], dtype=np.int64)
                        bigger[:made] = out
                        out = bigger
                    out[made] = s2
                    made += 1
                    if table[idx2] == 255:
                        table[idx2] = depth + 1
                        valued += 1
        for i in range(k):
            owner[pos[i]] = -1
    return out, made, valued


def _board_masks(width: int, height: int) -> np.ndarray:
    n = width * height
    board = (1 << n) - 1
    first = sum(1 << (r * width) for r in range(height))
    last = sum(1 << (r * width + width - 1) for r in range(height))
    return np.array([board, board & ~first, board & ~last], dtype=np.int64)


def build_table(width: int, height: int, tiles: Sequence[int],
                progress: Progress | None = None, label: str = "") -> np.ndarray:
    """The pattern database of `tiles` on a W×H board, indexed by placement rank."""
    n = width * height
    k = len(tiles)
    weights = np.array([falling(n - 1 - i, k - 1 - i) for i in range(k)], dtype=np.int64)
    total = falling(n, k)
    # With every tile in the group, only the solvable half of the placements is reachable.
    reachable = total // 2 if k == n - 1 else total
    seen = np.zeros(total * n // 8 + 1, dtype=np.uint8)  # one bit a (placement, region)
    table = np.full(total, UNSEEN, dtype=np.uint8)
    adj = neighbours(width, height)
    goal_pos = np.array([t - 1 for t in tiles], dtype=np.int64)
    masks = _board_masks(width, height)
    frontier = np.array([_seed(seen, table, goal_pos, k, n, weights, masks, width)],
                        dtype=np.int64)
    count = 1
    spare = np.empty(1 << 16, dtype=np.int64)
    valued = 1
    depth = 0
    while count:
        if progress:
            progress(label, valued / reachable)
        spare, made, new = _expand_layer(seen, table, depth, k, n, weights, adj, masks, width,
                                         frontier, count, spare)
        frontier, spare, count = spare, frontier, made
        valued += new
        depth += 1
    if progress:
        progress(label, 1.0)
    return table


@njit(cache=True, nogil=True)
def _scatter(table: np.ndarray, k: int, n: int, weights: np.ndarray, out: np.ndarray) -> None:
    """Compact (rank-indexed) table → one indexed by Σ cell·n^slot, O(1) to update per move."""
    pos = np.empty(k, dtype=np.int64)
    for idx in range(table.shape[0]):
        _unrank(idx, k, n, weights, pos)
        s = 0
        m = 1
        for i in range(k):
            s += pos[i] * m
            m *= n
        out[s] = table[idx]


def scatter(table: np.ndarray, width: int, height: int, k: int) -> np.ndarray:
    n = width * height
    weights = np.array([falling(n - 1 - i, k - 1 - i) for i in range(k)], dtype=np.int64)
    out = np.full(n**k, UNSEEN, dtype=np.uint8)
    _scatter(table, k, n, weights, out)
    return out


# ---------------------------------------------------------------- partitions and caching

def cache_dir() -> Path:
    """$XDG_CACHE_HOME/autoplayer (default ~/.cache/autoplayer)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "autoplayer"


def cache_path(width: int, height: int, tiles: Sequence[int]) -> Path:
    key = hashlib.sha1(f"v{CACHE_VERSION}:{width}x{height}:{tuple(tiles)}".encode()).hexdigest()
    return cache_dir() / "fifteen" / f"pdb-{width}x{height}-{len(tiles)}tiles-{key[:12]}.npy"


def _save_atomically(path: Path, table: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_output(path, lambda out: np.save(out, table))


LOOKUP_ON_DISK = 1 << 25
"""Tables whose lookup layout (n^k entries) is at most this are cached in that layout, so
loading is a plain read; bigger ones (3×3's exact 8-tile table: 9^8) are cached compact."""


def load_or_build(width: int, height: int, tiles: Sequence[int],
                  progress: Progress | None = None, label: str = "") -> np.ndarray:
    """The lookup table of one group (indexed by Σ cell·n^slot), from the cache or built."""
    n, k = width * height, len(tiles)
    as_lookup = n**k <= LOOKUP_ON_DISK
    path = cache_path(width, height, tiles)
    expected = n**k if as_lookup else falling(n, k)
    if path.exists():
        try:
            table = np.load(path)
            if table.shape == (expected,) and table.dtype == np.uint8:
                return table if as_lookup else scatter(table, width, height, k)
        except (OSError, ValueError):
            pass  # a damaged cache file is rebuilt below
    compact = build_table(width, height, tiles, progress, label)
    lookup = scatter(compact, width, height, k)
    try:
        _save_atomically(path, lookup if as_lookup else compact)
    except (OSError, UserError) as err:  # a table not cached is built again next time
        print(f"autoplayer: could not cache {path}: {err}", file=sys.stderr)
    return lookup


class StderrBar:
    """A progress bar on stderr: redrawn in place on a terminal; in a log, a line per
    quarter of each table, so CI output stays short."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.start = time.perf_counter()
        self.last = -1.0
        self.tty = sys.stderr.isatty()
        self.logged: set[tuple[str, int]] = set()

    def __call__(self, label: str, fraction: float) -> None:
        now = time.perf_counter()
        if self.tty:
            if fraction < 1.0 and now - self.last < 0.2:
                return
            self.last = now
            start, end = "\r", ""
        else:
            quarter = int(4 * fraction)
            if (label, quarter) in self.logged:
                return
            self.logged.add((label, quarter))
            start, end = "", "\n"
        filled = int(30 * fraction)
        sys.stderr.write(
            f"{start}{self.title} {label} [{'#' * filled}{'.' * (30 - filled)}] "
            f"{100 * fraction:5.1f}% {now - self.start:5.1f}s{end}"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")
            sys.stderr.flush()


@dataclass(frozen=True)
class Tables:
    """Everything the search needs for one board size, as flat arrays numba can take."""

    width: int
    height: int
    groups: tuple[tuple[int, ...], ...]
    data: np.ndarray  # all scattered tables, one after the other
    offset: np.ndarray  # where each group's table starts in `data`
    group_of: np.ndarray  # tile → group (-1 for the gap)
    weight_of: np.ndarray  # tile → n^slot in its group's index
    reflect_cell: np.ndarray  # cell → its mirror in the main diagonal (square boards)
    reflect_tile: np.ndarray  # tile → the tile whose home is the mirror of its home
    reflected: bool


_LOADED: dict[tuple[int, int], Tables] = {}


def _load_all(width: int, height: int, groups: Sequence[Sequence[int]],
              progress: Progress | None) -> list[np.ndarray]:
    """Every group's table; missing ones are built side by side, one thread a core (the
    BFS runs without the GIL), and progress is reported for all of them together."""
    n = width * height
    sizes = [falling(n, len(g)) for g in groups]
    done = [0.0] * len(groups)
    lock = threading.Lock()

    def one(i: int) -> np.ndarray:
        def report(_label: str, fraction: float) -> None:
            with lock:
                done[i] = fraction
                if progress:
                    total = sum(d * s for d, s in zip(done, sizes, strict=True)) / sum(sizes)
                    progress(f"{len(groups)} table{'s' if len(groups) > 1 else ''}", total)

        return load_or_build(width, height, groups[i], report)

    workers = max(1, min(len(groups), os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, range(len(groups))))


def tables(width: int, height: int, progress: Progress | None = None) -> Tables:
    """The tables of a size, loaded once per process (built on first use, with a progress bar).

    Without `progress`, a bar is drawn on stderr only while something is built.
    """
    if (width, height) in _LOADED:
        return _LOADED[(width, height)]
    groups = partition(width, height)
    n = width * height
    # The search stops where the heuristic is 0, so every tile must be in exactly one group.
    if sorted(t for g in groups for t in g) != list(range(1, n)):
        raise ValueError(f"the groups {groups} do not cover tiles 1..{n - 1} exactly once")
    missing = [g for g in groups if not cache_path(width, height, g).exists()]
    bar = StderrBar(f"building {width}x{height} pattern databases (once)") \
        if missing and progress is None else None
    parts = _load_all(width, height, groups, progress or bar)
    if bar:
        bar.close()
    offset = np.cumsum([0] + [p.shape[0] for p in parts[:-1]]).astype(np.int64)
    group_of = np.full(n, -1, dtype=np.int64)
    weight_of = np.zeros(n, dtype=np.int64)
    for gi, g in enumerate(groups):
        for slot, t in enumerate(g):
            group_of[t] = gi
            weight_of[t] = n**slot
    reflect_cell = np.arange(n, dtype=np.int64)
    reflect_tile = np.arange(n, dtype=np.int64)
    reflected = width == height and len(groups) > 1
    if width == height:
        for cell in range(n):
            r, c = divmod(cell, width)
            reflect_cell[cell] = c * width + r
        for t in range(1, n):
            reflect_tile[t] = reflect_cell[t - 1] + 1
    loaded = Tables(width, height, groups, np.concatenate(parts), offset, group_of, weight_of,
                    reflect_cell, reflect_tile, reflected)
    _LOADED[(width, height)] = loaded
    return loaded
