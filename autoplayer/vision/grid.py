"""A located board of square cells: its lines of cells, pitch, rectangle and thick lines.

`Grid` is what every reader works from once the board is found
(`autoplayer.vision.lattice.find_grid`): cell interiors as column x-ranges and
row y-ranges, measured on the picture, never assumed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autoplayer.geometry import Rect

MIN_SIDE = 3
"""The fewest lines of cells across and down a board has."""
MIN_TILE_SIDE = 2
"""Sliding puzzles come as small as 2×2 (three tiles and the gap)."""


@dataclass(frozen=True)
class Grid:
    """A located board: cell interiors as column x-ranges and row y-ranges."""

    xs: tuple[tuple[int, int], ...]
    """Half-open x-range of each column's cell interior, left to right."""
    ys: tuple[tuple[int, int], ...]
    """Half-open y-range of each row's cell interior, top to bottom."""

    @property
    def width(self) -> int:
        return len(self.xs)

    @property
    def height(self) -> int:
        return len(self.ys)

    @property
    def pitch(self) -> float:
        """Mean distance between neighbouring cells, in pixels."""
        spans = [(self.xs[-1][0] - self.xs[0][0]) / max(1, self.width - 1),
                 (self.ys[-1][0] - self.ys[0][0]) / max(1, self.height - 1)]
        return float(np.mean([s for s in spans if s > 0] or [self.xs[0][1] - self.xs[0][0]]))

    @property
    def rect(self) -> Rect:
        """The board: every cell plus half of the outer line around it."""
        gx = _half_gap(self.xs)
        gy = _half_gap(self.ys)
        x0, x1 = self.xs[0][0] - gx, self.xs[-1][1] + gx
        y0, y1 = self.ys[0][0] - gy, self.ys[-1][1] + gy
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def cell(self, row: int, col: int) -> Rect:
        (x0, x1), (y0, y1) = self.xs[col], self.ys[row]
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def thick_lines(self, axis: str = "x") -> tuple[int, ...]:
        """Indices i where the line before cell i is thicker than the usual inner line."""
        spans = self.xs if axis == "x" else self.ys
        gaps = [spans[i][0] - spans[i - 1][1] for i in range(1, len(spans))]
        if not gaps:
            return ()
        usual = float(np.median(gaps))
        return tuple(i for i, g in enumerate(gaps, 1) if g > usual + 0.5 and g >= usual * 1.3)


def _half_gap(spans: tuple[tuple[int, int], ...]) -> int:
    gaps = [spans[i][0] - spans[i - 1][1] for i in range(1, len(spans))]
    return max(1, round(float(np.median(gaps)) / 2)) if gaps else 1
