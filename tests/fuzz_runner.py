"""Runs command calls in process, bounded, and judges each by the rules of issue 22.

The calls run as functions (`autoplayer.cli.main`, `ripple-effect`'s and
`ripple-effect-check`'s mains) in a forked child whose address space is capped with
RLIMIT_AS, so a blow-up is a `MemoryError` (a failure) and not a dead machine; each
call has a wall-time limit enforced with SIGALRM, and the parent kills a child that
stops answering (a hang inside C code) and carries on with the next call. stdin,
stdout and stderr are real files at fds 0, 1 and 2, as in a terminal session.

The rules, per call: the exit code is one the command documents; a non-zero exit
leaves at most one line on stderr (exactly one for bad input, an internal error,
a failed write or Ctrl-C) and never a traceback; no control or escape bytes but
newline on stderr (nor on stdout, where a title from a file may be echoed); no
exception escapes, no Python warning is printed; an output that existed is
unchanged when the call failed, and written when it succeeded; the inputs are
never modified, and nothing else appears in the folder (no temporary file left,
no file named `-`).
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import re
import resource
import shlex
import shutil
import signal
import stat
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

MEMORY_BYTES = 2 << 30
"""Address space a batch may grow by beyond what it starts with (~2 GB)."""

SOLVE_SECONDS = 10.0
"""Wall-time limit of a call that solves (it runs with `--timeout 2`)."""

OTHER_SECONDS = 5.0
"""Wall-time limit of every other call: both are five times what a loaded 2-core
machine needs, so only a hang or a loop over a huge number passes them."""

LONG_ARGUMENT = 200
"""Arguments longer than this are shown as a file of the replay folder."""

KILL_GRACE = 10.0
"""How long past a call's limit the parent waits before killing a silent child."""

ONE_LINE_CODES = frozenset({2, 3, 70, 74, 130})
"""Exit codes whose message must be exactly one line on stderr: bad input or usage,
aborted, internal error, could not write, interrupted. Other non-zero codes are
verdicts (wrong, multiple, contradiction, timeout), said on stdout: at most one line."""

CHECK, SHOW, CONVERT, SOLVE = {0, 1, 2}, {0, 2}, {0, 2, 74}, {0, 1, 2, 4, 5, 6, 70, 74}
CODES: dict[str, frozenset[int]] = {
    "check": frozenset(CHECK),
    "show": frozenset(SHOW),
    "convert": frozenset(CONVERT),
    "solve": frozenset(SOLVE),
    "read": frozenset({0, 2, 74}),
    "fifteen solve": frozenset({0, 2}),
    "fifteen show": frozenset({0, 2}),
    "ripple-effect": frozenset({0, 1, 2, 74}),
    "ripple-effect-check": frozenset({0, 1, 2}),
    "ripple solve": frozenset({0, 1, 2, 74}),
    "ripple check": frozenset({0, 1, 2}),
}
"""Each command's documented exit codes (its --help and the plan of issue 22): 0 ok,
1 wrong/multiple/no solution, 2 bad input or usage, 4/5/6 solve's contradiction/
timeout/stalled, 70 internal error, 74 output could not be written."""

_CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
"""Control bytes (C0 but newline, DEL, C1 as UTF-8): what a terminal would act on."""
_CONTROL_OUT = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
"""The same on stdout, where a tab from a title is harmless."""
_WARNING = re.compile(rb"^\S.*:\d+: \w*Warning: ", re.M)


