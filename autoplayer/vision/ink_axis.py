"""The picture seen along the colour that sets the clue ink apart from its grounds.

The reader sees luminance. A game may draw its clue ink in a colour about as light as
some of its grounds (grey numbers on olive bars, blue on slate), or as light as the
digits' own drop shadow (blue digits over a grey shadow): a person tells them apart at
a glance by their hue, luminance hardly at all. Given the clue ink and what it must be
told from, one direction in RGB separates the ink from all of them by the widest
margin (the point of their differences from the ink nearest to zero: a support
vector); the picture projected on it is a luminance in which the ink stands out as far
as its colours allow. It is worth reading only when that margin is well over what
luminance gives (`GAIN`).

The ink found may be two inks (digits and their shadow, told apart by hue alone): its
pixels are split in two by colour, and each part is tried as the ink, the other one
to be told from it (which is the digits and which the shadow is left to the reader's
two-tone test, `two_tone`).
"""

from __future__ import annotations

import cv2
import numpy as np

from autoplayer.vision.clues import ClueLayout

GAIN = 1.6
"""The colour axis is used when it sets the ink this many times further from the nearest
colour it must be told from than luminance does (the same scale: a grey step of d levels
is d on both)."""
PART = 0.15
"""Each of the two inks holds at least this share of the ink's pixels."""
SAMPLE = 4000
"""Ink pixels the two inks are told apart on (at most)."""
LUMA = np.array([0.299, 0.587, 0.114])


def ink_axis_luminances(image: np.ndarray, layout: ClueLayout) -> list[np.ndarray]:
    """Luminances of the picture along its ink's own colour axis (see module docstring),
    the ink on the same side of its grounds as in the picture's own luminance: for the
    ink as found, then for each of two inks it may be; those that would not set the ink
    clearly further apart are left out."""
    rgb = image[..., :3]
    strips = [s for s in (*layout.rows, *layout.columns) if s.box.w > 0 and s.box.h > 0]
    inked = [s for s in strips if s.groups]
    if not inked:
        return []
    pixels = np.concatenate([rgb[b.box.y:b.box.bottom, b.box.x:b.box.right][b.mask]
                             for s in inked for g in s.groups for b in g]).astype(np.float32)
    grounds = np.array([np.median(rgb[s.box.y:s.box.bottom, s.box.x:s.box.right]
                                  .reshape(-1, 3), axis=0) for s in strips])
    tries = [(np.median(pixels, axis=0), [])]
    inks = _two_inks(pixels)
    if inks is not None:
        a, b = inks
        tries += [(a, [b]), (b, [a])]
    out = []
    for ink, others in tries:
        axis = _axis(ink, [*grounds, *others])
        if axis is not None:
            out.append(_projected(rgb, ink, axis, layout.dark))
    return out


def _axis(ink: np.ndarray, others: list[np.ndarray]) -> np.ndarray | None:
    """The unit direction setting `ink` furthest from every colour of `others` (all on
    one side of it), or None when it does not beat luminance by `GAIN`."""
    diffs = np.unique(np.round(np.array(others) - ink), axis=0)
    axis = _nearest_in_hull(diffs)
    margin = float(np.linalg.norm(axis))
    plain = float(np.min(np.abs(diffs @ LUMA)))
    if margin < 1.0 or margin / np.sqrt(3) < GAIN * plain:
        return None
    return axis / margin


def _projected(rgb: np.ndarray, ink: np.ndarray, unit: np.ndarray, dark: bool) -> np.ndarray:
    """The picture along `unit` as a luminance. What the ink is told from lies at least the
    margin along `unit` from it; scaled by 1/sqrt(3) a grey step keeps its size, and the
    ink keeps its own luminance and side of its grounds."""
    side = 1.0 if dark else -1.0
    seen = (rgb.astype(np.float32) - ink.astype(np.float32)) @ unit.astype(np.float32)
    lum = float(ink @ LUMA) + side * seen / np.float32(np.sqrt(3))
    return np.rint(np.clip(lum, 0, 255)).astype(np.float32)


def _two_inks(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The ink's pixels split in two by colour (2-means), each part's median colour; None
    when one part is too small to be an ink of its own (`PART`)."""
    if len(pixels) < 20:
        return None
    sample = pixels[::max(1, len(pixels) // SAMPLE)]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(np.ascontiguousarray(sample), 2, None, criteria, 2,
                              cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    if min(np.mean(labels == 0), np.mean(labels == 1)) < PART:
        return None
    return np.median(sample[labels == 0], axis=0), np.median(sample[labels == 1], axis=0)


def _nearest_in_hull(points: np.ndarray, steps: int = 200) -> np.ndarray:
    """The point of the points' convex hull nearest the origin (Frank-Wolfe steps: the
    hull of a few grounds, exact enough for a direction)."""
    x = points[np.argmin(np.linalg.norm(points, axis=1))].astype(float)
    for _ in range(steps):
        s = points[np.argmin(points @ x)]
        d = s - x
        dd = float(d @ d)
        if dd == 0:
            break
        t = min(1.0, max(0.0, -float(x @ d) / dd))
        if t == 0:
            break
        x = x + t * d
    return x
