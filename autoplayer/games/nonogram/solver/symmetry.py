"""Symmetries of a puzzle's clues: the flips and turns of the grid that map clues to clues.

When a flip or turn g of the grid maps every line onto a line with the same clue
(read in the direction g reads it), g maps every solution onto a solution. A
designed picture often has such clues (knotty.non turns onto itself by a quarter
turn), and that gives the SAT back end two things: solutions invariant under g are
found in a space |G| times smaller, and any other solution comes with its images,
so a uniqueness proof needs only the least of them (lex-leader constraints).

Lines whose clue is empty at the edges of the grid are left out first (they are
empty whatever the rest is), so a picture with an empty border row or column still
shows its symmetry. Cells are numbered r * width + c, as the SAT encoding does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from autoplayer.games.nonogram.solver.line import Clue


def _core(clues: Sequence[Clue | None]) -> tuple[int, int]:
    """[start, stop) of the lines left once empty-clue lines at both ends are cut off."""
    start, stop = 0, len(clues)
    while start < stop and clues[start] == ():
        start += 1
    while stop > start and clues[stop - 1] == ():
        stop -= 1
    return start, stop


def symmetries(rows: Sequence[Clue | None], columns: Sequence[Clue | None]) -> list[list[int]]:
    """Every flip or turn other than the identity under which the clues are invariant, each
    as a permutation of the cells (cell -> its image); cells outside the core map to
    themselves. Empty when there is none."""
    height, width = len(rows), len(columns)
    top, bottom = _core(rows)
    left, right = _core(columns)
    h, w = bottom - top, right - left
    if h < 2 or w < 2:
        return []
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, w - 1 - c),
        lambda r, c: (h - 1 - r, c),
        lambda r, c: (h - 1 - r, w - 1 - c),
    ]
    if h == w:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (w - 1 - c, h - 1 - r),
            lambda r, c: (c, h - 1 - r),
            lambda r, c: (w - 1 - c, r),
        ]
    core_rows, core_cols = rows[top:bottom], columns[left:right]
    found = []
    for g in maps:
        if not _maps_clues(g, core_rows, core_cols, h, w):
            continue
        perm = list(range(height * width))
        for r in range(h):
            for c in range(w):
                gr, gc = g(r, c)
                perm[(top + r) * width + left + c] = (top + gr) * width + left + gc
        found.append(perm)
    return found


def _maps_clues(
    g: Callable[[int, int], tuple[int, int]], rows: Sequence[Clue | None],
    columns: Sequence[Clue | None], h: int, w: int,
) -> bool:
    """Whether g takes each core line onto a line whose clue, read in g's direction, is its."""
    lines = [(rows[r], [(r, c) for c in range(w)]) for r in range(h)]
    lines += [(columns[c], [(r, c) for r in range(h)]) for c in range(w)]
    for clue, cells in lines:
        (r0, c0), (r1, c1) = g(*cells[0]), g(*cells[-1])
        if r0 == r1:
            other, forward = rows[r0], c0 < c1
        else:
            other, forward = columns[c0], r0 < r1
        if clue is None or other is None:
            if clue is not other:
                return False
            continue
        if (other if forward else other[::-1]) != clue:
            return False
    return True


def invariant(board_rows_f: list[int], board_rows_e: list[int], width: int,
              perm: list[int]) -> bool:
    """Whether the known cells of a board (rows of masks) are mapped onto equal ones."""
    for cell, image in enumerate(perm):
        if cell == image:
            continue
        r, c = divmod(cell, width)
        gr, gc = divmod(image, width)
        a = (board_rows_f[r] >> c) & 1, (board_rows_e[r] >> c) & 1
        b = (board_rows_f[gr] >> gc) & 1, (board_rows_e[gr] >> gc) & 1
        if a != b:
            return False
    return True
