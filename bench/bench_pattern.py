"""Simon Tatham's Pattern played from the screen: how fast, and how fast the game lets us.

Two measurements, under Xvfb with the real sgt-pattern and real pynput input:

1. The game's pace. The planner's strokes for 20x20 puzzles are sent with
   the pause between a drag's press (the pointer having just arrived there)
   and its one motion set to 0, 2, 5, 10, 15, 20 and 35 ms, and no pause
   before the release; after each run a capture counts the cells a lost
   motion left wrong. The smallest pause that loses nothing, times the drags,
   is what the game forces on any player.
2. `autoplayer play --window Pattern` on 20x20 puzzles at 24 px tiles: from
   the command's start to the game's completion flash (seen by a watcher in
   this process, not by the bot), the bot's time per stage, and the gestures.

Run: `.venv/bin/python -m bench.run_all pattern` (or `python -m bench.bench_pattern`).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import time

from bench.play_runs import STAGES, run_play
from bench.report import write_section

SIZE, TILE = 20, 24
PAUSES_MS = (0, 2, 5, 10, 15, 20, 35)
PACE_SEEDS = 3
PLAY_SEEDS = 5


def _strokes_run(display: str, game_id: str, pause: float) -> tuple[int, int, int, float]:
    """(cells left wrong, drags, clicks, seconds of input) for one paced run."""

    from autoplayer.games.nonogram.formats import load_puzzle
    from autoplayer.games.nonogram.game import NonogramGame
    from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
    from autoplayer.games.nonogram.pattern.session import PatternProcess
    from autoplayer.games.nonogram.planner import Profile, gestures, plan
    from autoplayer.games.nonogram.solver import solve
    from autoplayer.geometry import Button, Drag, to_screen
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.input import InputDriver, Pace
    from autoplayer.screen.window import locate, open_display

    # Pattern's own rules (pattern.c), driven directly as in tests/test_e2e_input_gtk.py:
    # left sets filled and right sets empty from any state; finished is every cell decided.
    rules = Profile(name="pattern", press={
        (state, button): result for state in (UNKNOWN, EMPTY, FILLED)
        for button, result in ((Button.LEFT, FILLED), (Button.RIGHT, EMPTY))}, mark_empty=True)
    solution = solve(load_puzzle(game_id)).solutions[0]
    with PatternProcess(game_id, display, TILE) as game, Screen(display) as screen:
        disp = open_display(display)
        try:
            info = locate(disp, game.window_id)
        finally:
            disp.close()
        frame = screen.grab_window(info)
        reader = NonogramGame()
        read = reader.read(frame)
        moves = gestures(plan(read.shown, solution, rules), read.xs, read.ys, rules)
        on_screen = [to_screen(g, frame.origin) for g in moves]
        with InputDriver(frame.rect_to_screen(read.grid), Pace(motion=pause, release=0.0),
                         listen=False) as driver:
            t = time.perf_counter()
            driver.perform(on_screen)
            seconds = time.perf_counter() - t
        time.sleep(0.3)  # past the redraw and any completion flash
        cells = reader.read(screen.grab_window(info), read).shown
        drags = sum(isinstance(g, Drag) for g in moves)
        return int((cells != solution).sum()), drags, len(moves) - drags, seconds


def measure_pace(display: str) -> tuple[str, float]:
    """The table of pauses against lost cells, and the smallest pause that lost none (s)."""
    from autoplayer.games.nonogram.pattern.session import generate

    ids = [generate(f"{SIZE}x{SIZE}#pace{k}") for k in range(PACE_SEEDS)]
    rows = ["| drag pause | cells left wrong (per run) | drags + clicks a run | "
            "input time a run (median) |", "| --- | --- | --- | --- |"]
    safe = None
    for ms in PAUSES_MS:
        runs = [_strokes_run(display, game_id, ms / 1000) for game_id in ids]
        wrong = [r[0] for r in runs]
        rows.append(f"| {ms} ms | {', '.join(map(str, wrong))} | "
                    f"{statistics.median(r[1] for r in runs):.0f} + "
                    f"{statistics.median(r[2] for r in runs):.0f} | "
                    f"{statistics.median(r[3] for r in runs) * 1000:.0f} ms |")
        if safe is None and not any(wrong):
            safe = ms / 1000
        elif any(wrong):
            safe = None  # a larger pause must be clean too
    return "\n".join(rows), (safe if safe is not None else float("nan"))


STAGE = re.compile(rf"({'|'.join(STAGES)}) (\d+) ms")


def measure_play(display: str) -> list[dict[str, float]]:
    """`autoplayer play` on fresh 20x20 games: times to the flash, stages, gestures."""
    from autoplayer.games.nonogram.pattern.session import FlashWatch, PatternProcess, generate

    results = []
    for k in range(PLAY_SEEDS):
        with PatternProcess(generate(f"{SIZE}x{SIZE}#bench{k}"), display, TILE) as game:
            watch = FlashWatch(game).start()
            start = time.perf_counter()
            out = run_play(display, "--window", "Pattern")
            done = time.perf_counter()
            flashed = watch.wait(5)
            watch.stop()
        if out.returncode != 0 or not flashed:
            raise RuntimeError(f"play failed (exit {out.returncode}, flashed {flashed}): "
                               f"{out.stderr.strip()} {out.stdout.strip()}")
        stages = {name: int(ms) / 1000 for name, ms in STAGE.findall(out.stdout)}
        counted = re.search(r"input: (\d+) gestures \((\d+) events\)", out.stdout)
        first = re.search(r"first input after (\d+) ms", out.stdout)
        results.append({
            "to_flash": (watch.flashed_at or done) - start, "command": done - start,
            "first_input": int(first[1]) / 1000 if first else float("nan"),
            "gestures": int(counted[1]), "events": int(counted[2]),
            "batches": int(re.search(r"; (\d+) batch", out.stdout)[1]), **stages,
        })
    return results


def main() -> None:
    from autoplayer.games.nonogram.game import PROFILES
    from autoplayer.games.nonogram.pattern.session import PATTERN
    from autoplayer.screen.xvfb import virtual_display

    if not os.path.exists(PATTERN) or shutil.which("Xvfb") is None:
        print("bench_pattern: needs sgt-puzzles and Xvfb (tools/ensure-system-deps)")
        return
    with virtual_display(1280, 1024) as x:  # pynput reads DISPLAY when first imported
        pace_table, safe = measure_pace(x.display)
        plays = measure_play(x.display)

    def med(key: str) -> float:
        return statistics.median(p[key] for p in plays)

    used = PROFILES["pattern"][1]
    # A click is 3 events (move, press, release), a one-motion drag 4; each drag
    # waits once at the game's pace, a click not at all.
    drags = med("events") - 3 * med("gestures")
    floor_safe, floor_used = drags * safe, drags * used.motion
    stage_rows = "\n".join(
        f"| {s} | {med(s) * 1000:.0f} ms |" for s in STAGES if s in plays[0])
    text = f"""
