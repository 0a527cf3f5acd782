"""Options that more than one command takes, worded once."""

from __future__ import annotations

import argparse


def add_templates_option(parser: argparse.ArgumentParser) -> None:
    """`--templates NAME`: which digit templates read the clues (None: try each in turn)."""
    parser.add_argument(
        "--templates", metavar="NAME",
        help="digit templates from `autoplayer calibrate` (templates/NAME); default: the "
        "state machines, then, if the clues do not check out, each calibrated set in turn; "
        "`none`: the state machines alone")
