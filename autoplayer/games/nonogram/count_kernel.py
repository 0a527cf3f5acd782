"""The compiled inner loop of `autoplayer count`: line logic on every grid of a batch.

Imported only by `count.count_grids`, so numba (slow to import) stays out of
every other command. The tables it reads are built and explained in `count`.

Bit layout (H rows of W cells, H*W <= 48 so every board fits an int64):
row-major boards hold cell (r, c) at bit r*W + c, column-major boards at bit
c*H + r. A grid's own cells never need storing as "filled/empty" twice: the
line solver is sound, so every cell it decides equals the grid's cell, and
the whole solver state is just the mask of decided cells.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
    col_clue_id: np.ndarray,
    n_row_clues: int,
    n_col_clues: int,
    mirror_clue: np.ndarray,
    square: bool,
    keys: np.ndarray,
) -> tuple[int, int, int]:
    """(grids, line-solvable, unique) over the row-clue groups [group_lo, group_hi).

    Group g fixes the clue of every row (its base-`n_row_clues` digits); its
    grids are all choices of one row value per row clue. Two grids with the
    same clues always share a group, so uniqueness is decided group by group
    (sort the column-clue keys, count the singletons) in memory bounded by
    the largest group rather than by the 2^(H*W) grids.

    Mirroring the grid left-right or top-bottom maps a group onto a group
    with the same counts, so only the least group of each such set is
    enumerated, counted once for each distinct group in the set. On squares
    the transpose pairs grids across groups; a grid is kept when the least
    mirror image of its column clues is not below its group (the least
    mirror image of its row clues), and counted twice when above. Both
    sides of that test are mirror-invariant, so the two savings compose.
    """
    row_mask = (np.int64(1) << width) - 1
    col_mask = (np.int64(1) << height) - 1
    full = (np.int64(1) << (width * height)) - 1
    start = np.zeros(height, np.int64)
    size = np.zeros(height, np.int64)
    idx = np.zeros(height, np.int64)
    gt_part = np.zeros(height + 1, np.int64)
    rowval = np.zeros(height, np.int64)
    grids = 0
    solvable = 0
    unique = 0
    digits = np.zeros(height, np.int64)
    for group in range(group_lo, group_hi):
        weight = symmetry_weight(group, height, n_row_clues, mirror_clue, digits)
        if weight == 0:
            continue
        # The row clues, and what the first pass over the rows (from an
        # all-unknown grid) decides: that depends on the clues alone.
        rest = group
        kr0 = np.int64(0)
        kc0 = np.int64(0)
        for r in range(height):
            cid = rest % n_row_clues
            rest //= n_row_clues
            start[r] = class_start[cid]
            size[r] = class_start[cid + 1] - class_start[cid]
            idx[r] = 0
            first = np.int64(row_first[cid])
            kr0 |= first << (r * width)
            kc0 |= spread_row[first] << r
        for r in range(height):
            v = np.int64(class_values[start[r]])
            rowval[r] = v
            gt_part[r + 1] = gt_part[r] | (spread_row[v] << r)
        n = 0
        m = 0
        group_solvable = 0
        while True:
            gt = gt_part[height]
            n += 1
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
                for c in range(width - 1, -1, -1):
                    cid = col_clue_id[(gt >> (c * height)) & col_mask]
                    plain = plain * n_col_clues + cid
                    if square:
                        back = col_clue_id[(gt >> ((width - 1 - c) * height)) & col_mask]
                        lr = lr * n_col_clues + back
                        tb = tb * n_col_clues + mirror_clue[cid]
                        both = both * n_col_clues + mirror_clue[back]
                if square:
                    least = min(min(plain, lr), min(tb, both))
                    if least < group:
                        twins = 0
                    elif least > group:
                        twins = 2
                # Grids with equal clues have equal twins: still one key a clue set.
                key = plain * 2 + twins - 1
            if twins:
                # Propagate to the fixpoint: columns first (rows are already settled).
                kr = kr0
                kc = kc0
                dirty_c = row_mask
                while dirty_c:
                    dirty_r = np.int64(0)
                    for c in range(width):
                        if (dirty_c >> c) & 1:
                            sh = c * height
                            k = (kc >> sh) & col_mask
                            t = (gt >> sh) & col_mask
                            d = np.int64(col_table[(t << height) | k]) ^ k
                            kc |= d << sh
                            kr |= spread_col[d] << c
                            dirty_r |= d
                    dirty_c = np.int64(0)
                    for r in range(height):
                        if (dirty_r >> r) & 1:
                            sh = r * width
                            k = (kr >> sh) & row_mask
                            t = rowval[r]
                            d = np.int64(row_table[(t << width) | k]) ^ k
                            kr |= d << sh
                            kc |= spread_row[d] << r
                            dirty_c |= d
                if kr == full:
                    group_solvable += twins
                if want_unique:
                    keys[m] = key
                    m += 1
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
                rowval[rr] = v
                gt_part[rr + 1] = gt_part[rr] | (spread_row[v] << rr)
        grids += weight * n
        solvable += weight * group_solvable
        if want_unique:
            block = np.sort(keys[:m])
            i = 0
            while i < m:
                j = i + 1
                while j < m and block[j] == block[i]:
                    j += 1
                if j == i + 1:
                    unique += weight * (1 + (block[i] & 1))
                i = j
    return grids, solvable, unique
