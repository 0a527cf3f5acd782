"""Recognising clue digits two independent ways.

1. Templates calibrated for the game (see `calibrate`): every digit's ink at
   the pixel heights it was seen at, matched by normalised correlation against
   a glyph of about the same height (resized to the template), with the
   margin over the best other digit as the confidence.
2. A shape reader that needs no training (in the spirit of PixeloSolver's
   black-group state machines): it walks the glyph's scanlines and reads its
   holes, bars and strokes. It is the second opinion, and the only one when
   no templates exist.

A digit both agree on is certain; where only one reads it, or they differ,
the number carries a low confidence and the reader's validation decides.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autoplayer.errors import InputError

FORMAT = "autoplayer-digit-templates/1"
TEMPLATE_OK = 0.80
"""Least correlation a template match needs to count at all."""
MARGIN_OK = 0.04
"""Least lead over the next digit for a template reading to be sure."""


@dataclass(frozen=True, eq=False)
class Template:
    label: int
    height: int
    """The glyph's tight height in pixels (the ink array's)."""
    width: int
    ink: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class DigitReading:
    value: int | None
    """None: unread."""
    confidence: float
    """0..1; at least 0.5 means sure."""
    template: int | None = None
    shape: int | None = None
    alternatives: tuple[int, ...] = ()
    """Other digits the templates found plausible, best first."""


# -- templates ------------------------------------------------------------------
def _resize(ink: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    import cv2

    if ink.shape == shape:
        return ink
    shrink = ink.shape[0] > shape[0]
    return cv2.resize(ink, (shape[1], shape[0]),
                      interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / den if den > 0 else 0.0


def match(templates: list[Template], ink: np.ndarray, height: int,
          width: int) -> list[tuple[int, float]]:
    """Digits with their best score against a glyph, best first."""
    if not templates:
        return []
    near = min(abs(t.height - height) + abs(t.width - width) for t in templates)
    pool = [t for t in templates if abs(t.height - height) + abs(t.width - width) <= near + 1]
    best: dict[int, float] = {}
    for t in pool:
        score = _ncc(_resize(ink, t.ink.shape), t.ink)
        score -= 0.5 * abs(width - t.width * height / t.height) / max(t.width, 1)
        if score > best.get(t.label, -2.0):
            best[t.label] = score
    return sorted(best.items(), key=lambda kv: -kv[1])


def load_templates(directory: str | Path) -> list[Template]:
    """Templates from `directory` (index.json plus one greyscale PNG a template)."""
    from PIL import Image

    directory = Path(directory)
    index = directory / "index.json"
    try:
        data = json.loads(index.read_text())
    except FileNotFoundError:
        raise InputError("no digit templates here (run the calibration first)",
                         path=index) from None
    except json.JSONDecodeError as err:
        raise InputError(f"not JSON: {err.msg}", path=index, line=err.lineno) from None
    if data.get("format") != FORMAT:
        raise InputError(f"format is {data.get('format')!r}, expected {FORMAT!r}", path=index)
    out = []
    for entry in data["templates"]:
        with Image.open(directory / entry["file"]) as im:
            ink = np.asarray(im.convert("L"), dtype=np.float32) / 255.0
        out.append(Template(int(entry["label"]), int(entry["height"]), int(entry["width"]), ink))
    return out


def save_templates(directory: str | Path, templates: Iterable[Template], source: str) -> None:
    """Writes a fresh template directory beside the old one, then swaps it in."""
    from PIL import Image

    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    entries = []
    for t in sorted(templates, key=lambda t: (t.height, t.label, t.width)):
        name = f"h{t.height:02d}-{t.label}-w{t.width:02d}.png"
        Image.fromarray(np.clip(t.ink * 255 + 0.5, 0, 255).astype(np.uint8)).save(tmp / name)
        entries.append({"file": name, "label": t.label, "height": t.height, "width": t.width})
    (tmp / "index.json").write_text(json.dumps(
        {"format": FORMAT, "source": source, "templates": entries}, indent=1) + "\n")
    old = None
    if directory.exists():
        old = directory.with_name(f".{directory.name}.old")
        if old.exists():
            _rmtree(old)
        os.replace(directory, old)
    os.replace(tmp, directory)
    if old is not None:
        _rmtree(old)


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path)


# -- the untrained shape reader -------------------------------------------------------
def _holes(mask: np.ndarray, ink: np.ndarray) -> list[tuple[float, float, int, float]]:
    """Background regions not reaching the border: (centre y, centre x) in 0..1, area in
    pixels, and the faintest ink inside (a real hole has bare background in it)."""
    import cv2

    h, w = mask.shape
    padded = np.pad(~mask, 1, constant_values=True).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(padded, connectivity=4)
    border = labels[0, 0]
    out = []
    for k in range(1, n):
        if k == border:
            continue
        inside = labels[1:-1, 1:-1] == k
        out.append(((cents[k][1] - 1) / max(h - 1, 1), (cents[k][0] - 1) / max(w - 1, 1),
                    int(stats[k][cv2.CC_STAT_AREA]), float(ink[inside].min())))
    return out


def _rows(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    """Each scanline's black groups as (start, end) pairs, end exclusive."""
    out = []
    for line in mask:
        padded = np.concatenate([[0], line.astype(np.int8), [0]])
        d = np.diff(padded)
        out.append(list(zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist(),
                            strict=True)))
    return out


