"""The nonogram back-end for the play loop: reader, solver, planner, and what it learns.

Nothing about a game's look or its input is a constant here. The clues and
the grid are read by the shared reader; how cells look (`looks`), what each
button and drag does (`rules`), and how the game shows it is solved are found
out on the board by watching the bot's own presses (`learning`), and kept per
game in a small file (`rules.profile_path`) so a game seen before costs no
experiment. Every verifying capture is read through the learned looks: a cell
that shows a look no press made stops the bot, and cells it did not press
changing under it are the game's completion sign (a dialog, a dim layer, a
flash), or, before the board is right, a reason to stop sending input. So is a
window stacked over the game's (a message box it opened), and a change around
the board once the board has shown right with no input since: not one the
input itself brought (a game may echo its board beside it, a miniature of the
picture, a move counter).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import Check, Solved
from autoplayer.games.nonogram import planner
from autoplayer.games.nonogram.looks import (
    UNEXPLAINED,
    Looks,
    distance,
    fit_tint,
    look_distance,
    reference_looks,
    samples,
)
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle, clue_text, validate
from autoplayer.games.nonogram.planner import Stroke
from autoplayer.games.nonogram.rules import (
    DEFAULT_MOTION,
    STATES,
    Rules,
    button_names,
    load_rules,
    profile_path,
    save_rules,
    window_key,
)
from autoplayer.geometry import Button, Gesture, Move, Rect
from autoplayer.screen.input import Pace

if TYPE_CHECKING:
    from autoplayer.games.nonogram.learning import Board, Hands
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.window import WindowInfo

SOLVE_TIMEOUT = 20.0
PARK_WAIT = 0.12
"""Seconds a board must stay unchanged after the pointer is parked before its looks are
taken (a hover tint fading out shows as a change, and is waited for)."""
SIGN_WAIT = 1.5
"""Seconds to watch for the game's completion sign once the board is right."""
PARK_DWELL = 0.05
"""Seconds the parking pointer rests on its corner cell before it leaves the board: a
toolkit that merges queued motions would otherwise never see it enter that cell."""
MERGED_SHARE = 0.5
"""Share of the cells between drag ends missed that shows a game merging motions
systematically, not now and then."""
SLOW_MOTION = 0.04
MAX_MOTION = 0.1
"""Seconds between a drag's motions in a game seen to merge them (at least, and at most)."""
SOLUTIONS = 4
"""Solutions looked for: a puzzle with several gets each tried in turn until the game
says solved (one that accepts only its own picture says nothing on the others)."""
LAYER_SHARE = 0.9
ODD_SHARE = 0.5
"""A layer over the board is looked for when this share of the cells reads as no look, or
not as the last batch left it."""
MIN_COVER = 4
"""Unpressed cells that must change together to count as covered (a dialog spans cells;
one cell changing is a cell drawn wrong)."""
"""Share of the cells the bot did not press that must change at once to be read as a layer
over the board (a dim), through which every look is seen blended alike."""
WINDOW_CHANGE = 0.015
"""Share of the window around the board that must change to count as a sign (a dialog, an
alert); status text and a ticking clock change far less."""

