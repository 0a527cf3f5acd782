"""Picture tiles read from captures of the bundled page (tests/data/fifteen-pictures: a 4x4
of smooth noise, a 3x3 gradient solved with the gap first, a 4x4 of noise, gradient and
shapes): the board found by its flat gap, the goal from the tiles' edges, and every tile
told apart by its picture after a slide; a tile caught half-way, look-alike tiles and a
second flat cell are refused."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from autoplayer.errors import InputError
from autoplayer.games.fifteen.goals import Goal, Unsure, infer_goal
from autoplayer.games.fifteen.picture_board import (
    find_picture_board,
    first_reading,
    identify,
    read_picture_tiles,
)
from autoplayer.games.fifteen.pictures import PictureGoal

DATA = Path(__file__).parent / "data" / "fifteen-pictures"
FIXTURES = sorted(p.stem for p in DATA.glob("*.png"))


def load(name: str) -> tuple[np.ndarray, dict]:
    rgb = cv2.imread(str(DATA / f"{name}.png"))[:, :, ::-1].copy()
    return rgb, json.loads((DATA / f"{name}.json").read_text())


def test_there_are_fixtures() -> None:
    assert len(FIXTURES) == 3


@pytest.mark.parametrize("name", FIXTURES)
def test_the_board_its_tiles_and_goal_are_the_pages(name: str) -> None:
    rgb, page = load(name)
    reading, known = first_reading(rgb)
    assert (known.grid.width, known.grid.height) == tuple(page["size"])
    assert isinstance(known.goal, PictureGoal), known.goal
    # Labels are home cells + 1: the page's own numbering, whichever corner its gap takes.
    assert list(reading.board.cells) == page["cells"]
    goal = infer_goal(reading.board)
    assert isinstance(goal, Goal) and list(goal.cells) == page["goal"]


def slid(rgb: np.ndarray, known, board, cell: int, share: float = 1.0) -> np.ndarray:
    """The capture with the tile on `cell` moved `share` of the way into the gap."""
    out = rgb.copy()
    src, dst = known.cells[cell], known.cells[board.gap]
    tile = rgb[src.y:src.bottom, src.x:src.right].copy()
    gap_colour = rgb[dst.y + dst.h // 2, dst.x + dst.w // 2]
    out[src.y:src.bottom, src.x:src.right] = gap_colour
    dx, dy = round((dst.x - src.x) * share), round((dst.y - src.y) * share)
    out[src.y + dy:src.bottom + dy, src.x + dx:src.right + dx] = tile
    return out


@pytest.mark.parametrize("name", FIXTURES)
def test_every_tile_is_told_apart_after_each_slide(name: str) -> None:
    rgb, _ = load(name)
    reading, known = first_reading(rgb)
    board, frame = reading.board, rgb
    for m in board.legal_moves()[:2] + board.legal_moves()[:1]:
        cell = board.tile_to_move(m)
        assert cell is not None
        frame = slid(frame, known, board, cell)
        board = board.move(m)
        assert identify(frame, known).board == board


@pytest.mark.parametrize("share", [0.25, 0.5, 0.75])
def test_a_tile_caught_mid_slide_is_refused(share: float) -> None:
    rgb, _ = load(FIXTURES[0])
    reading, known = first_reading(rgb)
    m = reading.board.legal_moves()[0]
    cell = reading.board.tile_to_move(m)
    assert cell is not None
    with pytest.raises(InputError, match="shows none of the tiles first seen"):
        identify(slid(rgb, known, reading.board, cell, share), known)


def look_alike_tiles() -> np.ndarray:
    """The first fixture with its second tile painted over by a copy of its first."""
    rgb, _ = load(FIXTURES[0])
    reading, known = first_reading(rgb)
    a, b = [c for i, c in enumerate(known.cells) if i != reading.board.gap][:2]
    copy = rgb.copy()
    copy[b.y:b.bottom, b.x:b.right] = rgb[a.y:a.bottom, a.x:a.right]
    return copy


def test_look_alike_tiles_leave_no_certain_goal() -> None:
    assert isinstance(read_picture_tiles(look_alike_tiles()).goal, Unsure)


def test_a_second_flat_cell_is_refused() -> None:
    rgb, _ = load(FIXTURES[0])
    reading, known = first_reading(rgb)
    cell = next(i for i in range(len(known.cells)) if i != reading.board.gap)
    r = known.cells[cell]
    copy = rgb.copy()
    copy[r.y:r.bottom, r.x:r.right] = (200, 30, 30)
    # Either the painted cell cuts the lattice short (no ring of one colour) or it is a
    # second flat cell in it: refused either way.
    with pytest.raises(InputError, match=r"cells of the .* picture board look flat|no board"):
        find_picture_board(copy)


def test_a_flat_tile_is_told_from_the_gap_by_its_colour() -> None:
    """A shapes picture with a tile of one flat colour (magenta, row 3 column 1) beside the
    gap (the panel's tan, row 3 column 3): the magenta goes on in other tiles, the tan is in
    no tile, so the tan cell is the gap (a capture of the bundled page, 4x4, seed 1)."""
    rgb = cv2.imread(str(DATA.parent / "fifteen-flat-tile-shapes-4x4.png"))[:, :, ::-1].copy()
    grid, gap = find_picture_board(rgb)
    assert (grid.width, grid.height, gap) == (4, 4, 10)
    # Paint the gap magenta too: two flat cells whose colours the picture both shows.
    r = grid.cell(2, 2)
    copy = rgb.copy()
    copy[r.y:r.bottom, r.x:r.right] = rgb[r.y, grid.cell(2, 0).x + 5]
    with pytest.raises(InputError, match="look flat and none is told apart as its gap"):
        find_picture_board(copy)


def test_no_picture_board_in_a_plain_image() -> None:
    with pytest.raises(InputError, match="no board of picture tiles found"):
        find_picture_board(np.full((200, 300, 3), 240, np.uint8))


@pytest.mark.parametrize("name", FIXTURES)
def test_the_game_reads_pictures_when_there_are_no_numbers(name: str) -> None:
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.games.fifteen.goals import solve_toward
    from autoplayer.screen.capture import Frame

    rgb, page = load(name)
    game = FifteenGame(solver="fast")
    reading = game.read(Frame(rgb))
    solved = game.solve(reading)
    assert game.goal is not None and list(game.goal.cells) == page["goal"]
    assert "picture tiles, no numbers" in solved.note and "confidence" in solved.note
    assert reading.shown.board.play(solved.solution.moves) == game.goal.board
    assert solve_toward(reading.shown.board, game.goal, "fast")[0]


def test_the_game_refuses_look_alike_tiles_before_any_input() -> None:
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.screen.capture import Frame

    game = FifteenGame(solver="fast")
    shown = game.read(Frame(look_alike_tiles()))
    with pytest.raises(InputError, match="no certain goal"):
        game.solve(shown)


def test_the_game_says_why_a_picture_board_was_refused() -> None:
    """A flat tile beside the gap's own flatness: the board of pictures is found and
    refused, and the error says so (not only that no numbers could be read)."""
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.screen.capture import Frame

    rgb, _ = load("noise-4x4-seed3")
    reading, known = first_reading(rgb)
    cell = 5 if reading.board.gap != 5 else 6  # an inner cell: the ring stays whole
    r = known.cells[cell]
    copy = rgb.copy()
    copy[r.y:r.bottom, r.x:r.right] = (200, 30, 30)
    with pytest.raises(InputError, match="2 cells of the 4x4 picture board look flat"):
        FifteenGame(solver="fast").read(Frame(copy))


def test_a_board_the_page_moved_is_found_again() -> None:
    """The bundled page's status line grows when the puzzle is solved and pushes the board
    down a few pixels: the tiles are matched where the board now is."""
    rgb, _ = load("noise-4x4-seed3")
    reading, known = first_reading(rgb)
    moved = np.empty_like(rgb)
    moved[:] = rgb[0, 0]
    moved[5:] = rgb[:-5]
    again = identify(moved, known)
    assert again.board == reading.board
    assert again.grid.ys[0][0] == known.grid.ys[0][0] + 5
