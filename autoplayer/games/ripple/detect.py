"""Whether a picture shows a Ripple Effect board, for the play loop's choice of game.

A Ripple board is a frame of cells cut into rooms by borders drawn unlike the
cell lines, with digits inside its cells; a nonogram's grid holds no digits
in its cells (its clues are outside), so the two are told apart by reading
the picture as a Ripple board and asking whether it has rooms and givens.
"""

from __future__ import annotations

import numpy as np

from autoplayer.errors import InputError


def shows_ripple(pixels: np.ndarray) -> bool:
    """True when the picture reads as a Ripple board with at least two rooms and a digit."""
    from autoplayer.games.ripple.reader import read_ripple

    try:
        reading = read_ripple(pixels)
    except InputError:
        return False
    return len(set(reading.rooms.rooms)) > 1 and any(reading.values)
