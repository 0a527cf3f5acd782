"""The Ripple Effect back-end for the play loop: reader, solver and planner behind `Game`.

Sites take Ripple values in different ways; the bot does not ask, it finds
out with a short experiment on the board itself, through the loop's own
verify step. The first batch clicks an empty cell whose value the solution
fixes and types that value. If the next capture shows it, the page takes
typing (`TYPE`). If the cell still shows nothing, the second batch clicks the
same (now selected) cell once more: a page that counts up on a click on the
selected cell shows 1 there (`COUNT`). Anything else the bot cannot explain,
and it stops (InputError) rather than press on. A typing page is then asked
whether arrow keys move its cursor: the bot presses the arrow towards a
wrong neighbour of the cell it typed in and types that neighbour's value; the
neighbour showing it means they do (an arrow is two events, a click three).
Then every wrong cell is entered with the fewest events the scheme allows,
verified with a fresh capture, and only cells still wrong are repaired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import Check, Game, Solved
from autoplayer.games.ripple.model import EMPTY
from autoplayer.games.ripple.reader import RippleReading, read_ripple, unique_solution
from autoplayer.geometry import Button, Click, Gesture, Key, Rect, astuple
from autoplayer.screen.input import Pace

if TYPE_CHECKING:
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.window import WindowInfo
    from autoplayer.vision.templates import TemplateSet

TYPE, COUNT = "type", "count"
SCHEMES = (TYPE, COUNT)
ARROW = "arrow"
"""The experiment's try of an arrow key (typing pages only)."""
ARROWS = {(0, 1): "right", (0, -1): "left", (1, 0): "down", (-1, 0): "up"}
"""A step to a neighbouring cell (rows, columns) and the key that takes the cursor there."""
PACE = Pace(gesture=0.005, click=0.0)
"""A browser takes clicks and keys as fast as they come, in order."""
REPAIR_BATCHES = 3
"""Batches allowed after the experiment and the first full batch."""


@dataclass(frozen=True)
class Move:
    """Set one cell to a value; `probe` marks the experiment's moves (which may not set it)."""

    cell: int
    value: int
    probe: str = ""
    """'' for an ordinary move; TYPE, COUNT or ARROW for the experiment's tries."""


@dataclass(frozen=True, eq=False)
class Reading:
    """What the loop carries between captures."""

    shown: RippleReading
    unreadable: InputError | None = None
    """Set when the latest capture could not be read: `shown` is the last good reading."""


