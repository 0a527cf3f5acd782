"""Exact move counts by breadth-first search, to check the solvers against on small boards."""

from __future__ import annotations

from collections import deque

from autoplayer.games.fifteen.model import Board


def distances(start: Board) -> dict[tuple[int, ...], int]:
    """Every board reachable from `start`, with its least number of moves."""
    dist = {start.cells: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for m in board.legal_moves():
            nxt = board.move(m)
            if nxt.cells not in dist:
                dist[nxt.cells] = dist[board.cells] + 1
                queue.append(nxt)
    return dist