@dataclass(frozen=True)
class Call:
    """One command line and the files it needs. Paths are relative to the call's folder."""

    command: str
    """The command's name in CODES ("convert", "fifteen show", "ripple-effect", ...)."""
    argv: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...] = ()
    """Written into the call's folder before the call: inputs and outputs that exist."""
    inputs: tuple[str, ...] = ()
    """Which of `files` the call reads (they must come out unchanged)."""
    outputs: tuple[str, ...] = ()
    """Paths the call may write (any other new file in the folder is a failure)."""
    links: tuple[tuple[str, str], ...] = ()
    """Symbolic links (name, target) made before the call."""
    stdin: bytes = b""
    writes_on: frozenset[int] = frozenset({0})
    """Exit codes after which the outputs may have changed."""
    must_write: bool = False
    """On exit 0 the first output exists (convert, ripple-effect, read --out)."""
    limit: float = OTHER_SECONDS
    what: str = ""
    """How the input was made: its seed and mutations."""
    entry_point: str = ""
    """`module:function` to call instead of the command's own main (the runner's own tests)."""

    @property
    def entry(self) -> str:
        return self.command if self.command.startswith("ripple-effect") else "autoplayer"

    def shell(self) -> str:
        """The command line as a shell would take it (control bytes written as $'…'); an
        argument too long to read is taken from the file `argN` of the replay folder."""
        return " ".join(_quoted(a) if len(a) <= LONG_ARGUMENT else f'"$(cat arg{k})"'
                        for k, a in enumerate((self.entry, *self.argv)))


@dataclass(frozen=True)
class Problem:
    kind: str
    detail: str
    """What happened; `signature` groups problems of one cause."""
    signature: str = ""


@dataclass
class Outcome:
    index: int
    code: int | None
    stdout: bytes = b""
    stderr: bytes = b""
    seconds: float = 0.0
    problems: list[Problem] = field(default_factory=list)


def _quoted(arg: str) -> str:
    if arg.isprintable():
        return shlex.quote(arg)
    raw = os.fsencode(arg)
    return "$'" + "".join(chr(b) if 32 <= b < 127 and b not in b"'\\" else f"\\x{b:02x}"
                          for b in raw) + "'"


class CallTimeout(BaseException):
    """Raised by SIGALRM in the call: a BaseException, so `except Exception` cannot eat it."""


def _alarm(signum: int, frame: object) -> None:
    raise CallTimeout


# ----------------------------------------------------------------- the child


def _entry(call: Call) -> Callable[[list[str]], int | None]:
    if call.entry_point:
        import importlib

        module, _, function = call.entry_point.partition(":")
        return getattr(importlib.import_module(module), function)
    name = call.entry
    if name == "ripple-effect":
        from autoplayer.games.ripple.cli import main_solve

        return main_solve
    if name == "ripple-effect-check":
        from autoplayer.games.ripple.cli import main_check

        return main_check
    from autoplayer.cli import main

    return main


def preload() -> None:
    """Import what the commands import, once, before forking: a call's clock then measures
    the command and not the first import of OpenCV or the solver."""
    import autoplayer.cli
    import autoplayer.commands.fifteen
    import autoplayer.commands.formats
    import autoplayer.commands.ripple
    import autoplayer.commands.solve
    import autoplayer.commands.vision
    import autoplayer.games.fifteen.human
    import autoplayer.games.fifteen.ids
    import autoplayer.games.fifteen.model
    import autoplayer.games.fifteen.render
    import autoplayer.games.nonogram.formats
    import autoplayer.games.nonogram.reader
    import autoplayer.games.nonogram.render
    import autoplayer.games.nonogram.solver
    import autoplayer.games.ripple.cli  # noqa: F401
    from autoplayer.vision.templates import every_template_set

    every_template_set()


def _address_space() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings go to the stderr of the call, as they would in a process of its own."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


class _Streams:
    """fds 0, 1 and 2 on private files, and sys.std* on them as Python sets them up."""

    def __init__(self, folder: Path) -> None:
        self.fds = {fd: os.open(folder / name, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
                    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr"))}

    def start(self, stdin: bytes) -> None:
        """Fresh files at fds 0, 1 and 2 (again each call: a command may have moved them)."""
        for fd, own in self.fds.items():
            os.ftruncate(own, 0)
            os.lseek(own, 0, os.SEEK_SET)
            os.dup2(own, fd)
        os.write(self.fds[0], stdin)
        os.lseek(self.fds[0], 0, os.SEEK_SET)
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)),
                                     encoding="utf-8", errors="strict")
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)),
                                      encoding="utf-8", errors="strict")
        sys.stderr = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
                                      encoding="utf-8", errors="backslashreplace",
                                      line_buffering=True)

    def finish(self) -> tuple[bytes, bytes, list[str]]:
        """What the call wrote, and what went wrong flushing it."""
        trouble = []
        for name in ("stdout", "stderr"):
            try:
                getattr(sys, name).flush()
            except BaseException as err:  # an unflushable stream is the call's fault
                trouble.append(f"{name} flush: {type(err).__name__}: {err}")
        return self._read(1), self._read(2), trouble

    def _read(self, fd: int) -> bytes:
        own = self.fds[fd]
        size = os.fstat(own).st_size
        return os.pread(own, min(size, 1 << 20), 0)


