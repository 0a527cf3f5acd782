"""Which tiles each pattern database covers, per board size (light: no numpy, no numba)."""

from __future__ import annotations

PARTITIONS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    # 6-6-3. Of the shapes we measured (bench/bench_fifteen.py's notes), this one
    # needs the fewest nodes on Korf's 30 hardest: a 2×3 block, the right column
    # with the bottom-right corner, and the 2×2 corner left of it minus one.
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
