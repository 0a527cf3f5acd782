"""Options that more than one command takes, worded once, and the checks on numeric ones.

Numbers on the command line are taken as text and read here, inside the command, rather
than by argparse's `type=int`/`type=float`: `float` takes `nan`, `inf` and `1e400`, `int`
raises past 4,300 digits and argparse would echo all of them. Each check raises a
`UserError` (one line, exit 2) that names the option and its limit.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from autoplayer.errors import UserError
from autoplayer.limits import MAX_DIGITS, shown

SEED_MAX = 10**18 - 1
"""The largest random seed an option takes (18 digits)."""


def add_templates_option(parser: argparse.ArgumentParser) -> None:
    """`--templates NAME`: which digit templates read the clues (None: try each in turn)."""
    parser.add_argument(
        "--templates", metavar="NAME",
        help="digit templates from `autoplayer calibrate` (templates/NAME); default: the "
        "state machines, then, if the clues do not check out, each calibrated set in turn; "
        "`none`: the state machines alone")


def integer(text: str, name: str, *, most_digits: int = MAX_DIGITS,
            limit: str | None = None) -> int:
    """A whole number, signed or not, of at most `most_digits` digits; its range (`limit`,
    named in the message about too many digits) is the caller's to check, with its own
    reason."""
    body = text.strip()
    digits = body[1:] if body[:1] in ("-", "+") else body
    if not (digits.isascii() and digits.isdigit()):
        raise UserError(f"{name} must be a whole number, not '{shown(text)}'")
    if len(digits.lstrip("0")) > most_digits:
        must = f"it must be {limit}" if limit else f"at most {most_digits} are taken"
        raise UserError(f"{name} has {len(digits)} digits; {must}")
    sign = "-" if body[:1] == "-" else ""
    return int(sign + (digits.lstrip("0") or "0"))


def whole(text: str, name: str, least: int, most: int) -> int:
    """A whole number in least..most, or a one-line error naming the option and the range."""
    value = integer(text, name, most_digits=max(len(str(least)), len(str(most))),
                    limit=f"{least}..{most}")
    if not least <= value <= most:
        raise UserError(f"{name} must be {least}..{most}, not {value}")
    return value


def seconds(text: str, name: str, most: float) -> float:
    """A length of time above 0 and at most `most` seconds (not nan, inf or 1e400)."""
    body = text.strip()
    try:
        value = float(body) if len(body) <= 32 and body.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not 0 < value <= most:  # false for nan as well
        raise UserError(f"{name} must be a number of seconds above 0 and at most {most:g}, "
                        f"not '{shown(text)}'")
    return value


def int_arg(least: int, most: int) -> Callable[[str], int]:
    """An argparse `type`: a whole number in least..most, checked by `whole`."""

    def parse(text: str) -> int:
        try:
            return whole(text, "the value", least, most)
        except UserError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return parse


def seconds_arg(most: float) -> Callable[[str], float]:
    """An argparse `type`: a length of time above 0 and at most `most`, checked by `seconds`."""

    def parse(text: str) -> float:
        try:
            return seconds(text, "the value", most)
        except UserError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return parse
