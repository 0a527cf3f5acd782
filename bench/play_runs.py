"""What the whole-run play benchmarks share: `autoplayer play` run as a user runs it, on a
private display, and the medians of its reports.

Each run is a fresh Python process (imports and start-up count, as they do for
a user); the bot's own `--json` report gives the stage times.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench.report import write_section

# What the bot learns about a game (its rules file) stays with the benchmark: a private
# config directory, so a user's profiles are neither read nor written. The first play
# of a game learns it; later plays in the same run use what it kept.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="autoplayer-bench-config-")

STAGES = ("capture", "read", "solve", "learn", "plan", "input", "verify")
"""The play loop's stages, in the order the reports list them."""


def park_pointer(display: str, x: int, y: int) -> None:
    """The pointer off the game's window, as when a user starts the bot from a terminal."""
    subprocess.run(["xdotool", "mousemove", str(x), str(y)], check=True,
                   env={**os.environ, "DISPLAY": display})


@contextmanager
def settled_page(display: str, **options: Any) -> Iterator[Any]:
    """The bundled page (`bundled_game(display, **options)`) in its window, the pointer
    parked off it, once the page has stopped painting: where a user would start the bot."""
    from autoplayer.commands.play import bundled_game, wait_until_still
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.source import WindowSource

    with bundled_game(display, **options) as page:
        park_pointer(display, 1279, 1023)
        source = WindowSource(Screen(display), window_id=page.window, display=display)
        wait_until_still(source)
        source.close()
        yield page


def run_play(display: str, *args: str, timeout: float = 300.0) -> subprocess.CompletedProcess:
    """`autoplayer play ARGS` on the display, to its end."""
    return subprocess.run([sys.executable, "-m", "autoplayer", "play", *args],
                          env={**os.environ, "DISPLAY": display}, capture_output=True,
                          text=True, timeout=timeout, check=False)


def play_report(display: str, *args: str, run: str) -> dict[str, Any]:
    """`autoplayer play ARGS --json`'s report; a run that did not solve stops the benchmark
    with its error, said of `run` (which seed, which solver)."""
    done = run_play(display, *args, "--json")
    if done.returncode != 0:
        raise RuntimeError(f"{run}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def median(runs: list[dict[str, Any]], key: str, sub: str | None = None) -> float:
    """The median over the runs of report[key] (or report[key][sub], e.g. a stage time)."""
    return statistics.median(r[key][sub] if sub else r[key] for r in runs)


def publish(section: str, description: str, table: list[str], load: float) -> None:
    """The description, the load average the runs started under, and the table: into
    docs/benchmarks.md, and onto the terminal of whoever ran the benchmark."""
    text = (f"{description} Load average at start {load:.1f} on {os.cpu_count()} cores shared "
            "with other work.\n\n" + "\n".join(table))
    write_section(section, text)
    print(text)
