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

Playing it (what tests/test_picmi_rules.py keeps true): `PicmiGame.cells` is
where the board's cells are, measured from the blank board once the level is
loaded; `click`, `drag`, `press`/`move`/`release` and `park` are real pointer
input (xdotool, XTEST); `states` reads every cell (blank, box, cross) from the
pixels. `solved` is Picmi's own word that the board is solved, not a reading
of the pixels: when a player solves a loaded level, Picmi records its time in
its settings file (`[preset_scores]`, key LEVELSET_NAME) before it shows its
"Board Solved!" message box (`solved_dialog`, `dismiss_solved`).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Sequence
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
SOLVED_DIALOG = "Board Solved!"
"""The title Picmi's message box on solving a loaded level starts with (KDE appends
" — Picmi")."""
LEVELSET = "autoplayer"
"""The name of the level set our level file holds: Picmi keys a solved level's time
by it (LEVELSET_NAME)."""
FIRST = -1
"""The difficulty our level is given: below every bundled level's (0..7), so it heads
the load dialog's list and is selected when it opens."""

LEFT, MIDDLE, RIGHT = 1, 2, 3
"""X pointer buttons."""
BLANK, BOX, CROSS = 0, 1, 2
"""A cell's states, as Picmi calls them (a cross is a cell marked empty)."""

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
        return (f'<?xml version="1.0"?>\n<picmi name="{LEVELSET}">\n'
                f'  <board name="{_attr(self.name)}" author="{_attr(self.author)}" '
                f'difficulty="{d}">\n{rows}\n  </board>\n</picmi>\n')


def make_level(rows: Sequence[str] | np.ndarray, name: str = "Probe") -> Level:
    """A level of our own, of any size: rows as strings ('#' or '1' a box, anything
    else none) or a 0/1 array."""
    if isinstance(rows, np.ndarray):
        grid = (rows != 0).astype(np.int8)
    else:
        grid = np.array([[ch in "#1" for ch in row] for row in rows], np.int8)
    if grid.ndim != 2 or not grid.size or len({len(r) for r in grid}) != 1:
        raise ValueError("a level is a full rectangle of cells")
    return Level(name, "autoplayer", FIRST, grid)


def random_level(width: int, height: int, seed: int = 0, density: float = 0.55) -> Level:
    """A `width`x`height` level with about `density` of its cells boxes (the density
    Picmi's own random boards have), the same for the same seed."""
    rng = np.random.default_rng(seed)
    grid = (rng.random((height, width)) < density).astype(np.int8)
    return make_level(grid, name=f"Probe {width}x{height} {seed}")


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


def _ini_section(text: str, name: str) -> set[str]:
    """The (escaped) keys of one [section] of a QSettings ini file."""
    keys: set[str] = set()
    inside = False
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1] == name
        elif inside and "=" in line:
            keys.add(line.split("=", 1)[0].strip())
    return keys


def _ini_key(key: str) -> str:
    """`key` as QSettings writes it in an ini file: letters, digits and _-. as they are,
    other characters %XX (Latin-1) or %UXXXX."""
    out = []
    for ch in key:
        if (ch.isascii() and ch.isalnum()) or ch in "_-.":
            out.append(ch)
        elif ord(ch) <= 0xFF:
            out.append(f"%{ord(ch):02X}")
        else:
            out.append(f"%U{ord(ch):04X}")
    return "".join(out)


def bundled_levels(directory: Path = LEVELS) -> list[Level]:
    """Every level Picmi ships, in file order."""
    return [lv for f in sorted(directory.glob("*.xml")) for lv in read_levelset(f)]


def bundled_level(name: str) -> Level:
    for level in bundled_levels():
        if level.name == name:
            return level
    raise KeyError(f"Picmi ships no level named {name!r}")


@dataclass(frozen=True)
class Cells:
    """Where a board's cells are in the window (client-area pixels): column `c` spans
    x from `left + c * tile` to `left + (c + 1) * tile`, rows likewise from `top`
    (Picmi's cells are square)."""

    left: float
    top: float
    tile: float
    width: int
    height: int

    def centre(self, col: int, row: int) -> tuple[int, int]:
        return (round(self.left + (col + 0.5) * self.tile),
                round(self.top + (row + 0.5) * self.tile))

    def inner(self, col: int, row: int) -> tuple[slice, slice]:
        """The middle half of the cell (rows, columns of the window picture): clear of
        its frame and of the 5-cell dividers."""
        q = self.tile / 4
        x0, y0 = self.left + col * self.tile, self.top + row * self.tile
        return (slice(round(y0 + q), round(y0 + 3 * q)), slice(round(x0 + q), round(x0 + 3 * q)))

    @property
    def right(self) -> float:
        return self.left + self.width * self.tile

    @property
    def bottom(self) -> float:
        return self.top + self.height * self.tile


