"""puzz.link / pzprjs nonogram URLs: `https://puzz.link/p?nonogram/COLS/ROWS/DATA`.

pzprjs keeps the clues in cells outside the board: ceil(rows/2) above each column
and ceil(cols/2) left of each row (the most a line can need). The data lists them
in number16 (see `autoplayer.puzzlink`), every column's places first, then every
row's; a line's first place is the one beside the board, so a clue is read back
to front. pzprjs's editor packs each line's numbers against the board before
writing (`encodeNumber16ExCellFlushed`), and so does `format`; a line with gaps
between its numbers reads as the numbers in order, as pzprjs's checker reads it.

The URL holds clues only. A `?` clue (pzprjs lets an editor leave a number
unknown) and a 0 are refused: neither is a nonogram clue this program can solve.
"""

from __future__ import annotations

from autoplayer import puzzlink
from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import common
from autoplayer.games.nonogram.model import MAX_SIDE, Clue, Puzzle, validate

NAME = "puzzlink"
EXTENSIONS: tuple[str, ...] = ()
CARRIES: frozenset[str] = frozenset()
DESCRIPTION = "puzz.link / pzprjs URL (clues only)"

PIDS = ("nonogram",)
"""The puzzle ids pzprjs reads as a plain nonogram."""


def looks_like(text: str) -> bool:
    text = text.strip()
    return "\n" not in text and puzzlink.looks_like_url(text)


def parse(text: str) -> Puzzle:
    try:
        return _parse(text)
    except InputError as err:
        raise InputError(err.message, line=1) from None


def _parse(text: str) -> Puzzle:
    url = puzzlink.split_url(text, most_side=MAX_SIDE)
    if url.pid not in PIDS:
        hint = "; solve it with 'autoplayer ripple solve URL OUT' or ripple-effect" \
            if url.pid in ("ripple", "hakyukoka") else ""
        raise InputError(f"a puzz.link {url.pid!r} puzzle, not a nonogram{hint}")
    above, left = slots(url.cols, url.rows)
    values, end = puzzlink.read_number16(
        url.body, url.cols * above + url.rows * left, "clue places")
    puzzlink.check_end(url.body, end)
    columns = tuple(_clue(values[c * above:(c + 1) * above], "column", c + 1, url.rows)
                    for c in range(url.cols))
    base = url.cols * above
    rows = tuple(_clue(values[base + r * left:base + (r + 1) * left], "row", r + 1, url.cols)
                 for r in range(url.rows))
    puzzle = Puzzle(rows, columns)
    validate(puzzle)
    return puzzle


def slots(cols: int, rows: int) -> tuple[int, int]:
    """Clue places above each column and left of each row (pzprjs's excellRows/Cols)."""
    return (rows + 1) // 2, (cols + 1) // 2


def _clue(places: list[int], kind: str, index: int, length: int) -> Clue:
    numbers = [v for v in places if v != puzzlink.EMPTY]
    if puzzlink.QUESTION in numbers:
        raise InputError(f"{kind} {index} has a '?' clue; every clue number must be given")
    if 0 in numbers:
        raise InputError(f"{kind} {index} has a clue number 0")
    tokens = [str(v) for v in reversed(numbers)] or ["0"]
    return common.clue(tokens, kind=kind, index=index, length=length, line=1)


def format(puzzle: Puzzle) -> str:
    return url(puzzle) + "\n"


def url(puzzle: Puzzle) -> str:
    above, left = slots(puzzle.width, puzzle.height)
    places: list[int] = []
    for clues, room in ((puzzle.columns, above), (puzzle.rows, left)):
        for clue in clues:
            numbers = list(reversed(clue))
            places += numbers + [puzzlink.EMPTY] * (room - len(numbers))
    body = puzzlink.write_number16(places)
    return puzzlink.make_url(PIDS[0], puzzle.width, puzzle.height, body)
