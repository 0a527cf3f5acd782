"""The compiled inner loop of `autoplayer count`: line logic on every grid of a batch.

Imported only by the count modules, so numba (slow to import) stays out of every
other command. The tables it reads are built and explained in `count`.

Bit layout (H rows of W cells, H*W <= 56 so every board fits an int64):
row-major boards hold cell (r, c) at bit r*W + c, column-major boards at bit
c*H + r. A grid's own cells never need storing as "filled/empty" twice: the
line solver is sound, so every cell it decides equals the grid's cell, and
the whole solver state is just the mask of decided cells.

Speed (issue 26, 2.3x on 6x6 over the first kernel): the width and height are
compile-time constants (`literally`: one specialisation per size, cached), so the
loops over lines unroll; a propagation pass reads every line's known cells from a
snapshot, so its table look-ups are independent of each other rather than a chain
through one mask; the column-clue key is a sum of per-column table entries; and
with --unique only grids whose column clues are theirs alone in the group (a hash
table) are propagated, since line logic solves only clue sets with one solution.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, inline="always")
def symmetry_weight(
    group: int, height: int, n_row_clues: int, mirror_clue: np.ndarray, digits: np.ndarray
) -> int:
    """How many groups the mirrors make of `group` (1, 2 or 4), or 0 when another is least.

    Digit r of a group is the clue id of row r; the left-right mirror reverses
    every row's clue (`mirror_clue`), the top-bottom mirror the order of rows.
    """
    rest = group
    for r in range(height):
        digits[r] = rest % n_row_clues
        rest //= n_row_clues
    lr = np.int64(0)  # the left-right mirror's group
    tb = np.int64(0)  # the top-bottom mirror's
    both = np.int64(0)
    for r in range(height - 1, -1, -1):
        lr = lr * n_row_clues + mirror_clue[digits[r]]
        tb = tb * n_row_clues + digits[height - 1 - r]
        both = both * n_row_clues + mirror_clue[digits[height - 1 - r]]
    if lr < group or tb < group or both < group:
        return 0
    # The distinct values among group, lr, tb, both.
    distinct = 1
    if lr != group:
        distinct += 1
    if tb != group and tb != lr:
        distinct += 1
    if both != group and both != lr and both != tb:
        distinct += 1
    return distinct


@njit(cache=True, nogil=True, inline="always")
def line_solved(
    width: int, height: int, gt: int, gr: int, kr: int, kc: int,
    row_table: np.ndarray, col_table: np.ndarray,
    spread_row: np.ndarray, spread_col: np.ndarray,
) -> bool:
    """Whether rows and columns, alternately to a fixpoint, decide every cell.

    `gt`/`gr` are the grid column- and row-major, `kr`/`kc` the cells the rows'
    first pass decides (the same masks both ways). Columns go first: the rows
    have just been settled. Each pass reads every line's known cells from the
    mask as it was before the pass, so its look-ups do not wait on each other;
    a line with nothing new looks up its own mask again and adds nothing.
    """
    row_mask = (np.int64(1) << width) - 1
    col_mask = (np.int64(1) << height) - 1
    full = (np.int64(1) << (width * height)) - 1
    while True:
        new = np.int64(0)
        for c in range(width):
            sh = c * height
            k = (kc >> sh) & col_mask
            d = np.int64(col_table[(((gt >> sh) & col_mask) << height) | k]) ^ k
            new |= d << sh
            kr |= spread_col[d] << c
        if new == 0:
            return kr == full  # the rows alone may have decided every cell
        if kr == full:
            return True
        kc |= new
        new = np.int64(0)
        for r in range(height):
            sh = r * width
            k = (kr >> sh) & row_mask
            d = np.int64(row_table[(((gr >> sh) & row_mask) << width) | k]) ^ k
            new |= d << sh
            kc |= spread_row[d] << r
        if new == 0:
            return False
        if kc == full:
            return True
        kr |= new


@njit(cache=True, nogil=True, inline="always")
def _count(
    width: int,
    height: int,
    group_lo: int,
    group_hi: int,
    want_unique: bool,
    row_table: np.ndarray,
    col_table: np.ndarray,
    row_first: np.ndarray,
    class_start: np.ndarray,
    class_values: np.ndarray,
    spread_row: np.ndarray,
    spread_col: np.ndarray,
    col_key: np.ndarray,
    n_row_clues: int,
    mirror_clue: np.ndarray,
    square: bool,
) -> tuple[int, int, int]:
    col_mask = (np.int64(1) << height) - 1
    start = np.zeros(height, np.int64)
    size = np.zeros(height, np.int64)
    idx = np.zeros(height, np.int64)
    gt_part = np.zeros(height + 1, np.int64)
    gr_part = np.zeros(height + 1, np.int64)
    digits = np.zeros(height, np.int64)
    # --unique: a hash table of this group's column-clue keys (open addressing),
    # each with how often it came (1 or more) and the column-major grid of its first.
    slots = 1
    h_key = np.empty(1, np.int64)
    h_many = np.empty(1, np.uint8)
    h_grid = np.empty(1, np.int64)
    grids = 0
    solvable = 0
    unique = 0
    for group in range(group_lo, group_hi):
        weight = symmetry_weight(group, height, n_row_clues, mirror_clue, digits)
        if weight == 0:
            continue
        # The row clues, and what the first pass over the rows (from an
        # all-unknown grid) decides: that depends on the clues alone.
        rest = group
        kr0 = np.int64(0)
        kc0 = np.int64(0)
        in_group = np.int64(1)
        for r in range(height):
            cid = rest % n_row_clues
            rest //= n_row_clues
            start[r] = class_start[cid]
            size[r] = class_start[cid + 1] - class_start[cid]
            in_group *= size[r]
            idx[r] = 0
            first = np.int64(row_first[cid])
            kr0 |= first << (r * width)
            kc0 |= spread_row[first] << r
        for r in range(height):
            v = np.int64(class_values[start[r]])
            gt_part[r + 1] = gt_part[r] | (spread_row[v] << r)
            gr_part[r + 1] = gr_part[r] | (v << (r * width))
        if want_unique:
            need = 2
            while need < 2 * in_group:
                need *= 2
            if need > slots:
                slots = need
                h_key = np.empty(slots, np.int64)
                h_many = np.empty(slots, np.uint8)
                h_grid = np.empty(slots, np.int64)
            used = need - 1
            h_key[: used + 1] = -1
        group_solvable = 0
        group_unique = 0
        while True:
            gt = gt_part[height]
            # Squares: a grid and its transpose have the same counts, so only
            # the one of the two whose row clues are (up to mirrors) the lesser
            # is propagated, counted twice (once when they tie).
            key = np.int64(0)
            twins = 1
            if square or want_unique:
                plain = np.int64(0)  # column clue ids as one number, like a group's
                lr = np.int64(0)  # ... of the left-right mirror
                tb = np.int64(0)  # ... of the top-bottom mirror
                both = np.int64(0)
                for c in range(width):
                    v = (gt >> (c * height)) & col_mask
                    plain += col_key[0, c, v]
                    if square:
                        lr += col_key[1, c, v]
                        tb += col_key[2, c, v]
                        both += col_key[3, c, v]
                if square:
                    least = min(min(plain, lr), min(tb, both))
                    if least < group:
                        twins = 0
                    elif least > group:
                        twins = 2
                # Grids with equal clues have equal twins: still one key a clue set.
                key = plain * 2 + twins - 1
            if twins:
                if want_unique:
                    s = ((key * np.int64(-7046029254386353131)) >> 17) & used
                    while h_key[s] != -1 and h_key[s] != key:
                        s = (s + 1) & used
                    if h_key[s] == -1:
                        h_key[s] = key
                        h_many[s] = 0
                        h_grid[s] = gt
                    else:
                        h_many[s] = 1
                elif line_solved(width, height, gt, gr_part[height], kr0, kc0, row_table,
                                 col_table, spread_row, spread_col):
                    group_solvable += twins
            # Next grid of the group: an odometer over the rows' values.
            r = height - 1
            while r >= 0:
                idx[r] += 1
                if idx[r] < size[r]:
                    break
                idx[r] = 0
                r -= 1
            if r < 0:
                break
            for rr in range(r, height):
                v = np.int64(class_values[start[rr] + idx[rr]])
                gt_part[rr + 1] = gt_part[rr] | (spread_row[v] << rr)
                gr_part[rr + 1] = gr_part[rr] | (v << (rr * width))
        if want_unique:
            # Line logic solves only a clue set with one solution: propagate those alone.
            for s in range(used + 1):
                key = h_key[s]
                if key == -1 or h_many[s]:
                    continue
                twins = 1 + (key & 1)
                group_unique += twins
                gt = h_grid[s]
                gr = np.int64(0)
                for c in range(width):
                    gr |= spread_col[(gt >> (c * height)) & col_mask] << c
                if line_solved(width, height, gt, gr, kr0, kc0, row_table, col_table,
                               spread_row, spread_col):
                    group_solvable += twins
        grids += weight * in_group
        solvable += weight * group_solvable
        unique += weight * group_unique
    return grids, solvable, unique


SPECIALISE_CELLS = 30
"""Sizes of this many cells and more get a kernel compiled for their size alone (about
35% faster, 2-4 s to compile once); smaller counts, over in a second, share one."""


@cache
def kernel(width: int, height: int):
    """The count compiled for one size: `width` and `height` are constants in it (the
    generic kernel inlined), so every loop over lines unrolls; numba caches one machine
    code version per size."""

    @njit(cache=True, nogil=True)
    def count(group_lo, group_hi, want_unique, row_table, col_table, row_first, class_start,
              class_values, spread_row, spread_col, col_key, n_row_clues, mirror_clue, square):
        return _count(width, height, group_lo, group_hi, want_unique, row_table, col_table,
                      row_first, class_start, class_values, spread_row, spread_col, col_key,
                      n_row_clues, mirror_clue, square)

    return count


def count_groups(
    width: int,
    height: int,
    group_lo: int,
    group_hi: int,
    want_unique: bool,
    row_table: np.ndarray,
    col_table: np.ndarray,
    row_first: np.ndarray,
    class_start: np.ndarray,
    class_values: np.ndarray,
    spread_row: np.ndarray,
    spread_col: np.ndarray,
    col_key: np.ndarray,
    n_row_clues: int,
    mirror_clue: np.ndarray,
    square: bool,
) -> tuple[int, int, int]:
    """(grids, line-solvable, unique) over the row-clue groups [group_lo, group_hi).

    Group g fixes the clue of every row (its base-`n_row_clues` digits); its
    grids are all choices of one row value per row clue. Two grids with the
    same clues always share a group, so uniqueness is decided group by group
    (count each column-clue key) in memory bounded by the largest group rather
    than by the 2^(H*W) grids.

    Mirroring the grid left-right or top-bottom maps a group onto a group
    with the same counts, so only the least group of each such set is
    enumerated, counted once for each distinct group in the set. On squares
    the transpose pairs grids across groups; a grid is kept when the least
    mirror image of its column clues is not below its group (the least
    mirror image of its row clues), and counted twice when above. Both
    sides of that test are mirror-invariant, so the two savings compose.

    Big sizes run a kernel compiled for their size (`kernel`).
    """
    tables = (row_table, col_table, row_first, class_start, class_values, spread_row,
              spread_col, col_key, n_row_clues, mirror_clue, square)
    if width * height >= SPECIALISE_CELLS:
        return kernel(width, height)(group_lo, group_hi, want_unique, *tables)
    return _count(width, height, group_lo, group_hi, want_unique, *tables)
