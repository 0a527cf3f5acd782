"""Pixel-level helpers: luminance, runs of true values, ink masks, ASCII pictures."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import cv2
import numpy as np

RULE_TONES = (0.15, 0.9)
"""A seam along a clue strip is a line of mid-tones: every pixel of it between these
shares of the way from the strip's paper to the ink colour. The low end lets drop
shadows falling on it (a quarter of the way on a grey stripe) stay part of it; the high
end keeps glyphs out: the edge of stacked digits, continued by their shadows in the gaps
between them, is a line too, but of ink-coloured pixels."""


def bitmap_key(mask: np.ndarray) -> tuple[tuple[int, ...], bytes]:
    """A hashable key for a glyph bitmap: readers memoise by it, as a board repeats the
    same few bitmaps."""
    g = np.asarray(mask, dtype=bool)
    return g.shape, np.packbits(g).tobytes()


_SHARED: ContextVar[tuple[np.ndarray, np.ndarray] | None] = ContextVar("_SHARED", default=None)


@contextmanager
def shared_luminance(image: np.ndarray, lum: np.ndarray | None = None) -> Iterator[np.ndarray]:
    """While one picture is read, its luminance is made once: every stage that asks
    `luminance` of it (the same pixels: the array or a view of it whole) gets this one,
    read-only, so that no stage can change what the others see. `lum`: the luminance to
    give instead (the picture's own with a texture flattened)."""
    lum = luminance(image) if lum is None else lum
    lum.setflags(write=False)
    token = _SHARED.set((image, lum))
    try:
        yield lum
    finally:
        _SHARED.reset(token)


def _same_pixels(a: np.ndarray, b: np.ndarray) -> bool:
    return a is b or (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
                      and a.shape == b.shape and a.strides == b.strides and a.dtype == b.dtype)


def luminance(image: np.ndarray) -> np.ndarray:
    """Rec. 601 luma as float32 in 0..255 (a grey image passes through)."""
    shared = _SHARED.get()
    if shared is not None and _same_pixels(shared[0], image):
        return shared[1]
    if image.ndim == 2:
        return image.astype(np.float32)
    rgb = image[..., :3]
    if rgb.dtype == np.uint8:
        return cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY).astype(np.float32)
    rgb = rgb.astype(np.float32)
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def whole_levels(values: np.ndarray) -> np.ndarray | None:
    """The values as bytes when they are whole numbers 0..255 (a screenshot's levels),
    else None: medians, minima and maxima over bytes are the same and come sooner."""
    levels = values.astype(np.uint8)
    return levels if np.array_equal(levels, values) else None


