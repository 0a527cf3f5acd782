"""The picture seen along the colour that sets the clue ink apart from its grounds.

The reader sees luminance. A game may draw its clue ink in a colour about as light as
some of its grounds (grey numbers on olive bars, blue on slate): a person tells them
apart at a glance by their hue, luminance hardly at all. Given the clue ink and the
grounds it stands on, one direction in RGB separates the ink from every ground by
the widest margin (the point of the grounds' differences from the ink nearest to
zero: a support vector); the picture projected on it is a luminance in which the ink
stands out as far as its colours allow. It is worth reading only when that margin is
well over what luminance gives (`GAIN`).
"""

from __future__ import annotations

import numpy as np

from autoplayer.vision.clues import ClueLayout

GAIN = 1.6
"""The colour axis is used when it sets the ink this many times further from its nearest
ground than luminance does (the same scale: a grey step of d levels is d on both)."""
LUMA = np.array([0.299, 0.587, 0.114])


def ink_axis_luminance(image: np.ndarray, layout: ClueLayout) -> np.ndarray | None:
    """A luminance of the picture along its ink's own colour axis (see module docstring),
    the ink on the same side of its grounds as in the picture's own luminance; None when
    it would not set the ink clearly further apart."""
    rgb = image[..., :3]
    strips = [s for s in (*layout.rows, *layout.columns) if s.box.w > 0 and s.box.h > 0]
    inked = [s for s in strips if s.groups]
    if not inked:
        return None
    ink = np.median(np.concatenate(
        [rgb[b.box.y:b.box.bottom, b.box.x:b.box.right][b.mask]
         for s in inked for g in s.groups for b in g]), axis=0)
    grounds = np.array([np.median(rgb[s.box.y:s.box.bottom, s.box.x:s.box.right]
                                  .reshape(-1, 3), axis=0) for s in strips])
    diffs = np.unique(np.round(grounds - ink), axis=0)
    axis = _nearest_in_hull(diffs)
    margin = float(np.linalg.norm(axis))
    plain = float(np.min(np.abs(diffs @ LUMA)))
    if margin < 1.0 or margin / np.sqrt(3) < GAIN * plain:
        return None
    unit = axis / margin
    # Grounds lie at least `margin` along `unit` from the ink. Scaled by 1/sqrt(3), a grey
    # step keeps its size; the ink keeps its own luminance and side of its grounds.
    side = 1.0 if layout.dark else -1.0
    ink_lum = float(ink @ LUMA)
    seen = (rgb.astype(np.float32) - ink.astype(np.float32)) @ unit.astype(np.float32)
    lum = ink_lum + side * seen / np.float32(np.sqrt(3))
    return np.rint(np.clip(lum, 0, 255)).astype(np.float32)


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