def _dark_lines(counts: np.ndarray) -> list[float]:
    """Middles of the bands of positions whose count is near the largest, positions up
    to 6 apart in one band: each cell has a frame of its own, so where two cells meet
    there are two dark lines with a lighter one between (3 px apart at 100 px tiles),
    and a 5-cell divider adds one more."""
    idx = np.flatnonzero(counts > 0.8 * counts.max())
    bands = np.split(idx, np.flatnonzero(np.diff(idx) > 6) + 1)
    return [(b[0] + b[-1]) / 2 for b in bands if b.size]


def _grid_lines(lines: list[float], n: int) -> tuple[float, float]:
    """(start, tile) of the n-cell grid the frame lines lie on, fitted to all of them
    (one line may sit a pixel off: the SVG frame is scaled into each tile)."""
    if len(lines) < 2 or (lines[-1] - lines[0]) / n < 8:
        raise ValueError("no board frame found in the picture")
    rough = (lines[-1] - lines[0]) / n
    steps = [round((v - lines[0]) / rough) for v in lines]
    tile, start = np.polyfit(steps, lines, 1)
    if set(steps) != set(range(n + 1)) or \
            any(abs(v - start - k * tile) > 3 for v, k in zip(lines, steps, strict=True)):
        raise ValueError(f"the frame lines {lines} are not an {n}-cell board's")
    return float(start), float(tile)


def measure_cells(picture: np.ndarray, width: int, height: int) -> Cells:
    """The cells of a `width`x`height` board in a picture of Picmi's window.

    Picmi frames every cell in black: the columns (rows) of the picture holding the
    most near-black pixels are the frame lines, which span the whole board, one band
    of them on every tile boundary."""
    dark = picture.astype(np.int32).sum(axis=2) < 120
    left, tile_x = _grid_lines(_dark_lines(dark.sum(axis=0)), width)
    top, tile_y = _grid_lines(_dark_lines(dark.sum(axis=1)), height)
    if abs(tile_x - tile_y) > 1:
        raise ValueError(f"the cells are not square ({tile_x:.1f}x{tile_y:.1f} px)")
    return Cells(left, top, (tile_x + tile_y) / 2, width, height)


