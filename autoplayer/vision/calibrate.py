"""Learning a game's digit glyphs: pair each glyph on a screenshot with the digit it must be.

With a known puzzle, every line whose ink splits into as many numbers (and
digits) as its clue has gives labelled glyphs for free; lines that do not
split that way are skipped and counted, never guessed. Without a puzzle, the
caller asks a person about each glyph it has not seen before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from autoplayer.games.nonogram.model import Puzzle
from autoplayer.vision.clues import find_clues
from autoplayer.vision.glyphs import Glyph
from autoplayer.vision.lattice import find_grid
from autoplayer.vision.numbers import ClueNumber, read_lines
from autoplayer.vision.templates import TemplateSet


@dataclass(frozen=True)
class Sample:
    digit: int
    glyph: Glyph
    where: str
    """The line it came from, e.g. 'row 3'."""


@dataclass(frozen=True)
class Labelled:
    samples: list[Sample]
    skipped: list[str]
    """Lines whose glyphs could not be paired with their clue."""


def read_numbers(image: np.ndarray) -> tuple[list[list[ClueNumber]], list[list[ClueNumber]]]:
    grid = find_grid(image)
    return read_lines(find_clues(image, grid))


def label_with_puzzle(image: np.ndarray, puzzle: Puzzle) -> Labelled:
    rows, columns = read_numbers(image)
    if (len(rows), len(columns)) != (puzzle.height, puzzle.width):
        from autoplayer.errors import InputError

        raise InputError(f"the screenshot shows a {len(columns)}x{len(rows)} board but the "
                         f"puzzle is {puzzle.width}x{puzzle.height}")
    samples: list[Sample] = []
    skipped: list[str] = []
    for kind, found, clues in (("row", rows, puzzle.rows), ("column", columns, puzzle.columns)):
        for i, (numbers, clue) in enumerate(zip(found, clues, strict=True)):
            where = f"{kind} {i + 1}"
            expected = [str(n) for n in clue]
            if [len(n.digits) for n in numbers] != [len(e) for e in expected]:
                skipped.append(where)
                continue
            for number, text in zip(numbers, expected, strict=True):
                for d, ch in zip(number.digits, text, strict=True):
                    samples.append(Sample(int(ch), d.glyph, where))
    return Labelled(samples, skipped)


def unlabelled_glyphs(image: np.ndarray) -> Iterator[tuple[Glyph, str]]:
    rows, columns = read_numbers(image)
    for kind, lines in (("row", rows), ("column", columns)):
        for i, numbers in enumerate(lines):
            for n in numbers:
                for d in n.digits:
                    yield d.glyph, f"{kind} {i + 1}"


def label_interactively(image: np.ndarray, templates: TemplateSet,
                        ask: Callable[[Glyph, str], int | None]) -> Labelled:
    """Ask for each glyph unlike every sample so far; `ask` returns a digit or None (skip)."""
    samples: list[Sample] = []
    skipped: list[str] = []
    for glyph, where in unlabelled_glyphs(image):
        scores = templates.scores(glyph.mask)
        if scores and max(scores.values()) >= 0.97:
            digit = max(scores, key=scores.__getitem__)
        else:
            answer = ask(glyph, where)
            if answer is None:
                skipped.append(where)
                continue
            digit = answer
            templates.add(digit, glyph.mask)
        samples.append(Sample(digit, glyph, where))
    return Labelled(samples, skipped)
