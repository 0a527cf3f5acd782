"""The stated limits on what the user gives us, and the one way to read a number.

Every input is bounded before it is used, so no file, image or argument can make a
command hang, eat memory or raise from deep inside a library: a value beyond a
limit is refused with a one-line error that names the limit.
"""

from __future__ import annotations

from autoplayer.errors import InputError, printable

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""A puzzle, solution or profile file larger than this is refused (16 MiB: the largest
real puzzle file is a few kilobytes)."""

MAX_IMAGE_PIXELS = 64_000_000
"""A screenshot with more pixels than this is refused before it is decoded (an 8K
screen is 33 million)."""

MIN_IMAGE_SIDE = 16
"""A screenshot narrower or shorter than this cannot hold a board."""

MAX_DIGITS = 18
"""No number in a puzzle, solution or game ID has more digits than this; the value's
own limit is checked after (Python refuses to parse past 4,300 digits)."""


def shown(text: str, most: int = 24) -> str:
    """A piece of input as it may be quoted in a one-line message: no control bytes, short."""
    safe = printable(text)
    return safe if len(safe) <= most else safe[: most - 3] + "..."


def whole_number(text: str, most: int, what: str, *, line: int | None = None,
                 least: int = 0) -> int:
    """`text` as an int in least..most, or an `InputError` naming `what` and the limit.

    Digits only (no sign, no spaces, no underscores), at most `MAX_DIGITS` of them.
    """
    digits = text.strip()
    if not digits.isascii() or not digits.isdigit():
        raise InputError(f"{what} '{shown(digits)}' is not a whole number", line=line)
    significant = digits.lstrip("0") or "0"
    if len(significant) > MAX_DIGITS:
        raise InputError(f"{what} has {len(significant)} digits; it must be {least}..{most}",
                         line=line)
    value = int(significant)
    if not least <= value <= most:
        raise InputError(f"{what} {value} is outside {least}..{most}", line=line)
    return value
