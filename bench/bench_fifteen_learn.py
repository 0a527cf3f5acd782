"""What learning a sliding-puzzle game's input costs: presses and seconds, fresh and seen before.

Runs the real command (`autoplayer play --window Fifteen --json`) on the bundled
15-puzzle page in random looks and rules (`look=N`: run-sliding or
neighbour-only clicks, or arrow keys in either sense; slides of 60-360 ms,
some dropping input while they animate), each look twice in a private
config directory of its own: the first run learns the input by experiment and keeps it,
the second, on another board of the same page, reads it from the profile.
Reports per look the experiment's presses and the `learn` stage's time, and
the medians.
"""

from __future__ import annotations

import os
import statistics
import tempfile
from typing import Any

from bench.play_runs import park_pointer, play_report, publish

LOOKS = (3, 11, 21, 2, 15, 22)
"""Looks covering each click rule and both key senses (`webgame.fifteen.random_look`)."""


def one_look(display: str, server: Any, look: int) -> tuple[dict, dict]:
    from autoplayer.webgame.browser import launch_app
    from autoplayer.webgame.fifteen import random_look
    from autoplayer.webgame.server import new_session_id

    drawn = random_look(look)
    size = 4 if drawn["font"] == "serif-italic" and drawn["goal"] == "gap-last" else 3
    # The looks measured before picture tiles existed: numerals (the flat panel when the
    # seed now draws pictures).
    tiles = {"tiles": "flat"} if drawn["tiles"] == "picture" else {}
    out = []
    for puzzle in (1, 2):
        session = new_session_id()
        url = server.url(game="fifteen", size=(size, size), seed=puzzle, look=look,
                         session=session, **tiles)
        with launch_app(url, display=display, width=760, height=700):
            server.wait_for(session, lambda st, lay: st is not None and lay is not None, 60)
            park_pointer(display, 1000, 740)
            import time

            time.sleep(1.0)  # the window maps and paints
            out.append(play_report(display, "--window", "Fifteen", "--solver", "optimal",
                                   run=f"look {look} board {puzzle}"))
    return out[0], out[1]


def main() -> None:
    from autoplayer.screen.xvfb import virtual_display
    from autoplayer.webgame.fifteen import random_look
    from autoplayer.webgame.server import GameServer

    load = os.getloadavg()[0]
    rows = ["| look | clicks | keys | slide | fresh: presses | fresh: learn | seen: presses | "
            "seen: learn |", "|---|---|---|---|---|---|---|---|"]
    fresh, seen = [], []
    with virtual_display(1024, 768) as x, GameServer() as server:
        for look in LOOKS:
            # Every look's page has the same window title: each is another game, so each
            # gets a config directory of its own.
            with tempfile.TemporaryDirectory() as config:
                os.environ["XDG_CONFIG_HOME"] = config
                first, second = one_look(x.display, server, look)
                fresh.append(first)
                seen.append(second)
                d = random_look(look)
                rows.append(f"| {look} | {d['click']} | {d['keys']} | {d['slide']} ms "
                            f"{d['busy']} | {first['learn_presses']} | "
                            f"{first['stages_ms']['learn']:.0f} ms | {second['learn_presses']} | "
                            f"{second['stages_ms']['learn']:.0f} ms |")
                print(rows[-1], flush=True)
    rows.append(f"| median | | | | {statistics.median(r['learn_presses'] for r in fresh):.0f} | "
                f"{statistics.median(r['stages_ms']['learn'] for r in fresh):.0f} ms | "
                f"{statistics.median(r['learn_presses'] for r in seen):.0f} | "
                f"{statistics.median(r['stages_ms']['learn'] for r in seen):.0f} ms |")
    text = ("`autoplayer play --window Fifteen --solver optimal --json` on the bundled "
            f"page in looks {', '.join(map(str, LOOKS))} (3x3; 4x4 for serif italic with the "
            "gap last), each look on two boards in a private config directory of its own: "
            "the first run learns the input by experiment (at most 6 presses), the second "
            "reads the profile the first kept. `learn` is the stage's time (pointer parked, "
            "presses sent and each watched until the slide settled, the board read after "
            "each). Every run ended with the page solved (exit 0).")
    publish("fifteen-learn", text, rows, load)


if __name__ == "__main__":
    main()
