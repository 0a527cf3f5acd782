"""Puzzles for the bundled nonogram page: random grids from a seed, and the JSON the page gets.

A seeded puzzle is a random picture turned into clues, so it may have several
solutions; the page accepts any grid that satisfies the clues, as real sites do.
Everything here is pure: the same size and seed give the same puzzle on every
machine (`random.Random` with an int seed is stable across Python versions).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from autoplayer.errors import UserError
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle, puzzle_from_grid

MIN_SIDE = 1
MAX_SIDE = 60
"""Larger boards do not fit a screen at the smallest cell size the page draws."""

DENSITY = 0.58
"""Share of filled cells: near what hand-made puzzles have, and dense enough that
most lines carry several clues while an empty line (a zero clue) still turns up."""


def random_grid(width: int, height: int, seed: int) -> np.ndarray:
    """An H×W grid of EMPTY/FILLED cells, the same for the same arguments everywhere."""
    check_size(width, height)
    rng = random.Random(f"nonogram:{width}x{height}:{seed}")
    cells = [FILLED if rng.random() < DENSITY else 0 for _ in range(width * height)]
    return np.array(cells, dtype=np.int8).reshape(height, width)


def seeded_puzzle(width: int, height: int, seed: int) -> Puzzle:
    """The clues of `random_grid`, with that grid as the (one known) solution."""
    return puzzle_from_grid(random_grid(width, height, seed),
                            title=f"Random {width}×{height} #{seed}")


def check_size(width: int, height: int) -> None:
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise UserError(
            f"board size {width}x{height} is outside {MIN_SIDE}x{MIN_SIDE}..{MAX_SIDE}x{MAX_SIDE}"
        )


def parse_size(text: str) -> tuple[int, int]:
    """'15x10' -> (15, 10): width first, as people write board sizes."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.strip().isdigit() or not h.strip().isdigit():
        raise UserError(f"size {text!r} is not WIDTHxHEIGHT (for example 15x15)")
    width, height = int(w), int(h)
    check_size(width, height)
    return width, height


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """What the page needs to draw and judge a puzzle: clues only, never the solution."""
    return {
        "width": puzzle.width,
        "height": puzzle.height,
        "rows": [list(c) for c in puzzle.rows],
        "columns": [list(c) for c in puzzle.columns],
        "title": puzzle.title,
    }


_CELL_CHARS = {UNKNOWN: ".", EMPTY: "0", FILLED: "1"}
_CHAR_CELLS = {c: v for v, c in _CELL_CHARS.items()}


def grid_param(grid: np.ndarray) -> str:
    """A board state as a URL value: one character a cell, row by row ('.', '0', '1')."""
    return "".join(_CELL_CHARS[int(v)] for v in np.asarray(grid).ravel())


def parse_grid_param(text: str, width: int, height: int) -> list[list[int]]:
    """The inverse of `grid_param`, checked against the board size."""
    if len(text) != width * height:
        raise UserError(f"grid has {len(text)} cells but the board has {width}x{height}")
    bad = set(text) - set(_CHAR_CELLS)
    if bad:
        raise UserError(f"grid may hold only '.', '0' and '1', not {''.join(sorted(bad))!r}")
    cells = [_CHAR_CELLS[c] for c in text]
    return [cells[r * width:(r + 1) * width] for r in range(height)]
