"""Digit templates for Pattern from screenshots whose clues are known.

Pattern renders itself headless (`sgt-pattern --screenshot FILE ID`, with
`PATTERN_TILESIZE`), and a game ID carries every clue, so each glyph the
segmenter cuts from such a screenshot has a known digit. Glyphs of one digit
at one pixel height are averaged into a template; `templates/pattern/` holds
them, `calibration/pattern/` the screenshots and their IDs
(`tools/pattern-calibration` regenerates both).

Run as `python -m autoplayer.games.nonogram.pattern.calibrate SAMPLES_DIR OUT_DIR`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.nonogram.model import Puzzle
from autoplayer.games.nonogram.pattern.clues import Glyph, bands, find_canvas, segment
from autoplayer.games.nonogram.pattern.digits import Template, save_templates
from autoplayer.games.nonogram.pattern.grid import find_grid

LABELS = "labels.json"


def labelled_glyphs(pixels: np.ndarray, puzzle: Puzzle, where: str) -> list[tuple[Glyph, int]]:
    """Every unclipped glyph with its digit, from a screenshot of `puzzle`.

    A line whose numbers or digits do not count out as its clue says the
    screenshot is not of this puzzle: that is an error, not a skipped line.
    """
    grid = find_grid(pixels)
    if (grid.width, grid.height) != (puzzle.width, puzzle.height):
        raise InputError(f"the screenshot shows {grid.width}x{grid.height}, the puzzle is "
                         f"{puzzle.width}x{puzzle.height}", path=where)
    canvas = find_canvas(pixels, grid)
    out: list[tuple[Glyph, int]] = []
    for line in segment(bands(pixels, grid, canvas), canvas):
        clue = (puzzle.rows if line.kind == "row" else puzzle.columns)[line.index]
        numbers = [n for n in line.numbers if not n.clipped]
        known = clue[len(clue) - len(numbers):] if line.clipped else clue
        if len(numbers) != len(known):
            raise InputError(f"{line.kind} {line.index + 1}: {len(numbers)} numbers cut, the "
                             f"clue has {len(known)}", path=where)
        for number, value in zip(numbers, known, strict=True):
            text = str(value)
            if len(text) != len(number.glyphs):
                raise InputError(f"{line.kind} {line.index + 1}: {value} cut into "
                                 f"{len(number.glyphs)} glyphs", path=where)
            out.extend(zip(number.glyphs, map(int, text), strict=True))
    return out


def build(samples: Iterable[tuple[Glyph, int]]) -> list[Template]:
    """One template per digit and glyph size seen: the mean of those glyphs.

    The same digit comes out a pixel wider or narrower depending on where it
    falls between pixels, and each of those looks different; they are kept apart.
    """
    groups: dict[tuple[int, int, int], list[Glyph]] = defaultdict(list)
    for glyph, label in samples:
        groups[(label, glyph.height, glyph.width)].append(glyph)
    out = []
    for (label, height, width), glyphs in sorted(groups.items()):
        ink = np.mean([g.ink for g in glyphs], axis=0).astype(np.float32)
        out.append(Template(label, height, width, ink))
    return out


def load_samples(directory: Path) -> list[tuple[Path, Puzzle]]:
    """The screenshots listed in `labels.json` with their puzzles (game IDs)."""
    from autoplayer.games.nonogram.formats.tatham import parse

    index = directory / LABELS
    try:
        data = json.loads(index.read_text())
    except FileNotFoundError:
        raise InputError("no calibration labels here", path=index) from None
    except json.JSONDecodeError as err:
        raise InputError(f"not JSON: {err.msg}", path=index, line=err.lineno) from None
    out = []
    for entry in data["samples"]:
        try:
            puzzle = parse(entry["puzzle"])
        except InputError as err:
            raise err.at(index) from None
        out.append((directory / entry["file"], puzzle))
    return out


def calibrate(pairs: Iterable[tuple[Path, Puzzle]]) -> tuple[list[Template], int]:
    """Templates from (screenshot, puzzle) pairs, and how many glyphs went into them."""
    from PIL import Image

    samples: list[tuple[Glyph, int]] = []
    for path, puzzle in pairs:
        try:
            with Image.open(path) as im:
                pixels = np.asarray(im.convert("RGB"))
        except OSError as err:
            raise InputError(f"cannot read the image: {err}", path=path) from None
        try:
            samples.extend(labelled_glyphs(pixels, puzzle, str(path)))
        except InputError as err:
            raise err if err.path else err.at(path) from None
    if not samples:
        raise UserError("no glyphs found in the calibration screenshots")
    return build(samples), len(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", type=Path, help=f"a directory with {LABELS} and screenshots")
    parser.add_argument("out", type=Path, help="the template directory to (re)write")
    args = parser.parse_args(argv)
    try:
        templates, count = calibrate(load_samples(args.samples))
        save_templates(args.out, templates, source=str(args.samples))
    except UserError as err:
        print(f"calibrate: {err}", file=sys.stderr)
        return 2
    heights = sorted({t.height for t in templates})
    print(f"{len(templates)} templates from {count} glyphs, heights {heights} -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
