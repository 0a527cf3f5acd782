"""What `solve`, `check` and `convert` share when given several files or a folder, and how
every command chooses between plain text and box drawing.

A run over several files treats each on its own: one that fails (bad input, no solution)
is reported and the rest still run. Standard output carries data only; the summary line
and each file's error go to standard error, so `--json` output stays one object a line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable

from autoplayer.errors import UserError, printable
from autoplayer.files import STDIO

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

def add_pretty_option(parser: argparse.ArgumentParser) -> None:
    """`--pretty` and `--ascii`: box drawing is the default on a terminal only."""
    parser.add_argument("--pretty", action="store_true",
                        help="box drawing even when standard output is not a terminal "
                        "(the default into a pipe or a file is plain ASCII)")
    parser.add_argument("--ascii", action="store_true",
                        help="plain ASCII even on a terminal")


def pretty(args: argparse.Namespace) -> bool:
    """Box drawing: asked for, or a terminal reads it and plain ASCII was not asked for."""
    if getattr(args, "pretty", False):
        return True
    if getattr(args, "ascii", False):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def expand(sources: Iterable[str]) -> list[str]:
    """The files named, a folder standing for the regular files in it (sorted, hidden ones
    left out, not recursive); `-`, game IDs and URLs pass through unchanged."""
    out: list[str] = []
    for source in sources:
        if source != STDIO and os.path.isdir(source):
            names = sorted(n for n in os.listdir(source) if not n.startswith("."))
            files = [os.path.join(source, n) for n in names
                     if os.path.isfile(os.path.join(source, n))]
            if not files:
                raise UserError(f"{printable(source)}: the folder holds no files")
            out.extend(files)
        else:
            out.append(source)
    if out.count(STDIO) > 1:
        raise UserError("standard input (-) can be read only once")
    return out


def emit_json(record: dict[str, Any]) -> None:
    """One JSON object on one line (JSON Lines), flushed so a pipe sees it at once."""
    import json

    sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def run_each(prog: str, sources: list[str], work: Callable[[str], int],
             failed: Callable[[str, UserError], int]) -> int:
    """Runs `work` on each source; a `UserError` is said on stderr, `failed` (which returns
    its exit code) may add to stdout, and the run goes on. Several sources end with a
    summary line on stderr. The exit code is 0 when every one succeeded, else the highest
    code any returned."""
    codes: list[int] = []
    for source in sources:
        try:
            codes.append(work(source))
        except UserError as err:
            codes.append(failed(source, err))
            say_failed(source, err, several=len(sources) > 1)
        sys.stdout.flush()
    if len(sources) > 1:
        bad = sum(1 for c in codes if c)
        print(f"{prog}: {len(sources)} files, {len(sources) - bad} ok, {bad} failed",
              file=sys.stderr, flush=True)
    return max(codes, default=0)


def say_failed(source: str, err: UserError, *, several: bool) -> None:
    """A failed file's one line on stderr, as any command's error is; among several, it
    names the file unless the message already does."""
    from autoplayer.exits import say

    message = str(err)
    name = "standard input" if source == STDIO else source
    if several and name not in message and source not in message:
        message = f"{name}: {message}"
    say("autoplayer", message)


def rows_text(grid: Any) -> list[str] | None:
    """A grid as strings, one a row: '#' filled, '.' empty, '?' unknown."""
    if grid is None:
        return None
    marks = {1: "#", 0: "."}
    return ["".join(marks.get(int(v), "?") for v in row) for row in grid]
