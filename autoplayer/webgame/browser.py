"""Chromium for the bundled games: an app window on an X display, and headless screenshots.

- `launch_app` opens a page as a bare `--app=` window (no tabs, no address bar)
  on a given display, the way a user would play, and kills the whole process
  tree afterwards.
- `headless_screenshot` renders a page to an RGB array with no display at all.
  It keeps one headless Chromium alive and drives it over the DevTools protocol
  on a pipe (`--remote-debugging-pipe`): a fresh `chromium --screenshot` costs
  about two seconds of start-up per picture, a reused one a small fraction of that
  (bench/bench_webgame.py measures both).

A private X display for `launch_app` comes from `autoplayer.screen.xvfb.virtual_display`.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import io
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from autoplayer.errors import UserError
from autoplayer.screen.process import Helper

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

COMMON_FLAGS = (
    # What Chromium needs to run as root in a container, quietly and reproducibly:
    # --test-type hides the "unsupported flag" infobar --no-sandbox would show.
    "--no-sandbox", "--test-type", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--disable-translate", "--disable-features=Translate,MediaRouter",
    "--password-store=basic", "--force-color-profile=srgb", "--hide-scrollbars",
)


def chromium_path() -> str:
    """The Chromium (or Chrome) executable, or a UserError saying how to get one."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise UserError("Chromium not found; install it (Debian: apt-get install chromium)")


def _kill_group(proc: subprocess.Popen[bytes], grace: float = 0.5, reap: float = 3.0) -> None:
    """Stop a process we started in its own session, and every child it made.

    SIGTERM first, with a short grace: our profiles are throw-away, so there is
    nothing worth a slow shutdown (Chromium takes over a second); then SIGKILL.
    """
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(grace)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # helpers left behind when the parent went first
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(reap)
    # Return only once the helpers are gone too (they die a moment after the signal).
    deadline = time.monotonic() + reap
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)


# --- an app window on a display --------------------------------------------------------

@dataclass(frozen=True)
class AppWindow:
    """A running Chromium app window: its process and its top-level X window."""

    helper: Helper
    window: int
    """The X id of the mapped top-level window (title: the page's <title>)."""
    display: str

    @property
    def process(self) -> subprocess.Popen[bytes]:
        return self.helper.proc

    @property
    def pid(self) -> int:
        return self.helper.pid


@contextlib.contextmanager
def launch_app(
    url: str, *, display: str, width: int, height: int, x: int = 0, y: int = 0,
    timeout: float = 30.0,
) -> Iterator[AppWindow]:
    """Open `url` as a Chromium app window on `display`; on exit kill it and its children.

    Returns once the window is mapped (the page may still be loading: wait for
    the game's first report for that). A fresh profile every time, so no
    restored tabs, zoom levels or first-run dialogs get in the way.
    """
    profile = tempfile.mkdtemp(prefix="autoplayer-chromium-")
    args = [
        chromium_path(), *COMMON_FLAGS, f"--user-data-dir={profile}",
        f"--app={url}", f"--window-position={x},{y}", f"--window-size={width},{height}",
    ]
    env = {**os.environ, "DISPLAY": display}
    try:
        chromium = Helper("Chromium", args, env=env, start_new_session=True)
    except BaseException:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    try:
        window = _wait_for_window(display, chromium, timeout)
        yield AppWindow(chromium, window, display)
    finally:
        chromium.stop(_kill_group)
        shutil.rmtree(profile, ignore_errors=True)


def _wait_for_window(display: str, chromium: Helper, timeout: float) -> int:
    """The process's viewable top-level window: by _NET_WM_PID, else (late) by WM_CLASS.

    Looks below the root's children too: a window manager reparents the client
    window into a frame. The class match only counts after a few seconds, so
    another Chromium window on the display is not taken for ours.
    """
    from Xlib import X
    from Xlib import display as xdisplay
    from Xlib.error import DisplayError, XError

    try:
        conn = xdisplay.Display(display)
    except DisplayError as err:
        raise UserError(f"cannot open X display {display}: {err}") from None
    started = time.monotonic()
    try:
        pid_atom = conn.intern_atom("_NET_WM_PID")

        def candidates(win: Any, depth: int) -> Iterator[tuple[Any, bool]]:
            """(window, pid matches) for viewable, window-sized Chromium windows."""
            for child in win.query_tree().children:
                try:
                    if child.get_attributes().map_state != X.IsViewable:
                        continue
                    geometry = child.get_geometry()
                    if geometry.width < 50 or geometry.height < 50:
                        continue  # Chromium's tiny helper windows
                    prop = child.get_full_property(pid_atom, X.AnyPropertyType)
                    if prop is not None and int(prop.value[0]) == chromium.pid:
                        yield child, True
                    elif any("chrom" in c.lower() for c in child.get_wm_class() or ()):
                        yield child, False
                    elif depth > 0:
                        yield from candidates(child, depth - 1)
                except XError:
                    continue  # the window went away while we looked

        while time.monotonic() - started < timeout:
            chromium.check(f"before showing a window on display {display}")
            found = list(candidates(conn.screen().root, 2))
            for win, ours in found:
                if ours:
                    return int(win.id)
            if found and time.monotonic() - started > 5:
                return int(found[0][0].id)
            time.sleep(0.05)
    finally:
        conn.close()
    raise UserError(f"no Chromium window appeared on display {display} within {timeout:.0f} s")


