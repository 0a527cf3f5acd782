"""Clue numbers cut by the picture's edge: which lines, and how they are named.

A game window too small for its clues cuts them at its edge, and a whole
number may lie beyond it unseen. `clipped_lines` finds the lines whose clue
runs off (or starts too near) the edge; a reading opted in to clipped clues
keeps their visible numbers as a known tail of an unknown clue.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from autoplayer.errors import InputError
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.numbers import ClueNumber
from autoplayer.vision.spacing import gap_threshold


@dataclass(frozen=True)
class ClippedLine:
    """A line whose clue runs off the picture's edge: only a tail of it is known."""

    kind: str
    """'row' or 'column'."""
    index: int
    cut: bool
    """Its first number read may be cut by the edge: certainly there, value unknown."""
    hidden: int
    """Numbers certainly in the clue before its known tail (a cut one, or ink at the edge
    too little to read as a number)."""

    @property
    def name(self) -> str:
        return f"{self.kind} {self.index + 1}"


def edge_lines(lines: Iterable[ClippedLine], where: str,
               sides: tuple[str, str] = ("left", "top")) -> str:
    """'clues of rows 1, 3 <where> the left edge of the picture' (and of columns, the top;
    `sides`: the edges beyond the row and the column clues)."""
    named = {kind: [c.index for c in lines if c.kind == kind] for kind in ("row", "column")}
    left, top = sides

    def names(kind: str) -> str:
        found = named[kind]
        return f"{kind}{'s' if len(found) > 1 else ''} {', '.join(str(i + 1) for i in found)}"

    if named["row"] and named["column"]:
        return (f"clues of {names('row')} {where} the {left} edge of the picture and of "
                f"{names('column')} the {top} edge")
    if named["row"]:
        return f"clues of {names('row')} {where} the {left} edge of the picture"
    return f"clues of {names('column')} {where} the {top} edge of the picture"


def edge_error(layout: ClueLayout, lines: Iterable[ClippedLine], where: str,
               why: str) -> InputError:
    """`edge_lines` as an error whose region is the first named line's clue strip."""
    lines = list(lines)
    first = next((c for c in lines if c.kind == "row"), lines[0])  # edge_lines names rows first
    box = (layout.rows if first.kind == "row" else layout.columns)[first.index].box
    return InputError(f"{edge_lines(lines, where, (layout.row_side, layout.column_side))}{why}"
                      ", so nothing is guessed",
                      region=(box.x, box.y, box.w, box.h))


def clipped_lines(layout: ClueLayout, rows: list[list[ClueNumber]],
                  columns: list[list[ClueNumber]]) -> tuple[ClippedLine, ...]:
    """Lines whose clue may run off the picture's left (rows) or top (columns) edge.

    A row's first number is cut when its ink touches the edge or stops closer to it
    than the digits of one number stand apart (a digit beyond would belong to it);
    ink on the edge that was too little to read as a digit is a cut number before
    it. The row is clipped whenever its ink starts closer to the edge than two
    numbers ever stand apart. Columns likewise, their numbers stacked from the top.
    """
    lo, hi = gap_threshold(layout)
    joined = (lo + hi) / 2
    out = []
    w_img, h_img = layout.image_size
    for kind, lines, touching in (("row", rows, layout.clipped_rows),
                                  ("column", columns, layout.clipped_columns)):
        # Measured from the picture's edge beyond the clues: on a band right of (below)
        # the board, that is the far edge and the line's last number is the outermost.
        far = layout.row_side == "right" if kind == "row" else layout.column_side == "bottom"

        def start(n: ClueNumber, kind: str = kind, far: bool = far) -> int:
            if far:
                return w_img - n.box.right if kind == "row" else h_img - n.box.bottom
            return n.box.x if kind == "row" else n.box.y

        def end(n: ClueNumber, kind: str = kind, far: bool = far) -> int:
            if far:
                return w_img - n.box.x if kind == "row" else h_img - n.box.y
            return n.box.right if kind == "row" else n.box.bottom

        apart = [start(b) - end(a) if not far else start(a) - end(b)
                 for line in lines for a, b in itertools.pairwise(line)]
        spacing = min(apart) if apart else 2 * joined
        for i, line in enumerate(lines):
            if not line:
                continue
            margin = start(line[-1] if far else line[0])
            cut = margin == 0 or (kind == "row" and margin <= joined)
            if cut or i in touching:
                out.append(ClippedLine(kind, i, cut, 1))
            elif margin < spacing:
                out.append(ClippedLine(kind, i, False, 0))
    return tuple(out)
