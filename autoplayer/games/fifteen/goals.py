"""Which arrangement a sliding puzzle is solved in, and solving toward any arrangement.

Games differ: Tatham's Fifteen shows 1..15 and is solved with the gap last;
other games show 2..16 and are solved with the gap first; Korf's benchmark
labels the tiles 1..15 and puts the gap first. `infer_goal` decides from what
the board shows (the numbers ascend in reading order and the gap stands where
the missing number would) and says why, or says that no goal is certain.

The solvers (`optimal`, `human`) know one goal: labels 1..N-1 with the gap in
the last cell. Any goal whose gap is in a corner is that goal after a mirror
(rows, columns or both; mirrors keep adjacency, so solution lengths are kept)
and a relabelling of the tiles, so `solve_toward` reuses them and stays
optimal. A goal whose gap is elsewhere is reached through the same goal with
its gap slid to the nearest corner, then slid back: correct, not optimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autoplayer.games.fifteen.model import OPPOSITE, Board

GAP_LAST = "gap-last"
GAP_FIRST = "gap-first"
AUTO = "auto"
CONVENTIONS = (GAP_LAST, GAP_FIRST, AUTO)


@dataclass(frozen=True)
class Goal:
    """The solved board in the labels the game shows (0 = the gap), and why it is the goal."""

    width: int
    height: int
    cells: tuple[int, ...]
    reason: str

    @property
    def gap(self) -> int:
        return self.cells.index(0)

    @property
    def board(self) -> Board:
        return Board(self.width, self.height, self.cells)

    def where(self) -> str:
        """The gap's place in words (for reports)."""
        return _place_words(self.gap, self.width, self.height)


@dataclass(frozen=True)
class Unsure:
    """No goal is certain: the caller must stop before any input, and say `reason`."""

    reason: str


def _place_words(cell: int, width: int, height: int) -> str:
    r, c = divmod(cell, width)
    corners = {(0, 0): "first (top-left)", (0, width - 1): "top-right",
               (height - 1, 0): "bottom-left", (height - 1, width - 1): "last (bottom-right)"}
    return corners.get((r, c), f"at row {r + 1} column {c + 1}")


def ascending_goal(width: int, height: int, gap: int, labels: Sequence[int]) -> tuple[int, ...]:
    """`labels` ascending in reading order, with the gap in cell `gap`."""
    tiles = sorted(labels)
    return (*tiles[:gap], 0, *tiles[gap:])


