"""Clue fonts drawn in antialiased strokes a pixel wide or less, and the ink threshold they need.

No pixel of such a stroke reaches full ink, so the usual threshold keeps only
parts of it and small digits fall apart; a font that is a hairline one is cut
again against its glyphs' own ink.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autoplayer.vision.strips import Strip

HAIRLINE_WIDTH = 1.0
"""Glyph strokes this many pixels wide (median ink run along a scanline) or less are
hairlines: see `is_hairline`."""
HAIRLINE_SOLID = 0.8
"""... and antialiased: under this share of their ink pixels reach 90% of the strongest."""
HAIRLINE_SAMPLE = 10
"""Strips of each band (about) the hairline judgement looks at."""
HAIRLINE_CONTRAST = 0.35
"""A hairline font's ink departs from its background by this share of its glyphs'
typical (90th percentile) ink."""


def glyph_ink(strips: list[Strip], strength: np.ndarray | None, x0: int, y0: int
              ) -> np.ndarray:
    """The ink strength of every glyph pixel of a band (`strength` starts at x0, y0)."""
    if strength is None:
        return np.zeros(0, np.float32)
    values = [strength[b.box.y - y0:b.box.bottom - y0, b.box.x - x0:b.box.right - x0][b.mask]
              for s in strips for g in s.groups for b in g]
    return np.concatenate(values) if values else np.zeros(0, np.float32)


def is_hairline(rows: list[Strip], columns: list[Strip], inks: Callable[[], list[np.ndarray]]
                ) -> bool:
    """Whether the clue font is drawn in antialiased strokes a pixel wide or less.

    Antialiasing spreads such a stroke over two pixels at well under full ink, so the
    usual threshold keeps only parts of it and small digits fall apart. A font drawn
    without antialiasing has nothing fainter to recover: nearly all its ink (`inks`,
    asked for only when the strokes are thin) is at full strength.
    """
    masks = [b.mask for s in (*rows, *columns) for g in s.groups for b in g]
    if not masks:
        return False
    # Every mask's rows end to end, a blank after each row, so runs never join across.
    rowwise = []
    for m in masks:
        padded = np.zeros((m.shape[0], m.shape[1] + 1), bool)
        padded[:, :-1] = m
        rowwise.append(padded.ravel())
    widths = np.diff(np.flatnonzero(np.diff(np.concatenate(([False], *rowwise)).astype(np.int8))))
    if float(np.median(widths[::2])) > HAIRLINE_WIDTH:
        return False
    ink = np.concatenate(inks())
    return bool(ink.size) and float(np.mean(ink >= 0.9 * ink.max())) < HAIRLINE_SOLID


def hairline_threshold(ink: np.ndarray) -> float | None:
    """An ink threshold for hairline glyphs: a share of the glyphs' own typical ink (their
    strongest pixels stay under the band's extreme), so what is left of a hairline counts."""
    if not ink.size:
        return None
    return max(8.0, HAIRLINE_CONTRAST * float(np.percentile(ink, 90)))
