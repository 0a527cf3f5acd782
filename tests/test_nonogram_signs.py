"""What a nonogram capture shows after a batch (hidden cells are unseen, never wrong), and
the play loop's judgement of the game's answer to its last move, on synthetic pictures
(no display).

A game may redraw things around its board as it is played (a miniature of the
picture, a move counter): that is no answer. Whatever else changes beyond the last
move's cells and the pointer's bands is: a window stacked over the game's, a dim, a
restyled board, a check mark beside it, a flash.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from autoplayer.games.nonogram.game import NonogramGame, Reading
from autoplayer.games.nonogram.looks import reference_looks, samples
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Puzzle
from autoplayer.games.nonogram.rules import Rules
from autoplayer.geometry import Button, Click, Move, Rect, to_screen
from autoplayer.play import ending
from autoplayer.screen.capture import Cover, Frame
from autoplayer.vision.grid import Grid

PITCH, LEFT, TOP, N = 20, 100, 100, 4
GRID = Grid(xs=tuple((LEFT + PITCH * c + 1, LEFT + PITCH * (c + 1)) for c in range(N)),
            ys=tuple((TOP + PITCH * r + 1, TOP + PITCH * (r + 1)) for r in range(N)))
BOARD = Rect(LEFT, TOP, PITCH * N, PITCH * N)
RULES = Rules(press={(UNKNOWN, Button.LEFT): FILLED, (FILLED, Button.LEFT): UNKNOWN,
                     (UNKNOWN, Button.RIGHT): EMPTY, (EMPTY, Button.RIGHT): UNKNOWN},
              drag="line", done="sign")
SOLUTION = np.full((N, N), EMPTY, np.int8)
SOLUTION[0, :2] = FILLED


@dataclass(frozen=True)
class Raw:
    """The part of the reader's result the back-end re-reads with."""

    grid: Grid
    state: np.ndarray


def picture(filled: tuple[tuple[int, int], ...] = (), *, ground: int = 120, blank: int = 230,
            fill: int = 0) -> np.ndarray:
    """A 200x200 window: grey, white cells, black filled ones (or the levels given)."""
    pixels = np.full((200, 200, 3), ground, np.uint8)
    for r, (y0, y1) in enumerate(GRID.ys):
        for c, (x0, x1) in enumerate(GRID.xs):
            pixels[y0:y1, x0:x1] = fill if (r, c) in filled else blank
    return pixels


def fill(pixels: np.ndarray, x: int, y: int, w: int, h: int, value: int) -> np.ndarray:
    out = pixels.copy()
    out[y:y + h, x:x + w] = value
    return out


def started() -> tuple[NonogramGame, Reading]:
    """A game with known rules and looks, and the first batch (fill row 1's two cells)
    planned and recorded as sent."""
    game = NonogramGame(None, rules=RULES)
    blank = picture()
    shown = np.full((N, N), UNKNOWN, np.int8)
    first = Reading(Puzzle(((2,), (), (), ()), ((1,), (1,), (), ())), shown,
                    xs=tuple((a + b - 1) / 2 for a, b in GRID.xs),
                    ys=tuple((a + b - 1) / 2 for a, b in GRID.ys),
                    grid=BOARD, raw=Raw(GRID, shown), pixels=blank)
    game.looks = reference_looks(samples(blank, GRID)).with_look(
        FILLED, samples(picture(((0, 0),)), GRID)[0, 0])
    reading = game.read(Frame(blank), first)
    game.gestures(reading, game.plan(reading, SOLUTION))
    return game, reading




