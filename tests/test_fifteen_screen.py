"""Reading the 15-puzzle from pictures, and the back-end's planning, without a display.

Tatham's Fifteen renders any game ID headless (`sgt-fifteen --screenshot`), so
every tile's true number is known; the bundled page is rendered by headless
Chromium (a headless picture equals the live window pixel for pixel, see
test_webgame_live). Boards are random (seeded), sizes 3x3 to 6x6.
"""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import numpy as np
import pytest
from desktop import FIFTEEN, needs_chromium, needs_fifteen

from autoplayer.errors import InputError, UserError
from autoplayer.games.fifteen.model import Board, goal, is_solvable
from autoplayer.geometry import Click, Move


def random_board(width: int, height: int, seed: int) -> Board:
    """A random solvable board (two tiles swapped when the shuffle is not)."""
    cells = list(range(width * height))
    random.Random(seed).shuffle(cells)
    board = Board(width, height, tuple(cells))
    if not is_solvable(board):
        i, j = [k for k, t in enumerate(cells) if t][:2]
        cells[i], cells[j] = cells[j], cells[i]
        board = Board(width, height, tuple(cells))
    return board


def tatham_picture(board: Board, tmp_path: Path, tile: int | None = None) -> np.ndarray:
    from PIL import Image

    out = tmp_path / f"{board.width}x{board.height}-{tile}.png"
    env = {**os.environ} if tile is None else {**os.environ, "FIFTEEN_TILESIZE": str(tile)}
    subprocess.run([FIFTEEN, "--screenshot", str(out), board.spec()], env=env, check=True,
                   capture_output=True, timeout=30)
    return np.asarray(Image.open(out).convert("RGB"))


# --- Tatham's Fifteen ------------------------------------------------------------------
@needs_fifteen
@pytest.mark.parametrize("width,height,seed,tile", [
    (3, 3, 1, None), (3, 3, 2, None), (4, 4, 3, None), (4, 4, 4, None), (4, 4, 5, 32),
    (5, 5, 6, None), (6, 6, 7, None), (6, 6, 8, 40), (3, 5, 9, None), (6, 4, 10, 64),
    # At 80 px, Sans Bold "6" binarised at the first ink threshold reads as "8": the board
    # does not validate, and the next threshold reads it right.
    (5, 5, 15, 80), (6, 6, 16, 80), (4, 4, 17, 128),
    (2, 2, 18, None), (2, 5, 19, None), (5, 2, 20, None),
])
def test_reads_every_tile_of_tathams_fifteen(width: int, height: int, seed: int,
                                             tile: int | None, tmp_path: Path) -> None:
    from autoplayer.games.fifteen.reader import learn_templates, read_fifteen

    board = random_board(width, height, seed)
    picture = tatham_picture(board, tmp_path, tile)
    reading = read_fifteen(picture)
    assert reading.board == board
    # The gap's rectangle is where the picture shows no tile: plain background.
    gap = reading.gap_rect
    assert picture[gap.y:gap.bottom, gap.x:gap.right].std() < 1.0
    # Read again with templates learned from the first reading: the same board, surely read.
    again = read_fifteen(picture, learn_templates(reading), reading.ink_share)
    assert again.board == board
    assert min(n.confidence for n in again.numbers if n is not None) > 0.5


@needs_fifteen
def test_the_solved_board_reads_as_the_goal(tmp_path: Path) -> None:
    from autoplayer.games.fifteen.reader import read_fifteen

    assert read_fifteen(tatham_picture(goal(4, 4), tmp_path)).board.is_solved()


@needs_fifteen
def test_a_wiped_tile_is_refused_naming_its_region(tmp_path: Path) -> None:
    """Two cells without a number: the reader says where, and does not guess."""
    from autoplayer.games.fifteen.reader import read_fifteen

    board = random_board(4, 4, 11)
    picture = tatham_picture(board, tmp_path).copy()
    first = read_fifteen(picture)
    victim = next(i for i, t in enumerate(board.cells) if t)
    r = first.cells[victim]
    picture[r.y + 3:r.bottom - 3, r.x + 3:r.right - 3] = picture[r.y + 3, r.x + 3]
    with pytest.raises(InputError) as err:
        read_fifteen(picture)
    assert "2 cells" in err.value.message and "exactly one gap" in err.value.message
    assert err.value.region is not None
    x, y, w, h = err.value.region
    assert x <= r.x and y <= r.y and x + w >= r.right and y + h >= r.bottom


