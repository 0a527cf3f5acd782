"""The bundled nonogram page's rule sets (RULE_CHOICES): each option value does what it
says, judged by what the page reports to its server after real X input (xdotool → XTEST)
in a Chromium app window under Xvfb, or by the pixels of a headless shot."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from desktop import needs_chromium, needs_xdotool, needs_xvfb, page_window, xdotool
from rulesets import DEFAULT_RULES, random_rules

from autoplayer.errors import UserError
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, puzzle_from_grid
from autoplayer.webgame import nonogram
from autoplayer.webgame.server import GameServer

SCREEN = (1280, 900)
LEFT, MIDDLE, RIGHT = 1, 2, 3

def _live(test: Any) -> Any:
    """A test that drives Chromium under Xvfb with xdotool."""
    for mark in (pytest.mark.e2e, needs_xvfb, needs_xdotool, needs_chromium):
        test = mark(test)
    return test


# --- the options on the server's side ---------------------------------------------------

def test_defaults_are_todays_game_and_every_choice_is_accepted():
    assert nonogram.rule_options({}) == DEFAULT_RULES == {
        "fill": "skin", "mark": "skin", "highlight": "lines", "buttons": "toggle",
        "drag": "line", "rule": "runs", "sign": "none"}
    for key, choices in nonogram.RULE_CHOICES.items():
        for value in choices:
            assert nonogram.rule_options({key: value}) == {**DEFAULT_RULES, key: value}


@pytest.mark.parametrize(("query", "message"), [
    ({"fill": "dark"}, "fill='dark'; choices: skin, light, image, hatched"),
    ({"buttons": "Toggle"}, "buttons='Toggle'; choices: toggle, set, cycle, cycle2, lock"),
    ({"sign": ""}, "sign=''; choices: none, dialog, alert, dim, restyle, freeze, notice"),
    ({"mark": "none", "rule": "marks"}, "rule=marks needs marks, but mark=none has none"),
    ({"mark": "none", "buttons": "lock"}, "buttons=lock needs marks, but mark=none has none"),
    ({"mark": "none", "buttons": "cycle2"}, "buttons=cycle2 needs marks, but mark=none has none"),
])
def test_bad_rule_options_are_one_line_user_errors(query, message):
    with pytest.raises(UserError) as err:
        nonogram.rule_options(query)
    assert str(err.value) == message


def test_a_page_url_with_a_bad_rule_is_refused_and_a_good_one_reaches_the_page():
    with GameServer() as server:
        with pytest.raises(UserError, match=r"^drag='paint'; choices: line, enter, ends, none$"):
            server.url(size=(5, 5), drag="paint")
        grid = np.full((5, 5), UNKNOWN, dtype=np.int8)
        grid[0, 0] = EMPTY
        with pytest.raises(UserError, match=r"^grid= has marked cells but mark=none has no marks$"):
            server.url(size=(5, 5), mark="none", grid=grid)
        server.url(size=(5, 5), session="rules-cfg", buttons="lock", sign="alert")
        config = server.config("rules-cfg")
        assert config is not None
        assert config["rules"] == {**DEFAULT_RULES, "buttons": "lock", "sign": "alert"}


@pytest.mark.parametrize("fill", ["hatched", "image"])
def test_an_alert_over_hatched_or_image_fills_is_a_rule_set(fill):
    assert nonogram.rule_options({"sign": "alert", "fill": fill}) == {
        **DEFAULT_RULES, "sign": "alert", "fill": fill}


def test_every_new_sign_mixes_with_every_other_choice():
    """restyle, freeze and notice draw over whatever the board is: nothing refuses them."""
    for sign in ("restyle", "freeze", "notice"):
        for key, choices in nonogram.RULE_CHOICES.items():
            if key == "sign":
                continue
            for value in choices:
                rules = {**DEFAULT_RULES, "sign": sign, key: value}
                assert nonogram.rules_conflict(rules) is None, rules


def test_random_rules_are_valid_and_cover_every_choice():
    rng = random.Random(7)
    drawn = [random_rules(rng) for _ in range(400)]
    for rules in drawn:
        assert nonogram.rule_options(rules) == rules
        if rules["mark"] == "none":
            assert rules["rule"] == "runs" and rules["buttons"] in ("toggle", "set", "cycle")
    for key, choices in nonogram.RULE_CHOICES.items():
        assert {r[key] for r in drawn} == set(choices), key
    assert random_rules(random.Random(3)) == random_rules(random.Random(3))


def test_parse_rules_reads_a_command_lines_rule_set():
    assert nonogram.parse_rules("buttons=cycle, drag=enter,") == {
        **DEFAULT_RULES, "buttons": "cycle", "drag": "enter"}
    assert nonogram.parse_rules("") == DEFAULT_RULES
    for text, message in [("buttons", "rule 'buttons' is not KEY=VALUE"),
                          ("hover=cell", "unknown rule 'hover'; rules: fill, mark, highlight, "
                           "buttons, drag, rule, sign"),
                          ("mark=none,rule=marks", "rule=marks needs marks")]:
        with pytest.raises(UserError) as err:
            nonogram.parse_rules(text)
        assert str(err.value).startswith(message)


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "drag=paint"], "drag='paint'; choices: line, enter, ends, none"),
    (["--rules", "sign"], "rule 'sign' is not KEY=VALUE"),
    (["--game", "fifteen", "--rules", "sign=dim"], "--rules is an option of the nonogram page"),
])
def test_serve_bad_rules_are_one_line_errors(args, message, capsys):
    from autoplayer.cli import main

    assert main(["serve", *args]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_serve_hands_its_rules_to_the_page():
    import json
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "autoplayer", "serve", "--size", "5x5", "--rules",
         "fill=image,buttons=lock,sign=dialog"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = (proc.stdout.readline() if proc.stdout else "").strip()
        assert "buttons=lock" in url
        with urllib.request.urlopen(url, timeout=10) as reply:
            html = reply.read().decode()
        text = html.split('<script id="config" type="application/json">', 1)[1]
        config = json.loads(text.split("</script>", 1)[0])
        assert config["rules"] == {**DEFAULT_RULES, "fill": "image", "buttons": "lock",
                                   "sign": "dialog"}
    finally:
        proc.terminate()
        proc.wait(10)


# --- how cells are drawn (headless shots) -----------------------------------------------

def rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=int)


def shoot(server: GameServer, session: str, **params: Any) -> tuple[np.ndarray, dict]:
    from autoplayer.webgame.browser import headless_screenshot

    image = headless_screenshot(server.url(session=session, **params), 900, 700)
    assert server.wait_for(session, lambda st, lay: st is not None and lay is not None, 10)
    return image.astype(int), server.layout(session) or {}


def cell_patch(image: np.ndarray, layout: dict, r: int, c: int) -> np.ndarray:
    """The cell's inside (grid lines excluded)."""
    x, y, p = round(layout["xs"][c]), round(layout["ys"][r]), layout["pitch"]
    return image[y + 1:y + p, x + 1:x + p]


