"""Reading the files the user names, and writing where the user pointed: all or nothing.

Reads are bounded: at most `limits.MAX_INPUT_BYTES`, so `/dev/zero` or a runaway
pipe is refused instead of filling memory. `-` is standard input.

Writes go where the user pointed, and never leave half a file:
- `-` is standard output;
- a regular file (or a new one) is replaced in one rename: the data goes to a temporary
  file beside it, is flushed to disk, and only then renamed over it, so a failure (full
  disk, Ctrl-C, an encoder raising) leaves whatever was there untouched. A replaced
  file keeps its permissions; a new one gets what a plain `open()` would give it;
- a symlink is written through: its target is replaced the same way and the link
  stays; where the target's folder does not allow a new file, the target is
  overwritten in place;
- a device, pipe or socket (`/dev/null`, `/dev/stdout`, a FIFO) is written directly.
Every failure is one line naming the path; failures to write exit 74 (EX_IOERR).
Standard library only, and `tempfile` is imported on first write: commands that
import this module must still start fast.

"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from autoplayer.errors import InputError, UserError
from autoplayer.limits import MAX_INPUT_BYTES

TYPE_CHECKING = False  # as typing's, without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import BinaryIO

    Content = str | bytes | Callable[[BinaryIO], None]
    """Text (written as UTF-8, newlines untouched), bytes, or a function writing to a file."""

STDIO = "-"
"""The path that means standard input where a file is read, standard output where one is written."""



class OutputError(UserError):
    """Output that could not be written: the old file, if any, is untouched."""

    exit_code = 74


def shown_path(path: str | Path) -> str:
    """A path as a message names it."""
    from autoplayer.limits import shown

    text = str(path)
    return "standard output" if text == STDIO else shown(text, 120)


def is_stdio(path: str | Path | None) -> bool:
    return path is not None and str(path) == STDIO


def exists(path: str | Path) -> bool:
    """Whether `path` names something, false for names the system refuses (too long, NUL)."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file (the second need not exist); `-` is never a file."""
    if is_stdio(a) or is_stdio(b):
        return False
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        try:
            return Path(a).resolve() == Path(b).resolve()
        except (OSError, ValueError, RuntimeError):
            return False


def read_input(path: str | Path, *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """A file's bytes (`-`: standard input), or an `InputError` naming it and why not."""
    if is_stdio(path):
        return _read_bounded(sys.stdin.buffer, "standard input", limit, regular=False)
    name = shown_path(path)
    try:
        with open(path, "rb") as source:
            regular = stat.S_ISREG(os.fstat(source.fileno()).st_mode)
            return _read_bounded(source, name, limit, regular=regular)
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path=name) from None
    except ValueError:
        raise InputError("cannot read: the name holds a NUL byte", path=name) from None
    except OSError as err:
        raise InputError(f"cannot read: {_reason(err)}", path=name) from None


def read_text(path: str | Path, *, limit: int = MAX_INPUT_BYTES) -> str:
    """A file's UTF-8 text (a BOM dropped), or an `InputError` saying why it cannot be."""
    data = read_input(path, limit=limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        name = "standard input" if is_stdio(path) else shown_path(path)
        raise InputError(f"not a text file (byte {err.start} is not UTF-8)", path=name) from None


def _read_bounded(source: BinaryIO, name: str, limit: int, *, regular: bool) -> bytes:
    data = source.read(limit + 1)
    if len(data) > limit:
        kind = "" if regular else " (not a regular file: read stopped there)"
        raise InputError(f"larger than the {_size(limit)} input limit{kind}", path=name)
    return data


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def write_output(path: str | Path, content: Content) -> None:
    """Write `content` where `path` points (see the module's rules); `OutputError` on failure."""
    if is_stdio(path):
        _write_stream(path, content)
        return
    name = shown_path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except (OSError, ValueError) as err:
        raise OutputError(f"{name}: cannot write: {_reason(err)}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{name}: cannot write: it is a directory")
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(name, Path(path), content)
        return
    link = os.path.islink(path)
    target = Path(os.path.realpath(path)) if link else Path(path)
    try:
        _replace(target, content, info)
    except _FolderRefuses as refused:
        if link and info is not None:
            _write_in_place(name, target, content)
            return
        raise OutputError(f"{name}: cannot write: {_reason(refused.error)}") from None
    except OSError as err:
        raise OutputError(f"{name}: cannot write: {_reason(err)}") from None


class _FolderRefuses(Exception):
    """The target's folder will not take a temporary file."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def _replace(target: Path, content: Content, info: os.stat_result | None) -> None:
    import tempfile

    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name[:64]}.", suffix=".tmp",
                                    dir=directory)
    except OSError as err:
        if err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise _FolderRefuses(err) from None
        raise
    try:
        os.fchmod(fd, _mode_for(info))
        with os.fdopen(fd, "wb") as out:
            _put(out, content)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _write_in_place(name: str, target: Path, content: Content) -> None:
    """Devices and pipes take the bytes as they come; a file whose folder refuses a new
    file is truncated and rewritten (the only way left to change it)."""
    try:
        with open(target, "wb") as out:
            _put(out, content)
            out.flush()
    except OSError as err:
        raise OutputError(f"{name}: cannot write: {_reason(err)}") from None


def _write_stream(path: str | Path, content: Content) -> None:
    try:
        sys.stdout.flush()
        _put(sys.stdout.buffer, content)
        sys.stdout.buffer.flush()
    except OSError as err:
        raise OutputError(f"{shown_path(path)}: cannot write: {_reason(err)}") from None


def _put(out: BinaryIO, content: Content) -> None:
    if isinstance(content, str):
        out.write(content.encode("utf-8"))
    elif isinstance(content, bytes):
        out.write(content)
    else:
        content(out)


def _reason(err: OSError | ValueError) -> str:
    if isinstance(err, ValueError):
        return "the name holds a NUL byte"
    if err.errno == errno.EPIPE:
        return "the reader closed the pipe"
    return err.strerror or str(err)


def _mode_for(info: os.stat_result | None) -> int:
    """The replaced file's permissions, or what a plain open() would give a new file."""
    if info is not None:
        return info.st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
