"""Screenshots kept in tests/data with their puzzles beside them as .non."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.reader import NonogramReading, read_nonogram
from autoplayer.vision.templates import every_template_set

DATA = Path(__file__).resolve().parent / "data"


def read_exactly(name: str) -> NonogramReading:
    """Read tests/data/NAME.png as `play` reads it and check it against NAME.non."""
    image = np.asarray(Image.open(DATA / f"{name}.png").convert("RGB"))
    truth = load_puzzle(DATA / f"{name}.non")
    reading = read_nonogram(image, fallbacks=every_template_set())
    assert (reading.grid.width, reading.grid.height) == (truth.width, truth.height)
    assert reading.puzzle.rows == truth.rows
    assert reading.puzzle.columns == truth.columns
    return reading


def exact_or_refused(name: str) -> None:
    """Read tests/data/NAME.png as `play` reads it: refused, or exactly NAME.non (never a
    reading of another puzzle)."""
    image = np.asarray(Image.open(DATA / f"{name}.png").convert("RGB"))
    truth = load_puzzle(DATA / f"{name}.non")
    try:
        reading = read_nonogram(image, fallbacks=every_template_set())
    except InputError:
        return  # refused: honest
    assert (reading.puzzle.rows, reading.puzzle.columns) == (truth.rows, truth.columns), \
        f"read wrong: {reading.puzzle.rows} (corrections {reading.corrections})"
