"""Generated pictures cut into shuffled sliding-puzzle tiles, with the true arrangement:
for the picture-goal tests and bench (numpy and OpenCV only; every draw from one seed)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

KINDS = ("gradient", "shapes", "noise", "mixed")


def picture(rng: np.random.Generator, kind: str, height: int, width: int) -> np.ndarray:
    """An RGB picture: a four-corner colour gradient, flat-coloured shapes on a flat ground,
    smooth noise (random values upsampled by bicubic interpolation), or all three."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    img = np.zeros((height, width, 3))
    if kind in ("gradient", "mixed"):
        c = rng.uniform(0, 255, (4, 3))
        u, v = (x / width)[..., None], (y / height)[..., None]
        img += (1 - u) * (1 - v) * c[0] + u * (1 - v) * c[1] + (1 - u) * v * c[2] + u * v * c[3]
    else:
        img += rng.uniform(0, 255, 3)
    if kind in ("noise", "mixed"):
        k = int(rng.choice([3, 5, 9]))
        noise = rng.normal(0, 1, (height // k + 2, width // k + 2, 3))
        noise = cv2.resize(noise, (width, height), interpolation=cv2.INTER_CUBIC)
        img += noise * rng.uniform(20, 50) * (1 if kind == "noise" else 0.6)
    if kind in ("shapes", "mixed"):
        for _ in range(int(rng.integers(4, 12))):
            colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
            cx, cy = int(rng.integers(0, width)), int(rng.integers(0, height))
            if rng.random() < 0.5:
                cv2.circle(img, (cx, cy), int(rng.integers(5, width // 3)), colour, -1,
                           cv2.LINE_AA)
            else:
                pts = rng.integers(0, [width, height], (int(rng.integers(3, 6)), 2))
                cv2.fillPoly(img, [pts.astype(np.int32)], colour, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


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