def last_move_watch(reference: np.ndarray, echo: tuple[np.ndarray, np.ndarray] | None = None
                    ) -> ending.Watch:
    """The loop's watch after a click on cell (0, 1), measured from `reference`; `echo`: a
    batch before it (before, after) whose change beside its cells is the game's echo."""
    cell = Rect(LEFT + PITCH, TOP, PITCH, PITCH)
    click = Click(LEFT + PITCH + PITCH // 2, TOP + PITCH // 2)
    park = (Move(LEFT + PITCH * N - 10, TOP + PITCH * N - 10), Move(195, 195))
    effect = ending.effect(reference.shape, [cell], [click, *park])
    surroundings = ending.Surroundings()
    if echo is not None:
        before, after = echo
        first = ending.effect(before.shape, [Rect(LEFT, TOP, PITCH, PITCH)],
                              [Click(LEFT + PITCH // 2, TOP + PITCH // 2), *park])
        surroundings.learn(before, after, first)
    return ending.Watch(Frame(reference), effect, surroundings, BOARD)


def test_the_games_echo_of_the_board_around_it_is_no_answer() -> None:
    """A miniature of the picture redraws as the board is played: the batch before the
    last move taught where, so the last move's echo there is no answer."""
    before = picture()
    one = fill(picture(((0, 0),)), 10, 130, 30, 20, 0)  # the miniature, first cell
    two = fill(fill(picture(((0, 0), (0, 1))), 10, 130, 30, 20, 0), 40, 130, 15, 20, 40)
    watch = last_move_watch(one, echo=(before, one))
    assert not watch.look(Frame(two), 0.1)
    assert watch.answer() is None
    # Without having seen the echo, the same change beside the board is taken for news.
    assert last_move_watch(one).look(Frame(two), 0.1)


def test_what_the_last_move_should_change_is_no_answer() -> None:
    """Its cell, and the hover tint of its row and column (the clues included)."""
    reference = picture(((0, 0),))
    after = picture(((0, 0), (0, 1)))
    after[TOP:TOP + PITCH, 0:LEFT] = 200          # the row's clues lit
    after[0:TOP, LEFT + PITCH:LEFT + 2 * PITCH] = 200  # the column's clues lit
    watch = last_move_watch(reference)
    assert not watch.look(Frame(after), 0.1) and watch.answer() is None


def test_a_dim_over_the_window_is_an_answer_even_on_a_dark_board() -> None:
    # Light fills on a dark board: a dim moves the ground and the blanks too little to
    # count, the fills (and light clue digits) far more.
    others = ((0, 0), (2, 0), (2, 2), (3, 3))
    reference = picture(others, ground=20, blank=40, fill=200)
    dimmed = (picture((*others, (0, 1)), ground=20, blank=40, fill=200) * 0.5
              ).astype(np.uint8)
    watch = last_move_watch(reference)
    assert watch.look(Frame(dimmed), 0.2)
    answer = watch.answer()
    assert answer is not None and answer.lasting
    assert answer.words().startswith("a change over")


def test_a_box_over_the_board_and_a_grey_page_is_an_answer() -> None:
    reference = picture(((0, 0),))
    after = (picture(((0, 0), (0, 1))) * 0.5).astype(np.uint8)
    after = fill(after, LEFT + 20, TOP + 30, 40, 30, 250)  # "Complete!"
    watch = last_move_watch(reference)
    assert watch.look(Frame(after), 0.3)
    answer = watch.answer()
    assert answer is not None
    assert answer.words().startswith("a change over its whole window")


def test_a_check_mark_beside_the_board_is_an_answer() -> None:
    reference = picture(((0, 0),))
    after = fill(picture(((0, 0), (0, 1))), 5, 130, 20, 20, 0)
    watch = last_move_watch(reference)
    assert watch.look(Frame(after), 0.3)
    answer = watch.answer()
    assert answer is not None and answer.words().startswith("a change beside the board")
    assert answer.where == Rect(5, 130, 20, 20)


def test_a_flash_that_comes_and_goes_is_an_answer() -> None:
    reference = picture(((0, 0),))
    right = picture(((0, 0), (0, 1)))
    flash = fill(right, LEFT, TOP + PITCH, PITCH * N, PITCH * (N - 1), 255 - 230)
    watch = last_move_watch(reference)
    assert not watch.look(Frame(right), 0.05)
    assert watch.look(Frame(flash), 0.10)
    assert not watch.look(Frame(right), 0.25)
    answer = watch.answer()
    assert answer is not None and not answer.lasting and "gone again" in answer.words()


def test_a_window_over_the_game_is_an_answer_named_by_its_title() -> None:
    reference = picture(((0, 0),))
    box = Rect(LEFT + 25, TOP + 25, 70, 50)
    covered = fill(picture(((0, 0), (0, 1))), box.x, box.y, box.w, box.h, 60)
    watch = last_move_watch(reference)
    assert watch.look(Frame(covered, covers=(Cover(box, "Board Solved! — Game"),)), 0.2)
    answer = watch.answer()
    assert answer is not None
    assert answer.words().startswith("a window over it ('Board Solved! — Game')")


def test_cells_under_a_window_over_the_game_are_unseen_never_wrong() -> None:
    """Under a window (a menu) the cells the batch made right and never saw count as made
    only where every pressed cell in view shows its press; the rest are unseen."""
    game, reading = started()
    box = Rect(LEFT + 25, TOP - 5, 70, 50)  # over cell (0, 1) and its neighbours
    covered = fill(picture(((0, 0),)), box.x, box.y, box.w, box.h, 60)
    check = game.check(game.read(Frame(covered, covers=(Cover(box, "Menu"),)), reading),
                       SOLUTION)
    assert check.wrong == 0 and check.covered is not None
    assert check.unseen == 0  # (0, 0) in view shows its press: (0, 1) presumed made
    lost = fill(picture(), box.x, box.y, box.w, box.h, 60)  # (0, 0) in view, not filled
    check = game.check(game.read(Frame(lost, covers=(Cover(box, "Menu"),)), reading),
                       SOLUTION)
    assert check.wrong == 1 and check.covered is not None
    assert check.unseen == 1 and check.details == ("row 1 column 1",)


def test_a_lit_row_and_column_drawn_late_is_not_settled() -> None:
    game, reading = started()
    late = picture(((0, 0), (0, 1)), blank=230)
    late[GRID.ys[2][0]:GRID.ys[2][1], LEFT:LEFT + PITCH * N] = 200  # row 3 lit
    late[TOP:TOP + PITCH * N, GRID.xs[2][0]:GRID.xs[2][1]] = 200     # column 3 lit
    check = game.check(game.read(Frame(late), reading), SOLUTION)
    assert check.wrong > 0 and check.covered is None


def test_the_parking_pointer_rests_on_its_corner_cell_before_it_leaves() -> None:
    """A toolkit that merges queued motions (Qt) only sees the pointer enter the corner
    cell when it stays there a moment; the rest survives the move to the screen."""
    game, reading = started()
    route = game.board_for(reading).park
    assert route[0].dwell > 0 and route[-1].dwell == 0
    assert to_screen(route[0], (1000, 500)) == replace(route[0], x=route[0].x + 1000,
                                                       y=route[0].y + 500)
    assert to_screen(Move(1, 2, 0.25), (10, 10)) == Move(11, 12, 0.25)