Simon Tatham's Pattern (Debian `sgt-pattern`) under Xvfb, real pynput (XTEST) input,
{SIZE}x{SIZE} generated puzzles at {TILE} px tiles. Command: `python -m bench.bench_pattern`.

**The game's pace.** Pattern applies a drag to the cells between the press and the
*last motion it received*; GTK asks for motion hints, so a motion that follows the
previous one too closely is lost and the drag stops short. The planner's strokes for
{PACE_SEEDS} puzzles were sent with the pause between a drag's arrival-and-press and its
one motion set as below (no pause before the release, which needs none), then every
cell was read back:

{pace_table}

The smallest pause that lost no cell here: **{safe * 1000:.0f} ms** (it moves with the
machine's load: on quieter runs 15 ms lost nothing). What counts is the spacing of
successive motions: a pause before the release only adds to it. The bot uses
{used.motion * 1000:.0f} ms; a motion lost anyway shows in the verifying capture (taken
once the board has stopped changing: GTK redraws a few ms after the last event) and the
next batch repairs those cells. Clicks need no pause.

**`autoplayer play --window Pattern`, start to the game's completion flash**
(median of {PLAY_SEEDS} puzzles; the flash is seen by a watcher outside the bot):

| measure | median |
| --- | --- |
| start to completion flash | {med('to_flash'):.2f} s |
| command run time (start to exit, report printed) | {med('command'):.2f} s |
| start to first input | {med('first_input') * 1000:.0f} ms |
| gestures (drags + clicks) for {SIZE * SIZE} cells | {med('gestures'):.0f} |
| low-level input events | {med('events'):.0f} |
| batches (1 = no repair needed) | {med('batches'):.0f} |

Bot's time per stage (median):

| stage | time |
| --- | --- |
{stage_rows}

The input stage is paced by the game: about {drags:.0f} drags, each waiting once. The
pauses alone come to {floor_safe:.2f} s at the smallest pause that lost nothing and
{floor_used:.2f} s at the bot's {used.motion * 1000:.0f} ms; the input stage took
{med('input'):.2f} s, the difference being event delivery and the pointer checks
between gestures.
"""
    write_section("pattern", text)
    print(text)


if __name__ == "__main__":
    main()
