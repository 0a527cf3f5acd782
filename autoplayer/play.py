"""The game-agnostic play loop: capture, read, solve, plan, act, verify, repair, report.

It knows no game: everything game-shaped goes through `autoplayer.games.base.Game`.
Input only ever follows a reading the game vouched for (readers raise rather
than guess), and after every batch of input a fresh capture is read and
compared with the solution; only what is still wrong is planned again, for a
bounded number of batches.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoplayer.errors import Aborted, UserError
from autoplayer.games.base import Check, Game
from autoplayer.geometry import Move, Rect, to_screen
from autoplayer.screen.input import InputDriver, Pace, check_inside
from autoplayer.screen.source import FrameSource

STAGES = ("capture", "read", "solve", "learn", "plan", "input", "verify")


class NotSolved(UserError):
    """The board still differs from the solution after every batch allowed."""

    exit_code = 1


@dataclass
class Report:
    game: str
    dry_run: bool = False
    stages: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    """Seconds spent in each stage, summed over batches."""
    first_input: float | None = None
    """Seconds from the start of `autoplayer play` to the first input event."""
    total: float = 0.0
    gestures: int = 0
    events: int = 0
    units_changed: int = 0
    """Cells (tiles) the gestures changed: the gestures-against-cells figure."""
    right_at_start: int = 0
    units: int = 0
    unit: str = "cell"
    """What the game's moves change ('cell', 'tile'), for the wording of the report."""
    batches: int = 0
    check: Check | None = None
    note: str = ""
    overlay: Path | None = None
    planned: int = 0
    """Gestures a dry run would have made."""
    wrong_after: list[int] = field(default_factory=list)
    """Units still wrong after each batch (the repairs needed)."""
    first_input_epoch: float | None = None
    """Wall-clock time (time.time()) of the first input, for measuring from outside."""
    learned: str = ""
    """What the game learned about its rules before the first batch, or where they came from."""
    learn_presses: int = 0
    solutions_tried: int = 1
    """Solutions of the clues played in turn (more than one where the game said nothing)."""

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data (for `play --json`)."""
        check = self.check
        return {
            "game": self.game, "dry_run": self.dry_run,
            "stages_ms": {k: round(v * 1000, 1) for k, v in self.stages.items()},
            "first_input_ms": None if self.first_input is None else round(
                self.first_input * 1000, 1),
            "first_input_epoch": self.first_input_epoch,
            "total_s": round(self.total, 3), "gestures": self.gestures, "events": self.events,
            "units_changed": self.units_changed, "units": self.units,
            "solutions_tried": self.solutions_tried,
            "right_at_start": self.right_at_start, "batches": self.batches,
            "wrong_after": self.wrong_after, "planned": self.planned, "note": self.note,
            "wrong": None if check is None else check.wrong,
            "complete": None if check is None else check.complete,
            "overlay": None if self.overlay is None else str(self.overlay),
            "sign": None if check is None else check.sign,
            "learned": self.learned, "learn_presses": self.learn_presses,
        }

    def lines(self) -> list[str]:
        """The human report, one fact a line."""
        out = []
        if self.note:
            out.append(f"note: {self.note}")
        if self.dry_run:
            out.append(f"dry run: no input sent; would make {self.planned} gestures")
        else:
            out.append(
                f"input: {self.gestures} gestures ({self.events} events) for "
                f"{self.units_changed} {self.unit} changes ({self.units} {self.unit}s, "
                f"{self.right_at_start} already right at the start); {self.batches} batch(es)"
            )
            if len(self.wrong_after) > 1:
                out.append(f"{self.unit}s still off the solution: " + ", ".join(
                    f"{n} after batch {i}" for i, n in enumerate(self.wrong_after[:-1], 1)))
        if self.learned:
            out.append(f"rules: {self.learned}")
        if self.check is not None and not self.dry_run:
            which = ("the solution" if self.solutions_tried == 1 else
                     f"solution {self.solutions_tried} of the clues' solutions")
            if self.check.wrong == 0:
                verdict = f"every {self.unit} verified against {which}"
            else:
                verdict = f"{self.check.wrong} {self.unit}s still wrong"
            shown = {True: "the game shows it complete", False: "the game does not show it "
                     "complete", None: "the game shows no completion sign"}[self.check.complete]
            out.append(f"verified: {verdict}; {shown}")
            if self.check.wrong == 0 and self.check.sign is not None:
                hidden = f" ({'; '.join(self.check.details)})" if self.check.details else ""
                out.append(f"solved; the game shows {self.check.sign}{hidden}")
            elif self.check.wrong == 0 and self.check.complete is None:
                out.append("board verified; the game gave no sign" + (
                    f" on any of the {self.solutions_tried} solutions played"
                    if self.solutions_tried > 1 else ""))
        if self.overlay is not None:
            out.append(f"overlay: {self.overlay}")
        times = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in self.stages.items())
        out.append(f"time: {times}; total {self.total:.2f} s")
        if self.first_input is not None:
            out.append(f"first input after {self.first_input * 1000:.0f} ms")
        return out


DriverFactory = Callable[[Rect, Pace, float | None], Any]


def default_driver(bounds: Rect, pace: Pace, deadline: float | None) -> InputDriver:
    return InputDriver(bounds, pace, deadline)


@contextmanager
def _stage(report: Report, name: str) -> Iterator[None]:
    t = time.perf_counter()
    try:
        yield
    finally:
        report.stages[name] += time.perf_counter() - t


def play(
    game: Game[Any, Any, Any],
    source: FrameSource,
    *,
    dry_run: bool = False,
    overlay: Path | None = None,
    time_budget: float | None = None,
    pace: Pace | None = None,
    driver_factory: DriverFactory = default_driver,
    started: float | None = None,
) -> Report:
    """Plays one game to its end (or reads it, in a dry run) and reports what happened.

    `started` is the `time.perf_counter()` the user's command began at.
    """
    started = time.perf_counter() if started is None else started
    deadline_perf = None if time_budget is None else started + time_budget
    report = Report(game.name, dry_run=dry_run, unit=game.unit)
    user_pace = pace
    pace = pace or game.pace

    def over_budget() -> None:
        if deadline_perf is not None and time.perf_counter() > deadline_perf:
            raise Aborted("aborted: the time budget ran out")

    # The input driver (pynput's import and its listeners) starts while the game is
    # read and solved; a dry run never makes one.
    early = None if dry_run else _EarlyDriver(driver_factory, pace, deadline_perf)
    try:
        return _play(game, source, report, started, early, dry_run=dry_run, overlay=overlay,
                     over_budget=over_budget, user_pace=user_pace)
    finally:
        if early is not None:
            early.close(report)


class _EarlyDriver:
    """The input driver, made and started on a thread as soon as play begins."""

    def __init__(self, factory: DriverFactory, pace: Pace, deadline_perf: float | None) -> None:
        import threading

        self.driver: Any = None
        self.error: BaseException | None = None
        deadline = None
        if deadline_perf is not None:
            deadline = time.monotonic() + (deadline_perf - time.perf_counter())

        def make() -> None:
            try:
                self.driver = factory(Rect(0, 0, 0, 0), pace, deadline).start()
            except BaseException as err:  # handed to the loop at its first input
                self.error = err

        self.thread = threading.Thread(target=make, name="input-driver", daemon=True)
        self.thread.start()

    def get(self, bounds: Rect) -> Any:
        self.thread.join()
        if self.error is not None:
            raise self.error
        self.driver.bounds = bounds
        return self.driver

    def close(self, report: Report) -> None:
        self.thread.join()
        if self.driver is not None:
            report.events = self.driver.events
            self.driver.stop()


def _play(game: Game[Any, Any, Any], source: FrameSource, report: Report, started: float,
          early: _EarlyDriver | None, *, dry_run: bool, overlay: Path | None,
          over_budget: Callable[[], None], user_pace: Pace | None = None) -> Report:
    with _stage(report, "capture"):
        frame = source.grab()
    with _stage(report, "read"):
        reading = game.read(frame)
    if dry_run:
        try:
            with _stage(report, "solve"):
                solved = game.solve(reading)
        except UserError:
            if overlay is not None:
                report.overlay = _write_overlay(overlay, game.overlay(frame, reading, None))
            raise
        report.note = solved.note
        with _stage(report, "plan"):
            # A game that learns its input by trying (an experiment first) outlines its
            # whole input instead, and says what it assumed.
            outline = getattr(game, "outline", None)
            if outline is not None:
                gestures, assumed = outline(reading, solved.solution)
                report.note = "; ".join(n for n in (report.note, assumed) if n)
            else:
                gestures = game.gestures(reading, game.plan(reading, solved.solution))
            report.planned = len(gestures)
        if overlay is not None:
            report.overlay = _write_overlay(overlay, game.overlay(frame, reading, solved.solution))
        report.total = time.perf_counter() - started
        return report

    with _stage(report, "solve"):
        solved = game.solve(reading)
    report.note = solved.note
    solution = solved.solution
    first = game.check(reading, solution)
    if first.total == 0:
        raise UserError(f"the {game.name} read has nothing to play: no {game.unit} to check "
                        "against a solution")
    report.units, report.right_at_start = first.total, first.total - first.wrong
    report.check = first

    assert early is not None
    hands = _Hands(early, source, game, report, started, user_pace)
    learn = getattr(game, "learn", None)
    if learn is not None:
        hands.frame, hands.reading = frame, reading
        with _stage(report, "learn"):
            frame, reading, report.learned = learn(reading, solution, hands)
        report.learn_presses = getattr(game, "presses", 0)
        report.check = game.check(reading, solution)

    def batch(moves: Any) -> None:
        nonlocal frame, reading
        with _stage(report, "plan"):
            gestures = game.gestures(reading, moves)
        hands.frame, hands.reading = frame, reading
        with _stage(report, "input"):
            hands.act(gestures)
        report.batches += 1
        report.units_changed += game.units(moves)
        frame, reading = _verify(game, source, frame, reading, solution, report,
                                 fixed=game.fixes(moves))
        report.wrong_after.append(report.check.wrong)
        _stop_if_blocked(game, report)

    finish = getattr(game, "finish", None)
    finished = finish is None
    others = list(solved.others)
    for _ in range(game.max_batches * (1 + len(others))):
        over_budget()
        _stop_if_blocked(game, report)
        with _stage(report, "plan"):
            moves = game.plan(reading, solution)
        if not moves and report.check.wrong == 0 and report.check.complete is None:
            # The board is right: the game may show it is solved a moment later, or want
            # more (every empty cell marked) before it does; those are played and repaired
            # like any batch.
            frame, reading = _await_sign(game, source, frame, reading, solution, report)
            _stop_if_blocked(game, report)
            if report.check.complete is None and not finished:
                finished = True
                moves = finish(reading, solution)
            if report.check.complete is None and not moves and others:
                # No sign on this solution: the clues allow others, and a game may accept
                # only its own picture. The next one is played like the first.
                solution = others.pop(0)
                report.solutions_tried += 1
                with _stage(report, "verify"):
                    report.check = game.check(reading, solution)
                with _stage(report, "plan"):
                    moves = game.plan(reading, solution)
        if not moves:
            break
        if source.moved(frame):
            # The window moved since it was read: read it where it is now.
            with _stage(report, "capture"):
                frame = source.grab()
            with _stage(report, "read"):
                reading = game.read(frame, reading)
            continue
        batch(moves)
        if report.check.wrong == 0 and report.check.complete:
            break
        if (report.check.wrong == 0 and report.check.complete is None
                and getattr(game, "sign_wait", 0.0) <= 0):
            break
    report.total = time.perf_counter() - started
    check = report.check
    if check is not None and check.wrong:
        where = f" ({', '.join(check.details)})" if check.details else ""
        raise NotSolved(
            f"after {report.batches} batches {check.wrong} of {check.total} cells still differ "
            f"from the solution{where}"
        )
    concluded = getattr(game, "concluded", None)
    if concluded is not None and check is not None:
        concluded(check)
    return report


def _stop_if_blocked(game: Game[Any, Any, Any], report: Report) -> None:
    """Stop at once (exit 1) when the game's check says no input may follow, or when a
    batch left the board no closer to the solution than the one before (a game that
    undoes what the bot did would otherwise be played back and forth)."""
    check = report.check
    if check is None:
        return
    if check.blocked is not None:
        raise NotSolved(f"stopped: {check.blocked}")
    after = report.wrong_after
    if (getattr(game, "monotone", False) and not getattr(game, "exploring", False)
            and len(after) >= 2 and after[-1] >= after[-2] > 0):
        where = f" ({', '.join(check.details)})" if check.details else ""
        why = getattr(game, "why_stuck", None)
        hint = why() if why is not None else ""
        raise NotSolved(
            f"stopped: batch {len(after)} did not bring the board closer to the solution "
            f"({after[-2]} {game.unit}s wrong before it, {after[-1]} after){where}"
            + (f"; {hint}" if hint else ""))


class _Hands:
    """The loop's input and capture for a game that watches its own presses (`learn`):
    gestures in frame pixels, bounded by the board, parking moves by the window."""

    def __init__(self, early: _EarlyDriver, source: FrameSource, game: Game[Any, Any, Any],
                 report: Report, started: float, pace: Pace | None = None) -> None:
        self.early, self.source, self.game, self.report = early, source, game, report
        self.pace = pace
        """The pace the user asked for (--pace), which the game's own does not replace."""
        self.started = started
        self.frame: Any = None
        self.reading: Any = None

    def act(self, gestures: Any, *, settle: bool = True) -> None:
        """The gestures; a parking route at their end (moves only) is sent once the game
        has drawn the rest (`until_drawn`), with `settle`."""
        frame, report = self.frame, self.report
        bounds = frame.rect_to_screen(self.game.board(self.reading))
        on_screen = [to_screen(g, frame.origin, frame.scale) for g in gestures]
        driver = self.early.get(bounds)
        if self.pace is None:
            driver.pace = self.game.pace  # what the game learned may change its pace
        if hasattr(self.source, "allow_cover"):
            self.source.allow_cover = True  # from now on a window over the game is news
        driver.reach = frame.rect_to_screen(Rect(0, 0, frame.width, frame.height))
        if report.first_input is None:
            report.first_input = time.perf_counter() - self.started
            report.first_input_epoch = time.time()
        check_inside(on_screen, bounds)  # the whole batch, before any of it is sent
        split = len(on_screen)
        while split > 0 and isinstance(on_screen[split - 1], Move):
            split -= 1
        if settle and 0 < split < len(on_screen):
            driver.perform(on_screen[:split])
            self.until_drawn(bounds)
            driver.perform(on_screen[split:])
        else:
            driver.perform(on_screen)
        report.gestures += sum(1 for g in on_screen if not isinstance(g, Move))

    def until_drawn(self, board: Rect) -> None:
        """Wait until the board has looked the same for PARK_QUIET seconds (at most
        PARK_LIMIT): the game has handled the input sent so far.

        A toolkit busy drawing queues the pointer's motions and then handles only the
        last of them (Qt merges them), so a parking route sent at once would never be
        seen to enter the cell it passes through: a game that keeps the last cell
        entered lit would keep the one pressed last instead."""
        import numpy as np

        deadline = time.monotonic() + PARK_LIMIT
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            pixels = _board_pixels(self.source.grab(), board)
            now = time.monotonic()
            if last is None or last.shape != pixels.shape or not np.array_equal(last, pixels):
                last, since = pixels, now
            elif now - since >= PARK_QUIET:
                return
            time.sleep(PARK_POLL)

    def grab(self) -> Any:
        frame = self.source.grab()
        self.frame = frame
        return frame


