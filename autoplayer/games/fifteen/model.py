"""Sliding-puzzle boards: W×H cells in reading order, 0 for the gap, goal with the gap last.

The goal is the one Simon Tatham's Fifteen shows (1, 2, … then the gap in the
bottom-right corner). Korf's benchmark file uses the other common goal, gap
first; `from_blank_first` and `to_blank_first` convert between the two by a
180° rotation plus relabelling, which keeps adjacency and so keeps every
solution length. `goals` infers other goals from what a game shows and solves toward them.

A move is named by the way a *tile* slides into the gap ('L', 'R', 'U', 'D'),
which is what a person watching the board sees; the gap goes the other way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from autoplayer.errors import InputError
from autoplayer.limits import shown, whole_number

MIN_SIDE = 2
MAX_SIDE = 6

MOVES = "LRUD"
"""Tile slide directions; the gap moves the opposite way."""

ARROWS = {"L": "←", "R": "→", "U": "↑", "D": "↓"}
WORDS = {"L": "left", "R": "right", "U": "up", "D": "down"}
OPPOSITE = {"L": "R", "R": "L", "U": "D", "D": "U"}

_SPEC = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*:(.*)$", re.S)


@dataclass(frozen=True)
class Board:
    """One arrangement; `cells[r * width + c]` is the tile there, 0 the gap."""

    width: int
    height: int
    cells: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.width * self.height

    @property
    def gap(self) -> int:
        return self.cells.index(0)

    def is_solved(self) -> bool:
        return self.cells == goal_cells(self.width, self.height)

    def spec(self) -> str:
        """The board in the `WxH:t,t,…` form Tatham's Fifteen uses for game IDs."""
        return f"{self.width}x{self.height}:" + ",".join(map(str, self.cells))

    def tile_to_move(self, move: str) -> int | None:
        """The cell of the tile that would slide for `move`, or None at the edge."""
        g = self.gap
        r, c = divmod(g, self.width)
        if move == "L":
            return g + 1 if c < self.width - 1 else None
        if move == "R":
            return g - 1 if c > 0 else None
        if move == "U":
            return g + self.width if r < self.height - 1 else None
        if move == "D":
            return g - self.width if r > 0 else None
        raise ValueError(f"unknown move {move!r}")

    def legal_moves(self) -> list[str]:
        return [m for m in MOVES if self.tile_to_move(m) is not None]

    def move(self, move: str) -> Board:
        """The board after one slide; raises ValueError for a slide off the edge."""
        src = self.tile_to_move(move)
        if src is None:
            raise ValueError(f"no tile can slide {WORDS[move]} on {self.spec()}")
        cells = list(self.cells)
        g = self.gap
        cells[g], cells[src] = cells[src], 0
        return Board(self.width, self.height, tuple(cells))

    def play(self, moves: Iterable[str]) -> Board:
        board = self
        for m in moves:
            board = board.move(m)
        return board

    def rows(self) -> list[tuple[int, ...]]:
        w = self.width
        return [self.cells[r * w : (r + 1) * w] for r in range(self.height)]


def goal_cells(width: int, height: int) -> tuple[int, ...]:
    n = width * height
    return (*range(1, n), 0)


def goal(width: int = 4, height: int = 4) -> Board:
    return Board(width, height, goal_cells(width, height))


def inversions(cells: Sequence[int]) -> int:
    """Pairs of tiles out of order in reading order, the gap ignored."""
    tiles = [t for t in cells if t]
    return sum(1 for i, a in enumerate(tiles) for b in tiles[i + 1 :] if a > b)


def is_solvable(board: Board) -> bool:
    """The parity rule, for the gap-last goal on any W×H.

    A horizontal slide never changes the reading order of the tiles. A vertical
    one jumps a tile over W-1 others, so it flips the inversion parity when W is
    even (and the gap's row changes by one) and keeps it when W is odd. Hence:
    odd W — inversions even; even W — inversions plus the gap's row (from the
    top) has the parity of the goal's, H-1.
    """
    inv = inversions(board.cells)
    if board.width % 2:
        return inv % 2 == 0
    gap_row = board.gap // board.width
    return (inv + gap_row) % 2 == (board.height - 1) % 2


def unsolvable_reason(board: Board) -> str:
    """Why the parity rule refuses a board, with the numbers that decide it."""
    inv = inversions(board.cells)
    parity = ("even", "odd")
    pairs = f"{inv} inversion{'' if inv == 1 else 's'} (pairs of tiles out of order)"
    if board.width % 2:
        return (f"its tiles have {pairs}, an odd number, and on a board of odd width "
                "every move keeps that parity (swap two tiles to fix it)")
    row = board.gap // board.width
    return (f"its tiles have {pairs} and the gap is {row} row{'' if row == 1 else 's'} "
            "below the top; "
            f"{inv} + {row} is {parity[(inv + row) % 2]}, and every move keeps that parity, "
            f"but the solved {board.width}x{board.height} board has it "
            f"{parity[(board.height - 1) % 2]} (swap two tiles to fix it)")


