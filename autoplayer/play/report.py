"""What one play did and how it ended, as lines for a person and as plain data."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autoplayer.errors import UserError

if TYPE_CHECKING:
    from autoplayer.games.base import Check
    from autoplayer.play.ending import Answer

STAGES = ("capture", "read", "solve", "learn", "plan", "input", "verify")


class NotSolved(UserError):
    """A cell the bot can see is wrong and the game has not answered (or the game did
    something the bot cannot explain): exit 1."""

    exit_code = 1


class Unseen(UserError):
    """Every cell in view is right but some are hidden and the game has not answered: the
    bot can say neither solved nor failed (exit 4)."""

    exit_code = 4


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
    several: bool = False
    """The clues allow more than one solution."""
    answer: Answer | None = None
    """The game's answer to the bot's last move (a dialog, a dim, a restyled board)."""
    answered_during: str = "the last move"
    """What the game answered: the last move, or the marks the bot was placing."""
    all_seen: bool = False
    """After the answer, every unit was read again and verified (nothing hid the board)."""

    @property
    def solved(self) -> bool:
        """The game answered the move that completed the board, or every unit was verified."""
        return self.answer is not None or (self.check is not None and self.check.wrong == 0
                                           and not self.check.unseen)

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data (for `play --json`)."""
        check, answer = self.check, self.answer
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
            "unseen": None if check is None else check.unseen,
            "solved": None if self.dry_run else self.solved,
            "answer": None if answer is None else answer.as_dict(),
            "all_seen": self.all_seen,
            "overlay": None if self.overlay is None else str(self.overlay),
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
            out.extend(self._verdict())
        if self.overlay is not None:
            out.append(f"overlay: {self.overlay}")
        times = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in self.stages.items())
        out.append(f"time: {times}; total {self.total:.2f} s")
        if self.first_input is not None:
            out.append(f"first input after {self.first_input * 1000:.0f} ms")
        return out

    def _verdict(self) -> list[str]:
        check = self.check
        assert check is not None
        which = ("the solution" if self.solutions_tried == 1 else
                 f"solution {self.solutions_tried} of the clues' solutions")
        out = []
        if self.answer is not None:
            out.append(f"verified: every {self.unit} verified against {which}" if self.all_seen
                       else f"verified: every other {self.unit} verified against {which} "
                       "before the last move")
            out.append(f"solved; the game answered {self.answered_during} with "
                       f"{self.answer.words()}")
            if self.several:
                out.append("note: the clues allow several solutions; the game's answer shows "
                           "it took the last move, not that this was the picture it wanted")
            return out
        if check.wrong == 0 and not check.unseen:
            out.append(f"verified: every {self.unit} verified against {which}")
            out.append("board verified; the game gave no sign" + (
                f" on any of the {self.solutions_tried} solutions played"
                if self.solutions_tried > 1 else ""))
        elif check.wrong == 0:
            out.append(f"verified: every {self.unit} in view right; {check.unseen} hidden")
        else:
            out.append(f"verified: {check.wrong} {self.unit}s still wrong")
        return out


@contextmanager
def stage(report: Report, name: str) -> Iterator[None]:
    """Time spent in `name`, added to the report."""
    t = time.perf_counter()
    try:
        yield
    finally:
        report.stages[name] += time.perf_counter() - t
