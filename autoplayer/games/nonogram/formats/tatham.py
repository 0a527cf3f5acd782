"""Simon Tatham's Pattern game ID: `WxH:` then the columns, then the rows.

As `pattern.c` reads it: W+H entries separated by `/`, first the columns left
to right (each read top to bottom), then the rows top to bottom; numbers
within an entry are separated by `.`; an empty entry is an empty line. `W:`
alone means a square. An optional `,` suffix lists given cells row-major, run
length coded: a letter of value v (`a`=0) skips v cells, then, when v < 25,
gives the next one (lowercase empty, uppercase filled); `z` skips 25 cells.
We read that suffix into `Puzzle.grid` and write the grid back the same way.
"""

from __future__ import annotations

import re

from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import common
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN, Clue, Puzzle

NAME = "tatham"
EXTENSIONS = (".pattern",)
CARRIES = frozenset({"grid"})
DESCRIPTION = "Simon Tatham's Pattern game ID (given cells in the grid)"

_ID = re.compile(r"(?P<w>\d+)(?:x(?P<h>\d+))?:(?P<desc>\S*)")
_SKIP_ONLY = 25


def looks_like(text: str) -> bool:
    return bool(re.fullmatch(r"\s*\d+(x\d+)?:[0-9./]*(,[A-Za-z]*)?\s*", text))


def parse(text: str) -> Puzzle:
    lines = text.splitlines()
    lineno = next((n for n, line in enumerate(lines, 1) if line.strip()), 1)
    body = [line.strip() for line in lines if line.strip()]
    if len(body) != 1:
        raise InputError("a game ID is a single line", line=lineno + 1)
    match = _ID.fullmatch(body[0])
    if match is None:
        raise InputError(f"not a Pattern game ID ('WxH:clues'): {body[0][:40]!r}", line=lineno)
    width = common.side(match["w"], "width", lineno)
    height = common.side(match["h"] or match["w"], "height", lineno)
    clues_part, comma, given = match["desc"].partition(",")
    entries = clues_part.split("/")
    if len(entries) != width + height:
        few_many = "too few" if len(entries) < width + height else "too many"
        raise InputError(
            f"{few_many} clue entries: {len(entries)} for {width} columns + {height} rows",
            line=lineno,
        )
    clues: list[Clue] = []
    for i, entry in enumerate(entries):
        kind, index, length = (
            ("column", i + 1, height) if i < width else ("row", i - width + 1, width)
        )
        tokens = entry.split(".") if entry else []
        if "0" in tokens or any(re.fullmatch(r"0+", t) for t in tokens):
            raise InputError(f"{kind} {index}: clue numbers must be positive", line=lineno)
        clues.append(common.clue(tokens, kind=kind, index=index, length=length, line=lineno))
    grid = _given(given, width, height, lineno) if comma else None
    puzzle = Puzzle(tuple(clues[width:]), tuple(clues[:width]), grid=grid)
    return common.checked(puzzle, lineno)


def _given(code: str, width: int, height: int, lineno: int):
    cells = [UNKNOWN] * (width * height)
    i = 0
    for ch in code:
        if not ch.isascii() or not ch.isalpha():
            raise InputError(f"given cells: unrecognised character {ch!r}", line=lineno)
        if i >= len(cells):
            raise InputError("given cells: more data than the grid has cells", line=lineno)
        skip = ord(ch.lower()) - ord("a")
        i += skip
        if skip < _SKIP_ONLY and i < len(cells):
            cells[i] = FILLED if ch.isupper() else EMPTY
            i += 1
        if i > len(cells):
            raise InputError("given cells: more data than the grid has cells", line=lineno)
    if i < len(cells):
        raise InputError("given cells: less data than the grid has cells", line=lineno)
    return common.grid_array([cells[r * width:(r + 1) * width] for r in range(height)])


def format(puzzle: Puzzle) -> str:
    entries = [".".join(map(str, c)) for c in puzzle.columns + puzzle.rows]
    out = f"{puzzle.width}x{puzzle.height}:{'/'.join(entries)}"
    if puzzle.grid is not None:
        out += "," + _encode_given([int(c) for c in puzzle.grid.ravel()])
    return out + "\n"


def _encode_given(cells: list[int]) -> str:
    out = []
    skip = 0
    for cell in cells:
        if cell == UNKNOWN:
            skip += 1
            continue
        while skip >= _SKIP_ONLY:
            out.append("z")
            skip -= _SKIP_ONLY
        letter = chr(ord("a") + skip)
        out.append(letter.upper() if cell == FILLED else letter)
        skip = 0
    while skip >= _SKIP_ONLY:
        out.append("z")
        skip -= _SKIP_ONLY
    if skip:
        out.append(chr(ord("a") + skip))
    return "".join(out)