def can_reach(start: Sequence[int], target: Sequence[int], width: int) -> bool:
    """Whether slides turn `start` into `target` (same labels, 0 the gap): the parity of the
    permutation between them (the gap counted as a tile) must equal the parity of the gap's
    taxicab distance, since every slide is one transposition and one step of the gap."""
    if sorted(start) != sorted(target):
        return False
    where = {t: i for i, t in enumerate(target)}
    perm = [where[t] for t in start]
    seen = [False] * len(perm)
    swaps = 0
    for i in range(len(perm)):
        j, length = i, 0
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        swaps += max(0, length - 1)
    g0, g1 = list(start).index(0), list(target).index(0)
    dist = abs(g0 // width - g1 // width) + abs(g0 % width - g1 % width)
    return (swaps + dist) % 2 == 0


def infer_goal(board: Board) -> Goal | Unsure:
    """The goal of the board as read (cells hold the numbers shown, 0 the one gap).

    The numbers must be 1..N with one missing (N = W·H); the goal has them ascending in
    reading order and the gap where the missing one would stand: 1..15 shown → gap last,
    2..16 shown → gap first. Anything else, or a board that cannot reach that goal by
    slides, is Unsure (a misread, or a game whose goal this rule does not cover).
    """
    w, h, n = board.width, board.height, board.size
    gaps = board.cells.count(0)
    if gaps != 1:
        return Unsure(f"the board shows {gaps} gaps; a sliding puzzle has exactly one")
    tiles = [t for t in board.cells if t]
    dupes = sorted({t for t in tiles if tiles.count(t) > 1})
    if dupes:
        return Unsure(f"the numbers {', '.join(map(str, dupes))} are shown more than once")
    outside = sorted(t for t in tiles if not 1 <= t <= n)
    if outside:
        return Unsure(f"the tiles show {', '.join(map(str, outside))}, outside 1..{n}; "
                      f"no ascending order of 1..{n} with one number missing fits")
    missing = next(t for t in range(1, n + 1) if t not in set(tiles))
    cells = ascending_goal(w, h, missing - 1, tiles)
    shown = f"1..{n - 1}" if missing == n else (f"2..{n}" if missing == 1 else
                                               f"1..{n} without {missing}")
    where = _place_words(missing - 1, w, h)
    reason = (f"the tiles show {shown}: ascending in reading order, the gap stands where "
              f"{missing} would, {where}")
    if not can_reach(board.cells, cells, w):
        return Unsure(f"{reason}, but no sequence of slides reaches that from the board read "
                      "(two tiles would have to swap): a tile is misread, or the game's goal "
                      "is another")
    return Goal(w, h, cells, reason)


def conventional_goal(board: Board, convention: str) -> Goal | Unsure:
    """The goal under a named convention for boards labelled 1..N-1 (0 the gap):
    gap-last (Tatham's), gap-first (Korf's), or auto: the one of the two that the board can
    reach, when only one can (on boards of even width exactly one can; on odd widths both)."""
    w, h, n = board.width, board.height, board.size
    if sorted(board.cells) != list(range(n)):
        return Unsure(f"a {w}x{h} board under the {convention} convention holds 0..{n - 1} "
                      "once each (0 = the gap)")
    tiles = range(1, n)
    last = Goal(w, h, ascending_goal(w, h, n - 1, tiles), "gap last, as asked (1..N-1, then "
                "the gap)")
    first = Goal(w, h, ascending_goal(w, h, 0, tiles), "gap first, as asked (the gap, then "
                 "1..N-1, Korf's convention)")
    if convention == GAP_LAST:
        candidates = [last]
    elif convention == GAP_FIRST:
        candidates = [first]
    elif convention == AUTO:
        candidates = [g for g in (last, first) if can_reach(board.cells, g.cells, w)]
        if len(candidates) == 2:
            return Unsure("both the gap-last and the gap-first goal can be reached (on a "
                          "board of odd width they always can); say which with --goal")
        if len(candidates) == 1:
            g = candidates[0]
            which = "last" if g is last else "first"
            other = "first" if g is last else "last"
            return Goal(w, h, g.cells, f"gap {which}: the only goal of the two that slides can "
                        f"reach (the gap-{other} goal has the other parity)")
    else:
        raise ValueError(f"unknown goal convention {convention!r}")
    reachable = [g for g in candidates if can_reach(board.cells, g.cells, w)]
    if not reachable:
        return Unsure(f"no sequence of slides reaches the {convention} goal (two tiles "
                      "would have to swap)")
    return reachable[0]


# ---------------------------------------------------------------- solving toward a goal

@dataclass(frozen=True)
class Mirror:
    """A symmetry of the W×H board that keeps adjacency: rows and/or columns reversed."""

    width: int
    height: int
    rows: bool
    cols: bool

    def cell(self, p: int) -> int:
        r, c = divmod(p, self.width)
        r = self.height - 1 - r if self.rows else r
        c = self.width - 1 - c if self.cols else c
        return r * self.width + c

    def move(self, m: str) -> str:
        """A tile slide seen in the mirror (each mirror is its own inverse)."""
        if (m in "LR" and self.cols) or (m in "UD" and self.rows):
            return OPPOSITE[m]
        return m


def _corner_mirror(width: int, height: int, gap: int) -> Mirror | None:
    """The mirror taking a corner `gap` to the last cell (None if `gap` is not a corner)."""
    r, c = divmod(gap, width)
    if r not in (0, height - 1) or c not in (0, width - 1):
        return None
    return Mirror(width, height, rows=r != height - 1, cols=c != width - 1)


def standard_view(board: Board, goal: Goal) -> tuple[Board, Mirror]:
    """`board` seen so that `goal` (gap in a corner) is the gap-last goal 1..N-1: mirrored
    to put the goal's gap last, each tile relabelled by its goal cell there. Solutions of
    the view, each move mirrored back, solve `board` toward `goal`, with the same length."""
    mirror = _corner_mirror(goal.width, goal.height, goal.gap)
    if mirror is None:
        raise ValueError(f"the goal's gap (cell {goal.gap}) is not in a corner")
    home = {t: mirror.cell(q) + 1 for q, t in enumerate(goal.cells) if t}
    cells = [0] * board.size
    for p, t in enumerate(board.cells):
        cells[mirror.cell(p)] = home[t] if t else 0
    return Board(board.width, board.height, tuple(cells)), mirror


def _gap_to_corner(goal: Goal) -> tuple[Goal, str]:
    """The goal with its gap slid to the nearest corner (rows first), and the tile slides
    that bring that board back to `goal`."""
    w, h = goal.width, goal.height
    r, c = divmod(goal.gap, w)
    tr = 0 if r < h - 1 - r else h - 1
    tc = 0 if c < w - 1 - c else w - 1
    # the gap going down is a tile sliding up, etc.
    there = ("U" if tr > r else "D") * abs(tr - r) + ("L" if tc > c else "R") * abs(tc - c)
    moved = goal.board.play(there)
    back = "".join(OPPOSITE[m] for m in reversed(there))
    return Goal(w, h, moved.cells, goal.reason), back


def solve_toward(board: Board, goal: Goal, method: str = "optimal") -> tuple[str, bool]:
    """Tile slides from `board` to `goal`, and whether they are a shortest solution.

    `method`: 'optimal' (pattern databases: 3x3, 4x4, ≤ 9 cells) or 'fast' (human-style,
    any size). ValueError when slides cannot reach the goal.
    """
    if not can_reach(board.cells, goal.cells, board.width):
        raise ValueError(f"{board.spec()} cannot reach the goal {goal.board.spec()}")
    tail = ""
    if _corner_mirror(goal.width, goal.height, goal.gap) is None:
        goal, tail = _gap_to_corner(goal)
    view, mirror = standard_view(board, goal)
    if method == "optimal":
        from autoplayer.games.fifteen.optimal import solve_optimal

        moves = solve_optimal(view).moves
    elif method == "fast":
        from autoplayer.games.fifteen.human import solve_fast

        moves = solve_fast(view)
    else:
        raise ValueError(f"unknown method {method!r}")
    path = "".join(mirror.move(m) for m in moves) + tail
    return path, method == "optimal" and not tail
