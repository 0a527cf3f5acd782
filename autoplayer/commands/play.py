"""Command group 'play' (see autoplayer.cli for the registration contract)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds this group's sub-commands; each sets func(args) -> exit code."""
