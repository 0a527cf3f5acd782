"""Box-drawn pictures of boards and readable move lists, for the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from autoplayer.games.fifteen.model import Board, describe

UNICODE_BOX = "┌┬┐├┼┤└┴┘─│"
ASCII_BOX = "+++++++++-|"
"""The same frame in plain ASCII, for pipes, files and terminals without box drawing."""


def box_lines(board: Board, chars: str = UNICODE_BOX) -> list[str]:
    """The board framed with `chars` (corners, junctions, then the two lines), gap blank."""
    tl, tm, tr, ml, mm, mr, bl, bm, br, horizontal, vertical = chars
    cell = max(2, len(str(board.size - 1))) + 2
    bar = horizontal * cell

    def rule(left: str, mid: str, right: str) -> str:
        return left + mid.join([bar] * board.width) + right

    lines = [rule(tl, tm, tr)]
    for r, row in enumerate(board.rows()):
        lines.append(
            vertical + vertical.join((str(t) if t else "").rjust(cell - 1) + " " for t in row)
            + vertical
        )
        lines.append(rule(ml, mm, mr) if r < board.height - 1 else rule(bl, bm, br))
    return lines


def unicode_ok(encoding: str | None) -> bool:
    """Whether text in `encoding` can carry the box drawing and arrows used here."""
    try:
        (UNICODE_BOX + "←→↑↓").encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def wrap_moves(board: Board, moves: Sequence[str], per_line: int = 15,
               arrows: bool = True) -> list[str]:
    """Moves as '12←' (the tile, the way it slides; '12L' without arrows), `per_line` a line."""
    words = describe(board, moves, arrows)
    return [" ".join(words[i : i + per_line]) for i in range(0, len(words), per_line)]
