"""Whether a picture shows a Ripple Effect board, for the play loop's choice of game.

A Ripple board is a frame of cells cut into rooms by borders drawn unlike the
cell lines, with digits inside its cells; a nonogram's grid holds no digits
in its cells (its clues are outside), so the two are told apart by finding
the lattice and rooms and then asking whether any cell holds a number. A
board whose digits are found but not read surely (`UnreadableDigits`) is
still a Ripple board: its reader then says why it will not play it. The
decision rests on the error's type, never on its wording.
"""

from __future__ import annotations

import numpy as np

from autoplayer.errors import InputError


def shows_ripple(pixels: np.ndarray) -> bool:
    """True when the picture has a lattice cut into rooms and a number in some cell."""
    from autoplayer.games.ripple.board import find_lattice, read_rooms
    from autoplayer.games.ripple.reader import UnreadableDigits, read_ripple

    rgb = np.ascontiguousarray(pixels[..., :3])
    try:
        lattice = find_lattice(rgb)
        rooms = read_rooms(rgb, lattice)
    except InputError:
        return False
    if len(set(rooms.rooms)) < 2:
        return False
    try:
        return any(read_ripple(rgb).values)
    except UnreadableDigits:
        return True
    except InputError:
        return False