@needs_fifteen
def test_a_duplicated_tile_is_refused_naming_both(tmp_path: Path) -> None:
    from autoplayer.games.fifteen.reader import read_fifteen

    board = random_board(4, 4, 12)
    picture = tatham_picture(board, tmp_path).copy()
    first = read_fifteen(picture)
    tiles = [i for i, t in enumerate(board.cells) if t]
    src, dst = first.cells[tiles[0]], first.cells[tiles[1]]
    picture[dst.y:dst.bottom, dst.x:dst.right] = picture[src.y:src.bottom, src.x:src.right]
    with pytest.raises(InputError) as err:
        read_fifteen(picture)
    assert f"both read {board.cells[tiles[0]]}" in err.value.message
    assert err.value.region is not None


def test_a_picture_without_a_board_is_refused() -> None:
    from autoplayer.games.fifteen.reader import read_fifteen

    with pytest.raises(InputError) as err:
        read_fifteen(np.full((200, 300, 3), 230, np.uint8))
    assert err.value.region == (0, 0, 300, 200)


# --- the bundled page ----------------------------------------------------------------------
@needs_chromium
@pytest.mark.parametrize("width,height,seed,tile", [
    (3, 3, 1, 72), (4, 4, 2, 72), (4, 4, 3, 48), (5, 5, 4, 56), (6, 6, 5, 48), (5, 3, 6, 40),
])
def test_reads_every_tile_of_the_bundled_page(game_server, width: int, height: int, seed: int,
                                              tile: int) -> None:
    from autoplayer.games.fifteen.reader import read_fifteen
    from autoplayer.webgame.browser import headless_screenshot

    url = game_server.url(game="fifteen", size=(width, height), seed=seed, tile=tile,
                          session=f"r{seed}")
    reading = read_fifteen(headless_screenshot(url, 800, 700))
    assert reading.board == game_server.puzzle(f"r{seed}")


# --- the page's boards -------------------------------------------------------------------
def test_page_boards_are_solvable_shuffled_and_repeatable() -> None:
    from autoplayer.webgame.fifteen import seeded_board

    for w, h in [(3, 3), (4, 4), (6, 6), (5, 3)]:
        boards = [seeded_board(w, h, s) for s in range(5)]
        assert all(is_solvable(b) and not b.is_solved() for b in boards)
        assert len({b.cells for b in boards}) == 5
        assert seeded_board(w, h, 3) == boards[3]


def test_page_refuses_sizes_it_does_not_draw() -> None:
    from autoplayer.webgame.server import GameServer

    with GameServer() as s:
        for bad in ("2x2", "7x7", "4x", "4x4x4"):
            with pytest.raises(UserError):
                s.open_session("fifteen", {"size": bad})
        with pytest.raises(UserError):
            s.open_session("fifteen", {"size": "4x4", "tile": "10"})


# --- the back-end's planning ---------------------------------------------------------------
@needs_fifteen
def test_plan_follows_the_path_and_re_solves_off_it(tmp_path: Path) -> None:
    from autoplayer.games.fifteen.game import FifteenGame, Reading
    from autoplayer.games.fifteen.planner import play_slides
    from autoplayer.games.fifteen.reader import read_fifteen

    board = random_board(4, 4, 13)
    shown = read_fifteen(tatham_picture(board, tmp_path))
    game = FifteenGame(solver="fast", clicks_per_batch=5)
    reading = Reading(shown)
    path = game.solve(reading).solution
    assert path.boards[0] == board and path.goal.is_solved()

    steps = game.plan(reading, path)
    assert 1 <= len(steps) <= 5
    after = play_slides(board, [s.slide for s in steps])
    assert after == steps[-1].after and path.position(after) is not None
    assert game.fixes(steps) == (sum(1 for a, b in zip(board.cells, goal().cells, strict=True)
                                     if a and a != b)
                                 - sum(1 for a, b in zip(after.cells, goal().cells, strict=True)
                                       if a and a != b))
    # Every click is on the centre of a tile in the gap's row or column, inside the board.
    gestures = game.gestures(reading, steps[:1])
    assert gestures == [Click(*shown.centre(steps[0].slide.cell))]
    first = steps[0].slide.cell
    assert first // 4 == board.gap // 4 or first % 4 == board.gap % 4
    assert shown.rect.contains(gestures[0].x, gestures[0].y)

    # A board the screen shows off the path (a click lost, the user played): solved again.
    off = board.move(next(m for m in board.legal_moves()
                          if path.position(board.move(m)) is None))
    replanned = game.plan(Reading(_with_board(shown, off)), path)
    assert replanned and replanned[0].before == off
    # ... and the next batch goes on along that detour: the clicks continue where it left off.
    further = game.plan(Reading(_with_board(shown, replanned[-1].after)), path)
    assert further[0].before == replanned[-1].after
    assert play_slides(off, [s.slide for s in replanned + further]) == further[-1].after
    assert game.plan(Reading(_with_board(shown, goal())), path) == []


