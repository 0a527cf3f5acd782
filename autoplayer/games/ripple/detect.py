"""Whether a picture shows a Ripple Effect board, for the play loop's choice of game.

A Ripple board is a frame of cells cut into rooms by borders drawn unlike the
cell lines, with digits inside its cells; a nonogram's grid holds no digits
in its cells (its clues are outside), so the two are told apart by finding
the lattice and rooms and then asking whether any cell holds a number. A
puzzle may give no digit at all, so rooms alone also tell: a nonogram's heavier
lines (every fifth) run across the whole board and cut it into blocks, while
rooms have borders that stop part way along a line. A board whose digits are
found but not read surely (`UnreadableDigits`) is still a Ripple board: its
reader then says why it will not play it. The decision rests on the error's
type, never on its wording.
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
    if _borders_stop_part_way(rooms.right) or _borders_stop_part_way(rooms.down.T):
        return True
    try:
        return any(read_ripple(rgb).values)
    except UnreadableDigits:
        return True
    except InputError:
        return False


def _borders_stop_part_way(borders: np.ndarray) -> bool:
    """Whether some line between two columns of cells (a column of `borders`) is a room
    border along part of its length only: the mark of rooms, never of a block grid."""
    along = np.asarray(borders, dtype=bool)
    if along.size == 0:
        return False
    return bool((along.any(axis=0) & ~along.all(axis=0)).any())
