"""The Ripple Effect back-end for the play loop: reader, solver and planner behind `Game`.

Sites take Ripple values in different ways; the bot does not ask, it finds
out with a short watched experiment through the mid-end (`entry`: a click
selects and typing enters, with or without Enter, with or without a first
click for the focus; a number pad beside the board; clicks that count up;
arrow keys that move the cursor). What it learns is kept in the window's
profile file, so a game seen before costs no experiment. Then every wrong
cell is entered with the fewest events the rules allow, one gesture at a
time (`paced`: a page busy drawing drops what comes meanwhile), verified
with a fresh capture, and only cells still wrong are repaired.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import LANDS, Check, Game, Solved
from autoplayer.games.ripple.entry import COUNT, PAD, TYPE, Input, save_input
from autoplayer.games.ripple.model import EMPTY
from autoplayer.games.ripple.pad import Pad, find_pad
from autoplayer.games.ripple.reader import RippleReading, read_ripple, unique_solution
from autoplayer.geometry import Button, Click, Gesture, Key, Rect, astuple
from autoplayer.screen.input import Pace

if TYPE_CHECKING:
    from autoplayer.play.experiment import Press, Seen
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.window import WindowInfo
    from autoplayer.vision.templates import TemplateSet

SCHEMES = (TYPE, COUNT, "cycle", PAD)
"""The schemes `--scheme` names, as `serve --scheme` does: "cycle" counts with no select step."""
ARROWS = {(0, 1): "right", (0, -1): "left", (1, 0): "down", (-1, 0): "up"}
"""A step to a neighbouring cell (rows, columns) and the key that takes the cursor there."""
PACE = Pace(gesture=0.0, click=0.0)
"""A browser takes clicks and keys as fast as they come; `paced` waits for each to draw."""
REPAIR_BATCHES = 3
"""Batches allowed after the first full batch."""
SAMPLE = 3
"""Each cell sampled as SAMPLE x SAMPLE mean colours to see a press change it."""
MOVED = 6
"""A sample this far (0..255) from before has changed."""


@dataclass(frozen=True)
class Move:
    """Set one cell to a value."""

    cell: int
    value: int


@dataclass(frozen=True, eq=False)
class Reading:
    """What the loop carries between captures."""

    shown: RippleReading
    unreadable: InputError | None = None
    """Set when the latest capture could not be read: `shown` is the last good reading."""


class RippleGame(Game[Reading, tuple[int, ...], Move]):
    """`autoplayer.games.base.Game` for Ripple Effect; `scheme` or `rules` when known in
    advance (then no experiment), `profile` where what is learned is kept."""

    name = "ripple"
    unit = "cell"
    paced = True
    """A page busy drawing may drop input: each gesture waits until the last one drew."""

    def __init__(self, scheme: str | None = None, pace: Pace = PACE,
                 templates: str | None = None, *, rules: Input | None = None,
                 profile: Path | None = None, window: dict[str, Any] | None = None) -> None:
        if scheme not in (None, *SCHEMES):
            raise UserError(f"unknown ripple input scheme {scheme!r} ({', '.join(SCHEMES)})")
        self.input = rules if rules is not None else (
            None if scheme is None else Input(COUNT, select=False) if scheme == "cycle"
            else Input(scheme))
        self.profile, self.window = profile, window
        self._unsure = rules is not None and profile is not None
        """The rules came from the window's profile and no batch has shown them right yet."""
        self.learned = False
        """The input rules were found out on this board (and are kept once it is played)."""
        self.pace = pace
        self.templates = templates
        self.max_batches = 1 + REPAIR_BATCHES
        self.presses = 0
        self.pad: Pad | None = None
        self._set: TemplateSet | None = None
        self._every: list[TemplateSet] | None = None
        self._first: Frame | None = None
        self._sent: list[Move] = []
        """The last batch's moves (`misfit`)."""
        self._seen: Frame | None = None
        """The frame last read: what an experiment's first press is seen against."""
        self._active: int | None = None
        """The cell the page's cursor is on (the bot's last click or arrow)."""
        self._was_active: int | None = None
        self._focused = False
        """A click has given the board the keyboard focus."""

    @property
    def scheme(self) -> str | None:
        """TYPE, COUNT or PAD once known."""
        return None if self.input is None else self.input.entry

    @property
    def arrows(self) -> bool | None:
        return None if self.input is None else self.input.arrows

    # -- reading ----------------------------------------------------------
    def read(self, frame: Frame, previous: Reading | None = None) -> Reading:
        """The whole board first; after input only the cells that are not givens."""
        self._seen = frame
        if previous is None:
            self._first = frame
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
        """The cells, and the number pad beside them when the page has one."""
        cells = reading.shown.lattice.rect
        if self.pad is None:
            return cells
        pad = self.pad.rect
        x0, y0 = min(cells.x, pad.x), min(cells.y, pad.y)
        x1, y1 = max(cells.right, pad.right), max(cells.bottom, pad.bottom)
        return Rect(x0, y0, x1 - x0, y1 - y0)

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

    # -- learning -----------------------------------------------------------
    def experiment(self, reading: Reading, solution: tuple[int, ...]
                   ) -> Generator[Press, Seen, str] | None:
        """The watched presses that find out how the page takes a value (module `entry`);
        None when the rules are known (a pad page's pad is then found on the board)."""
        if self.input is not None:
            if self.input.entry != PAD:
                return None
            self.pad = self._find_pad(reading.shown, self._first)
            if self.pad is not None:
                return None
            if self.profile is None:
                raise InputError("the scheme named says the page takes digits from a number "
                                 "pad, but no pad of digit buttons 1.."
                                 f"{max(reading.shown.puzzle.room_size)} is beside the "
                                 "board", region=astuple(reading.shown.lattice.rect))
            return self._relearn_padless(reading, solution, str(self.profile))
        return self._learn(reading, solution)

    def _relearn_padless(self, reading: Reading, solution: tuple[int, ...], where: str
                         ) -> Generator[Press, Seen, str]:
        """The window's profile says a number pad, and this page has none: not its rules."""
        self.input = None
        line = yield from self._learn(reading, solution)
        return f"the input kept in {where} names a number pad this page lacks: learned: {line}"

    def _find_pad(self, shown: RippleReading, frame: Frame | None) -> Pad | None:
        if frame is None:
            return None
        lattice = shown.lattice
        return find_pad(frame.pixels, lattice.rect, lattice.pitch,
                        max(shown.puzzle.room_size), lattice.passed)

    def _learn(self, reading: Reading, solution: tuple[int, ...]
               ) -> Generator[Press, Seen, str]:
        shown = reading.shown
        wrong = [i for i in range(len(solution))
                 if not shown.given[i] and shown.values[i] != solution[i]]
        if not wrong:
            self.input = Input(TYPE)
            return "nothing to enter: the input rules were not tried"
        a = _probe_cell(shown, solution, wrong)
        v, before = solution[a], shown.values[a]
        state = _Watch(self, reading)
        frame = self._seen
        assert frame is not None
        state.last = state.sense(frame)
        x, y = shown.lattice.centre(a)

        counted = _counted_up(shown, a, before)
        seen = yield from state.press([Click(x, y)], a)
        now = state.value(seen, a)
        if now == counted:
            return self._learned(Input(COUNT, cursor=False, select=False), shown)
        if now != before:
            raise state.unexplained(a, "a click", before)
        cursor = bool(state.changed[a])
        focus = False
        if not cursor:
            seen = yield from state.press([Click(x, y)], a)
            now = state.value(seen, a)
            if now == counted:
                # The first click selected A unseen, or only focused the board and every
                # click counts: one click on another cell tells them apart.
                return (yield from self._learn_counting(state, shown, wrong, a))
            if now != before and now == _counted_up(shown, a, counted):
                # Both clicks counted: every click counts, and a busy page drew the first
                # only after the wait for it had ended.
                return self._learned(Input(COUNT, cursor=False, select=False), shown)
            if now != before:
                raise state.unexplained(a, "two clicks", before)
            focus = cursor = bool(state.changed[a])
        self._active = a
        self._focused = True
        for d in str(v):
            seen = yield from state.press([Key(d)], a)
        if state.value(seen, a) == v:
            rules = Input(TYPE, focus=focus, cursor=cursor)
        else:
            if state.value(seen, a) != before:
                raise state.unexplained(a, f"a click and {v}", before)
            seen = yield from state.press([Key("enter")], a)
            if state.value(seen, a) == v:
                rules = Input(TYPE, enter=True, focus=focus, cursor=cursor)
            else:
                self.pad = self._find_pad(shown, seen.frame)
                rules = None
                if self.pad is not None and v in self.pad.keys:
                    seen = yield from state.press([Click(*self.pad.centre(v))], a)
                    if state.value(seen, a) == v:
                        rules = Input(PAD, focus=focus, cursor=cursor)
                if rules is None:
                    self.pad = None
                    seen = yield from state.press([Click(x, y)], a)
                    if state.value(seen, a) != counted:
                        tried = "a click, typing, Enter" + (", the pad" if self.pad else "") + \
                            " and a click on the selected cell"
                        raise state.unexplained(a, tried, before)
                    return self._learned(Input(COUNT, focus=focus, cursor=cursor), shown)
        # Typing or a pad: do the arrow keys move the cursor?
        near = [i for i in wrong if i != a and arrow_key(shown.cols, a, i) is not None]
        if not near:
            return self._learned(rules, shown)
        b = min(near, key=lambda i: (shown.values[i] != EMPTY, i))
        keep = shown.values[b]
        gestures: list[Gesture] = [Key(arrow_key(shown.cols, a, b) or "")]
        seen = yield from state.press(gestures, b)
        gestures = _value_gestures(rules, self.pad, solution[b])
        for g in gestures:
            seen = yield from state.press([g], b)
        now = state.value(seen, b)
        if now == solution[b]:
            self._active = b
            return self._learned(replace(rules, arrows=True), shown)
        if now != keep:
            raise state.unexplained(b, f"an arrow key and {solution[b]}", keep)
        return self._learned(rules, shown)  # the value went to A (repaired) or nowhere

    def _learn_counting(self, state: _Watch, shown: RippleReading, wrong: list[int], a: int
                        ) -> Generator[Press, Seen, str]:
        """After two clicks on A counted it up once: one click on another wrong cell B (so
        the press is not wasted) keeps B's value on a page whose first click selects
        unseen, and counts B up on one whose first click only took the focus."""
        others = [i for i in wrong if i != a]
        if not others:
            self._active = a
            return self._learned(Input(COUNT, cursor=False), shown)
        b = min(others, key=lambda i: (shown.values[i] != EMPTY, i))
        before = shown.values[b]
        seen = yield from state.press([Click(*shown.lattice.centre(b))], b)
        now = state.value(seen, b)
        if now == before:
            self._active = b
            return self._learned(Input(COUNT, cursor=False), shown)
        if now == _counted_up(shown, b, before):
            self._focused = True
            return self._learned(Input(COUNT, focus=True, cursor=False, select=False), shown)
        raise state.unexplained(b, "two clicks on another cell and one here", before)

    def misfit(self, reading: Reading) -> str | None:
        """Rules from the window's profile are judged by the first batch played with them:
        the cells that show the value entered (`Game.misfit`). Rules learned here, or named
        by `--scheme`, are not doubted."""
        if not self._unsure or reading.unreadable is not None or not self._sent:
            return None
        self._unsure = False
        values = reading.shown.values
        made = sum(1 for m in self._sent if values[m.cell] == m.value)
        if made >= LANDS * len(self._sent):
            return None
        self.input, self.pad, self.presses = None, None, 0
        self._active = self._was_active = None
        self._focused = False
        return (f"the input kept in {self.profile} entered only {made} of the "
                f"{len(self._sent)} cells of its first batch")

    def _learned(self, rules: Input, shown: RippleReading) -> str:
        self.input, self.learned, self._unsure = rules, True, False
        if rules.entry != PAD:
            self.pad = None
        return rules.describe()

    def concluded(self, answered: bool, finished: bool) -> None:
        """Keep what was learned, once the board was played with it."""
        if self.learned and self.profile is not None and self.input is not None:
            save_input(self.profile, self.input, self.window)

    # -- acting -----------------------------------------------------------
    def plan(self, reading: Reading, solution: tuple[int, ...]) -> list[Move]:
        """Every wrong cell, in an order that steps by arrow keys where they work."""
        if reading.unreadable is not None:
            err = reading.unreadable
            raise InputError(f"the board could not be read after the last input: {err.message}",
                             region=err.region)
        shown = reading.shown
        wrong = [i for i in range(len(solution))
                 if not shown.given[i] and shown.values[i] != solution[i]]
        if self.input is not None and self.input.arrows:
            wrong = route(wrong, shown.cols, self._active)
        return [Move(i, solution[i]) for i in wrong]

    def gestures(self, reading: Reading, moves: Sequence[Move]) -> list[Gesture]:
        """Clicks or arrow keys to reach each cell, then keys, pad clicks or further clicks
        to set it."""
        assert self.input is not None, "the input rules are learned before any move"
        self._sent = list(moves)
        self._was_active = self._active
        out, self._active = plan_gestures(reading.shown, moves, self.input, self.pad,
                                          self._active, focused=self._focused)
        self._focused = self._focused or bool(out)
        return out

    def cells(self, reading: Reading, moves: Sequence[Move]) -> list[Rect]:
        """The cells the moves type into, and the one selected before them (a page shows
        which cell takes the keys)."""
        lattice = reading.shown.lattice
        picked = [m.cell for m in moves]
        if self._was_active is not None:
            picked.append(self._was_active)
        pad = [self.pad.rect] if self.pad is not None else []
        return [lattice.cell(i) for i in picked] + pad

    def outline(self, reading: Reading, solution: tuple[int, ...]
                  ) -> tuple[list[Gesture], str]:
        """The whole input a dry run reports, and what it assumes: with the rules unknown
        the real run starts with an experiment, so the count is for a page that takes typing
        (a click and the digits per cell), and the report says so."""
        if self.input is not None and (self.input.entry != PAD or self.pad is not None):
            return self.gestures(reading, self.plan(reading, solution)), ""
        shown = reading.shown
        moves = [Move(i, v) for i, v in enumerate(solution)
                 if not shown.given[i] and shown.values[i] != v]
        out, _ = plan_gestures(shown, moves, Input(TYPE), None, None, focused=True)
        return out, ("the page's input scheme is found out only by trying; gestures counted "
                     "as if it takes typing (a click and the digits per cell)")

    def units(self, moves: Sequence[Move]) -> int:
        return len({m.cell for m in moves})

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


