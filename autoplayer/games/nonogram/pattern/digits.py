"""Recognising clue digits two independent ways.

1. Templates calibrated for the game (see `calibrate`): every digit's ink at
   the pixel heights it was seen at, matched by normalised correlation against
   a glyph of about the same height (resized to the template), with the
   margin over the best other digit as the confidence.
2. The black-group scanline state machines of `autoplayer.vision.scanline`
   (PixeloSolver's method), which need no training: the second opinion, and
   the only one when no templates exist.

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


# -- both together -------------------------------------------------------------------
def read_digit(ink: np.ndarray, height: int, width: int,
               templates: list[Template]) -> DigitReading:
    """One digit by both readers, with how sure the combination is."""
    from autoplayer.vision.scanline import recognise

    ranked_shape = recognise(ink >= 0.5)
    shape = ranked_shape[0][0] if ranked_shape else None
    ranked = match(templates, ink, height, width)
    if not ranked:
        sure = 0.6 if ranked_shape and ranked_shape[0][1] >= 0.2 else 0.4
        return DigitReading(shape, sure, None, shape,
                            tuple(d for d, _ in ranked_shape[1:3]))
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
