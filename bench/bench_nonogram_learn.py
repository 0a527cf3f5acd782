"""Learning a nonogram game's rules: what the experiment costs, and what play costs after it.

Runs the real command (`autoplayer play --json`, a fresh process as a user runs
it) against the bundled page in a Chromium app window on a private Xvfb, under
rule sets of the page (`autoplayer.webgame.nonogram.RULE_CHOICES`):

1. Learning (target: at most LEARN_PRESSES presses and LEARN_SECONDS on a fresh
   game, nothing on a game seen before): per rule set and run, a fresh config
   directory; a 15×15 puzzle is played (the bot learns the rules and keeps them
   in its profile), then a new puzzle of the same game (same window class and
   title, so the same profile) is played again. Reported per rule set: the
   experiment's presses and the `learn` stage's time, both plays, median and
   max over the runs, and the page's own verdict.
2. Drags (goal: one batch, no repairs): a 20×20 on each drag behaviour, first
   on a fresh game (the experiment's presses included), then on a new puzzle of
   the same game (profile kept): the bot's gestures against the cells they
   changed, its batches and the cells still wrong after each, and the page's
   count of the presses it took (`events`) and the cell changes it made
   (`changes`).

A run that fails is recorded with the bot's error rather than stopping the
benchmark: a failure is a result.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench.play_runs import publish, run_play, settled_page

LEARN_PRESSES = 8
LEARN_SECONDS = 1.5
LEARN_SIZE = 15
DRAG_SIZE = 20
SKIN = "pixel"
RUNS = int(os.environ.get("BENCH_LEARN_RUNS", "3"))
"""Runs per rule set (BENCH_LEARN_RUNS to change it; BENCH_LEARN_JSON=FILE keeps every
run's reports)."""
PARTS = frozenset(os.environ.get("BENCH_LEARN_PARTS", "learn,drags").split(","))
"""Which tables to measure and publish (BENCH_LEARN_PARTS=drags for the drag table alone);
a table not measured is left as it stands in docs/benchmarks.md."""

RULE_SETS: tuple[tuple[str, dict[str, str]], ...] = (
    ("default (toggle, drag=line)", {}),
    ("buttons=set", {"buttons": "set"}),
    ("buttons=cycle (right: browser menu)", {"buttons": "cycle"}),
    ("buttons=cycle2", {"buttons": "cycle2"}),
    ("buttons=lock", {"buttons": "lock"}),
    ("drag=enter", {"drag": "enter"}),
    ("drag=ends", {"drag": "ends"}),
    ("drag=none", {"drag": "none"}),
    ("fill=light, mark=grey", {"fill": "light", "mark": "grey"}),
    ("highlight=cell", {"highlight": "cell"}),
)
DRAGS = ("line", "enter", "ends", "none")


@contextmanager
def config_home() -> Iterator[str]:
    """A fresh XDG_CONFIG_HOME for the bot's profiles (never the user's own)."""
    with tempfile.TemporaryDirectory(prefix="bench-learn-") as home:
        yield home


def page_settled(page: Any, quiet: float = 0.6, limit: float = 6.0) -> dict[str, Any]:
    """The page's report once it has stopped changing (its last posts arrive after the
    bot's process has ended)."""
    deadline = time.monotonic() + limit
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        state = page.state()
        key = (state.get("events"), state.get("changes"), state.get("solved"))
        if key != last:
            last, since = key, time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
        time.sleep(0.1)
    return page.state()


def play_once(display: str, home: str, size: int, seed: int, rules: dict[str, str]
              ) -> dict[str, Any]:
    """One `autoplayer play` on a settled page: the bot's report (or its error) and the
    page's own count."""
    with settled_page(display, size=size, seed=seed, skin=SKIN, **rules) as page:
        env_before = os.environ.get("XDG_CONFIG_HOME")
        os.environ["XDG_CONFIG_HOME"] = home
        try:
            t0 = time.monotonic()
            done = run_play(display, "--window", f"#{seed}", "--json")
            wall = time.monotonic() - t0
        finally:
            if env_before is None:
                os.environ.pop("XDG_CONFIG_HOME", None)
            else:
                os.environ["XDG_CONFIG_HOME"] = env_before
        state = page_settled(page)
    out: dict[str, Any] = {"wall_s": wall, "exit": done.returncode,
                           "page_solved": bool(state.get("solved")),
                           "page_events": state.get("events"),
                           "page_changes": state.get("changes")}
    if done.returncode == 0:
        out.update(json.loads(done.stdout))
    else:
        out["error"] = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "?"
    return out


def learn_ms(report: dict[str, Any]) -> float | None:
    return report["stages_ms"]["learn"] if "stages_ms" in report else None


def stat(values: list[float | None], fmt: str = "{:.0f}") -> str:
    got = [v for v in values if v is not None]
    if not got:
        return "–"
    return f"{fmt.format(statistics.median(got))} / {fmt.format(max(got))}"


def fresh_and_seen(display: str, size: int, seeds: tuple[int, int], rules: dict[str, str]
                   ) -> tuple[dict, dict]:
    """Two puzzles of one game in one config dir: the first learns it, the second uses
    what was kept."""
    with config_home() as home:
        fresh = play_once(display, home, size, seeds[0], rules)
        seen = play_once(display, home, size, seeds[1], rules)
    return fresh, seen


def learning(display: str) -> dict[str, list[tuple[dict, dict]]]:
    """Per rule set, per run: (fresh play, play of a new puzzle with the profile kept)."""
    results: dict[str, list[tuple[dict, dict]]] = {label: [] for label, _ in RULE_SETS}
    for run in range(RUNS):
        for label, rules in RULE_SETS:
            fresh, seen = fresh_and_seen(display, LEARN_SIZE, (1 + run, 11 + run), rules)
            results[label].append((fresh, seen))
            print(f"run {run + 1} {label}: fresh {fresh.get('learn_presses', '-')} presses "
                  f"{learn_ms(fresh) or 0:.0f} ms {fresh.get('error', 'ok')}; seen "
                  f"{seen.get('learn_presses', '-')} presses {learn_ms(seen) or 0:.0f} ms "
                  f"{seen.get('error', 'ok')}", flush=True)
    return results


def learning_table(results: dict[str, list[tuple[dict, dict]]]) -> tuple[list[str], list[str]]:
    rows = [
        "| rule set | fresh: presses (med / max) | fresh: learn stage ms (med / max) | "
        "fresh: bot ok / page solved | seen: presses (max) | seen: learn stage ms (med / max) "
        "| seen: bot ok / page solved |",
        "|---|---|---|---|---|---|---|",
    ]
    misses: list[str] = []
    for label, runs in results.items():
        fresh = [f for f, _ in runs]
        seen = [s for _, s in runs]

        def ok(plays: list[dict]) -> str:
            return (f"{sum(p['exit'] == 0 for p in plays)}/{len(plays)} / "
                    f"{sum(p['page_solved'] for p in plays)}/{len(plays)}")

        fp = [p.get("learn_presses") for p in fresh]
        sp = [p.get("learn_presses") for p in seen]
        ft = [learn_ms(p) for p in fresh]
        st = [learn_ms(p) for p in seen]
        max_sp = max((p for p in sp if p is not None), default=None)
        rows.append(f"| {label} | {stat(fp)} | {stat(ft)} | {ok(fresh)} | "
                    f"{'–' if max_sp is None else max_sp} | {stat(st)} | {ok(seen)} |")
        if any(p is not None and p > LEARN_PRESSES for p in fp):
            misses.append(f"{label}: over {LEARN_PRESSES} presses")
        if any(t is not None and t > LEARN_SECONDS * 1000 for t in ft):
            misses.append(f"{label}: learn stage over {LEARN_SECONDS:g} s "
                          f"(max {max(t for t in ft if t is not None):.0f} ms)")
        if any(p for p in sp):
            misses.append(f"{label}: a seen game took learning presses")
        for kind, plays in (("fresh", fresh), ("seen", seen)):
            failed = sum(p["exit"] != 0 for p in plays)
            if failed:
                misses.append(f"{label}: the bot failed {failed} of {len(plays)} {kind} plays")
            unsolved = sum(p["exit"] == 0 and not p["page_solved"] for p in plays)
            if unsolved:
                misses.append(f"{label}: the page did not say solved after {unsolved} {kind} "
                              "plays the bot verified")
    errors = [f"- {label}, {kind} play: {p['error'].removeprefix('autoplayer: error: ')}"
              for label, runs in results.items() for f, s in runs
              for kind, p in (("fresh", f), ("seen", s)) if p["exit"] != 0]
    if errors:
        rows += ["", "The bot's errors:", "", *errors]
    return rows, misses


class _Stop(Exception):
    """Ends an in-process play once the game has learned."""


def where_time_goes(display: str, rules: dict[str, str]) -> dict[str, Any]:
    """One fresh learn in process (the play stopped right after it), every watched step
    timed: the parking before the experiment, then each press (sent, then watched until
    drawn), and what is left (choosing cells, the final capture and read)."""
    from autoplayer.games.nonogram.game import make_game
    from autoplayer.play import experiment, play
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.source import WindowSource

    steps: list[tuple[str, float]] = []
    watch = experiment.watch

    def timed(hands: Any, press: Any) -> Any:
        t = time.perf_counter()
        seen = watch(hands, press)
        name = ", ".join(type(g).__name__.lower() + (f" {g.button.value}" if hasattr(
            g, "button") else "") for g in press.gestures) or "park"
        steps.append((name, (time.perf_counter() - t) * 1000))
        return seen

    out: dict[str, Any] = {}
    with config_home() as home, settled_page(display, size=LEARN_SIZE, seed=1, skin=SKIN,
                                             **rules) as page:
        env = {k: os.environ.get(k) for k in ("XDG_CONFIG_HOME", "DISPLAY")}
        os.environ.update(XDG_CONFIG_HOME=home, DISPLAY=display)
        experiment.watch = timed
        source = WindowSource(Screen(display), window_id=page.window, display=display)
        try:
            game = make_game(window=source.window)
            steps_of = game.experiment

            def stop_after(*args: Any) -> Any:
                t = time.perf_counter()
                yield from steps_of(*args)
                out["learn_ms"] = (time.perf_counter() - t) * 1000
                raise _Stop

            game.experiment = stop_after  # type: ignore[method-assign]
            try:
                play(game, source)
            except _Stop:
                pass
            except Exception as err:  # a failure is a result
                out["error"] = str(err)
        finally:
            experiment.watch = watch
            source.close()
            for k, v in env.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    out["steps"] = steps
    return out


def breakdown_table(timings: dict[str, dict[str, Any]]) -> list[str]:
    rows = ["| rule set | learn ms | parking | each press: sent + watched until drawn (ms) | "
            "rest |", "|---|---|---|---|---|"]
    for label, t in timings.items():
        if "learn_ms" not in t:
            rows.append(f"| {label} | failed: {t.get('error', '?')} | | | |")
            continue
        steps = t["steps"]
        park = sum(ms for name, ms in steps if name == "park")
        presses = [f"{name} {ms:.0f}" for name, ms in steps if name != "park"]
        rest = t["learn_ms"] - sum(ms for _, ms in steps)
        rows.append(f"| {label} | {t['learn_ms']:.0f} | {park:.0f} | {'; '.join(presses)} | "
                    f"{rest:.0f} |")
    return rows


def drags(display: str) -> dict[str, list[tuple[dict, dict]]]:
    """Per drag behaviour, per run: (fresh play, play with the profile kept), 20×20."""
    results: dict[str, list[tuple[dict, dict]]] = {d: [] for d in DRAGS}
    for run in range(max(1, RUNS - 1)):
        for drag in DRAGS:
            fresh, seen = fresh_and_seen(display, DRAG_SIZE, (21 + run, 31 + run),
                                         {"drag": drag})
            results[drag].append((fresh, seen))
            print(f"run {run + 1} drag={drag}: fresh {fresh.get('gestures', '-')} gestures "
                  f"{fresh.get('batches', '-')} batches {fresh.get('error', 'ok')}; seen "
                  f"{seen.get('gestures', '-')} gestures {seen.get('batches', '-')} batches "
                  f"{seen.get('error', 'ok')}", flush=True)
    return results


def drag_row(label: str, p: dict[str, Any]) -> str:
    if p["exit"] != 0:
        error = p["error"].removeprefix("autoplayer: error: ")
        return (f"| {label} | failed: {error} | | | | | | {p['page_events']} / "
                f"{p['page_changes']} | {'yes' if p['page_solved'] else 'no'} |")
    return (f"| {label} | {p['learn_presses']} | {p['gestures']} / {p['units_changed']} | "
            f"{p['batches']} | {', '.join(map(str, p['wrong_after']))} | "
            f"{p['stages_ms']['input']:.0f} | {p['stages_ms']['verify']:.0f} | "
            f"{p['page_events']} / {p['page_changes']} | "
            f"{'yes' if p['page_solved'] else 'no'} |")


def drag_table(results: dict[str, list[tuple[dict, dict]]]) -> list[str]:
    rows = [
        "| drag, play | learn presses | bot gestures / cells changed | batches | "
        "wrong after each batch | input ms | verify ms | page events / changes | "
        "page solved |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for drag, runs in results.items():
        for i, (fresh, seen) in enumerate(runs):
            rows.append(drag_row(f"{drag}, run {i + 1} fresh", fresh))
            rows.append(drag_row(f"{drag}, run {i + 1} seen", seen))
    return rows


def main() -> None:
    from autoplayer.screen.xvfb import virtual_display

    unknown = PARTS - {"learn", "drags"}
    if unknown:
        raise SystemExit(f"BENCH_LEARN_PARTS: unknown part {sorted(unknown)[0]!r} "
                         "(learn, drags)")
    load = load_mid = os.getloadavg()[0]
    learned: dict[str, list[tuple[dict, dict]]] = {}
    timings: dict[str, dict[str, Any]] = {}
    dragged: dict[str, list[tuple[dict, dict]]] = {}
    with virtual_display(1280, 1024) as x:
        if "learn" in PARTS:
            learned = learning(x.display)
            timings = {label: where_time_goes(x.display, rules) for label, rules in RULE_SETS}
            load_mid = os.getloadavg()[0]
        if "drags" in PARTS:
            dragged = drags(x.display)
    load_end = os.getloadavg()[0]
    if os.environ.get("BENCH_LEARN_JSON"):  # the raw runs, for a closer look
        with open(os.environ["BENCH_LEARN_JSON"], "w", encoding="utf-8") as out:
            json.dump({"learning": learned, "timings": timings, "drags": dragged}, out,
                      indent=1, default=str)
    if "learn" in PARTS:
        publish_learning(learned, timings, load, load_mid)
    if "drags" in PARTS:
        drag_text = (
            f"The same command on a {DRAG_SIZE}×{DRAG_SIZE} (seeds 21.., then a new puzzle "
            "with the profile kept, seeds 31..) for each drag behaviour of the page, the other "
            "rules the defaults. Goal: one batch, no repairs. Bot gestures = clicks, drags and "
            "key presses sent, the experiment's included; cells changed = the cells the "
            "batches were planned to change (the experiment's not included); page events = "
            "presses the page took and changes = cell changes it made, both counting the "
            "experiment's presses on a fresh play. A batch after the board came right with "
            "wrong-after 0 is the bot marking the empty cells because the game gave no sign "
            f"it saw. Load average at end {load_end:.1f}."
        )
        publish("nonogram-drags", drag_text, drag_table(dragged), load_mid)


def publish_learning(learned: dict[str, list[tuple[dict, dict]]],
                     timings: dict[str, dict[str, Any]], load: float, load_mid: float) -> None:
    rows, misses = learning_table(learned)
    verdict = ("Every target met." if not misses else
               "Targets missed: " + "; ".join(dict.fromkeys(misses)) + ".")
    text = (
        f"`autoplayer play --window '#SEED' --json` on the bundled game, {LEARN_SIZE}×"
        f"{LEARN_SIZE}, skin `{SKIN}`, Chromium app window on a private Xvfb 1280×1024, each "
        f"rule set with a fresh `XDG_CONFIG_HOME`: a fresh play (seed 1..{RUNS}: the bot "
        "learns the rules and keeps them), then a new puzzle of the same game (seed "
        f"11..{11 + RUNS - 1}, same window class and title, so the same profile: seen). "
        f"{RUNS} runs per rule set. Target: at most {LEARN_PRESSES} presses and "
        f"{LEARN_SECONDS:g} s on a fresh game, nothing on a seen one. Presses = the "
        "experiment's (`learn_presses`); learn stage = the report's `learn` time (parking "
        "the pointer and watching the board settle, the experiment, a fresh capture and read; "
        "on a seen game only the parking and the capture). Bot ok = exit 0; page solved = "
        f"the page's own verdict. {verdict} Load average {load_mid:.1f} after this part."
    )
    breakdown = (
        "\n\nWhere the learn stage goes: one fresh learn per rule set in process (seed 1, "
        "the play stopped once learned), every watched step timed. Parking = moving the "
        "pointer off the board and watching the board until it has drawn that (nothing "
        "changes, so it waits NOTHING = 0.35 s); a press = sending it and capturing until "
        "the game has drawn it (a change, then the same pixels for QUIET = 50 ms; no change: "
        "NOTHING; a change on cells it did not touch, such as a menu: held for NOTHING); "
        "rest = choosing the cells, reading the looks, the final capture and read.\n\n"
        + "\n".join(breakdown_table(timings)))
    publish("nonogram-learn", text, [*rows, breakdown], load)

if __name__ == "__main__":
    main()
