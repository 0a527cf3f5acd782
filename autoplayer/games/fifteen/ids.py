"""Every solvable board has an ID in [0, N!/2), N = W·H; ID 0 is the solved board.

The tiles (gap left out, reading order) are ranked in Steinhaus–Johnson–
Trotter order ("plain changes"), where each permutation follows from the one
before by one swap of neighbours. Rank 0 is the identity, so the permutation of
rank r has the parity of r, and the solvable ones are exactly every other rank
once the gap's cell fixes which parity is needed. So:

    gap cell  g = N-1 - (ID mod N)          (ID 0 → gap in the last cell)
    rank      r = 2·(ID div N) + p(g)       (p(g): the inversion parity a
                                             solvable board with the gap in g has)

and the inverse reads g and r off the board. Ranking and unranking follow
Kreher & Stinson's Trotter–Johnson algorithms, O(n²) with exact integers.
"""

from __future__ import annotations

from math import factorial

from autoplayer.errors import InputError
from autoplayer.games.fifteen.model import Board, check_size, is_solvable


def sjt_unrank(n: int, rank: int) -> list[int]:
    """The permutation of 1..n at `rank` in plain-changes order."""
    perm = [1]
    prev = 0
    for j in range(2, n + 1):
        here = rank * factorial(j) // factorial(n)  # rank of the restriction to 1..j
        k = here - j * prev  # which of the j slots j takes, counted along the sweep
        # Even-ranked parents are swept right to left, odd ones left to right.
        perm.insert(j - 1 - k if prev % 2 == 0 else k, j)
        prev = here
    return perm


def sjt_rank(perm: list[int]) -> int:
    """The inverse of `sjt_unrank` for a permutation of 1..n."""
    rank = 0
    for j in range(2, len(perm) + 1):
        # k: 1-based position of j among the values 1..j.
        k = 1
        for v in perm:
            if v == j:
                break
            if v < j:
                k += 1
        rank = j * rank + (j - k if rank % 2 == 0 else k - 1)
    return rank


def _needed_parity(width: int, height: int, gap: int) -> int:
    """Inversion parity of the solvable boards with the gap in cell `gap`."""
    if width % 2:
        return 0
    return (height - 1 - gap // width) % 2


def id_count(width: int = 4, height: int = 4) -> int:
    return factorial(width * height) // 2


def board_from_id(board_id: int, width: int = 4, height: int = 4) -> Board:
    check_size(width, height)
    n = width * height
    if not 0 <= board_id < id_count(width, height):
        raise InputError(
            f"board ID {board_id} is outside 0..{id_count(width, height) - 1} for {width}x{height}"
        )
    gap = n - 1 - board_id % n
    rank = 2 * (board_id // n) + _needed_parity(width, height, gap)
    tiles = sjt_unrank(n - 1, rank)
    tiles.insert(gap, 0)
    return Board(width, height, tuple(tiles))


def id_of(board: Board) -> int:
    """The ID of a solvable board (ValueError for an unsolvable one: it has none)."""
    if not is_solvable(board):
        raise ValueError(f"{board.spec()} is not solvable and has no ID")
    n = board.size
    gap = board.gap
    rank = sjt_rank([t for t in board.cells if t])
    return (rank // 2) * n + (n - 1 - gap)