def _snapshot(folder: Path) -> dict[bytes, tuple[str, bytes]]:
    """Every entry of the folder: its type and its bytes (or a link's target)."""
    seen = {}
    for entry in os.scandir(os.fsencode(folder)):
        mode = entry.stat(follow_symlinks=False).st_mode
        if stat.S_ISLNK(mode):
            seen[entry.name] = ("link", os.readlink(entry.path))
        elif stat.S_ISREG(mode):
            with open(entry.path, "rb") as f:
                seen[entry.name] = ("file", f.read())
        else:
            seen[entry.name] = ("other", b"")
    return seen


def _where(err: BaseException) -> str:
    """The innermost frame of the project that the exception passed through."""
    frames = traceback.extract_tb(err.__traceback__)
    ours = [f for f in frames if "/autoplayer/" in f.filename] or frames
    if not ours:
        return "?"
    f = ours[-1]
    return f"{f.filename.rsplit('/autoplayer/', 1)[-1]}:{f.lineno} in {f.name}"


def run_call(call: Call, index: int, folder: Path, streams: _Streams) -> Outcome:
    """Make the call's files, call it, and judge what it did."""
    folder.mkdir()
    for name, data in call.files:
        with contextlib.suppress(OSError):  # a name too long: the call finds no file
            (folder / name).write_bytes(data)
    for name, target in call.links:
        os.symlink(target, folder / name)
    before = _snapshot(folder)
    problems: list[Problem] = []
    code: int | None = None
    streams.start(call.stdin)
    here = os.getcwd()
    os.chdir(folder)
    started = time.monotonic()
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, call.limit)
            try:
                code = _exit_code(_entry(call)(list(call.argv)))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except SystemExit as exit_:
            code = _exit_code(exit_.code)
            if isinstance(exit_.code, str):
                sys.stderr.write(exit_.code + "\n")
    except CallTimeout:
        problems.append(Problem("hang", f"still running after {call.limit:g} s",
                                call.command))
    except MemoryError as err:
        problems.append(Problem("memory", f"MemoryError past the {MEMORY_BYTES >> 20} MiB cap",
                                _where(err)))
    except BaseException as err:
        problems.append(Problem("exception", f"{type(err).__name__}: {err}"[:300],
                                f"{type(err).__name__} at {_where(err)}"))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.monotonic() - started
    os.chdir(here)
    out, err_bytes, trouble = streams.finish()
    problems += [Problem("exception", t, t.rsplit(":", 1)[0]) for t in trouble]
    after = _snapshot(folder)
    problems += judge(call, code, out, err_bytes, before, after)
    shutil.rmtree(folder, ignore_errors=True)
    return Outcome(index, code, out, err_bytes, seconds, problems)


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    return value if isinstance(value, int) else 1


def _first_line(text: bytes) -> str:
    line = text.strip().split(b"\n")[0] if text.strip() else b""
    return line[:160].decode("utf-8", "backslashreplace")