def read_shape(ink: np.ndarray) -> int | None:
    """A digit from its shape alone, or None when it reads as none of them.

    Each scanline's black groups give its leftmost and rightmost ink; holes
    (background not reaching the border) come from the same mask. 8 has two
    holes; 0, 4, 6 and 9 one, told apart by where it sits and by the bottom
    scanline (4 ends in a stem right of centre, 9 in an arc from the left).
    The open digits by where their ink lies in the upper and lower middle:
    5 hugs the left above, 2 and 3 the right above, 3 the right below too
    while 2 runs diagonally; 7 has a bar on top and a narrow foot, 1 a narrow
    stem on a wide foot.
    """
    mask = ink >= 0.5
    ys = np.flatnonzero(mask.any(axis=1))
    xs = np.flatnonzero(mask.any(axis=0))
    if ys.size < 3 or xs.size < 1:
        return None
    mask = mask[ys[0]:ys[-1] + 1, xs[0]:xs[-1] + 1]
    ink = ink[ys[0]:ys[-1] + 1, xs[0]:xs[-1] + 1]
    h, w = mask.shape
    # A lone half-inked pixel left between strokes by antialiasing is not a hole.
    holes = [x for x in _holes(mask, ink) if x[2] >= 2 or x[3] < 0.25]
    rows = _rows(mask)
    left = np.array([g[0][0] / w if g else 1.0 for g in rows])
    right = np.array([g[-1][1] / w if g else 0.0 for g in rows])
    cover = right - left

    def zone(a: np.ndarray, lo: float, hi: float) -> float:
        i0 = int(h * lo)
        return float(a[i0:max(int(h * hi), i0 + 1)].mean())

    top_cover = float(cover[: max(1, h // 7)].max())
    bottom_cover = float(cover[h - max(1, h // 7):].max())
    if len(holes) >= 2:
        return 8
    if len(holes) == 1:
        hole_rows = _hole_rows(mask)
        tall = (hole_rows[-1] - hole_rows[0] + 1) / h if hole_rows else 0.0
        if float(left[-1]) > 0.4:
            return 4
        if tall >= 0.42 and abs(holes[0][0] - 0.5) < 0.12:
            return 0
        return 6 if holes[0][0] > 0.5 else 9
    lu, ru = zone(left, 0.25, 0.42), zone(right, 0.25, 0.42)
    ll, rl = zone(left, 0.6, 0.78), zone(right, 0.6, 0.78)
    if lu < 0.2 and ru < 0.7:
        return 5
    if top_cover > 0.7 and bottom_cover < 0.6:
        return 7
    if ru < 0.85 and lu > 0.15 and rl < 0.85 and ll > 0.15 and bottom_cover > 0.7:
        return 1
    if ll > 0.45 and rl > 0.85:
        return 3
    if bottom_cover > 0.7:
        return 2
    return None


def _hole_rows(mask: np.ndarray) -> list[int]:
    """Rows holding the largest hole."""
    import cv2

    padded = np.pad(~mask, 1, constant_values=True).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(padded, connectivity=4)
    border = labels[0, 0]
    inner = [k for k in range(1, n) if k != border]
    if not inner:
        return []
    big = max(inner, key=lambda k: stats[k][cv2.CC_STAT_AREA])
    return (np.flatnonzero((labels == big).any(axis=1)) - 1).tolist()


# -- both together -------------------------------------------------------------------
def read_digit(ink: np.ndarray, height: int, width: int,
               templates: list[Template]) -> DigitReading:
    """One digit by both readers, with how sure the combination is."""
    shape = read_shape(ink)
    ranked = match(templates, ink, height, width)
    if not ranked:
        return DigitReading(shape, 0.6 if shape is not None else 0.0, None, shape)
    (best, score), rest = ranked[0], ranked[1:]
    margin = score - rest[0][1] if rest else 1.0
    alternatives = tuple(d for d, s in rest if s >= TEMPLATE_OK - 0.1)[:3]
    if score < TEMPLATE_OK:
        return DigitReading(shape, 0.3 if shape is not None else 0.0, None, shape,
                            tuple(d for d, _ in ranked[:3]))
    sure = margin >= MARGIN_OK
    # Agreement of the two readers counts more than the templates' own margin.
    confidence = (1.0 if sure else 0.8) if shape == best else (0.7 if sure else 0.4)
    return DigitReading(best, confidence, best, shape, alternatives)
