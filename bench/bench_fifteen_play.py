"""Playing Tatham's Fifteen from the screen: `autoplayer play --window Fifteen`, whole runs.

Runs the real command (a fresh Python process) against `sgt-fifteen` boards
from its own generator (4×4, several seeds) on a private Xvfb, once with the
rows-first solver and once optimal (when the 4×4 tables are on disk), and
reports medians: total time, time to first input, clicks against tiles moved,
batches, and the time per stage.
"""

from __future__ import annotations

import os

from bench.play_runs import STAGES, median, park_pointer, play_report, publish

SGT = "/usr/games/sgt-fifteen"
SEEDS = (1, 2, 3, 4, 5)


def one_run(display: str, seed: int, solver: str) -> dict:
    from autoplayer.games.nonogram.pattern.session import generate
    from autoplayer.screen.process import Helper

    game_id = generate(f"4x4#{seed}", binary=SGT)  # Tatham's own generator, as for Pattern
    with Helper("sgt-fifteen", [SGT, game_id], env={**os.environ, "DISPLAY": display}) as game:
        game.settle(1.5)  # the window maps and draws
        park_pointer(display, 1000, 700)
        return play_report(display, "--window", "Fifteen", "--solver", solver,
                           run=f"seed {seed} ({solver})")


def main() -> None:
    from autoplayer.games.fifteen.game import optimal_ready
    from autoplayer.screen.xvfb import virtual_display

    load = os.getloadavg()[0]
    solvers = ["fast"] + (["optimal"] if optimal_ready(4, 4) else [])
    runs: dict[str, list[dict]] = {s: [] for s in solvers}
    with virtual_display(1024, 768) as x:
        for solver in solvers:
            for seed in SEEDS:
                runs[solver].append(one_run(x.display, seed, solver))
                r = runs[solver][-1]
                print(f"{solver} seed {seed}: {r['total_s']:.1f} s, {r['gestures']} clicks",
                      flush=True)

    rows = ["| figure | " + " | ".join(solvers) + " |", "|---" * (len(solvers) + 1) + "|"]

    def row(label: str, fmt: str, key: str, sub: str | None = None) -> None:
        rows.append(f"| {label} | " + " | ".join(fmt.format(median(runs[s], key, sub))
                                                   for s in solvers) + " |")

    row("total (command start → verified)", "{:.1f} s", "total_s")
    row("command start → first input", "{:.0f} ms", "first_input_ms")
    row("clicks", "{:.0f}", "gestures")
    row("tiles moved", "{:.0f}", "units_changed")
    row("batches", "{:.0f}", "batches")
    for st in STAGES:
        row(st, "{:.0f} ms", "stages_ms", st)
    text = (
        "`autoplayer play --window Fifteen --solver SOLVER --json` on `sgt-fifteen` 4×4 boards "
        f"from its generator (`4x4#SEED`, seeds {', '.join(map(str, SEEDS))}), private Xvfb; "
        f"medians of {len(SEEDS)} runs per solver; every run ended with the board verified "
        "solved (exit 0). Input is paced at one click per 0.15 s (the game animates a slide "
        "for 0.13 s), so it dominates; solve includes loading the pattern databases and "
        "numba's compiled code."
    )
    publish("fifteen-play", text, rows, load)


if __name__ == "__main__":
    main()
