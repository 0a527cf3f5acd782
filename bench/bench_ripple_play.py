"""Playing the bundled Ripple Effect page from the screen: `autoplayer play` to the page's
own solved report, time per stage and input events per cell.

Runs the real command (a fresh Python process) against a 10×10 puzzle in
Chromium on a private Xvfb, in each input scheme, several puzzles and looks;
the bot is told neither the game nor the scheme (it finds them out).
"""

from __future__ import annotations

import os
import tempfile
import time

from bench.play_runs import STAGES, median, play_report, publish, settled_page

SIZE = 10
RUNS = ((1, "type"), (2, "type"), (3, "type"), (4, "count"), (5, "count"), (6, "count"),
        (7, "cycle"), (8, "cycle"))


def one_run(display: str, seed: int, scheme: str) -> dict:
    # Each run's page takes its own input scheme: a game of its own, learned afresh (the
    # window titles differ only in numbers, so one kept profile would carry the first
    # page's scheme to every later one).
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="autoplayer-bench-config-")
    with settled_page(display, size=SIZE, seed=seed, game="ripple", look=seed,
                      scheme=scheme) as page:
        t0 = time.time()
        report = play_report(display, "--window", f"#{seed}", run=f"seed {seed} {scheme}")
        solved = page.server.wait_for(page.session, lambda s, _: bool(s and s.get("solved")), 10)
        report["to_solved_s"] = time.time() - t0
        state = page.state()
        report["page_solved"] = solved
        report["page_events"] = state.get("clicks", 0) + state.get("keys", 0)
        report["page_clicks"], report["page_keys"] = state.get("clicks", 0), state.get("keys", 0)
        report["scheme"] = scheme
        empties = sum(1 for g in page.puzzle().givens if not g)
        report["empties"] = empties
    return report


def main() -> None:
    from autoplayer.screen.xvfb import virtual_display

    load = os.getloadavg()[0]
    runs, refused = [], []
    with virtual_display(1280, 1024) as x:
        for seed, scheme in RUNS:
            try:
                runs.append(one_run(x.display, seed, scheme))
            except RuntimeError as err:  # the bot refused the board (exit 2): said, not timed
                refused.append(f"look {seed} ({scheme}): {str(err).split('error: ')[-1]}")
                print(refused[-1], flush=True)
                continue
            r = runs[-1]
            print(f"seed {seed} {scheme}: solved in {r['to_solved_s']:.2f} s, "
                  f"{r['events']} events for {r['empties']} cells", flush=True)

    rows = ["| figure | median | all runs |", "|---|---|---|",
            "| `autoplayer play` start → page reports solved | "
            f"{median(runs, 'to_solved_s'):.2f} s | "
            + ", ".join(f"{r['to_solved_s']:.2f}" for r in runs) + " |"]
    for st in STAGES:
        rows.append(f"| {st} | {median(runs, 'stages_ms', st):.0f} ms | "
                    + ", ".join(f"{r['stages_ms'][st]:.0f}" for r in runs) + " |")
    for scheme in ("type", "count"):
        mine = [r for r in runs if r["scheme"] == scheme]
        per = [r["events"] / r["empties"] for r in mine]
        rows.append(f"| input events per cell entered ({scheme}) | "
                    f"{sorted(per)[len(per) // 2]:.2f} | " + ", ".join(f"{p:.2f}" for p in per)
                    + " |")
    for scheme in ("type", "count"):
        mine = [r for r in runs if r["scheme"] == scheme]
        rows.append(f"| clicks / keys the page took per cell ({scheme}) | | " + ", ".join(
            f"{r['page_clicks'] / r['empties']:.2f} / {r['page_keys'] / r['empties']:.2f}"
            for r in mine) + " |")
    rows.append("| batches (experiment + entry + repairs) | "
                f"{median(runs, 'batches'):.0f} | " + ", ".join(str(r['batches']) for r in runs)
                + " |")
    solved = sum(bool(r["page_solved"]) for r in runs)
    text = (f"`autoplayer play --window '#SEED' --json` on the bundled Ripple Effect page, "
            f"{SIZE}×{SIZE}, looks 1-{len(RUNS)} (`look=SEED`), schemes as listed, Chromium app "
            f"window on a private Xvfb 1280×1024; the game and scheme are found out by the bot. "
            f"The page itself judged {solved}/{len(RUNS)} solved"
            + (f"; the bot refused {len(refused)} (" + "; ".join(refused) + ")" if refused
               else "") + ". An event is a pointer move, a press or "
            "a release (a click is three, a key two); type needs a click or, where the page's "
            "arrow keys move its cursor (the experiment tries one), an arrow to a neighbour, "
            "then one key per cell (two for 10-12); count a click per step from the nearer "
            "end of the cycle.")
    publish("ripple-play", text, rows, load)


if __name__ == "__main__":
    main()