def _with_board(shown, board: Board):
    from dataclasses import replace

    return replace(shown, board=board)


@needs_fifteen
def test_nothing_is_planned_from_an_unreadable_board(tmp_path: Path) -> None:
    from autoplayer.games.fifteen.game import FifteenGame, Reading
    from autoplayer.games.fifteen.reader import read_fifteen

    shown = read_fifteen(tatham_picture(random_board(3, 3, 14), tmp_path))
    game = FifteenGame(solver="fast")
    path = game.solve(Reading(shown)).solution
    stale = Reading(shown, InputError("tile at row 1 column 1 ...", region=(1, 2, 3, 4)))
    assert game.check(stale, path).wrong >= 1
    with pytest.raises(InputError) as err:
        game.plan(stale, path)
    assert err.value.region == (1, 2, 3, 4)


def test_the_window_names_the_game() -> None:
    from types import SimpleNamespace

    from autoplayer.commands.play import game_for

    tatham = SimpleNamespace(title="Fifteen", wm_class=("sgt-fifteen", "Sgt-fifteen"))
    page = SimpleNamespace(title="Fifteen – 4×4 #3", wm_class=("chromium", "Chromium"))
    pattern = SimpleNamespace(title="Pattern", wm_class=("sgt-pattern", "Sgt-pattern"))
    assert game_for(None, tatham) == game_for(None, page) == "fifteen"
    assert game_for(None, pattern) == game_for(None, None) == "nonogram"
    assert game_for("nonogram", tatham) == "nonogram"


# --- the whole loop against a simulated Tatham's Fifteen ------------------------------------
class SimulatedFifteen:
    """Tatham's own pictures of a board the test keeps (`sgt-fifteen --screenshot`), and a
    driver whose clicks slide runs as the game does; `lose` drops those clicks (by number)."""

    def __init__(self, board: Board, tmp_path: Path, lose: set[int]) -> None:
        from autoplayer.games.fifteen.reader import read_fifteen

        self.board, self.tmp_path, self.lose = board, tmp_path, lose
        self.cells = read_fifteen(tatham_picture(board, tmp_path)).cells
        self.clicks = 0
        self.events = 0
        self.bounds = None

    # FrameSource
    def grab(self):
        from autoplayer.screen.capture import Frame

        return Frame(tatham_picture(self.board, self.tmp_path))

    def moved(self, frame) -> bool:
        return False

    def close(self) -> None:
        pass

    # input driver
    def start(self) -> SimulatedFifteen:
        return self

    def stop(self) -> None:
        pass

    def perform(self, gestures) -> None:
        for g in gestures:
            if isinstance(g, Move):
                continue  # the pointer parked off the board
            assert isinstance(g, Click) and self.bounds.contains(g.x, g.y)
            self.clicks += 1
            self.events += 2
            if self.clicks in self.lose:
                continue
            cell = next(i for i, r in enumerate(self.cells) if r.contains(g.x, g.y))
            self.board = _tatham_click(self.board, cell)