def plan_gestures(shown: RippleReading, moves: Sequence[Move], rules: Input, pad: Pad | None,
                  active: int | None, *, focused: bool = True
                  ) -> tuple[list[Gesture], int | None]:
    """The gestures for `moves` from the cursor at `active`, and where the cursor ends.

    Typing or a pad: an arrow key (two events) to a neighbour of the cursor's cell where
    arrows work, else a click (a move, a press, a release); then the digits (and Enter),
    or the pad's button. Counting: `count_clicks`. A board that needs the focus and has
    not had it gets one click first. A given is never a target.
    """
    sizes = shown.puzzle.room_size
    out: list[Gesture] = []
    for m in moves:
        if shown.given[m.cell]:
            raise InputError("the plan would change a given; refusing",
                             region=astuple(shown.lattice.cell(m.cell)))
        x, y = shown.lattice.centre(m.cell)
        if rules.focus and not focused:
            out.append(Click(x, y))  # only gives the board the keyboard focus
            focused = True
        step = None if active is None else arrow_key(shown.cols, active, m.cell)
        if rules.entry == COUNT:
            out += count_clicks(x, y, shown.values[m.cell], m.value, sizes[m.cell],
                                active == m.cell or not rules.select)
        else:
            out.append(Key(step) if rules.arrows and step is not None else Click(x, y))
            out += _value_gestures(rules, pad, m.value)
        active = m.cell
    return out, active


