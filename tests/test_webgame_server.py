"""The game server's routes and the seeded puzzles it hands to pages (no browser)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from autoplayer.errors import UserError
from autoplayer.games.nonogram.model import Puzzle, clues_of, satisfies
from autoplayer.webgame import nonogram
from autoplayer.webgame.puzzles import parse_size, random_grid, seeded_puzzle
from autoplayer.webgame.server import GameServer


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def post(url: str, body: Any) -> int:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status
    except urllib.error.HTTPError as err:
        return err.code


@pytest.fixture
def server():
    with GameServer() as s:
        yield s


def page_config(html: bytes) -> dict[str, Any]:
    text = html.decode()
    start = text.index('<script id="config" type="application/json">') + len(
        '<script id="config" type="application/json">')
    return json.loads(text[start:text.index("</script>", start)])


# --- puzzles ------------------------------------------------------------------------------

def test_seeded_puzzles_are_deterministic_and_differ_by_seed():
    a = random_grid(15, 10, 7)
    assert a.shape == (10, 15)
    assert np.array_equal(a, random_grid(15, 10, 7))
    assert not np.array_equal(a, random_grid(15, 10, 8))
    # Pinned: the same seed must give the same puzzle on every machine and Python version.
    assert "".join(map(str, random_grid(5, 5, 1).ravel())) == PINNED_5x5_SEED_1


PINNED_5x5_SEED_1 = "0001000110010010011001110"


@pytest.mark.parametrize(("w", "h", "seed"), [(5, 5, 0), (15, 10, 3), (30, 30, 2), (1, 7, 9)])
def test_seeded_puzzle_clues_match_its_grid(w, h, seed):
    p = seeded_puzzle(w, h, seed)
    assert (p.width, p.height) == (w, h)
    assert p.solution is not None
    assert clues_of(p.solution) == (p.rows, p.columns)
    assert satisfies(p, p.solution)


def test_parse_size_and_bad_sizes():
    assert parse_size("15x10") == (15, 10)
    assert parse_size("5X5") == (5, 5)
    for bad in ("15", "x5", "0x5", "61x5", "ax b"):
        with pytest.raises(UserError):
            parse_size(bad)


# --- routes -------------------------------------------------------------------------------

def test_url_page_and_puzzle_agree(server):
    url = server.url(size=(12, 8), seed=4, skin="sans", theme="dark", cell=30, session="abc")
    parts = urlsplit(url)
    assert parts.hostname == "127.0.0.1" and parts.port and parts.port > 0
    assert parse_qs(parts.query)["session"] == ["abc"]
    status, html = get(url)
    assert status == 200
    config = page_config(html)
    expected = seeded_puzzle(12, 8, 4)
    assert config["puzzle"]["rows"] == [list(r) for r in expected.rows]
    assert config["puzzle"]["columns"] == [list(c) for c in expected.columns]
    assert "solution" not in config["puzzle"]  # the page never sees an answer
    assert (config["skinName"], config["theme"], config["cell"]) == ("sans", "dark", 30)
    assert config["skin"] == nonogram.skins()["sans"]
    assert b"<title>Nonogram" in html
    puzzle = server.puzzle("abc")
    assert isinstance(puzzle, Puzzle) and puzzle.rows == expected.rows
    status, body = get(f"{server.base_url}/api/puzzle?session=abc")
    assert status == 200 and json.loads(body)["columns"] == config["puzzle"]["columns"]


def test_state_round_trip_keeps_the_newest_report(server):
    server.url(size=(5, 5), seed=1, session="s1")
    assert server.state("s1") is None
    assert get(f"{server.base_url}/api/state?session=s1")[0] == 404
    grid = [[-1] * 5 for _ in range(5)]
    assert post(f"{server.base_url}/api/state",
                {"session": "s1", "load": "a", "seq": 2, "grid": grid, "solved": False,
                 "events": 3}) == 200
    # An older report arriving late (requests run on threads) does not win.
    assert post(f"{server.base_url}/api/state",
                {"session": "s1", "load": "a", "seq": 1, "grid": grid, "solved": True,
                 "events": 1}) == 200
    state = server.state("s1")
    assert state is not None and state["events"] == 3 and state["solved"] is False
    # A reloaded page counts from 1 again and replaces the old load's report.
    post(f"{server.base_url}/api/state",
         {"session": "s1", "load": "b", "seq": 1, "grid": grid, "solved": False, "events": 0})
    assert server.state("s1")["load"] == "b"
    status, body = get(f"{server.base_url}/api/state?session=s1")
    assert status == 200 and json.loads(body)["events"] == 0


def test_bad_requests_get_clear_errors(server):
    base = server.base_url
    cases = {
        f"{base}/nonogram?size=5x5&skin=comic": "unknown skin",
        f"{base}/nonogram?size=5x5&theme=sepia": "unknown theme",
        f"{base}/nonogram?size=5x5&cell=11": "cell size 11",
        f"{base}/nonogram?size=5x5&cell=41": "cell size 41",
        f"{base}/nonogram?size=100x5": "outside",
        f"{base}/nonogram?size=5x5&seed=x": "not a whole number",
        f"{base}/nonogram?puzzle=zz": "no puzzle",
        f"{base}/nonogram?size=5x5&session=a%20b": "session",
        f"{base}/nonogram?size=5x5&session=%C3%A9": "session",
    }
    for url, message in cases.items():
        status, body = get(url)
        assert status == 400, url
        assert message in json.loads(body)["error"], url
    assert get(f"{base}/nowhere")[0] == 404
    assert get(f"{base}/static/../server.py")[0] == 404
    assert get(f"{base}/static/nonogram/game.js")[0] == 200
    assert post(f"{base}/api/state", {"session": "unknown"}) == 404
    assert post(f"{base}/api/state", ["not", "an", "object"]) == 400
    server.url(size=(5, 5), session="known")
    assert post(f"{base}/api/state", {"session": "known", "seq": "2"}) == 400
    assert post(f"{base}/api/other", {}) == 404


def test_puzzle_file_route(server, tmp_path: Path):
    from autoplayer.games.nonogram.formats import save_puzzle

    original = seeded_puzzle(6, 4, 11)
    path = tmp_path / "p.non"
    save_puzzle(original, path)
    url = server.url(puzzle=path, skin="serif", session="file")
    assert "puzzle=" in url and "size=" not in url
    status, html = get(url)
    assert status == 200
    config = page_config(html)
    assert config["puzzle"]["rows"] == [list(r) for r in original.rows]
    assert server.puzzle("file").columns == original.columns
    # The same object registered twice keeps one ID.
    p = server.puzzle("file")
    assert server.register(p) == server.register(p)


def test_every_skin_has_both_themes_and_the_colours_the_page_reads():
    game_js = (Path(nonogram.__file__).parent / "static" / "nonogram" / "game.js").read_text()
    assert len(nonogram.SKINS) >= 3
    fonts = {s["font"] for s in nonogram.skins().values()}
    assert "pixel" in fonts and len(fonts) == len(nonogram.SKINS)
    for name, skin in nonogram.skins().items():
        assert skin["zero"] in ("0", "blank") and skin["done"] in ("fade", "strike"), name
        assert skin["clues"] in ("bands", "boxed", "free", "bars"), name
        assert nonogram.MIN_CELL <= skin["cell"] <= nonogram.MAX_CELL, name
        for theme in nonogram.THEMES:
            for key, value in skin[theme].items():
                assert f"colours.{key}" in game_js or f'"{key}"' in game_js, (name, key)
                assert value is None or isinstance(value, str), (name, key)


# --- the command --------------------------------------------------------------------------

def test_serve_command_skins_match_the_skin_table():
    from autoplayer.commands.webgame import SKIN_NAMES

    assert SKIN_NAMES == nonogram.SKINS


def test_serve_prints_a_url_that_serves_the_game(tmp_path: Path):
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "autoplayer", "serve", "--size", "7x6", "--seed", "5",
         "--skin", "serif", "--theme", "dark"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        status, html = get(url)
        assert status == 200
        config = page_config(html)
        assert config["puzzle"]["rows"] == [list(r) for r in seeded_puzzle(7, 6, 5).rows]
        assert (config["skinName"], config["theme"]) == ("serif", "dark")
    finally:
        proc.terminate()
        proc.wait(10)


def test_serve_fifteen_prints_a_url_that_serves_the_15_puzzle():
    import subprocess
    import sys

    from autoplayer.webgame.fifteen import seeded_board

    proc = subprocess.Popen(
        [sys.executable, "-m", "autoplayer", "serve", "--game", "fifteen", "--size", "3x3",
         "--seed", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and "/fifteen?" in url
        status, html = get(url)
        assert status == 200
        config = page_config(html)
        assert (config["width"], config["height"]) == (3, 3)
        assert config["cells"] == list(seeded_board(3, 3, 4).cells)
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize(("args", "message"), [
    (["--size", "3x"], "is not WIDTHxHEIGHT"),
    (["--cell", "50"], "cell size 50"),
    (["--puzzle", "/no/such/file.non"], "no such file"),
    (["--port", "70000"], "must be 0..65535, not 70000"),
    (["--open"], "DISPLAY is not set"),
    (["--game", "fifteen", "--size", "2x2"], "outside 3x3..6x6"),
    (["--game", "fifteen", "--skin", "mono"], "options of the nonogram page"),
])
def test_serve_bad_arguments_are_one_line_errors(args, message, monkeypatch):
    import contextlib
    import io

    from autoplayer.cli import main

    monkeypatch.delenv("DISPLAY", raising=False)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["serve", *args])
    assert code == 2
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_started_game_and_hover_parameters(server):
    from autoplayer.webgame.puzzles import grid_param, parse_grid_param

    g = np.array([[-1, 0, 1], [1, 1, -1]], dtype=np.int8)
    assert grid_param(g) == ".01" + "11."
    assert parse_grid_param(".0111.", 3, 2) == g.tolist()
    url = server.url(size=(3, 2), seed=1, grid=g, hover=(1, 2), session="started")
    assert "grid=.0111." in url and "hover=1%2C2" in url
    config = page_config(get(url)[1])
    assert config["initial"] == g.tolist() and config["hover"] == [1, 2]
    base = server.base_url
    for query, message in {
        "size=3x2&grid=.01": "grid has 3 cells",
        "size=3x2&grid=.0111x": "may hold only",
        "size=3x2&hover=2,0": "outside the 3x2 board",
        "size=3x2&hover=1": "is not ROW,COLUMN",
    }.items():
        status, body = get(f"{base}/nonogram?{query}")
        assert status == 400 and message in json.loads(body)["error"], query


def test_serve_stops_cleanly_however_many_ctrl_c_arrive() -> None:
    """`timeout -s INT` signals the process and then its group: two interrupts together
    once made a clean stop exit 130, or fail inside a lock ("release unlocked lock")."""
    import signal
    import subprocess
    import sys

    for gap in (0.0, 0.0, 0.01):
        proc = subprocess.Popen([sys.executable, "-m", "autoplayer", "serve"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline().startswith("http://")
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        time.sleep(gap)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert err.strip() == "Open the URL in a browser; Ctrl+C stops the server.", err
