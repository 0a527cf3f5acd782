"""puzz.link / pzprjs puzzle URLs: splitting a URL, and the pieces of its body codecs.

pzprjs (the player behind puzz.link, pzv.jp and pzprxs) shares a puzzle as
`https://puzz.link/p?PID/COLS/ROWS/BODY`. Its parser takes whatever follows the
first `?`: the puzzle id up to the next `/` (an `_edit`, `_test`, `_play` or `m+`
in it is dropped), an optional flag word when the next part is not a number,
then the width, the height and the body. The body codecs here are the ones its
`Encode` classes use, byte for byte:

- number16 (`readNumber16` / `writeNumber16`): `0`-`f` is 0..15, `-xx` 16..255,
  `+xxx` 256..4095, `=xxx` 4096..8191, `%xxx` 8192..12239, `*xxxx` 12240..77775,
  `$xxxxx` from 77776, `.` a `?` mark; `g`..`z` skip 1..20 empty places;
- borders (`encodeBorder`): one bit per inner edge, five to a base-32 digit, the
  vertical edges row by row first, then the horizontal ones.

Decoding is stricter than pzprjs: it accepts what pzprjs writes and refuses a body
that is short, too long or holds a character the codec has no meaning for, where
pzprjs would quietly fill or drop cells. Pure functions; errors are `InputError`
naming what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from autoplayer.errors import InputError
from autoplayer.limits import shown

HOST = "https://puzz.link/p"
"""Where written URLs point: pzprjs's main site (pzv.jp and pzprxs read the same body)."""

WHERE = "puzz.link URL"
"""How error messages name a URL given in place of a file."""

EMPTY = -1
"""A place with nothing in it (pzprjs's `qnum` -1)."""
QUESTION = -2
"""A `?` mark (pzprjs's `qnum` -2): a given whose number is hidden."""

_URL = re.compile(r"(?:[a-z][a-z0-9+.-]*://)?[^\s?]*\?[a-z][a-z0-9_+-]*(?:/\S*)?\Z", re.I)
_SUFFIX = re.compile(r"m\+|_edit|_test|_play")
_SKIP = {chr(ord("g") + k): k + 1 for k in range(20)}
"""`g` skips one place, ... `z` twenty."""
_PREFIXED = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "*": (4, 12240),
             "$": (5, 77776)}
"""Prefix → (hex digits that follow, offset added)."""
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class Url:
    """A pzprjs URL taken apart: the puzzle id (aliases kept as written), the size, the body."""

    pid: str
    cols: int
    rows: int
    body: str


def looks_like_url(text: str) -> bool:
    """Whether `text` has the shape of a pzprjs URL (`...?pid/...`), whatever the puzzle."""
    return bool(_URL.match(text.strip()))


def pid_of(text: str) -> str | None:
    """The puzzle id of a URL-shaped text (suffixes dropped, lower case), else None."""
    text = text.strip()
    if not looks_like_url(text):
        return None
    pid = text[text.index("?") + 1:].partition("/")[0]
    return _SUFFIX.sub("", pid, count=1).lower()


def split_url(text: str, *, most_side: int) -> Url:
    """The parts of a pzprjs URL, or an `InputError` saying which part is wrong."""
    url = text.strip()
    if not looks_like_url(url):
        raise InputError(f"{shown(url, 60)!r} is not a puzz.link URL "
                         "(expected https://puzz.link/p?TYPE/COLS/ROWS/DATA)")
    pid = pid_of(url) or ""
    rest = url[url.index("?") + 1:].partition("/")[2]
    parts = rest.split("/") if rest else []
    if parts and parts[0] and not parts[0].isdigit():
        parts.pop(0)  # pzprjs's flag word; neither puzzle here has flags
    if len(parts) < 2 or not parts[0] or not parts[1]:
        raise InputError(f"the {pid} URL has no size (expected {pid}/COLS/ROWS/DATA)")
    sizes = []
    for part, name in zip(parts[:2], ("width", "height"), strict=True):
        if not (part.isascii() and part.isdigit()):
            raise InputError(f"the {name} {shown(part, 20)!r} is not a number")
        if len(part) > 6 or not 1 <= int(part) <= most_side:
            raise InputError(f"the {name} {shown(part, 20)} is outside 1..{most_side}")
        sizes.append(int(part))
    # A trailing slash (seen on shared links) carries nothing; any other is refused later.
    return Url(pid, sizes[0], sizes[1], "/".join(parts[2:]).rstrip("/"))


def make_url(pid: str, cols: int, rows: int, body: str) -> str:
    return f"{HOST}?{pid}/{cols}/{rows}/{body}"


