"""Playing Tatham's Fifteen from the screen: `autoplayer play --window Fifteen`, whole runs.

Runs the real command (a fresh Python process) against `sgt-fifteen` boards
from its own generator (4×4, several seeds) on a private Xvfb, once with the
rows-first solver and once optimal (when the 4×4 tables are on disk), and
reports medians: total time, time to first input, clicks against tiles moved,
batches, and the time per stage.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

from bench.report import write_section

SGT = "/usr/games/sgt-fifteen"
SEEDS = (1, 2, 3, 4, 5)


def one_run(display: str, seed: int, solver: str) -> dict:
    game_id = subprocess.run([SGT, "--generate", "1", f"4x4#{seed}"], capture_output=True,
                             text=True, check=True).stdout.strip()
    env = {**os.environ, "DISPLAY": display}
    proc = subprocess.Popen([SGT, game_id], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)  # the window maps and draws
        subprocess.run(["xdotool", "mousemove", "1000", "700"], check=True, env=env)
        done = subprocess.run(
            [sys.executable, "-m", "autoplayer", "play", "--window", "Fifteen", "--profile",
             solver, "--json"], env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"seed {seed} ({solver}): {done.stderr.strip()}")
        return json.loads(done.stdout)
    finally:
        proc.terminate()
        proc.wait(10)


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

    def med(rs: list[dict], key: str, sub: str | None = None) -> float:
        return statistics.median(r[key][sub] if sub else r[key] for r in rs)

    stages = ["capture", "read", "solve", "plan", "input", "verify"]
    rows = ["| figure | " + " | ".join(solvers) + " |", "|---" * (len(solvers) + 1) + "|"]

    def row(label: str, fmt: str, key: str, sub: str | None = None) -> None:
        rows.append(f"| {label} | " + " | ".join(fmt.format(med(runs[s], key, sub))
                                                   for s in solvers) + " |")

    row("total (command start → verified)", "{:.1f} s", "total_s")
    row("command start → first input", "{:.0f} ms", "first_input_ms")
    row("clicks", "{:.0f}", "gestures")
    row("tiles moved", "{:.0f}", "units_changed")
    row("batches", "{:.0f}", "batches")
    for st in stages:
        row(st, "{:.0f} ms", "stages_ms", st)
    text = (
        "`autoplayer play --window Fifteen --profile SOLVER --json` on `sgt-fifteen` 4×4 boards "
        f"from its generator (`4x4#SEED`, seeds {', '.join(map(str, SEEDS))}), private Xvfb; "
        f"medians of {len(SEEDS)} runs per solver; every run ended with the board verified "
        "solved (exit 0). Input is paced at one click per 0.15 s (the game animates a slide "
        "for 0.13 s), so it dominates; solve includes loading the pattern databases and "
        "numba's compiled code. Load average at start "
        f"{load:.1f} on 2 cores shared with other work.\n\n" + "\n".join(rows)
    )
    write_section("fifteen-play", text)
    print(text)


if __name__ == "__main__":
    main()
