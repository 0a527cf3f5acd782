"""Makes Ripple Effect puzzles with exactly one solution, the same ones for the same seed.

Three steps: cut the grid into random rooms; fill them by a search that
tries values in random order (re-cutting rooms where it hits a dead end);
then, starting from the full grid as givens, take givens away for as long as
the solver can prove the solution unique (see `generate`).
"""

from __future__ import annotations

import random

from autoplayer.games.ripple.model import EMPTY, Puzzle
from autoplayer.games.ripple.solver import RoomSolver, fill_or_blame

ROOM_WEIGHTS = {1: 2, 2: 4, 3: 5, 4: 5, 5: 4, 6: 3, 7: 2, 8: 1, 9: 1}
"""Relative odds of each room size (roughly the mix in published puzzles)."""

MERGE_SLACK = 4
"""How far past `max_room` joining two rooms may go before their area is cut again instead."""

BAND_ROWS = 6
"""Rows filled at a time on large boards."""

MAX_VALUE = max(ROOM_WEIGHTS) + MERGE_SLACK
"""No room, even after joining, holds a larger value: nothing ripples further."""

REMOVE_BATCH = 16
"""Givens tried for removal together in the first pass (most go at once on a full grid)."""

PROOF_NODES = 500
"""Search nodes allowed to prove a candidate puzzle unique; past it, the given stays."""

FILL_NODES = 300
"""Search nodes spent on filling before blaming a room and cutting its area again."""


def random_rooms(rows: int, cols: int, max_room: int, rng: random.Random,
                 room: list[int] | None = None, area: list[int] | None = None) -> list[int]:
    """Room labels per cell: rooms grown from random seeds to random sizes.

    With `room` and `area`, only the cells of `area` are cut again (with new
    labels); the rest of `room` stays as it is.
    """
    sizes = [s for s in ROOM_WEIGHTS if s <= max_room]
    weights = [ROOM_WEIGHTS[s] for s in sizes]
    room = [-1] * (rows * cols) if room is None else list(room)
    order = list(range(rows * cols)) if area is None else sorted(area)
    for cell in order:
        room[cell] = -1
    inside = set(order)
    rng.shuffle(order)
    label = max(room) + 1
    for start in order:
        if room[start] >= 0:
            continue
        target = rng.choices(sizes, weights)[0]
        room[start] = label
        members, frontier = [start], []
        while len(members) < target:
            frontier.extend(n for n in _neighbours(members[-1], rows, cols)
                            if room[n] < 0 and n in inside and n not in frontier)
            if not frontier:
                break
            cell = frontier.pop(rng.randrange(len(frontier)))
            room[cell] = label
            members.append(cell)
        label += 1
    return room


def _neighbours(cell: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(cell, cols)
    return [nr * cols + nc for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= nr < rows and 0 <= nc < cols]


def _repair(puzzle: Puzzle, bad: int, max_room: int, rng: random.Random) -> list[int]:
    """Room labels with room `bad` joined to its smallest neighbour, or, when that would
    make a room too large, with it and its neighbours cut into new random rooms."""
    rows, cols, room = puzzle.rows, puzzle.cols, list(puzzle.rooms)
    cells = puzzle.room_cells
    near = {room[n] for cell in cells[bad] for n in _neighbours(cell, rows, cols)} - {bad}
    size = {r: len(cells[r]) for r in near}
    smallest = min(size.values(), default=max_room + MERGE_SLACK)
    if smallest + len(cells[bad]) <= max_room + MERGE_SLACK:
        into = rng.choice(sorted(r for r in near if size[r] == smallest))
        return [into if r == bad else r for r in room]
    area = [cell for r in near | {bad} for cell in cells[r]]
    return random_rooms(rows, cols, max_room, rng, room, area)


def _allowed_under(values: list[int], cols: int, top: int, bottom: int) -> list[int]:
    """Bitmasks of the values each cell of rows top..bottom-1 may take under the filled rows."""
    allowed = []
    for r in range(top, bottom):
        for c in range(cols):
            mask = ~0
            for above in range(top - 1, max(-1, r - MAX_VALUE - 1), -1):
                value = values[above * cols + c]
                if r - above <= value:
                    mask &= ~(1 << value)
            allowed.append(mask)
    return allowed


def random_filling(rows: int, cols: int, max_room: int,
                   rng: random.Random) -> tuple[Puzzle, tuple[int, ...]]:
    """An empty puzzle with random rooms, and one grid of values satisfying its rules.

    Random rooms are rarely fillable as cut on a large board (a column of
    dominoes already is not), so the rooms around the one most often at
    fault in a failed search are changed, until a search finds a filling.
    Large boards are done in bands of rows, each filled under the values
    placed above it, so every search stays small.
    """
    room: list[int] = []
    values: list[int] = []
    top = 0
    while top < rows:
        bottom = rows if rows - top < BAND_ROWS + BAND_ROWS // 2 else top + BAND_ROWS
        height = bottom - top
        band = random_rooms(height, cols, max_room, rng)
        allowed = _allowed_under(values, cols, top, bottom)
        while True:
            puzzle = Puzzle.build([band[r * cols:(r + 1) * cols] for r in range(height)],
                                  [[EMPTY] * cols] * height)
            filled, bad = fill_or_blame(puzzle, rng, FILL_NODES, allowed)
            if filled is not None:
                break
            band = _repair(puzzle, bad, max_room, rng)
        offset = len(set(room))
        room += [label + offset for label in puzzle.rooms]
        values += filled
        top = bottom
    rooms = [room[r * cols:(r + 1) * cols] for r in range(rows)]
    return Puzzle.build(rooms, [[EMPTY] * cols] * rows), tuple(values)


def generate(rows: int, cols: int, seed: int | str, *,
             max_room: int = 6) -> tuple[Puzzle, tuple[int, ...]]:
    """A puzzle with exactly one solution, and that solution; same arguments, same puzzle.

    Givens are taken away from the full grid in random order: first in
    batches, as long as propagation alone still solves the puzzle (which
    proves it unique and is cheap), then one at a time, as long as the solver
    proves uniqueness within `PROOF_NODES` search nodes.
    """
    if rows < 1 or cols < 1:
        raise ValueError("a puzzle needs at least one row and one column")
    rng = random.Random(f"ripple {rows}x{cols} max {max_room} seed {seed}")
    empty, target = random_filling(rows, cols, max_room, rng)
    givens = list(target)
    solver = RoomSolver(empty)
    for batch, max_nodes in ((REMOVE_BATCH, 1), (1, PROOF_NODES)):
        order = [cell for cell, value in enumerate(givens) if value != EMPTY]
        rng.shuffle(order)
        pending = [order[i:i + batch] for i in range(0, len(order), batch)]
        while pending:
            cells = pending.pop()
            for cell in cells:
                givens[cell] = EMPTY
            if solver.solve(givens, limit=2, max_nodes=max_nodes).unique:
                continue
            for cell in cells:
                givens[cell] = target[cell]
            if len(cells) > 1:
                pending += [cells[len(cells) // 2:], cells[:len(cells) // 2]]
    return empty.with_givens(givens), target
