"""How long the bundled game's browser helpers take (vision tests render many screenshots).

Measures, median of repeats: `headless_screenshot` with its reused headless
Chromium (first call including browser start, then per call) against one
`chromium --headless --screenshot` process per picture; `launch_app` under Xvfb
until the window is mapped and until the page's first report reaches the
server; and a page request to the server. Run: `.venv/bin/python -m bench.run_all webgame`.
"""

from __future__ import annotations

import statistics
import time
import urllib.request
from collections.abc import Callable

from bench.report import write_section

REPEATS = 7
VIEW = (1000, 800)


def _times(action: Callable[[], object], repeats: int = REPEATS) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        out.append(time.perf_counter() - start)
    return out


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms (min {min(values) * 1000:.0f})"


def main() -> None:
    from autoplayer.screen.xvfb import virtual_display
    from autoplayer.webgame.browser import (
        close_shared_browser,
        headless_screenshot,
        launch_app,
        screenshot_once,
    )
    from autoplayer.webgame.server import GameServer

    rows: list[tuple[str, str]] = []
    with GameServer() as server:
        url = server.url(size=(20, 20), seed=1, skin="pixel", session="bench")
        rows.append(("server: GET the 20×20 page", _ms(_times(
            lambda: urllib.request.urlopen(url, timeout=10).read(), 21))))

        close_shared_browser()
        start = time.perf_counter()
        headless_screenshot(url, *VIEW)
        first = time.perf_counter() - start
        rows.append(("headless_screenshot, first call (starts Chromium)", f"{first * 1000:.0f} ms"))
        for size, skin in (((20, 20), "pixel"), ((30, 30), "sans"), ((5, 5), "serif")):
            u = server.url(size=size, seed=2, skin=skin)
            rows.append((f"headless_screenshot, reused browser, {size[0]}×{size[1]} {skin}",
                         _ms(_times(lambda u=u: headless_screenshot(u, *VIEW)))))
        close_shared_browser()
        rows.append(("`chromium --headless --screenshot`, one process per picture",
                     _ms(_times(lambda: screenshot_once(url, *VIEW), 5))))

        with virtual_display(1280, 900) as x:
            display = x.display
            mapped: list[float] = []
            reported: list[float] = []
            for i in range(5):
                session = f"bench-live-{i}"
                u = server.url(size=(15, 15), seed=i, skin="sans", session=session)
                start = time.perf_counter()
                with launch_app(u, display=display, width=1000, height=800):
                    mapped.append(time.perf_counter() - start)
                    server.wait_for(session, lambda st, lay: st is not None and lay is not None,
                                    30)
                    reported.append(time.perf_counter() - start)
            rows.append(("launch_app under Xvfb: window mapped", _ms(mapped)))
            rows.append(("launch_app under Xvfb: page's first report at the server",
                         _ms(reported)))

    table = "\n".join(f"| {what} | {value} |" for what, value in rows)
    markdown = (
        f"Viewport {VIEW[0]}×{VIEW[1]}; median of {REPEATS} runs unless the row says otherwise "
        "(5 for the one-process screenshots and the app windows, 21 for the page GET).\n\n"
        "| what | time |\n|---|---|\n" + table
    )
    print(markdown)
    write_section("webgame", markdown)


if __name__ == "__main__":
    main()