def byte_median(levels: np.ndarray) -> np.ndarray:
    """`np.median` over the last axis of bytes, as float32 (what it gives of whole-number
    float32 levels): the middle value, or the mean of the middle two."""
    k = levels.shape[-1] // 2
    if levels.shape[-1] % 2:
        return np.partition(levels, k, axis=-1)[..., k].astype(np.float32)
    middle = np.partition(levels, [k - 1, k], axis=-1)
    return (middle[..., k - 1].astype(np.float32) + middle[..., k]) / np.float32(2)


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Half-open [start, end) runs of True in a 1-D boolean array."""
    m = np.asarray(mask, dtype=bool)
    if m.size == 0:
        return []
    # Where the value changes (after index i), run ends and starts alternating; a run at
    # either end of the array starts before it or ends on its last element. (Few numpy
    # calls: this runs for every scanline of every glyph.)
    edges = np.flatnonzero(m[1:] != m[:-1]).tolist()
    if m[0]:
        edges.insert(0, -1)
    if m[-1]:
        edges.append(m.size - 1)
    return [(a + 1, b + 1) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def dark_ink(lum: np.ndarray) -> bool:
    """Whether ink is darker than its background: the minority extreme is the ink."""
    lo, med, hi = np.percentile(lum, [0.5, 50, 99.5])
    return (med - lo) >= (hi - med)


def _background_along(lum: np.ndarray, kernel_wh: tuple[int, int], dark: bool) -> np.ndarray:
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, _odd(kernel_wh))
    # Beyond the picture's edge the picture goes on as it ends: a dark bar cut by the
    # edge (a page header) is not a valley the closing should fill.
    op = cv2.MORPH_CLOSE if dark else cv2.MORPH_OPEN
    levels = whole_levels(lum)
    if levels is not None:
        closed = cv2.morphologyEx(levels, op, kernel, borderType=cv2.BORDER_REPLICATE)
        return closed.astype(np.float32)
    return cv2.morphologyEx(lum, op, kernel, borderType=cv2.BORDER_REPLICATE)


def _odd(kernel_wh: tuple[int, int]) -> tuple[int, int]:
    kw, kh = (max(1, int(v) | 1) for v in kernel_wh)
    return kw, kh


def _departure(lum: np.ndarray, background: np.ndarray, dark: bool) -> np.ndarray:
    return background - lum if dark else lum - background


def grounded_ink(lum: np.ndarray, kernel_wh: tuple[int, int], dark: bool, ground: np.ndarray,
                 rule_width: int, floor: float = 8.0, colour: float | None = None,
                 numbers: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """How far each pixel of a clue band departs from its local background towards the
    ink colour, as a share (x255) of the way from that background to the ink colour.

    Along the strip the background is a morphological closing (opening for light
    ink) with a line-shaped kernel longer than any glyph, so gradients and stripes
    running along the strip cancel out. Clue bands may fade (towards the page
    colour), so one number stands on white and the next on near-black: measured
    against its own background, black ink is full strength on both. The ink colour
    is the region's extreme; departures under `floor` levels stay background.

    `ground` is a second background for each pixel, taken across the strip (its
    paper just above and below the text line). The background along the strip
    is lifted over a dark page lying between a band and light text beyond it (or
    over the dark fade at a band's end): there the ground says the paper itself
    is dark, so nothing departs from it. Ink is what departs from the nearer of
    the two (mirrored for light ink).

    A seam running along the strip (between two bands) is no ink either, however
    drop shadows falling on it break it up: mid-tones (`RULE_TONES`) running longer
    than the kernel (longer than any glyph), with breaks no wider than `rule_width`
    (where a band fades, the shadow of a stroke on the seam is as light as the band; a
    stroke as dark as ink crossing it stays ink),
    and at most `rule_width` thick. (Thicker, it is a stripe of another shade the
    strip's edge cuts into, or a shade across the band.)

    `colour`: the ink colour, when the caller knows it better than the region's extreme
    (`ink_colour`); `numbers`: the clue numbers' own ink colour, what mid-tones are
    judged against (else `colour`).

    Returns (the departure from the background along the strip alone: the contrast
    scale thresholds are shares of, ink).
    """
    if lum.size == 0:  # OpenCV refuses an empty picture
        empty = np.zeros(lum.shape, np.float32)
        return empty, empty
    along = _background_along(lum, kernel_wh, dark)
    if colour is None:
        colour = ink_colour(lum, dark)
    scale = _relative(lum, along, dark, floor, colour)
    ink = scale.copy()
    lifted = ground < along if dark else ground > along  # few pixels: recompute just those
    ink[lifted] = _relative(lum[lifted], ground[lifted], dark, floor, colour)
    # Mid-tones are judged against the numbers' own ink where it is known (`numbers`): a
    # stroke as dark as the digits is none, though page furniture be darker still.
    tone = colour if numbers is None else numbers
    below, room = _departure(lum, ground, dark), np.abs(ground - tone)
    low, high = RULE_TONES
    under = below < high * room
    mid = (below > np.maximum(low * room, floor)) & under
    kw, kh = _odd(kernel_wh)
    step = rule_width + 1
    bridge, across = ((step, 1), (1, step)) if kw > kh else ((1, step), (step, 1))
    mid = _morph(mid.view(np.uint8), cv2.MORPH_CLOSE, bridge)
    long = _morph(mid, cv2.MORPH_OPEN, (kw, kh))
    wide = _morph(long, cv2.MORPH_OPEN, across)
    # A stroke crossing the seam (as dark as ink: no mid-tone) bridges a break in it but
    # is no part of it: a thin bar of a 3 over a row of texture dots stays.
    seam = cv2.subtract(long, wide).view(bool) & under
    if seam.any():
        # Beyond the band's side nothing is known to be mid-tone: a run along its edge
        # is as thick as it shows (the default border would make it thick).
        thick = cv2.morphologyEx(mid, cv2.MORPH_OPEN,
                                 cv2.getStructuringElement(cv2.MORPH_RECT, across),
                                 borderType=cv2.BORDER_CONSTANT, borderValue=0)
        seam &= ~_stroke_chains(long, thick)
    ink[seam] = 0.0
    return scale, ink


CHAIN_INSIDE = 2 / 3
"""A long run of mid-tones with more than this share of it inside thick mid-tone is a chain
of stacked strokes (`_stroke_chains`). Measured: stacked pixel 1s 0.71-0.99; the fringed
border of Picmi's bars along a band's side under 0.3 (0.55-0.68 while the picture's edge
counted as mid-tone)."""


def _stroke_chains(long: np.ndarray, thick: np.ndarray) -> np.ndarray:
    """The runs of `long` mid-tones lying mostly inside thick mid-tone (`thick`): pale
    strokes stacked along the strip (a column of pixel-font 1s, their ink mid-way to a
    darker page's colour), chained by the box lines between them, not a seam. A seam is
    thin along most of its length; strokes touching it make it thick only there."""
    count, labels = cv2.connectedComponents(long, connectivity=8)
    if count < 2:
        return np.zeros(long.shape, bool)
    total = np.bincount(labels.ravel(), minlength=count)
    inside = np.bincount(labels.ravel(), weights=thick.ravel().astype(np.float64),
                         minlength=count)
    chain = inside > CHAIN_INSIDE * total
    chain[0] = False
    return chain[labels]


def _morph(mask: np.ndarray, op: int, wh: tuple[int, int]) -> np.ndarray:
    return cv2.morphologyEx(mask, op, cv2.getStructuringElement(cv2.MORPH_RECT, wh))


def ink_colour(lum: np.ndarray, dark: bool) -> float:
    """The region's extreme level on the ink's side: what its ink is measured towards."""
    return float(np.percentile(lum[::2, ::2], 0.2 if dark else 99.8))


def _relative(lum: np.ndarray, background: np.ndarray, dark: bool, floor: float,
              ink: float) -> np.ndarray:
    strength = _departure(lum, background, dark)
    room = np.subtract(background, ink)
    np.abs(room, out=room)
    out = strength * 255.0
    out /= np.maximum(room, 1.0, out=room)
    out[strength < floor] = 0.0
    return np.minimum(out, 255.0, out=out)


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
