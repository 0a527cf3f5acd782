"""Digit templates calibrated for one game: normalised correlation with a best-vs-second margin.

A template set is a directory `templates/NAME/` holding one PNG per sample
glyph and `index.json` mapping file names to digits. Glyphs are compared at a
fixed size after trimming, zero-mean and unit-norm, with their aspect ratio as
a second cue (a "1" and a squeezed "7" correlate well but differ in shape).
"""

from __future__ import annotations

import json
import os
import re
import struct
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import cv2
import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.limits import shown
from autoplayer.vision.image import bitmap_key, trim

SIZE = (12, 16)
"""Width and height every glyph is resampled to before comparison."""
INDEX = "index.json"
MARGIN = 0.15
"""A best match this much more similar than the next digit's is fully confident."""
MEMO_LIMIT = 4096
NO_TEMPLATES = "none"
"""`--templates none`: the state machines alone, no calibrated set tried."""
MAX_GLYPH_SIDE = 512
"""A template is one trimmed glyph: a PNG declaring more pixels than this a side is refused
before it is decoded."""
MAX_GLYPH_BYTES = 1 << 20
MAX_INDEX_BYTES = 1 << 20
_PNG = b"\x89PNG\r\n\x1a\n"
_PLAIN_FILE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\.png")
"""A glyph's file: a plain name in the set's own folder (no path, no '..')."""


def normalise(mask: np.ndarray) -> np.ndarray:
    g, _, _ = trim(np.asarray(mask, dtype=bool))
    if g.size == 0:
        return np.zeros(SIZE[::-1], np.float32).ravel()
    v = cv2.resize(g.astype(np.float32), SIZE, interpolation=cv2.INTER_AREA).ravel()
    v = v - v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


def aspect(mask: np.ndarray) -> float:
    g, _, _ = trim(np.asarray(mask, dtype=bool))
    return g.shape[1] / g.shape[0] if g.size else 0.0


@dataclass
class TemplateSet:
    """Sample glyphs per digit for one game's font."""

    name: str
    samples: dict[int, list[np.ndarray]] = field(default_factory=dict)
    """Trimmed boolean bitmaps per digit."""

    def __post_init__(self) -> None:
        self._vectors: dict[int, np.ndarray] = {}
        self._aspects: dict[int, np.ndarray] = {}
        self._refresh()

    def _refresh(self) -> None:
        self._memo: dict[tuple[tuple[int, ...], bytes], dict[int, float]] = {}
        self._vectors = {d: np.stack([normalise(m) for m in ms])
                         for d, ms in self.samples.items() if ms}
        self._aspects = {d: np.array([aspect(m) for m in ms])
                         for d, ms in self.samples.items() if ms}

    def add(self, digit: int, mask: np.ndarray, *, distinct: float = 0.97) -> bool:
        """Keep a sample unless one almost identical is already there; True if added."""
        g, _, _ = trim(np.asarray(mask, dtype=bool))
        if g.size == 0:
            return False
        if digit in self._vectors:
            sim = self._vectors[digit] @ normalise(g)
            if sim.max() >= distinct and np.abs(self._aspects[digit] - aspect(g)).min() < 0.05:
                return False
        self.samples.setdefault(digit, []).append(g)
        self._refresh()
        return True

    def scores(self, mask: np.ndarray) -> dict[int, float]:
        """Similarity in -1..1 of the glyph to each digit's closest sample.

        A board repeats the same few glyph bitmaps: results are memoised by the bitmap.
        """
        key = bitmap_key(mask)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            hit = self._memo[key] = self._scores(np.asarray(mask, dtype=bool))
        return hit

    def _scores(self, mask: np.ndarray) -> dict[int, float]:
        v = normalise(mask)
        a = aspect(mask)
        out = {}
        for d, vecs in self._vectors.items():
            sims = vecs @ v - 0.5 * np.abs(self._aspects[d] - a)
            out[d] = float(sims.max())
        return out

    @property
    def digits(self) -> set[int]:
        return {d for d, ms in self.samples.items() if ms}


def confidence_over(score: float, other: float) -> float:
    """How sure a match of similarity `score` is against a rival digit's `other`."""
    return max(0.0, score) * min(1.0, max(0.0, score - other) / MARGIN)


BUNDLED: Traversable = resources.files("autoplayer") / "templates"
"""The sets that ship with autoplayer, as package data (a wheel, an editable install or a
checkout alike): read through importlib.resources, never by a path into the source tree."""

Location = Path | Traversable
"""A template set's directory: a user's on disk, or one of ours inside the package."""


def search_path() -> list[Location]:
    """Where template sets are looked for: ./templates first (a user's own), then ours."""
    local = Path("templates")
    if isinstance(BUNDLED, Path) and local.resolve() == BUNDLED.resolve():
        return [local]
    return [local, BUNDLED]


