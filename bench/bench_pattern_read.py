"""How long reading a Pattern window takes: the play loop's first read and its re-reads.

Pictures are the ones the real game draws (`sgt-pattern --screenshot`, no X
server). Each first read runs in a fresh interpreter, as `autoplayer play`
does, so no memoised glyph reading from an earlier case helps it; it is timed
from making the game (its digit templates loaded) to the reading, the modules
the reader and the solver need imported beforehand (play imports them for its
solve stage anyway). Inside that process the same picture is then re-read
(the cells only, as after input).
Every read is checked against the generated puzzle, so a fast wrong reading
cannot pass. Median of REPEATS processes per case.

Run: `.venv/bin/python -m bench.bench_pattern_read`.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.report import write_section

CASES = [("10x10", 24), ("20x20", 24), ("25x25", 16), ("30x30", 24), ("15x15", 40)]
CLIPPED = ("10x10:1.5/5.2/1.2/2.1/2.2.3/2.1.2/1.1.2/1.1.1.1/6.1/3.1/1.1.1.1.1/1.1.2/"
           "1.2.2/1.1.1.3/2.2.2/3.2.2/1.1.1.1/2.1.1.1/2.3/2.1")
"""Row 1's clue runs off the window's left edge at 24 px tiles."""
REPEATS = 11
REREADS = 20

_CHILD = """
import json, sys, time
import numpy as np
from PIL import Image
import autoplayer.games.nonogram.reader, autoplayer.games.nonogram.solver
from autoplayer.games.nonogram.game import NonogramGame
from autoplayer.screen.capture import Frame
with Image.open(sys.argv[1]) as im:
    frame = Frame(np.asarray(im.convert("RGB")))
t = time.perf_counter()
game = NonogramGame()
first = game.read(frame)
first_ms = (time.perf_counter() - t) * 1000
again = []
for _ in range(int(sys.argv[2])):
    t = time.perf_counter()
    game.read(frame, first)
    again.append((time.perf_counter() - t) * 1000)
rows = [None if c is None else list(c) for c in first.puzzle.rows]
cols = [None if c is None else list(c) for c in first.puzzle.columns]
print(json.dumps({"first": first_ms, "again": sorted(again)[len(again) // 2],
                  "rows": rows, "columns": cols}))
"""


def _shot(game_id: str, tile: int, path: Path) -> None:
    from autoplayer.games.nonogram.pattern.session import PATTERN

    env = {**os.environ, "PATTERN_TILESIZE": str(tile)}
    subprocess.run([PATTERN, "--screenshot", str(path), game_id], env=env, check=True,
                   timeout=60, capture_output=True)


def _measure(path: Path, rows: list, columns: list) -> tuple[float, float]:
    firsts, agains = [], []
    for _ in range(REPEATS):
        out = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(REREADS)],
                             capture_output=True, text=True, timeout=120, check=True)
        got = json.loads(out.stdout)
        if (got["rows"], got["columns"]) != (rows, columns):
            raise RuntimeError(f"{path.name}: misread {got['rows']} {got['columns']}")
        firsts.append(got["first"])
        agains.append(got["again"])
    return statistics.median(firsts), statistics.median(agains)


def main() -> None:
    from autoplayer.games.nonogram.formats import load_puzzle
    from autoplayer.games.nonogram.pattern.session import PATTERN, generate

    if not os.path.exists(PATTERN):
        print("bench_pattern_read: needs sgt-puzzles (tools/ensure-system-deps)")
        return
    load = os.getloadavg()[0]
    lines = ["| picture | first read (fresh process) | re-read (cells) |", "| --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(f"{size} at {tile} px", generate(f"{size}#benchread"), tile)
                 for size, tile in CASES]
        cases.append(("10x10 at 24 px, row 1 clipped", CLIPPED, 24))
        for name, game_id, tile in cases:
            path = Path(tmp) / f"{len(lines)}.png"
            _shot(game_id, tile, path)
            truth = load_puzzle(game_id)
            rows = [list(c) for c in truth.rows]
            if "clipped" in name:
                rows[0] = None
            first, again = _measure(path, rows, [list(c) for c in truth.columns])
            lines.append(f"| {name} | {first:.0f} ms | {again:.1f} ms |")
            print(lines[-1], flush=True)
    text = f"""
`NonogramGame.read` on pictures the real sgt-pattern draws (`--screenshot`): the first
read of a window (grid, clues, cells, validation, and a picture whose clues meet its edge
read again with unknown tails; in a fresh process, as `autoplayer play` starts) and the
re-read after input (cells only). Median of
{REPEATS} processes, each re-read the median of {REREADS}; every reading was checked
against the generated puzzle. Command: `python -m bench.bench_pattern_read`
(load average {load:.2f} when it started; 2 cores shared with other work).

{chr(10).join(lines)}
"""
    write_section("pattern-read", text)
    print(text)


if __name__ == "__main__":
    main()
