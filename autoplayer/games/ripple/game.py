"""The Ripple Effect back-end for the play loop: reader, solver and planner behind `Game`.

Sites take Ripple values in different ways; the bot does not ask, it finds
out with a short experiment on the board itself, through the loop's own
verify step. The first batch clicks an empty cell whose value the solution
fixes and types that value. If the next capture shows it, the page takes
typing (`TYPE`). If the cell still shows nothing, the second batch clicks the
same (now selected) cell once more: a page that counts up on a click on the
selected cell shows 1 there (`COUNT`). Anything else the bot cannot explain,
and it stops (InputError) rather than press on. Then every wrong cell is
entered with the fewest events the scheme allows, verified with a fresh
capture, and only cells still wrong are repaired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import Check, Solved
from autoplayer.games.ripple.board import region
from autoplayer.games.ripple.model import EMPTY
from autoplayer.games.ripple.reader import RippleReading, read_ripple, unique_solution
from autoplayer.geometry import Button, Click, Gesture, Key, Rect
from autoplayer.screen.input import Pace

if TYPE_CHECKING:
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.window import WindowInfo
    from autoplayer.vision.templates import TemplateSet

TYPE, COUNT = "type", "count"
SCHEMES = (TYPE, COUNT)
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
    """'' for an ordinary move; TYPE or COUNT for the experiment's two tries."""


@dataclass(frozen=True, eq=False)
class Reading:
    """What the loop carries between captures."""

    shown: RippleReading
    unreadable: InputError | None = None
    """Set when the latest capture could not be read: `shown` is the last good reading."""


class RippleGame:
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
        self.max_batches = 2 + 1 + REPAIR_BATCHES
        self._set: TemplateSet | None = None
        self._probe: Move | None = None
        self._tried: list[str] = []
        self._active: int | None = None
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
            return Reading(read_ripple(frame.pixels, self._set, previous=previous.shown))
        except InputError as err:
            return Reading(previous.shown, err)

    def _named(self) -> TemplateSet | None:
        from autoplayer.vision.templates import NO_TEMPLATES, load_templates

        if self.templates in (None, NO_TEMPLATES):
            return None
        self._set = load_templates(self.templates)
        return self._set

    def _fallbacks(self) -> list[TemplateSet]:
        if self.templates is not None:
            return []
        from autoplayer.vision.templates import every_template_set

        return list(every_template_set())

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
        if self.scheme is None:
            self._learn(shown, solution)
        if not wrong:
            return []
        if self.scheme is None:
            return [self._next_probe(shown, solution, wrong)]
        return [Move(i, solution[i]) for i in wrong]

    def _next_probe(self, shown: RippleReading, solution: tuple[int, ...],
                    wrong: list[int]) -> Move:
        if not self._tried:
            empty = [i for i in wrong if shown.values[i] == EMPTY]
            pool = empty or wrong
            # A value of 1 would not tell typing from a page whose first click counts up.
            cell = min(pool, key=lambda i: (solution[i] == 1, solution[i] > 9, i))
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
        if probe.probe == TYPE and now == probe.value:
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
                region=region(shown.lattice.cell(probe.cell)))
        self._probe = None

    def gestures(self, reading: Reading, moves: Sequence[Move]) -> list[Gesture]:
        """Clicks to reach each cell, then keys or further clicks to set its value."""
        shown = reading.shown
        sizes = shown.puzzle.room_size
        out: list[Gesture] = []
        active = self._active
        for m in moves:
            if shown.given[m.cell]:
                raise InputError("the plan would change a given; refusing",
                                 region=region(shown.lattice.cell(m.cell)))
            x, y = shown.lattice.centre(m.cell)
            scheme = m.probe or self.scheme
            if m.probe == COUNT:
                out.append(Click(x, y))  # the cell is selected: one click counts up
            elif scheme == TYPE:
                out.append(Click(x, y))
                out += [Key(d) for d in str(m.value)]
            else:
                out += count_clicks(x, y, shown.values[m.cell], m.value, sizes[m.cell],
                                    active == m.cell)
            active = m.cell
        self._active = active
        return out

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
            return Check(max(len(wrong), 1), total, None, ("the board is unreadable",))
        details = tuple(f"row {i // shown.cols + 1} column {i % shown.cols + 1}"
                        for i in wrong[:5])
        return Check(len(wrong), total, None, details)

    def overlay(self, frame: Frame, reading: Reading, solution: tuple[int, ...] | None
                ) -> np.ndarray:
        from autoplayer.games.ripple.overlay import draw_ripple

        return draw_ripple(frame.pixels, reading.shown, solution)


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
