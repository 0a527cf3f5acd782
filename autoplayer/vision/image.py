"""Pixel-level helpers: luminance, runs of true values, ink masks, ASCII pictures."""

from __future__ import annotations

import cv2
import numpy as np


def luminance(image: np.ndarray) -> np.ndarray:
    """Rec. 601 luma as float32 in 0..255 (a grey image passes through)."""
    if image.ndim == 2:
        return image.astype(np.float32)
    rgb = image[..., :3]
    if rgb.dtype == np.uint8:
        return cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY).astype(np.float32)
    rgb = rgb.astype(np.float32)
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Half-open [start, end) runs of True in a 1-D boolean array."""
    m = np.asarray(mask, dtype=np.int8)
    if m.size == 0:
        return []
    d = np.diff(np.concatenate(([0], m, [0])))
    starts = np.flatnonzero(d == 1)
    ends = np.flatnonzero(d == -1)
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def dark_ink(lum: np.ndarray) -> bool:
    """Whether ink is darker than its background: the minority extreme is the ink."""
    lo, med, hi = np.percentile(lum, [0.5, 50, 99.5])
    return (med - lo) >= (hi - med)


def ink_strength(lum: np.ndarray, kernel_wh: tuple[int, int], dark: bool) -> np.ndarray:
    """How far each pixel departs from its local background towards the ink colour.

    The background is a morphological closing (opening for light ink) with a
    line-shaped kernel longer than any glyph along the clue strip, so
    gradients and stripes that run along the strip cancel out.
    """
    kw, kh = (max(1, int(v) | 1) for v in kernel_wh)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (kw, kh))
    if dark:
        background = cv2.morphologyEx(lum, cv2.MORPH_CLOSE, kernel)
        return background - lum
    background = cv2.morphologyEx(lum, cv2.MORPH_OPEN, kernel)
    return lum - background


def trim(mask: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The mask cut to its ink bounding box, with the box's top-left offset (y, x)."""
    ys = np.flatnonzero(mask.any(axis=1))
    xs = np.flatnonzero(mask.any(axis=0))
    if ys.size == 0:
        return mask[:0, :0], 0, 0
    return mask[ys[0]:ys[-1] + 1, xs[0]:xs[-1] + 1], int(ys[0]), int(xs[0])


def ascii_picture(mask: np.ndarray) -> str:
    """A glyph bitmap as rows of '#' (ink) and '.', for error messages and prompts."""
    return "\n".join("".join("#" if v else "." for v in row) for row in np.asarray(mask, bool))
