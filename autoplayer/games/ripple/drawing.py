"""The checker's picture of a puzzle: room borders in box-drawing characters.

Each cell is one character wide (wider when a value has more digits), cells
are separated by `│` across a room border and by a space inside a room, and
the lines between rows draw `─` under every cell on a room border with the
matching corner or junction where borders meet.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoplayer.games.ripple.model import EMPTY, Puzzle

# Junction glyph by which arms it has: (up, down, left, right).
_JUNCTIONS = {
    (False, False, False, False): " ",
    (True, True, False, False): "│",
    (False, False, True, True): "─",
    (False, True, False, True): "┌",
    (False, True, True, False): "┐",
    (True, False, False, True): "└",
    (True, False, True, False): "┘",
    (True, True, False, True): "├",
    (True, True, True, False): "┤",
    (False, True, True, True): "┬",
    (True, False, True, True): "┴",
    (True, True, True, True): "┼",
    # One arm only cannot happen between rooms; drawn plainly all the same.
    (True, False, False, False): "│",
    (False, True, False, False): "│",
    (False, False, True, False): "─",
    (False, False, False, True): "─",
}


_PLAIN = str.maketrans({**{glyph: "+" for glyph in "┌┐└┘├┤┬┴┼"}, "─": "-", "│": "|"})
"""Box drawing as plain ASCII, for pipes and files (every junction a `+`)."""


def draw(puzzle: Puzzle, values: Sequence[int] | None = None, *, unicode: bool = True) -> str:
    """The puzzle with `values` (the givens by default) inside its room borders; in plain
    ASCII unless `unicode`."""
    rows, cols, rooms = puzzle.rows, puzzle.cols, puzzle.rooms
    shown = puzzle.givens if values is None else values
    width = max(len(str(puzzle.max_value)), *(len(str(v)) for v in shown))

    def room(r: int, c: int) -> int:
        """Room of a cell, or -1 outside the grid (so the frame is a border)."""
        return rooms[r * cols + c] if 0 <= r < rows and 0 <= c < cols else -1

    def wall_left_of(r: int, c: int) -> bool:
        return 0 <= r < rows and room(r, c - 1) != room(r, c)

    def wall_above(r: int, c: int) -> bool:
        return 0 <= c < cols and room(r - 1, c) != room(r, c)

    lines = []
    for r in range(rows + 1):
        border = []
        for c in range(cols + 1):
            arms = (wall_left_of(r - 1, c), wall_left_of(r, c),
                    wall_above(r, c - 1), wall_above(r, c))
            border.append(_JUNCTIONS[arms])
            if c < cols:
                border.append(("─" if wall_above(r, c) else " ") * width)
        lines.append("".join(border))
        if r == rows:
            break
        cells = []
        for c in range(cols + 1):
            cells.append("│" if wall_left_of(r, c) else " ")
            if c < cols:
                value = shown[r * cols + c]
                cells.append((str(value) if value != EMPTY else "").rjust(width))
        lines.append("".join(cells))
    text = "\n".join(lines) + "\n"
    return text if unicode else text.translate(_PLAIN)