# Row 1, clear of the board's thick border: filled, marked, unknown, filled cells.
STARTED = np.array([[UNKNOWN] * 5, [UNKNOWN, FILLED, EMPTY, UNKNOWN, FILLED]]
                   + [[UNKNOWN] * 5] * 3, dtype=np.int8)


@needs_chromium
def test_fill_and_mark_pictures(game_server):
    skin = nonogram.skins()["sans"]["light"]
    ink, filled = rgb(skin["ink"]), rgb(skin["filled"])
    plain, _ = shoot(game_server, "look-skin", size=(5, 5), seed=2, skin="sans", cell=30,
                     grid=STARTED)
    light, lay = shoot(game_server, "look-light", size=(5, 5), seed=2, skin="sans", cell=30,
                       grid=STARTED, fill="light", mark="grey")
    image, _ = shoot(game_server, "look-image", size=(5, 5), seed=2, skin="sans", cell=30,
                     grid=STARTED, fill="image", mark="image")
    p = lay["pitch"]
    mid = p // 2 - 1

    # skin: the skin's flat colour.
    assert np.abs(cell_patch(plain, lay, 1, 1)[mid, mid] - filled).sum() <= 6
    # light: pale blue, far lighter than the clue ink, with a darker inset along the top
    # and left inside edges (and none along the bottom and right).
    cell = cell_patch(light, lay, 1, 1)
    assert np.abs(cell[mid, mid] - rgb("#a9d3f5")).sum() <= 6
    assert cell[mid, mid].sum() - ink.sum() > 400
    assert (cell[0:2, 4:-4].sum(axis=2) < cell[mid, mid].sum() - 100).all()
    assert (cell[4:-4, 0:2].sum(axis=2) < cell[mid, mid].sum() - 100).all()
    assert np.abs(cell[-2:, 4:-4] - cell[mid, mid]).sum(axis=2).max() <= 6
    # image: a picture, not a flat colour (many colours, none of them the skin's fill).
    cell = cell_patch(image, lay, 1, 1)
    colours = {tuple(px) for px in cell.reshape(-1, 3)}
    assert len(colours) > 30
    assert np.abs(cell[mid, mid] - filled).sum() > 30
    assert np.array_equal(cell_patch(image, lay, 1, 4), cell), "every filled cell alike"

    # mark=grey: the whole cell light grey; mark=image: an orange X with a dark outline
    # on the plain cell (the skin's mark is a small dot).
    cell = cell_patch(light, lay, 1, 2)
    assert (np.abs(cell - rgb("#d0d0d0")).sum(axis=2) <= 6).mean() > 0.97
    cell = cell_patch(image, lay, 1, 2)
    assert np.abs(cell[mid, mid] - rgb("#ff7a1a")).sum() <= 40
    assert np.abs(cell[1, 1] - rgb(skin["cell"])).sum() <= 6, "the X's corners are clear"
    assert (np.abs(cell - rgb("#7a1d00")).sum(axis=2) <= 60).sum() > 20, "no outline"
    assert (np.abs(cell - rgb("#ff7a1a")).sum(axis=2) <= 40).mean() > 0.15
    # Unknown cells look the same under every rule set.
    assert np.array_equal(cell_patch(image, lay, 1, 3), cell_patch(plain, lay, 1, 3))


HATCH_DARK, HATCH_PALE = rgb("#2f5fb3"), rgb("#bfd5f3")


@needs_chromium
def test_fill_hatched_is_blue_stripes_running_on_from_cell_to_cell(game_server):
    image, lay = shoot(game_server, "look-hatched", size=(5, 5), seed=2, skin="sans",
                       cell=30, grid=STARTED, fill="hatched")
    plain, _ = shoot(game_server, "look-hatched-plain", size=(5, 5), seed=2, skin="sans",
                     cell=30, grid=STARTED)
    canvas = lay["canvas"]
    for c in (1, 4):  # the two filled cells of row 1, three cells apart
        cell = cell_patch(image, lay, 1, c)
        dark = np.abs(cell - HATCH_DARK).sum(axis=2) <= 9
        pale = np.abs(cell - HATCH_PALE).sum(axis=2) <= 9
        assert (dark | pale).all(), "only the two blues"
        assert 0.3 < dark.mean() < 0.45, dark.mean()  # 3 px of every 8
        # Diagonal stripes in the canvas's own frame: dark where (x + y) mod 8 < 3, the
        # same phase in both cells (one pattern under the whole board).
        x0 = round(lay["xs"][c]) + 1 - round(canvas["x"])
        y0 = round(lay["ys"][1]) + 1 - round(canvas["y"])
        ys, xs = np.mgrid[0:cell.shape[0], 0:cell.shape[1]]
        assert np.array_equal(dark, (xs + x0 + ys + y0) % 8 < 3)
    assert np.array_equal(cell_patch(image, lay, 1, 2), cell_patch(plain, lay, 1, 2)), \
        "marks as the skin draws them"


