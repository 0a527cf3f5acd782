"""KDE's Picmi (a real Qt nonogram game) on a private X display, showing a known puzzle.

Picmi always opens on a random board, so a known one is loaded the way a user
would: Game > Load (Ctrl+O) lists every level it finds, sorted by difficulty,
with the first row selected; OK (Ctrl+Return) starts it. The level we want is
written to `levels/` in Picmi's working directory (the first place it looks)
with a difficulty below any bundled level's, so it is that first row. Its
clues are known from the level data (`Level.puzzle`), bundled levels included
(`bundled_levels` reads Picmi's own files, XPM pictures too).

Picmi is a KDE program: it wants a D-Bus session bus (it registers itself on
it) and writes its settings under HOME, so each game gets a private HOME, XDG
directories and its own bus (`dbus-run-session`). After starting, after
loading and whenever asked, the harness checks that the program is still
alive, and fails with its stderr when it is not.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from xml.etree import ElementTree

import numpy as np
import pytest

from autoplayer.games.nonogram.model import Puzzle, puzzle_from_grid

PICMI = "/usr/games/picmi"
LEVELS = Path("/usr/share/picmi/levels")
TITLE = "Picmi"
LOAD_DIALOG = "Level Selection"
FIRST = -1
"""The difficulty our level is given: below every bundled level's (0..7), so it heads
the load dialog's list and is selected when it opens."""

needs_picmi = pytest.mark.skipif(
    not os.path.exists(PICMI) or shutil.which("dbus-run-session") is None,
    reason="picmi or dbus-run-session is not installed (make system-deps installs them)")