class RippleGame(Game[Reading, tuple[int, ...], Move]):
    """`autoplayer.games.base.Game` for Ripple Effect; `scheme` when known in advance."""

    name = "ripple"
    unit = "cell"

    def __init__(self, scheme: str | None = None, pace: Pace = PACE,
                 templates: str | None = None) -> None:
        if scheme not in (None, *SCHEMES):
            raise UserError(f"unknown ripple input scheme {scheme!r} ({', '.join(SCHEMES)})")
        self.scheme = scheme
        self.pace = pace
        self.templates = templates
        self.max_batches = 3 + 1 + REPAIR_BATCHES
        self.arrows: bool | None = None
        """Whether the page's arrow keys move its cursor (typing pages; None: not known)."""
        self._set: TemplateSet | None = None
        self._every: list[TemplateSet] | None = None
        self._probe: Move | None = None
        self._tried: list[str] = []
        self._active: int | None = None
        self._was_active: int | None = None
        """The cell the bot last clicked (the page's cursor)."""

    # -- reading ----------------------------------------------------------
    def read(self, frame: Frame, previous: Reading | None = None) -> Reading:
        """The whole board first; after input only the cells that are not givens."""
        if previous is None:
            shown = read_ripple(frame.pixels, self._named(), fallbacks=self._fallbacks(),
                                accept=unique_solution)
            if shown.template_set is not None:
                from autoplayer.vision.templates import load_templates

                self._set = load_templates(shown.template_set)
            return Reading(shown)
        try:
            # The calibrated sets stay fallbacks: an entered digit in another weight than the
            # givens' may be one the state machines and the board's own digits cannot read.
            return Reading(read_ripple(frame.pixels, self._set, previous=previous.shown,
                                       fallbacks=() if self._set else self._fallbacks()))
        except InputError as err:
            return Reading(previous.shown, err)

    def _named(self) -> TemplateSet | None:
        from autoplayer.vision.templates import NO_TEMPLATES, load_templates

        if self.templates in (None, NO_TEMPLATES):
            return None
        self._set = load_templates(self.templates)
        return self._set

    def _fallbacks(self) -> list[TemplateSet]:
        """Every calibrated set (loaded once), unless the user named one."""
        if self.templates is not None:
            return []
        if self._every is None:
            from autoplayer.vision.templates import every_template_set

            self._every = list(every_template_set())
        return self._every

    def board(self, reading: Reading) -> Rect:
        return reading.shown.lattice.rect

    # -- solving ----------------------------------------------------------
    def solve(self, reading: Reading) -> Solved[tuple[int, ...]]:
        """The board's one solution (none or several: InputError, exit 2, no input)."""
        shown = reading.shown
        solution = unique_solution(shown)
        notes = []
        if shown.template_set is not None:
            notes.append(f"digits read with the calibrated templates {shown.template_set}")
        entered = sum(1 for v in shown.entered if v)
        if entered:
            notes.append(f"{entered} values already entered")
        return Solved(solution, "; ".join(notes))

    # -- acting -----------------------------------------------------------
    def plan(self, reading: Reading, solution: tuple[int, ...]) -> list[Move]:
        """The experiment's next try while the scheme is unknown; then every wrong cell."""
        if reading.unreadable is not None:
            err = reading.unreadable
            raise InputError(f"the board could not be read after the last input: {err.message}",
                             region=err.region)
        shown = reading.shown
        wrong = [i for i in range(len(solution))
                 if not shown.given[i] and shown.values[i] != solution[i]]
        if self.scheme is None or self._probe is not None:
            self._learn(shown, solution)
        if not wrong:
            return []
        if self.scheme is None:
            return [self._next_probe(shown, solution, wrong)]
        if self.scheme == TYPE and self.arrows is None:
            probe = self._arrow_probe(shown, solution, wrong)
            if probe is not None:
                return [probe]
        if self.scheme == TYPE and self.arrows:
            wrong = route(wrong, shown.cols, self._active)
        return [Move(i, solution[i]) for i in wrong]

    def _arrow_probe(self, shown: RippleReading, solution: tuple[int, ...],
                     wrong: list[int]) -> Move | None:
        """The arrow towards a wrong neighbour of the cursor's cell, then its value; None
        when the cursor has no wrong neighbour (arrows then stay untried: clicks)."""
        if self._active is None:
            self.arrows = False
            return None
        near = [i for i in wrong if arrow_key(shown.cols, self._active, i) is not None]
        if not near:
            self.arrows = False  # not tried: every cell is reached by a click
            return None
        cell = min(near, key=lambda i: (shown.values[i] != EMPTY, i))
        self._probe = Move(cell, solution[cell], ARROW)
        self._tried.append(ARROW)
        self._before = shown.values[cell]
        return self._probe

    def _next_probe(self, shown: RippleReading, solution: tuple[int, ...],
                    wrong: list[int]) -> Move:
        if not self._tried:
            empty = [i for i in wrong if shown.values[i] == EMPTY]
            pool = empty or wrong
            # A value of 1 would not tell typing from a page whose first click counts up.
            # One with a wrong neighbour leaves a cell to try the arrow keys on.
            lonely = {i: not any(arrow_key(shown.cols, i, j) for j in wrong) for i in pool}
            cell = min(pool, key=lambda i: (solution[i] == 1, solution[i] > 9, lonely[i], i))
            self._probe = Move(cell, solution[cell], TYPE)
        else:
            assert self._probe is not None
            self._probe = Move(self._probe.cell, solution[self._probe.cell], COUNT)
        self._tried.append(self._probe.probe)
        self._before = shown.values[self._probe.cell]
        return self._probe

    def _learn(self, shown: RippleReading, solution: tuple[int, ...]) -> None:
        """What the last probe did to its cell names the scheme, or nothing does."""
        if self._probe is None:
            return
        probe, before, now = self._probe, self._before, shown.values[self._probe.cell]
        size = shown.puzzle.room_size[probe.cell]
        if probe.probe == ARROW:
            if now == probe.value:
                self.arrows = True
            elif now == before:
                self.arrows = False  # the digits went elsewhere (repaired next) or nowhere
            else:
                r, c = divmod(probe.cell, shown.cols)
                raise InputError(
                    f"the page's arrow keys do something unexplained: after an arrow and "
                    f"{probe.value} the cell at row {r + 1} column {c + 1} shows {now} (it "
                    f"showed {before or 'nothing'})",
                    region=astuple(shown.lattice.cell(probe.cell)))
        elif probe.probe == TYPE and now == probe.value:
            self.scheme = TYPE
        elif probe.probe == TYPE and now == before:
            return  # typing did nothing: try counting next
        elif probe.probe == COUNT and now == (before + 1) % (size + 1):
            self.scheme = COUNT
        else:
            r, c = divmod(probe.cell, shown.cols)
            tried = " then ".join(self._tried)
            raise InputError(
                f"the page's input scheme is unknown: after {tried} the cell at row {r + 1} "
                f"column {c + 1} shows {now or 'nothing'} (it showed {before or 'nothing'})",
                region=astuple(shown.lattice.cell(probe.cell)))
        self._probe = None

    def gestures(self, reading: Reading, moves: Sequence[Move]) -> list[Gesture]:
        """Clicks or arrow keys to reach each cell, then keys or further clicks to set it."""
        self._was_active = self._active
        out, self._active = plan_gestures(reading.shown, moves, self.scheme, bool(self.arrows),
                                          self._active)
        return out

    def cells(self, reading: Reading, moves: Sequence[Move]) -> list[Rect]:
        """The cells the moves type into, and the one selected before them (a page shows
        which cell takes the keys)."""
        lattice = reading.shown.lattice
        picked = [m.cell for m in moves]
        if self._was_active is not None:
            picked.append(self._was_active)
        return [lattice.cell(i) for i in picked]

    def outline(self, reading: Reading, solution: tuple[int, ...]
                ) -> tuple[list[Gesture], str]:
        """The whole input a dry run reports, and what it assumes: with the scheme unknown
        the real run starts with an experiment, so the count is for a page that takes typing
        (a click and the digits per cell), and the report says so."""
        if self.scheme is not None:
            return self.gestures(reading, self.plan(reading, solution)), ""
        shown = reading.shown
        moves = [Move(i, v) for i, v in enumerate(solution)
                 if not shown.given[i] and shown.values[i] != v]
        out, _ = plan_gestures(shown, moves, TYPE, False, None)
        return out, ("the page's input scheme is found out only by trying; gestures counted "
                     "as if it takes typing (a click and the digits per cell)")

    def units(self, moves: Sequence[Move]) -> int:
        return len({m.cell for m in moves})

    def fixes(self, moves: Sequence[Move]) -> int:
        """Every ordinary move puts its cell right; the experiment's tries may not."""
        return sum(1 for m in moves if not m.probe)

    def check(self, reading: Reading, solution: tuple[int, ...]) -> Check:
        shown = reading.shown
        wrong = [i for i in range(len(solution))
                 if not shown.given[i] and shown.values[i] != solution[i]]
        total = sum(1 for g in shown.given if not g)
        if reading.unreadable is not None:
            return Check(max(len(wrong), 1), total, ("the board is unreadable",))
        details = tuple(f"row {i // shown.cols + 1} column {i % shown.cols + 1}"
                        for i in wrong[:5])
        return Check(len(wrong), total, details)

    def overlay(self, frame: Frame, reading: Reading, solution: tuple[int, ...] | None
                ) -> np.ndarray:
        from autoplayer.games.ripple.overlay import draw_ripple
        from autoplayer.games.ripple.puzzlink import url
        from autoplayer.vision.overlay import with_caption

        return with_caption(draw_ripple(frame.pixels, reading.shown, solution),
                            [url(reading.shown.puzzle)])


