"""Makes Ripple Effect puzzles with exactly one solution, the same ones for the same seed.

Three steps: cut the grid into random rooms; fill them by a search that
tries values in random order (re-cutting rooms where it hits a dead end);
then, starting from the full grid as givens, take givens away for as long as
the solver can prove the solution unique.
"""

from __future__ import annotations

import random

from autoplayer.games.ripple.model import EMPTY, Puzzle
from autoplayer.games.ripple.solver import fill_or_blame, solve

ROOM_WEIGHTS = {1: 2, 2: 4, 3: 5, 4: 5, 5: 4, 6: 3, 7: 2, 8: 1, 9: 1}
"""Relative odds of each room size (roughly the mix in published puzzles)."""

MERGE_SLACK = 4
"""How far past `max_room` joining two rooms may go before their area is cut again instead."""

BAND_ROWS = 6
"""Rows filled at a time on large boards."""

REMOVE_BATCH = 16
"""Givens tried for removal together first (most go at once on a full grid)."""

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


def _as_puzzle(room: list[int], rows: int, cols: int) -> Puzzle:
    return Puzzle.build([room[r * cols:(r + 1) * cols] for r in range(rows)],
                        [[EMPTY] * cols] * rows)


def _repair(puzzle: Puzzle, bad: int, max_room: int, rng: random.Random,
            first_free: int) -> list[int]:
    """Room labels with room `bad` joined to its smallest neighbour, or, when that would
    make a room too large, with it and its neighbours cut into new random rooms.

    Cells before `first_free` are already filled and keep their rooms; when the
    fault lies there, the free rooms touching it are changed instead.
    """
    rows, cols, room = puzzle.rows, puzzle.cols, list(puzzle.rooms)
    cells = puzzle.room_cells

    def touching(r: int) -> set[int]:
        return {room[n] for cell in cells[r] for n in _neighbours(cell, rows, cols)} - {r}

    if cells[bad][0] < first_free:
        free = sorted(r for r in touching(bad) if cells[r][0] >= first_free)
        if not free:
            free = sorted({room[c] for c in range(first_free, min(len(room), first_free + cols))})
        bad = rng.choice(free)
    near = {r for r in touching(bad) if cells[r][0] >= first_free}
    size = {r: len(cells[r]) for r in near}
    smallest = min(size.values(), default=max_room + MERGE_SLACK)
    if smallest + len(cells[bad]) <= max_room + MERGE_SLACK:
        into = rng.choice(sorted(r for r in near if size[r] == smallest))
        return [into if r == bad else r for r in room]
    area = [cell for r in near | {bad} for cell in cells[r]]
    return random_rooms(rows, cols, max_room, rng, room, area)


def _rows_above(room: list[int], cols: int, first: int) -> int:
    """`first` moved up until no room is cut by the line above it."""
    while first > 0:
        cut = {room[cell] for cell in range(first * cols, (first + 1) * cols)}
        start = min(cell // cols for cell in range(first * cols) if room[cell] in cut) \
            if any(room[cell] in cut for cell in range((first - 1) * cols, first * cols)) \
            else first
        if start == first:
            return first
        first = start
    return first


def random_filling(rows: int, cols: int, max_room: int,
                   rng: random.Random) -> tuple[Puzzle, tuple[int, ...]]:
    """An empty puzzle with random rooms, and one grid of values satisfying its rules.

    Random rooms are rarely fillable as cut on a large board (a column of
    dominoes already is not), so the rooms around the one most often at
    fault in a failed search are changed, until a search finds a filling.
    Large boards are done in bands of rows, each filled below the ones
    before it, so every search stays small.
    """
    room: list[int] = [-1] * (rows * cols)
    values: list[int] = [EMPTY] * (rows * cols)
    reach = max_room + MERGE_SLACK  # no value reaches further than this
    top = 0
    while top < rows:
        bottom = rows if rows - top < BAND_ROWS + BAND_ROWS // 2 else top + BAND_ROWS
        room = random_rooms(rows, cols, max_room, rng, room,
                            list(range(top * cols, bottom * cols)))
        # The band plus the filled rows its values can see, as one small puzzle.
        first = _rows_above(room, cols, max(0, top - reach))
        while True:
            band = Puzzle.build(
                [room[r * cols:(r + 1) * cols] for r in range(first, bottom)],
                [values[r * cols:(r + 1) * cols] for r in range(first, bottom)])
            filled, bad = fill_or_blame(band, rng, max_nodes=FILL_NODES)
            if filled is not None:
                values[first * cols:bottom * cols] = filled
                break
            fixed = (top - first) * cols
            relabelled = _repair(band, bad, max_room, rng, fixed)
            # Band labels are offset so they never collide with the rooms above.
            offset = max(room) + 1
            room[top * cols:bottom * cols] = [label + offset for label in relabelled[fixed:]]
        top = bottom
    rooms = [room[r * cols:(r + 1) * cols] for r in range(rows)]
    return Puzzle.build(rooms, [[EMPTY] * cols] * rows), tuple(values)


def generate(rows: int, cols: int, seed: int | str, *,
             max_room: int = 6) -> tuple[Puzzle, tuple[int, ...]]:
    """A puzzle with exactly one solution, and that solution; same arguments, same puzzle.

    Givens are taken away from a full grid, in random order and in batches
    while whole batches can go, each step kept only when the solver proves the
    solution still unique within `PROOF_NODES` search nodes.
    """
    if rows < 1 or cols < 1:
        raise ValueError("a puzzle needs at least one row and one column")
    rng = random.Random(f"ripple {rows}x{cols} max {max_room} seed {seed}")
    empty, target = random_filling(rows, cols, max_room, rng)
    givens = list(target)
    order = list(range(rows * cols))
    rng.shuffle(order)
    pending = [order[i:i + REMOVE_BATCH] for i in range(0, len(order), REMOVE_BATCH)]
    while pending:
        batch = pending.pop()
        for cell in batch:
            givens[cell] = EMPTY
        if solve(empty.with_givens(givens), limit=2, max_nodes=PROOF_NODES).unique:
            continue
        for cell in batch:
            givens[cell] = target[cell]
        if len(batch) > 1:
            half = len(batch) // 2
            pending += [batch[half:], batch[:half]]
    return empty.with_givens(givens), target
