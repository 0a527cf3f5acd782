"""From a solution to clicks in games where clicking a tile slides its whole run.

In Tatham's Fifteen (and our browser page), a click on any tile in the gap's
row or column slides every tile between it and the gap one cell towards the
gap. So a run of equal moves in a solution — the gap travelling in a straight
line — is one click, on the tile as far from the gap as the run is long.
Pure: the reader supplies where each cell is on the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from autoplayer.games.fifteen.model import Board

# The gap's step, as (row, column), for each tile slide (the tile goes the other way).
_GAP_STEP = {"L": (0, 1), "R": (0, -1), "U": (1, 0), "D": (-1, 0)}


@dataclass(frozen=True)
class Slide:
    """Click the tile on `cell` (row-major index): `count` tiles slide `direction`."""

    cell: int
    direction: str
    count: int


def batch(board: Board, moves: Sequence[str]) -> list[Slide]:
    """The clicks that play `moves` on `board` (ValueError if a move slides nothing)."""
    slides: list[Slide] = []
    gap = board.gap
    for direction, run in groupby(moves):
        count = len(list(run))
        dr, dc = _GAP_STEP[direction]
        r, c = divmod(gap, board.width)
        r, c = r + dr * count, c + dc * count
        if not (0 <= r < board.height and 0 <= c < board.width):
            size = f"{board.width}x{board.height}"
            raise ValueError(f"{count} slides {direction} run off the {size} board")
        gap = r * board.width + c
        slides.append(Slide(gap, direction, count))
    return slides


def play_slides(board: Board, slides: Sequence[Slide]) -> Board:
    """What the board shows after the clicks (how a verifier predicts the next capture)."""
    for s in slides:
        board = board.play(s.direction * s.count)
        if board.gap != s.cell:
            raise ValueError(f"click on cell {s.cell} does not slide {s.count} {s.direction}")
    return board