ASSUMED = Rules(
    press={(UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
           (UNKNOWN, Button.RIGHT): EMPTY, (EMPTY, Button.RIGHT): UNKNOWN},
    drag="line")
"""What a dry run counts gestures for when no profile says otherwise (it sends nothing,
so it learns nothing): the commonest rules, said so in its report."""


@dataclass(frozen=True, eq=False)
class Reading:
    """A nonogram as the screen shows it, in frame pixels."""

    puzzle: Puzzle
    shown: np.ndarray
    """H×W: what every cell shows (UNKNOWN, EMPTY, FILLED, or looks.UNEXPLAINED)."""
    xs: tuple[float, ...]
    """Column centres."""
    ys: tuple[float, ...]
    """Row centres."""
    grid: Rect
    """The cells' rectangle; input never leaves it."""
    raw: Any = field(default=None, repr=False)
    """The reader's own result (geometry, confidences), for re-reading and overlays."""
    layout: Any = field(default=None, repr=False)
    """The clue layout as first seen (ink dark or light)."""
    samples: np.ndarray | None = field(default=None, repr=False)
    """H×W×F: every cell's look (`looks.samples`), once the bot reads by learned looks."""
    pixels: np.ndarray | None = field(default=None, repr=False)
    """The frame it was read from (to see what changed around the board)."""
    covers: tuple[Any, ...] = ()
    """Windows over the game's when it was read (`capture.Cover`): a dialog it opened."""


@dataclass
class Batch:
    """What the last batch of input was meant to do, to judge what the next capture shows."""

    touched: np.ndarray
    """H×W bool: cells the batch pressed (a drag presses every cell of its run)."""
    expected: dict[tuple[int, int], int]
    """The state each pressed cell should end in."""
    gesture: dict[tuple[int, int], str]
    """How each pressed cell was pressed, for the report ('a left drag from ...')."""
    before: np.ndarray
    """H×W×F: every cell's look before the batch."""
    shown_before: np.ndarray
    """H×W: every cell's state before the batch."""
    seen_right: np.ndarray
    """H×W: pressed cells a capture since the batch showed right."""
    pixels: np.ndarray | None
    """The frame before the batch."""


class NonogramGame:
    """`autoplayer.games.base.Game` for nonograms, learning the game's rules as it plays."""

    name = "nonogram"
    max_batches = 6
    """The fills, the marks a game may want, and repairs of each."""
    unit = "cell"
    sign_wait = SIGN_WAIT
    monotone = True
    """Every batch must leave fewer cells wrong than the one before, or the bot stops."""

    def __init__(self, templates: str | None = None, *, rules: Rules | None = None,
                 profile: Path | None = None, window: dict[str, Any] | None = None) -> None:
        """`rules` known from a profile (None: learn them first); `profile` is where
        they are kept (None: nowhere), `window` the key written into it."""
        self.templates = templates
        self.rules = rules
        self.profile = profile
        self.window = window
        self.pace = pace_for(rules)
        self.looks: Looks | None = None
        self.learning: list[str] = []
        """What learning did, for the report."""
        self.presses = 0
        """Presses the experiment took (0 on a game whose profile was loaded)."""
        self._batch: Batch | None = None
        self._right: np.ndarray | None = None
        """A frame since the last input that showed the board right, the window around
        it still: what that window is compared with for a sign (`_since_right`)."""
        self._settled = False
        self._finishing = False
        self._probes: dict[tuple[int, int], tuple[int, Button]] = {}
        """Cells pressed to learn what a button does from their state."""
        self.exploring = False
        """The last plan holds such a press: its batch may not bring the board closer."""
        self._loaded: Any = None
        self._strokes: list[Stroke] = []
        """The last batch's drags."""

    # -- reading ----------------------------------------------------------
    def read(self, frame: Frame, previous: Reading | None = None) -> Reading:
        """The whole board; after input only the cells (the clues cannot have changed)."""
        from autoplayer.games.nonogram.cell_states import read_cells
        from autoplayer.games.nonogram.clipped import CluesAtEdge
        from autoplayer.games.nonogram.reader import read_nonogram

        if previous is None:
            def first(clipped: bool) -> Any:
                return read_nonogram(frame.pixels, templates=self._templates(),
                                     fallbacks=self._fallbacks(), clipped=clipped, margin=True,
                                     source="window")

            try:
                result = first(False)
            except CluesAtEdge:
                # The clues meet the window's edge (a window too small for them): what
                # shows of them is read as known tails of unknown clues, which `solve`
                # keeps to (`clipped.solve_clipped`), never guessing.
                result = first(True)
            return replace(reader_reading(result), layout=result.layout, pixels=frame.pixels)
        raw = previous.raw
        covers = getattr(frame, "covers", ())
        if self.looks is None:
            state = read_cells(frame.pixels, raw.grid, previous.layout)
            return replace(previous, shown=state, raw=replace(raw, state=state),
                           pixels=frame.pixels, covers=covers)
        now = samples(frame.pixels, raw.grid)
        self._adopt_looks(now)
        state, _ = self.looks.classify(now)
        return replace(previous, shown=state, raw=replace(raw, state=state), samples=now,
                       pixels=frame.pixels, covers=covers)

    def _adopt_looks(self, now: np.ndarray) -> None:
        """With rules from a profile, the first batch teaches this board's looks: the cells
        it filled (marked) all show one new look."""
        batch, looks = self._batch, self.looks
        if batch is None or looks is None:
            return
        for state in (FILLED, EMPTY):
            cells = [cell for cell, want in batch.expected.items() if want == state]
            if looks.knows(state) or not cells:
                continue
            picked = np.array([now[cell] for cell in cells])
            moved = looks.changed(picked, np.array([batch.before[cell] for cell in cells]))
            # Changed beyond the board's noise, as the experiment judges a press: not by
            # how far blank lies from the looks known (with a dark fill known, that would
            # take a thin cross or a light fill for blank, and the next batch would press
            # those cells again).
            drawn = picked[moved]
            if len(drawn) * 2 < len(cells):
                continue  # not drawn yet (or not at all: check() will say)
            # The drawn cell nearest their median: a real look, not a blend of crosses
            # drawn a pixel apart.
            look = drawn[int(np.argmin(distance(drawn, np.median(drawn, axis=0))))]
            if (look_distance(drawn, look) <= looks.change).mean() >= 0.5:
                looks = looks.with_look(state, look)
        self.looks = looks

    def _templates(self) -> Any:
        from autoplayer.vision.templates import NO_TEMPLATES, load_templates

        if self.templates in (None, NO_TEMPLATES):
            return None
        if self._loaded is None:
            self._loaded = load_templates(self.templates)
        return self._loaded

    def _fallbacks(self) -> Iterator[Any]:
        """Every calibrated set, tried in turn when no set was named and the clues do not
        check out (see `read_nonogram`)."""
        if self.templates is None:
            from autoplayer.vision.templates import every_template_set

            yield from every_template_set()

    def board(self, reading: Reading) -> Rect:
        return reading.grid

    # -- solving ----------------------------------------------------------
    def solve(self, reading: Reading) -> Solved[np.ndarray]:
        from autoplayer.games.nonogram.solver import Verdict, solve

        if getattr(reading.raw, "clipped", ()):
            from autoplayer.games.nonogram.clipped import solve_clipped

            return solve_clipped(reading.raw, SOLVE_TIMEOUT)
        region = (reading.grid.x, reading.grid.y, reading.grid.w, reading.grid.h)
        if not any(n for clue in (*reading.puzzle.rows, *reading.puzzle.columns)
                   for n in (clue or ())):
            # Nothing to fill anywhere: not a puzzle the bot may call solved.
            raise InputError("no nonogram here: every clue read is empty", region=region)
        try:
            validate(reading.puzzle)
        except InputError as err:
            raise InputError(f"the clues read do not make a puzzle: {err.message}",
                             region=region) from None
        result = solve(reading.puzzle, max_solutions=SOLUTIONS, timeout=SOLVE_TIMEOUT)
        if result.verdict is Verdict.CONTRADICTION:
            where = ""
            if result.contradiction is not None:
                kind, index = result.contradiction
                clues = reading.puzzle.rows if kind == "row" else reading.puzzle.columns
                where = f": {kind} {index + 1} (clue {clue_text(clues[index])}) cannot be placed"
            raise InputError(f"the clues read have no solution{where}; a clue was misread",
                             region=region)
        if result.verdict is Verdict.TIMEOUT:
            raise UserError(f"the solver found no solution within {SOLVE_TIMEOUT:g} s")
        notes = []
        used = getattr(reading.raw, "template_set", None)
        if used is not None and used != getattr(self._templates(), "name", None):
            notes.append(f"clues read with the calibrated templates {used}")
        if result.verdict is Verdict.MULTIPLE:
            many = f"at least {SOLUTIONS}" if len(result.solutions) >= SOLUTIONS else str(
                len(result.solutions))
            notes.append(f"the clues allow {many} solutions; playing one of them, and the "
                         "others in turn while the game gives no sign")
        return Solved(result.solutions[0], "; ".join(notes), tuple(result.solutions[1:]))

    # -- learning ---------------------------------------------------------
    def learn(self, reading: Reading, solution: np.ndarray, hands: Hands
              ) -> tuple[Frame, Reading, str]:
        """Park the pointer, take the board's blank looks, and (with no profile) run the
        experiment. Returns the fresh frame, its reading, and a line for the report."""
        from autoplayer.games.nonogram import learning

        board = self.board_for(reading)
        started = time.monotonic()
        first = learning.watch(hands, board, samples(reading.pixels, reading.raw.grid), [],
                               nothing=PARK_WAIT)
        if self.rules is None:
            exp = learning.learn(hands, board, solution, first.frame)
            self.rules, self.looks, self.presses = exp.rules, exp.looks, exp.presses
            self.pace = pace_for(self.rules)
            self.learning = exp.log
            self._save()
            where = f"; kept in {self.profile}" if self.profile is not None else ""
            note = (f"learned the game's rules in {exp.presses} presses, "
                    f"{time.monotonic() - started:.2f} s{where}: {self.rules.describe()}")
        else:
            self.looks = reference_looks(first.now, board.park_cell)
            note = f"rules from {self.profile}: {self.rules.describe()}"
        frame = hands.grab()
        return frame, self.read(frame, reading), note

    def board_for(self, reading: Reading) -> Board:
        """The cells, and a parking route: over a corner cell (a game that keeps the last
        cell entered lit then always lights the same row and column), then off the board
        diagonally beyond that corner, inside the picture."""
        from autoplayer.games.nonogram.learning import Board

        grid = reading.raw.grid
        h, w = (reading.pixels.shape[:2] if reading.pixels is not None
                else (reading.grid.bottom + 40, reading.grid.right + 40))
        b = reading.grid
        pitch = max(4, round(grid.pitch))
        last_r, last_c = len(reading.ys) - 1, len(reading.xs) - 1
        corners = [((last_r, last_c), (b.right + pitch, b.bottom + pitch)),
                   ((0, last_c), (b.right + pitch, b.y - pitch)),
                   ((last_r, 0), (b.x - pitch, b.bottom + pitch)),
                   ((0, 0), (b.x - pitch, b.y - pitch))]
        (r, c), (x, y) = next(
            ((cell, (x, y)) for cell, (x, y) in corners if 0 <= x < w and 0 <= y < h),
            ((0, 0), (max(0, b.x - 2), max(0, b.y - 2))))
        cell = (r, c)
        route = (Move(round(reading.xs[c]), round(reading.ys[r]), PARK_DWELL), Move(int(x), int(y)))
        return Board(grid, reading.xs, reading.ys, route, cell)

    def _save(self) -> None:
        if self.profile is not None and self.rules is not None:
            try:
                save_rules(self.profile, self.rules, self.window)
            except OSError as err:
                self.learning.append(f"could not keep the rules in {self.profile}: "
                                     f"{err.strerror}")

    def concluded(self, check: Check) -> None:
        """What the game needed before it said solved, kept for next time."""
        if self.rules is None or check.wrong:
            return
        done = ("marks" if self._finishing else "sign") if check.complete else "none"
        if done != self.rules.done:
            self.rules = replace(self.rules, done=done)
            self._save()

    # -- acting -----------------------------------------------------------
    def _profile(self) -> planner.Profile:
        rules = self.rules or ASSUMED
        marking = rules.has_mark() and (self._finishing or rules.done in ("marks", "none"))
        return rules.profile(mark_empty=marking)

    def plan(self, reading: Reading, solution: np.ndarray) -> list[Stroke]:
        """Strokes for every wrong cell the rules seen so far can put right; for a cell
        they cannot (a mark to turn into a fill, say), one press of a button not yet
        tried from that state, on one such cell: watched like every batch, it teaches
        the rules one more step (never two presses on a cell before seeing the first)."""
        self._learn_probes(reading)
        self._learn_drags(reading)
        shown = reading.shown.copy()
        profile = self._profile()
        odd = shown == UNEXPLAINED
        # Cells whose look no press has explained yet (a started game under a profile's
        # rules, before the first batch shows this board's looks) are left alone.
        shown[odd] = np.where(solution[odd] == FILLED, FILLED,
                              EMPTY if profile.mark_empty else UNKNOWN)
        probes: list[Stroke] = []
        for (r, c), have in np.ndenumerate(shown):
            goal = planner.wanted(int(solution[r, c]), profile)
            try:
                planner.presses(int(have), goal, profile)
            except ValueError:
                state = int(have)
                if state not in {s for s, _ in self._probes.values()}:
                    probes.append(self._probe((r, c), state))
                shown[r, c] = next(iter(goal))  # not planned until a press is seen
        self.exploring = bool(probes)
        return probes + planner.plan(shown, solution, profile)

    def _probe(self, cell: tuple[int, int], state: int) -> Stroke:
        from autoplayer.games.nonogram.learning import Unexplained

        rules = self.rules or ASSUMED
        tried = {b for (s, b) in rules.press if s == state} | set(rules.menu)
        button = next((b for b in (Button.LEFT, Button.RIGHT) if b not in tried), None)
        if button is None:
            raise Unexplained(
                f"row {cell[0] + 1} column {cell[1] + 1} shows {STATES[state]} and no button "
                f"seen so far changes that the right way (seen: {rules.describe()})")
        self._probes[cell] = (state, button)
        return Stroke(button, cell[0], cell[1], cell[0], cell[1])

    def _learn_probes(self, reading: Reading) -> None:
        """What the last batch's probe presses did, as rules."""
        if not self._probes or self.rules is None:
            self._probes = {}
            return
        rules = self.rules
        for cell, (state, button) in self._probes.items():
            after = int(reading.shown[cell])
            if after != UNEXPLAINED:  # an unexplained look stops the bot (check)
                rules = rules.seen(state, button, after)
                self.learning.append(f"{button.value} on a {STATES[state]} cell makes it "
                                     f"{STATES[after]}")
        self._probes = {}
        if rules != self.rules:
            self.rules = rules
            self._save()

    def _learn_drags(self, reading: Reading) -> None:
        """Drags of the last batch that missed cells after their press.

        With the filling button (the one the experiment dragged with), in a game that
        acts on each cell entered, ends filled and cells between missed mean the game
        merged motions that came close together. Now and then (a busy browser, within
        one frame) the next batch repairs the few cells missed, cheaper than slower
        drags; where half the cells between were missed, the game merges systematically,
        and its drags get their motions further apart from now on.

        With another button (never dragged in the experiment), half the cells after the
        press missed (the experiment saw the filling button's drags work) means its drags
        are not to be relied on (a game that paints with one button only; the bundled
        page in Chromium, whose right drags after a batch of left ones lost every motion
        but the last): it is clicked cell by cell from now on, as clicks are never
        merged. Both are kept in the game's profile."""
        rules, batch = self.rules, self._batch
        if rules is None or batch is None or rules.drag not in ("line", "enter"):
            return
        shown = reading.shown
        filling = rules.button_to(UNKNOWN, FILLED)

        def missed_in(cells: list[tuple[int, int]]) -> int:
            return sum(1 for c in cells if shown[c] == batch.shown_before[c]
                       and batch.expected.get(c) != shown[c])

        between = missed = 0
        per_button: dict[Button, list[int]] = {}
        for stroke in self._strokes:
            cells = stroke.cells()
            if len(cells) < 3 or shown[cells[0]] != batch.expected.get(cells[0]):
                continue  # a click, or the press itself not taken: no news of drags
            if stroke.button is not filling:
                tally = per_button.setdefault(stroke.button, [0, 0])
                tally[0] += len(cells) - 1
                tally[1] += missed_in(cells[1:])
            elif rules.drag == "enter" and shown[cells[-1]] == batch.expected.get(cells[-1]):
                between += len(cells) - 2
                missed += missed_in(cells[1:-1])
        dropped = frozenset(b for b, (n, m) in per_button.items() if m >= MERGED_SHARE * n)
        if dropped - rules.click_only:
            rules = replace(rules, click_only=rules.click_only | dropped)
            tried, lost = (sum(per_button[b][i] for b in dropped) for i in (0, 1))
            self.learning.append(
                f"drags with {', '.join(button_names(dropped))} missed {lost} of {tried} "
                "cells after their press: that button is clicked cell by cell")
        if between and missed >= MERGED_SHARE * between and rules.motion < MAX_MOTION:
            slower = min(MAX_MOTION, max(2 * rules.motion, SLOW_MOTION))
            rules = replace(rules, motion=slower)
            self.learning.append(f"drags missed {missed} of {between} cells between their "
                                 f"ends: motions {slower * 1000:.0f} ms apart")
        if rules != self.rules:
            self.rules = rules
            self.pace = pace_for(rules)
            self._save()

    def finish(self, reading: Reading, solution: np.ndarray) -> list[Stroke]:
        """The board is right and the game gave no sign: mark the empty cells (where the
        game has a mark), as games that want every cell decided require."""
        rules = self.rules
        if self._finishing or rules is None or not rules.has_mark():
            return []
        self._finishing = True
        return self.plan(reading, solution)

    def gestures(self, reading: Reading, moves: Sequence[Stroke]) -> list[Gesture]:
        profile = self._profile()
        out = planner.gestures(moves, reading.xs, reading.ys, profile)
        if self.looks is not None and reading.samples is not None:
            out += list(self.board_for(reading).park)
            self._batch = batch_record(reading, moves, profile)
            self._strokes = [m for m in moves if len(m) > 1 and profile.drags]
            self._right, self._settled = None, False
        return out

    def units(self, moves: Sequence[Stroke]) -> int:
        return sum(len(m) for m in moves)

    def fixes(self, moves: Sequence[Stroke]) -> int:
        """Every cell the strokes press is a wrong cell they put right."""
        return len({cell for m in moves for cell in m.cells()})

    def check(self, reading: Reading, solution: np.ndarray) -> Check:
        profile = self._profile()
        shown = reading.shown

        def wrong_in(shown: np.ndarray, profile: planner.Profile = profile) -> np.ndarray:
            return np.array([[int(have) not in planner.wanted(int(solution[r, c]), profile)
                              for c, have in enumerate(row)] for r, row in enumerate(shown)],
                            bool).reshape(shown.shape)

        wrong = wrong_in(shown)
        details = tuple(f"row {r + 1} column {c + 1}" for r, c in np.argwhere(wrong)[:5])
        total = int(solution.size)
        batch, looks = self._batch, self.looks
        if batch is None or looks is None or reading.samples is None:
            return Check(int(wrong.sum()), total, None, details)
        odd = shown == UNEXPLAINED
        under = covered_cells(reading)
        moved = looks.changed(reading.samples, batch.before)
        # The parking pointer's row and column show its hover or not as the game has drawn
        # the pointer passing through them: a change there is no sign.
        lit = np.zeros(shown.shape, bool)
        pr, pc = self.board_for(reading).park_cell
        lit[pr, :] = lit[:, pc] = True
        free = ~batch.touched & ~under & ~lit
        others = moved & free
        around = self._since_right(reading, bool(wrong.any() or others.any()))
        predicted = batch.shown_before.copy()  # the board as the batch should leave it
        for cell, state in batch.expected.items():
            predicted[cell] = state
        unlike = float((odd | (shown != predicted)).mean())
        if (not reading.covers and around < WINDOW_CHANGE and others.sum() >= 2
                and in_one_row_and_column(others) and unlike < ODD_SHARE):
            # A row and a column lit (and the rest of the board as the batch left it): the
            # pointer's hover in a frame the game drew while still catching up with the
            # input. Not settled: those cells are not counted right until the game has
            # drawn the pointer parked.
            late = wrong | others
            details = tuple(f"row {r + 1} column {c + 1}" for r, c in np.argwhere(late)[:5])
            return Check(int(late.sum()), total, None, details)
        layer = None
        if free.any() and others.sum() >= LAYER_SHARE * free.sum():
            # Nearly every cell the bot did not press changed at once: a layer over the
            # board (a dim behind a dialog) draws every look blended alike. Read through it.
            layer = fit_tint(batch.before[free], reading.samples[free], looks.change,
                             share=LAYER_SHARE)
        if layer is None and unlike >= ODD_SHARE and all(
                map(looks.knows, batch.expected.values())):
            # Most of the board reads as no look or not as the batch left it, and too few
            # unpressed cells showed a layer (most of the board pressed; a dim on dark
            # blanks moves them little, and dims the fills into something nearer blank):
            # every cell against the look the batch should have left it in. A layer it is
            # only if nearly every cell reads as a look through it.
            expect = looks.predicted(batch.before, batch.expected)
            tint = fit_tint(expect, reading.samples, looks.change, share=LAYER_SHARE)
            if tint is not None and (looks.through(tint).classify(reading.samples)[0]
                                     == UNEXPLAINED).mean() <= 1 - LAYER_SHARE:
                layer = tint
        if layer is not None:
            through = looks.through(layer)
            shown, _ = through.classify(reading.samples)
            wrong, odd = wrong_in(shown), shown == UNEXPLAINED
            details = tuple(f"row {r + 1} column {c + 1}" for r, c in np.argwhere(wrong)[:5])
        covered = bool(reading.covers or others.any() or around >= WINDOW_CHANGE
                       or layer is not None)
        if not covered:
            batch.seen_right |= batch.touched & ~wrong & ~odd
        if covered:
            # Something drew over the board: the cells under a window over the game, the
            # cells it changed, any the bot cannot read, and the pressed cells within its
            # reach that do not show what the press made (a dialog's plain middle may look
            # like a fill) are hidden; they count as what the bot last saw or made there.
            # Everything else must be seen right.
            hidden = odd | under
            if layer is None and (reading.covers or others.sum() >= MIN_COVER):
                # A cover over cells: those it changed, the pressed ones within its reach
                # that do not show what the press made (a dialog's plain middle may look
                # like a fill), and the parking row and column where they changed.
                made = np.zeros(shown.shape, bool)
                for cell, state in batch.expected.items():
                    made[cell] = shown[cell] == state
                lit_moved = moved & lit & ~batch.touched
                reach = box_around(others | under | lit_moved)
                hidden = hidden | others | (batch.touched & ~made & reach) | lit_moved
            # A hidden cell counts as right only as the bot last saw it: a cell it did
            # not press as it was before the batch, a pressed one only if a capture since
            # the press showed it right (a menu or a file dialog its press opened is no
            # proof the press did what the rules say).
            # A pressed cell never seen since is presumed as the batch made it only when
            # every pressed cell still in view shows exactly what its press should make:
            # the presses did what the rules say (a game's dialog right after the last
            # press), not something else (a browser menu, then a file dialog).
            in_view = batch.touched & ~hidden
            presumed = bool(in_view.any()) and all(
                shown[cell] == state for cell, state in batch.expected.items()
                if in_view[cell])

            def seen_wrong_by(profile: planner.Profile) -> np.ndarray:
                made, was = ~wrong_in(predicted, profile), ~wrong_in(batch.shown_before, profile)
                # A pressed cell right both before and after its press is right whether
                # the press landed or a cover took it.
                right_hidden = np.where(
                    batch.touched, batch.seen_right | (presumed & made) | (made & was), was)
                return (wrong_in(shown, profile) & ~hidden) | (hidden & ~right_hidden)

            seen_wrong = seen_wrong_by(profile)
            if seen_wrong.any() and self._finishing:
                # The sign came while the bot was marking the empty cells, a game's rule
                # for done it had to guess at: the fills were the game's rule.
                fills_only = (self.rules or ASSUMED).profile(mark_empty=False)
                if not seen_wrong_by(fills_only).any():
                    seen_wrong = np.zeros_like(seen_wrong)
            what = (("a layer over its whole window" if around >= WINDOW_CHANGE
                     else "a layer over the board") if layer is not None else
                    sign_words(float(others.mean()), around, reading.covers))
            if not seen_wrong.any():
                n = int(np.asarray(hidden).sum())
                note = f"{n} cells hidden under it, last seen or made right" if n else ""
                return Check(0, total, True, (note,) if note else (), sign=what)
            return Check(int(wrong.sum()), total, None, details, blocked=(
                f"the game shows {what} ({int(others.sum())} cells the bot did not press "
                f"changed look, {around:.0%} of the window around the board changed after "
                f"it showed the board right) while {int(seen_wrong.sum())} cells are still "
                "wrong or unreadable; the bot sends no input while something covers the "
                "board" + (f"; {hint}" if (hint := self.why_stuck()) else "")))
        if odd.any():
            cells = [tuple(map(int, rc)) for rc in np.argwhere(odd)]
            r, c = cells[0]
            how = batch.gesture.get((r, c))
            after = f" after {how}" if how else " (a cell the bot did not press)"
            expected = batch.expected.get((r, c))
            meant = f", meant to make it {STATES[expected]}" if expected is not None else ""
            hint = (f"; the rules came from {self.profile}: run again with --relearn if the "
                    "game changed" if self.presses == 0 and self.profile is not None else "")
            return Check(int(wrong.sum()), total, None, details, blocked=(
                f"{len(cells)} cells show a look the bot has not seen its presses make: "
                f"row {r + 1} column {c + 1}{after}{meant}{hint}"))
        return Check(int(wrong.sum()), total, None, details)

    def _since_right(self, reading: Reading, wrong: bool) -> float:
        """Share of the window around the board that changed since the board was seen
        right after the last input, with the window around it still (0 until then).

        Not since the input: a game echoes its board around it as it is played (a
        miniature of the picture, a move counter), and that is no sign. What changes
        once the board shows right and no input has followed is the game's own doing."""
        if not self._settled:
            # The reference is a right board whose surroundings have stopped changing
            # (the echo of the last presses may be drawn a frame after the cells).
            last, self._right = self._right, None if wrong else reading.pixels
            self._settled = last is not None and self._right is not None and window_change(
                last, self._right, reading.grid) < WINDOW_CHANGE / 10
            return 0.0
        return window_change(self._right, reading.pixels, reading.grid)

    def why_stuck(self) -> str:
        """For a batch that left the board no better: how its first cell was pressed and
        what the bot expected, and where the rules came from."""
        batch = self._batch
        parts = []
        if batch is not None and batch.gesture:
            (r, c), how = next(iter(batch.gesture.items()))
            want = STATES.get(batch.expected.get((r, c), UNKNOWN), "?")
            parts.append(f"row {r + 1} column {c + 1} got {how}, expected to make it {want}")
        if self.presses == 0 and self.profile is not None:
            parts.append(f"the rules came from {self.profile}: run again with --relearn if "
                         "the game changed")
        return "; ".join(parts)

    def outline(self, reading: Reading, solution: np.ndarray) -> tuple[list[Gesture], str]:
        """A dry run's count of gestures: by the profile's rules, or by the commonest ones
        (a real run learns them first, in a few presses)."""
        gestures = self.gestures(reading, self.plan(reading, solution))
        if self.rules is not None:
            return gestures, f"counted by the rules in {self.profile}"
        return gestures, ("no profile for this game yet: counted assuming left fills, right "
                          "marks, both toggle, drags paint a line (a real run first learns "
                          "the game's rules in a few presses)")

    def overlay(self, frame: Frame, reading: Reading, solution: np.ndarray | None) -> np.ndarray:
        """The board, every cell and every number read (low-confidence ones marked), and
        what the bot would do: '#' a cell to fill, 'x' one to mark, '-' one to clear."""
        from autoplayer.games.nonogram.reader import LOW_CONFIDENCE
        from autoplayer.vision.overlay import draw_overlay

        raw = reading.raw
        marks = []
        if solution is not None:
            label = {FILLED: "#", EMPTY: "x", UNKNOWN: "-"}
            profile = self._profile()
            for stroke in self.plan(reading, solution):
                for r, c in stroke.cells():
                    after = profile.press[(int(reading.shown[r, c]), stroke.button)]
                    marks.append((raw.cells[r][c], label[after]))
        # A number cut by the picture's edge has no value: it shows as '?'.
        cut = {(c.kind, c.index) for c in getattr(raw, "clipped", ()) if c.cut}
        numbers: list[tuple[int | str, float, Rect]] = [
            ("?", 0.0, n.box) if (kind, i) in cut and n is raw.row_or_column(kind, i)[0]
            else (n.value, n.confidence, n.box) for kind, i, n in raw.numbers()]
        ignored = raw.layout.ignored if getattr(raw, "layout", None) is not None else ()
        return draw_overlay(frame.pixels, raw.board, raw.cells, numbers, low=LOW_CONFIDENCE,
                            cell_marks=marks, ignored=ignored)


CLICK_GAP = 0.015
"""Seconds between gestures in a game that takes no drags: a page works through a burst of
hundreds of clicks slower than they arrive (50-100 a second measured), painting nothing
meanwhile, and a verifying capture would take its backlog for the board."""


def pace_for(rules: Rules | None) -> Pace:
    """Drags' motions paced for GTK; clicks paced where every cell is its own click."""
    motion = rules.motion if rules is not None else DEFAULT_MOTION
    clicks_only = rules is not None and rules.drag not in ("line", "enter")
    return Pace(motion=motion, gesture=CLICK_GAP if clicks_only else 0.0)


def batch_record(reading: Reading, moves: Sequence[Stroke], profile: planner.Profile) -> Batch:
    """The cells a batch presses, the state each should end in, and how it is pressed."""
    touched = np.zeros(reading.shown.shape, bool)
    state = {(r, c): int(v) for (r, c), v in np.ndenumerate(reading.shown)}
    expected: dict[tuple[int, int], int] = {}
    gesture: dict[tuple[int, int], str] = {}
    for m in moves:
        kind = "drag" if len(m) > 1 and profile.drags else "click"
        how = (f"a {m.button.value} {kind} from row {m.r0 + 1} column {m.c0 + 1} to row "
               f"{m.r1 + 1} column {m.c1 + 1}" if kind == "drag"
               else f"a {m.button.value} click")
        for cell in m.cells():
            touched[cell] = True
            now = profile.press.get((state[cell], m.button), state[cell])
            state[cell] = expected[cell] = now
            gesture[cell] = how
    assert reading.samples is not None
    return Batch(touched, expected, gesture, reading.samples.copy(), reading.shown.copy(),
                 np.zeros(touched.shape, bool), reading.pixels)


def in_one_row_and_column(cells: np.ndarray) -> bool:
    """Whether every True cell lies in one row or one column (a hover cross)."""
    rows, cols = np.nonzero(cells)
    r0 = np.bincount(rows).argmax()
    c0 = np.bincount(cols).argmax()
    return bool(((rows == r0) | (cols == c0)).all())


def box_around(cells: np.ndarray) -> np.ndarray:
    """The rectangle of cells spanning every True cell (a dialog is a rectangle)."""
    out = np.zeros(cells.shape, bool)
    if cells.any():
        rows, cols = np.nonzero(cells)
        out[rows.min():rows.max() + 1, cols.min():cols.max() + 1] = True
    return out


def window_change(before: np.ndarray | None, after: np.ndarray | None, board: Rect) -> float:
    """Share of the picture outside the board's rows and columns (where clues and the
    board itself redraw as play goes on) that changed: a dialog, an alert, a dim layer."""
    if before is None or after is None or before.shape != after.shape:
        return 0.0
    diff = np.abs(before.astype(np.int16) - after.astype(np.int16)).max(axis=2) > 40
    keep = np.ones(diff.shape, bool)
    keep[max(0, board.y):board.bottom, :] = False
    keep[:, max(0, board.x):board.right] = False
    return float(diff[keep].mean()) if keep.any() else 0.0


def covered_cells(reading: Reading) -> np.ndarray:
    """H×W bool: cells whose centre lies under a window over the game's."""
    under = np.zeros(reading.shown.shape, bool)
    for cover in reading.covers:
        r = cover.rect
        cols = np.array([r.x <= x < r.right for x in reading.xs])
        rows = np.array([r.y <= y < r.bottom for y in reading.ys])
        under |= rows[:, None] & cols[None, :]
    return under


def sign_words(cells: float, around: float, covers: Sequence[Any] = ()) -> str:
    """What the game showed, in words, from the windows over the game's, and the share of
    unpressed cells and of the window around the board that changed."""
    if covers:
        title = covers[0].title
        return f"a window over it ({title!r})" if title else "a window over it"
    if around >= WINDOW_CHANGE and cells >= 0.9:
        return "a layer over its whole window"
    if around >= WINDOW_CHANGE and cells > 0:
        return "a dialog over the board"
    if around >= WINDOW_CHANGE:
        return "a dialog"
    return "a change over the board"


def reader_reading(result: Any) -> Reading:
    """The reader's result as the loop's Reading: cell centres and the board to click in."""
    xs = tuple((x0 + x1 - 1) / 2 for x0, x1 in result.grid.xs)
    ys = tuple((y0 + y1 - 1) / 2 for y0, y1 in result.grid.ys)
    return Reading(puzzle=result.puzzle, shown=result.state, xs=xs, ys=ys,
                   grid=result.board, raw=result)


def make_game(*, templates: str | None = None, profile: str | None = None,
              window: WindowInfo | None = None, relearn: bool = False) -> NonogramGame:
    """A nonogram back-end with the rules kept for this window (or in `profile`, a file),
    or none yet: then the first batch is the experiment, and the file is written."""
    key = window_key(window.wm_class, window.title) if window is not None else None
    path = Path(profile).expanduser() if profile is not None else (
        profile_path(key) if key is not None else None)
    rules = None
    if path is not None and not relearn and path.exists():
        rules = load_rules(path)  # a file named that does not exist yet gets what is learned
    return NonogramGame(templates, rules=rules, profile=path, window=key)
