"""The experiment that finds out what a nonogram game's buttons and drags do.

A person new to a game clicks a cell and watches; so does the bot, on cells
whose value the solution already fixes, one press at a time, each watched
until the game has drawn it (never a second press on a cell before the
first one's effect is seen):

1. left on a cell that must be filled, then left again on it (a toggle takes
   it back to blank, a setting game leaves it, a cycling game shows a third
   look; the cycle is followed round);
2. right on a cell that must stay empty (a mark, nothing, or a menu the
   game or the browser opens, which Esc closes and which rules that button out);
3. the cells pressed are left as they are (a toggled fill back to blank is not wrong,
   only not done yet): the first batch finishes them with the rest;
4. a drag with the filling button from the first to the last cell of a run
   of cells that must be filled, in one jump: all of them filled is a `line`
   game; only the two ends, a second drag through each inner cell tells a game
   that acts on every cell *entered* from one that takes only the ends;
   only the first cell, drags do nothing.

Which look is "filled" is not decided by darkness: it is the look the first
button makes from blank, unless that look is a small mark (a cross, a dot)
and the other button's look covers the cell. The result is `Rules` (plain
data) and the board's learned `Looks`. Anything the model cannot explain
stops the bot (`Unexplained`), naming the cell, the gesture and the look.
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from autoplayer.errors import UserError
from autoplayer.games.nonogram.looks import (
    Looks,
    coverage,
    differs,
    distance,
    look_distance,
    reference_looks,
    samples,
)
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.planner import Stroke
from autoplayer.games.nonogram.rules import STATES, Rules
from autoplayer.geometry import Button, Click, Dismiss, Drag, Gesture, Move, Rect
from autoplayer.play.experiment import NOTHING, Press, Seen
from autoplayer.screen.capture import Frame
from autoplayer.vision.grid import Grid

Cell = tuple[int, int]

MIN_RUN = 3
"""Cells a drag is tried on: three tell a line from its ends."""
SPLIT_RUN = 5
"""A run this long leaves three inner cells to tell `enter` from `ends`."""


class Unexplained(UserError):
    """The game did something the bot's model of it cannot explain: stop, exit 1."""

    exit_code = 1


@dataclass(frozen=True)
class Board:
    """What the experiment needs of a reading: the cells and where to park the pointer."""

    grid: Grid
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    park: tuple[Move, ...]
    """The route that parks the pointer: over `park_cell`, then off the board."""
    park_cell: Cell

    def click(self, cell: Cell, button: Button) -> Click:
        r, c = cell
        return Click(round(self.xs[c]), round(self.ys[r]), button)

    def drag(self, a: Cell, b: Cell, button: Button, steps: int) -> Drag:
        return Drag(round(self.xs[a[1]]), round(self.ys[a[0]]), round(self.xs[b[1]]),
                    round(self.ys[b[0]]), button, steps)

    def sense(self, frame: Frame) -> np.ndarray:
        """Every cell's look in a frame."""
        return samples(frame.pixels, self.grid)

    def press(self, gestures: Sequence[Gesture], before: np.ndarray, *,
              touched: Collection[Cell] | None = None, nothing: float = NOTHING,
              settle: bool = True) -> Press:
        """One watched step of the experiment, for the mid-end to carry out: the gestures,
        then the pointer parked, then watched until the game has drawn them."""
        mask = None
        if touched is not None:
            mask = np.zeros(before.shape[:2], bool)
            for cell in touched:
                mask[cell] = True
        return Press(tuple(gestures), self.park, self.sense, moved, before, mask, nothing,
                     settle)


PARK_DWELL = 0.05
"""Seconds the parking pointer rests on its corner cell before it leaves the board: a
toolkit that merges queued motions would otherwise never see it enter that cell."""


