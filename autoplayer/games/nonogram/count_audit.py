"""A brute-force recount of a range of row-clue groups, to audit the kernel's shards.

The kernel (`count_kernel`) counts a range of groups by symmetry: only the least group
of each mirror set is enumerated and weighted, and on squares only one grid of each
transposed pair is propagated, counted twice. The grids a range stands for are thus
every grid of every mirror image of its least groups, less those whose column clues
are (up to mirrors) below the group, plus the transposes of those above it. This
module enumerates exactly those grids one by one and runs line logic on each with
its own plain propagation (no shared code with the kernel but the line tables, which
the tests check against an enumeration of placements), so the kernel's symmetry
reasoning, its propagation and its --unique hash table are all checked by a count
that uses none of them. It is slow (every grid, every image): for slices of shards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from autoplayer.games.nonogram.count import _plan


@njit(cache=True, nogil=True)
def _digits_value(digits: np.ndarray, base: int) -> int:
    value = np.int64(0)
    for i in range(len(digits) - 1, -1, -1):
        value = value * base + digits[i]
    return value


@njit(cache=True, nogil=True)
def _least_image(digits: np.ndarray, base: int, mirror: np.ndarray) -> int:
    """The least of a clue tuple's four mirror images (as base-`base` numbers)."""
    n = len(digits)
    best = np.int64(-1)
    flipped = np.empty(n, np.int64)
    for image in range(4):
        for i in range(n):
            j = n - 1 - i if image & 1 else i
            flipped[i] = mirror[digits[j]] if image & 2 else digits[j]
        value = _digits_value(flipped, base)
        if best < 0 or value < best:
            best = value
    return best


@njit(cache=True, nogil=True)
def _solved(board: np.ndarray, width: int, height: int, row_table: np.ndarray,
            col_table: np.ndarray) -> bool:
    """Rows and columns in turn until nothing changes; `board[r, c]` is 0 or 1."""
    known = np.zeros((height, width), np.int64)
    changed = True
    while changed:
        changed = False
        for r in range(height):
            t = np.int64(0)
            k = np.int64(0)
            for c in range(width):
                t |= board[r, c] << c
                k |= known[r, c] << c
            new = np.int64(row_table[(t << width) | k])
            if new != k:
                changed = True
                for c in range(width):
                    known[r, c] = (new >> c) & 1
        for c in range(width):
            t = np.int64(0)
            k = np.int64(0)
            for r in range(height):
                t |= board[r, c] << r
                k |= known[r, c] << r
            new = np.int64(col_table[(t << height) | k])
            if new != k:
                changed = True
                for r in range(height):
                    known[r, c] = (new >> r) & 1
    return known.sum() == width * height


@njit(cache=True, nogil=True)
def _audit(width: int, height: int, lo: int, hi: int, want_unique: bool,
           row_table: np.ndarray, col_table: np.ndarray, class_start: np.ndarray,
           class_values: np.ndarray, row_ids: np.ndarray, col_ids: np.ndarray,
           n_row: int, n_col: int, mirror: np.ndarray, square: bool) -> tuple[int, int, int]:
    grids = 0
    solvable = 0
    unique = 0
    digits = np.zeros(height, np.int64)
    images = np.zeros(4, np.int64)
    board = np.zeros((height, width), np.int64)
    transposed = np.zeros((width, height), np.int64)
    cols = np.zeros(width, np.int64)
    rows_of_t = np.zeros(width, np.int64)
    for group in range(lo, hi):
        rest = group
        for r in range(height):
            digits[r] = rest % n_row
            rest //= n_row
        if _least_image(digits, n_row, mirror) != group:
            continue
        # The distinct mirror images of the group: their grids are what it stands for.
        count = 0
        flipped = np.empty(height, np.int64)
        for image in range(4):
            for i in range(height):
                j = height - 1 - i if image & 1 else i
                flipped[i] = mirror[digits[j]] if image & 2 else digits[j]
            value = _digits_value(flipped, n_row)
            seen = False
            for i in range(count):
                if images[i] == value:
                    seen = True
            if not seen:
                images[count] = value
                count += 1
        # Every grid of every image, and the transposes kept with them: their clue
        # pairs (rows, columns as numbers), for --unique, and line logic on each.
        pair_keys = np.empty(0, np.int64)
        n_pairs = 0
        for i in range(count):
            rest = images[i]
            total = 1
            for r in range(height):
                cid = rest % n_row
                rest //= n_row
                digits[r] = cid
                total *= class_start[cid + 1] - class_start[cid]
            grids += total  # as the kernel counts: every grid of the image
            if want_unique and len(pair_keys) < n_pairs + 2 * total:
                grown = np.empty(2 * (n_pairs + 2 * total), np.int64)
                grown[:n_pairs] = pair_keys[:n_pairs]
                pair_keys = grown
            for index in range(total):
                rest = index
                row_clue_value = np.int64(0)
                for r in range(height - 1, -1, -1):
                    size = class_start[digits[r] + 1] - class_start[digits[r]]
                    v = class_values[class_start[digits[r]] + rest % size]
                    rest //= size
                    for c in range(width):
                        board[r, c] = (v >> c) & 1
                for r in range(height - 1, -1, -1):
                    row_clue_value = row_clue_value * n_row + digits[r]
                for c in range(width):
                    t = np.int64(0)
                    for r in range(height):
                        t |= board[r, c] << r
                    cols[c] = col_ids[t]
                keep = 1
                if square:
                    least = _least_image(cols, n_col, mirror)
                    if least < group:
                        keep = 0
                    elif least > group:
                        keep = 2
                if keep == 0:
                    continue
                col_clue_value = _digits_value(cols, n_col)
                if _solved(board, width, height, row_table, col_table):
                    solvable += 1
                if want_unique:
                    pair_keys[n_pairs] = row_clue_value * n_col**width + col_clue_value
                    n_pairs += 1
                if keep == 2:
                    for r in range(height):
                        for c in range(width):
                            transposed[c, r] = board[r, c]
                    if _solved(transposed, height, width, row_table, col_table):
                        solvable += 1
                    if want_unique:
                        for c in range(width):
                            rows_of_t[c] = cols[c]
                        pair_keys[n_pairs] = (_digits_value(rows_of_t, n_row) * n_col**width
                                              + row_clue_value)
                        n_pairs += 1
        if want_unique:
            block = np.sort(pair_keys[:n_pairs])
            i = 0
            while i < n_pairs:
                j = i + 1
                while j < n_pairs and block[j] == block[i]:
                    j += 1
                if j == i + 1:
                    unique += 1
                i = j
    return grids, solvable, unique


def audit_groups(rows: int, columns: int, lo: int, hi: int,
                 unique: bool = False) -> tuple[int, int, int]:
    """(grids, line-solvable, unique) of the groups [lo, hi), grid by grid: what
    `count.count_range` must give for the same range."""
    from autoplayer.games.nonogram.count import line_clues, line_table

    plan = _plan(rows, columns)
    row_clues, row_ids = line_clues(columns)
    col_clues, col_ids = line_clues(rows)
    if unique and float(len(row_clues)) ** rows * float(len(col_clues)) ** columns >= 2**62:
        raise ValueError(f"--unique audit of {rows}x{columns}: clue pairs overflow 64 bits")
    class_start, class_values = plan.args[3], plan.args[4]
    mirror = np.array([row_clues.index(clue[::-1]) for clue in row_clues], dtype=np.int64)
    return _audit(columns, rows, lo, hi, unique, line_table(columns), line_table(rows),
                  class_start, class_values, row_ids, col_ids, len(row_clues),
                  len(col_clues), mirror, rows == columns)
