"""Boards written as plain numbers, one a line, the way benchmark sets are published.

Korf's 100 (and the files that copy it) give each instance as 16 numbers in
reading order, 0 for the gap, often followed by the optimal solution length;
their goal has the gap first. A file may say its goal in a comment line
`# goal: gap-first` (or gap-last); otherwise the caller's `--goal` decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from math import isqrt

from autoplayer.errors import InputError
from autoplayer.games.fifteen.goals import CONVENTIONS
from autoplayer.games.fifteen.model import MAX_SIDE, MIN_SIDE, Board, make_board
from autoplayer.limits import shown

_GOAL_LINE = re.compile(r"^\s*#\s*goal\s*[:=]\s*(\S+)", re.I)
_NUMBERS = re.compile(r"^[\d\s,]+$")


@dataclass(frozen=True)
class Instance:
    """One board of a file: its place among the file's boards (1 = the first), its line,
    and the solution length the file gives, if any."""

    number: int
    line: int
    board: Board
    known: int | None = None


def looks_like_numbers(text: str) -> bool:
    return bool(_NUMBERS.match(text)) and any(ch.isdigit() for ch in text)


def parse_numbers(text: str, line: int | None = None) -> Instance:
    """'14 13 15 7 … 3 [57]': a square board of k² numbers, with an optional k²+1-th, the
    known solution length. Solvability is the goal's business, checked apart."""
    at = "" if line is None else f"line {line}: "
    fields = [f for f in re.split(r"[,\s]+", text.strip()) if f]
    if not fields or len(fields) > (MAX_SIDE**2 + 1):
        raise InputError(f"{at}{len(fields)} numbers are no board (a square board of "
                         f"{MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}, its cells in reading "
                         "order, maybe followed by the known solution length)")
    values = []
    for f in fields:
        if not (f.isascii() and f.isdigit()) or len(f.lstrip("0")) > 4:
            raise InputError(f"{at}'{shown(f)}' is not a tile number")
        values.append(int(f))
    count = len(values)
    side = isqrt(count)
    known = None
    if side * side != count:
        side = isqrt(count - 1)
        if side * side != count - 1:
            raise InputError(f"{at}{count} numbers are no square board (nor one and its known "
                             "solution length)")
        known = values.pop()
    if side < MIN_SIDE:
        raise InputError(f"{at}a board needs at least {MIN_SIDE}x{MIN_SIDE} cells")
    try:
        board = make_board(side, side, values)
    except InputError as err:
        raise InputError(f"{at}{err.message}") from None
    return Instance(1, line or 1, board, known)


def parse_instances(text: str) -> tuple[list[Instance], str | None]:
    """Every board of a file (blank lines and # comments skipped) and the goal the file
    names, if it names one."""
    goal: str | None = None
    out: list[Instance] = []
    for number, raw in enumerate(text.splitlines(), 1):
        m = _GOAL_LINE.match(raw)
        if m:
            name = m[1].lower()
            if name not in CONVENTIONS:
                raise InputError(f"line {number}: goal '{shown(name)}' is none of "
                                 f"{', '.join(CONVENTIONS)}")
            goal = name
            continue
        body = raw.split("#", 1)[0]
        if not body.strip():
            continue
        out.append(replace(parse_numbers(body, number), number=len(out) + 1))
    if not out:
        raise InputError("the file holds no board")
    return out, goal


def pick(instances: list[Instance], which: str) -> list[Instance]:
    """The instances whose place in the file (1 = the first board) is in `which`,
    e.g. '1-5,9'."""
    wanted: set[int] = set()
    for part in which.split(","):
        m = re.fullmatch(r"\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?", part)
        if not m:
            raise InputError(f"--instances '{shown(which)}' is not of the form 1-5,9")
        lo = int(m[1])
        hi = int(m[2]) if m[2] else lo
        wanted.update(range(lo, hi + 1))
    chosen = [inst for inst in instances if inst.number in wanted]
    if not chosen:
        raise InputError(f"--instances {shown(which)} picks none of the {len(instances)} boards")
    return chosen
