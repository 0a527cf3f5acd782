"""The game-agnostic play loop: capture, read, solve, plan, act, verify, repair, and the end.

It knows no game: everything game-shaped goes through `autoplayer.games.base.Game`.
Input only ever follows a reading the game vouched for (readers raise rather
than guess), and after every batch of input a fresh capture is read and
compared with the solution; only what is still wrong is planned again, for a
bounded number of batches.

The end of a play is the loop's, for every game: the batch that completes the
board is sent without its last move; once the rest is verified on a settled
capture, the last move goes alone, and whatever then changes beyond what it
should change is the game's answer (`play.ending`). After an answer the bot
sends nothing more.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoplayer.errors import Aborted, UserError
from autoplayer.games.base import Check, Game
from autoplayer.geometry import Rect
from autoplayer.play import ending
from autoplayer.play.experiment import run as run_experiment
from autoplayer.play.hands import DriverFactory, EarlyDriver, Hands, default_driver
from autoplayer.play.report import NotSolved, Report, Unseen, stage
from autoplayer.play.settle import Moment, observe, still_for, watched
from autoplayer.screen.input import Pace
from autoplayer.screen.source import FrameSource

SETTLE_QUIET = 0.3
"""Stillness that counts as drawn when the board shows every change the batch made."""
SETTLE_LONG_QUIET = 2.5
"""Stillness that counts as drawn when it does not (input dropped, or the game stalled)."""
SETTLE_TIMEOUT = 10.0
SETTLE_INTERVAL = 0.05
REFERENCE_QUIET = 0.2
"""Stillness of the whole window before the last move: what it is compared with."""
REFERENCE_LIMIT = 1.5
ANSWER_WAIT = 1.5
"""Seconds the game is watched after the last move when it shows nothing."""
ANSWER_QUIET = 0.3
"""Stillness of the window that ends the watch once the game has answered."""
ANSWER_LIMIT = 4.0
"""Longest watch (an answer that pulses never settles)."""
ANSWER_POLL = 0.02
"""Captures this far apart while watching for the answer (a flash lasts ~0.1 s)."""


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

    def over_budget() -> None:
        if deadline_perf is not None and time.perf_counter() > deadline_perf:
            raise Aborted("aborted: the time budget ran out")

    early = None if dry_run else EarlyDriver(driver_factory, pace or game.pace, deadline_perf)
    try:
        if dry_run:
            return _dry_run(game, source, report, started, overlay)
        assert early is not None
        return Loop(game, source, report, Hands(early, source, game, report, started, pace),
                    over_budget).run(started)
    finally:
        if early is not None:
            early.close(report)


def _dry_run(game: Game[Any, Any, Any], source: FrameSource, report: Report, started: float,
             overlay: Path | None) -> Report:
    with stage(report, "capture"):
        frame = source.grab()
    with stage(report, "read"):
        reading = game.read(frame)
    try:
        with stage(report, "solve"):
            solved = game.solve(reading)
    except UserError:
        if overlay is not None:
            report.overlay = _write_overlay(overlay, game.overlay(frame, reading, None))
        raise
    report.note = solved.note
    with stage(report, "plan"):
        gestures, assumed = game.outline(reading, solved.solution)
        report.note = "; ".join(n for n in (report.note, assumed) if n)
        report.planned = len(gestures)
    if overlay is not None:
        report.overlay = _write_overlay(overlay, game.overlay(frame, reading, solved.solution))
    report.total = time.perf_counter() - started
    return report


@dataclass
class Loop:
    """One play: the batches, the end, and the verdict."""

    game: Game[Any, Any, Any]
    source: FrameSource
    report: Report
    hands: Hands
    over_budget: Callable[[], None]

    def __post_init__(self) -> None:
        self.frame: Any = None
        self.reading: Any = None
        self.solution: Any = None
        self.surroundings = ending.Surroundings()
        self.finished = False
        """`finish` was asked for (the marks a game's rule for done may want)."""
        self.marked = False
        """...and gave moves."""
        self.relearned = False
        """The game learned its rules again in this play (`_relearn`): once at most."""
        self.judged = 0
        """Batches the game's rules were judged after."""

    @property
    def answered(self) -> bool:
        """The game has answered: no more input, whatever follows."""
        return self.report.answer is not None

    # -- the whole play -----------------------------------------------------
    def run(self, started: float) -> Report:
        game, report = self.game, self.report
        with stage(report, "capture"):
            self.frame = self.source.grab()
        with stage(report, "read"):
            self.reading = game.read(self.frame)
        with stage(report, "solve"):
            solved = game.solve(self.reading)
        report.note = solved.note
        report.several = bool(solved.others)
        self.solution = solved.solution
        first = game.check(self.reading, self.solution)
        if first.total == 0:
            raise UserError(f"the {game.name} read has nothing to play: no {game.unit} to "
                            "check against a solution")
        report.units, report.right_at_start = first.total, first.total - first.wrong
        report.check = first

        learned = self._learn()
        if learned is not None:
            report.learned = learned

        self._play(list(solved.others))
        report.total = time.perf_counter() - started
        check = report.check
        assert check is not None
        if report.answer is None and check.wrong:
            where = f" ({', '.join(check.details)})" if check.details else ""
            raise NotSolved(
                f"after {report.batches} batches {check.wrong} of {check.total} "
                f"{game.unit}s still differ from the solution{where}")
        if report.answer is None and check.unseen:
            raise Unseen(
                f"every {game.unit} in view is right but {check.unseen} are hidden and the "
                "game has not answered: the bot cannot tell whether it is solved")
        game.concluded(report.answer is not None, self.marked)
        return report

    def _learn(self) -> str | None:
        """The game's experiment, run when it declares one; its line for the report."""
        game, report = self.game, self.report
        steps = game.experiment(self.reading, self.solution)
        if steps is None:
            return None
        self.hands.frame, self.hands.reading = self.frame, self.reading
        with stage(report, "learn"):
            line = run_experiment(steps, self.hands)
            report.learn_presses += game.presses
            self.frame = self.hands.grab()
            self.reading = game.read(self.frame, self.reading)
        report.check = game.check(self.reading, self.solution)
        return line

    def _relearn(self) -> None:
        """After each batch, until the game has learned again once: rules it could not be
        sure of that the batch showed wrong (`Game.misfit`: kept under one window title by
        a game that takes input differently) are learned again on this board, as on a game
        never seen."""
        if self.relearned or self.report.batches <= self.judged or self.answered:
            return
        self.judged = self.report.batches
        what = self.game.misfit(self.reading)
        if what is None:
            return
        self.relearned = True
        line = self._learn()
        note = f"{what}; learned again on this board: {line}"
        self.report.learned = f"{self.report.learned}; {note}" if self.report.learned else note

    def _play(self, others: list[Any]) -> None:
        game, report = self.game, self.report
        for _ in range(game.max_batches * (1 + len(others))):
            self.over_budget()
            self._relearn()
            self._stop_if_blocked()
            with stage(report, "plan"):
                moves = game.plan(self.reading, self.solution)
            assert report.check is not None
            if report.check.covered is not None:
                # Something came over a board that is right in view, and no cell under it
                # is in doubt (else `_stop_if_blocked` stopped): the game's own doing.
                report.answer = ending.over_board(game.board(self.reading), self.frame.covers)
                return
            if not moves and report.check.wrong == 0 and not report.check.unseen:
                # The board is right and the game has not answered: it may want more
                # (every empty cell marked), or only its own picture of several.
                moves = self._more(others)
            if not moves:
                return
            if self.source.moved(self.frame):
                # The window moved since it was read: read it where it is now.
                with stage(report, "capture"):
                    self.frame = self.source.grab()
                with stage(report, "read"):
                    self.reading = game.read(self.frame, self.reading)
                continue
            if report.check.wrong - report.check.unreadable > game.fixes(moves) or \
                    game.exploring:
                self._batch(moves)
                if self.answered:
                    return
                continue
            head, last = game.last(self.reading, moves)
            if head:
                self._batch(head)
                if self.answered:
                    return
                self._stop_if_blocked()
                if report.check.wrong != game.fixes(last) or report.check.unseen:
                    continue  # the rest did not all take: plan again
            if self._last(last):
                return

    def _more(self, others: list[Any]) -> Sequence[Any]:
        game, report = self.game, self.report
        moves: Sequence[Any] = []
        if not self.finished:
            self.finished = True
            moves = game.finish(self.reading, self.solution)
            self.marked = bool(moves)
        if not moves and others:
            # No answer on this solution: the clues allow others, and a game may accept
            # only its own picture. The next one is played like the first.
            self.solution = others.pop(0)
            report.solutions_tried += 1
            moves = game.plan(self.reading, self.solution)
        if moves:
            with stage(report, "verify"):
                report.check = game.check(self.reading, self.solution)
        return moves

    # -- one batch ------------------------------------------------------------
    def _send(self, moves: Sequence[Any], *, watched: bool = False
              ) -> tuple[ending.Effect, bool]:
        """The moves' gestures; with `watched`, the game is looked at between them and
        they stop once something beyond them changes. Their effect, and whether all were
        sent."""
        game, report = self.game, self.report
        before, reading = self.frame, self.reading
        with stage(report, "plan"):
            gestures = list(game.gestures(reading, moves))
        effect = ending.effect(before.pixels.shape, game.cells(reading, moves), gestures)
        interrupt = self._interrupt(before, effect) if watched else None
        self.hands.frame, self.hands.reading = before, reading
        with stage(report, "input"):
            sent = self.hands.act(gestures, interrupt=interrupt)
        report.batches += 1
        report.units_changed += game.units(moves)
        return effect, sent

    def _batch(self, moves: Sequence[Any]) -> None:
        """A batch that does not complete the board: whatever the game redraws beside its
        cells is the game's echo of play, learned so the last move's answer stands out.
        A batch placed after the board was right (the marks a game may want) is watched
        between its gestures, and stops the moment the game answers."""
        before = self.frame
        effect, sent = self._send(moves, watched=self.finished)
        self._verify(fixed=self.game.fixes(moves))
        check = self.report.check
        assert check is not None
        if not sent or (check.covered and not check.wrong and (
                not check.unseen or self.finished)):
            # The game answered while the bot placed what its rule for done might want
            # (the board was verified right before: what lies under its answer does not
            # matter), or something came over a board right in view: no more input.
            self._answered(before, effect, self.frame)
            return
        if self.frame.pixels.shape == before.pixels.shape:
            self.surroundings.learn(before.pixels, self.frame.pixels, effect)
        self.report.wrong_after.append(check.wrong)

    def _interrupt(self, before: Any, effect: ending.Effect) -> Callable[[], bool]:
        """Whether the game has changed beyond a batch being sent (it answered)."""
        watch = ending.Watch(before, effect, self.surroundings, self.game.board(self.reading))
        return lambda: watch.look(self.source.grab(), 0.0)

    def _answered(self, before: Any, effect: ending.Effect, frame: Any) -> None:
        """The game's answer, seen between `before` and `frame`; the play is over."""
        watch = ending.Watch(before, effect, self.surroundings, self.game.board(self.reading))
        watch.look(frame, 0.0)
        answer = watch.answer()
        check = self.report.check
        assert check is not None
        if answer is None or check.wrong:
            raise NotSolved(
                "stopped: the game changed beyond the bot's moves while it was placing them"
                + (f", and {check.wrong} {self.game.unit}s in view are wrong"
                   if check.wrong else ", and the change was gone when it looked"))
        self.report.answer = answer
        self.report.answered_during = ("the marks the bot was placing" if self.finished
                                       else "the bot's batch")
        self.report.wrong_after.append(0)

    def _last(self, last: Sequence[Any]) -> bool:
        """The move that completes the board, sent alone and watched; whether the game
        answered it (then the play is over)."""
        game, report = self.game, self.report
        reference = self._reference()
        reading = self.reading
        effect, _ = self._send(last)
        watch = ending.Watch(reference, effect, self.surroundings, game.board(reading),
                             title=_title(self.source))

        def judge(m: Moment) -> bool:
            answered = watch.look(m.frame, m.waited, _title(self.source))
            if watch.since is not None:
                return m.held >= ANSWER_QUIET or (not answered and m.waited - watch.since
                                                  >= ANSWER_QUIET)
            return m.waited >= ANSWER_WAIT and m.held >= ANSWER_QUIET

        with stage(report, "verify"):
            moment = observe(self.source, judge, limit=ANSWER_LIMIT, poll=ANSWER_POLL)
        self.frame = moment.frame
        answer = watch.answer()
        if answer is not None:
            report.answer = answer
            report.wrong_after.append(0)
            self._read_after_answer(reading)
            return True
        # No answer: the board as the watch left it (still for a while, or the last move
        # never drew), read like after any batch.
        with stage(report, "verify"):
            self.reading = game.read(self.frame, reading)
            report.check = game.check(self.reading, self.solution)
        report.wrong_after.append(report.check.wrong)
        return False

    def _read_after_answer(self, reading: Any) -> None:
        """The board once the game has answered, read again where it can be: every cell
        right in view and nothing hidden is said as such; else the report says the cells
        were verified up to the last move (a dim or a dialog may hide the board)."""
        game, report = self.game, self.report
        try:
            with stage(report, "verify"):
                after = game.read(self.frame, reading)
                check = game.check(after, self.solution)
        except UserError:
            check = None
        if check is not None and not check.wrong and not check.unseen and \
                check.covered is None and check.blocked is None:
            report.check, report.all_seen = check, True
        else:
            before = report.check
            assert before is not None
            report.check = Check(0, before.total)

    def _reference(self) -> Any:
        """The window, still, just before the last move: what its answer is measured from.
        What moved meanwhile (a clock, an animation) is the game's, not an answer."""
        first = self.frame
        moment = observe(self.source, still_for(REFERENCE_QUIET), limit=REFERENCE_LIMIT,
                         poll=SETTLE_INTERVAL)
        now = moment.frame
        if now.pixels.shape == first.pixels.shape:
            self.surroundings.add(ending.changed(first.pixels, now.pixels), ending.CELL)
        self.frame = now
        return now

    # -- verifying ------------------------------------------------------------
    def _verify(self, fixed: int) -> None:
        """Capture and re-read until the board shows the solution or has stopped changing.

        Games draw input some time after it arrives (a loaded browser lags seconds
        behind a burst of clicks). Verifying a board still being drawn would "repair"
        cells that were about to be right, and on a game that toggles that breaks them.
        So a board not yet right counts as drawn once it has been still for a moment and
        shows the `fixed` units the batch should have fixed, or, when it does not, still
        for longer."""
        game, report = self.game, self.report
        board = game.board(self.reading)
        before = self.frame
        wrong_before = game.check(self.reading, self.solution).wrong
        reading = self.reading

        def judge(m: Moment) -> bool:
            nonlocal reading
            with stage(report, "verify"):
                reading = game.read(m.frame, reading)
                report.check = check = game.check(reading, self.solution)
            if check.wrong == 0 and not check.unseen:
                return True
            shows_batch = wrong_before - check.wrong >= fixed
            quiet = SETTLE_QUIET if shows_batch else SETTLE_LONG_QUIET
            now, then = watched(m.frame, board), watched(before, board)
            same = now.shape == then.shape and bool((now == then).all())
            return m.held >= quiet and not same

        with stage(report, "capture"):
            moment = observe(self.source, judge, region=board, limit=SETTLE_TIMEOUT,
                             poll=SETTLE_INTERVAL)
        self.frame, self.reading = moment.frame, reading

    def _stop_if_blocked(self) -> None:
        """Stop at once (exit 1) when the game's check says no input may follow, or when
        a batch left the board no closer to the solution than the one before."""
        game, check = self.game, self.report.check
        if check is None:
            return
        if check.blocked is not None:
            raise NotSolved(f"stopped: {check.blocked}")
        if check.covered is not None and check.wrong:
            raise NotSolved(f"stopped: {check.covered} while {check.wrong} {game.unit}s in "
                            "view are wrong; the bot sends no input while something covers "
                            "the board")
        if check.covered is not None and check.unseen:

            raise Unseen(f"stopped: {check.covered}; every {game.unit} in view is right but "
                         f"{check.unseen} are hidden, and the game has not answered the "
                         "bot's last move: the bot cannot tell whether it is solved")
        after = self.report.wrong_after
        if game.monotone and not game.exploring and len(after) >= 2 and \
                after[-1] >= after[-2] > 0:
            where = f" ({', '.join(check.details)})" if check.details else ""
            hint = game.why_stuck()
            raise NotSolved(
                f"stopped: batch {len(after)} did not bring the board closer to the solution "
                f"({after[-2]} {game.unit}s wrong before it, {after[-1]} after){where}"
                + (f"; {hint}" if hint else ""))


def _title(source: FrameSource) -> str | None:
    window = getattr(source, "window", None)
    return getattr(window, "title", None)


def _write_overlay(path: Path, rgb: Any) -> Path:
    """Written atomically (temp file + rename), as `autoplayer read --overlay` writes its own."""
    from autoplayer.commands.vision import save_png

    save_png(str(path), rgb)
    return Path(path)


__all__ = ["Check", "Loop", "NotSolved", "Rect", "Report", "play"]
