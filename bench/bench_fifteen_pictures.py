"""Picture puzzles: how often the goal arrangement is inferred exactly from tile edges, how
often refused, never wrong, and how long it takes (target: a 4x4 in under 1 s).

Pictures are generated (tests/picture_tiles.py: gradients, flat shapes, smooth noise, all
three) from one fixed seed, cut 3x3, 4x4 and 5x5 into tiles of 32, 48 or 64 px, the gap's
tile left out (last, first or any cell), shuffled.

`capture` (also run by default): what the bot does before its first input on a 4x4
picture page of the bundled 15-puzzle, from a 1920x1080 headless capture: the first
reading (the board found by its flat gap, the tiles cut, the goal inferred from their
edges; the numeral reader only when that gives no certain goal) and `solve`,
judged against the page's own goal. `python -m bench.bench_fifteen_pictures capture` runs
that part alone.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from bench.report import write_section

TESTS = Path(__file__).resolve().parent.parent / "tests"
SEED = 20261126
DRAWS = int(os.environ.get("BENCH_PICTURE_DRAWS", "100"))
"""Draws per size and kind."""
SIZES = ((3, 3), (4, 4), (5, 5))


def main() -> None:
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    from picture_tiles import KINDS, cut

    from autoplayer.games.fifteen.pictures import PictureGoal, infer_picture_goal

    rng = np.random.default_rng(SEED)
    rows = ["| size | picture | exact | refused | wrong | median ms | max ms |",
            "|---|---|---|---|---|---|---|"]
    totals: Counter[str] = Counter()
    slowest: dict[str, float] = {}
    for width, height in SIZES:
        for kind in KINDS:
            tally: Counter[str] = Counter()
            times = []
            for _ in range(DRAWS):
                c = cut(rng, kind, width, height)
                start = time.perf_counter()
                got = infer_picture_goal(c.tiles, width, height)
                times.append(1000 * (time.perf_counter() - start))
                if not isinstance(got, PictureGoal):
                    tally["refused"] += 1
                elif got.cells == c.truth:
                    tally["exact"] += 1
                else:
                    tally["wrong"] += 1
            totals.update(tally)
            size = f"{width}x{height}"
            slowest[size] = max(slowest.get(size, 0.0), max(times))
            line = (f"| {width}x{height} | {kind} | {tally['exact']}/{DRAWS} | "
                    f"{tally['refused']} | {tally['wrong']} | {np.median(times):.0f} | "
                    f"{max(times):.0f} |")
            rows.append(line)
            print(line, flush=True)
    n = sum(totals.values())
    text = (
        "`infer_picture_goal` (autoplayer/games/fifteen/pictures.py) on generated pictures "
        f"(`tests/picture_tiles.py`, seed {SEED}; {DRAWS} draws per size and kind), tiles of "
        "32, 48 or 64 px, the gap's tile left out (last, first or any cell), shuffled. "
        "Exact: the true arrangement and gap; refused: `Unsure` (the caller stops before any "
        "input); wrong: an arrangement returned that is not the true one.\n\n"
        + "\n".join(rows)
        + f"\n\nIn all: **{totals['exact']}/{n} exact ({100 * totals['exact'] / n:.0f} %), "
        f"{totals['refused']} refused, {totals['wrong']} wrong.** Slowest: "
        + ", ".join(f"{k} {v:.0f} ms" for k, v in slowest.items())
        + " (target for a 4x4: under 1 s). Flat shapes on a flat ground "
        "are refused most: tiles cut from flat areas look alike, and where they go cannot be "
        "seen."
    )
    write_section("fifteen-pictures", text)


CAPTURE_DRAWS = int(os.environ.get("BENCH_PICTURE_CAPTURES", "8"))
"""4x4 pages per picture kind."""


def capture() -> None:
    from autoplayer.errors import InputError
    from autoplayer.games.fifteen.game import FifteenGame
    from autoplayer.screen.capture import Frame
    from autoplayer.webgame.browser import close_shared_browser, headless_screenshot
    from autoplayer.webgame.picture_art import KINDS
    from autoplayer.webgame.server import GameServer, new_session_id

    rows = ["| picture | exact | refused | wrong | read median ms | read max ms | "
            "read + solve median ms | read + solve max ms |", "|---|---|---|---|---|---|---|---|"]
    worst = 0.0
    totals: Counter[str] = Counter()
    with GameServer() as server:
        for kind in KINDS:
            tally: Counter[str] = Counter()
            reads, goals = [], []
            for draw in range(CAPTURE_DRAWS):
                session = new_session_id()
                url = server.url(game="fifteen", size=(4, 4), seed=draw, tiles="picture",
                                 picture=kind, goal=("gap-last", "gap-first")[draw % 2],
                                 session=session)
                image = headless_screenshot(url, 1920, 1080)
                state = server.state(session)
                game = FifteenGame(solver="fast")
                start = time.perf_counter()
                try:
                    reading = game.read(Frame(image))
                    read = time.perf_counter()
                    game.solve(reading)
                except InputError as err:
                    tally["refused"] += 1
                    print(f"{kind} seed {draw}: refused: {err.message}", flush=True)
                    continue
                finally:
                    done = time.perf_counter()
                reads.append(1000 * (read - start))
                goals.append(1000 * (done - start))
                assert game.goal is not None
                tally["exact" if list(game.goal.cells) == state["goal"] else "wrong"] += 1
            totals.update(tally)
            if goals:
                worst = max(worst, max(goals))
            line = (f"| {kind} | {tally['exact']}/{CAPTURE_DRAWS} | {tally['refused']} | "
                    f"{tally['wrong']} | " + (" | ".join(
                        f"{f(v):.0f}" for v in (reads, goals) for f in (np.median, max))
                        if goals else "- | - | - | -") + " |")
            rows.append(line)
            print(line, flush=True)
    close_shared_browser()
    n = sum(totals.values())
    text = (
        "What the bot does before its first input on a 4x4 picture page of the bundled "
        f"15-puzzle (`tiles=picture`, 72 px tiles, seeds 0-{CAPTURE_DRAWS - 1} per picture "
        "kind, gap last or first in turn), from a 1920x1080 headless capture: "
        "`FifteenGame.read` (the board found by its flat gap, the tiles cut, the goal inferred "
        "from their edges; the numeral reader tried, and refusing, only when that gives no "
        "certain goal) and "
        "`FifteenGame.solve` (the goal checked, then the rows-first solver), judged against "
        "the page's own goal. A refusal is any InputError before input (no picture board: a "
        "second flat cell, as flat shapes make; or no certain goal; the bench prints each "
        "reason).\n\n"
        + "\n".join(rows)
        + f"\n\nIn all: **{totals['exact']}/{n} exact, {totals['refused']} refused, "
        f"{totals['wrong']} wrong; slowest read + solve {worst:.0f} ms** (target: a "
        "4x4 picture puzzle's goal in under 1 s)."
    )
    write_section("fifteen-pictures-capture", text)


if __name__ == "__main__":
    if sys.argv[1:] != ["capture"]:
        main()
    capture()