def plan_gestures(shown: RippleReading, moves: Sequence[Move], scheme: str | None,
                  arrows: bool, active: int | None) -> tuple[list[Gesture], int | None]:
    """The gestures for `moves` from the cursor at `active`, and where the cursor ends.

    Typing: an arrow key (two events) to a neighbour of the cursor's cell where
    arrows work, else a click (a move, a press, a release); then the digits.
    Counting: `count_clicks`. The experiment's tries as their kind says. A
    given is never a target.
    """
    sizes = shown.puzzle.room_size
    out: list[Gesture] = []
    for m in moves:
        if shown.given[m.cell]:
            raise InputError("the plan would change a given; refusing",
                             region=astuple(shown.lattice.cell(m.cell)))
        x, y = shown.lattice.centre(m.cell)
        kind = m.probe or scheme
        step = None if active is None else arrow_key(shown.cols, active, m.cell)
        if kind == COUNT and m.probe:
            out.append(Click(x, y))  # the cell is selected: one click counts up
        elif kind == ARROW or (kind == TYPE and arrows and step is not None):
            assert step is not None
            out.append(Key(step))
            out += [Key(d) for d in str(m.value)]
        elif kind == TYPE:
            out.append(Click(x, y))
            out += [Key(d) for d in str(m.value)]
        else:
            out += count_clicks(x, y, shown.values[m.cell], m.value, sizes[m.cell],
                                active == m.cell)
        active = m.cell
    return out, active


