"""What KDE's Picmi does with real pointer input, and when it says a board is solved.

The facts a bot meets on Picmi 22.12 (Debian `picmi`), each driven with xdotool
(XTEST, as a person's input) under Xvfb on a level whose solution is known
(tests/picmi.py); cell states are read from the pixels (`PicmiGame.states`),
"solved" is Picmi's own record (`PicmiGame.solved`):

- Clicks: left sets a blank cell to a box and a box back to blank, and leaves a
  cross alone; right does the same between blank and cross and leaves a box
  alone; middle does nothing. So a second identical click undoes the first,
  wherever the first changed something; a double click changes nothing.
- Drags: the press acts on its cell as a click does; the first motion into
  another cell fixes the drag to that cell's row or column (whichever it moved
  along more), and from then on every cell on the straight line from the press to
  the pointer's projection onto that line gets the same action, the cells
  skipped by a jump included, provided it was in the state the pressed cell was
  in before the press. Moving back undoes nothing; a motion that ends off the
  board is ignored (a jump off the board paints only the pressed cell).
- Solved: Picmi reads each line from both ends over boxes and crosses, stopping
  at the first blank cell; a clue block is done when one of the two readings
  takes it in whole, at the clue's length. The board is solved when it has as
  many boxes as the solution and every block is done. So the right fills alone
  are not enough, unless every block touches an edge of its line: the blanks
  must be crossed far enough to reach every block from one end (crossing every
  other cell always does it). On solving, every blank cell turns into a cross, every clue is
  drawn purple, the highlight goes, the status bar's count of actions gives way
  to a "Load New Game" button, the clock stops, and a modal message box titled
  "Board Solved! — Picmi" ("Congratulations, you have solved board 'NAME'!", OK)
  opens at once over the board (within 0.12 s of sending the click, xdotool's own
  start included); the time is written to ~/.config/picmi/picmi.conf just before.
  The board takes no input afterwards.
  Move > Solve fills in the answer the same way but is no win: nothing recorded,
  no message.
- Highlight: the row and the column of the cell the pointer last entered are
  drawn paler (cells only: the clue bars and the rest of the window do not
  change); it starts on the top-left cell and stays where it is when the pointer
  leaves the board, so no place to park the pointer clears it.
- Keys: arrows (h j k l) move the highlight, wrapping; space acts as a left
  click on the highlighted cell, x as a right click; Ctrl+Z undoes a change.

Runtime: 2 to 4 s a test, about 20 s in all (Picmi starts in about 1 s).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from desktop import needs_xdotool, needs_xvfb
from picmi import (
    BLANK,
    BOX,
    CROSS,
    LEFT,
    MIDDLE,
    RIGHT,
    PicmiGame,
    cell_state,
    make_level,
    needs_picmi,
)

from autoplayer.screen.xvfb import Xvfb

SCREEN = (1280, 1024)

PROBE = make_level(["##.#.",
                    ".###.",
                    "#...#",
                    "#####",
                    "..#.."], name="Probe board")
"""Its fills alone leave blocks not closed off from an edge: row 1's 3, row 4's 1,
column 2's 1 (the blanks around them)."""
CLOSING_MARKS = [(4, 0), (4, 1), (0, 4), (1, 4), (3, 4), (2, 0)]
"""(column, row) crosses that close off every block of PROBE once it is filled; (2, 0),
above column 2's 1, is the one without which that 1 stays open. Five cells stay blank."""
SPARSE = make_level(["........", "........", "........", "........",
                     "........", "........", "........", ".......#"], name="Sparse")
"""One box: no pattern of clicks or drags below comes near solving it."""

pytestmark = [pytest.mark.e2e, needs_picmi, needs_xvfb, needs_xdotool]


def highlighted(game: PicmiGame, picture: np.ndarray) -> np.ndarray:
    """Which blank or crossed cells are drawn highlighted: their background is pale
    (blue channel about 200) instead of green (about 100), measured in a patch below
    the middle of the cell's top edge, clear of a cross's strokes."""
    cells = game.cells
    assert cells is not None
    out = np.zeros((cells.height, cells.width), bool)
    for r in range(cells.height):
        for c in range(cells.width):
            x0, y0 = cells.left + c * cells.tile, cells.top + r * cells.tile
            patch = picture[round(y0 + 0.12 * cells.tile):round(y0 + 0.28 * cells.tile),
                            round(x0 + 0.4 * cells.tile):round(x0 + 0.6 * cells.tile), 2]
            out[r, c] = np.median(patch) > 150
    return out


def cross_of(row: int, col: int, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, bool)
    mask[row, :] = mask[:, col] = True
    return mask