def check_size(width: int, height: int) -> None:
    for side, name in ((width, "width"), (height, "height")):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise InputError(f"board {name} {side} is outside {MIN_SIDE}..{MAX_SIDE}")


def parse_size(text: str) -> tuple[int, int]:
    """'4x4' or '5x3' → (width, height), checked."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not m:
        raise InputError(f"size '{shown(text)}' is not of the form WxH (e.g. 4x4)")
    return _side(m[1], "width"), _side(m[2], "height")


def _side(digits: str, name: str) -> int:
    return whole_number(digits, MAX_SIDE, f"board {name}", least=MIN_SIDE)


def make_board(width: int, height: int, cells: Sequence[int]) -> Board:
    """A checked board: right count, each of 0..W·H-1 once. Solvability is checked apart."""
    check_size(width, height)
    n = width * height
    if len(cells) != n:
        raise InputError(f"a {width}x{height} board has {n} cells, got {len(cells)}")
    seen: set[int] = set()
    for t in cells:
        if not 0 <= t < n:
            raise InputError(f"tile {t} is outside 0..{n - 1} (0 is the gap)")
        if t in seen:
            raise InputError(f"tile {t} appears twice")
        seen.add(t)
    return Board(width, height, tuple(cells))


def parse_board(text: str, solvable: bool = True) -> Board:
    """Reads `WxH:t,t,…` (Tatham's Fifteen game IDs; 0 is the gap, row-major).

    Commas or spaces separate tiles. Boards that cannot reach the gap-last goal are
    refused here, with the reason (unless `solvable` is False: a caller with another goal
    checks that goal itself).
    """
    m = _SPEC.match(text)
    if not m and re.match(r"^\s*\d+\s*[xX×]\s*\d+\s*#", text):
        raise InputError(
            f"'{shown(text.strip(), 40)}' is a random seed, which only Tatham's own generator "
            "turns into a board; give the game ID instead (Game > Specific… in Fifteen)"
        )
    if not m:
        raise InputError(
            f"board '{shown(text.strip(), 40)}' is not of the form WxH:t,t,… "
            "(e.g. 4x4:4,6,5,12,9,0,11,1,10,3,8,7,14,13,2,15)"
        )
    width, height = _side(m[1], "width"), _side(m[2], "height")
    n = width * height
    fields = [f for f in re.split(r"[,\s]+", m[3].strip()) if f]
    if len(fields) != n:  # before the tiles are read: thousands of them say no more than this
        raise InputError(f"a {width}x{height} board has {n} cells, got {len(fields)}")
    cells: list[int] = []
    for i, f in enumerate(fields, 1):
        if not (f.isascii() and f.isdigit()):
            raise InputError(f"tile {i} of the board is '{shown(f)}', not a number")
        if len(f.lstrip("0")) > len(str(n)):
            raise InputError(f"tile {i} of the board, {shown(f)}, is outside 0..{n - 1} "
                             "(0 is the gap)")
        cells.append(int(f.lstrip("0") or "0"))
    board = make_board(width, height, cells)
    if solvable and not is_solvable(board):
        raise InputError(f"board {board.spec()} cannot be solved: {unsolvable_reason(board)}")
    return board


def from_blank_first(cells: Sequence[int], width: int = 4, height: int = 4) -> Board:
    """A board given against the gap-first goal (Korf's files) → the same puzzle, gap-last goal.

    Rotating by 180° and relabelling tile t as N-t maps the gap-first goal onto
    the gap-last one and keeps which cells are adjacent.
    """
    n = width * height
    new = [0] * n
    for p, t in enumerate(cells):
        new[n - 1 - p] = 0 if t == 0 else n - t
    return make_board(width, height, new)


def to_blank_first(board: Board) -> tuple[int, ...]:
    """The inverse of `from_blank_first` (the map is its own inverse)."""
    n = board.size
    new = [0] * n
    for p, t in enumerate(board.cells):
        new[n - 1 - p] = 0 if t == 0 else n - t
    return tuple(new)


def moves_between(before: Board, after: Board) -> str | None:
    """The single slide that turns `before` into `after`, if there is one."""
    for m in before.legal_moves():
        if before.move(m) == after:
            return m
    return None


def describe(board: Board, moves: Sequence[str], arrows: bool = True) -> list[str]:
    """Each move as '12←' (or '12L' without arrows): the tile that slides and where it goes."""
    out: list[str] = []
    for m in moves:
        src = board.tile_to_move(m)
        if src is None:
            raise ValueError(f"move {m!r} slides nothing on {board.spec()}")
        out.append(f"{board.cells[src]}{ARROWS[m] if arrows else m}")
        board = board.move(m)
    return out
