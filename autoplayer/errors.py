"""Errors a user can act on.

Every failure caused by input the user gave us (a file, a screenshot, a window,
a command-line value) is raised as a `UserError`; the CLI prints it as one line
and exits with `exit_code`, never with a traceback.
"""

from __future__ import annotations

from pathlib import Path


def printable(text: str) -> str:
    """`text` with every control or escape byte spelled out, so a message quoting the
    user's input stays one line and cannot drive the terminal."""
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def _escaped(c: str) -> str:
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


class UserError(Exception):
    """A problem in what the user gave us, reported as one line."""

    exit_code = 2


class InputError(UserError):
    """Bad content in a named input: a file and line, or an image region."""

    def __init__(
        self,
        message: str,
        *,
        path: str | Path | None = None,
        line: int | None = None,
        region: tuple[int, int, int, int] | None = None,
    ) -> None:
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.region = region
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.region is not None:
            x, y, w, h = self.region
            where += f"{' ' if where else ''}[region x={x} y={y} w={w} h={h}]"
        return f"{where}: {self.message}" if where else self.message

    def at(self, path: str | Path) -> InputError:
        """The same error, naming the file (parsers raise it before they know the path)."""
        return InputError(self.message, path=path, line=self.line, region=self.region)


class Aborted(UserError):
    """The user stopped the bot (abort key, mouse moved, time budget)."""

    exit_code = 3