def test_clicks_toggle_one_state_and_leave_the_other_alone(xserver: Xvfb,
                                                            tmp_path: Path) -> None:
    # (state before, button): (after one click, after a second identical click)
    table = {(BLANK, LEFT): (BOX, BLANK), (BLANK, RIGHT): (CROSS, BLANK),
             (BLANK, MIDDLE): (BLANK, BLANK),
             (BOX, LEFT): (BLANK, BOX), (BOX, RIGHT): (BOX, BOX), (BOX, MIDDLE): (BOX, BOX),
             (CROSS, LEFT): (CROSS, CROSS), (CROSS, RIGHT): (BLANK, CROSS),
             (CROSS, MIDDLE): (CROSS, CROSS)}
    cases = {(i % 8, i // 8): case for i, case in enumerate(table)}
    with PicmiGame(SPARSE, xserver.display, tmp_path / "picmi") as game:
        for (col, row), (state, _) in cases.items():
            if state != BLANK:
                game.click(col, row, LEFT if state == BOX else RIGHT)
        game.park()
        board = game.states()
        assert [board[r, c] for c, r in cases] == [s for s, _ in cases.values()]
        seen: list[list[int]] = [[], []]
        for clicks in seen:
            for (col, row), (_, button) in cases.items():
                game.click(col, row, button)
            game.park()
            board = game.states()
            clicks.extend(int(board[r, c]) for c, r in cases)
        assert seen == [[once for once, _ in table.values()],
                        [twice for _, twice in table.values()]], list(table)
        # A double click is two clicks: back where it was.
        for col, button in ((0, LEFT), (1, RIGHT)):
            game.click(col, 4, button, count=2)
        game.park()
        assert game.states()[4, :2].tolist() == [BLANK, BLANK]
        assert not game.solved()


def test_a_drag_acts_on_the_straight_line_from_the_press(xserver: Xvfb,
                                                          tmp_path: Path) -> None:
    with PicmiGame(SPARSE, xserver.display, tmp_path / "picmi") as game:
        cells = game.cells
        assert cells is not None
        game.drag([(c, 0) for c in range(7)])                # row 0: through every cell
        game.drag([(0, 1), (6, 1)])                          # row 1: one jump, 6 cells on
        game.click(2, 2, LEFT)
        game.click(4, 2, RIGHT)
        game.drag([(c, 2) for c in range(7)])                # row 2: over a box and a cross
        for col in (1, 3):
            game.click(col, 3, LEFT)
        game.click(4, 3, RIGHT)
        game.drag([(c, 3) for c in range(1, 6)])             # row 3: from a box
        game.drag([(c, 4) for c in (0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2)])  # row 4: there and back
        game.drag([(0, 5), (3, 6)], RIGHT)                   # row 5: a jump down and across
        for col in (0, 2):
            game.click(col, 6, LEFT)
        game.drag([(c, 6) for c in range(4)], RIGHT)         # row 6: right from a box
        game.move_to_cell(2, 7)                              # row 7: a jump off the board
        game.press(LEFT)
        time.sleep(0.03)
        game.move(cells.right + 3 * cells.tile, cells.centre(2, 7)[1])
        time.sleep(0.03)
        game.release(LEFT)
        game.park()
        board = game.states()[:, :7]
    B, X, _ = BOX, CROSS, BLANK
    assert board.tolist() == [
        [B, B, B, B, B, B, B],   # every cell entered
        [B, B, B, B, B, B, B],   # the same from a single motion
        [B, B, B, B, X, B, B],   # the box stays (no toggle), the cross stays
        [_, _, _, _, X, _, _],   # from a box: boxes cleared, blanks and crosses left
        [B, B, B, B, B, B, B],   # coming back undoes nothing
        [X, X, X, X, _, _, _],   # the row it moved along more; (3, 6) untouched
        [B, _, B, _, _, _, _],   # right from a box: the box stays, nothing else happens
        [_, _, B, _, _, _, _],   # the motion off the board is ignored
    ]
    assert not game.solved()


def test_fills_alone_are_not_solved_closing_crosses_are(xserver: Xvfb, tmp_path: Path) -> None:
    with PicmiGame(PROBE, xserver.display, tmp_path / "picmi") as game:
        cells = game.cells
        assert cells is not None
        fills = [(c, r) for r, c in zip(*np.nonzero(PROBE.grid), strict=True)]
        for col, row in fills:
            game.click(col, row, LEFT)
        game.park()
        assert (game.states() == PROBE.grid * BOX).all()
        assert not game.wait_solved(0.5)
        assert game.solved_dialog() is None
        for col, row in CLOSING_MARKS[:-1]:
            game.click(col, row, RIGHT)
        assert not game.wait_solved(0.5)
        assert game.solved_dialog() is None

        start = time.monotonic()
        game.click(*CLOSING_MARKS[-1], RIGHT)
        assert game.wait_solved(5)
        took = time.monotonic() - start
        assert took < 2, f"Picmi recorded the win {took:.2f} s after the last click"
        assert game.solved_dialog() is not None   # it covers the board: read it once gone
        game.dismiss_solved()

        # Every blank cell became a cross, the highlight is gone, the board is deaf.
        expected = np.where(PROBE.grid == 1, BOX, CROSS)
        after = game.settle()
        assert (game.states(after) == expected).all()
        assert not highlighted(game, after).any()
        for (col, row), button in (((0, 1), LEFT), ((1, 2), RIGHT), ((0, 0), LEFT)):
            game.click(col, row, button)
        game.park()
        assert (game.states() == expected).all()
        assert game.solved() and game.solved_dialog() is None


def test_fills_alone_solve_a_board_whose_blocks_all_touch_an_edge(xserver: Xvfb,
                                                                   tmp_path: Path) -> None:
    level = make_level(["##.", "#..", "..."], name="Corner")
    with PicmiGame(level, xserver.display, tmp_path / "picmi") as game:
        for col, row in ((0, 0), (1, 0)):
            game.click(col, row, LEFT)
        assert not game.wait_solved(0.3)
        game.click(0, 1, LEFT)
        assert game.wait_solved(5)
        game.dismiss_solved()
        assert (game.states() == np.where(level.grid == 1, BOX, CROSS)).all()


def test_keys_move_the_highlight_and_act_on_its_cell(xserver: Xvfb, tmp_path: Path) -> None:
    """Arrows (or h j k l) move the highlighted cell, wrapping at the edges; space acts
    as a left click on it, x as a right click; Ctrl+Z undoes the last change."""
    with PicmiGame(SPARSE, xserver.display, tmp_path / "picmi") as game:
        game.key("Right", "Right", "Down", "space", "Left", "Left", "Left", "x",
                 "Up", "Up", "x", "x", "j", "space", "space", "space", "ctrl+z")
        game.park()
        picture = game.settle()
        board = game.states(picture)
    assert board[1, 2] == BOX and board[1, 7] == CROSS
    assert board[7, 7] == BLANK and board[0, 7] == BLANK   # crossed twice; boxed, undone
    assert (board != BLANK).sum() == 2
    assert (highlighted(game, picture)[:, 7]).all() and highlighted(game, picture)[0, 0]


def test_move_solve_shows_the_answer_but_is_no_win(xserver: Xvfb, tmp_path: Path) -> None:
    """Move > Solve fills in the solution (blanks crossed) and ends the game, but
    records nothing and shows no message: `solved` is the player's win only."""
    with PicmiGame(PROBE, xserver.display, tmp_path / "picmi") as game:
        game.key("alt+m", "s")
        time.sleep(0.5)
        assert (game.states() == np.where(PROBE.grid == 1, BOX, CROSS)).all()
        assert not game.solved() and game.solved_dialog() is None


def test_the_highlight_follows_the_last_cell_the_pointer_entered(xserver: Xvfb,
                                                                 tmp_path: Path) -> None:
    with PicmiGame(PROBE, xserver.display, tmp_path / "picmi") as game:
        cells = game.cells
        assert cells is not None
        shape = (cells.height, cells.width)
        start = game.settle()                       # pointer parked since loading
        assert (highlighted(game, start) == cross_of(0, 0, shape)).all()

        game.move_to_cell(2, 3)                     # hover only, no button
        over = game.settle()
        assert (highlighted(game, over) == cross_of(3, 2, shape)).all()
        assert (game.states(over) == BLANK).all()
        # Nothing but cells changes: the clue bars and everything above the status bar
        # (whose clock ticks) are as they were.
        scene = slice(0, round(cells.bottom) + 2)
        changed = np.abs(over[scene].astype(int) - start[scene]).sum(axis=2) > 30
        ys, xs = np.nonzero(changed)
        assert xs.min() >= cells.left - 2 and xs.max() <= cells.right + 2
        assert ys.min() >= cells.top - 2

        # Over a row's clue bar, then off the window: the highlight stays put.
        game.move(cells.left - 2 * cells.tile, cells.centre(0, 1)[1])
        assert (game.settle()[scene] == over[scene]).all()
        game.park()
        parked = game.settle()
        assert (parked[scene] == over[scene]).all()

        # A press highlights its cell's lines too, and a cross keeps the highlight.
        game.click(4, 0, RIGHT)
        game.park()
        marked = game.settle()
        assert cell_state(marked, cells, 4, 0) == CROSS
        assert (highlighted(game, marked) == cross_of(0, 4, shape)).all()
