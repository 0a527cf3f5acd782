"""A nonogram as terminal text: column clues stacked above, row clues at the left.

Every cell is as wide as the widest column-clue number plus a space, so
column clues line up over their cells; a ruled frame and a rule every five
cells (the way printed puzzles are) keep a 50x50 board countable.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoplayer.games.nonogram.model import EMPTY, FILLED, Clue, Puzzle

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    import numpy as np

GROUP = 5

_UNICODE = {
    "filled": "█", "empty": "·", "unknown": " ",
    "h": "─", "v": "│",
    "top": "┌┬┐", "mid": "├┼┤", "bottom": "└┴┘",
}
_ASCII = {
    "filled": "#", "empty": ".", "unknown": " ",
    "h": "-", "v": "|",
    "top": "+++", "mid": "+++", "bottom": "+++",
}


def render_puzzle(
    puzzle: Puzzle, grid: np.ndarray | Sequence[Sequence[int]] | None = None, *,
    unicode: bool = True,
) -> str:
    """The puzzle's clues around `grid` (an array or row lists; all blank when None).

    Lines end without spaces. Row lists render without importing numpy.
    """
    style = _UNICODE if unicode else _ASCII
    w, h = puzzle.width, puzzle.height
    if grid is None:
        cells: Sequence[Sequence[int]] = [[-1] * w] * h
    elif hasattr(grid, "shape"):
        if grid.shape != (h, w):
            raise ValueError(f"grid is {grid.shape[1]}x{grid.shape[0]}, puzzle is {w}x{h}")
        cells = grid.tolist()
    else:
        cells = grid
        width = {len(row) for row in cells}
        if len(cells) != h or width != {w}:
            shown = width.pop() if len(width) == 1 else "?"
            raise ValueError(f"grid is {shown}x{len(cells)}, puzzle is {w}x{h}")
    numbers = [n for clue in puzzle.columns for n in clue]
    cw = max(2, 1 + max((len(str(n)) for n in numbers), default=1))
    row_texts = [" ".join(_words(c)) for c in puzzle.rows]
    left = max(len(t) for t in row_texts)
    pad = " " * (left + 1)

    def ruled(pieces: list[str], joint: str, ends: tuple[str, str]) -> str:
        groups = [
            "".join(pieces[i:i + GROUP]) for i in range(0, len(pieces), GROUP)
        ]
        return ends[0] + joint.join(groups) + ends[1]

    out = []
    depth = max(len(c) or 1 for c in puzzle.columns)
    stacks = [[""] * (depth - len(words)) + words
              for words in map(_words, puzzle.columns)]
    for level in range(depth):
        pieces = [stack[level].rjust(cw) for stack in stacks]
        out.append(pad + ruled(pieces, " ", (" ", " ")))
    rule = [style["h"] * cw] * w
    out.append(pad + ruled(rule, style["top"][1], (style["top"][0], style["top"][2])))
    glyph = {
        FILLED: style["filled"] * cw,
        EMPTY: style["empty"].rjust(cw),
    }
    unknown = style["unknown"] * cw
    for r in range(h):
        if r and r % GROUP == 0:
            out.append(pad + ruled(rule, style["mid"][1], (style["mid"][0], style["mid"][2])))
        pieces = [glyph.get(c, unknown) for c in cells[r]]
        out.append(row_texts[r].rjust(left) + " "
                   + ruled(pieces, style["v"], (style["v"], style["v"])))
    out.append(pad + ruled(rule, style["bottom"][1],
                           (style["bottom"][0], style["bottom"][2])))
    return "\n".join(line.rstrip() for line in out) + "\n"


def _words(clue: Clue) -> list[str]:
    """A clue's numbers as text; an empty line shows as 0, as puzzle books print it."""
    return [str(n) for n in clue] or ["0"]
