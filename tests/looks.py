"""Random looks of the bundled nonogram page, mixing every option a third-party game has.

One generator for the property test (tests/test_vision_webgame.py) and the measuring
bench (bench/bench_nonogram_looks.py), so the bench measures what the test draws.
A look is a dict of page URL parameters plus `size` (w, h) and `cell` (px); `axes`
names the values a refusal can be grouped by.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autoplayer.webgame.nonogram import skins
from autoplayer.webgame.nonogram_looks import BOXED_DIGITS, CLUE_FONTS, CLUE_TEXTURES

SKINS = ("pixel", "sans", "serif", "mono", "bars")
THEMES = ("light", "dark")
HEADINGS = ("Puzzle gallery", "Daily nonogram", "Logic pictures")
STATUSES = ("Good luck!", "Time 03:12", "Moves: 0")
TINTS = ("grey", "grey", "yellow", "blue", "brown")

Look = dict[str, Any]


def _pick(rng: np.random.Generator, choices: Any) -> Any:
    return choices[int(rng.integers(len(choices)))]


def clue_kind(look: Look) -> str:
    """How the look's clues stand: free, grid, or its skin's boxed / bands / bars."""
    cells = look.get("clue_cells", "skin")
    return skins()[look["skin"]]["clues"] if cells == "skin" else cells


def random_look(rng: np.random.Generator) -> Look:
    """One look: a skin, theme, board and cell size, and a random mix of the layout and
    appearance options. A fifth of the draws are big boards (30x20 and more) of small
    cells with 8-9 px digits, a tenth 5x5 boards boxed like grid cells under a heading."""
    skin = _pick(rng, (*SKINS, "bars"))
    look: Look = {"skin": skin, "theme": _pick(rng, THEMES), "seed": int(rng.integers(1 << 20))}
    mode = rng.random()
    if mode < 0.2:  # big board, small cells, tiny digits
        look["size"] = (int(rng.integers(30, 41)), int(rng.integers(20, 31)))
        look["cell"] = int(rng.integers(12, 16))
    elif mode < 0.3:  # 5x5, every clue boxed like a grid cell, a heading above
        look |= {"size": (5, 5), "cell": int(rng.integers(20, 41)), "clue_cells": "grid",
                 "heading": _pick(rng, HEADINGS)}
    else:
        look["size"] = (int(rng.integers(5, 31)), int(rng.integers(5, 31)))
        # Cells 14-40 px, the board at most 900 px across (a page that fits a screen).
        look["cell"] = min(int(rng.integers(14, 41)), max(14, 900 // max(look["size"])))
    if "clue_cells" not in look:
        look["clue_cells"] = _pick(rng, ("skin", "skin", "skin", "grid", "free"))
    if rng.random() < 0.3:
        look["rows"] = "right"
    if rng.random() < 0.3:
        look["columns"] = "bottom"
    if rng.random() < 0.25:
        look["frame"] = "0"
    if rng.random() < 0.2:
        look["fives"] = "0"
    if "heading" not in look and rng.random() < 0.25:
        look["heading"] = _pick(rng, HEADINGS)
    if rng.random() < 0.15:
        look["status"] = _pick(rng, STATUSES)
    if rng.random() < 0.2:
        look["panel"] = "top"
    look["texture"] = _pick(rng, CLUE_TEXTURES)
    if skin != "pixel":
        font = _pick(rng, tuple(CLUE_FONTS))
        weight, style = _pick(rng, tuple(CLUE_FONTS[font][1]))
        look |= {"font": font, "weight": weight, "style": style}
        top = 1.2 if clue_kind(look) == "free" else BOXED_DIGITS
        if mode < 0.2:  # 8-9 px digits
            look["digits"] = round(min(top, max(0.6, float(rng.uniform(8, 9.5)) / look["cell"])),
                                   2)
        elif rng.random() < 0.5:
            look["digits"] = round(float(rng.uniform(0.6, top)), 2)
    if rng.random() < 0.35:
        ratio = float(np.exp(rng.uniform(np.log(1.15), np.log(3.0))))
        look["lines"] = f"{ratio:.2f}:{_pick(rng, TINTS)}"
    if rng.random() < 0.3:
        look["ink"] = f"{float(rng.uniform(2.5, 7)):.1f}:{_pick(rng, ('grey', 'grey', 'blue'))}"
    return look


def url_params(look: Look) -> dict[str, Any]:
    """The look's URL parameters other than the board size and cell."""
    return {k: v for k, v in look.items() if k not in ("size", "cell")}


def axes(look: Look) -> dict[str, str]:
    """The look's value on each axis, binned where it is a number (for grouping)."""
    out = {"skin": look["skin"], "theme": look["theme"], "clues": clue_kind(look),
           "sides": f"{look.get('rows', 'left')}/{look.get('columns', 'top')}",
           "frame": look.get("frame", "1"), "fives": look.get("fives", "1"),
           "heading": "yes" if "heading" in look else "no",
           "status": "yes" if "status" in look else "no",
           "panel": look.get("panel", "none"), "texture": look.get("texture", "flat"),
           "font": look.get("font", "skin"),
           "face": f"{look.get('weight', 'skin')} {look.get('style', 'normal')}"}
    w, h = look["size"]
    out["board"] = "5x5" if (w, h) == (5, 5) else "30x20+" if w >= 30 and h >= 20 \
        else "other"
    cell = look["cell"]
    out["cell"] = "12-15" if cell < 16 else "16-23" if cell < 24 else "24-31" if cell < 32 \
        else "32-40"
    digits = look.get("digits")
    out["digits"] = "skin" if digits is None else "0.6-0.8" if digits < 0.8 \
        else "0.8-1.0" if digits < 1.0 else "1.0-1.2"
    if digits is not None:
        px = digits * cell
        out["digit px"] = "<10" if px < 10 else "10-15" if px < 15 else "15+"
    else:
        out["digit px"] = "skin"
    lines = look.get("lines")
    out["lines"] = "skin" if lines is None else \
        ("1.15-1.5" if float(lines.split(":")[0]) < 1.5 else "1.5-3") + ":" + lines.split(":")[1]
    out["ink"] = "skin" if "ink" not in look else look["ink"].split(":")[1]
    return out


def describe(look: Look) -> str:
    """A one-line name of the look (also a file name: no spaces or slashes)."""
    w, h = look["size"]
    parts = [f"{w}x{h}", f"cell{look['cell']}"]
    parts += [f"{k}={v}" for k, v in url_params(look).items()]
    return "_".join(parts).replace(" ", "-").replace(":", "-").replace("/", "-")
