"""Simon Tatham's Pattern game ID: `WxH:` then the columns, then the rows.

As `pattern.c` reads it: W+H entries separated by `/`, first the columns left
to right (each read top to bottom), then the rows top to bottom; numbers
within an entry are separated by `.`; an empty entry is an empty line. `W:`
alone means a square. An optional `,` suffix lists given cells row-major, run
length coded: a letter of value v (`a`=0) skips v cells, then, when v < 25,
gives the next one (lowercase empty, uppercase filled); `z` skips 25 cells.
We read that suffix into `Puzzle.grid` and write the grid back the same way.

We also read Pattern's save files (`SAVEFILE:41:Simon Tatham's Portable
Puzzle Collection`, records `KEY:length:value`): the game ID from `PARAMS` and
`DESC`, and as the grid the state the save was at (`STATEPOS`), replaying its
`MOVE`/`SOLVE`/`RESTART` records the way `pattern.c`'s execute_move does.
Writing always gives a game ID.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoplayer.errors import InputError
from autoplayer.games.nonogram.formats import common
from autoplayer.games.nonogram.model import EMPTY, FILLED, MAX_SIDE, UNKNOWN, Clue, Puzzle
from autoplayer.limits import MAX_INPUT_BYTES, shown, whole_number

if TYPE_CHECKING:
    import numpy as np

NAME = "tatham"
EXTENSIONS = (".pattern",)
CARRIES = frozenset({"grid"})
DESCRIPTION = "Simon Tatham's Pattern game ID (given cells in the grid)"

_ID = re.compile(r"(?P<w>\d+)(?:x(?P<h>\d+))?:(?P<desc>\S*)")
_SKIP_ONLY = 25


_SAVE_MAGIC = "SAVEFILE:41:Simon Tatham's Portable Puzzle Collection"
_RECORD = re.compile(r"([A-Z ]{1,8}):(\d+):")
_RECT_MOVE = re.compile(r"([FEU])(\d+),(\d+),(\d+),(\d+)")


def looks_like(text: str) -> bool:
    return bool(re.fullmatch(r"\s*\d+(x\d+)?:[0-9./]*(,[A-Za-z]*)?\s*", text)) or (
        text.lstrip("\ufeff").startswith(_SAVE_MAGIC)
    )


def parse(text: str) -> Puzzle:
    if text.lstrip("\ufeff").startswith("SAVEFILE:"):
        return _parse_save(text.lstrip("\ufeff"))
    return _parse_id(text)


def _parse_id(text: str) -> Puzzle:
    lines = common.split_lines(text)
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


def _given(code: str, width: int, height: int, lineno: int) -> np.ndarray:
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


def _records(text: str) -> list[tuple[str, str, int]]:
    """(key, value, line) of each `KEY:length:value` record of a save file."""
    out = []
    pos = 0
    while pos < len(text):
        if text[pos] in "\r\n":
            pos += 1
            continue
        line = text.count("\n", 0, pos) + 1
        match = _RECORD.match(text, pos)
        if match is None:
            raise InputError("save file: expected a 'KEY:length:value' record", line=line)
        start = match.end()
        end = start + whole_number(match[2], MAX_INPUT_BYTES, "save file: record length",
                                   line=line)
        if end > len(text):
            raise InputError("save file: record runs past the end (truncated file?)", line=line)
        out.append((match[1].strip(), text[start:end], line))
        pos = end
    return out


def _parse_save(text: str) -> Puzzle:
    records = _records(text)
    if not records or records[0][:2] != ("SAVEFILE", _SAVE_MAGIC.split(":", 2)[2]):
        raise InputError("not a save file of Simon Tatham's puzzles", line=1)
    first: dict[str, tuple[str, int]] = {}
    for key, value, line in records:
        first.setdefault(key, (value, line))
    game = first.get("GAME", ("", 1))
    if game[0] != "Pattern":
        raise InputError(f"a save file of {game[0] or 'an unnamed game'}, not Pattern",
                         line=game[1])
    for key in ("PARAMS", "DESC"):
        if key not in first:
            raise InputError(f"save file has no {key} record (truncated file?)",
                             line=records[-1][2])
    desc, desc_line = first["DESC"]
    try:
        puzzle = _parse_id(f"{first['PARAMS'][0]}:{desc}")
    except InputError as err:
        raise InputError(err.message, line=desc_line) from None
    moves = [(key, value, line) for key, value, line in records
             if key in ("MOVE", "SOLVE", "RESTART")]
    position = len(moves) + 1
    if "STATEPOS" in first:
        value, line = first["STATEPOS"]
        position = whole_number(value, len(moves) + 1, "STATEPOS", line=line, least=1)
    given = puzzle.grid
    if given is None and position == 1:
        return puzzle
    import numpy as np

    start = given if given is not None else np.full((puzzle.height, puzzle.width), UNKNOWN)
    grid = start.astype(np.int8).copy()
    immutable = grid != UNKNOWN
    for key, value, line in moves[: position - 1]:
        if key == "RESTART":
            grid = start.astype(np.int8).copy()
        else:
            _apply_move(grid, immutable, value, line)
    return puzzle.with_grid(grid)


def _apply_move(grid: np.ndarray, immutable: np.ndarray, move: str, line: int) -> None:
    h, w = grid.shape
    if move.startswith("S") and len(move) == w * h + 1:
        import numpy as np

        grid[:] = np.array([c == "1" for c in move[1:]], dtype=np.int8).reshape(h, w)
        return
    match = _RECT_MOVE.fullmatch(move)
    if match is None:
        raise InputError(f"save file: unrecognised move '{shown(move, 20)}'", line=line)
    x, y, dx, dy = (whole_number(v, MAX_SIDE, "save file: a move's coordinate", line=line)
                    for v in match.groups()[1:])
    if dx < 1 or dy < 1 or x + dx > w or y + dy > h:
        raise InputError(f"save file: move '{shown(move, 40)}' leaves the {w}x{h} grid",
                         line=line)
    value = {"F": FILLED, "E": EMPTY, "U": UNKNOWN}[match[1]]
    area = grid[y:y + dy, x:x + dx]
    area[~immutable[y:y + dy, x:x + dx]] = value


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
