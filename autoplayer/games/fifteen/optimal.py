"""Optimal solutions: IDA* over single-tile moves with the additive pattern databases.

The heuristic is the sum of the groups' table values; on square boards it is the
larger of that sum and the same sum for the board mirrored in the main diagonal
(the mirror of a board is as far from the goal as the board itself, because
the gap-last goal is its own mirror). Each move changes one tile's cell, so
each group's table index (Σ cell·n^slot) is updated in O(1).

Imported only by the solver path: it pulls in numba.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from autoplayer.games.fifteen.model import Board, is_solvable
from autoplayer.games.fifteen.pdb import Progress, neighbours, tables

# Gap directions in `neighbours` order (up, down, left, right) → the tile's slide.
_SLIDE = "DURL"
_REVERSE = np.array([1, 0, 3, 2], dtype=np.int64)


@dataclass(frozen=True)
class OptimalResult:
    moves: str  # tile slides, see autoplayer.games.fifteen.model
    nodes: int  # nodes generated (children whose heuristic was looked up), all iterations
    start_h: int


@njit(cache=True)
def _sums(cells: np.ndarray, data: np.ndarray, offset: np.ndarray, group_of: np.ndarray,
          weight_of: np.ndarray, rcell: np.ndarray, rtile: np.ndarray,
          idx: np.ndarray, ridx: np.ndarray) -> None:
    idx[:] = 0
    ridx[:] = 0
    for c in range(cells.shape[0]):
        t = cells[c]
        if t == 0:
            continue
        g = group_of[t]
        idx[g] += c * weight_of[t]
        # in the mirrored board, tile rtile[t] sits on rcell[c]
        u = rtile[t]
        ridx[group_of[u]] += rcell[c] * weight_of[u]
    for g in range(idx.shape[0]):
        idx[g] += offset[g]
        ridx[g] += offset[g]


@njit(cache=True)
def _ida(cells: np.ndarray, adj: np.ndarray, data: np.ndarray, offset: np.ndarray,
         group_of: np.ndarray, weight_of: np.ndarray, rcell: np.ndarray, rtile: np.ndarray,
         reflected: bool, path: np.ndarray) -> tuple[int, int, int]:
    """Fills `path` with gap directions; returns (length, nodes generated, start h)."""
    ngroups = offset.shape[0]
    idx = np.zeros(ngroups, dtype=np.int64)
    ridx = np.zeros(ngroups, dtype=np.int64)
    _sums(cells, data, offset, group_of, weight_of, rcell, rtile, idx, ridx)
    h = 0
    for g in range(ngroups):
        h += data[idx[g]]
    if reflected:
        hr = 0
        for g in range(ngroups):
            hr += data[ridx[g]]
        h = max(h, hr)
    start_h = h
    gap = 0
    for c in range(cells.shape[0]):
        if cells[c] == 0:
            gap = c
    if h == 0:
        return 0, 0, start_h
    maxdepth = path.shape[0]
    tried = np.zeros(maxdepth + 1, dtype=np.int64)
    nodes = 0
    bound = h
    while True:
        next_bound = 1 << 30
        depth = 0
        tried[0] = 0
        while True:
            if tried[depth] == 4:
                if depth == 0:
                    break
                # undo the move that led here: the gap goes back the way it came
                depth -= 1
                d = path[depth]
                back = adj[gap, _REVERSE[d]]
                t = cells[back]
                g, w = group_of[t], weight_of[t]
                idx[g] += (gap - back) * w
                u = rtile[t]
                ridx[group_of[u]] += (rcell[gap] - rcell[back]) * weight_of[u]
                cells[gap] = t
                cells[back] = 0
                gap = back
                continue
            d = tried[depth]
            tried[depth] += 1
            src = adj[gap, d]
            if src < 0 or (depth > 0 and d == _REVERSE[path[depth - 1]]):
                continue
            # the tile on `src` slides into the gap
            t = cells[src]
            g, w = group_of[t], weight_of[t]
            idx[g] += (gap - src) * w
            u = rtile[t]
            ru = group_of[u]
            ridx[ru] += (rcell[gap] - rcell[src]) * weight_of[u]
            nodes += 1
            h = 0
            for gg in range(ngroups):
                h += data[idx[gg]]
            f = depth + 1 + h
            if f <= bound and reflected:
                hr = 0
                for gg in range(ngroups):
                    hr += data[ridx[gg]]
                if hr > h:
                    h = hr
                    f = depth + 1 + h
            if f > bound or depth + 1 >= maxdepth:
                if f > bound and f < next_bound:
                    next_bound = f
                idx[g] -= (gap - src) * w
                ridx[ru] -= (rcell[gap] - rcell[src]) * weight_of[u]
                continue
            cells[gap] = t
            cells[src] = 0
            path[depth] = d
            gap = src
            depth += 1
            if h == 0:
                return depth, nodes, start_h
            tried[depth] = 0
        if next_bound == 1 << 30:
            return -1, nodes, start_h
        bound = next_bound


def solve_optimal(board: Board, progress: Progress | None = None) -> OptimalResult:
    """A shortest solution (ValueError if the board is unsolvable or its size unsupported)."""
    if not is_solvable(board):
        raise ValueError(f"{board.spec()} is not solvable")
    tab = tables(board.width, board.height, progress)
    cells = np.array(board.cells, dtype=np.int64)
    path = np.zeros(256, dtype=np.int64)
    length, nodes, start_h = _ida(
        cells, neighbours(board.width, board.height), tab.data, tab.offset, tab.group_of,
        tab.weight_of, tab.reflect_cell, tab.reflect_tile, tab.reflected, path,
    )
    if length < 0:
        raise RuntimeError(f"no solution within {path.shape[0]} moves for {board.spec()}")
    return OptimalResult("".join(_SLIDE[d] for d in path[:length]), nodes, start_h)
