"""Programs we start (Xvfb, a browser, a game, a window manager), and their own words if they die.

A helper that exits as it starts leaves its caller with only a symptom ("no
window appeared", "the window was not reparented"); the helper's stderr names
the cause ("unable to open fontset"). So every helper's stderr goes to an
unlinked temporary file (no pipe that could fill and stall it), read only when
the helper has died and the error should quote it.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import IO, Any

from autoplayer.errors import UserError

TAIL_LINES = 3
"""Lines of a dead helper's stderr quoted: the last ones carry the fatal message."""


class HelperExited(UserError):
    """A program we started is gone; the message quotes what it printed."""


class Helper:
    """`Helper("twm", ["twm", "-f", rc], env=...)` runs a program, watching for its death."""

    def __init__(self, name: str, args: Sequence[str], **popen: Any) -> None:
        self.name = name
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop)
        popen.setdefault("stdin", subprocess.DEVNULL)
        popen.setdefault("stdout", subprocess.DEVNULL)
        try:
            self.proc: subprocess.Popen[bytes] = subprocess.Popen(
                list(args), stderr=self._stderr, **popen)
        except OSError as err:
            self._stderr.close()
            raise HelperExited(f"{name} could not be started: {err}") from None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self, lines: int = TAIL_LINES) -> str:
        """The last non-blank lines the program wrote to stderr, joined on one line."""
        self._stderr.flush()
        self._stderr.seek(0)
        text = self._stderr.read()[-8192:].decode(errors="replace")
        kept = [ln.strip() for ln in text.splitlines() if ln.strip()][-lines:]
        return " | ".join(kept)

    def died(self, doing: str = "") -> HelperExited:
        """The error to raise now that the program has exited (call once poll() says so)."""
        code = self.proc.poll()
        tail = self.stderr_tail()
        said = f"it said: {tail}" if tail else "it printed nothing on stderr"
        while_ = f" {doing}" if doing else ""
        return HelperExited(f"{self.name} exited with code {code}{while_}; {said}")

    def check(self, doing: str = "") -> None:
        """Raise `HelperExited` with the program's stderr if it is no longer running."""
        if not self.alive():
            raise self.died(doing)

    def settle(self, seconds: float, doing: str = "right after it started") -> Helper:
        """Watch the program for `seconds` (most fatal start-up errors come at once)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.check(doing)
            time.sleep(0.02)
        self.check(doing)
        return self

    def stop(self, end: Callable[[subprocess.Popen[bytes]], None] | None = None) -> None:
        """End the program (`end`, default `stop_process`: a browser kills its whole group)."""
        (end or stop_process)(self.proc)
        self._stderr.close()

    def __enter__(self) -> Helper:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def stop_process(proc: subprocess.Popen, grace: float = 5.0) -> None:
    """Terminate a child we started, killing it if it outlives `grace` seconds."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
