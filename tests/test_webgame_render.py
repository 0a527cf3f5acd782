"""Headless Chromium renders every skin and theme as a real board (pixels checked against
the page's own layout report)."""

from __future__ import annotations

import numpy as np
import pytest
from desktop import needs_chromium

from autoplayer.games.nonogram.model import puzzle_from_grid
from autoplayer.webgame import nonogram
from autoplayer.webgame.browser import headless_screenshot
from autoplayer.webgame.server import GameServer

pytestmark = needs_chromium

VIEW = (1000, 800)


def special_puzzle():
    """12×13 with an empty row and column (zero clues) and runs of 10 and 12 (two digits)."""
    g = np.zeros((13, 12), dtype=np.int8)
    g[1, :] = 1            # row clue 12
    g[3:13, 3] = 1         # column clue 1 10
    g[5, 5:8] = 1
    g[8, 9:11] = 1
    g[10, 0:2] = 1
    # row 0 and column 11 stay empty: zero clues
    return puzzle_from_grid(g, title="Special")


def shoot(game_server: GameServer, session: str, **kw):
    url = game_server.url(session=session, **kw)
    image = headless_screenshot(url, *VIEW)
    assert game_server.wait_for(session, lambda st, lay: lay is not None, 10)
    return image, game_server.layout(session)


def rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=int)


def near(image: np.ndarray, colour: str, tol: int = 60) -> np.ndarray:
    return np.abs(image.astype(int) - rgb(colour)).sum(axis=2) <= tol


