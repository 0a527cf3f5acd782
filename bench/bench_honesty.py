"""Honest endings, soaked: the bot on many random rule sets of the bundled nonogram page,
every ending judged by the page's own record.

Plays N random draws (BENCH_HONESTY_DRAWS, default 200) with the machinery of
tests/test_e2e_rules.py (`random_draw`, `game_page`, `play_page`, `dishonest`): a random
rule set and look, a random size 5..20 and puzzle, in a Chromium app window on a private
Xvfb, the bot in this process with real pynput input, a fresh config directory (no
profile) per draw. The run's seed comes from AUTOPLAYER_SEED, else a random one; it is
printed, and draw i of seed S is the same game every time (BENCH_HONESTY_ONLY=i,j plays
only those draws, to replay them; a replay does not touch docs/benchmarks.md). The draws
are not the e2e test's (sizes up to 20 there are up to 15).

Every ending is honest or not, by the page's verdict (`solved`) and its count of input
after its sign showed (`events_after_sign`):
- honest: exit 0 on a page that says solved; a non-zero exit (or a crash) on one that
  does not;
- dishonest, by kind: exit 0 on an unsolved page, exit 1 on a solved page, a press or key
  the page received after it showed its sign (a draw may be dishonest in more than one).

Each dishonest draw is printed with its seed, index and settings (and the bot's report);
the counts go into docs/benchmarks.md, section `honesty`.

Run: `.venv/bin/python -m bench.run_all honesty`.
"""

from __future__ import annotations

import io
import os
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from bench.report import write_section

TESTS = Path(__file__).resolve().parent.parent / "tests"
DRAWS = int(os.environ.get("BENCH_HONESTY_DRAWS", "200"))
ONLY = os.environ.get("BENCH_HONESTY_ONLY", "")
LARGEST = 20
"""Sizes are drawn from 5..LARGEST."""
SHOWN = 30
"""Dishonest draws listed in docs/benchmarks.md at the most (the terminal gets them all)."""


