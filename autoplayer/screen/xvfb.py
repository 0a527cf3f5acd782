"""A private X server (Xvfb) for the demo on a headless machine and for end-to-end tests.

Several programs may run X servers here at once, so the display number is never
fixed: Xvfb picks a free one itself and writes it to a pipe (`-displayfd`).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

from autoplayer.errors import UserError
from autoplayer.screen.process import Helper

START_TIMEOUT = 15.0


class Xvfb:
    """`with Xvfb(1280, 1024) as x:` runs a virtual screen; `x.display` is ":N"."""

    def __init__(self, width: int = 1280, height: int = 1024, depth: int = 24) -> None:
        self.width, self.height, self.depth = width, height, depth
        self.display = ""
        self._helper: Helper | None = None

    def start(self) -> Xvfb:
        exe = shutil.which("Xvfb")
        if exe is None:
            raise UserError("Xvfb is not installed (Debian: apt-get install xvfb)")
        read_fd, write_fd = os.pipe()
        try:
            self._helper = Helper(
                "Xvfb",
                [exe, "-displayfd", str(write_fd), "-screen", "0",
                 f"{self.width}x{self.height}x{self.depth}", "-nolisten", "tcp", "-noreset"],
                pass_fds=(write_fd,),
            )
            os.close(write_fd)
            write_fd = -1
            self.display = ":" + self._read_display(read_fd)
        except BaseException:
            self.stop()
            raise
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
        return self

    def _read_display(self, fd: int) -> str:
        """Xvfb writes the display number and a newline once it accepts connections."""
        assert self._helper is not None
        deadline = time.monotonic() + START_TIMEOUT
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(left, 0))
            chunk = os.read(fd, 64) if ready else b""
            if not chunk:
                try:  # end of file: Xvfb is exiting; a time-out: it may still be running
                    self._helper.proc.wait(1.0)
                except subprocess.TimeoutExpired:
                    raise UserError(f"Xvfb did not start within {START_TIMEOUT:.0f} s") from None
                raise self._helper.died("before accepting connections")
            data += chunk
        return data.decode().strip()

    def alive(self) -> bool:
        return self._helper is not None and self._helper.alive()

    def check(self) -> None:
        """Raise `HelperExited`, with Xvfb's own stderr, if the server has died."""
        if self._helper is not None:
            self._helper.check("while in use")

    def stop(self) -> None:
        helper, self._helper = self._helper, None
        if helper is not None:
            helper.stop()

    def env(self) -> dict[str, str]:
        """This process's environment with DISPLAY pointing at this server."""
        return {**os.environ, "DISPLAY": self.display}

    def __enter__(self) -> Xvfb:
        return self.start() if self._helper is None else self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


@contextmanager
def virtual_display(width: int = 1280, height: int = 1024) -> Iterator[Xvfb]:
    """An Xvfb that this process's X clients (mss, pynput, Xlib) use until the block ends.

    pynput reads DISPLAY when a controller or listener is made, so it is set in
    the environment and restored afterwards.
    """
    old = os.environ.get("DISPLAY")
    with Xvfb(width, height) as server:
        os.environ["DISPLAY"] = server.display
        try:
            yield server
        finally:
            if old is None:
                os.environ.pop("DISPLAY", None)
            else:
                os.environ["DISPLAY"] = old
