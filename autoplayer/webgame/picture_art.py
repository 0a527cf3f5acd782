"""Generated pictures for puzzles whose tiles are pictures: a colour gradient, flat shapes on
a flat ground, smooth noise, or all three. numpy and OpenCV only; the same seed draws the
same picture on every machine (the bundled 15-puzzle page and the picture-goal tests and
bench share them)."""

from __future__ import annotations

import zlib

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


def seeded_picture(key: str, kind: str, height: int, width: int) -> np.ndarray:
    """`picture` drawn from a text key (CRC-32 of it seeds the generator)."""
    return picture(np.random.default_rng(zlib.crc32(key.encode())), kind, height, width)
