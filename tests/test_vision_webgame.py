"""The bundled browser game rendered by real headless Chromium: board and every clue read exactly.

The full matrix: every skin x theme, cell sizes 12-40 px, boards 5x5 to 30x30
(two-digit clues included). Each case asks the game server for a random puzzle,
screenshots the page and checks the board size and every clue against the
puzzle the server holds.

Reader per case (`reader_for`): the state machines alone (untrained) wherever
they read the skin; the committed calibrated templates web-SKIN (autoplayer/templates/)
(made by tools/webgame-calibration from other seeds) combined with the state
machines where the font is ambiguous to an untrained reader at that size:
sans at 12 px (digits 5-7 px tall: 5 looks like 7), serif below 32 px (thin
strokes: 1/7, 3/2, 8/9), mono at 12, 16 and 32 px (its 6 reads as 8).
Cases that still misread are marked xfail with the reason (not hidden):
see KNOWN.

Further cases: a started game (pre-filled and marked cells via grid=) and a
hovered cell (hover=R,C) in every skin and theme, the cell states read exactly.

Appearance options (`font=`, `weight=`, `texture=`; the bars skin draws one bar per
line with single-space numbers, as KDE's Picmi does): every font on every texture
read exactly at the sizes a person reads easily, and random looks (tests/looks.py: skin,
theme, cell size and board mixed with every layout and appearance option), drawn afresh
each run (the seed is printed; AUTOPLAYER_SEED=N repeats a run), each read as `play`
reads them, exactly or refused, never read wrong, and at least EXACT_FLOOR exactly.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from desktop import needs_chromium
from draws import Draws, run_seed
from looks import describe, random_look, url_params
from pages import shoot_board

from autoplayer.games.nonogram.reader import read_nonogram
from autoplayer.vision.templates import every_template_set, load_templates

pytestmark = [pytest.mark.e2e, needs_chromium]

SKINS = ("pixel", "sans", "serif", "mono")
APPEARANCE_FONTS = ("dejavu-sans", "open-sans", "lato")
TEXTURES = ("flat", "dotted", "noise", "gradient")
THEMES = ("light", "dark")
BOARDS = {12: ((10, 10), (25, 20)), 16: ((10, 10), (25, 20)), 20: ((30, 30),),
          24: ((15, 20), (5, 5)), 32: ((5, 5), (20, 15)), 40: ((25, 20),)}
"""Cell size -> boards (w, h); 20 and more cells long give two-digit clues."""

TEMPLATED = {("sans", 12), ("serif", 12), ("serif", 16), ("serif", 20), ("serif", 24),
             ("mono", 12), ("mono", 16), ("mono", 32)}
"""(skin, cell px) read with the web-SKIN templates as well as the state machines."""

KNOWN: dict[tuple[str, str, int, tuple[int, int]], str] = {
}
"""(skin, theme, cell px, board) that still misread, with why."""


def reader_for(skin: str, cell: int) -> str:
    return "templates" if (skin, cell) in TEMPLATED else "untrained"


CASES = [pytest.param(skin, theme, cell, size,
                      id=f"{skin}-{theme}-{cell}px-{size[0]}x{size[1]}-{reader_for(skin, cell)}",
                      marks=[pytest.mark.xfail(reason=KNOWN[skin, theme, cell, size], strict=True)]
                      if (skin, theme, cell, size) in KNOWN else [])
         for skin, theme, (cell, boards) in itertools.product(SKINS, THEMES, BOARDS.items())
         for size in boards]


@pytest.fixture(scope="module")
def server():
    from autoplayer.webgame.browser import close_shared_browser, headless_screenshot
    from autoplayer.webgame.server import GameServer

    with GameServer() as s:
        # One page per skin first: the browser loads a font on first use, and a page
        # drawn before that shows a fallback font.
        for skin in SKINS:
            headless_screenshot(s.url(size=(5, 5), skin=skin), 600, 400)
        for font in APPEARANCE_FONTS:
            headless_screenshot(s.url(size=(5, 5), skin="bars", font=font), 600, 400)
        yield s
    close_shared_browser()


def _shoot(server, session: str, size: tuple[int, int], cell: int, **params) -> np.ndarray:
    return shoot_board(server, session, size, cell, room=200, **params)


@pytest.mark.parametrize(("skin", "theme", "cell", "size"), CASES)
def test_reads_browser_rendered_board(server, skin, theme, cell, size):
    session = f"vision-{skin}-{theme}-{cell}-{size[0]}x{size[1]}"
    image = _shoot(server, session, size, cell, seed=cell + size[0], skin=skin, theme=theme)
    puzzle = server.puzzle(session)
    templates = load_templates(f"web-{skin}") if reader_for(skin, cell) == "templates" \
        else None
    reading = read_nonogram(image, verify=False, templates=templates)
    assert (reading.grid.width, reading.grid.height) == (puzzle.width, puzzle.height)
    assert reading.puzzle.rows == puzzle.rows
    assert reading.puzzle.columns == puzzle.columns


def test_first_rows_whose_clues_fill_every_box(server):
    """At 18 px (outside the matrix), puzzle 29's first two rows have three-number clues,
    so every row-clue box beside them holds a digit: the board still starts at row 1."""
    image = _shoot(server, "full-first-rows", (10, 10), 18, seed=29, skin="sans")
    puzzle = server.puzzle("full-first-rows")
    assert [len(clue) for clue in puzzle.rows[:2]] == [3, 3] == [max(map(len, puzzle.rows))] * 2
    reading = read_nonogram(image)
    assert (reading.grid.width, reading.grid.height) == (10, 10)
    assert (reading.puzzle.rows, reading.puzzle.columns) == (puzzle.rows, puzzle.columns)


def _started_game(seed: int, first_row_filled: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    grid = rng.choice(np.array([-1, 0, 0, 1], np.int8), size=(10, 10))
    if first_row_filled:
        grid[0, :] = 1
    return grid


KNOWN_STARTED = {
}


def _started_id(skin: str, theme: str, hover: bool, first: bool) -> str:
    return f"{skin}-{theme}{'-hover' if hover else ''}{'-row1' if first else ''}"


def _started_known(case_id: str) -> list:
    why = [r for k, r in KNOWN_STARTED.items() if k in case_id]
    return [pytest.mark.xfail(reason="; ".join(why), strict=True)] if why else []


STARTED = [pytest.param(skin, theme, hover, first, id=_started_id(skin, theme, hover, first),
                        marks=_started_known(_started_id(skin, theme, hover, first)))
           for skin, theme in itertools.product(SKINS, THEMES)
           for hover, first in ((False, False), (True, False), (False, True))]


@pytest.mark.parametrize(("skin", "theme", "hover", "first_row_filled"), STARTED)
def test_reads_started_game(server, skin, theme, hover, first_row_filled):
    """Filled and marked cells (dark themes: filled lighter than empty), a hovered cell,
    a filled first row (not to be taken for clue boxes): every cell state read exactly."""
    grid = _started_game(7, first_row_filled)
    extra = {"hover": (2, 3)} if hover else {}
    session = f"started-{skin}-{theme}-{int(hover)}{int(first_row_filled)}"
    image = _shoot(server, session, (10, 10), 24, seed=5, skin=skin, theme=theme, grid=grid,
                   **extra)
    templates = load_templates(f"web-{skin}") if reader_for(skin, 24) == "templates" \
        else None
    reading = read_nonogram(image, verify=False, templates=templates)
    assert reading.state.shape == grid.shape
    assert (reading.state != grid).sum() == 0, np.argwhere(reading.state != grid).tolist()
    puzzle = server.puzzle(session)
    assert reading.puzzle.rows == puzzle.rows
    assert reading.puzzle.columns == puzzle.columns


@pytest.mark.parametrize(("skin", "theme", "cell", "size"), [
    ("mono", "light", 16, (25, 20)), ("sans", "dark", 12, (25, 20)),
    ("serif", "light", 16, (10, 10)),
])
def test_calibrated_sets_are_tried_when_the_state_machines_misread(server, skin, theme, cell,
                                                                   size):
    """No set named (as `play` and `read` run by default): every bundled set is a fallback.

    On these seeds the state machines alone misread mono at 16 px and sans at 12 px
    (the reading does not validate) and the skin's own set is the one that fits; serif
    at 16 px validates untrained, and then no set is claimed.
    """
    from autoplayer.errors import InputError
    from autoplayer.vision.templates import every_template_set

    session = f"fallback-{skin}-{theme}-{cell}"
    image = _shoot(server, session, size, cell, seed=cell + size[0] + 1, skin=skin, theme=theme)
    puzzle = server.puzzle(session)
    try:
        read_nonogram(image)
        untrained_validates = True
    except InputError:
        untrained_validates = False
    reading = read_nonogram(image, fallbacks=every_template_set())
    assert reading.puzzle.rows == puzzle.rows
    assert reading.puzzle.columns == puzzle.columns
    assert reading.template_set == (None if untrained_validates else f"web-{skin}")


FADING = [("dark", 12, (5, 5), 101), ("dark", 12, (15, 15), 102), ("dark", 12, (30, 30), 103),
          ("dark", 16, (5, 5), 105), ("dark", 20, (10, 10), 106), ("dark", 28, (5, 5), 107),
          ("light", 28, (5, 5), 107)]
"""Pixel-skin boards beyond the matrix (theme, cell px, board, seed) that main misread."""


@pytest.mark.parametrize(("theme", "cell", "size", "seed"), FADING,
                         ids=[f"{t}-{c}px-{s[0]}x{s[1]}-seed{n}" for t, c, s, n in FADING])
def test_reads_pixel_bands_fading_into_the_page(server, theme, cell, size, seed):
    """The pixel skin's clue bands fade into the page (near-black in the dark theme), a
    short band has page text beside it, and at small sizes the digits stand on the seam
    between two bands and throw their drop shadows on it: read untrained, exactly."""
    session = f"fading-{theme}-{cell}-{size[0]}x{size[1]}-{seed}"
    image = _shoot(server, session, size, cell, seed=seed, skin="pixel", theme=theme)
    puzzle = server.puzzle(session)
    reading = read_nonogram(image, verify=False)
    assert (reading.grid.width, reading.grid.height) == (puzzle.width, puzzle.height)
    assert reading.puzzle.rows == puzzle.rows
    assert reading.puzzle.columns == puzzle.columns


@pytest.mark.parametrize("skin", SKINS)
@pytest.mark.parametrize(("cell", "seed"), [(28, 105), (16, 107)])
def test_an_empty_line_reads_as_an_empty_clue_whether_drawn_0_or_blank(server, skin, cell,
                                                                        seed):
    """Seeds whose 5x5 puzzle has an empty line: some skins draw its clue as "0", some
    leave it blank; both are the empty clue (read as `play` reads, calibrated sets as
    fallbacks: mono's dotted 0 at 16 px reads as 8 to the state machines)."""
    from autoplayer.vision.templates import every_template_set

    session = f"empty-{skin}-{cell}-{seed}"
    image = _shoot(server, session, (5, 5), cell, seed=seed, skin=skin, theme="light")
    puzzle = server.puzzle(session)
    assert () in puzzle.rows + puzzle.columns, "the seed gives a puzzle with an empty line"
    reading = read_nonogram(image, fallbacks=every_template_set())
    assert reading.puzzle.rows == puzzle.rows
    assert reading.puzzle.columns == puzzle.columns


BARS = [pytest.param(font, texture, theme, cell, size, id=f"{font}-{texture}-{theme}-{cell}px")
        for font, texture, theme, (cell, size) in itertools.product(
            APPEARANCE_FONTS, TEXTURES, THEMES, ((30, (15, 15)), (36, (10, 20))))]


@pytest.mark.parametrize(("font", "texture", "theme", "cell", "size"), BARS)
def test_reads_bars_in_every_font_and_texture(server, font, texture, theme, cell, size):
    """One bar per line with darker edges, numbers one space apart, on a flat, dotted,
    noisy or gradient ground: read untrained and exactly (the puzzle check on)."""
    session = f"bars-{font}-{texture}-{theme}-{cell}"
    image = _shoot(server, session, size, cell, seed=cell + len(font) + len(texture),
                   skin="bars", theme=theme, font=font, texture=texture)
    puzzle = server.puzzle(session)
    reading = read_nonogram(image)
    assert (reading.puzzle.rows, reading.puzzle.columns) == (puzzle.rows, puzzle.columns)


RUN_SEED = run_seed()
RANDOM_LOOKS = 24
EXACT_FLOOR = 14
"""Of the RANDOM_LOOKS, the least that must read exactly. The looks range over every axis
of tests/looks.py (issue 23's tall digits, faint lines, grey ink, black, slab and italic
faces, boxed 5x5 boards, 30x20+ boards of 8-9 px digits, a ruled menu panel, mixed with
the skins, themes, textures, clue sides and frames). The bench's two seeds the reader was
mended on read 142 and 141 of 150 exactly (none wrong), but fresh draws read fewer: five
runs of this test read 18, 19, 20, 20 and 22 of 24 (83 %). At 80 % a run falls below 14
of 24 about once in 260, at 83 % once in 1,000; a reader back at 60 % fails one run in
three. Issue 23 asks for 95 %: not reached on fresh draws; raise this as the reader gets
there."""


def _random_look(rng: np.random.Generator) -> dict:
    """Skins, themes, fonts and faces, textures, digit heights, line and ink contrast, clue
    sides, frames, boxed clues, headings, a menu panel, big boards of tiny digits: the
    generator the looks bench measures (tests/looks.py)."""
    return random_look(rng)


def test_random_looks_read_exactly_or_refused(server):
    """Never a wrong reading that validates: a misread must end in a refusal."""
    tally = Draws(RUN_SEED, EXACT_FLOOR)
    for draw in range(RANDOM_LOOKS):
        look = _random_look(np.random.default_rng([RUN_SEED, draw]))
        with tally.draw(f"draw {draw}: {describe(look)}") as judge:
            session = f"random-{RUN_SEED}-{draw}"
            image = shoot_board(server, session, look["size"], look["cell"], room=300,
                                **url_params(look))
            puzzle = server.puzzle(session)
            reading = read_nonogram(image, fallbacks=every_template_set())
            judge((reading.grid.width, reading.grid.height, reading.puzzle.rows,
                   reading.puzzle.columns)
                  == (puzzle.width, puzzle.height, puzzle.rows, puzzle.columns))
    tally.check()