def cell_state(picture: np.ndarray, cells: Cells, col: int, row: int) -> int:
    """BLANK, BOX or CROSS, from the share of near-black pixels in the cell's middle half.

    Measured (tiles of 25 to 56 px): a blank cell has none (pale green, paler still
    where highlighted), a cross two fifths (its two strokes), a box all of it (a black
    tile with a dark grey sheen); the highlight does not change these."""
    rows, cols = cells.inner(col, row)
    dark = (picture[rows, cols].astype(np.int32).sum(axis=2) < 250).mean()
    if dark > 0.7:
        return BOX
    return CROSS if dark > 0.1 else BLANK


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
        self.cells: Cells | None = None
        """Where the board's cells are, measured once the level is loaded."""
        self._stderr_path = self.workdir / "picmi.stderr"
        self._settings_path = self.workdir / "home" / ".config" / "picmi" / "picmi.conf"

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
        # A game in a reused workdir starts unsolved: no time recorded by an earlier one.
        self._settings_path.unlink(missing_ok=True)
        (levels / "autoplayer.xml").write_text(self.level.xml(difficulty=FIRST))
        # The pointer off the board before it shows, so the highlight starts where Picmi
        # puts it (the top-left cell), not on a cell that happened to be under it.
        self.park()
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
            self.park()
            self.cells = measure_cells(self.settle(), *self.level.size)
            self.check_alive()
        except BaseException:
            self.close()
            raise
        return self

    def _load_level(self) -> None:
        """Game > Load, then OK on the first (our) level. Ctrl+O is sent again (to the
        main window found afresh) when focusing the window fails or no dialog opens
        within a few seconds: while Picmi is still starting up, now and then its window
        cannot take the focus yet, or the key is lost."""
        tries = 3
        for attempt in range(tries):
            try:
                self._xdotool("windowfocus", "--sync", str(self.window_id), "key", "ctrl+o")
                dialog = self._wait_window(LOAD_DIALOG, exact=False,
                                           timeout=self.timeout / tries)
                break
            except (PicmiDied, subprocess.CalledProcessError):
                self.check_alive()
                if attempt == tries - 1:
                    raise
                time.sleep(0.5)
                self.window_id = self._wait_window(TITLE, exact=True)
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

    def states(self, picture: np.ndarray | None = None) -> np.ndarray:
        """Every cell's state (BLANK, BOX, CROSS), height x width, from `picture` or the
        settled window. Not while the "Board Solved!" box is up: it covers the board."""
        if self.solved_dialog() is not None:
            raise RuntimeError(f"the {SOLVED_DIALOG!r} message box covers the board")
        cells = self._cells()
        pic = self.settle() if picture is None else picture
        return np.array([[cell_state(pic, cells, c, r) for c in range(cells.width)]
                         for r in range(cells.height)], np.int8)

    # --- solved ---------------------------------------------------------------------
    def solved(self) -> bool:
        """Whether Picmi has recorded this level as solved by the player.

        On a win on a loaded level Picmi writes the time taken to its settings
        (~/.config/picmi/picmi.conf: `[preset_scores]`, key LEVELSET_NAME, written and
        synced before the "Board Solved!" box shows), and on nothing else (Move >
        Solve does not). start() removes any earlier file, so this is this game's."""
        try:
            text = self._settings_path.read_text(errors="replace")
        except FileNotFoundError:
            return False
        return _ini_key(f"{LEVELSET}_{self.level.name}") in _ini_section(text, "preset_scores")

    def solved_dialog(self) -> int | None:
        """The window id of Picmi's "Board Solved!" message box while it is showing."""
        ids = self._window_ids(SOLVED_DIALOG, exact=False)
        return ids[0] if ids else None

    def wait_solved(self, timeout: float = 5.0) -> bool:
        """True as soon as Picmi says the board is solved; False after `timeout`."""
        deadline = time.monotonic() + timeout
        while not self.solved():
            self.check_alive()
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def dismiss_solved(self) -> None:
        """OK on the "Board Solved!" box (Return), once it is showing; back when it is gone."""
        deadline = time.monotonic() + self.timeout
        while (dialog := self.solved_dialog()) is None:
            self.check_alive()
            if time.monotonic() > deadline:
                raise PicmiDied(f"no {SOLVED_DIALOG!r} box to dismiss{self._stderr_tail()}")
            time.sleep(0.02)
        self._xdotool("windowfocus", "--sync", str(dialog), "key", "Return")
        while self.solved_dialog() is not None:
            self.check_alive()
            if time.monotonic() > deadline:
                raise PicmiDied(f"the {SOLVED_DIALOG!r} box did not close{self._stderr_tail()}")
            time.sleep(0.02)

    # --- input ------------------------------------------------------------------------
    def _cells(self) -> Cells:
        if self.cells is None:
            raise PicmiDied("Picmi was not started")
        return self.cells

    def _origin(self) -> tuple[int, int]:
        from autoplayer.screen.window import locate, open_display

        disp = open_display(self.display)
        try:
            rect = locate(disp, self.window_id).rect
        finally:
            disp.close()
        return rect.x, rect.y

    def move(self, x: float, y: float) -> None:
        """The pointer to window pixel (x, y) in one motion (one X motion event)."""
        ox, oy = self._origin()
        self._xdotool("mousemove", str(ox + round(x)), str(oy + round(y)))

    def move_to_cell(self, col: int, row: int) -> None:
        self.move(*self._cells().centre(col, row))

    def press(self, button: int = LEFT) -> None:
        self._xdotool("mousedown", str(button))

    def release(self, button: int = LEFT) -> None:
        self._xdotool("mouseup", str(button))

    def click(self, col: int, row: int, button: int = LEFT, count: int = 1) -> None:
        """Pointer to the cell's centre, then press and release `button` there, `count`
        times 40 ms apart (2: a double click)."""
        self.move_to_cell(col, row)
        self._xdotool("click", "--repeat", str(count), "--delay", "40", str(button))

    def drag(self, path: Sequence[tuple[int, int]], button: int = LEFT,
             pause: float = 0.03) -> None:
        """Press `button` on the first cell of `path`, move to each next cell's centre in
        one motion, release on the last: [a, e] jumps from a to e, [a, b, c, d, e]
        passes through every cell."""
        self.move_to_cell(*path[0])
        time.sleep(pause)
        self.press(button)
        for col, row in path[1:]:
            time.sleep(pause)
            self.move_to_cell(col, row)
        time.sleep(pause)
        self.release(button)

    def key(self, *keys: str) -> None:
        """Keys (xdotool names: "alt+m", "s", "Return") to the main window, focused first."""
        self._xdotool("windowfocus", "--sync", str(self.window_id), "key", *keys)

    def park(self) -> None:
        """The pointer in the screen's bottom-right corner, off the window (which Picmi
        opens at the top left). It leaves the highlight where it was."""
        out = subprocess.run(["xdotool", "getdisplaygeometry"], capture_output=True, text=True,
                             env={**os.environ, "DISPLAY": self.display}, check=True, timeout=20)
        width, height = (int(v) for v in out.stdout.split())
        self._xdotool("mousemove", str(width - 1), str(height - 1))

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

    def _wait_window(self, title: str, exact: bool, timeout: float | None = None) -> int:
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            self.check_alive()
            ids = self._window_ids(title, exact)
            if len(ids) == 1:
                return ids[0]
            if time.monotonic() > deadline:
                raise PicmiDied(f"no single Picmi window titled {title!r} appeared within "
                                f"{timeout:g} s (found {len(ids)}){self._stderr_tail()}")
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