@dataclass(frozen=True)
class Level:
    """One Picmi board: its solution picture (1 = box)."""

    name: str
    author: str
    difficulty: int
    grid: np.ndarray

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in cells."""
        return self.grid.shape[1], self.grid.shape[0]

    @property
    def puzzle(self) -> Puzzle:
        """The clues Picmi shows for it (an empty line shows no number: the empty clue)."""
        return puzzle_from_grid(self.grid, title=self.name)

    def xml(self, difficulty: int | None = None) -> str:
        """The level as a Picmi level set of its own (rows of '1' and '-')."""
        rows = "\n".join("    <row>" + "".join("1" if v else "-" for v in row) + "</row>"
                         for row in self.grid)
        d = self.difficulty if difficulty is None else difficulty
        return (f'<?xml version="1.0"?>\n<picmi name="autoplayer">\n'
                f'  <board name="{_attr(self.name)}" author="{_attr(self.author)}" '
                f'difficulty="{d}">\n{rows}\n  </board>\n</picmi>\n')


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def read_xpm(path: Path) -> np.ndarray:
    """An XPM picture as Picmi reads a level from it: 1 wherever a pixel is not
    transparent (colour None), 0 where it is."""
    strings = re.findall(r'"((?:[^"\\]|\\.)*)"', path.read_text())
    width, height, ncolours, cpp = (int(v) for v in strings[0].split()[:4])
    transparent = set()
    for entry in strings[1:1 + ncolours]:
        key, spec = entry[:cpp], entry[cpp:].split()
        if "c" in spec and spec[spec.index("c") + 1].lower() == "none":
            transparent.add(key)
    rows = strings[1 + ncolours:1 + ncolours + height]
    return np.array([[rows[y][x * cpp:(x + 1) * cpp] not in transparent for x in range(width)]
                     for y in range(height)], np.int8)


def read_levelset(path: Path) -> list[Level]:
    """The boards of one Picmi level file (rows given inline or as an XPM picture)."""
    root = ElementTree.parse(path).getroot()
    out = []
    for board in root.iter("board"):
        xpm = board.find("xpm")
        if xpm is not None and xpm.text:
            grid = read_xpm(path.parent / xpm.text.strip())
        else:
            grid = np.array([[c == "1" for c in (row.text or "").strip()]
                             for row in board.findall("row")], np.int8)
        out.append(Level(board.get("name", ""), board.get("author", ""),
                         int(board.get("difficulty", "0")), grid))
    return out


def bundled_levels(directory: Path = LEVELS) -> list[Level]:
    """Every level Picmi ships, in file order."""
    return [lv for f in sorted(directory.glob("*.xml")) for lv in read_levelset(f)]


def bundled_level(name: str) -> Level:
    for level in bundled_levels():
        if level.name == name:
            return level
    raise KeyError(f"Picmi ships no level named {name!r}")


class PicmiDied(RuntimeError):
    """Picmi exited (or never showed its window); the message holds its stderr."""


class PicmiGame:
    """Picmi on `display` showing `level`, in a private HOME under `workdir`, until closed.

    `window`: the main window's size in pixels (Picmi scales its tiles and font to it);
    None keeps Picmi's default (700x560). `binary`: the program to run (tests of the
    harness itself give a stand-in).
    """

    def __init__(self, level: Level, display: str, workdir: Path, *,
                 window: tuple[int, int] | None = None, timeout: float = 30.0,
                 binary: str = PICMI) -> None:
        self.level, self.display, self.workdir = level, display, Path(workdir)
        self.binary = binary
        self.window, self.timeout = window, timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.window_id = 0
        self._stderr_path = self.workdir / "picmi.stderr"

    # --- starting ---------------------------------------------------------------------
    def _env(self) -> dict[str, str]:
        home = self.workdir / "home"
        runtime = home / "runtime"
        for d in (home / ".config", home / ".local" / "share", home / ".cache", runtime):
            d.mkdir(parents=True, exist_ok=True)
        runtime.chmod(0o700)
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home), "DISPLAY": self.display, "QT_QPA_PLATFORM": "xcb",
            "XDG_RUNTIME_DIR": str(runtime), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            # No crash dialog (KCrash) to hang a test when something goes wrong.
            "KDE_DEBUG": "1",
        }

    def start(self) -> PicmiGame:
        self.workdir.mkdir(parents=True, exist_ok=True)
        levels = self.workdir / "levels"
        levels.mkdir(exist_ok=True)
        (levels / "autoplayer.xml").write_text(self.level.xml(difficulty=FIRST))
        with open(self._stderr_path, "wb") as err:
            self.proc = subprocess.Popen(["dbus-run-session", "--", self.binary], cwd=self.workdir,
                                         env=self._env(), stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=err,
                                         start_new_session=True)
        try:
            self.window_id = self._wait_window(TITLE, exact=True)
            self.check_alive()
            if self.window is not None:
                self._xdotool("windowsize", str(self.window_id), *map(str, self.window))
            self._load_level()
            self.settle()
            self.check_alive()
        except BaseException:
            self.close()
            raise
        return self

    def _load_level(self) -> None:
        """Game > Load, then OK on the first (our) level."""
        self._xdotool("windowfocus", "--sync", str(self.window_id), "key", "ctrl+o")
        dialog = self._wait_window(LOAD_DIALOG, exact=False)
        self._xdotool("windowfocus", "--sync", str(dialog), "key", "ctrl+Return")
        deadline = time.monotonic() + self.timeout
        while self._window_ids(LOAD_DIALOG, exact=False):
            self.check_alive()
            if time.monotonic() > deadline:
                raise PicmiDied(f"the level dialog did not close{self._stderr_tail()}")
            time.sleep(0.05)

    # --- looking --------------------------------------------------------------------
    def settle(self, timeout: float = 10.0) -> np.ndarray:
        """The window's picture once two grabs in a row are identical (painting done)."""
        deadline = time.monotonic() + timeout
        last = self.grab()
        while True:
            time.sleep(0.2)
            now = self.grab()
            if now.shape == last.shape and np.array_equal(now, last):
                return now
            if time.monotonic() > deadline:
                return now
            last = now

    def grab(self) -> np.ndarray:
        """The main window's client area now (RGB)."""
        from autoplayer.screen.capture import window_pixels

        self.check_alive()
        return window_pixels(self.display, self.window_id)

    def screenshot(self, path: Path) -> Path:
        """The settled window saved as a PNG (what `autoplayer read` is given)."""
        from PIL import Image

        Image.fromarray(self.settle()).save(path)
        return path

    # --- health ---------------------------------------------------------------------
    def check_alive(self) -> None:
        if self.proc is None:
            raise PicmiDied("Picmi was not started")
        code = self.proc.poll()
        if code is not None:
            raise PicmiDied(f"Picmi exited with status {code}{self._stderr_tail()}")

    def _stderr_tail(self, chars: int = 3000) -> str:
        try:
            text = self._stderr_path.read_text(errors="replace")
        except OSError:
            return ""
        return f"; its stderr:\n{text[-chars:]}" if text.strip() else "; its stderr was empty"

    # --- X helpers ------------------------------------------------------------------
    def _xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": self.display},
                       check=True, capture_output=True, timeout=20)

    def _window_ids(self, title: str, exact: bool) -> list[int]:
        from autoplayer.screen.window import list_windows, matches, open_display

        disp = open_display(self.display)
        try:
            return [w.id for w in list_windows(disp)
                    if w.viewable and matches(w, title, exact, "picmi")]
        finally:
            disp.close()

    def _wait_window(self, title: str, exact: bool) -> int:
        deadline = time.monotonic() + self.timeout
        while True:
            self.check_alive()
            ids = self._window_ids(title, exact)
            if len(ids) == 1:
                return ids[0]
            if time.monotonic() > deadline:
                raise PicmiDied(f"no single Picmi window titled {title!r} appeared within "
                                f"{self.timeout:g} s (found {len(ids)}){self._stderr_tail()}")
            time.sleep(0.05)

    # --- stopping -------------------------------------------------------------------
    def close(self) -> None:
        """Stops Picmi and its private bus (the whole process group we started)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(5)
                break
            except subprocess.TimeoutExpired:
                continue

    def __enter__(self) -> PicmiGame:
        return self.start() if self.proc is None else self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