def read_number16(body: str, count: int, what: str, *, start: int = 0) -> tuple[list[int], int]:
    """`count` places from `body[start:]` in number16 (`EMPTY` where skipped), and where
    reading stopped; refuses a body that ends first or a character number16 has no use for."""
    values: list[int] = []
    i = start
    while len(values) < count:
        if i >= len(body):
            raise InputError(f"the data ends after {len(values)} of the {count} {what}")
        ch = body[i]
        if ch in _HEX:
            values.append(int(ch, 16))
            i += 1
        elif ch == ".":
            values.append(QUESTION)
            i += 1
        elif ch in _SKIP:
            if len(values) + _SKIP[ch] > count:
                raise InputError(f"{ch!r} at character {i + 1} of the data skips past the "
                                 f"last of the {count} {what}")
            values.extend([EMPTY] * _SKIP[ch])
            i += 1
        elif ch in _PREFIXED:
            digits, offset = _PREFIXED[ch]
            chunk = body[i + 1:i + 1 + digits]
            if len(chunk) != digits or not set(chunk) <= _HEX:
                raise InputError(f"{ch!r} at character {i + 1} of the data needs {digits} "
                                 f"hex digits after it, not {shown(chunk, 10)!r}")
            values.append(int(chunk, 16) + offset)
            i += 1 + digits
        else:
            raise InputError(f"{shown(ch)!r} at character {i + 1} of the data is not a "
                             "number or a skip (0-9 a-f - + = % * $ . g-z)")
    return values, i


def write_number16(values: Sequence[int]) -> str:
    """pzprjs's `genericEncodeNumber16`: numbers as above, runs of `EMPTY` as g..z."""
    out: list[str] = []
    count = 0
    for value in values:
        text = _number16(value)
        if not text:
            count += 1
        if count == 0:
            out.append(text)
        elif text or count == 20:
            out.append(_skip(count) + text)
            count = 0
    if count:
        out.append(_skip(count))
    return "".join(out)


def _skip(count: int) -> str:
    return chr(ord("g") + count - 1)


def _number16(value: int) -> str:
    """One value as pzprjs writes it, but with the digits its reader expects: pzprjs
    writes 4096 as `=0` and then reads three digits after the `=` (so a value from 4096 up
    does not survive its own round trip); padded, the URL reads back in pzprjs and here,
    and is the same text wherever pzprjs's own output is readable."""
    if value == QUESTION:
        return "."
    if value < 0:
        return ""
    if value < 16:
        return format(value, "x")
    for prefix, below in _WRITE_BELOW:
        if value < below:
            digits, offset = _PREFIXED[prefix]
            return prefix + format(value - offset, f"0{digits}x")
    raise ValueError(f"{value} is past what number16 can write")


_WRITE_BELOW = (("-", 256), ("+", 4096), ("=", 8192), ("%", 12240), ("*", 77776),
                ("$", 77776 + 16 ** 5))
"""Each prefix's range ends where pzprjs's writer moves to the next one."""


def border_length(cols: int, rows: int) -> int:
    """Characters the border part of a body takes."""
    return -(-(cols - 1) * rows // 5) + -(-cols * (rows - 1) // 5)


def read_borders(body: str, cols: int, rows: int) -> tuple[list[bool], list[bool], int]:
    """The walls right of each cell but the last in its row ((cols-1)*rows, row by row),
    those below each cell but the bottom row's (cols*(rows-1)), and where reading stopped."""
    vertical, horizontal = (cols - 1) * rows, cols * (rows - 1)
    need = border_length(cols, rows)
    if len(body) < need:
        raise InputError(f"the data ends inside the room walls ({len(body)} of {need} "
                         "characters)")
    bits: list[bool] = []
    pos = 0
    for total in (vertical, horizontal):
        part: list[bool] = []
        while len(part) < total:
            ch = body[pos]
            if not (ch.isascii() and ch.isalnum() and int(ch, 36) < 32):
                raise InputError(f"{shown(ch)!r} at character {pos + 1} of the data is not "
                                 "a wall digit (0-9 a-v)")
            value = int(ch, 32)
            part.extend(bool(value & (16 >> k)) for k in range(5))
            pos += 1
        bits.extend(part[:total])
    return bits[:vertical], bits[vertical:], pos


def write_borders(vertical: Sequence[bool], horizontal: Sequence[bool]) -> str:
    return _bits32(vertical) + _bits32(horizontal)


def _bits32(bits: Sequence[bool]) -> str:
    out = []
    for i in range(0, len(bits), 5):
        value = sum(16 >> k for k, bit in enumerate(bits[i:i + 5]) if bit)
        out.append(_DIGITS32[value])
    return "".join(out)


_DIGITS32 = "0123456789abcdefghijklmnopqrstuv"


def check_end(body: str, pos: int) -> None:
    """Refuses data left after the last place: a pasted URL with junk, or another puzzle's."""
    if pos < len(body):
        left = len(body) - pos
        raise InputError(f"{left} character{'s are' if left > 1 else ' is'} left after the "
                         f"puzzle's data ({shown(body[pos:], 20)!r})")