def _tatham_click(board: Board, cell: int) -> Board:
    """A click on `cell`: the run between it and the gap slides, if they share a line."""
    w = board.width
    gap = board.gap
    if cell == gap or (cell // w != gap // w and cell % w != gap % w):
        return board
    step = (1 if cell > gap else -1) * (1 if cell // w == gap // w else w)
    cells = list(board.cells)
    at = gap
    while at != cell:
        cells[at] = cells[at + step]
        at += step
    cells[cell] = 0
    return Board(board.width, board.height, tuple(cells))


@needs_fifteen
@pytest.mark.parametrize("lose", [set(), {2, 9}])
def test_the_loop_solves_and_recovers_from_lost_clicks(tmp_path: Path, lose: set[int]) -> None:
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.games.fifteen.human import solve_fast
    from autoplayer.games.fifteen.planner import batch
    from autoplayer.games.fifteen.rules import Input
    from autoplayer.play import play

    start = random_board(3, 3, 31)
    planned = len(batch(start, solve_fast(start)))
    game_ = SimulatedFifteen(start, tmp_path, lose)

    def factory(bounds, pace, deadline):
        game_.bounds = bounds
        return game_

    # The input known (as from a profile): every click is the plan's. Not paced: this game
    # draws a click at once, and each capture of it is a Tatham render (slow).
    game = FifteenGame(solver="fast", rules=Input(near=True, far="run"))
    game.paced = False
    report = play(game, game_, driver_factory=factory)
    assert game_.board.is_solved()
    assert report.check is not None and report.check.wrong == 0
    assert report.gestures == game_.clicks and report.learn_presses == 0
    if lose:
        # The lost clicks left the board off the path: it was solved again from what the
        # screen showed, which took more clicks than the plan had.
        assert report.gestures > planned
    else:
        assert report.gestures == planned


@needs_fifteen
def test_the_input_is_learned_on_a_game_that_slides_runs(tmp_path: Path) -> None:
    """A click next to the gap slides that tile, then one two cells from the gap slides the
    run: the experiment stops there, in two presses."""
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.play import play

    game_ = SimulatedFifteen(random_board(3, 3, 32), tmp_path, set())

    def factory(bounds, pace, deadline):
        game_.bounds = bounds
        return game_

    game = FifteenGame(solver="fast")
    report = play(game, game_, driver_factory=factory)
    assert game_.board.is_solved()
    assert report.learn_presses == game.presses == 2
    assert game.rules is not None and game.rules.near and game.rules.far == "run"
    assert "slides the whole run" in report.learned


def test_the_servers_index_links_a_playable_fifteen_page() -> None:
    import re
    import urllib.request

    from autoplayer.webgame.server import GameServer

    with GameServer() as s:
        index = urllib.request.urlopen(s.base_url + "/", timeout=10).read().decode()
        link = re.search(r'href="(/fifteen\?[^"]+)"', index)
        assert link is not None
        page = urllib.request.urlopen(s.base_url + link[1].replace("&amp;", "&"), timeout=10)
        body = page.read().decode()
    assert page.status == 200 and "<title>Fifteen – 4×4 #1</title>" in body
    assert "/static/fifteen/game.js" in body


@needs_chromium
@pytest.mark.parametrize("size,seed", [(4, 41), (5, 42)])
def test_a_lit_tile_under_the_pointer_reads_the_same(game_server, size: int, seed: int) -> None:
    """The page lights the movable tile under the pointer (as sites do): still read exactly."""
    from autoplayer.games.fifteen.reader import read_fifteen
    from autoplayer.webgame.browser import headless_screenshot
    from autoplayer.webgame.fifteen import seeded_board

    board = seeded_board(size, size, seed)
    gap_r, gap_c = divmod(board.gap, size)
    lit = (gap_r, (gap_c + 1) % size if gap_c + 1 < size else gap_c - 1)
    plain = headless_screenshot(
        game_server.url(game="fifteen", size=(size, size), seed=seed, session=f"p{seed}"),
        800, 700)
    shown = headless_screenshot(
        game_server.url(game="fifteen", size=(size, size), seed=seed, session=f"h{seed}",
                   hover=lit), 800, 700)
    reading = read_fifteen(shown)
    assert reading.board == board
    cell = reading.cells[lit[0] * size + lit[1]]
    assert not np.array_equal(plain[cell.y:cell.bottom, cell.x:cell.right],
                              shown[cell.y:cell.bottom, cell.x:cell.right])  # it is lit