def _value_gestures(rules: Input, pad: Pad | None, value: int) -> list[Gesture]:
    """What enters `value` into the selected cell: its digits (and Enter), or its button."""
    if rules.entry == PAD:
        if pad is None or value not in pad.keys:
            raise InputError(f"no button {value} on the page's number pad")
        return [Click(*pad.centre(value))]
    keys: list[Gesture] = [Key(d) for d in str(value)]
    return [*keys, Key("enter")] if rules.enter else keys


def _counted_up(shown: RippleReading, cell: int, value: int) -> int:
    """What one count up shows in `cell`: values cycle through empty, 1..its room's size."""
    return (value + 1) % (shown.puzzle.room_size[cell] + 1)


def _probe_cell(shown: RippleReading, solution: tuple[int, ...], wrong: list[int]) -> int:
    """The experiment's cell: empty if any; a value of 1 would not tell typing from a page
    whose click counts up, and one of two digits takes two keys; one with a wrong neighbour
    leaves a cell to try the arrow keys on."""
    empty = [i for i in wrong if shown.values[i] == EMPTY]
    pool = empty or wrong
    lonely = {i: not any(arrow_key(shown.cols, i, j) for j in wrong if j != i) for i in pool}
    return min(pool, key=lambda i: (solution[i] == 1, solution[i] > 9, lonely[i], i))


