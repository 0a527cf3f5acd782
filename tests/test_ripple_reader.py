"""The Ripple Effect reader on the bundled page rendered by real headless Chromium.

Every look (theme x border x lines x font, with the entered-digit look, pencil
marks, cursor and cell size varied along) on boards from 4x4 to 15x15: the
rooms and the givens must come out exactly as the server made them. Started
games (values entered, in colour or in a lighter weight) must come out with
givens and entered values told apart. A nonogram page is not taken for a
Ripple board.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from desktop import needs_chromium

from autoplayer.errors import InputError
from autoplayer.games.ripple.model import Puzzle
from autoplayer.games.ripple.reader import UnreadableDigits, read_ripple, unique_solution
from autoplayer.vision.templates import every_template_set

pytestmark = [pytest.mark.e2e, needs_chromium]

VIEW = (1000, 1100)
SIZES = (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
CELLS = (32, 36, 40, 44, 48, 52, 56)

LOOKS = [
    dict(theme=theme, border=border, lines=lines, font=font,
         entered=("colour", "weight")[k % 2], pencil=("none", "corners")[(k // 2) % 2],
         size=SIZES[k % len(SIZES)], cell=CELLS[k % len(CELLS)], seed=100 + k,
         cursor=k % 3 == 0)
    for k, (theme, border, lines, font) in enumerate(itertools.product(
        ("light", "dark"), ("thick", "colour"), ("thin", "dotted"), ("sans", "serif", "mono")))
]
"""Every theme x border x lines x font, each with its own size, cell, note and cursor look."""


@pytest.fixture(scope="module")
def server() -> Any:
    from autoplayer.webgame.browser import close_shared_browser
    from autoplayer.webgame.server import GameServer

    with GameServer() as s:
        yield s
    close_shared_browser()


def _shoot(server: Any, **params: Any) -> tuple[np.ndarray, Any, dict[str, Any]]:
    from autoplayer.webgame.browser import headless_screenshot
    from autoplayer.webgame.server import new_session_id

    session = new_session_id()
    url = server.url(game="ripple", session=session, **params)
    pixels = headless_screenshot(url, *VIEW)
    return pixels, server.puzzle(session), server.layout(session)


def _read(pixels: np.ndarray) -> Any:
    return read_ripple(pixels, fallbacks=every_template_set(), accept=unique_solution)


def _rooms(puzzle: Puzzle) -> tuple[int, ...]:
    rows = [puzzle.rooms[r * puzzle.cols:(r + 1) * puzzle.cols] for r in range(puzzle.rows)]
    return Puzzle.build(rows, [[0] * puzzle.cols] * puzzle.rows).rooms


@pytest.mark.parametrize("look", LOOKS, ids=lambda k: "-".join(
    str(k[p]) for p in ("theme", "border", "lines", "font", "size", "cell")))
def test_rooms_and_givens_exact(server: Any, look: dict[str, Any]) -> None:
    params = dict(look)
    size, cursor = params.pop("size"), params.pop("cursor")
    if cursor:
        params["cursor"] = (size // 2, size // 2)
    pixels, puzzle, layout = _shoot(server, size=(size, size), **params)
    reading = _read(pixels)
    assert (reading.rows, reading.cols) == (puzzle.rows, puzzle.cols)
    assert reading.puzzle.rooms == _rooms(puzzle)
    assert reading.puzzle.givens == puzzle.givens
    assert not any(reading.entered)
    # The lattice is where the page drew it (within a pixel at the frame).
    board = layout["board"]
    assert abs(reading.lattice.xs[0] - board["x"]) <= 1
    assert abs(reading.lattice.ys[-1] - (board["y"] + board["h"])) <= 1


@pytest.mark.parametrize("theme,entered,font,sure", [
    ("light", "colour", "sans", True), ("dark", "colour", "serif", True),
    ("dark", "weight", "sans", True),
    # Told by weight alone, a digit drawn one way only is placed by the other digits'
    # strokes, which their shapes make differ by up to 1.4 in one weight (a serif's); this
    # mono font's bold is 1.3 times its regular: such a digit is refused, never guessed.
    ("light", "weight", "mono", False), ("dark", "weight", "serif", False),
])
def test_entered_values_told_from_givens(server: Any, theme: str, entered: str,
                                         font: str, sure: bool) -> None:
    import re

    from autoplayer.games.ripple.solver import solve
    from autoplayer.webgame.ripple import seeded_puzzle, values_param

    puzzle = seeded_puzzle(8, 8, 7)
    solution = solve(puzzle).solutions[0]
    # Every third empty cell entered, right; one of them wrong (another legal value).
    values = [0] * len(solution)
    empties = [i for i, g in enumerate(puzzle.givens) if not g]
    for k, i in enumerate(empties[::3]):
        values[i] = solution[i] if k else (solution[i] % puzzle.room_size[i]) + 1
    pixels, _, _ = _shoot(server, size=(8, 8), seed=7, theme=theme, entered=entered,
                          font=font, values=values_param(values))
    try:
        reading = _read(pixels)
    except UnreadableDigits as refused:
        assert not sure, refused
        where = re.search(r"the (\d+) at row (\d+) column (\d+) is drawn in one weight only",
                          refused.message)
        assert where, refused
        cell = (int(where[2]) - 1) * 8 + int(where[3]) - 1
        shown = puzzle.givens[cell] or values[cell]
        assert shown == int(where[1]), refused
        assert (shown in puzzle.givens) != (shown in values), f"{shown} is drawn both ways"
        return
    assert reading.puzzle.givens == puzzle.givens
    assert reading.entered == tuple(values)


def test_a_nonogram_is_no_ripple_board(server: Any) -> None:
    from autoplayer.games.ripple.detect import shows_ripple
    from autoplayer.webgame.browser import headless_screenshot

    pixels = headless_screenshot(server.url(size=(10, 10), seed=3), *VIEW)
    assert not shows_ripple(pixels)


def test_a_ripple_board_with_no_digit_given_is_still_a_ripple_board(server: Any) -> None:
    """Rooms alone tell: this puzzle (the random e2e draw RIPPLE_E2E_SEED=170491182) gives
    no digit, and was taken for a nonogram; its borders stop part way along their lines,
    as a nonogram's every-fifth lines never do."""
    from autoplayer.games.ripple.detect import shows_ripple
    from autoplayer.webgame.browser import headless_screenshot

    url = server.url(game="ripple", size=(5, 5), seed=307, look=330, session="no-givens")
    pixels = headless_screenshot(url, *VIEW)
    puzzle = server.puzzle("no-givens")
    assert puzzle is not None and not any(puzzle.givens), "the draw has changed: no longer bare"
    assert shows_ripple(pixels)


