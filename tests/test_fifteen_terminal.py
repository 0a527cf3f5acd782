"""`autoplayer fifteen play` driven through a real terminal (tmux): keys in, screen text out."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autoplayer.games.fifteen.ids import board_from_id, id_count, id_of
from autoplayer.games.fifteen.model import WORDS, Board, goal

pytestmark = [
    pytest.mark.e2e,
    # `make test` installs tmux (tools/ensure-system-deps); only a bare pytest elsewhere skips.
    pytest.mark.skipif(shutil.which("tmux") is None and not os.environ.get("CI"),
                       reason="tmux is not installed (make system-deps installs it)"),
]

REPO = Path(__file__).resolve().parent.parent
KEY_OF = {"L": "Left", "R": "Right", "U": "Up", "D": "Down"}
MOVE_OF_WORD = {word: move for move, word in WORDS.items()}


class Terminal:
    """One tmux server of our own (private socket) running one command in an 80×24 pane."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", str(self.socket), *args], capture_output=True,
                              text=True, check=True).stdout

    def start(self, *argv: str, env: str = "") -> None:
        # The shell reports the exit status and keeps the pane (and its last lines) open.
        command = " ".join(
            [*(["env", env] if env else []), sys.executable, "-m", "autoplayer", "fifteen",
             "play", *argv]
        )
        self.tmux("-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "-c",
                  str(REPO), f"{command}; echo '[exit '$?']'; sleep 60")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "0")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "0", *keys)

    def wait_for(self, pattern: str, timeout: float = 40.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            if re.search(pattern, text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} not on screen after {timeout} s:\n{text}")
            time.sleep(0.05)

@pytest.fixture
def term(tmp_path: Path) -> Iterator[Terminal]:
    t = Terminal(tmp_path / "tmux.sock")
    yield t
    subprocess.run(["tmux", "-S", str(t.socket), "kill-server"], capture_output=True, check=False)


def board_on(screen: str, width: int, height: int) -> Board:
    """The board drawn on the screen: the rows between │ bars, blanks as the gap."""
    bar = "│" if "│" in screen else "|"  # box drawing, or the ASCII frame
    rows = [line for line in screen.splitlines() if line.startswith(bar)]
    assert len(rows) == height, screen
    cells = [int(f) if f.strip() else 0 for row in rows for f in row.strip(bar).split(bar)]
    assert len(cells) == width * height, screen
    return Board(width, height, tuple(cells))


def test_arrow_keys_slide_the_tile_beside_the_gap(term):
    start = board_from_id(123_456, 3, 3)
    term.start("--id", "123456", "--size", "3x3")
    text = term.wait_for("game ID 123456")
    assert board_on(text, 3, 3) == start
    board = start
    made = 0
    for move in "LLUURRDDLU":
        term.keys(KEY_OF[move])
        if board.tile_to_move(move) is None:
            term.wait_for(f"nothing can slide {WORDS[move]}")
        else:
            tile = board.cells[board.tile_to_move(move)]
            board = board.move(move)
            made += 1
            term.wait_for(rf"moves: {made}\n.*moved {tile} {WORDS[move]}")
        assert board_on(term.screen(), 3, 3) == board
    assert 0 < made < 10  # some slides were legal, some ran into the edge
    term.keys("q")
    assert f"not solved after {made} moves" in term.wait_for(r"\[exit 0\]")


def test_following_the_hints_solves_in_the_optimal_number_of_moves(term):
    from autoplayer.games.fifteen.optimal import solve_optimal

    start = board_from_id(98_765, 3, 3)
    optimal = len(solve_optimal(start).moves)
    term.start("--id", "98765", "--size", "3x3")
    term.wait_for("game ID 98765")
    for count in range(optimal):
        term.keys("h")
        hint = re.search(r"hint: slide (\d+) (\w+) \((\d+) moves to go, optimal\)",
                         term.wait_for(r"hint: slide"))
        assert hint, term.screen()
        assert int(hint[3]) == optimal - count
        term.keys(KEY_OF[MOVE_OF_WORD[hint[2]]])
        term.wait_for(rf"moves: {count + 1}\b")
    text = term.wait_for("Note: this board is solved")
    assert f"Solved in {optimal} moves" in text
    assert board_on(text, 3, 3).is_solved()


def test_s_solves_a_4x4_board_with_animation(term):
    from autoplayer.games.fifteen.pdb import tables

    tables(4, 4)  # build (or load) the cached tables the game will read
    rng = random.Random(44)
    board = goal()
    for _ in range(40):  # a random walk: a few dozen slides to show, not a minute of them
        board = board.move(rng.choice(board.legal_moves()))
    board_id = id_of(board)
    term.start("--id", str(board_id))
    text = term.wait_for(f"game ID {board_id}")
    assert board_on(text, 4, 4) == board_from_id(board_id)
    term.keys("s")
    seen: set[Board] = set()
    deadline = time.monotonic() + 60
    while "Note: this board is solved" not in (text := term.screen()):
        assert time.monotonic() < deadline, text
        seen.add(board_on(text, 4, 4))
        time.sleep(0.03)
    assert board_on(text, 4, 4).is_solved()
    assert len(seen) >= 5  # the slides were shown one by one
    term.keys("Escape")
    assert re.search(r": solved after \d+ moves", term.wait_for(r"\[exit 0\]"))


def test_starting_solved_and_quitting_with_escape(term):
    term.start("--id", "0", "--size", "2x3")
    text = term.wait_for("Note: this board is solved")
    assert board_on(text, 2, 3).is_solved()
    term.keys("Escape")
    text = term.wait_for(r"\[exit 0\]", timeout=3)  # Esc quits at once
    assert "2x3 game ID 0: solved after 0 moves" in text and "now ID 0" in text


def test_hint_on_a_size_without_tables_uses_the_human_style_solution(term):
    board_id = id_count(5, 4) // 3
    term.start("--id", str(board_id), "--size", "5x4")
    term.wait_for(f"game ID {board_id}")
    term.keys("h")
    assert re.search(r"hint: slide \d+ \w+ \(\d+ moves to go, human-style\)",
                     term.wait_for("hint:"))


def test_an_ascii_terminal_gets_the_ascii_frame(term):
    term.start("--id", "5", "--size", "3x3",
               env="LC_ALL=C PYTHONCOERCECLOCALE=0 PYTHONUTF8=0")
    text = term.wait_for("game ID 5")
    assert "+----+----+----+" in text and "┌" not in text
    assert board_on(text, 3, 3) == board_from_id(5, 3, 3)
    term.keys("Left")
    assert board_on(term.wait_for("moves: 1"), 3, 3) == board_from_id(5, 3, 3).move("L")
