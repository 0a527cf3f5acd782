"""Whether a picture shows a Ripple Effect board, for the play loop's choice of game.

A Ripple board is a frame of cells cut into rooms by borders drawn unlike the
cell lines, with digits inside its cells; a nonogram's grid holds no digits
in its cells (its clues are outside), so the two are told apart by finding
the lattice and rooms and then asking whether any cell holds a number. A
puzzle may give no digit at all, so rooms alone also tell: a nonogram's heavier
lines (every fifth) run across the whole board and cut it into blocks, while
rooms have borders that stop part way along a line, around cells that hold no ink
(cages whose cells carry small sums are another puzzle). A board whose digits are
found but not read surely (`UnreadableDigits`) is still a Ripple board: its
reader then says why it will not play it. The decision rests on the error's
type, never on its wording.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from autoplayer.errors import InputError

if TYPE_CHECKING:
    from autoplayer.games.ripple.board import Lattice


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
    if (_borders_stop_part_way(rooms.right) or _borders_stop_part_way(rooms.down.T)) \
            and _cells_blank(rgb, lattice):
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


def _cells_blank(rgb: np.ndarray, lattice: Lattice) -> bool:
    """Whether no cell holds any ink (a Ripple board that gives no digit), its borders aside."""
    from autoplayer.games.ripple.board import departure
    from autoplayer.games.ripple.reader import MIN_INK

    f = lattice.frame
    dep = departure(rgb[f.y:f.bottom, f.x:f.right], np.array(lattice.background))
    inset = max(2, int(0.15 * lattice.pitch))
    for i in range(lattice.rows * lattice.cols):
        box = lattice.cell(i)
        x0, y0 = box.x - f.x + inset, box.y - f.y + inset
        inner = dep[y0:y0 + box.h - 2 * inset, x0:x0 + box.w - 2 * inset]
        if inner.size and int(inner.max()) >= MIN_INK:
            return False
    return True
