"""A simulated nonogram game in pixels: any mix of looks, buttons, drags, hover and signs.

No X, no browser: the bot's learning, reading and play loop run against it
through their real code paths (`NonogramGame` with the real looks and rules,
`play` with a fake driver that applies gestures to the simulation), so every
combination of behaviours is cheap to try. The clue reader is the only part
skipped: the first reading is made from the known geometry (`SimNonogram`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autoplayer.games.nonogram.game import NonogramGame, Reading
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle, line_clue
from autoplayer.geometry import Button, Click, Dismiss, Drag, Gesture, Key, Move, Rect
from autoplayer.screen.capture import Frame
from autoplayer.screen.input import Pace
from autoplayer.vision.grid import Grid

LOCKED = 3
PITCH, X0, Y0 = 16, 40, 40
WIDTH, HEIGHT = 320, 320

SCHEMES: dict[str, dict[tuple[int, Button], int]] = {
    "toggle": {(UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
               (EMPTY, Button.LEFT): FILLED, (UNKNOWN, Button.RIGHT): EMPTY,
               (EMPTY, Button.RIGHT): UNKNOWN, (FILLED, Button.RIGHT): EMPTY},
    "set": {(s, b): a for s in (UNKNOWN, EMPTY, FILLED)
            for b, a in ((Button.LEFT, FILLED), (Button.RIGHT, EMPTY))},
    "cycle": {(UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): EMPTY,
              (EMPTY, Button.LEFT): UNKNOWN},
    "lock": {(UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
             (UNKNOWN, Button.RIGHT): EMPTY, (EMPTY, Button.RIGHT): UNKNOWN,
             (FILLED, Button.RIGHT): LOCKED, (LOCKED, Button.RIGHT): FILLED},
}


@dataclass
class SimGame:
    """The game's state and rules; `grab` draws it, `apply` takes gestures (screen = frame)."""

    solution: np.ndarray
    scheme: str = "toggle"
    menu: bool = False
    """The right button opens a menu (drawn over the board) that Esc closes."""
    drag: str = "line"
    fill: tuple[int, int, int] = (30, 30, 30)
    mark: str = "cross"
    """cross, grey (the whole cell), or dot."""
    hover: str = "none"
    """none, or sticky: the row and column of the last cell entered stay tinted."""
    sign: str = "none"
    """none, dialog (drawn over the board's middle once solved), or marks (a dialog only
    once every empty cell is marked)."""
    sign_delay: float = 0.1
    """Seconds from the last right cell to the dialog."""
    merge: float = 0.0
    """drag=enter: motions closer than this (seconds) are merged, as a busy browser does
    within one frame: every second cell between a drag's ends is never entered."""
    motion: float = 0.0
    """The driver's pause before each motion of a drag (its pace)."""
    drag_buttons: tuple[Button, ...] | None = None
    """Buttons whose drags the game takes (None: all); a drag with another acts on the
    pressed cell only."""
    grid: np.ndarray = field(init=False)
    presses: int = 0
    menu_open: bool = False
    solved_at: float | None = None
    lit: tuple[int, int] | None = None
    log: list[Gesture] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.grid = np.full(self.solution.shape, UNKNOWN, np.int8)

    @property
    def puzzle(self) -> Puzzle:
        return Puzzle(tuple(line_clue(r) for r in self.solution),
                      tuple(line_clue(c) for c in self.solution.T))

    def solved(self) -> bool:
        filled = np.isin(self.grid, (FILLED, LOCKED))
        ok = bool((filled == (self.solution == FILLED)).all())
        if self.sign == "marks":
            return ok and bool((self.grid[self.solution != FILLED] == EMPTY).all())
        return ok

    def dialog_up(self) -> bool:
        """The dialog comes `sign_delay` after the last cell, as real games show theirs a
        moment late."""
        if self.sign not in ("dialog", "marks") or not self.solved():
            self.solved_at = None
            return False
        if self.solved_at is None:
            self.solved_at = time.monotonic()
        return time.monotonic() - self.solved_at >= self.sign_delay

    # -- drawing ------------------------------------------------------------------
    def grab(self) -> Frame:
        px = np.full((HEIGHT, WIDTH, 3), 250, np.uint8)
        h, w = self.grid.shape
        px[Y0:Y0 + h * PITCH + 1, X0:X0 + w * PITCH + 1] = 120
        for (r, c), v in np.ndenumerate(self.grid):
            y, x = Y0 + r * PITCH + 1, X0 + c * PITCH + 1
            cell = px[y:y + PITCH - 1, x:x + PITCH - 1]
            cell[:] = 240
            if v in (FILLED, LOCKED):
                cell[:] = self.fill
            elif v == EMPTY:
                self._draw_mark(cell)
            if v == LOCKED:
                cell[2:-2, 2:-2] = (200, 160, 0)  # a padlock icon
            if self.hover == "sticky" and self.lit is not None and v != FILLED and (
                    r == self.lit[0] or c == self.lit[1]):
                cell[:] = (cell * 0.5 + 255 * 0.5).astype(np.uint8)
        if self.menu_open:
            px[Y0 + 20:Y0 + 90, X0 + 30:X0 + 120] = (90, 90, 200)
        if self.dialog_up():
            px[100:200, 60:260] = (60, 60, 60)
        return Frame(px)

    def _draw_mark(self, cell: np.ndarray) -> None:
        n = cell.shape[0]
        if self.mark == "grey":
            cell[:] = 200
        elif self.mark == "dot":
            cell[n // 2 - 1:n // 2 + 2, n // 2 - 1:n // 2 + 2] = 60
        else:
            for i in range(3, n - 3):
                cell[i, i] = cell[i, n - 1 - i] = 60

    # -- input --------------------------------------------------------------------
    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        r, c = (y - Y0) // PITCH, (x - X0) // PITCH
        h, w = self.grid.shape
        return (r, c) if 0 <= r < h and 0 <= c < w else None

    def _press(self, cell: tuple[int, int], button: Button) -> int | None:
        before = int(self.grid[cell])
        after = SCHEMES[self.scheme].get((before, button))
        self.presses += 1
        if after is not None:
            self.grid[cell] = after
        return after

    def apply(self, gestures: Sequence[Gesture]) -> None:
        for g in gestures:
            self.log.append(g)
            if isinstance(g, Dismiss):
                self.menu_open = False
                continue
            if self.dialog_up():
                continue  # the dialog takes every press
            if isinstance(g, Key):
                continue
            if isinstance(g, Move):
                self._enter(g.x, g.y)
                continue
            if self.menu_open:
                self.menu_open = False  # a press elsewhere closes a menu, and does nothing
                continue
            x, y = (g.x, g.y) if isinstance(g, Click) else (g.x0, g.y0)
            cell = self.cell_at(x, y)
            self._enter(x, y)
            if cell is None:
                continue
            if g.button is Button.RIGHT and self.menu:
                self.menu_open = True
                continue
            before = int(self.grid[cell])
            target = self._press(cell, g.button)
            if isinstance(g, Drag) and target is not None:
                self._drag(g, cell, before, target)

    def _enter(self, x: int, y: int) -> None:
        cell = self.cell_at(x, y)
        if cell is not None:
            self.lit = cell

    def _drag(self, g: Drag, start: tuple[int, int], before: int, target: int) -> None:
        points = g.waypoints()
        cells = [self.cell_at(x, y) for x, y in points]
        for x, y in points:
            self._enter(x, y)
        if self.drag == "none" or (self.drag_buttons is not None
                                   and g.button not in self.drag_buttons):
            return
        end = cells[-1]
        if end is None:
            return
        if self.drag == "ends":
            line = [end]
        elif self.drag == "enter":
            line = [c for c in cells if c is not None]
            if self.motion < self.merge:
                cells_in = [start, *line]
                entered = [c for i, c in enumerate(cells_in) if i == 0 or c != cells_in[i - 1]]
                if len(entered) > 2:
                    line = [entered[0], *entered[1:-1][1::2], entered[-1]]
        else:
            (r0, c0), (r1, c1) = start, end
            if abs(c1 - c0) >= abs(r1 - r0):
                step = 1 if c1 >= c0 else -1
                line = [(r0, c) for c in range(c0, c1 + step, step)]
            else:
                step = 1 if r1 >= r0 else -1
                line = [(r, c0) for r in range(r0, r1 + step, step)]
        for cell in line:
            if cell != start and int(self.grid[cell]) == before:
                self.grid[cell] = target


@dataclass(frozen=True)
class _Raw:
    """The reader's result, as much of it as the game back-end uses."""

    grid: Grid
    board: Rect
    cells: tuple[tuple[Rect, ...], ...]
    state: np.ndarray
    layout: Any = None


class SimNonogram(NonogramGame):
    """The real back-end, its first reading made from the simulation's known geometry."""

    def __init__(self, sim: SimGame, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sim = sim

    def read(self, frame: Frame, previous: Reading | None = None) -> Reading:
        if previous is not None:
            return super().read(frame, previous)
        h, w = self.sim.grid.shape
        grid = Grid(tuple((X0 + c * PITCH + 1, X0 + (c + 1) * PITCH) for c in range(w)),
                    tuple((Y0 + r * PITCH + 1, Y0 + (r + 1) * PITCH) for r in range(h)))
        cells = tuple(tuple(Rect(x0, y0, x1 - x0, y1 - y0) for x0, x1 in grid.xs)
                      for y0, y1 in grid.ys)
        board = Rect(X0, Y0, w * PITCH + 1, h * PITCH + 1)
        state = self.sim.grid.copy()
        raw = _Raw(grid, board, cells, state)
        return Reading(self.sim.puzzle, state, tuple((a + b - 1) / 2 for a, b in grid.xs),
                       tuple((a + b - 1) / 2 for a, b in grid.ys), board, raw=raw,
                       pixels=frame.pixels)


class SimSource:
    def __init__(self, sim: SimGame) -> None:
        self.sim = sim

    def grab(self) -> Frame:
        return self.sim.grab()

    def moved(self, frame: Frame) -> bool:
        return False

    def close(self) -> None:
        pass


class SimDriver:
    """The input driver's interface, applying gestures to the simulation."""

    def __init__(self, sim: SimGame) -> None:
        self.sim = sim
        self.bounds = Rect(0, 0, 0, 0)
        self.reach: Rect | None = None
        self.pace = Pace()
        self.gap = 0.0
        """Seconds before each gesture (0: a batch arrives at once)."""
        self.events = 0

    def start(self) -> SimDriver:
        return self

    def perform(self, gestures: Sequence[Gesture]) -> None:
        from autoplayer.screen.input import check_inside

        check_inside(gestures, self.bounds)
        self.sim.motion = self.pace.motion
        for g in gestures:
            if isinstance(g, Move):
                assert self.reach is not None and self.reach.contains(g.x, g.y)
        if not self.gap:
            self.sim.apply(gestures)
        for g in gestures if self.gap else ():
            time.sleep(self.gap)
            self.sim.apply([g])
        self.events += len(gestures)

    def stop(self) -> None:
        pass