def test_an_empty_picture_names_its_region() -> None:
    with pytest.raises(InputError) as err:
        read_ripple(np.full((300, 400, 3), 240, np.uint8))
    assert err.value.region == (0, 0, 400, 300)


SERIF_LIGHT = dict(theme="dark", border="colour", lines="dotted", font="serif", entered="weight",
                   pencil="corners", cell=52)
"""A look whose entered 1s (light serif) the state machines find as near a 4 as a 1."""


def test_entered_light_serif_digits_read_after_input(server: Any) -> None:
    """After input the bot re-reads only the entered values: with the calibrated sets as
    fallbacks every one reads right; without them, a glyph the board's own digits cannot
    judge (no surely read 1 to compare with) is refused, never taken for the nearest
    learned digit."""
    from autoplayer.games.ripple.game import RippleGame
    from autoplayer.games.ripple.solver import solve
    from autoplayer.screen.capture import Frame
    from autoplayer.webgame.ripple import seeded_puzzle, values_param

    puzzle = seeded_puzzle(8, 8, 145)
    solution = solve(puzzle).solutions[0]
    game = RippleGame()
    blank, _, _ = _shoot(server, size=(8, 8), seed=145, **SERIF_LIGHT)
    first = game.read(Frame(blank))
    entered = tuple(0 if g else v for v, g in zip(solution, puzzle.givens, strict=True))
    full, _, _ = _shoot(server, size=(8, 8), seed=145, values=values_param(entered),
                        **SERIF_LIGHT)
    again = game.read(Frame(full), first)
    assert again.unreadable is None, again.unreadable
    assert again.shown.entered == entered
    # The 1 at row 3 column 2 the only entered 1 among the rest, no fallbacks: read
    # exactly, or refused for that glyph alone (naming its cell); never misread.
    lone = 2 * 8 + 1
    assert entered[lone] == 1
    some = tuple(0 if v == 1 and i != lone else v for i, v in enumerate(entered))
    where = f"ripple seed 145, {SERIF_LIGHT}, entered {some}"
    pixels, _, _ = _shoot(server, size=(8, 8), seed=145, values=values_param(some),
                          **SERIF_LIGHT)
    try:
        shown = read_ripple(pixels, previous=first.shown)
    except UnreadableDigits as refused:
        cell = first.shown.lattice.cell(lone)
        assert "row 3 column 2" in str(refused) and refused.region is not None, \
            f"{where}: refused for another cell: {refused}"
        x, y, w, h = refused.region
        assert (cell.x - 2 <= x and x + w <= cell.x + cell.w + 2 and cell.y - 2 <= y
                and y + h <= cell.y + cell.h + 2), f"{where}: {refused} is not in {cell}"
        return
    assert shown.entered == some, f"{where}: read {shown.entered}"


@pytest.mark.parametrize(("border", "why"), [
    ("thick", "the board's cells hold numbers"),
    ("colour", "the board's cells hold numbers"),
])
def test_a_ripple_board_is_no_nonogram(server: Any, border: str, why: str) -> None:
    """The nonogram reader refuses a Ripple board for what it is: numbers in the cells
    (not a missing clue band, not a misread clue)."""
    from autoplayer.games.nonogram.reader import read_nonogram

    for theme, font, seed in (("light", "sans", 3), ("dark", "serif", 5)):
        pixels, _, _ = _shoot(server, size=(12, 12), seed=seed, theme=theme, border=border,
                              lines="thin", font=font, cell=40)
        with pytest.raises(InputError, match=f"no nonogram here: ({why})"):
            read_nonogram(pixels)