def _await_sign(game: Game[Any, Any, Any], source: FrameSource, frame: Any, reading: Any,
                solution: Any, report: Report) -> tuple[Any, Any]:
    """Watch the game for `sign_wait` seconds after the board came right: a dialog, a
    dim layer or a flash is the game saying solved."""
    wait = getattr(game, "sign_wait", 0.0)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(SETTLE_INTERVAL)
        with _stage(report, "capture"):
            frame = source.grab()
        with _stage(report, "verify"):
            reading = game.read(frame, reading)
            check = game.check(reading, solution)
        if check.complete:
            frame, reading = _settled_sign(game, source, frame, reading, solution, report)
            check = report.check
        if check.complete or check.wrong or check.blocked:
            report.check = check
            break
    return frame, reading


SIGN_SETTLE = 1.0
"""Longest wait for a sign to finish appearing (a dialog fading in, a layer dimming)."""


def _settled_sign(game: Game[Any, Any, Any], source: FrameSource, frame: Any, reading: Any,
                  solution: Any, report: Report) -> tuple[Any, Any]:
    """Once a sign shows, wait for the window to stop changing and look again: a dialog
    fading in is first a faint change over the board, and a frame the game drew while
    still catching up with the input (the pointer's hover tint on cells the bot did not
    press) is no sign at all. Only a sign still there when the window is still counts;
    `report.check` is that second look."""
    import numpy as np

    deadline = time.monotonic() + SIGN_SETTLE
    last = now = frame
    while time.monotonic() < deadline:
        time.sleep(SETTLE_INTERVAL)
        with _stage(report, "capture"):
            now = source.grab()
        if now.pixels.shape == last.pixels.shape and np.array_equal(now.pixels, last.pixels):
            break
        last = now
    with _stage(report, "verify"):
        later = game.read(now, reading)
        report.check = game.check(later, solution)
    return now, later


