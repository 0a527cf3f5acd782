"""How long reading and writing nonogram files takes (it sits in front of every solve).

Measures, median of repeats: the import of the formats package on top of numpy
(in fresh processes), `load_puzzle` on the largest shared puzzles, and parse and
format of a random 200x200 puzzle (the model's largest) with a half-known grid
in every format. Run: `.venv/bin/python -m bench.run_all formats`.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench.report import write_section

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "nonograms"
REPEATS = 7

_IMPORT_PROBE = (
    "import time; import numpy; t = time.perf_counter(); "
    "import autoplayer.games.nonogram.formats; print(time.perf_counter() - t)"
)


def _median_ms(action, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    from autoplayer.games.nonogram.formats import (
        FORMATS,
        format_puzzle,
        load_puzzle,
        parse_puzzle,
    )
    from autoplayer.games.nonogram.model import UNKNOWN, puzzle_from_grid

    imports = [
        float(subprocess.run([sys.executable, "-c", _IMPORT_PROBE], capture_output=True,
                             text=True, check=True).stdout) * 1000
        for _ in range(REPEATS)
    ]
    lines = [
        f"Import of `autoplayer.games.nonogram.formats` on top of numpy, fresh process: "
        f"median {statistics.median(imports):.1f} ms of {REPEATS}.",
        "",
        "| file | size | `load_puzzle` median ms |",
        "|---|---|---|",
    ]
    for name in ("griddler-solver/faase.non", "nonogram-db/qnonograms/tiger.non",
                 "griddler-solver/webpbn-00006.non", "jwilk-nonogram/data091.nin"):
        path = SHARED / name
        if not path.exists():
            lines.append(f"| {name} | - | (not found: ../shared missing) |")
            continue
        puzzle = load_puzzle(path)
        ms = _median_ms(lambda path=path: load_puzzle(path))
        lines.append(f"| {name} | {puzzle.width}x{puzzle.height} | {ms:.2f} |")

    rng = np.random.default_rng(200)
    solution = (rng.random((200, 200)) < 0.5).astype(np.int8)
    grid = np.where(rng.random((200, 200)) < 0.5, solution, UNKNOWN).astype(np.int8)
    puzzle = puzzle_from_grid(solution, title="bench").with_grid(grid)
    lines += ["", "Random 200x200 with a half-known grid (what each format can carry):", "",
              "| format | bytes | parse median ms | format median ms |", "|---|---|---|---|"]
    for fmt in FORMATS:
        text = format_puzzle(puzzle, fmt)
        parse_ms = _median_ms(lambda text=text, fmt=fmt: parse_puzzle(text, fmt))
        format_ms = _median_ms(lambda fmt=fmt: format_puzzle(puzzle, fmt))
        lines.append(f"| {fmt} | {len(text.encode())} | {parse_ms:.1f} | {format_ms:.1f} |")
    markdown = "\n".join(lines)
    print(markdown)
    write_section("nonogram-formats", "## Reading and writing nonogram files\n\n" + markdown)


if __name__ == "__main__":
    main()
