"""Recognising Pattern's clue digits two independent ways, and how sure that is.

1. The digit templates `autoplayer calibrate` learns from screenshots Pattern
   renders itself (`templates/pattern`, see `tools/pattern-calibration`),
   matched by `autoplayer.vision.templates`.
2. The black-group scanline state machines of `autoplayer.vision.scanline`
   (PixeloSolver's method), which need no training: the second opinion, and
   the only one when no templates exist.

A digit both agree on is certain. Where they differ (or only the state
machines read it) the digit is doubtful and carries the other reading as an
alternative; the reader's validation (every clue fits, totals agree, the
solver finds a solution) decides, trying alternatives before giving up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from autoplayer.vision.templates import TemplateSet

INK_LEVEL = 0.5
"""A glyph's pixel is black at half its strongest ink (antialiased edges are grey)."""
SURE = 0.5


@dataclass(frozen=True)
class DigitReading:
    value: int | None
    """None: unread."""
    confidence: float
    """0..1; at least `SURE` means sure."""
    template: int | None = None
    shape: int | None = None
    alternatives: tuple[int, ...] = ()
    """Other digits worth trying when the clues do not add up, best first."""


_CACHE: dict[tuple[int, tuple[int, ...], bytes], tuple[list, list]] = {}
"""Readings per glyph bitmap: a board repeats the same few bitmaps over and over."""
_CACHE_MAX = 4096


def _readings(mask: np.ndarray, templates: TemplateSet | None) -> tuple[list, list]:
    from autoplayer.vision.scanline import recognise

    key = (id(templates), mask.shape, np.packbits(mask).tobytes())
    hit = _CACHE.get(key)
    if hit is None:
        by_template = (templates.recognise(mask)
                       if templates is not None and templates.digits else [])
        hit = (recognise(mask), by_template)
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = hit
    return hit


def read_digit(ink: np.ndarray, templates: TemplateSet | None) -> DigitReading:
    """One digit (its ink, 0..1) by both readers."""
    mask = ink >= INK_LEVEL
    by_shape, by_template = _readings(mask, templates)
    shape, shape_conf = by_shape[0] if by_shape else (None, 0.0)
    shape_next = tuple(d for d, _ in by_shape[1:3])
    if not by_template:
        sure = 0.6 if shape_conf >= 0.2 else 0.4
        return DigitReading(shape, sure if shape is not None else 0.0, None, shape, shape_next)
    template, template_conf = by_template[0]
    template_next = tuple(d for d, _ in by_template[1:3])
    if template == shape:
        return DigitReading(template, 1.0, template, shape, template_next)
    # They differ: the more confident one leads, the other is the first alternative.
    if template_conf >= shape_conf:
        return DigitReading(template, 0.4, template, shape,
                            tuple(dict.fromkeys(d for d in (shape, *template_next)
                                                if d is not None)))
    return DigitReading(shape, 0.4, template, shape,
                        tuple(dict.fromkeys((template, *shape_next))))
