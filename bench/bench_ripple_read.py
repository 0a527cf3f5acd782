"""Reading a 15x15 Ripple Effect board from a headless-Chromium screenshot (median ms).

The bundled page (several looks) is rendered once per look; each picture is
then read cold (no glyph memoised) many times: frame and lattice, rooms,
digits, and the solver's check of the reading. The target is under 100 ms for
the read alone.
"""

from __future__ import annotations

import os
import statistics
import time

LOOKS = (1, 2, 3, 4, 5)
SIZE = 15
REPEATS = 10


def main() -> None:
    from autoplayer.games.ripple.board import find_lattice, read_rooms
    from autoplayer.games.ripple.reader import read_ripple, unique_solution
    from autoplayer.vision import scanline
    from autoplayer.webgame.browser import close_shared_browser, headless_screenshot
    from autoplayer.webgame.ripple import random_look
    from autoplayer.webgame.server import GameServer
    from bench.report import write_section

    load = os.getloadavg()[0]
    rows = ["| look | cell px | lattice | rooms | whole read, cold (CPU) | warm | solver check |",
            "|---|---|---|---|---|---|---|"]
    totals = []
    with GameServer() as server:
        for look in LOOKS:
            url = server.url(game="ripple", size=(SIZE, SIZE), seed=look, look=look)
            pixels = headless_screenshot(url, 1000, 1100)
            stages = ("lattice", "rooms", "read", "cpu", "warm", "solve")
            times: dict[str, list[float]] = {k: [] for k in stages}
            for _ in range(REPEATS):
                scanline.clear_cache()
                t0 = time.perf_counter()
                lattice = find_lattice(pixels)
                t1 = time.perf_counter()
                read_rooms(pixels, lattice)
                t2 = time.perf_counter()
                scanline.clear_cache()
                c3 = time.process_time()
                t3 = time.perf_counter()
                reading = read_ripple(pixels)
                t4 = time.perf_counter()
                times["cpu"].append((time.process_time() - c3) * 1000)
                w0 = time.perf_counter()
                read_ripple(pixels)
                times["warm"].append((time.perf_counter() - w0) * 1000)
                t4b = time.perf_counter()
                unique_solution(reading)
                t5 = time.perf_counter()
                for k, v in (("lattice", t1 - t0), ("rooms", t2 - t1), ("read", t4 - t3),
                             ("solve", t5 - t4b)):
                    times[k].append(v * 1000)
            med = {k: statistics.median(v) for k, v in times.items()}
            totals.append(med["read"])
            desc = random_look(look)
            name = (f"{desc['theme']}, {desc['border']} borders, {desc['lines']} lines, "
                    f"{desc['font']}")
            rows.append(f"| {name} | {reading.lattice.pitch:.0f} | {med['lattice']:.1f} ms | "
                        f"{med['rooms']:.1f} ms | {med['read']:.1f} ms ({med['cpu']:.1f}) | "
                        f"{med['warm']:.1f} ms | {med['solve']:.1f} ms |")
            print(rows[-1], flush=True)
    close_shared_browser()
    text = (f"`read_ripple` on a {SIZE}×{SIZE} board of the bundled page (1000×1100 headless "
            f"screenshot, the whole picture searched), cold glyph cache, median of {REPEATS} "
            f"reads per look; worst look {max(totals):.0f} ms (target: under 100 ms). Cold: "
            "no glyph memoised (the first read of a session); warm: the same picture read "
            "again (the loop's verify reads). CPU is the process's own CPU time, which the "
            f"other users of a loaded machine do not inflate. Load average at start {load:.2f}.")
    write_section("ripple-read", text + "\n\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
