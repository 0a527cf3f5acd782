"""Pieces every text reader needs: decoding, clue numbers, cell strings, final checks.

Readers raise `InputError` with a line number and no path; `load_puzzle` and
`parse_puzzle` add the path, so a parser stays a pure function of its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from autoplayer.errors import InputError
from autoplayer.games.nonogram.model import (
    EMPTY,
    FILLED,
    MAX_SIDE,
    UNKNOWN,
    Clue,
    Puzzle,
    clue_text,
    min_length,
    validate,
)
from autoplayer.limits import shown, whole_number

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    import numpy as np

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def decode(data: bytes) -> str:
    """File bytes as text; binary junk and empty files are errors naming the line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise InputError(
            f"not a text file (byte 0x{data[err.start]:02x} is not UTF-8)", line=line
        ) from None
    check_text(text)
    return text


def check_text(text: str) -> None:
    if (bad := _CONTROL.search(text)) is not None:
        line = text.count("\n", 0, bad.start()) + 1
        raise InputError(
            f"not a text file (control character U+{ord(bad.group()):04X})", line=line
        )
    if not text.strip():
        raise InputError("empty file", line=1)


def split_lines(text: str) -> list[str]:
    """Lines ended by LF or CRLF only: `str.splitlines` would also split at U+2028,
    form feeds and the like inside a title, and so miscount the lines after it."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def number(token: str, what: str, line: int, most: int, least: int = 0) -> int:
    """A whole number in least..most, or an error that quotes the token and names the limit."""
    if re.fullmatch(r"[-+]\d+", token):
        raise InputError(f"{what}: {shown(token)} is not a positive number", line=line)
    if not (token.isascii() and token.isdigit()):
        raise InputError(f"{what}: '{shown(token)}' is not a number", line=line)
    return whole_number(token, most, what, line=line, least=least)


def side(token: str, what: str, line: int) -> int:
    """A width or height within the model's limits."""
    return number(token, what, line, MAX_SIDE, least=1)


def clue(
    tokens: Sequence[str], *, kind: str, index: int, length: int, line: int
) -> Clue:
    """A line's clue from its number tokens; a lone `0` (or nothing) is an empty line.

    A number with more digits than the line's length has cannot fit it, and is refused
    before it is converted (Python refuses past 4,300 digits; a long one would be slow).
    """
    what = f"{kind} {index}"
    if any(re.fullmatch(r"\d+[A-Za-z]", t) for t in tokens):
        raise InputError(f"{what}: colour puzzles are not supported", line=line)
    most_digits = len(str(length))
    for t in tokens:
        if t.isascii() and t.isdigit() and len(t.lstrip("0")) > most_digits:
            number_ = shown(t) if len(t) <= 24 else f"of {len(t)} digits"
            raise InputError(f"{what}: clue number {number_} is more than the {kind}'s "
                             f"{length} cells", line=line)
    values = tuple(number(t, f"{what} clue", line, 10 ** most_digits) for t in tokens)
    if values == (0,):
        return ()
    if 0 in values:
        raise InputError(f"{what}: clue {shown(' '.join(tokens), 40)} has a 0 beside other "
                         "numbers", line=line)
    if min_length(values) > length:
        raise InputError(
            f"{what}: clue {clue_text(values)} needs {min_length(values)} cells "
            f"but the {kind} has {length}",
            line=line,
        )
    return values


def cells(
    text: str, chars: dict[str, int], *, width: int, what: str, line: int
) -> list[int]:
    """One grid row from its characters (spaces ignored), checked for length and alphabet."""
    row = text.replace(" ", "").replace("\t", "")
    for ch in row:
        if ch not in chars:
            allowed = " ".join(repr(c) for c in chars)
            raise InputError(f"{what}: unknown cell character {ch!r} (expected {allowed})",
                             line=line)
    if len(row) != width:
        raise InputError(f"{what}: {len(row)} cells but the puzzle is {width} wide", line=line)
    return [chars[ch] for ch in row]


def grid_array(rows: Iterable[Sequence[int]]) -> np.ndarray:
    import numpy as np

    return np.array(list(rows), dtype=np.int8)


def cell_string(grid: np.ndarray, filled: str, empty: str, unknown: str = "?") -> list[str]:
    """Each row of a grid as characters (one per cell)."""
    table = {FILLED: filled, EMPTY: empty, UNKNOWN: unknown}
    return ["".join(table[int(c)] for c in row) for row in grid]


def checked(puzzle: Puzzle, line: int) -> Puzzle:
    """`validate` the whole puzzle, blaming `line` for what no single line caused (totals)."""
    try:
        validate(puzzle)
    except InputError as err:
        raise InputError(err.message, line=err.line or line) from None
    return puzzle


def one_line(text: str) -> str:
    """Metadata on one line: formats that store it per line cannot hold a newline (nor a
    form feed or another control character, which a terminal would act on)."""
    text = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", " ", text)
    return re.sub(r"\s*[\r\n]+\s*", " ", text).strip()