SETTLE_INTERVAL = 0.05
PARK_QUIET = 0.05
"""Stillness of the board that counts as input handled, before the pointer is parked."""
PARK_LIMIT = 1.0
PARK_POLL = 0.015
"""Captures this far apart while waiting to park (a board capture takes a few ms)."""
SETTLE_QUIET = 0.3
"""Stillness that counts as drawn when the board shows every change the batch made."""
SETTLE_LONG_QUIET = 2.5
"""Stillness that counts as drawn when it does not (input dropped, or the game stalled)."""
SETTLE_TIMEOUT = 10.0


def _verify(game: Game[Any, Any, Any], source: FrameSource, frame: Any, reading: Any,
            solution: Any, report: Report, fixed: int) -> tuple[Any, Any]:
    """Capture and re-read until the board shows the solution or has stopped changing.

    Games draw input some time after it arrives (a loaded browser lags seconds
    behind a burst of clicks; Tatham's games flash on completion). Verifying a
    board still being drawn would "repair" cells that were about to be right,
    and on a game that toggles that breaks them. So a board not yet right
    counts as drawn once it has been still for a moment and shows the `fixed`
    units the batch should have fixed, or, when it does not, still for longer.
    """
    import numpy as np

    board = frame.rect_to_screen(game.board(reading))
    before = _board_pixels(frame, board)
    wrong_before = game.check(reading, solution).wrong
    deadline = time.monotonic() + SETTLE_TIMEOUT
    last: Any = None
    still_since = time.monotonic()
    while True:
        with _stage(report, "capture"):
            frame = source.grab()
        with _stage(report, "verify"):
            reading = game.read(frame, reading)
            report.check = check = game.check(reading, solution)
        now = time.monotonic()
        if check.wrong == 0 and check.complete:
            frame, reading = _settled_sign(game, source, frame, reading, solution, report)
            check = report.check
        if check.wrong == 0 and check.complete is not False:
            return frame, reading
        pixels = _board_pixels(frame, board)
        if last is None or last.shape != pixels.shape or not np.array_equal(last, pixels):
            last, still_since = pixels, now
        else:
            shows_batch = wrong_before - check.wrong >= fixed
            quiet = SETTLE_QUIET if shows_batch else SETTLE_LONG_QUIET
            if now - still_since >= quiet and not np.array_equal(pixels, before):
                return frame, reading
        if now > deadline:
            return frame, reading
        time.sleep(SETTLE_INTERVAL)


def _board_pixels(frame: Any, board: Rect) -> Any:
    x0, y0 = round((board.x - frame.origin[0]) * frame.scale), round(
        (board.y - frame.origin[1]) * frame.scale)
    x1, y1 = x0 + round(board.w * frame.scale), y0 + round(board.h * frame.scale)
    return frame.pixels[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)]


def _write_overlay(path: Path, rgb: Any) -> Path:
    """Written atomically (temp file + rename), as `autoplayer read --overlay` writes its own."""
    from autoplayer.commands.vision import save_png

    save_png(str(path), rgb)
    return Path(path)
