"""The terminal game: a box-drawn board, arrow keys, hints and an animated solve (curses).

Arrow keys slide the tile beside the gap in the arrow's direction (Left moves
the tile right of the gap to the left). `h` shows the next move of an optimal
solution (of the human-style one on sizes with no pattern databases); `s`
plays the whole solution, one slide at a time, until done or a key is pressed.
"""

from __future__ import annotations

import contextlib
import curses
import locale
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from autoplayer.errors import UserError
from autoplayer.games.fifteen.ids import board_from_id, id_count, id_of
from autoplayer.games.fifteen.model import WORDS, Board, parse_size
from autoplayer.games.fifteen.render import ASCII_BOX, UNICODE_BOX, box_lines, unicode_ok

KEYS = {curses.KEY_LEFT: "L", curses.KEY_RIGHT: "R", curses.KEY_UP: "U", curses.KEY_DOWN: "D"}
ESC = 27
STEP_SECONDS = 0.15
HELP = "arrows: slide a tile   h: hint   s: solve   q/Esc: quit"


def starting_board(size: str, board_id: int | None, seed: int | None) -> tuple[Board, int]:
    """The board asked for on the command line (a random one when neither ID nor seed is given)."""
    width, height = parse_size(size)
    if board_id is None:
        rng = random.Random(seed)
        board_id = rng.randrange(id_count(width, height))
    return board_from_id(board_id, width, height), board_id


@dataclass
class Session:
    """What the screen shows, and the solution known for the current board (if any)."""

    board: Board
    board_id: int
    moves_made: int = 0
    message: str = ""
    plan: list[str] = field(default_factory=list)  # solution of `board`, when known
    plan_optimal: bool = False
    box: str = UNICODE_BOX  # ASCII_BOX where the terminal's encoding has no box drawing

    def slide(self, move: str) -> bool:
        src = self.board.tile_to_move(move)
        if src is None:
            self.message = f"nothing can slide {WORDS[move]}"
            return False
        tile = self.board.cells[src]
        self.board = self.board.move(move)
        self.moves_made += 1
        # the rest of a known solution stays a solution (and optimal) if its move was taken
        self.plan = self.plan[1:] if self.plan and self.plan[0] == move else []
        self.message = f"moved {tile} {WORDS[move]}"
        if self.board.is_solved():
            plural = "" if self.moves_made == 1 else "s"
            self.message = f"Solved in {self.moves_made} move{plural}. Note: this board is solved."
        return True


def _solution(session: Session, redraw: Callable[[], None]) -> None:
    """Fills session.plan: optimal where tables exist (built on first use), else human-style."""
    if session.plan or session.board.is_solved():
        return
    board = session.board
    from autoplayer.games.fifteen.partitions import has_tables

    if has_tables(board.width, board.height):
        session.message = "thinking... (finding an optimal solution)"
        redraw()
        from autoplayer.games.fifteen.optimal import solve_optimal

        def progress(label: str, fraction: float) -> None:
            session.message = (
                f"building pattern databases {label} (first time only): {100 * fraction:.0f}%"
            )
            redraw()

        session.plan = list(solve_optimal(board, progress).moves)
        session.plan_optimal = True
    else:
        from autoplayer.games.fifteen.human import solve_fast

        session.plan = list(solve_fast(board))
        session.plan_optimal = False


def _draw(screen: curses.window, session: Session) -> None:
    screen.erase()
    b = session.board
    lines = [
        f"autoplayer fifteen: {b.width}x{b.height}, game ID {session.board_id}",
        "",
        *box_lines(b, session.box),
        "",
        f"moves: {session.moves_made}",
        session.message,
        "",
        HELP,
    ]
    rows, cols = screen.getmaxyx()
    for y, text in enumerate(lines[: rows - 1]):
        with contextlib.suppress(curses.error):  # a terminal too small shows what fits
            screen.addstr(y, 0, text[: cols - 1])
    screen.refresh()


def _hint(screen: curses.window, session: Session) -> None:
    if session.board.is_solved():
        session.message = "Already solved. Note: this board is solved."
        return
    _solution(session, lambda: _draw(screen, session))
    move = session.plan[0]
    src = session.board.tile_to_move(move)
    assert src is not None  # a plan only holds moves that slide something
    tile = session.board.cells[src]
    kind = "optimal" if session.plan_optimal else "human-style"
    session.message = (
        f"hint: slide {tile} {WORDS[move]} ({len(session.plan)} moves to go, {kind})"
    )


def _animate(screen: curses.window, session: Session) -> None:
    if session.board.is_solved():
        session.message = "Already solved. Note: this board is solved."
        return
    _solution(session, lambda: _draw(screen, session))
    screen.timeout(int(STEP_SECONDS * 1000))
    try:
        while session.plan:
            session.slide(session.plan[0])
            _draw(screen, session)
            if session.board.is_solved():
                return
            if screen.getch() != -1:
                session.message = "solving stopped"
                return
    finally:
        screen.timeout(-1)


def _loop(screen: curses.window, session: Session) -> None:
    curses.curs_set(0)
    screen.keypad(True)
    while True:
        _draw(screen, session)
        key = screen.getch()
        if key in (ord("q"), ord("Q"), ESC):
            return
        if key in KEYS:
            session.slide(KEYS[key])
        elif key in (ord("h"), ord("H")):
            _hint(screen, session)
        elif key in (ord("s"), ord("S")):
            _animate(screen, session)
        elif key != curses.KEY_RESIZE:
            session.message = "keys: arrows, h, s, q"


def play_in_terminal(board: Board, board_id: int) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UserError("fifteen play needs a terminal (stdin and stdout must be a tty)")
    os.environ.setdefault("ESCDELAY", "25")  # Esc quits at once, not after curses' 1 s wait
    session = Session(board, board_id)
    if not unicode_ok(locale.getpreferredencoding(False)):
        session.box = ASCII_BOX
    if board.is_solved():
        session.message = "Note: this board is solved."
    started = time.monotonic()
    curses.wrapper(_loop, session)
    state = "solved" if session.board.is_solved() else "not solved"
    print(
        f"fifteen {board.width}x{board.height} game ID {board_id}: {state} after "
        f"{session.moves_made} moves in {time.monotonic() - started:.0f} s; "
        f"now ID {id_of(session.board)}"
    )
    return 0
