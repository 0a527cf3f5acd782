"""How a command ends: its exit code, and at most one line on stderr.

Shared by `autoplayer` and the `ripple-effect` scripts, so every command turns what the
user can act on (bad input, output that cannot be written, a closed pipe, Ctrl-C) into
the same one line and exit code, never a traceback.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable

from autoplayer.errors import UserError, printable
from autoplayer.files import OutputError

INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT, as a shell reports it)."""


def say(prog: str, message: str) -> None:
    """One error line on stderr, whatever bytes the message quotes from the user."""
    print(f"{prog}: error: {printable(message)}", file=sys.stderr, flush=True)


def guarded(prog: str, work: Callable[[], int]) -> int:
    """Runs a command to its exit code: what the user can act on (bad input, a file that
    cannot be written, a closed pipe, Ctrl-C) is one line on stderr, never a traceback."""
    try:
        code = work()
        sys.stdout.flush()
        return code
    except UserError as err:
        say(prog, str(err))
        return err.exit_code
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        _drop_stdout()
        say(prog, "standard output: cannot write: the reader closed the pipe")
        return OutputError.exit_code
    except OSError as err:
        if err.errno not in (errno.ENOSPC, errno.EIO, errno.EDQUOT):
            raise
        _drop_stdout()
        say(prog, f"standard output: cannot write: {err.strerror}")
        return OutputError.exit_code


def _drop_stdout() -> None:
    """Points stdout at /dev/null, so the interpreter's last flush of what could not be
    written does not print a second error at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)
