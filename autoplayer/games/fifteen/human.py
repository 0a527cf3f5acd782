"""A fast, human-style solver for any size up to 6×6: rows first, then the last two rows.

The way people are taught (e.g. chessandpoker.com's method, which the original
report planned): finish the top row, then the next, … until two rows are
left; then finish those two rows a column at a time, the top and bottom tile
of a column together; the last 2×3 (or 2×2) block is put right as a whole.

Each step brings one or two tiles home without touching the finished part, and
is solved *exactly* by breadth-first search over (gap, those tiles) inside the
unfinished cells — small searches (at most 36·35·34 states), so the result is
both quick and much shorter than fixed macro sequences. The last two tiles of
a row (or column) go together because the last one alone can only be put in
place by moving the one beside it away and back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from autoplayer.games.fifteen.model import Board, is_solvable


@dataclass(frozen=True)
class Step:
    """One stage a person can follow: what it achieves and the slides that do it."""

    title: str
    tiles: tuple[int, ...]  # the tiles this step brings home (and later steps keep there)
    moves: str  # tile slides, see autoplayer.games.fifteen.model


def _chunks(items: Sequence[int]) -> list[tuple[int, ...]]:
    """Pairs counted from the end (the last two must go together); a single left over first."""
    out: list[tuple[int, ...]] = []
    i = len(items)
    while i >= 2:
        out.append(tuple(items[i - 2 : i]))
        i -= 2
    if i:
        out.append((items[0],))
    return out[::-1]


def _plan(width: int, height: int) -> list[tuple[str, tuple[int, ...]]]:
    """The steps as (title, home cells of the tiles placed), in order."""
    steps: list[tuple[str, tuple[int, ...]]] = []
    for r in range(height - 2):
        row = [r * width + c for c in range(width)]
        for cells in _chunks(row):
            steps.append((f"row {r + 1}", cells))
    top, bottom = height - 2, height - 1
    for c in range(width - 3):
        pair = (top * width + c, bottom * width + c)
        steps.append((f"column {c + 1} of the last two rows", pair))
    first = max(0, width - 3)
    rest = [r * width + c for r in (top, bottom) for c in range(first, width)]
    block = tuple(x for x in rest if x != width * height - 1)
    steps.append((f"the last {width - first}x2 block", block))
    return steps


def _adjacency(width: int, height: int) -> list[list[tuple[int, str]]]:
    """For each gap cell: (cell of a tile that can slide in, the slide's name)."""
    adj: list[list[tuple[int, str]]] = []
    for cell in range(width * height):
        r, c = divmod(cell, width)
        nbrs = []
        if c < width - 1:
            nbrs.append((cell + 1, "L"))
        if c > 0:
            nbrs.append((cell - 1, "R"))
        if r < height - 1:
            nbrs.append((cell + width, "U"))
        if r > 0:
            nbrs.append((cell - width, "D"))
        adj.append(nbrs)
    return adj


def _place(board: Board, homes: tuple[int, ...], frozen: set[int],
           adj: list[list[tuple[int, str]]]) -> str:
    """Fewest slides, never touching `frozen`, that bring the tiles of `homes` home."""
    tiles = [h + 1 for h in homes]
    start = (board.gap, *(board.cells.index(t) for t in tiles))
    target = tuple(homes)
    if start[1:] == target:
        return ""
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], str]] = {start: (start, "")}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        gap = state[0]
        for src, slide in adj[gap]:
            if src in frozen:
                continue
            # the tile on src moves into the gap; if it is one we track, follow it
            nxt = (src, *(gap if p == src else p for p in state[1:]))
            if nxt in parent:
                continue
            parent[nxt] = (state, slide)
            if nxt[1:] == target:
                moves = []
                while nxt != start:
                    nxt, slide = parent[nxt]
                    moves.append(slide)
                return "".join(reversed(moves))
            queue.append(nxt)
    raise RuntimeError(f"cannot place tiles {tiles} on {board.spec()} (unsolvable board?)")


def solve_steps(board: Board) -> list[Step]:
    """The human-style solution, step by step (ValueError for an unsolvable board)."""
    if not is_solvable(board):
        raise ValueError(f"{board.spec()} is not solvable")
    adj = _adjacency(board.width, board.height)
    frozen: set[int] = set()
    steps: list[Step] = []
    for where, homes in _plan(board.width, board.height):
        moves = _place(board, homes, frozen, adj)
        board = board.play(moves)
        frozen.update(homes)
        names = " and ".join(str(h + 1) for h in homes)
        if len(homes) > 2:
            names = ", ".join(str(h + 1) for h in homes[:-1]) + f" and {homes[-1] + 1}"
        steps.append(Step(
            f"{where}: tile{'s' if len(homes) > 1 else ''} {names}",
            tuple(h + 1 for h in homes), moves,
        ))
    if not board.is_solved():
        raise RuntimeError(f"human-style solver ended on {board.spec()}")  # a bug, not input
    return steps


def solve_fast(board: Board) -> str:
    return "".join(step.moves for step in solve_steps(board))
