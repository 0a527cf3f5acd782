"""Clue numbers cut by the picture's edge: which lines, how they are named, how they are solved.

A game window too small for its clues cuts them at its edge (some games never
shrink to fit), and a whole number may lie beyond it unseen. `clipped_lines`
finds the lines whose clue runs off (or starts too near) the edge. A reading
that does not opt in refuses them (`CluesAtEdge`); one opted in to clipped
clues (`read_nonogram(clipped=True)`) keeps their visible numbers as a known
tail of an unknown clue, and `solve_clipped` solves from the other clues,
keeping only the solutions those tails allow, never guessing. Any nonogram
gets this when its picture calls for it: the play loop's reader reads
normally first and again with clipped tails when the clues meet the edge.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.nonogram.model import line_clue
from autoplayer.vision.clues import ClueLayout
from autoplayer.vision.numbers import ClueNumber
from autoplayer.vision.spacing import gap_threshold

if TYPE_CHECKING:
    from autoplayer.games.base import Solved
    from autoplayer.games.nonogram.reader import NonogramReading

ENUMERATE = 64
"""With clipped clues: solutions enumerated to find the one the visible numbers allow."""


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


class CluesAtEdge(InputError):
    """Clues running off the picture's edge, or starting too near it, refused by a reading
    not opted in to clipped clues: a caller that can solve from their visible tails may
    read again with `clipped=True`."""


def edge_error(layout: ClueLayout, lines: Iterable[ClippedLine], where: str,
               why: str) -> CluesAtEdge:
    """`edge_lines` as an error whose region is the first named line's clue strip."""
    lines = list(lines)
    first = next((c for c in lines if c.kind == "row"), lines[0])  # edge_lines names rows first
    box = (layout.rows if first.kind == "row" else layout.columns)[first.index].box
    return CluesAtEdge(f"{edge_lines(lines, where, (layout.row_side, layout.column_side))}{why}"
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


def tail_fits(got: tuple[int, ...], tail: tuple[int, ...], hidden: int) -> bool:
    """Whether a line's runs can be a clue seen only from `tail` on, with `hidden` numbers
    certainly before it (cut by the edge)."""
    if len(got) < len(tail) + hidden:
        return False
    return not tail or got[-len(tail):] == tail


def solve_clipped(read: NonogramReading, timeout: float) -> Solved[np.ndarray]:
    """Solve with clipped lines' clues unknown, keeping solutions their visible tails allow.

    Never guesses: when more than one solution is left (or the enumeration
    could not finish within `timeout` seconds), it stops and names the clipped lines.
    """
    from autoplayer.games.base import Solved
    from autoplayer.games.nonogram.solver import Verdict, solve

    clipped = read.clipped
    names = ", ".join(line.name for line in clipped)
    board = read.grid.rect
    region = (board.x, board.y, board.w, board.h)
    result = solve(read.puzzle, max_solutions=ENUMERATE, timeout=timeout)
    if result.verdict is Verdict.TIMEOUT:
        raise UserError(f"{names}: clue clipped at the window's edge, and the solver found no "
                        f"solution from the other clues within {timeout:g} s")
    if result.verdict is Verdict.CONTRADICTION:
        raise InputError("the clues read have no solution even with the clipped clues of "
                         f"{names} left open; a clue was misread", region=region)

    def allowed(grid: np.ndarray) -> bool:
        return all(
            tail_fits(line_clue(grid[line.index] if line.kind == "row" else grid[:, line.index]),
                      read.tail(line), line.hidden)
            for line in clipped)

    left = [s for s in result.solutions if allowed(s)]
    complete = len(result.solutions) < ENUMERATE
    if complete and len(left) == 1:
        note = (f"{names}: clue clipped at the window's edge; solved from the numbers "
                "visible and the other clues")
        return Solved(left[0], note)
    if complete and not left:
        raise InputError(f"no solution agrees with the visible part of the clipped clues of "
                         f"{names}; a clue was misread", region=region)
    raise UserError(f"{names}: clue clipped at the window's edge, and the clues that are "
                    "visible allow more than one solution; a number is missing, so the bot "
                    "will not guess (give the game's clues more room: a larger window or "
                    "cells, or a smaller puzzle)")
