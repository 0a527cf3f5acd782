"""Picture puzzles: how often the goal arrangement is inferred exactly from tile edges, how
often refused, never wrong, and how long it takes (target: a 4x4 in under 1 s).

Pictures are generated (tests/picture_tiles.py: gradients, flat shapes, smooth noise, all
three) from one fixed seed, cut 3x3, 4x4 and 5x5 into tiles of 32, 48 or 64 px, the gap's
tile left out (last, first or any cell), shuffled.
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


if __name__ == "__main__":
    main()
