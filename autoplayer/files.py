"""Writing a file the user names: all of it or nothing, never half a file.

Every command that writes output goes through `write_atomically`: the data goes
to a temporary file beside the target, is flushed to disk, and only then renamed
over the target, so a failure (full disk, Ctrl-C, an encoder raising) leaves
whatever was there untouched. A replaced file keeps its permissions; a new one
gets what a plain `open()` would give it (mkstemp's would be private).
Standard library only, and `tempfile` is imported on first write: commands that
import this module to write one file must still start fast.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from autoplayer.errors import UserError

Content = str | bytes | Callable[[BinaryIO], None]
"""Text (written as UTF-8, newlines untouched), bytes, or a function writing to a file."""


def write_atomically(path: str | Path, content: Content) -> None:
    """Replace `path` with `content` in one rename; `UserError` naming the file on failure."""
    import tempfile

    target = Path(path)
    if target.is_dir():
        raise UserError(f"{path}: cannot write: it is a directory")
    directory = target.parent if str(target.parent) else Path(".")
    try:
        mode = _mode_for(target)
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as err:
        raise UserError(f"{path}: cannot write: {err.strerror or err}") from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as out:
            if isinstance(content, str):
                out.write(content.encode("utf-8"))
            elif isinstance(content, bytes):
                out.write(content)
            else:
                content(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException as err:
        Path(temp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise UserError(f"{path}: cannot write: {err.strerror or err}") from None
        raise


def _mode_for(path: Path) -> int:
    """The replaced file's permissions, or what a plain open() would give a new file."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
