"""The 15-puzzle back-end for the play loop: Tatham's Fifteen and the bundled browser page.

Unlike a nonogram, a sliding puzzle must see the result of its moves: every
click depends on where the gap is. So the solution is a path of boards from
the one first read to the goal, `plan` plays the next few clicks along it from
wherever the screen says the game is, and the loop verifies each batch with a
fresh capture. A board that is off the path (a click lost, the user played) is
solved again from what the screen shows. Completion is the board reading as
the goal: the reader does not read status-bar text (Tatham's "COMPLETED!").

How the game takes input is not assumed: a short experiment through the
mid-end (`learning`) finds out what clicks and arrow keys do, and it is kept
per window (`rules`) so a game seen before costs nothing. The mid-end sends
each click only once the game has drawn the one before (`paced`): a
game may drop input while a slide animates.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

import numpy as np

from autoplayer.errors import InputError, UserError
from autoplayer.games.base import LANDS, Check, Game, Solved
from autoplayer.games.fifteen.goals import Goal, Unsure, infer_goal, solve_toward
from autoplayer.games.fifteen.model import Board, is_solvable, unsolvable_reason
from autoplayer.games.fifteen.picture_board import NO_BOARD as NO_PICTURE_BOARD
from autoplayer.games.fifteen.picture_board import PictureTiles, identify
from autoplayer.games.fifteen.picture_board import first_reading as picture_reading
from autoplayer.games.fifteen.planner import Slide, batch
from autoplayer.games.fifteen.reader import FifteenReading, learn_templates, read_fifteen
from autoplayer.games.fifteen.rules import Input, load_input, profile_for, save_input
from autoplayer.geometry import Click, Gesture, Key, Rect
from autoplayer.screen.input import Pace

if TYPE_CHECKING:
    from autoplayer.play.experiment import Press, Seen
    from autoplayer.screen.capture import Frame
    from autoplayer.screen.window import WindowInfo
    from autoplayer.vision.templates import TemplateSet

SLIDE_SECONDS = 0.13
"""Tatham's Fifteen animates each slide this long (our page as long)."""
PACE = Pace(gesture=0.02, click=0.01)
"""The mid-end waits for each slide to be drawn before the next click (`paced`), so
each click lands on a still board and a person can follow the play."""
ASSUMED = Input(near=True, far="run")
"""What a dry run counts clicks for when no profile says otherwise (it learns nothing)."""
CLICKS_PER_BATCH = 6
"""Clicks between verifications: few enough that a lost click costs little."""
REPAIR_BATCHES = 6
"""Batches allowed beyond the solution's own (re-solving after a surprise)."""


@dataclass(frozen=True)
class Path:
    """A solution: the boards from `start` to the goal, one slide apart."""

    moves: str
    boards: tuple[Board, ...]

    @property
    def goal(self) -> Board:
        return self.boards[-1]

    def position(self, board: Board) -> int | None:
        """How far along the path `board` is (None: off it)."""
        for i, b in enumerate(self.boards):
            if b == board:
                return i
        return None


def make_path(board: Board, moves: str) -> Path:
    boards = [board]
    for m in moves:
        boards.append(boards[-1].move(m))
    return Path(moves, tuple(boards))


@dataclass(frozen=True)
class Step:
    """One click: the slide it makes, and the boards before and after (for verification)."""

    slide: Slide
    before: Board
    after: Board


@dataclass(frozen=True, eq=False)
class Reading:
    """What the loop carries between captures."""

    shown: FifteenReading
    unreadable: InputError | None = None
    """Set when the latest capture could not be read (a tile mid-slide, a flash): `shown`
    is then the last good reading, and nothing is planned from it."""
    pixels: Any = None
    """The frame read (what an experiment starts from); not kept when it could not be read."""


def misplaced(board: Board, target: Board) -> int:
    return sum(1 for a, b in zip(board.cells, target.cells, strict=True) if a and a != b)


SLIDE_FLOOR = 0.6
"""`paced_floor`'s share of the learned slide time, which also holds the bot's own
waits and a reading (about 0.1 s): 0.6 of 0.41 s is 0.25 s, past a 160 ms slide drawn
late; the slides that were cut short were judged drawn at 0.09-0.12 s."""