# --- headless screenshots over the DevTools protocol --------------------------------------

_ONTO_FDS_3_4 = """
import os, sys
src = [int(sys.argv[1]), int(sys.argv[2])]
moved = [os.dup(fd) if fd in (3, 4) else fd for fd in src]
os.dup2(moved[0], 3)
os.dup2(moved[1], 4)
os.set_inheritable(3, True)
os.set_inheritable(4, True)
for fd in set(src + moved) - {3, 4}:
    os.close(fd)
os.execvp(sys.argv[3], sys.argv[3:])
"""


class HeadlessBrowser:
    """One headless Chromium driven over `--remote-debugging-pipe` (fd 3 in, fd 4 out).

    Messages are JSON separated by NUL bytes; no websocket and no port. Not
    thread-safe by itself: `headless_screenshot` serialises calls with a lock.
    """

    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="autoplayer-headless-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # A Python trampoline moves our pipe ends onto the fds Chromium reads and writes
        # (dash cannot redirect fds above 9, and ours may be anywhere).
        self._chromium = Helper(
            "headless Chromium",
            [sys.executable, "-c", _ONTO_FDS_3_4, str(to_child_r), str(from_child_w),
             chromium_path(), "--headless", *COMMON_FLAGS, f"--user-data-dir={self._profile}",
             "--remote-debugging-pipe", "about:blank"],
            pass_fds=(to_child_r, from_child_w), start_new_session=True,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        try:
            target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self._session = self._call(
                "Target.attachToTarget", {"targetId": target, "flatten": True}
            )["sessionId"]
            self._call("Page.enable", session=self._session)
        except BaseException:
            self.close()
            raise

    def alive(self) -> bool:
        return self._chromium.alive()

    def screenshot(self, url: str, width: int, height: int) -> np.ndarray:
        """The page at `url` in a width×height viewport, as an H×W×3 uint8 RGB array."""
        from PIL import Image

        s = self._session
        self._call("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                   session=s)
        self._events.clear()
        result = self._call("Page.navigate", {"url": url}, session=s)
        if result.get("errorText"):
            raise UserError(f"{url}: {result['errorText']}")
        self._wait_event("Page.loadEventFired", s)
        # Fonts in, then two animation frames: whatever the page drew on load is painted.
        self._call("Runtime.evaluate", {
            "expression": "document.fonts.ready.then(() => new Promise(r => "
                          "requestAnimationFrame(() => requestAnimationFrame(r))))",
            "awaitPromise": True,
        }, session=s)
        data = self._call("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True},
                          session=s)["data"]
        image = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
        return np.asarray(image)

    def close(self) -> None:
        for fd in (self._to_child, self._from_child):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._chromium.stop(_kill_group)
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> HeadlessBrowser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the protocol ---------------------------------------------------------------------
    def _call(self, method: str, params: dict[str, Any] | None = None, *,
              session: str | None = None) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        wanted = self._next_id
        reply = self._read_until(lambda m: m.get("id") == wanted, method)
        if "error" in reply:
            raise UserError(f"Chromium refused {method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def _wait_event(self, method: str, session: str) -> dict[str, Any]:
        for event in self._events:
            if event.get("method") == method and event.get("sessionId") == session:
                return event
        return self._read_until(
            lambda m: m.get("method") == method and m.get("sessionId") == session, method
        )

    def _read_until(self, match: Any, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                message = json.loads(raw)
                if match(message):
                    return message
                if "method" in message:
                    self._events.append(message)
            left = deadline - time.monotonic()
            if left <= 0:
                raise UserError(f"headless Chromium did not answer {what} within "
                                f"{self.timeout:.0f} s")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if ready:
                chunk = os.read(self._from_child, 1 << 20)
                if not chunk:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        self._chromium.proc.wait(1.0)  # closed its end: exiting
                    raise self._chromium.died(f"while waiting for {what}")
                self._buffer += chunk


_shared: HeadlessBrowser | None = None
_shared_lock = threading.Lock()


def headless_screenshot(url: str, width: int, height: int) -> np.ndarray:
    """The page at `url` rendered headless in a width×height viewport: an H×W×3 RGB array.

    One browser serves every call in the process (started on first use, closed
    at exit); each call loads the page afresh, so the same URL gives the same
    pixels.
    """
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.alive():
            if _shared is None:
                atexit.register(close_shared_browser)
            _shared = HeadlessBrowser()
        return _shared.screenshot(url, width, height)


def close_shared_browser() -> None:
    """Stop the browser `headless_screenshot` keeps (tests call it in teardown)."""
    global _shared
    if _shared is not None:
        _shared.close()
        _shared = None


def screenshot_once(url: str, width: int, height: int) -> np.ndarray:
    """The simple way: one `chromium --headless --screenshot` process per picture (benchmarks)."""
    from PIL import Image

    with tempfile.TemporaryDirectory(prefix="autoplayer-shot-") as tmp:
        out = os.path.join(tmp, "shot.png")
        proc = subprocess.run(
            [chromium_path(), "--headless", *COMMON_FLAGS, f"--user-data-dir={tmp}/profile",
             f"--window-size={width},{height}", f"--screenshot={out}", url],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False,
        )
        if not os.path.exists(out):
            raise UserError(f"chromium --screenshot failed (exit {proc.returncode})")
        with Image.open(out) as image:
            return np.asarray(image.convert("RGB"))
