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
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from autoplayer.files import exists
from autoplayer.games.base import Check, Game, Solved
from autoplayer.games.nonogram import planner
from autoplayer.games.nonogram.judge import (
    Batch,
    batch_record,
    covered_cells,
    judge,
    wrong_in,
)
from autoplayer.games.nonogram.lessons import adopt_looks, drag_lessons
from autoplayer.games.nonogram.looks import (
    UNEXPLAINED,
    Looks,
    reference_looks,
    samples,
)
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle
from autoplayer.games.nonogram.planner import Stroke
from autoplayer.games.nonogram.rules import (
    DEFAULT_MOTION,
    STATES,
    Rules,
    load_rules,
    profile_path,
    save_rules,
    window_key,
)
from autoplayer.games.nonogram.solving import SOLVE_TIMEOUT, solve_read
from autoplayer.geometry import Button, Gesture, Rect
from autoplayer.screen.input import Pace

if TYPE_CHECKING:
    from autoplayer.games.nonogram.learning import Board
    from autoplayer.play.experiment import Press, Seen
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.window import WindowInfo

PARK_WAIT = 0.12
"""Seconds a board must stay unchanged after the pointer is parked before its looks are
taken (a hover tint fading out shows as a change, and is waited for)."""
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


class NonogramGame(Game[Reading, np.ndarray, Stroke]):
    """`autoplayer.games.base.Game` for nonograms, learning the game's rules as it plays."""

    name = "nonogram"
    max_batches = 6
    """The fills, the marks a game may want, and repairs of each."""
    unit = "cell"
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
        if self._batch is not None:
            self.looks = adopt_looks(self.looks, self._batch, now)
        state, _ = self.looks.classify(now)
        return replace(previous, shown=state, raw=replace(raw, state=state), samples=now,
                       pixels=frame.pixels, covers=covers)

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
        if getattr(reading.raw, "clipped", ()):
            from autoplayer.games.nonogram.clipped import solve_clipped

            return solve_clipped(reading.raw, SOLVE_TIMEOUT)
        notes = []
        used = getattr(reading.raw, "template_set", None)
        if used is not None and used != getattr(self._templates(), "name", None):
            notes.append(f"clues read with the calibrated templates {used}")
        return solve_read(reading.puzzle, reading.grid, notes)

    # -- learning ---------------------------------------------------------
    def experiment(self, reading: Reading, solution: np.ndarray
                   ) -> Generator[Press, Seen, str]:
        """Park the pointer, take the board's blank looks, and (with no profile) the
        experiment's presses, for the mid-end to carry out; returns a line for the report."""
        from autoplayer.games.nonogram import learning

        board = self.board_for(reading)
        started = time.monotonic()
        first = yield board.press([], samples(reading.pixels, reading.raw.grid),
                                  nothing=PARK_WAIT)
        if self.rules is None:
            exp = yield from learning.learn(board, solution, first.frame)
            self.rules, self.looks, self.presses = exp.rules, exp.looks, exp.presses
            self.pace = pace_for(self.rules)
            self.learning = exp.log
            self._save()
            where = f"; kept in {self.profile}" if self.profile is not None else ""
            return (f"learned the game's rules in {exp.presses} presses, "
                    f"{time.monotonic() - started:.2f} s{where}: {self.rules.describe()}")
        self.looks = reference_looks(first.now, board.park_cell)
        return f"rules from {self.profile}: {self.rules.describe()}"

    def board_for(self, reading: Reading) -> Board:
        """The cells and where to park the pointer (`learning.parked_board`)."""
        from autoplayer.games.nonogram.learning import parked_board

        shape = (reading.pixels.shape[:2] if reading.pixels is not None
                 else (reading.grid.bottom + 40, reading.grid.right + 40))
        return parked_board(reading.raw.grid, reading.grid, reading.xs, reading.ys, shape)

    def _save(self) -> None:
        if self.profile is not None and self.rules is not None:
            try:
                save_rules(self.profile, self.rules, self.window)
            except OSError as err:
                self.learning.append(f"could not keep the rules in {self.profile}: "
                                     f"{err.strerror}")

    def concluded(self, answered: bool, finished: bool) -> None:
        """What the game needed before it answered, kept for next time."""
        if self.rules is None:
            return
        done = ("marks" if finished else "sign") if answered else "none"
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
        """What the last batch's drags showed of the game's merging of motions, kept."""
        if self.rules is None or self._batch is None:
            return
        rules, notes = drag_lessons(self.rules, self._batch, self._strokes, reading.shown)
        self.learning.extend(notes)
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
            self._batch = batch_record(reading.shown, reading.samples, moves, profile)
            self._strokes = [m for m in moves if len(m) > 1 and profile.drags]
        return out

    def units(self, moves: Sequence[Stroke]) -> int:
        return sum(len(m) for m in moves)

    def cells(self, reading: Reading, moves: Sequence[Stroke]) -> list[Rect]:
        """Every cell the strokes press, as the reader found its rectangle."""
        return [reading.raw.cells[r][c] for m in moves for r, c in m.cells()]

    def last(self, reading: Reading, moves: Sequence[Stroke]
             ) -> tuple[list[Stroke], list[Stroke]]:
        """Marks first, then fills, and the last fill's last cell alone: a game whose rule
        for done is the fills answers only the move that completes them, and a single
        cell's click changes the least beside what it should."""
        profile = self._profile()

        def fills(m: Stroke) -> bool:
            r, c = m.r0, m.c0
            return profile.press.get((int(reading.shown[r, c]), m.button)) == FILLED

        ordered = [m for m in moves if not fills(m)] + [m for m in moves if fills(m)]
        final = ordered[-1]
        head = ordered[:-1]
        cells = final.cells()
        if len(cells) > 1:
            (r0, c0), (r1, c1) = cells[0], cells[-2]
            head.append(Stroke(final.button, r0, c0, r1, c1))
            r, c = cells[-1]
            final = Stroke(final.button, r, c, r, c)
        return head, [final]

    def fixes(self, moves: Sequence[Stroke]) -> int:
        """Every cell the strokes press is a wrong cell they put right."""
        return len({cell for m in moves for cell in m.cells()})

    def check(self, reading: Reading, solution: np.ndarray) -> Check:
        profile = self._profile()
        total = int(solution.size)
        batch, looks = self._batch, self.looks
        if batch is None or looks is None or reading.samples is None:
            wrong = wrong_in(reading.shown, solution, profile)
            return Check(int(wrong.sum()), total, cell_names(wrong),
                         unreadable=int((reading.shown == UNEXPLAINED).sum()))
        under = covered_cells(reading.shown.shape, reading.xs, reading.ys, reading.covers)
        seen = judge(reading.shown, reading.samples, solution, batch, looks, profile,
                     self.board_for(reading).park_cell, under, bool(reading.covers))
        wrong, unseen = seen.wrong, seen.unseen
        if seen.covered and wrong.any() and self._finishing:
            # Something came over the board while the bot marked the empty cells, a
            # game's rule for done it had to guess at: judged by the fills alone.
            fills = wrong_in(reading.shown, solution,
                             (self.rules or ASSUMED).profile(mark_empty=False))
            wrong = wrong & fills
        details = cell_names(wrong)
        if seen.covered:
            return Check(int(wrong.sum()), total, details, int(unseen.sum()), covered=(
                f"something covers the board ({seen.changed_unpressed} cells the bot did "
                "not press changed look"
                + (", a window over the game" if reading.covers else "") + ")"))
        if seen.odd.any():
            cells = [tuple(map(int, rc)) for rc in np.argwhere(seen.odd)]
            r, c = cells[0]
            how = batch.gesture.get((r, c))
            after = f" after {how}" if how else " (a cell the bot did not press)"
            expected = batch.expected.get((r, c))
            meant = f", meant to make it {STATES[expected]}" if expected is not None else ""
            hint = f"; {self._relearn_hint()}" if self._relearn_hint() else ""
            return Check(int(wrong.sum()), total, details, unreadable=int(seen.odd.sum()),
                         blocked=(
                f"{len(cells)} cells show a look the bot has not seen its presses make: "
                f"row {r + 1} column {c + 1}{after}{meant}{hint}"))
        return Check(int(wrong.sum()), total, details)

    def why_stuck(self) -> str:
        """For a batch that left the board no better: how its first cell was pressed and
        what the bot expected, and where the rules came from."""
        batch = self._batch
        parts = []
        if batch is not None and batch.gesture:
            (r, c), how = next(iter(batch.gesture.items()))
            want = STATES.get(batch.expected.get((r, c), UNKNOWN), "?")
            parts.append(f"row {r + 1} column {c + 1} got {how}, expected to make it {want}")
        if self._relearn_hint():
            parts.append(self._relearn_hint())
        return "; ".join(parts)

    def _relearn_hint(self) -> str:
        """Where kept rules came from, and how to start over, for a stop they may explain."""
        if self.presses == 0 and self.profile is not None:
            return (f"the rules came from {self.profile}: run again with --relearn if the "
                    "game changed")
        return ""

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
        from autoplayer.games.nonogram.formats import format_puzzle
        from autoplayer.games.nonogram.overlay import draw_reading
        from autoplayer.vision.overlay import with_caption

        marks = []
        if solution is not None:
            label = {FILLED: "#", EMPTY: "x", UNKNOWN: "-"}
            profile = self._profile()
            for stroke in self.plan(reading, solution):
                for r, c in stroke.cells():
                    after = profile.press[(int(reading.shown[r, c]), stroke.button)]
                    marks.append((reading.raw.cells[r][c], label[after]))
        url = format_puzzle(reading.puzzle, "puzzlink").strip()
        return with_caption(draw_reading(frame.pixels, reading.raw, marks), [url])


CLICK_GAP = 0.015
"""Seconds between gestures in a game that takes no drags: a page works through a burst of
hundreds of clicks slower than they arrive (50-100 a second measured), painting nothing
meanwhile, and a verifying capture would take its backlog for the board."""


def pace_for(rules: Rules | None) -> Pace:
    """Drags' motions paced for GTK; clicks paced where every cell is its own click."""
    motion = rules.motion if rules is not None else DEFAULT_MOTION
    clicks_only = rules is not None and rules.drag not in ("line", "enter")
    return Pace(motion=motion, gesture=CLICK_GAP if clicks_only else 0.0)


def cell_names(cells: np.ndarray) -> tuple[str, ...]:
    """The first few True cells, as the report names them."""
    return tuple(f"row {r + 1} column {c + 1}" for r, c in np.argwhere(cells)[:5])


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
    if path is not None and not relearn and exists(path):
        rules = load_rules(path)  # a file named that does not exist yet gets what is learned
    return NonogramGame(templates, rules=rules, profile=path, window=key)