class _Watch:
    """The experiment's eyes: every cell sampled before and after each press."""

    def __init__(self, game: RippleGame, reading: Reading) -> None:
        self.game, self.reading = game, reading
        self.lattice = reading.shown.lattice
        self.last: np.ndarray | None = None
        self.changed = np.zeros(self.lattice.rows * self.lattice.cols, bool)

    def sense(self, frame: Frame) -> np.ndarray:
        px = frame.pixels
        out = []
        for i in range(self.lattice.rows * self.lattice.cols):
            b = self.lattice.cell(i)
            patch = np.ascontiguousarray(px[b.y:b.bottom, b.x:b.right, :3])
            out.append(cv2.resize(patch, (SAMPLE, SAMPLE), interpolation=cv2.INTER_AREA)
                       .astype(np.int16).ravel())
        return np.array(out)

    @staticmethod
    def moved(now: np.ndarray, before: np.ndarray) -> np.ndarray:
        return (np.abs(now - before) > MOVED).any(axis=1)

    def press(self, gestures: list[Gesture], cell: int) -> Generator[Press, Seen, Seen]:
        from autoplayer.play.experiment import Press

        assert self.last is not None
        touched = np.zeros(len(self.last), bool)
        touched[cell] = True
        seen = yield Press(tuple(gestures), (), self.sense, self.moved, self.last, touched)
        self.game.presses += len(gestures)
        self.changed = self.moved(seen.now, self.last)
        self.last = seen.now
        return seen

    def value(self, seen: Seen, cell: int) -> int:
        reading = self.game.read(seen.frame, self.reading)
        if reading.unreadable is not None:
            err = reading.unreadable
            raise InputError(f"the board could not be read while learning its input: "
                             f"{err.message}", region=err.region)
        return reading.shown.values[cell]

    def unexplained(self, cell: int, tried: str, before: int) -> InputError:
        shown = self.reading.shown
        r, c = divmod(cell, shown.cols)
        return InputError(f"the page's input scheme is unknown: after {tried} the cell at row "
                          f"{r + 1} column {c + 1} does not show what any known scheme would "
                          f"(it showed {before or 'nothing'})",
                          region=astuple(shown.lattice.cell(cell)))


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
              window: WindowInfo | None = None, relearn: bool = False) -> RippleGame:
    """The play command's factory. `profile` names the input scheme (type, count, cycle, pad) when
    known; by default the rules kept for this window are used (unless `relearn`), or found
    out on the board and kept."""
    from autoplayer.games.ripple.entry import load_input
    from autoplayer.profiles import profile_path, window_key

    if profile is not None:
        return RippleGame(scheme=profile, templates=templates)
    key = window_key(window.wm_class, window.title) if window is not None else None
    path = profile_path(key, "ripple") if key is not None else None
    rules = load_input(path) if path is not None and path.exists() and not relearn else None
    return RippleGame(templates=templates, rules=rules, profile=path, window=key)