def parked_board(grid: Grid, board: Rect, xs: tuple[float, ...], ys: tuple[float, ...],
                 shape: tuple[int, ...]) -> Board:
    """The cells, and a parking route: over a corner cell (a game that keeps the last cell
    entered lit then always lights the same row and column), then off the board
    diagonally beyond that corner, inside the picture (`shape`)."""
    h, w = shape[:2]
    b = board
    pitch = max(4, round(grid.pitch))
    last_r, last_c = len(ys) - 1, len(xs) - 1
    corners = [((last_r, last_c), (b.right + pitch, b.bottom + pitch)),
               ((0, last_c), (b.right + pitch, b.y - pitch)),
               ((last_r, 0), (b.x - pitch, b.bottom + pitch)),
               ((0, 0), (b.x - pitch, b.y - pitch))]
    (r, c), (x, y) = next(
        ((cell, (x, y)) for cell, (x, y) in corners if 0 <= x < w and 0 <= y < h),
        ((0, 0), (max(0, b.x - 2), max(0, b.y - 2))))
    route = (Move(round(xs[c]), round(ys[r]), PARK_DWELL), Move(int(x), int(y)))
    return Board(grid, xs, ys, route, (r, c))


def moved(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Cells whose look changed (their average, or a patch of their pixels)."""
    return (distance(now, before) > 4.0) | differs(now, before)




@dataclass
class Experiment:
    """The experiment's record: what it pressed, what it saw, what it concluded."""

    board: Board
    looks: Looks
    rules: Rules = field(default_factory=Rules)
    presses: int = 0
    log: list[str] = field(default_factory=list)
    touched: set[Cell] = field(default_factory=set)
    settle: bool = False
    """Park only once the game has drawn each press: set once the game was seen to miss
    the pointer passing its parking cell (a toolkit merging motions while it draws)."""

    def name(self, cell: Cell) -> str:
        return f"row {cell[0] + 1} column {cell[1] + 1}"


def choose_cells(looks: Looks, solution: np.ndarray, park: Cell
                 ) -> tuple[Cell | None, Cell | None, list[Cell]]:
    """A blank cell that must be filled, one that must stay empty, and the longest
    straight run of blank must-be-filled cells (at least MIN_RUN), all off the parked
    pointer's row and column and apart from each other."""
    free = looks.blank.copy()
    free[park[0], :] = False
    free[:, park[1]] = False
    for cell in looks.tints:
        free[cell] = False
    fill = free & (solution == FILLED)
    run = longest_run(fill)
    used = set(run)
    filled = [tuple(map(int, rc)) for rc in np.argwhere(fill) if tuple(rc) not in used]
    empty = [tuple(map(int, rc)) for rc in np.argwhere(free & (solution != FILLED))]
    f = filled[len(filled) // 2] if filled else None
    e = empty[len(empty) // 2] if empty else None
    return f, e, run


def longest_run(mask: np.ndarray) -> list[Cell]:
    best: list[Cell] = []
    for axis in (0, 1):
        lines = mask if axis == 0 else mask.T
        for i, line in enumerate(lines):
            start = None
            for j, v in enumerate([*line, False]):
                if v and start is None:
                    start = j
                elif not v and start is not None:
                    if j - start > len(best):
                        best = [(i, k) if axis == 0 else (k, i) for k in range(start, j)]
                    start = None
    return best if len(best) >= MIN_RUN else []


def learn(board: Board, solution: np.ndarray, before: Frame
          ) -> Generator[Press, Seen, Experiment]:
    """The experiment from a board with the pointer parked (`before`), as watched presses
    for the mid-end to carry out; see the module."""
    first = samples(before.pixels, board.grid)
    exp = Experiment(board, reference_looks(first, board.park_cell))
    f, e, run = choose_cells(exp.looks, solution, board.park_cell)
    now = first
    found: list[np.ndarray] = []
    """Looks seen so far other than blank, in order of discovery."""

    def look_of(cell: Cell, sample: np.ndarray) -> int | None:
        """Index into `found`, -1 for the cell's blank look, None for a new look."""
        tol = exp.looks.change
        blank = exp.looks.reference[cell]
        if not exp.looks.changed(sample, blank):
            return -1
        for i, look in enumerate(found):
            # Tight: a grey mark and a light blue fill differ by ~25 levels on average.
            if look_distance(sample, look) <= tol:
                return i
        return None

    def press(cell: Cell, button: Button) -> Generator[Press, Seen, int | str]:
        """One press on one cell, watched: the look index, or 'menu'."""
        nonlocal now
        seen = yield board.press([board.click(cell, button)], now, touched={cell},
                                 settle=exp.settle)
        exp.presses += 1
        exp.touched.add(cell)
        others = exp.looks.changed(seen.now, now)
        others[cell] = False
        if others.any() and not seen.frame.covers:
            # The game may have missed the pointer passing its parking cell (it keeps
            # the pressed cell's row and column lit): park again before anything else,
            # and from now on only once the game has drawn each press.
            exp.settle = True
            seen = yield board.press([], now)
            others = exp.looks.changed(seen.now, now)
            others[cell] = False
        if others.any():
            # Something drew over cells the press did not touch: a menu, most likely.
            # Esc is watched against the menu: its closing is the change waited for (a
            # board back as it was would otherwise look like a key that did nothing).
            seen = yield board.press([Dismiss()], seen.now, settle=exp.settle)
            back = exp.looks.changed(seen.now, now)
            back[cell] = False
            if back.any():
                where = ", ".join(exp.name(tuple(map(int, rc))) for rc in np.argwhere(back)[:4])
                raise Unexplained(
                    f"a {button.value} click on {exp.name(cell)} changed cells it did not "
                    f"touch ({where}) and Esc did not undo it: the game does something the "
                    "bot cannot explain")
            exp.log.append(f"{button.value} opens a menu (closed with Esc)")
            now = seen.now
            return "menu"
        now = seen.now
        index = look_of(cell, now[cell])
        if index is None:
            found.append(now[cell].copy())
            index = len(found) - 1
        return index

    left: list[int | str] = []
    if f is not None:
        left.append((yield from press(f, Button.LEFT)))
        while (isinstance(left[-1], int) and left[-1] >= 0 and len(left) < 4
               and left.count(left[-1]) == 1):
            left.append((yield from press(f, Button.LEFT)))
    right: int | str | None = (yield from press(e, Button.RIGHT)) if e is not None else None
    if right == "menu":
        exp.rules = Rules(menu=frozenset({Button.RIGHT}))

    fill, mark = meaning(found, left, right, first, f, e)
    state_of = {-1: UNKNOWN}
    if fill is not None:
        state_of[fill] = FILLED
    if mark is not None:
        state_of[mark] = EMPTY
    for i in range(len(found)):
        if i not in state_of:
            raise Unexplained(
                f"the game drew a look the bot cannot place (look {i + 1} of "
                f"{len(found)} after {describe_presses(left, right)})")
    looks = exp.looks
    for i, state in state_of.items():
        if i >= 0:
            looks = looks.with_look(state, found[i])
    exp.looks = looks

    rules = exp.rules
    chain = [-1, *[x for x in left]]
    for before_look, after in zip(chain, left, strict=False):
        if isinstance(before_look, int) and isinstance(after, int):
            rules = rules.seen(state_of[before_look], Button.LEFT, state_of[after])
    if isinstance(right, int):
        rules = rules.seen(UNKNOWN, Button.RIGHT, state_of[right])
    exp.rules = rules

    # The pressed cells must show looks the rules explain; what is still to do on them
    # (a toggled fill back to blank, say) the first batch does with the rest.
    for cell in (f, e):
        if cell is not None:
            current(exp, now, cell)

    filler = exp.rules.button_to(UNKNOWN, FILLED)
    if run and filler is not None:
        now = yield from try_drags(exp, run, filler, now)
    exp.log.insert(0, f"learned in {exp.presses} presses: {exp.rules.describe()}")
    return exp


def current(exp: Experiment, now: np.ndarray, cell: Cell) -> int:
    state, _ = exp.looks.nearest(*cell, now[cell])
    if state < UNKNOWN:
        raise Unexplained(f"{exp.name(cell)} shows a look the bot has not seen its presses make")
    return state


def describe_presses(left: Sequence[int | str], right: int | str | None) -> str:
    parts = [f"{len(left)} left click(s)"] if left else []
    if right is not None:
        parts.append("a right click")
    return " and ".join(parts) or "no press"


def meaning(found: list[np.ndarray], left: list[int | str], right: int | str | None,
            first: np.ndarray, f: Cell | None, e: Cell | None) -> tuple[int | None, int | None]:
    """Which discovered look is filled and which is marked.

    The look the left button makes from blank is filled; a second look (the next in a
    left cycle, or the right button's) is marked. Swapped when the left look is a small
    mark and the other covers the cell.
    """
    from_blank_left = left[0] if left and isinstance(left[0], int) and left[0] >= 0 else None
    cycle_next = left[1] if len(left) > 1 and isinstance(left[1], int) and left[1] >= 0 \
        else None
    from_blank_right = right if isinstance(right, int) and right >= 0 else None
    fill = from_blank_left if from_blank_left is not None else from_blank_right
    others = [i for i in (cycle_next, from_blank_right) if i is not None and i != fill]
    mark = others[0] if others else None
    if fill is not None and mark is not None and f is not None:
        blank = first[f] if from_blank_left is not None else first[e] if e else first[f]
        if coverage(blank, found[fill], 4.0) < 0.4 <= coverage(blank, found[mark], 4.0):
            fill, mark = mark, fill
    return fill, mark


def try_drags(exp: Experiment, run: list[Cell], button: Button, now: np.ndarray
              ) -> Generator[Press, Seen, np.ndarray]:
    """The drag experiment on a run of blank must-be-filled cells (see the module)."""
    board = exp.board

    def drag(a: Cell, b: Cell, steps: int) -> Generator[Press, Seen, np.ndarray]:
        seen = yield board.press([board.drag(a, b, button, steps)], now,
                                 touched=set(Stroke(button, *a, *b).cells()),
                                 settle=exp.settle)
        exp.presses += 1
        return seen.now

    def states(sample: np.ndarray) -> dict[Cell, int]:
        got, _ = exp.looks.classify(sample)
        return {cell: int(got[cell]) for cell in map(tuple, np.argwhere(got != UNKNOWN))}

    before = states(now)
    after_now = yield from drag(run[0], run[-1], 1)
    after = states(after_now)
    new = {cell: s for cell, s in after.items() if before.get(cell) != s}
    filled = {cell for cell, s in new.items() if s == FILLED}
    if set(new) - set(run) or any(s != FILLED for s in new.values()):
        where = ", ".join(f"{exp.name(c)} {STATES.get(s, 'unexplained')}"
                          for c, s in list(new.items())[:4])
        raise Unexplained(f"a {button.value} drag along {exp.name(run[0])} to "
                          f"{exp.name(run[-1])} changed cells unexpectedly: {where}")
    exp.touched.update(run)
    ends = {run[0], run[-1]}
    if filled == set(run):
        kind = "line"
    elif filled == ends and len(run) >= SPLIT_RUN:
        inner = run[1:-1]
        now = after_now
        after_now = yield from drag(inner[0], inner[-1], len(inner) - 1)
        second = {c for c, s in states(after_now).items() if s == FILLED} & set(inner)
        inner_ends = {inner[0], inner[-1]}
        kind = "enter" if inner_ends < second <= set(inner) or second == set(inner) \
            else "ends" if second == inner_ends else None
        if kind == "enter" and second != set(inner):
            # The game acts on each cell entered but missed one in the middle (never an
            # end: the press is its own event, and the last motion is never merged
            # away): it merges motions that come close together, as a busy browser does
            # within one frame. Whether it does so often enough to slow the drags down
            # for, the first batch's drags tell (`game._learn_drags`).
            exp.log.append(f"a drag missed {len(inner) - len(second)} of the cells it "
                           "entered")
        if kind is None:
            raise Unexplained(f"a {button.value} drag through every cell of "
                              f"{exp.name(inner[0])} to {exp.name(inner[-1])} filled "
                              f"{len(second)} of its {len(inner)} cells")
    elif filled == ends:
        kind = None  # a short run cannot tell `enter` from `ends`: clicks, to be safe
    elif filled == {run[0]}:
        kind = "none"
    else:
        kind = "none" if not filled else None
        if filled and kind is None:
            raise Unexplained(f"a {button.value} drag from {exp.name(run[0])} to "
                              f"{exp.name(run[-1])} filled {len(filled)} of its "
                              f"{len(run)} cells, not a pattern the bot knows")
    exp.rules = replace(exp.rules, drag=kind)
    exp.log.append(f"drags: {kind or 'not settled (run too short); clicking'}")
    return after_now
