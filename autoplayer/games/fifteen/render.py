"""Box-drawn pictures of boards and readable move lists, for the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from autoplayer.games.fifteen.model import Board, describe


def box_lines(board: Board) -> list[str]:
    """The board in box-drawing characters, one string a text line, the gap blank."""
    cell = max(2, len(str(board.size - 1))) + 2
    bar = "─" * cell

    def rule(left: str, mid: str, right: str) -> str:
        return left + mid.join([bar] * board.width) + right

    lines = [rule("┌", "┬", "┐")]
    for r, row in enumerate(board.rows()):
        lines.append("│" + "│".join((str(t) if t else "").rjust(cell - 1) + " " for t in row) + "│")
        lines.append(rule("├", "┼", "┤") if r < board.height - 1 else rule("└", "┴", "┘"))
    return lines


def wrap_moves(board: Board, moves: Sequence[str], per_line: int = 15) -> list[str]:
    """Moves as '12←' (the tile, the way it slides), `per_line` to a line."""
    words = describe(board, moves)
    return [" ".join(words[i : i + per_line]) for i in range(0, len(words), per_line)]