class FifteenGame(Game[Reading, Path, Step]):
    """`autoplayer.games.base.Game` for sliding puzzles; `solver` is 'optimal', 'fast' or None
    (optimal where its tables are on disk, else fast)."""

    name = "fifteen"
    unit = "tile"
    paced = True
    paced_quiet = 0.06
    """A slide animates: two captures 20 ms apart can show one frame of it; three frames
    of stillness (at 50 fps and more) end it."""

    @property
    def paced_floor(self) -> float:
        """A share of the slide time the experiment watched (press to a board read again):
        a slide's first frame followed by a stall of the browser is not its end."""
        return SLIDE_FLOOR * self.rules.slide if self.rules is not None else 0.0

    def __init__(self, solver: str | None = None, pace: Pace = PACE,
                 clicks_per_batch: int = CLICKS_PER_BATCH, *, rules: Input | None = None,
                 profile: FilePath | None = None, window: dict[str, Any] | None = None
                 ) -> None:
        """`rules`: the game's input, known from a profile (None: learned by experiment);
        `profile`: the file it is kept in (None: nowhere), `window` the key written there."""
        self.rules = rules
        self.profile = profile
        self.window = window
        self.presses = 0
        """Presses the experiment took (0 when the rules came from a profile)."""
        self.learned_slides = 0
        """Tiles the experiment's presses slid (not part of the solution's clicks)."""
        if solver not in (None, "optimal", "fast"):
            raise UserError(f"unknown fifteen solver {solver!r} (optimal, fast)")
        self.solver = solver
        self.pace = pace
        self.clicks_per_batch = clicks_per_batch
        self.max_batches = REPAIR_BATCHES
        self._templates: TemplateSet | None = None
        self._pictures: PictureTiles | None = None
        """Set when the tiles are pictures: what every later capture is matched against."""
        self._shape: tuple[int, ...] = (0, 0)
        self._sent_from: Board | None = None
        """The board the last batch was planned on (to see a batch that slid nothing)."""
        self._sent: list[Step] = []
        """The last batch's slides (`misfit`)."""
        self._kept = rules is not None and profile is not None
        """The rules came from the window's profile, not from an experiment on this game."""
        self._assumed: tuple[str, ...] = ()
        """Arrows the experiment took to move as the other axis's do (`learning.learn`)."""
        self._doubted = False
        """A batch showed kept or assumed rules wrong: the next experiment assumes nothing."""
        self._detour: Path | None = None
        self.goal: Goal | None = None
        """The goal inferred from the first board solved (with its reason): data for callers
        and reports. Set by `solve`, which refuses (before any input) when none is certain."""

    # -- reading ----------------------------------------------------------
    def read(self, frame: Frame, previous: Reading | None = None) -> Reading:
        """A fresh reading; after the first, with templates learned from it as a second opinion.

        The first reading must succeed (it raises). Later ones may catch a tile
        mid-slide: they keep the last good reading and say why the new one failed.
        """
        self._shape = frame.pixels.shape
        if previous is None:
            # Picture tiles first (a lattice of pictures around one flat gap: quick to rule
            # out, and the numeral reader takes longer to refuse a picture). Tiles whose
            # edges give no certain arrangement may still be numerals: those are read, and
            # only if they are not either is the picture board kept (solve then refuses).
            refused: InputError | None = None
            try:
                pictures: tuple[FifteenReading, PictureTiles] | None = picture_reading(
                    frame.pixels)
            except InputError as err:
                pictures, refused = None, err
            if pictures is not None and not isinstance(pictures[1].goal, Unsure):
                shown, self._pictures = pictures
                return Reading(shown, pixels=frame.pixels)
            try:
                shown = read_fifteen(frame.pixels)
            except InputError as numerals:
                if pictures is None:
                    if refused is None or refused.message == NO_PICTURE_BOARD:
                        raise
                    # A picture board was found but refused: that says more.
                    raise InputError(f"{refused.message} (nor are there numbers to read: "
                                     f"{numerals.message})", region=refused.region) from None
                shown, self._pictures = pictures
                return Reading(shown, pixels=frame.pixels)
            self._templates = learn_templates(shown)
            return Reading(shown, pixels=frame.pixels)
        try:
            return Reading(self._again(frame.pixels, previous.shown), pixels=frame.pixels)
        except InputError as err:
            return Reading(previous.shown, err)

    def _again(self, pixels: np.ndarray, before: FifteenReading) -> FifteenReading:
        """The board read again where it was read before: picture tiles by matching them to
        the tiles first cut, numerals by the templates learned from the first reading."""
        if self._pictures is not None:
            shown = identify(pixels, self._pictures)
            if shown.grid != self._pictures.grid:  # the board moved: match there from now on
                self._pictures = replace(self._pictures, grid=shown.grid, cells=shown.cells)
            return shown
        return read_fifteen(pixels, self._templates, before.ink_share, before.grid)

    def board(self, reading: Reading) -> Rect:
        return reading.shown.rect

    # -- solving ----------------------------------------------------------
    def solve(self, reading: Reading) -> Solved[Path]:
        board = reading.shown.board
        found = infer_goal(board) if self._pictures is None else self._picture_goal(reading)
        if isinstance(found, Unsure):
            labels = sorted(board.cells) == list(range(board.size))
            why = (f"{unsolvable_reason(board)}; a tile was misread"
                   if labels and not is_solvable(board) else f"no goal is certain: {found.reason}")
            raise InputError(f"the board read ({board.spec()}) cannot be solved: {why}",
                             region=_region(reading.shown.rect))
        self.goal = found
        path, note = self._solve(board)
        clicks = len(batch(board, path.moves))
        # A game that slides no runs takes a click (or key) per move: batches for those.
        self.max_batches = -(-len(path.moves) // self.clicks_per_batch) + REPAIR_BATCHES
        return Solved(path, f"{note} in {clicks} clicks, {self.clicks_per_batch} a batch; "
                      f"goal: {found.reason}")

    def _picture_goal(self, reading: Reading) -> Goal:
        """The goal of picture tiles (labelled by their home cells, so it is the labels
        ascending with the gap where the missing one would stand); InputError, before any
        input, when the pictures do not settle it or slides cannot reach it."""
        assert self._pictures is not None
        found, board = self._pictures.goal, reading.shown.board
        region = _region(reading.shown.rect)
        if isinstance(found, Unsure):
            raise InputError(f"the {board.width}x{board.height} board of picture tiles has no "
                             f"certain goal: {found.reason}; the bot does not guess one",
                             region=region)
        labelled = infer_goal(board)
        if isinstance(labelled, Unsure):
            raise InputError(f"the arrangement the picture tiles' edges suggest cannot be "
                             f"reached by slides from the board shown ({labelled.reason}): "
                             "it is not the goal, and the bot does not guess another",
                             region=region)
        return Goal(board.width, board.height, labelled.cells,
                    f"picture tiles, no numbers: {found.reason}; confidence "
                    f"{found.confidence:.1f}")

    def _solve(self, board: Board) -> tuple[Path, str]:
        assert self.goal is not None, "solve() infers the goal first"
        method = self.solver or ("optimal" if optimal_ready(board.width, board.height)
                                 else "fast")
        if method == "optimal":
            from autoplayer.games.fifteen.partitions import has_tables

            if not has_tables(board.width, board.height):
                raise UserError(f"no optimal solver for {board.width}x{board.height} "
                                "(3x3, 4x4 and boards of up to 9 cells)")
        moves, shortest = solve_toward(board, self.goal, method)
        what = ("optimal solution" if shortest else
                "solution (the goal's gap is inside the board: not optimal)"
                if method == "optimal" else "rows-first solution")
        return make_path(board, moves), f"{what}: {len(moves)} moves"

    # -- learning ---------------------------------------------------------
    def experiment(self, reading: Reading, solution: Path) -> Generator[Press, Seen, str]:
        """What clicks and arrow keys do, found by a few watched presses (none when the
        rules came from a profile); returns a line for the report."""
        if self.rules is not None:
            return f"input from {self.profile}: {self.rules.describe()}"
        from autoplayer.games.fifteen.learning import learn

        started = time.monotonic()
        first = reading.shown
        frame = yield from _first_frame(reading, self._shape)
        rules, presses, slid, log, self._assumed = yield from learn(
            first, frame, lambda f: self._again(f.pixels, first), assume=not self._doubted)
        self.rules, self.presses = rules, presses
        self.learned_slides += slid
        if not rules.playable():
            raise InputError("neither clicks nor arrow keys slide a tile (tried: "
                             f"{'; '.join(log)}): the bot does not know how to play this game",
                             region=_region(first.rect))
        where = ""
        if self.profile is not None:
            try:
                save_input(self.profile, rules, self.window)
                where = f"; kept in {self.profile}"
            except OSError as err:
                where = f"; could not keep it in {self.profile}: {err.strerror}"
        return (f"learned the input in {presses} presses, {time.monotonic() - started:.2f} s "
                f"({'; '.join(log)}): {rules.describe()}{where}")

    # -- acting -----------------------------------------------------------
    def plan(self, reading: Reading, solution: Path) -> list[Step]:
        """The next clicks along the path from the board shown (solved again if it is off it)."""
        if reading.unreadable is not None:
            err = reading.unreadable
            raise InputError(f"the board could not be read after the last moves: {err.message}",
                             region=err.region)
        board = reading.shown.board
        if board == solution.goal:
            return []
        moves = self._remaining(board, solution)
        steps: list[Step] = []
        rules = self.rules or ASSUMED
        slides = batch(board, moves) if rules.near and rules.far == "run" else \
            singles(board, moves)
        for slide in slides[:self.clicks_per_batch]:
            after = board.play(slide.direction * slide.count)
            steps.append(Step(slide, board, after))
            board = after
        return steps

    def _remaining(self, board: Board, solution: Path) -> str:
        """The moves from `board` to the goal: along the solution, or along the last detour
        (the solution from the last board found off it), or a new detour from here."""
        for path in (solution, self._detour):
            at = None if path is None else path.position(board)
            if path is not None and at is not None:
                return path.moves[at:]
        self._detour = self._solve(board)[0]
        return self._detour.moves

    def gestures(self, reading: Reading, moves: Sequence[Step]) -> list[Gesture]:
        """A click on the centre of each slide's far tile (the run slides with it), or the
        arrow key that makes the slide when clicks slide nothing."""
        rules = self.rules or ASSUMED
        self._sent_from = moves[0].before if moves else None
        self._sent = list(moves)
        out: list[Gesture] = []
        for step in moves:
            if not rules.near:
                key = rules.key_for(step.slide.direction)
                assert key is not None, "the rules were checked playable"
                out.append(Key(key))
                continue
            x, y = reading.shown.centre(step.slide.cell)
            out.append(Click(x, y))
        return out

    def outline(self, reading: Reading, solution: Path) -> tuple[Sequence[Gesture], str]:
        gestures = self.gestures(reading, self.plan(reading, solution))
        if self.rules is not None:
            return gestures, f"counted by the input in {self.profile}"
        return gestures, ("no profile for this game yet: counted assuming a click slides the "
                          "run between a tile and the gap")

    def units(self, moves: Sequence[Step]) -> int:
        return sum(s.slide.count for s in moves)

    def cells(self, reading: Reading, moves: Sequence[Step]) -> list[Rect]:
        """The cells whose tile a slide moves (the gap's included)."""
        return [reading.shown.cells[i] for step in moves
                for i, (a, b) in enumerate(zip(step.before.cells, step.after.cells,
                                               strict=True)) if a != b]

    def fixes(self, moves: Sequence[Step]) -> int:
        """Tiles the batch should bring home, net (negative when it must take some away)."""
        if not moves:
            return 0
        found = self.goal or infer_goal(moves[0].before)
        if isinstance(found, Unsure):
            return 0
        target = found.board
        return misplaced(moves[0].before, target) - misplaced(moves[-1].after, target)

    def check(self, reading: Reading, solution: Path) -> Check:
        board = reading.shown.board
        wrong = [i for i, (a, b) in enumerate(zip(board.cells, solution.goal.cells, strict=True))
                 if a and a != b]
        total = board.size - 1
        if reading.unreadable is not None:
            return Check(max(len(wrong), 1), total, ("the board is unreadable",))
        details = tuple(f"tile {board.cells[i]} at row {i // board.width + 1} column "
                        f"{i % board.width + 1}" for i in wrong[:5])
        return Check(len(wrong), total, details, blocked=self._stuck(board))

    def _stuck(self, board: Board) -> str | None:
        """Why no more input may follow when the last batch slid no tile at all."""
        if self._sent_from is None or board != self._sent_from:
            return None
        kind = "arrow keys" if self.rules is not None and not self.rules.near else "clicks"
        where = (f"the input kept in {self.profile} is not this game's: run again with "
                 "--relearn" if self.presses == 0 and self.profile is not None else
                 "the game no longer takes input as the experiment found")
        return f"the last batch's {kind} slid no tile; {where}"

    def misfit(self, reading: Reading) -> str | None:
        """Rules kept in the profile, or learned with one axis's arrows assumed, are judged
        by the batches played with them: how far along its slides the board got
        (`Game.misfit`). Kept rules are judged by the first batch; assumed arrows by the
        first batch that pressed one."""
        from autoplayer.games.fifteen.learning import AXES

        if reading.unreadable is not None or not self._sent or not (
                self._kept or self._assumed):
            return None
        board = reading.shown.board
        made = next((k + 1 for k in reversed(range(len(self._sent)))
                     if self._sent[k].after == board), 0)
        rules = self.rules
        keys = {rules.key_for(step.slide.direction) for step in self._sent} \
            if rules is not None and not rules.near else set()
        # An axis's two arrows were taken to move alike: one pressed vouches for both.
        axes = {k for pair in AXES if keys & set(pair) for k in pair}
        pressed = bool(axes & set(self._assumed))
        kept_wrong = self._kept and made < LANDS * len(self._sent)
        # An assumed arrow's press is right only when every slide after it is too.
        assumed_wrong = pressed and made < len(self._sent)
        if not kept_wrong and not assumed_wrong:
            self._kept = False
            self._assumed = tuple(k for k in self._assumed if k not in axes)
            return None
        what = (f"the input kept in {self.profile}" if kept_wrong else
                "the arrow keys taken to move as those pressed in the experiment")
        self._kept, self._assumed, self._doubted = False, (), True
        self.rules, self._sent_from, self._detour, self.presses = None, None, None, 0
        return f"{what} made only {made} of the {len(self._sent)} slides of the batch"

    def overlay(self, frame: Frame, reading: Reading, solution: Path | None) -> np.ndarray:
        """Every tile and the number read in it; the next batch's clicks numbered in order."""
        from autoplayer.games.fifteen.reader import MIN_CONFIDENCE
        from autoplayer.vision.overlay import draw_overlay

        shown = reading.shown
        rows = [shown.cells[r * shown.board.width:(r + 1) * shown.board.width]
                for r in range(shown.board.height)]
        numbers = [(n.value, n.confidence, n.box) for n in shown.numbers if n is not None]
        marks = []
        if solution is not None and reading.unreadable is None:
            marks = [(shown.cells[s.slide.cell], f"#{i}")
                      for i, s in enumerate(self.plan(reading, solution), 1)]
        return draw_overlay(frame.pixels, shown.rect, rows, numbers, low=MIN_CONFIDENCE,
                            cell_marks=marks)


def _region(r: Rect) -> tuple[int, int, int, int]:
    return (r.x, r.y, r.w, r.h)


def _first_frame(reading: Reading, shape: tuple[int, ...]) -> Generator[Press, Seen, Frame]:
    """The board as it is now, the pointer parked off it (nothing pressed)."""
    from autoplayer.games.fifteen.learning import cell_samples, moved, park_route
    from autoplayer.play.experiment import Press

    shown = reading.shown
    cells = shown.cells
    seen = yield Press((), park_route(shown.rect, shown.grid.pitch, shape),
                       lambda f: cell_samples(f.pixels, cells), moved,
                       cell_samples(reading.pixels, cells), None, 0.1)
    return seen.frame


def singles(board: Board, moves: str) -> list[Slide]:
    """One click (or key) per tile slide: on the tile next to the gap."""
    out = []
    for m in moves:
        cell = board.tile_to_move(m)
        assert cell is not None, f"{m} is not a legal slide on {board.spec()}"
        out.append(Slide(cell, m, 1))
        board = board.move(m)
    return out


def optimal_ready(width: int, height: int) -> bool:
    """Whether optimal solving can start at once: the size has pattern databases and they are
    on disk (`autoplayer fifteen solve --optimal` builds them: seconds for 3x3, about 40 s for
    4x4); the bot does not make the user wait for a build."""
    from autoplayer.games.fifteen.partitions import has_tables, partition

    if not has_tables(width, height):
        return False
    from autoplayer.games.fifteen.pdb import cache_path

    return all(cache_path(width, height, g).exists() for g in partition(width, height))


def make_game(*, templates: str | None = None, profile: str | None = None,
              window: WindowInfo | None = None, relearn: bool = False) -> FifteenGame:
    """The play command's factory. `profile` picks the solver ('optimal' or 'fast'); the
    game's input is kept per window (learned the first time, or again with `relearn`)."""
    from autoplayer.files import exists

    if templates is not None:
        raise UserError("--templates is for nonograms: fifteen learns its digit templates "
                        "from the screen it plays")
    key, path = profile_for(window.wm_class, window.title) if window is not None else (
        None, None)
    rules = load_input(path) if path is not None and not relearn and exists(path) else None
    return FifteenGame(solver=profile, rules=rules, profile=path, window=key)