@needs_chromium
@pytest.mark.parametrize("highlight", nonogram.RULE_CHOICES["highlight"])
def test_highlight_lights_lines_one_cell_or_nothing(game_server, highlight):
    tint = rgb(nonogram.skins()["pixel"]["light"]["hoverBand"])
    image, lay = shoot(game_server, f"hl-{highlight}", size=(8, 8), seed=4, skin="pixel",
                       hover=(3, 5), highlight=highlight)
    still, _ = shoot(game_server, f"hl-{highlight}-still", size=(8, 8), seed=4, skin="pixel")
    area = lay["rowClueArea"]
    y = lay["ys"][3] + lay["pitch"] // 2
    strip = image[y, area["x"] + 2:area["x"] + area["w"] - 4]
    clue_lit = (np.abs(strip - tint).sum(axis=1) < 30).mean()
    area = lay["columnClueArea"]
    x = lay["xs"][5] + lay["pitch"] // 2
    strip = image[area["y"] + 2:area["y"] + area["h"] - 4, x]
    column_lit = (np.abs(strip - tint).sum(axis=1) < 30).mean()
    other = image[area["y"] + 2:area["y"] + area["h"] - 4, x - lay["pitch"]]
    assert (np.abs(other - tint).sum(axis=1) < 30).mean() == 0.0, "another column's clues"
    changed = [[not np.array_equal(cell_patch(image, lay, r, c), cell_patch(still, lay, r, c))
                for c in range(8)] for r in range(8)]
    lit = {(r, c) for r in range(8) for c in range(8) if changed[r][c]}
    if highlight == "lines":
        assert clue_lit > 0.3 and column_lit > 0.3
        assert lit == {(3, c) for c in range(8)} | {(r, 5) for r in range(8)}
    elif highlight == "clues":  # the row's and the column's clues, no grid cell
        assert clue_lit > 0.3 and column_lit > 0.3
        assert lit == set()
        board = lay["board"]
        inside = (slice(board["y"], board["y"] + board["h"]),
                  slice(board["x"], board["x"] + board["w"]))
        assert np.array_equal(image[inside], still[inside]), "the grid is drawn as without hover"
    elif highlight == "cell":
        assert clue_lit == 0.0 and column_lit == 0.0 and lit == {(3, 5)}
    else:
        assert clue_lit == 0.0 and column_lit == 0.0 and lit == set()
        assert np.array_equal(image, still)