def judge(call: Call, code: int | None, out: bytes, err: bytes,
          before: dict[bytes, tuple[str, bytes]],
          after: dict[bytes, tuple[str, bytes]]) -> list[Problem]:
    """Every rule the call broke (none when it behaved)."""
    problems = []
    codes = CODES[call.command]
    if code is not None:
        if code not in codes:
            problems.append(Problem("exit code", f"exit {code}, not one of {sorted(codes)}",
                                    f"{call.command} exit {code}"))
        elif code == 70:
            problems.append(Problem("internal error", f"exit 70: {_first_line(err)}",
                                    call.command))
        lines = err.count(b"\n") + (0 if err.endswith(b"\n") or not err else 1)
        exactly_one = code in ONE_LINE_CODES
        if (exactly_one and lines != 1) or (code != 0 and not exactly_one and lines > 1):
            usage = b"usage" in err.lower()
            problems.append(Problem("stderr not one line",
                                    f"exit {code} with {lines} lines on stderr",
                                    f"{call.command} {'usage' if usage else 'message'}"))
    if b"Traceback" in err or b"Traceback (most recent" in out:
        problems.append(Problem("traceback", "a traceback was printed",
                                f"{call.command}: {_traceback_end(err + out)}"))
    if _WARNING.search(err):
        match = _WARNING.search(err)
        assert match is not None
        problems.append(Problem("warning", "a Python warning on stderr",
                                err[match.start():match.end() + 60].decode(errors="replace")))
    for name, text, pattern in (("stderr", err, _CONTROL), ("stdout", out, _CONTROL_OUT)):
        if (bad := pattern.search(text)) is not None:
            problems.append(Problem(f"control bytes on {name}",
                                    f"byte {bad.group()!r} at {bad.start()}",
                                    call.command))
    problems += _judge_files(call, code, before, after)
    return problems


def _traceback_end(text: bytes) -> str:
    lines = [line for line in text.decode(errors="replace").splitlines() if line.strip()]
    return lines[-1][:120] if lines else ""


def _judge_files(call: Call, code: int | None, before: dict[bytes, tuple[str, bytes]],
                 after: dict[bytes, tuple[str, bytes]]) -> list[Problem]:
    problems = []
    outputs = {os.fsencode(o) for o in call.outputs}
    for name in call.inputs:
        key = os.fsencode(name)
        if key in before and after.get(key) != before[key]:
            problems.append(Problem("input changed", f"{name!r} was changed or removed",
                                    call.command))
    wrote = code is not None and code in call.writes_on
    for key in outputs:
        if key in before and not wrote and after.get(key) != before[key]:
            problems.append(Problem("output changed on failure",
                                    f"{key.decode(errors='replace')!r} changed, exit {code}",
                                    call.command))
        if key in before and before[key][0] == "link" and after.get(key, ("", b""))[0] != "link":
            problems.append(Problem("link replaced", f"{key!r} is no longer a link",
                                    call.command))
    if call.must_write and code == 0 and call.outputs:
        first = os.fsencode(call.outputs[0])
        if first != b"-" and first not in after:
            problems.append(Problem("output missing", f"exit 0 but {call.outputs[0]!r} "
                                    "was not written", call.command))
    made = sorted(set(after) - set(before) - outputs)
    if made:
        names = ", ".join(repr(m.decode(errors="replace")) for m in made[:3])
        problems.append(Problem("stray file", f"new in the folder: {names}",
                                f"{call.command} " + ("'-'" if b"-" in made else "temp file")))
    return problems


def _child(calls: list[Call], start: int, deadline: float, root: str, conn) -> None:
    """The batch from `start` on: 'start' before each call, its Outcome after it."""
    base = _address_space()
    resource.setrlimit(resource.RLIMIT_AS, (base + MEMORY_BYTES, base + MEMORY_BYTES))
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    warnings.resetwarnings()
    warnings.simplefilter("always")
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                     ResourceWarning):
        warnings.simplefilter("ignore", category)
    warnings.showwarning = _show_warning
    folder = Path(root)
    streams = _Streams(folder)
    for index in range(start, len(calls)):
        if time.monotonic() > deadline:
            break
        conn.send(("start", index))
        outcome = run_call(calls[index], index, folder / f"c{index}", streams)
        conn.send(("done", outcome))
        if any(p.kind in ("hang", "memory") for p in outcome.problems):
            conn.send(("restart", None))  # what was cut off may have left state behind
            return
    conn.send(("end", None))


