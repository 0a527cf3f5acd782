"""Which tiles each pattern database covers, per board size (light: no numpy, no numba)."""

from __future__ import annotations

PARTITIONS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    # 6-6-3: a 2×3 block, the right column with the bottom-right corner, and the
    # 2×2 corner left of it less one. `python -m bench.bench_fifteen --partitions`
    # compares shapes by nodes generated on Korf's 30 longest instances (2026-11-21):
    #   this one               48.6 M with the mirrored lookup, 131.6 M without
    #   …/4,8,10,11,12,15/9,13,14   53.2 M    171.8 M
    #   1-6/7,8,11,12,14,15/9,10,13 70.6 M    171.2 M
    #   left / right halves    96.2 M    368.2 M
    #   top row + left column / inner 2×3 / bottom row   278.2 M   699.2 M
    #   A A A B
    #   A A A B
    #   C C B B
    #   C B B .
    (4, 4): ((1, 2, 3, 5, 6, 7), (4, 8, 11, 12, 14, 15), (9, 10, 13)),
}


def partition(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Tile groups for a size: exact (one group) up to 9 cells, else the table above."""
    if (width, height) in PARTITIONS:
        return PARTITIONS[(width, height)]
    n = width * height
    if n <= 9:
        return (tuple(range(1, n)),)
    raise ValueError(f"no optimal solver for {width}x{height} (3x3, 4x4 and boards of ≤ 9 cells)")


def has_tables(width: int, height: int) -> bool:
    try:
        partition(width, height)
    except ValueError:
        return False
    return True