def check_board(image: np.ndarray, layout: dict, colours: dict, thick: int) -> None:
    assert image.shape == (VIEW[1], VIEW[0], 3)
    b = layout["board"]
    pitch = layout["pitch"]
    assert b["x"] + b["w"] <= VIEW[0] and b["y"] + b["h"] <= VIEW[1], "board is off screen"
    cell = rgb(colours["cell"])
    y_mid = [y + pitch // 2 for y in layout["ys"][:-1]]
    x_mid = [x + pitch // 2 for x in layout["xs"][:-1]]
    # Cell centres show the cell colour; every grid line differs from it.
    for y in y_mid:
        for x in x_mid:
            assert np.abs(image[y, x].astype(int) - cell).sum() <= 12, (x, y)
    for i, x in enumerate(layout["xs"]):
        column = image[y_mid, x].astype(int)
        assert (np.abs(column - cell).sum(axis=1) > 12).all(), f"no vertical line {i} at x={x}"
    for j, y in enumerate(layout["ys"]):
        row = image[y, x_mid].astype(int)
        assert (np.abs(row - cell).sum(axis=1) > 12).all(), f"no horizontal line {j} at y={y}"
    # Lines every 5 cells are thick (2 px or more) where the thin ones are 1 px.
    if len(layout["xs"]) > 6:
        x5, x1 = layout["xs"][5], layout["xs"][1]
        lo = (thick - 1) // 2
        thick_px = image[y_mid[0], x5 - lo:x5 - lo + thick].astype(int)
        assert (np.abs(thick_px - cell).sum(axis=1) > 12).all()
        assert np.abs(image[y_mid[0], x1 + 1].astype(int) - cell).sum() <= 12


def check_clues(image: np.ndarray, layout: dict, colours: dict) -> None:
    """Every drawn number has ink in its rectangle, and its ink stays inside it."""
    numbers = [n for line in layout["clues"]["rows"] + layout["clues"]["columns"] for n in line]
    assert numbers
    for n in numbers:
        ink = colours["inkZero"] if n["value"] == 0 else colours["ink"]
        patch = image[n["y"]:n["y"] + n["h"], n["x"]:n["x"] + n["w"]]
        assert patch.size, n
        share = near(patch, ink).mean()
        assert share > 0.03, f"number {n['value']} at {n['x']},{n['y']} has {share:.0%} ink"
        # The reported rectangle is tight: no ink of this number spills out of it.
        m = 3
        around = near(image[n["y"] - m:n["y"] + n["h"] + m, n["x"] - m:n["x"] + n["w"] + m], ink)
        ys, xs = np.nonzero(around)
        assert xs.min() >= m - 1 and xs.max() <= m + n["w"], (n, xs.min(), xs.max())
        assert ys.min() >= m - 1 and ys.max() <= m + n["h"], (n, ys.min(), ys.max())


@pytest.mark.parametrize("theme", nonogram.THEMES)
@pytest.mark.parametrize("skin", nonogram.SKINS)
def test_each_skin_and_theme_renders_a_board_with_clues(game_server, skin, theme):
    image, layout = shoot(game_server, f"r-{skin}-{theme}", size=(15, 10), seed=3, skin=skin,
                          theme=theme)
    s = nonogram.skins()[skin]
    assert layout["pitch"] == s["cell"]
    check_board(image, layout, s[theme], s["thick"])
    check_clues(image, layout, s[theme])
    # There is a page around the board: its header is not the board's colour.
    assert image[5:40, :].std() > 10


@pytest.mark.parametrize(("size", "cell"), [((5, 5), 12), ((5, 5), 40), ((30, 30), 14),
                                            ((20, 20), 22)])
def test_sizes_from_5_to_30_and_cells_from_12_to_40(game_server, size, cell):
    for skin in ("pixel", "sans"):
        image, layout = shoot(game_server, f"z-{skin}-{size[0]}-{cell}", size=size, seed=5,
                              skin=skin, cell=cell)
        s = nonogram.skins()[skin]
        assert (layout["width"], layout["height"], layout["pitch"]) == (*size, cell)
        assert layout["xs"][1] - layout["xs"][0] == cell
        check_board(image, layout, s["light"], s["thick"])
        check_clues(image, layout, s["light"])


def test_zero_clues_and_two_digit_clues_follow_the_skin(game_server):
    puzzle = special_puzzle()
    for skin in nonogram.SKINS:
        image, layout = shoot(game_server, f"special-{skin}", puzzle=puzzle, skin=skin, cell=24)
        s = nonogram.skins()[skin]
        rows = layout["clues"]["rows"]
        assert [n["value"] for n in rows[1]] == [12]
        assert [n["value"] for n in layout["clues"]["columns"][3]] == [1, 10]
        area = layout["rowClueArea"]
        # Inside the strip, clear of any bar's dark edge (the bars skin draws one round it).
        strip = image[layout["ys"][0] + 3:layout["ys"][1] - 2,
                      area["x"] + 3:area["x"] + area["w"] - 3]
        if s["zero"] == "0":
            assert [n["value"] for n in rows[0]] == [0]
        else:
            assert rows[0] == []
            assert not near(strip, s["light"]["ink"], 90).any(), f"{skin}: ink on an empty row"
        check_clues(image, layout, s["light"])


def test_screenshots_are_deterministic(game_server):
    url = game_server.url(size=(10, 10), seed=8, skin="serif", theme="dark", session="det")
    a = headless_screenshot(url, *VIEW)
    b = headless_screenshot(url, *VIEW)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("skin", nonogram.SKINS)
def test_started_game_done_clues_and_hover_are_drawn(game_server, skin):
    """A started game: its cells, its completed lines' clue style, a hover highlight."""
    puzzle = special_puzzle()
    grid = np.full((puzzle.height, puzzle.width), -1, dtype=np.int8)
    grid[1, :] = 1                       # row 1 (clue 12) complete
    grid[4, 0:3] = 0                     # three marked empty
    s = nonogram.skins()[skin]
    colours = s["light"]
    image, layout = shoot(game_server, f"started-{skin}", puzzle=puzzle, skin=skin, cell=24,
                          grid=grid, hover=(7, 6))
    state = game_server.state(f"started-{skin}")
    assert state is not None and state["grid"] == grid.tolist() and state["events"] == 0
    half = layout["pitch"] // 2
    centre = lambda r, c: image[layout["ys"][r] + half, layout["xs"][c] + half]  # noqa: E731
    for c in range(puzzle.width):
        assert near(centre(1, c)[None, None], colours["filled"], 12).all(), c
    for c in range(3):  # a mark is drawn in the cell (not the plain cell colour everywhere)
        y, x = layout["ys"][4], layout["xs"][c]
        patch = image[y + 2:y + layout["pitch"] - 1, x + 2:x + layout["pitch"] - 1]
        assert near(patch, colours["mark"], 40).any(), c
    twelve = layout["clues"]["rows"][1][0]
    patch = image[twelve["y"]:twelve["y"] + twelve["h"], twelve["x"]:twelve["x"] + twelve["w"]]
    if s["done"] == "fade":
        assert near(patch, colours["inkDone"], 40).mean() > 0.03
        assert not near(patch, colours["ink"], 40).any(), "a completed clue keeps its ink"
    else:  # struck out: ink crosses the number's rectangle corner to corner
        assert near(patch[-2:, :3], colours["ink"], 90).any()
        assert near(patch[:2, -3:], colours["ink"], 90).any()
    # The hovered row's clue strip and column's cells are tinted.
    area = layout["rowClueArea"]
    y = layout["ys"][7] + half
    strip = image[y, area["x"] + 2:area["x"] + area["w"] - 4]
    assert near(strip[None], colours["hoverBand"], 30).mean() > 0.2
    plain = image[layout["ys"][2] + half, area["x"] + 2:area["x"] + area["w"] - 4]
    assert not near(plain[None], colours["hoverBand"], 30).any()


@pytest.mark.parametrize("theme", nonogram.THEMES)
def test_pixel_skin_ink_is_pure_black_and_only_in_clues(game_server, theme):
    """As on Pixelo, black (r=g=b<20) marks clue digits and nothing else on the page."""
    image, layout = shoot(game_server, f"black-{theme}", size=(15, 15), seed=12, skin="pixel",
                          theme=theme)
    px = image.astype(int)
    black = (px.max(axis=2) < 20) & (px.max(axis=2) == px.min(axis=2))
    inside = np.zeros_like(black)
    for line in layout["clues"]["rows"] + layout["clues"]["columns"]:
        for n in line:
            inside[n["y"]:n["y"] + n["h"], n["x"]:n["x"] + n["w"]] = True
            if n["value"]:
                assert black[n["y"]:n["y"] + n["h"], n["x"]:n["x"] + n["w"]].any(), n
    assert not (black & ~inside).any()


def test_pixel_digit_table_has_ten_distinct_blocky_glyphs():
    import json
    import re
    from pathlib import Path

    js = (Path(nonogram.__file__).parent / "static" / "nonogram" / "game.js").read_text()
    table = re.search(r"PIXEL_DIGITS = (\{.*?\});", js, re.S)
    assert table is not None
    digits = json.loads(re.sub(r",\s*}", "}", table.group(1)))
    assert sorted(digits) == list("0123456789")
    assert len({tuple(g) for g in digits.values()}) == 10
    for d, rows in digits.items():
        assert len(rows) == 9 and len({len(r) for r in rows}) == 1, d
        assert len(rows[0]) == (2 if d == "1" else 5), d


def test_looks_of_third_party_games_are_drawn_as_asked(game_server):
    """digits=1.0: row numbers whose ink is as tall as the cell, column numbers stacked
    below the board in a band that grew for them; lines=1.15:yellow on a frameless board;
    grey ink; Lato Black loaded before the first draw; a ruled menu panel above the board."""
    from autoplayer.webgame.contrast import contrast, parse_hex

    image, layout = shoot(game_server, "looks-tall", size=(10, 10), seed=21, skin="serif",
                          cell=24, rows="right", columns="bottom", frame="0", fives="0",
                          digits="1.0", lines="1.15:yellow", ink="3", font="lato",
                          weight="black", panel="top", heading="Gallery")
    config = game_server.config("looks-tall")
    assert config is not None
    colours = {**nonogram.skins()["serif"]["light"], **config["appearance"]["colours"]}
    assert layout["clueFace"] == "loaded"
    pitch = layout["pitch"]
    # Rows of numbers as tall as the cells touch: each number's ink fills its own
    # rectangle's height (the page's measure of the digits' ink) and stays in its width.
    for line in layout["clues"]["rows"] + layout["clues"]["columns"]:
        for n in line:
            assert n["h"] == pitch, n
            ink = near(image[n["y"]:n["y"] + n["h"], n["x"] - 3:n["x"] + n["w"] + 3],
                       colours["ink"], 40)
            rows, cols = (np.nonzero(ink.any(axis=k))[0] for k in (1, 0))
            assert rows.max() - rows.min() + 1 >= pitch - 2, n
            assert cols.min() >= 2 and cols.max() <= n["w"] + 3, n
    deepest = max(len(c) for c in layout["clues"]["columns"])
    assert layout["columnClueArea"]["h"] >= deepest * pitch
    # Inner lines in the pale yellow asked for; no outer frame.
    line = parse_hex(colours["grid"])
    assert contrast(line, parse_hex(colours["cell"])) == pytest.approx(1.15, rel=0.01)
    assert line[0] >= line[1] > line[2]
    mid = layout["ys"][3] + pitch // 2
    assert near(image[mid:mid + 1, layout["xs"][4]:layout["xs"][4] + 1], colours["grid"], 6).all()
    assert not near(image[mid:mid + 1, layout["xs"][0]:layout["xs"][0] + 1],
                    colours["grid"], 6).any()
    # The panel: between the heading and the board, its outline in the grid's colour.
    panel = layout["panel"]
    assert panel["y"] > layout["canvas"]["y"] + 12
    assert panel["y"] + panel["h"] < layout["board"]["y"]
    top_edge = image[panel["y"], panel["x"]:panel["x"] + panel["w"]]
    assert near(top_edge[None], colours["grid"], 6).mean() > 0.95
