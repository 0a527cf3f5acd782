"""Generated pictures cut into shuffled sliding-puzzle tiles, with the true arrangement:
for the picture-goal tests and bench (numpy and OpenCV only; every draw from one seed)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autoplayer.webgame.picture_art import KINDS, picture

__all__ = ["KINDS", "Cut", "cut", "picture"]


@dataclass(frozen=True)
class Cut:
    """Tiles as a game would show them, shuffled, the gap's tile left out; `truth[p]` is the
    index in `tiles` of the tile that belongs on cell p (-1: the gap)."""

    width: int
    height: int
    kind: str
    tiles: list[np.ndarray]
    truth: tuple[int, ...]


def cut(rng: np.random.Generator, kind: str, width: int, height: int,
        tile: int | None = None) -> Cut:
    """A picture of `kind` cut into W×H tiles; the gap is the last cell, the first, or any,
    a third of the time each."""
    side = int(rng.choice([32, 48, 64])) if tile is None else tile
    img = picture(rng, kind, height * side, width * side)
    pieces = [img[r * side:(r + 1) * side, c * side:(c + 1) * side]
              for r in range(height) for c in range(width)]
    n = width * height
    gap = int(rng.choice([n - 1, 0, int(rng.integers(0, n))]))
    homes = [p for p in range(n) if p != gap]
    order = rng.permutation(len(homes))
    truth = [-1] * n
    for k, o in enumerate(order):
        truth[homes[o]] = k
    return Cut(width, height, kind, [pieces[homes[o]] for o in order], tuple(truth))
