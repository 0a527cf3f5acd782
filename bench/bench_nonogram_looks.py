"""How the reader fares on random looks of the bundled game: exact, refused or WRONG, by axis.

Draws `BENCH_LOOKS` looks (default 60) from the property test's generator
(tests/looks.py: skins, themes, fonts and faces, textures, digit heights, line and
ink contrast, clue sides, frames, boxed clues, headings, a menu panel, big boards
of tiny digits), shoots each headless and reads it as `play` does (every calibrated
template set as a fallback). Prints the seed (`BENCH_SEED=N` replays a run), the
counts, each axis value's counts, the refusals by kind, and every refusal and wrong
reading with its look. `BENCH_LOOKS_SAVE=DIR` keeps the shot (PNG) and the puzzle (.non)
of every look not read exactly, named after the look.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

OUTCOMES = ("exact", "refused", "WRONG", "error")


def read_look(server: Any, session: str, look: dict[str, Any],
              keep: Path | None = None) -> tuple[str, str, float]:
    """(outcome, message, read ms) for one look shot afresh; a look not read exactly is
    saved in `keep` (PNG and .non) when given."""
    from looks import url_params
    from pages import shoot_board

    image = shoot_board(server, session, look["size"], look["cell"], room=300,
                        **url_params(look))
    puzzle = server.puzzle(session)
    outcome, message, ms = _judge(image, puzzle)
    if keep is not None and outcome != "exact":
        from looks import describe
        from PIL import Image

        from autoplayer.games.nonogram.formats import save_puzzle

        keep.mkdir(parents=True, exist_ok=True)
        Image.fromarray(image).save(keep / f"{session}_{describe(look)}.png")
        save_puzzle(puzzle, keep / f"{session}_{describe(look)}.non")
    return outcome, message, ms


def _judge(image: np.ndarray, puzzle: Any) -> tuple[str, str, float]:
    from autoplayer.errors import InputError
    from autoplayer.games.nonogram.reader import read_nonogram
    from autoplayer.vision.templates import every_template_set

    t0 = time.perf_counter()
    try:
        reading = read_nonogram(image, fallbacks=every_template_set())
    except InputError as refused:
        return "refused", str(refused), (time.perf_counter() - t0) * 1000
    except Exception as err:  # a crash is worse than a refusal: reported on its own
        return "error", f"{type(err).__name__}: {err}", (time.perf_counter() - t0) * 1000
    ms = (time.perf_counter() - t0) * 1000
    got = (reading.grid.width, reading.grid.height, reading.puzzle.rows, reading.puzzle.columns)
    want = (puzzle.width, puzzle.height, puzzle.rows, puzzle.columns)
    if got == want:
        return "exact", "", ms
    wrong = [f"row {i + 1}: read {a} is {b}" for i, (a, b) in
             enumerate(zip(reading.puzzle.rows, puzzle.rows, strict=False)) if a != b]
    wrong += [f"column {i + 1}: read {a} is {b}" for i, (a, b) in
              enumerate(zip(reading.puzzle.columns, puzzle.columns, strict=False)) if a != b]
    size = f"read {got[0]}x{got[1]}, is {want[0]}x{want[1]}; " if got[:2] != want[:2] else ""
    return "WRONG", size + "; ".join(wrong[:6]), ms


def reason(message: str) -> str:
    """A refusal's kind: its message without the region, cut at its second colon or first
    semicolon, numbers as N ("row 3 read as 1 2 needs 9 cells" and "column 7 read as 4
    needs 12 cells" are one kind)."""
    text = re.sub(r"^\[region[^]]*\]:\s*", "", message)
    text = ":".join(text.split(":")[:2]).split(";")[0]
    text = re.sub(r"\d+(\s+\d+)*", "N", text)
    return re.sub(r"row N|column N", "LINE N", text).strip()


def axis_table(results: list[tuple[dict[str, str], str]]) -> str:
    """Markdown: every axis value with its looks' outcomes, the refusing values first."""
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for values, outcome in results:
        for axis, value in values.items():
            counts[axis, value][outcome] += 1
    rows = []
    for (axis, value), c in sorted(counts.items(), key=lambda kv: (
            -(kv[1]["refused"] + kv[1]["WRONG"] + kv[1]["error"]) / sum(kv[1].values()),
            kv[0])):
        n = sum(c.values())
        rows.append(f"| {axis} | {value} | {n} | {c['exact']} | {c['refused']} | "
                    f"{c['WRONG']} | {c['error']} | {c['exact'] / n:.0%} |")
    return ("| axis | value | looks | exact | refused | WRONG | error | exact % |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- |\n" + "\n".join(rows))


def main() -> None:
    here = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(here / "tests"))
    from looks import axes, describe, random_look

    from autoplayer.webgame.browser import close_shared_browser
    from autoplayer.webgame.server import GameServer
    from bench.report import write_section

    count = int(os.environ.get("BENCH_LOOKS", "60"))
    given = os.environ.get("BENCH_SEED") or os.environ.get("AUTOPLAYER_SEED")
    seed = int(given) if given else random.SystemRandom().randrange(1 << 30)
    keep = Path(os.environ["BENCH_LOOKS_SAVE"]) if os.environ.get("BENCH_LOOKS_SAVE") else None
    print(f"BENCH_SEED={seed} BENCH_LOOKS={count}", flush=True)
    results: list[tuple[dict[str, str], str]] = []
    notes: dict[str, list[str]] = defaultdict(list)
    times: list[float] = []
    with GameServer() as server:
        for draw in range(count):
            look = random_look(np.random.default_rng([seed, draw]))
            outcome, message, ms = read_look(server, f"looks-{draw}", look, keep)
            times.append(ms)
            results.append((axes(look), outcome))
            line = f"draw {draw}: {describe(look)}" + (f": {message}" if message else "")
            print(f"{outcome:7s} {line}", flush=True)
            if outcome != "exact":
                notes[outcome].append(line)
    close_shared_browser()
    total = Counter(outcome for _, outcome in results)
    summary = ", ".join(f"{total[o]} {o}" for o in OUTCOMES)
    md = (f"Reading {count} random looks of the bundled game (`tests/looks.py`: skins, "
          "themes, fonts and faces, textures, `digits=`, `lines=`, `ink=`, clue sides, "
          "frames, boxed clues, headings, `panel=top`, 30x20+ boards of 8-9 px digits) as "
          "`play` reads them (`BENCH_LOOKS=N BENCH_SEED=N python -m bench.run_all "
          f"nonogram_looks`); seed {seed}: **{summary}**; read time median "
          f"{statistics.median(times):.0f} ms, max {max(times):.0f} ms.\n\n"
          "Each axis value's looks (a look counts once on every axis; the values with "
          "the most refusals first):\n\n" + axis_table(results))
    kinds = Counter(reason(line.split(": ", 2)[-1]) for line in notes["refused"])
    if kinds:
        md += ("\n\nRefusals by kind:\n\n| refusals | kind |\n| --- | --- |\n"
               + "\n".join(f"| {n} | {kind} |" for kind, n in kinds.most_common()))
    for outcome in ("WRONG", "error", "refused"):
        if notes[outcome]:
            md += f"\n\n{outcome} ({len(notes[outcome])}):\n\n" + "\n".join(
                f"- {line}" for line in notes[outcome])
    print(md)
    write_section("nonogram-looks", md)


if __name__ == "__main__":
    main()