def run_calls(calls: list[Call], budget: float | None = None,
              progress: Callable[[Outcome], None] | None = None,
              grace: float = KILL_GRACE) -> list[Outcome]:
    """Every call's outcome, in a forked child (a new one after a crash or a kill), until
    `budget` seconds have passed; the calls not reached are left out."""
    preload()
    context = multiprocessing.get_context("fork")
    deadline = time.monotonic() + (budget if budget is not None else 1e9)
    outcomes: list[Outcome] = []

    def record(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)

    index = 0
    with tempfile.TemporaryDirectory(prefix="autoplayer-fuzz-") as root:
        while index < len(calls) and time.monotonic() < deadline:
            receive, send = context.Pipe(duplex=False)
            child = context.Process(target=_child, args=(calls, index, deadline, root, send),
                                    daemon=True)
            child.start()
            send.close()
            current, running = index, False
            while True:
                wait = (calls[current].limit if running else 0) + grace
                if not receive.poll(wait):
                    child.kill()
                    problem = Problem("hang", f"no answer in {wait:g} s; killed (stuck "
                                      "outside Python)", calls[current].command)
                    break
                try:
                    what, value = receive.recv()
                except (EOFError, OSError):
                    child.join()
                    problem = Problem("crash", f"the process died (exit status "
                                      f"{child.exitcode})", f"{calls[current].command} "
                                      f"status {child.exitcode}")
                    break
                if what == "start":
                    current, running = value, True
                elif what == "done":
                    record(value)
                    current, running = value.index + 1, False
                else:  # "restart" from the next call, or "end" of the batch or the budget
                    current = current if what == "restart" else len(calls)
                    problem = None
                    break
            child.join()
            receive.close()
            _clean(Path(root))
            if problem is not None and current < len(calls):
                record(Outcome(current, None, problems=[problem]))
                current += 1
            index = current
    return outcomes


def _clean(root: Path) -> None:
    for entry in root.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


# ----------------------------------------------------------------- reporting


def replay_folder(call: Call, index: int, seed: int | str, base: Path | None = None) -> Path:
    """The failing call's files in a folder of their own, to run it again by hand."""
    base = base or Path(tempfile.gettempdir()) / f"autoplayer-fuzz-{seed}"
    folder = base / f"call-{index}"
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in call.files:
        with contextlib.suppress(OSError):
            (folder / name).write_bytes(data)
    for name, target in call.links:
        if not os.path.lexists(folder / name):
            os.symlink(target, folder / name)
    if call.stdin:
        (folder / "stdin").write_bytes(call.stdin)
    for k, arg in enumerate((call.entry, *call.argv)):
        if len(arg) > LONG_ARGUMENT:
            (folder / f"arg{k}").write_bytes(os.fsencode(arg))
    (folder / "command").write_text(call.shell() + (" < stdin" if call.stdin else "") + "\n")
    return folder


def failure_text(call: Call, outcome: Outcome, seed: int | str, folder: Path) -> str:
    """One failing call, with everything needed to replay it."""
    kinds = "; ".join(f"{p.kind}: {p.detail}" for p in outcome.problems)
    err = outcome.stderr.decode("utf-8", "backslashreplace").strip().splitlines()
    err = err if len(err) <= 6 else [*err[:3], "...", *err[-3:]]
    shown = "\n      ".join(line[:300] for line in err) if err else "(empty)"
    head = f"AUTOPLAYER_SEED={seed} call {outcome.index}" if isinstance(seed, int) else seed
    return (f"{head} [{call.command}] {kinds}\n"
            + (f"    input: {call.what}\n" if call.what else "") +
            f"    replay: cd {shlex.quote(str(folder))} && {call.shell()}"
            f"{' < stdin' if call.stdin else ''}\n"
            f"    exit {outcome.code}, {outcome.seconds:.2f} s, stderr: {shown}")


def grouped(outcomes: Iterable[Outcome]) -> dict[tuple[str, str], list[Outcome]]:
    """Failing outcomes by (kind, signature): one cause, many calls."""
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for outcome in outcomes:
        for problem in outcome.problems:
            groups.setdefault((problem.kind, problem.signature), []).append(outcome)
    return groups