def templates_dir(name_or_path: str | Location) -> Location:
    """Where a template set lives: a directory given as such, else NAME on the search path."""
    if not isinstance(name_or_path, str | Path):
        return name_or_path  # one of ours, inside the package
    p = Path(name_or_path)
    try:
        if p.is_dir() and (p / INDEX).exists():
            return p
        for base in search_path():
            if (base / str(name_or_path) / INDEX).is_file():
                return base / str(name_or_path)
    except OSError as err:  # a name too long for a file name, say
        raise UserError(f"template set '{shown(str(name_or_path), 40)}': "
                        f"{err.strerror or err}") from None
    return Path("templates") / str(name_or_path)


def available_templates() -> list[str]:
    """Names of every template set on the search path, a user's shadowing ours."""
    names: dict[str, None] = {}
    for base in search_path():
        if base.is_dir():
            names.update((d.name, None) for d in sorted(base.iterdir(), key=lambda d: d.name)
                         if (d / INDEX).is_file() and not d.name.startswith("."))
    return list(names)


def every_template_set() -> Iterator[TemplateSet]:
    """Each set on the search path, loaded as it is reached (for `fallbacks` readers)."""
    for name in available_templates():
        yield load_templates(name)


def load_templates(name_or_path: str | Location) -> TemplateSet:
    """A saved set; a damaged one (not JSON, a glyph not a small PNG in its folder, a
    digit not 0..9) is one `InputError` naming the file."""
    d = templates_dir(name_or_path)
    index_path = d / INDEX
    try:
        with index_path.open("rb") as f:
            data = f.read(MAX_INDEX_BYTES + 1)
        if len(data) > MAX_INDEX_BYTES:
            raise InputError(f"template index is over {MAX_INDEX_BYTES:,} bytes",
                             path=str(index_path))
        index = json.loads(data)
    except FileNotFoundError:
        raise UserError(f"{d}: no template set here (make one with `autoplayer calibrate`)")\
            from None
    except (OSError, ValueError, RecursionError) as err:  # RecursionError: "[[[[..."
        raise InputError(f"cannot read template index: {shown(str(err), 60)}",
                         path=str(index_path)) from None
    glyphs = index.get("glyphs") if isinstance(index, dict) else None
    if not isinstance(glyphs, list):
        raise InputError("template index has no list of glyphs", path=str(index_path))
    samples: dict[int, list[np.ndarray]] = {}
    for k, entry in enumerate(glyphs, 1):
        file, digit = (entry.get("file"), entry.get("digit")) if isinstance(entry, dict) \
            else (None, None)
        if not (isinstance(file, str) and _PLAIN_FILE.fullmatch(file)) or \
                type(digit) is not int or not 0 <= digit <= 9:
            raise InputError(f"glyph {k} is not a PNG file in the set's folder with a digit "
                             "0..9", path=str(index_path))
        samples.setdefault(digit, []).append(_glyph(d / file))
    name = index.get("name", d.name)
    return TemplateSet(shown(name, 40) if isinstance(name, str) else d.name, samples)


def _glyph(path: Location) -> np.ndarray:
    """A template PNG as a boolean mask (ink dark), its size checked before decoding."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_GLYPH_BYTES + 1)
    except OSError:
        data = b""
    size = struct.unpack(">II", data[16:24]) if data[:8] == _PNG and len(data) >= 24 else None
    if size is None or len(data) > MAX_GLYPH_BYTES or not all(
            0 < side <= MAX_GLYPH_SIDE for side in size):
        raise InputError(f"missing or unreadable template image (a PNG at most "
                         f"{MAX_GLYPH_SIDE}x{MAX_GLYPH_SIDE} is expected)", path=str(path))
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    if img is None:
        raise InputError("missing or unreadable template image", path=str(path))
    return img < 128


def save_templates(templates: TemplateSet, directory: str | Path) -> Path:
    """Write the set atomically: a new directory is filled, then swapped into place."""
    target = Path(directory)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    entries = []
    for digit in sorted(templates.samples):
        for k, mask in enumerate(templates.samples[digit]):
            name = f"digit{digit}_{k:02d}.png"
            cv2.imwrite(str(tmp / name), np.where(mask, 0, 255).astype(np.uint8))
            entries.append({"file": name, "digit": digit})
    (tmp / INDEX).write_text(json.dumps({"name": templates.name, "size": list(SIZE),
                                         "glyphs": entries}, indent=1) + "\n")
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old.{os.getpid()}")
        target.rename(old)
    tmp.rename(target)
    if old is not None:
        import shutil

        shutil.rmtree(old, ignore_errors=True)
    return target