@needs_chromium
@pytest.mark.parametrize("sign", ["none", "dim"])
def test_a_solved_board_is_dimmed_only_by_sign_dim(game_server, sign):
    puzzle = puzzle_from_grid(np.eye(4, dtype=np.int8), title="Diagonal")
    solved_grid = np.where(np.eye(4) == 1, FILLED, UNKNOWN).astype(np.int8)
    image, lay = shoot(game_server, f"sign-{sign}", puzzle=puzzle, skin="sans", cell=30,
                       grid=solved_grid, sign=sign)
    state = game_server.state(f"sign-{sign}")
    assert state is not None and state["solved"] is True and state["sign_shown"] is True
    assert state["sign_ms"] == state["solved_ms"], "shown with the solved board"
    white = rgb(nonogram.skins()["sans"]["light"]["cell"])
    centre = cell_patch(image, lay, 1, 2)[14, 14]
    canvas = lay["canvas"]
    corner = image[round(canvas["y"]) + 2, round(canvas["x"]) + 2]
    if sign == "dim":  # half way to black, over the whole canvas and nowhere else
        assert np.abs(centre - white // 2).sum() <= 9
        assert np.abs(corner - white // 2).sum() <= 9
        assert image[:40].std() > 10, "the page header stays as it was"
    else:
        assert np.abs(centre - white).sum() <= 6


@needs_chromium
@pytest.mark.parametrize("sign", ["dialog", "alert", "restyle", "freeze", "notice"])
def test_a_page_opened_solved_raises_no_dialog_or_alert(game_server, sign):
    """Signs answer play: a shot of a solved board (grid=) must not hang on an alert, nor
    show a board restyled, frozen or under a notice."""
    puzzle = puzzle_from_grid(np.eye(3, dtype=np.int8), title="Diagonal")
    solved_grid = np.where(np.eye(3) == 1, FILLED, UNKNOWN).astype(np.int8)
    shoot(game_server, f"opened-{sign}", puzzle=puzzle, grid=solved_grid, sign=sign)
    time.sleep(1.0)  # past any dialog's due time
    state = game_server.state(f"opened-{sign}")
    assert state is not None and state["solved"] is True
    assert (state["sign_shown"], state["sign_open"], state["dialog"]) == (False, False, None)
    assert (state["sign_parts"], state["finished"], state["board_element"]) == (None, False,
                                                                             "canvas")


# --- input: real presses in a live window ---------------------------------------------

@dataclass
class Page:
    """One page in an app window: real input at cell centres (located from the page's
    layout report, test ground truth), and what the page reports back."""

    server: GameServer
    session: str
    display: str
    window: int
    layout: dict

    def xdo(self, *args: str) -> None:
        xdotool(self.display, *args)

    def origin(self) -> tuple[int, int]:
        """The page's viewport origin on the screen."""
        out = xdotool(self.display, "getwindowgeometry", "--shell", str(self.window))
        geo = dict(line.split("=", 1) for line in out.split())
        chrome = self.layout["outer"]["h"] - self.layout["viewport"]["h"]
        return int(geo["X"]), int(geo["Y"]) + chrome

    def point(self, x: float, y: float) -> tuple[str, str]:
        """Screen coordinates of a point given in page pixels."""
        ox, oy = self.origin()
        return str(round(ox + x)), str(round(oy + y))

    def at(self, r: int, c: int) -> tuple[str, str]:
        half = self.layout["pitch"] // 2
        return self.point(self.layout["xs"][c] + half, self.layout["ys"][r] + half)

    def state(self) -> dict:
        state = self.server.state(self.session)
        assert state is not None
        return state

    def quiet(self, settle: float = 0.4) -> dict:
        """The report once the page has sent nothing new for `settle` seconds."""
        last = self.state()["seq"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            time.sleep(settle)
            now = self.state()["seq"]
            if now == last:
                break
            last = now
        return self.state()

    def wait(self, check: Any, what: str, timeout: float = 10.0) -> dict:
        assert self.server.wait_for(self.session, lambda st, _: st is not None and check(st),
                                    timeout), f"the page never reported {what}"
        return self.state()

    def click(self, r: int, c: int, button: int = LEFT) -> dict:
        """A press the game takes: returns its report once the page has counted it."""
        n = self.state()["events"]
        self.xdo("mousemove", *self.at(r, c), "sleep", "0.03", "click", str(button))
        self.wait(lambda st: st["events"] >= n + 1, f"press {n + 1}")
        return self.quiet()

    def gesture(self, cells: list[tuple[int, int]], button: int = LEFT,
                release: tuple[str, str] | None = None) -> dict:
        """Press on the first cell, move through the others one mousemove each (a jump
        when they are not neighbours), release (at `release` if given); the report."""
        n = self.state()["events"]
        path = ["mousemove", *self.at(*cells[0]), "sleep", "0.03", "mousedown", str(button)]
        for cell in cells[1:]:
            path += ["sleep", "0.03", "mousemove", *self.at(*cell)]
        if release is not None:
            path += ["sleep", "0.03", "mousemove", *release]
        self.xdo(*path, "sleep", "0.03", "mouseup", str(button))
        self.wait(lambda st: st["events"] >= n + 1, f"press {n + 1}")
        return self.quiet()

    def grab(self) -> np.ndarray:
        """The whole screen, RGB as ints."""
        from autoplayer.screen.capture import Screen

        with Screen(self.display) as screen:
            return screen.grab_monitor(0).pixels.astype(int)

    def canvas_mask(self, shape: tuple[int, ...]) -> np.ndarray:
        """True on the screen pixels of the game's canvas."""
        ox, oy = self.origin()
        box = self.layout["canvas"]
        mask = np.zeros(shape[:2], dtype=bool)
        mask[oy + box["y"]:oy + box["y"] + box["h"], ox + box["x"]:ox + box["x"] + box["w"]] = True
        return mask


@pytest.fixture
def page(xserver, game_server: GameServer) -> Iterator:
    """Opens a page (GameServer.url parameters, a session among them) in an app window."""
    with ExitStack() as windows:
        def open_page(**params: Any) -> Page:
            params.setdefault("cell", 30)
            params.setdefault("skin", "sans")
            app = windows.enter_context(
                page_window(game_server, xserver, width=1100, height=850, **params))
            session = params["session"]
            return Page(game_server, session, xserver.display, app.window,
                        game_server.layout(session) or {})

        yield open_page


def row(state: dict, r: int) -> list[int]:
    return state["grid"][r]


ROW = [(2, c) for c in range(1, 7)]  # six neighbours along row 2


@_live
def test_random_rule_sets_load_and_take_a_fill(page):
    """Whatever the rules, the page loads them and a left press on a blank cell fills it
    (every button scheme agrees on that), counted as one press and one change."""
    rng = random.Random(11)
    for i in range(3):
        rules = random_rules(rng)
        p = page(size=(6, 6), seed=i, session=f"rules-random-{i}", **rules)
        assert p.layout["width"] == 6, rules
        state = p.click(3, 3)
        assert state["grid"][3][3] == FILLED, rules
        assert (state["events"], state["changes"], state["solved"]) == (1, 1, False), rules


@_live
def test_toggle_counts_presses_and_cell_changes(page):
    p = page(size=(8, 8), seed=1, session="rules-toggle")
    state = p.gesture(ROW)  # the default drag paints the run
    assert row(state, 2) == [-1, 1, 1, 1, 1, 1, 1, -1]
    assert (state["events"], state["changes"], state["locked"]) == (1, 6, [])
    state = p.click(2, 1)
    assert row(state, 2)[1] == UNKNOWN and state["changes"] == 7
    assert state["sign_shown"] is False and state["sign_open"] is False


@_live
def test_set_never_toggles_and_the_middle_button_clears(page):
    p = page(size=(6, 6), seed=1, session="rules-set", buttons="set")
    assert p.click(0, 0)["grid"][0][0] == FILLED
    state = p.click(0, 0)
    assert state["grid"][0][0] == FILLED and state["changes"] == 1, "left again keeps it filled"
    assert p.click(0, 0, RIGHT)["grid"][0][0] == EMPTY, "right marks a filled cell"
    state = p.click(0, 0, RIGHT)
    assert state["grid"][0][0] == EMPTY and state["changes"] == 2
    assert p.click(0, 0, MIDDLE)["grid"][0][0] == UNKNOWN
    state = p.click(0, 0, MIDDLE)
    assert state["grid"][0][0] == UNKNOWN and (state["events"], state["changes"]) == (6, 3)
    state = p.gesture([(1, c) for c in range(4)], RIGHT)
    assert row(state, 1) == [0, 0, 0, 0, -1, -1]


MENU = 5000
"""Screen pixels a context menu changes at the least (Chromium's is some 200×250 px);
the page's own counters and timer change a few hundred at most."""


def outside_canvas_changes(p: Page, before: np.ndarray) -> int:
    """Screen pixels off the game's canvas that differ from `before`."""
    now = p.grab()
    return int((np.abs(now - before).sum(axis=2) > 30)[~p.canvas_mask(now.shape)].sum())


@_live
def test_cycle_goes_round_on_the_left_and_leaves_the_right_to_the_browser(page):
    p = page(size=(6, 6), seed=1, session="rules-cycle", buttons="cycle")
    p.xdo("mousemove", *p.at(4, 4), "sleep", "0.3")
    before = p.grab()
    p.xdo("click", str(RIGHT), "sleep", "0.6")
    assert outside_canvas_changes(p, before) > MENU, "no context menu opened"
    state = p.state()
    assert state["events"] == 0 and state["grid"][4][4] == UNKNOWN
    p.xdo("key", "Escape", "sleep", "0.5")
    assert outside_canvas_changes(p, before) == 0, "Esc left the menu up"
    assert [p.click(4, 4)["grid"][4][4] for _ in range(3)] == [FILLED, EMPTY, UNKNOWN]
    state = p.gesture([(0, c) for c in range(4)])  # the press's state along the drag
    assert row(state, 0) == [1, 1, 1, 1, -1, -1]


@_live
def test_cycle2_goes_round_both_ways_and_keeps_the_context_menu_shut(page):
    p = page(size=(6, 6), seed=1, session="rules-cycle2", buttons="cycle2")
    p.xdo("mousemove", *p.at(4, 4), "sleep", "0.3")
    before = p.grab()
    order = [p.click(4, 4, RIGHT)["grid"][4][4] for _ in range(3)]
    assert order == [EMPTY, FILLED, UNKNOWN]
    assert outside_canvas_changes(p, before) < MENU / 10, "a context menu opened"
    assert [p.click(4, 4)["grid"][4][4] for _ in range(3)] == [FILLED, EMPTY, UNKNOWN]


@_live
def test_lock_pins_a_filled_cell_until_right_unlocks_it(page):
    # Every row and column "1": the diagonal solves it, locked cells counting as filled.
    puzzle = puzzle_from_grid(np.eye(3, dtype=np.int8), title="Rooks")
    p = page(puzzle=puzzle, session="rules-lock", buttons="lock")
    p.click(0, 0)
    plain = p.grab()
    state = p.click(0, 0, RIGHT)
    assert state["grid"][0][0] == FILLED and state["locked"] == [[0, 0]]
    # The lock is drawn: the cell is no longer the plain fill.
    x, y = (int(v) for v in p.at(0, 0))
    assert np.abs(p.grab()[y - 10:y + 10, x - 10:x + 10] - plain[y - 10:y + 10, x - 10:x + 10]
                  ).sum() > 1000
    state = p.click(0, 0)
    assert state["grid"][0][0] == FILLED and state["locked"] == [[0, 0]], "left moved a lock"
    assert state["changes"] == 2
    state = p.click(0, 0, RIGHT)
    assert state["grid"][0][0] == FILLED and state["locked"] == []
    state = p.click(0, 0, RIGHT)  # locked again, then the rest of the diagonal
    p.click(1, 1)
    state = p.click(2, 2)
    assert state["locked"] == [[0, 0]] and state["solved"] is True
    state = p.click(1, 2, RIGHT)
    assert state["grid"][1][2] == EMPTY and state["solved"] is True
    # A left drag through the locked cell leaves it as it is.
    state = p.gesture([(0, 2), (0, 1), (0, 0)])
    assert row(state, 0) == [FILLED, FILLED, FILLED] and state["locked"] == [[0, 0]]


@_live
def test_drag_enter_sets_the_cells_the_pointer_lands_in(page):
    p = page(size=(8, 8), seed=1, session="rules-enter", drag="enter")
    state = p.gesture([ROW[0], ROW[-1]])  # one motion straight to the far end
    assert row(state, 2) == [-1, 1, -1, -1, -1, -1, 1, -1]
    assert state["changes"] == 2
    state = p.gesture([(4, c) for c in range(1, 7)])  # every cell on the way
    assert row(state, 4) == [-1, 1, 1, 1, 1, 1, 1, -1]
    # Not a straight line: wherever the pointer goes.
    state = p.gesture([(6, 0), (6, 1), (7, 1), (7, 2)], RIGHT)
    assert [state["grid"][r][c] for r, c in [(6, 0), (6, 1), (7, 1), (7, 2)]] == [EMPTY] * 4
    assert state["grid"][7][0] == UNKNOWN and state["changes"] == 12
    assert state["events"] == 3


@_live
def test_drag_ends_sets_the_pressed_cell_and_the_released_one(page):
    p = page(size=(8, 8), seed=1, session="rules-ends", drag="ends")
    state = p.gesture(ROW)
    assert row(state, 2) == [-1, 1, -1, -1, -1, -1, 1, -1]
    ox, oy = p.layout["canvas"]["x"], p.layout["canvas"]["y"]
    state = p.gesture([(5, 3), (5, 4)], release=p.point(ox - 5, oy + 5))  # let go off the board
    assert row(state, 5) == [-1, -1, -1, 1, -1, -1, -1, -1]
    assert (state["events"], state["changes"]) == (2, 3)


@_live
def test_drag_none_changes_only_the_pressed_cell(page):
    p = page(size=(8, 8), seed=1, session="rules-nodrag", drag="none")
    state = p.gesture(ROW)
    assert row(state, 2) == [-1, 1, -1, -1, -1, -1, -1, -1]
    state = p.gesture([(3, 3), (4, 3), (5, 3)], RIGHT)
    assert [state["grid"][r][3] for r in range(8)] == [-1, -1, -1, 0, -1, -1, -1, -1]
    assert (state["events"], state["changes"]) == (2, 2)


@_live
@pytest.mark.parametrize("buttons", ["toggle", "cycle"])
def test_mark_none_has_no_marks(page, buttons):
    p = page(size=(6, 6), seed=1, session=f"rules-nomark-{buttons}", mark="none",
             buttons=buttons)
    if buttons == "toggle":
        p.xdo("mousemove", *p.at(4, 4), "sleep", "0.3")
        before = p.grab()
        p.xdo("click", str(RIGHT), "sleep", "0.6")
        state = p.state()
        assert state["events"] == 0 and state["grid"][4][4] == UNKNOWN, "right did something"
        assert outside_canvas_changes(p, before) == 0, "a context menu opened"
    # Left goes round the states there are: blank and filled.
    assert [p.click(4, 4)["grid"][4][4] for _ in range(3)] == [FILLED, UNKNOWN, FILLED]


@_live
def test_rule_marks_wants_every_other_cell_marked(page):
    picture = np.zeros((3, 3), dtype=np.int8)
    picture[0] = 1
    p = page(puzzle=puzzle_from_grid(picture, title="Bar"), session="rules-marks",
             rule="marks")
    state = p.gesture([(0, 0), (0, 1), (0, 2)])
    assert row(state, 0) == [1, 1, 1] and state["solved"] is False, "solved without marks"
    p.gesture([(1, 0), (1, 1), (1, 2)], RIGHT)
    state = p.gesture([(2, 0), (2, 1)], RIGHT)
    assert state["solved"] is False
    state = p.click(2, 2, RIGHT)
    assert state["solved"] is True and state["sign_shown"] is True


def one_cell_puzzle() -> Any:
    """3×3, one filled cell (0, 0): one click solves it."""
    picture = np.zeros((3, 3), dtype=np.int8)
    picture[0, 0] = 1
    return puzzle_from_grid(picture, title="Dot")


@_live
def test_sign_dialog_covers_the_page_swallows_clicks_and_drags_by_its_title(page):
    p = page(puzzle=one_cell_puzzle(), session="rules-dialog", sign="dialog")
    board = p.grab()
    p.xdo("mousemove", *p.at(0, 0), "sleep", "0.03", "click", "1")
    state = p.wait(lambda st: st["sign_open"], "the dialog")
    assert state["sign_shown"] is True and state["solved"] is True and state["events"] == 1
    # Due 300-700 ms after solving (by the page's clock; a timer may run a little late).
    assert 300 <= state["sign_ms"] - state["solved_ms"] < 900
    box = state["dialog"]["box"]
    # The layer darkens the whole page, board included.
    time.sleep(0.3)  # the report goes out before the browser has painted the layer
    shot = p.grab()
    x, y = (int(v) for v in p.at(2, 2))
    assert shot[y, x].sum() < board[y, x].sum() * 0.7
    # ... and the page beside it: a corner of the page (light in this theme, far from the
    # box), about halved by the layer's 50 % black.
    cx, cy = (int(v) for v in p.point(5, 5))
    assert not (box["x"] <= 5 < box["x"] + box["w"] and box["y"] <= 5 < box["y"] + box["h"])
    assert board[cy, cx].sum() > 600, f"the page's corner is not light: {board[cy, cx]}"
    assert shot[cy, cx].sum() < board[cy, cx].sum() * 0.6, (board[cy, cx], shot[cy, cx])
    # Clicks on the board reach only the layer.
    p.xdo("mousemove", *p.at(2, 2), "sleep", "0.05", "click", str(LEFT), "sleep", "0.05",
          "click", str(RIGHT), "sleep", "0.5")
    state = p.state()
    assert state["events"] == 1 and state["grid"][2][2] == UNKNOWN and state["sign_open"]
    # The title bar drags the box about.
    title = state["dialog"]["title"]
    grip = p.point(title["x"] + 20, title["y"] + title["h"] // 2)
    to = p.point(title["x"] + 20 - 150, title["y"] + title["h"] // 2 + 90)
    p.xdo("mousemove", *grip, "sleep", "0.05", "mousedown", "1", "sleep", "0.05",
          "mousemove", *to, "sleep", "0.05", "mouseup", "1")
    state = p.wait(lambda st: st["dialog"] and st["dialog"]["box"]["x"] != box["x"], "a move")
    moved = state["dialog"]["box"]
    assert (moved["x"] - box["x"], moved["y"] - box["y"]) == (-150, 90)
    # OK closes it, and the board takes clicks again.
    ok = state["dialog"]["ok"]
    p.xdo("mousemove", *p.point(ok["x"] + ok["w"] // 2, ok["y"] + ok["h"] // 2), "sleep",
          "0.05", "click", "1")
    state = p.wait(lambda st: not st["sign_open"], "the dialog closed")
    assert state["dialog"] is None and state["sign_shown"] is True
    state = p.click(2, 2)
    assert state["grid"][2][2] == FILLED and state["solved"] is False


@_live
def test_sign_alert_reports_before_the_alert_blocks_the_page(page):
    p = page(puzzle=one_cell_puzzle(), session="rules-alert", sign="alert")
    p.click(0, 0)
    state = p.wait(lambda st: st["sign_open"], "the alert")
    assert state["solved"] is True and state["sign_shown"] is True
    assert state["sign_ms"] - state["solved_ms"] >= 200
    time.sleep(0.5)
    # The browser's own alert is modal: the board takes no clicks while it is up.
    p.xdo("mousemove", *p.at(2, 2), "sleep", "0.05", "click", str(LEFT), "sleep", "0.5")
    assert p.state()["events"] == 1
    p.xdo("key", "Return")
    state = p.wait(lambda st: not st["sign_open"], "the alert closed")
    assert state["solved"] is True and state["grid"][2][2] == UNKNOWN
    state = p.click(2, 2)
    assert state["grid"][2][2] == FILLED and state["events"] == 2


# --- signs that change the page: restyle, freeze, notice; input after a sign -------------

def picture_page(page: Any, session: str, **params: Any) -> tuple[Page, tuple[int, int],
                                                                     np.ndarray]:
    """A 10x10 picture with runs across and down, started with all but one of its cells
    filled (`grid=`): the page, the last cell (one left press solves it), the picture."""
    picture = (np.random.default_rng(5).random((10, 10)) < 0.55).astype(np.int8)
    last = (9, int(np.flatnonzero(picture[9])[-1]))
    started = np.where(picture == 1, FILLED, UNKNOWN).astype(np.int8)
    started[last] = UNKNOWN
    p = page(puzzle=puzzle_from_grid(picture, title="Picture"), grid=started,
             session=session, **params)
    time.sleep(0.5)  # the page has reported its board; the window paints it a moment later
    return p, last, picture


def solve_last(p: Page, last: tuple[int, int]) -> dict:
    """Presses the last cell; the report once the page says its sign showed."""
    p.xdo("mousemove", *p.at(*last), "sleep", "0.03", "click", str(LEFT))
    state = p.wait(lambda st: st["sign_shown"], "its sign")
    assert state["solved"] is True and state["events"] == 1
    return state


def page_box(p: Page, rect: dict) -> tuple[slice, slice]:
    """A rectangle in page pixels as index slices of a screen grab."""
    ox, oy = p.origin()
    return (slice(oy + round(rect["y"]), oy + round(rect["y"]) + round(rect["h"])),
            slice(ox + round(rect["x"]), ox + round(rect["x"]) + round(rect["w"])))


def near(pixels: np.ndarray, colour: np.ndarray, tolerance: int = 12) -> np.ndarray:
    return np.abs(pixels - colour).sum(axis=-1) <= tolerance


CHECK_GREEN = rgb("#22a33a")


@_live
def test_sign_restyle_removes_the_lines_merges_the_fills_and_puts_a_check_beside(page):
    skin = nonogram.skins()["sans"]["light"]
    cell, filled = rgb(skin["cell"]), rgb(skin["filled"])
    p, last, picture = picture_page(page, "rules-restyle", sign="restyle")
    before = p.grab()
    state = solve_last(p, last)
    assert state["sign_ms"] - state["solved_ms"] < 50, "at once with the last cell"
    assert state["finished"] is True and state["sign_open"] is False
    time.sleep(0.3)
    after = p.grab()
    board = p.layout["board"]
    lo = (p.layout["thick"] - 1) // 2
    frame = {"x": board["x"] - lo, "y": board["y"] - lo, "w": board["w"] + p.layout["thick"],
             "h": board["h"] + p.layout["thick"]}
    area = page_box(p, frame)
    # Before: grid lines and the thick border among the cells; after: the board is only
    # the cell colour and the fill colour (the border's pixels now the page's).
    inner = page_box(p, board)
    picture_only = near(after[inner], cell) | near(after[inner], filled)
    assert picture_only.all(), f"{(~picture_only).sum()} pixels neither cell nor fill"
    assert (near(before[inner], cell) | near(before[inner], filled)).mean() < 0.97
    lines = near(before[area], rgb(skin["grid"])) | near(before[area], rgb(skin["border"]))
    assert lines.sum() > 1000
    assert not (near(after[area], rgb(skin["grid"])) | near(after[area], rgb(skin["border"]))
                ).any(), "grid lines left"
    # Fills merged: between two filled neighbours the line is fill, no gap.
    ox, oy = p.origin()
    xs = [ox + round(v) for v in p.layout["xs"]]
    ys = [oy + round(v) for v in p.layout["ys"]]
    pairs = 0
    for r in range(10):
        for c in range(10):
            if c < 9 and picture[r, c] and picture[r, c + 1]:
                assert near(after[ys[r] + 1:ys[r + 1], xs[c + 1]], filled).all(), (r, c)
                pairs += 1
            if r < 9 and picture[r, c] and picture[r + 1, c]:
                assert near(after[ys[r + 1], xs[c] + 1:xs[c + 1]], filled).all(), (r, c)
                pairs += 1
    assert pairs > 20
    # A big green check mark beside the board: outside the canvas, drawn only now.
    check = state["sign_parts"]["check"]
    canvas = p.layout["canvas"]
    assert check["w"] >= 64 and check["h"] >= 64
    assert (check["x"] >= canvas["x"] + canvas["w"] or check["x"] + check["w"] <= canvas["x"]
            or check["y"] >= canvas["y"] + canvas["h"]), (check, canvas)
    assert near(after[page_box(p, check)], CHECK_GREEN).sum() > 300
    assert near(before[page_box(p, check)], CHECK_GREEN).sum() == 0
    # The finished board takes no more input, and every press after the sign is counted.
    p.xdo("mousemove", *p.at(0, 0), "sleep", "0.05", "click", str(LEFT), "sleep", "0.05",
          "click", str(RIGHT))
    state = p.wait(lambda st: st["events_after_sign"] >= 2, "two presses after the sign")
    time.sleep(0.3)
    state = p.quiet()
    assert (state["events"], state["changes"], state["events_after_sign"]) == (1, 1, 2)
    assert state["solved"] is True and state["grid"][0][0] == (FILLED if picture[0, 0]
                                                                  else UNKNOWN)


@_live
def test_sign_freeze_turns_the_board_into_an_image_with_a_pulse_and_a_fading_check(page):
    p, last, _ = picture_page(page, "rules-freeze", sign="freeze", fill="hatched")
    before = p.grab()
    state = solve_last(p, last)
    assert 200 <= state["sign_ms"] - state["solved_ms"] < 1500, "250 ms after (timers lag)"
    assert state["finished"] is True and state["board_element"] == "img"
    parts = state["sign_parts"]
    canvas = p.layout["canvas"]
    assert {k: parts["image"][k] for k in "xywh"} == {k: round(canvas[k]) for k in "xywh"}, \
        "the image in the canvas's place"
    check = parts["check"]
    board = p.layout["board"]
    # The check over the middle of the board.
    assert abs(check["x"] + check["w"] / 2 - (board["x"] + board["w"] / 2)) <= 2
    assert abs(check["y"] + check["h"] / 2 - (board["y"] + board["h"] / 2)) <= 2
    # Frames over ~1.2 s from the first that shows the check (the window paints it a moment
    # after the report): the check fades, the frame round the image keeps changing.
    at_check = page_box(p, check)
    deadline = time.monotonic() + 2
    while True:
        shot = p.grab()
        if near(shot[at_check], CHECK_GREEN, 30).sum() > 300 or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    seen = time.monotonic()
    shots = [(0.0, shot)]
    while time.monotonic() - seen < 1.2:
        time.sleep(0.15)
        shots.append((time.monotonic() - seen, p.grab()))
    state = p.wait(lambda st: st["sign_parts"] and "check" not in st["sign_parts"],
                   "the check gone")
    time.sleep(0.3)
    gone = p.grab()
    fade = [float(np.abs(shot[at_check] - gone[at_check]).sum(axis=2).mean())
            for _, shot in shots]
    assert fade[0] > 20, fade
    assert fade[-1] < fade[0] * 0.7, fade
    assert all(b <= a + 1 for a, b in itertools.pairwise(fade)), f"not fading: {fade}"
    assert near(shots[0][1][at_check], CHECK_GREEN, 30).sum() > 300
    # The check gone, the board as it was drawn at the end (hatched fills, lines).
    at_board = page_box(p, board)
    solved_cell = p.at(*last)
    x, y = int(solved_cell[0]), int(solved_cell[1])
    assert near(gone[y - 5:y + 5, x - 5:x + 5], HATCH_DARK, 9).any()
    assert np.abs(gone[at_board] - before[at_board]).sum(axis=2).astype(bool).mean() < 0.05
    # The pulse: a ring just outside the image, orange, changing all the time (two frames
    # either side of a turn of the pulse may match, so: many different rings), and still
    # changing once the check has gone.
    img = parts["image"]
    ring = page_box(p, {"x": img["x"] - 8, "y": img["y"] + 20, "w": 8, "h": img["h"] - 40})
    later = []
    for _ in range(3):
        time.sleep(0.1)
        later.append(p.grab()[ring])
    rings = [shot[ring] for _, shot in shots] + [gone[ring]]
    assert len({r.tobytes() for r in rings}) >= len(rings) // 2 + 1, "no pulse"
    assert len({r.tobytes() for r in [gone[ring], *later]}) >= 2, "the pulse stopped"

    def orange(pixels: np.ndarray) -> int:  # red well over blue, as #f5a623 is
        return int((pixels[..., 0] - pixels[..., 2]).max())

    assert orange(before[ring]) < 30
    assert max(orange(r) for r in rings) > 150
    # No more input on the image: a left press changes nothing; the right button opens the
    # browser's own context menu (an image's); both are counted as input after the sign.
    p.xdo("mousemove", *p.at(0, 0), "sleep", "0.05", "click", str(LEFT))
    state = p.wait(lambda st: st["events_after_sign"] == 1, "a press after the sign")
    time.sleep(0.3)
    menu_before = p.grab()
    p.xdo("click", str(RIGHT), "sleep", "0.6")
    # Pixels that changed anywhere but on the pulsing ring round the image.
    changed = np.abs(p.grab() - menu_before).sum(axis=2) > 30
    ring_band = np.zeros_like(changed)
    ring_band[page_box(p, {k: img[k] + d for k, d in (("x", -12), ("y", -12), ("w", 24),
                                                      ("h", 24))})] = True
    ring_band[page_box(p, img)] = False
    assert changed[~ring_band].sum() > MENU, "no context menu on the image"
    p.xdo("key", "Escape", "sleep", "0.4")
    state = p.quiet()
    assert state["events_after_sign"] == 2
    assert (state["events"], state["changes"], state["solved"]) == (1, 1, True)


@_live
def test_sign_notice_hides_middle_cells_under_a_box_and_greys_the_page(page):
    p, last, _ = picture_page(page, "rules-notice", sign="notice", fill="light")
    before = p.grab()
    state = solve_last(p, last)
    assert 200 <= state["sign_ms"] - state["solved_ms"] < 1500, "200-600 ms (timers lag)"
    assert state["finished"] is False and state["board_element"] == "canvas"
    box = state["sign_parts"]["notice"]
    board = p.layout["board"]
    # Small, over the middle of the board, hiding some of its cells but not most.
    assert abs(box["x"] + box["w"] / 2 - (board["x"] + board["w"] / 2)) <= 2
    assert abs(box["y"] + box["h"] / 2 - (board["y"] + board["h"] / 2)) <= 2
    xs, ys, half = p.layout["xs"], p.layout["ys"], p.layout["pitch"] / 2
    hidden = [(r, c) for r in range(10) for c in range(10)
              if box["x"] <= xs[c] + half < box["x"] + box["w"]
              and box["y"] <= ys[r] + half < box["y"] + box["h"]]
    assert 2 <= len(hidden) <= 30, hidden
    time.sleep(0.3)
    shot = p.grab()
    at_box = page_box(p, box)
    assert near(shot[at_box], rgb("#2e9d3a")).mean() > 0.3, "the box in its own colour"
    # The rest of the window grey (no colour left) and darker; before, it had colour.
    window = np.zeros(shot.shape[:2], dtype=bool)
    ox, oy = p.origin()
    window[oy:oy + p.layout["viewport"]["h"], ox:ox + p.layout["viewport"]["w"]] = True
    window[at_box] = False
    spread = shot.max(axis=2) - shot.min(axis=2)
    assert (spread[window] <= 3).mean() > 0.99
    assert ((before.max(axis=2) - before.min(axis=2))[window] > 20).sum() > 2000
    assert shot[window].mean() < before[window].mean() - 20
    # The cells under the box show the box, not the board.
    r, c = hidden[len(hidden) // 2]
    x, y = (int(v) for v in p.at(r, c))
    assert not near(shot[y, x], rgb("#a9d3f5"), 30) and not near(shot[y, x], rgb("#ffffff"))
    # The board still takes presses (counted after the sign); one that unsolves it takes
    # the notice and the grey away.
    p.click(*last)
    state = p.quiet()
    assert (state["events"], state["events_after_sign"], state["solved"]) == (2, 1, False)
    assert state["sign_parts"] is None and state["sign_shown"] is True
    time.sleep(0.3)
    shot = p.grab()
    assert ((shot.max(axis=2) - shot.min(axis=2))[window] > 20).sum() > 2000, "still grey"


@_live
@pytest.mark.parametrize("sign", ["none", "dim", "dialog"])
def test_events_after_sign_counts_every_press_and_key_once_the_sign_showed(page, sign):
    p = page(puzzle=one_cell_puzzle(), session=f"rules-after-{sign}", sign=sign)
    # Before the sign: presses the game takes and ones it ignores, none counted.
    p.click(2, 2)
    p.click(2, 2)
    p.xdo("mousemove", *p.at(1, 1), "click", str(MIDDLE), "key", "a", "sleep", "0.3")
    assert p.quiet()["events_after_sign"] == 0
    state = p.click(0, 0)
    state = p.wait(lambda st: st["sign_shown"], "the sign")
    assert state["solved"] is True and state["events_after_sign"] == 0, \
        "the solving press is no press after the sign"
    time.sleep(0.2)
    # After it: on the board (or on the dialog's layer over it), off it, keys.
    canvas = p.layout["canvas"]
    p.xdo("mousemove", *p.at(2, 1), "sleep", "0.05", "click", str(LEFT), "sleep", "0.05",
          "click", str(RIGHT), "sleep", "0.05", "mousemove",
          *p.point(canvas["x"] + canvas["w"] + 40, canvas["y"] + 5), "sleep", "0.05",
          "click", str(LEFT), "sleep", "0.05", "key", "space", "sleep", "0.05", "key", "x")
    state = p.wait(lambda st: st["events_after_sign"] >= 5, "five inputs after the sign")
    time.sleep(0.3)
    state = p.quiet()
    assert state["events_after_sign"] == 5
    # What they were, where, and when: listed for a person reading a failed play.
    assert [a["input"] for a in state["after_sign"]] == [
        "button 0", "button 2", "button 0", "key  ", "key x"]
    at = [a["at"] for a in state["after_sign"]]
    assert at[:2] == [[2, 1], [2, 1]] and at[3:] == [None, None]
    assert at[2] == ("div" if sign == "dialog" else "main"), "off the board: the element hit"
    assert all(a["ms"] > 100 for a in state["after_sign"])


@_live
def test_highlight_clues_tints_only_the_clues_of_the_line_under_the_pointer(page):
    p = page(size=(8, 8), seed=4, skin="pixel", session="rules-hl-clues", highlight="clues")
    tint = rgb(nonogram.skins()["pixel"]["light"]["hoverBand"])
    p.xdo("mousemove", "1", "1", "sleep", "0.3")
    still = p.grab()
    p.xdo("mousemove", *p.at(3, 5))
    ox, oy = p.origin()
    rows, cols = p.layout["rowClueArea"], p.layout["columnClueArea"]
    y = oy + round(p.layout["ys"][3]) + p.layout["pitch"] // 2
    x = ox + round(p.layout["xs"][5]) + p.layout["pitch"] // 2
    deadline = time.monotonic() + 3
    while True:
        shot = p.grab()
        row_strip = shot[y, ox + rows["x"] + 2:ox + rows["x"] + rows["w"] - 4]
        col_strip = shot[oy + cols["y"] + 2:oy + cols["y"] + cols["h"] - 4, x]
        if near(row_strip, tint, 30).mean() > 0.3 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert near(row_strip, tint, 30).mean() > 0.3 and near(col_strip, tint, 30).mean() > 0.3
    other = shot[y + p.layout["pitch"], ox + rows["x"] + 2:ox + rows["x"] + rows["w"] - 4]
    assert near(other, tint, 30).mean() == 0.0, "another row's clues"
    board = page_box(p, p.layout["board"])
    assert np.array_equal(shot[board], still[board]), "a grid cell changed under the pointer"
