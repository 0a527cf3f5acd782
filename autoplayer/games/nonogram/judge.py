"""What a verifying capture of a nonogram shows, against what the last batch meant to do.

Pure: a reading (every cell's look, classified by the learned looks), the
batch's record and the solution in; which cells are wrong, which are hidden
under something (a window over the game, cells the bot did not press changing
together), and which show a look no press explains, out. Whether the game has
answered is not judged here: that is the play loop's (`play.ending`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from autoplayer.games.nonogram import planner
from autoplayer.games.nonogram.looks import UNEXPLAINED, Looks
from autoplayer.games.nonogram.planner import Stroke

ODD_SHARE = 0.5
"""The hover of a late frame (a lit row and column) is told from a cover only where less
than this share of the board reads unlike what the batch should have left."""
MIN_COVER = 4
"""Unpressed cells that must change together to count as covered (a dialog spans cells;
one cell changing is a cell drawn wrong)."""

Cell = tuple[int, int]


@dataclass
class Batch:
    """What the last batch of input was meant to do, to judge what the next capture shows."""

    touched: np.ndarray
    """H×W bool: cells the batch pressed (a drag presses every cell of its run)."""
    expected: dict[Cell, int]
    """The state each pressed cell should end in."""
    gesture: dict[Cell, str]
    """How each pressed cell was pressed, for the report ('a left drag from ...')."""
    before: np.ndarray
    """H×W×F: every cell's look before the batch."""
    shown_before: np.ndarray
    """H×W: every cell's state before the batch."""
    seen_right: np.ndarray
    """H×W: pressed cells a capture since the batch showed right."""

    def predicted(self) -> np.ndarray:
        """The board as the batch should leave it."""
        out = self.shown_before.copy()
        for cell, state in self.expected.items():
            out[cell] = state
        return out


def batch_record(shown: np.ndarray, looks: np.ndarray, moves: Sequence[Stroke],
                 profile: planner.Profile) -> Batch:
    """The cells a batch presses, the state each should end in, and how it is pressed."""
    touched = np.zeros(shown.shape, bool)
    state = {(r, c): int(v) for (r, c), v in np.ndenumerate(shown)}
    expected: dict[Cell, int] = {}
    gesture: dict[Cell, str] = {}
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
    return Batch(touched, expected, gesture, looks.copy(), shown.copy(),
                 np.zeros(touched.shape, bool))


def wrong_in(shown: np.ndarray, solution: np.ndarray, profile: planner.Profile) -> np.ndarray:
    """H×W bool: cells whose state is not one the solution wants under `profile`."""
    return np.array([[int(have) not in planner.wanted(int(solution[r, c]), profile)
                      for c, have in enumerate(row)] for r, row in enumerate(shown)],
                    bool).reshape(shown.shape)


@dataclass(frozen=True)
class Judgement:
    wrong: np.ndarray
    """Cells in view that are wrong (an unexplained look is not a right one)."""
    unseen: np.ndarray
    """Hidden cells the bot cannot vouch for (not last seen or made right)."""
    odd: np.ndarray
    """Cells in view showing a look no press explains."""
    covered: bool
    """Something covers part of the board: no input may follow."""
    changed_unpressed: int = 0


def judge(shown: np.ndarray, samples: np.ndarray, solution: np.ndarray, batch: Batch,
          looks: Looks, profile: planner.Profile, park: Cell, under: np.ndarray,
          covers: bool) -> Judgement:
    """The cells of a capture after `batch`: wrong, hidden, unexplained (see the module).

    `under`: cells beneath a window stacked over the game's; `park`: the cell the
    parking pointer passes (its row and column show its hover or not as the game has
    drawn the pointer: a change there is neither a cover nor a wrong cell)."""
    wrong = wrong_in(shown, solution, profile)
    odd = shown == UNEXPLAINED
    moved = looks.changed(samples, batch.before)
    lit = np.zeros(shown.shape, bool)
    lit[park[0], :] = lit[:, park[1]] = True
    others = moved & ~batch.touched & ~under & ~lit
    predicted = batch.predicted()
    unlike = float((odd | (shown != predicted)).mean())
    if not covers and others.sum() >= 2 and in_one_row_and_column(others) \
            and unlike < ODD_SHARE:
        # A row and a column lit (and the rest of the board as the batch left it): the
        # pointer's hover in a frame drawn while the game caught up with the input.
        # Those cells count wrong until the game has drawn the pointer parked.
        return Judgement(wrong | others, np.zeros_like(wrong), np.zeros_like(wrong), False)
    covered = bool(covers or others.sum() >= MIN_COVER)
    if not covered:
        batch.seen_right |= batch.touched & ~wrong & ~odd
        return Judgement(wrong, np.zeros_like(wrong), odd, False,
                         changed_unpressed=int(others.sum()))
    # Something drew over the board: the cells under a window over the game, the cells
    # it changed, any the bot cannot read, and the pressed cells within its reach that
    # do not show what the press made (a dialog's plain middle may look like a fill) are
    # hidden. A hidden cell counts as right only as the bot last saw or made it.
    made = np.zeros(shown.shape, bool)
    for cell, state in batch.expected.items():
        made[cell] = shown[cell] == state
    reach = box_around(others | under)
    hidden = odd | under | others | (batch.touched & ~made & reach)
    # A pressed cell never seen since is presumed as the batch made it only when every
    # pressed cell still in view shows exactly what its press should make (the presses
    # did what the rules say, not something else: a browser menu, then a file dialog).
    in_view = batch.touched & ~hidden
    presumed = bool(in_view.any()) and all(
        shown[cell] == state for cell, state in batch.expected.items() if in_view[cell])
    made_right = ~wrong_in(predicted, solution, profile)
    was_right = ~wrong_in(batch.shown_before, solution, profile)
    right_hidden = np.where(batch.touched,
                            batch.seen_right | (presumed & made_right)
                            | (made_right & was_right), was_right)
    return Judgement(wrong & ~hidden, hidden & ~right_hidden, np.zeros_like(wrong), True,
                     changed_unpressed=int(others.sum()))


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


def covered_cells(shape: tuple[int, int], xs: Sequence[float], ys: Sequence[float],
                  covers: Sequence[Any]) -> np.ndarray:
    """H×W bool: cells whose centre lies under a window over the game's."""
    under = np.zeros(shape, bool)
    for cover in covers:
        r = cover.rect
        cols = np.array([r.x <= x < r.right for x in xs])
        rows = np.array([r.y <= y < r.bottom for y in ys])
        under |= rows[:, None] & cols[None, :]
    return under