def e2e_module() -> Any:
    """tests/test_e2e_rules.py, imported as the tests import it (tests/ on the path)."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    import test_e2e_rules

    return test_e2e_rules


def run_seed() -> int:
    given = os.environ.get("AUTOPLAYER_SEED")
    return int(given) if given else random.SystemRandom().randrange(1 << 30)


def play_draw(e2e: Any, xserver: Any, server: Any, run: int, draw: int) -> dict[str, Any]:
    """One draw, played and judged: what happened, and what it says for replaying it."""
    size, seed, params = e2e.random_draw(run, draw, LARGEST)
    why = f"AUTOPLAYER_SEED={run} draw {draw}: {size}x{size} seed {seed} {params}"
    record: dict[str, Any] = {"draw": draw, "why": why, "sign": params["sign"]}
    said = io.StringIO()
    t0 = time.monotonic()
    old_home = os.environ.get("XDG_CONFIG_HOME")
    with tempfile.TemporaryDirectory(prefix="bench-honesty-") as home:
        os.environ["XDG_CONFIG_HOME"] = home  # no profile from an earlier draw
        try:
            with e2e.game_page(xserver, server, size=size, seed=seed, **params) as page:
                try:
                    with redirect_stdout(said):
                        out = e2e.play_page(xserver, page, params, why)
                except Exception:  # a crash is a result: a non-zero ending
                    crash = traceback.format_exc().strip().splitlines()
                    state = e2e.quiet_state(page)
                    out = e2e.Outcome(e2e.page_rules(params), -1, [crash[-1]], state,
                                      error=crash[-1], why=why)
                    said.write("\n".join(crash) + "\n")
        except Exception as err:  # the page never came up: not a play at all
            record.update(kind="not played", error=f"{type(err).__name__}: {err}")
            return record
        finally:
            if old_home is None:
                os.environ.pop("XDG_CONFIG_HOME", None)
            else:
                os.environ["XDG_CONFIG_HOME"] = old_home
    state = out.state or {}
    kinds = e2e.dishonest(out)
    solved = state.get("solved") is True
    record.update(
        seconds=time.monotonic() - t0, code=out.code, solved=solved,
        after_sign=state.get("events_after_sign") or 0, during_sign=len(out.during_sign),
        after_sign_list=state.get("after_sign") or [],
        kinds=kinds, lines=out.lines, said=said.getvalue(),
        kind="dishonest" if kinds else ("honest solved" if solved else "honest unsolved"))
    return record


def summary(record: dict[str, Any]) -> str:
    if record["kind"] == "not played":
        return f"{record['why']}: not played ({record['error']})"
    code = "crash" if record["code"] == -1 else f"exit {record['code']}"
    what = "; ".join(record["kinds"]) if record["kinds"] else record["kind"]
    after = f"{record['after_sign']} input(s) after its sign"
    if record["after_sign_list"]:  # what the page says they were: the first three
        after += " (" + ", ".join(
            f"{a['input']!r} at {a['at']} +{a['ms']} ms"
            for a in record["after_sign_list"][:3]) + ("…" if record["after_sign"] > 3 else "")
        after += ")"
    return (f"{record['why']}: {code}, page {'solved' if record['solved'] else 'not solved'}, "
            f"{after} -> {what} ({record['seconds']:.0f} s)")


def table(records: list[dict[str, Any]], kinds: tuple[str, ...], command: str) -> list[str]:
    played = [r for r in records if r["kind"] != "not played"]
    by_kind = Counter(k for r in played for k in r["kinds"])
    dishonest = [r for r in played if r["kinds"]]
    rows = [
        "| draws played | honest: exit 0, page solved | honest: exit non-zero, page not "
        "solved | dishonest draws | " + " | ".join(f"dishonest: {k}" for k in kinds) + " |",
        "|---|---|---|---|" + "---|" * len(kinds),
        f"| {len(played)} | {sum(r['kind'] == 'honest solved' for r in played)} | "
        f"{sum(r['kind'] == 'honest unsolved' for r in played)} | {len(dishonest)} | "
        + " | ".join(str(by_kind[k]) for k in kinds) + " |",
    ]
    signs = sorted({r["sign"] for r in played})
    rows += ["", "By the page's sign:", "",
             "| sign | draws | honest solved | honest unsolved | dishonest |",
             "|---|---|---|---|---|"]
    for sign in signs:
        mine = [r for r in played if r["sign"] == sign]
        rows.append(f"| {sign} | {len(mine)} | "
                    f"{sum(r['kind'] == 'honest solved' for r in mine)} | "
                    f"{sum(r['kind'] == 'honest unsolved' for r in mine)} | "
                    f"{sum(bool(r['kinds']) for r in mine)} |")
    skipped = len(records) - len(played)
    rows += ["", f"Command: `{command}`."
             + (f" {skipped} draws not played (the page never came up)." if skipped else "")]
    if dishonest:
        rows += ["", "Dishonest draws (replay one with the same seed and "
                 "`BENCH_HONESTY_ONLY=INDEX`):", ""]
        rows += [f"- {summary(r)}" for r in dishonest[:SHOWN]]
        if len(dishonest) > SHOWN:
            rows.append(f"- … and {len(dishonest) - SHOWN} more (printed by the run)")
    return rows


def main() -> None:
    from autoplayer.screen.xvfb import virtual_display
    from autoplayer.webgame.server import GameServer

    e2e = e2e_module()
    run = run_seed()
    draws = [int(i) for i in ONLY.split(",")] if ONLY else list(range(DRAWS))
    command = (f"BENCH_HONESTY_DRAWS={DRAWS} AUTOPLAYER_SEED={run} "
               ".venv/bin/python -m bench.run_all honesty")
    print(f"AUTOPLAYER_SEED={run}: {len(draws)} draws (sizes 5..{LARGEST})", flush=True)
    load = os.getloadavg()[0]
    records = []
    t0 = time.monotonic()
    with virtual_display(*e2e.SCREEN) as xserver, GameServer() as server:
        for draw in draws:
            record = play_draw(e2e, xserver, server, run, draw)
            records.append(record)
            print(f"[{len(records)}/{len(draws)}] {summary(record)}", flush=True)
            if record.get("kinds"):  # the bot's report, for a closer look
                print("    " + record["said"].strip().replace("\n", "\n    "), flush=True)
    minutes = (time.monotonic() - t0) / 60
    rows = table(records, e2e.DISHONEST, command)
    text = (
        "## Honest endings (soak)\n\n"
        f"{len(records)} random draws of the bundled nonogram page (a random rule set of "
        "`RULE_CHOICES` and look, size 5..20), each played by the bot in process as "
        "tests/test_e2e_rules.py plays them (Chromium app window on a private Xvfb "
        "1280×1024, real pynput input, no profile kept between draws), every ending judged "
        "by the page's own record: `solved`, and `events_after_sign` (presses and keys the "
        "page received after it showed its sign; with sign=none its sign is the \"Solved!\" "
        "status line, shown at once). Honest: exit 0 on a solved page, a non-zero exit or a "
        "crash on an unsolved one. Goal: 0 dishonest. "
        f"{minutes:.1f} minutes; load average {load:.1f} at start on {os.cpu_count()} cores."
        "\n\n" + "\n".join(rows))
    print(text)
    if ONLY:
        print("(a replay of chosen draws: docs/benchmarks.md left as it is)")
        return
    write_section("honesty", text)


if __name__ == "__main__":
    main()