def arrow_key(cols: int, a: int, b: int) -> str | None:
    """The arrow key that takes the cursor from cell `a` to cell `b`, if they are neighbours."""
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    return ARROWS.get((rb - ra, cb - ca))


def snake(cells: Sequence[int], cols: int) -> list[int]:
    """Cells row by row, every other row right to left: neighbours follow each other along
    a row and, at a row's end, down to the next (one arrow key each)."""
    return sorted(cells, key=lambda i: (i // cols, i % cols if (i // cols) % 2 == 0
                                        else -(i % cols)))


def route(cells: Sequence[int], cols: int, start: int | None) -> list[int]:
    """An order for the cells that steps to a neighbour (one arrow key) wherever one is
    left, from the cursor at `start`; else on to the next cell in `snake` order (a click)."""
    left = snake(cells, cols)
    out: list[int] = []
    here = start
    while left:
        near = [c for c in left if here is not None and arrow_key(cols, here, c) is not None]
        here = (near or left)[0]
        left.remove(here)
        out.append(here)
    return out


def count_clicks(x: int, y: int, have: int, want: int, size: int, selected: bool
                 ) -> list[Gesture]:
    """The fewest clicks from `have` to `want` on a page that counts: values cycle through
    empty, 1..size; a left click on the selected cell counts up (the first click on
    another cell only selects it), a right click anywhere counts down."""
    cycle = size + 1
    up = (want - have) % cycle + (0 if selected else 1)
    down = (have - want) % cycle
    if down < up:
        return [Click(x, y, Button.RIGHT)] * down
    return [Click(x, y)] * up


def make_game(*, templates: str | None = None, profile: str | None = None,
              window: WindowInfo | None = None) -> RippleGame:
    """The play command's factory. `profile` names the input scheme (type, count) when known;
    by default the bot finds it out on the board."""
    del window
    return RippleGame(scheme=profile, templates=templates)
