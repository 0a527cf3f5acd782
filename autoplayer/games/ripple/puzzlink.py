"""puzz.link / pzprjs Ripple Effect URLs: `https://puzz.link/p?ripple/COLS/ROWS/DATA`.

The data is pzprjs's `encodeBorder` then `encodeNumber16` (see `autoplayer.puzzlink`):
a wall bit for every pair of neighbouring cells (set where two rooms meet), then
every cell's given in reading order, runs of empty cells as skips. A room is what
the walls enclose, as pzprjs builds it; a wall with the same room on both sides
(a stray stroke in an editor) changes nothing there, and nothing here. `hakyukoka`
(Kanpen's name) is read as ripple, as pzprjs reads it.

Refused: a `?` given and a 0 (the player's editor allows them; a puzzle cannot use
them), a given larger than its room, and a board past `MAX_SIDE`.
"""

from __future__ import annotations

from autoplayer import puzzlink
from autoplayer.errors import InputError
from autoplayer.games.ripple.model import EMPTY, MAX_SIDE, Puzzle

PIDS = ("ripple", "hakyukoka")


def looks_like(text: str) -> bool:
    return puzzlink.looks_like_url(text)


def parse_url(text: str) -> Puzzle:
    """The puzzle a URL holds, or an `InputError` (no path) naming what is wrong."""
    url = puzzlink.split_url(text, most_side=MAX_SIDE)
    if url.pid not in PIDS:
        raise InputError(f"a puzz.link {url.pid!r} puzzle, not a Ripple Effect (ripple)")
    cols, rows = url.cols, url.rows
    right, below, pos = puzzlink.read_borders(url.body, cols, rows)
    givens, end = puzzlink.read_number16(url.body, rows * cols, "cells", start=pos)
    puzzlink.check_end(url.body, end)
    rooms = _rooms(rows, cols, right, below)
    values = []
    for cell, value in enumerate(givens):
        r, c = divmod(cell, cols)
        if value == puzzlink.QUESTION:
            raise InputError(f"row {r + 1} column {c + 1} holds a '?'; a given must be a number")
        if value == 0:
            raise InputError(f"row {r + 1} column {c + 1} holds a 0; values start at 1")
        values.append(EMPTY if value == puzzlink.EMPTY else value)
    puzzle = Puzzle.build([rooms[r * cols:(r + 1) * cols] for r in range(rows)],
                          [values[r * cols:(r + 1) * cols] for r in range(rows)])
    for cell, value in enumerate(puzzle.givens):
        if value > puzzle.room_size[cell]:
            r, c = divmod(cell, cols)
            raise InputError(f"the {value} at row {r + 1} column {c + 1} is larger than its "
                             f"room ({puzzle.room_size[cell]} cells)")
    return puzzle


def _rooms(rows: int, cols: int, right: list[bool], below: list[bool]) -> list[int]:
    """A room id per cell: the cells joined where no wall stands (pzprjs's room graph)."""
    room = [-1] * (rows * cols)
    count = 0
    for start in range(rows * cols):
        if room[start] >= 0:
            continue
        room[start] = count
        stack = [start]
        while stack:
            cell = stack.pop()
            r, c = divmod(cell, cols)
            steps = []
            if c + 1 < cols and not right[r * (cols - 1) + c]:
                steps.append(cell + 1)
            if c > 0 and not right[r * (cols - 1) + c - 1]:
                steps.append(cell - 1)
            if r + 1 < rows and not below[cell]:
                steps.append(cell + cols)
            if r > 0 and not below[cell - cols]:
                steps.append(cell - cols)
            for near in steps:
                if room[near] < 0:
                    room[near] = count
                    stack.append(near)
        count += 1
    return room


def url(puzzle: Puzzle) -> str:
    """The URL pzprjs writes for the puzzle: walls between rooms, then the givens."""
    rows, cols, rooms = puzzle.rows, puzzle.cols, puzzle.rooms
    right = [rooms[r * cols + c] != rooms[r * cols + c + 1]
             for r in range(rows) for c in range(cols - 1)]
    below = [rooms[cell] != rooms[cell + cols] for cell in range((rows - 1) * cols)]
    givens = [puzzlink.EMPTY if v == EMPTY else v for v in puzzle.givens]
    body = puzzlink.write_borders(right, below) + puzzlink.write_number16(givens)
    return puzzlink.make_url(PIDS[0], cols, rows, body)
