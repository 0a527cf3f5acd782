"""A seeded mutation corpus over every input the offline commands read, as command calls.

`make_calls(seed, count, seeds)` draws `count` calls: a command, a seed input it
reads, 0 to 3 mutations of that input (byte flips, deletions, duplications,
truncation, line swaps, huge numbers, control and escape bytes, NUL, invalid UTF-8,
very long lines, splices of two seeds, and for XML and PNG a few of their own), and
how the input reaches the command (a file, stdin, or the command line). The same seed
and seeds give the same calls.
"""

from __future__ import annotations

import os
import random
import struct
import zlib
from collections.abc import Callable, Sequence

from fuzz_runner import SOLVE_SECONDS, Call
from fuzz_seeds import FIFTEEN, GAME_ID, IMAGE, NONOGRAM, RIPPLE, RIPPLE_SOLUTION, Seed

HUGE_NUMBERS = (
    "9" * 5000, "0" * 4999 + "1", str(2**64 + 1), "100000000", "4294967297", "-7", "-0",
    "0", "00", "1e9", "١٢", "+3", "3.0",
)
"""What `huge_number` puts in place of a number: past Python's 4,300-digit limit, past
64 bits, big enough to loop on, negative, zero, and numbers that are not whole."""

CONTROL_BYTES = (
    b"\x1b[2J", b"\x1b]0;owned\x07", b"\x07", b"\r", b"\x08", b"\x0c", b"\x7f",
    b"\xc2\x9b31m", b"\t", b"\xe2\x80\xa8", b"\xef\xbb\xbf", b"\x0b",
)
INVALID_UTF8 = (b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80",
                b"\xc0\xaf", b"\x80")
PNG_SIDES = (0, 1, 3, 20000, 65535, 1 << 24, 2**31 - 1)

Mutation = Callable[[random.Random, bytes, bytes], tuple[bytes, str]]


def _at(rng: random.Random, data: bytes) -> int:
    return rng.randrange(len(data) + 1)


def flip(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    if not data:
        return data, "flip (empty)"
    out = bytearray(data)
    spots = [rng.randrange(len(out)) for _ in range(rng.randint(1, 4))]
    for i in spots:
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out), f"flip bits at {spots}"


def delete(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    i = _at(rng, data)
    n = rng.randint(1, 32)
    return data[:i] + data[i + n:], f"delete {n} bytes at {i}"


def duplicate(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    i = _at(rng, data)
    piece = data[i:i + rng.randint(1, 256)]
    times = rng.choice((1, 2, 50))
    return data[:i] + piece * (times + 1) + data[i + len(piece):], \
        f"duplicate {len(piece)} bytes at {i} x{times}"


def truncate(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    i = _at(rng, data)
    return data[:i], f"truncate at {i}"


def swap_lines(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    lines = data.split(b"\n")
    if len(lines) < 2:
        return data, "swap lines (one line)"
    a, b = rng.sample(range(len(lines)), 2)
    lines[a], lines[b] = lines[b], lines[a]
    return b"\n".join(lines), f"swap lines {a + 1} and {b + 1}"


def huge_number(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    value = rng.choice(HUGE_NUMBERS).encode()
    runs = [(m.start(), m.end()) for m in _digit_runs(data)]
    shown = value if len(value) < 30 else value[:6] + b"...(%d digits)" % len(value)
    if runs:
        start, end = rng.choice(runs)
        return data[:start] + value + data[end:], f"number at {start} -> {shown.decode()}"
    i = _at(rng, data)
    return data[:i] + value + data[i:], f"insert number {shown.decode()} at {i}"


def _digit_runs(data: bytes):
    import re

    return re.finditer(rb"\d+", data)


def control(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    piece = rng.choice(CONTROL_BYTES)
    i = _at(rng, data)
    return data[:i] + piece + data[i:], f"insert {piece!r} at {i}"


def nul(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    i = _at(rng, data)
    n = rng.choice((1, 1, 100))
    return data[:i] + b"\x00" * n + data[i:], f"insert {n} NUL at {i}"


def invalid_utf8(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    piece = rng.choice(INVALID_UTF8)
    i = _at(rng, data)
    return data[:i] + piece + data[i:], f"insert {piece!r} at {i}"


def long_line(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    unit = rng.choice((b"1 ", b"1,", b"1.", b"x", b"#", b"9", b"\n", b"- "))
    n = rng.choice((10_000, 100_000))
    i = _at(rng, data)
    return data[:i] + unit * n + data[i:], f"insert {unit!r} x{n} at {i}"


def splice(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    i, j = _at(rng, data), _at(rng, other)
    return data[:i] + other[j:], f"splice: first {i} bytes + another seed from byte {j}"


def xml_trick(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    """What XML alone can carry: entities, character references, deep nesting."""
    pieces = (
        b'<!DOCTYPE p [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>',
        b"&#27;[31m", b"&#0;", b"&#x1b;", b"&#1114112;", b"&#99999999999999999999;",
        b"<![CDATA[\x1b]]>", b"<x>" * 5000, b"&unknown;", b"<count>" + b"9" * 5000 + b"</count>",
    )
    piece = rng.choice(pieces)
    i = data.find(b">", _at(rng, data)) + 1 or len(data)
    return data[:i] + piece + data[i:], f"insert XML {piece[:40]!r} at {i}"


def png_size(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    """A PNG whose header declares another size (checksum fixed, so a decoder believes it)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return data, "png size (not a PNG)"
    w, h = rng.choice(PNG_SIDES), rng.choice(PNG_SIDES)
    return with_png_size(data, w, h), f"PNG header says {w}x{h}"


def with_png_size(data: bytes, width: int, height: int) -> bytes:
    body = b"IHDR" + struct.pack(">II", width, height) + data[24:29]
    return data[:12] + body + struct.pack(">I", zlib.crc32(body)) + data[33:]


TEXT_MUTATIONS: tuple[Mutation, ...] = (
    flip, delete, duplicate, truncate, swap_lines, huge_number, huge_number, control, nul,
    invalid_utf8, long_line, splice)
IMAGE_MUTATIONS: tuple[Mutation, ...] = (flip, delete, duplicate, truncate, splice, png_size,
                                         png_size)


def mutate(rng: random.Random, seed: Seed, others: Sequence[Seed]) -> tuple[bytes, list[str]]:
    """The seed's bytes after 0 to 3 mutations, and what they were."""
    pool = list(IMAGE_MUTATIONS if seed.kind == IMAGE else TEXT_MUTATIONS)
    if seed.name.endswith((".xml", ".pbn")):
        pool += [xml_trick, xml_trick]
    data, done = seed.data, []
    for _ in range(rng.choices((0, 1, 2, 3), weights=(6, 60, 24, 10))[0]):
        other = rng.choice(others).data if others else data
        data, what = rng.choice(pool)(rng, data, other)
        done.append(what)
    return data, done


# ----------------------------------------------------------------- calls

OUT_EXTENSIONS = (".nonogram", ".non", ".xml", ".pbn", ".pattern", ".nin")
FORMATS = ("native", "non", "webpbn", "tatham", "nin", "puzzlink")
OLD = b"precious old output\n"
"""What an output file holds before a call that may write it."""

COMMAND_WEIGHTS = {
    "check": 10, "show": 10, "convert": 14, "solve": 9, "fifteen solve": 5, "fifteen show": 6,
    "read": 8, "ripple-effect": 11, "ripple-effect-check": 11, "ripple solve": 3,
    "ripple check": 3,
}
"""How often each command is drawn (the nonogram file commands share most inputs)."""


def _file_name(rng: random.Random, name: str) -> tuple[str, str]:
    """The name the input gets: its own mostly, sometimes a hostile one."""
    _, dot, ext = name.rpartition(".")
    ext = dot + ext if dot else ""
    roll = rng.random()
    if roll < 0.04:
        return f"\x1b[31mred\x07{ext}", "named with escape bytes"
    if roll < 0.06:
        return f"two\nlines{ext}", "named with a newline"
    if roll < 0.08:
        return "n" * 300 + ext, "named with 300 bytes (cannot exist)"
    if roll < 0.10:
        return os.fsdecode(b"bad\xff\xfe" + ext.encode()), "named with invalid UTF-8"
    if roll < 0.11:
        return "-looks-like-an-option" + ext, "named like an option"
    if roll < 0.16 and ext not in (".png", ".bmp", ".gif", ".jpg"):
        return "input.txt", "renamed .txt (format from content)"
    return name, ""


def _source(rng: random.Random, kinds: Sequence[str], seeds: Sequence[Seed]) -> Seed:
    return rng.choice([s for s in seeds if s.kind in kinds])


def _as_argument(data: bytes) -> str:
    """Bytes as a command-line argument: no NUL (exec cannot pass one), surrogate-escaped."""
    return os.fsdecode(data.replace(b"\x00", b""))


def _nonogram_source(rng: random.Random, seeds: Sequence[Seed]
                     ) -> tuple[str, tuple[tuple[str, bytes], ...], bytes, str]:
    """A nonogram input: (argument, files, stdin, description)."""
    seed = _source(rng, (NONOGRAM, GAME_ID), seeds)
    data, done = mutate(rng, seed, [s for s in seeds if s.kind in (NONOGRAM, GAME_ID)])
    what = f"{seed.kind} seed {seed.name}; {', '.join(done) or 'unmutated'}"
    if seed.kind == GAME_ID and rng.random() < 0.8:
        return _as_argument(data), (), b"", what + "; on the command line"
    if rng.random() < 0.1:
        return "-", (), data, what + "; on stdin"
    name = seed.name if seed.kind == NONOGRAM else "id.pattern"
    name, how = _file_name(rng, name)
    return name, ((name, data),), b"", what + (f"; {how}" if how else "")


def _output(rng: random.Random, name: str) -> tuple[tuple[str, bytes], ...]:
    """An output that exists before the call half of the time."""
    return ((name, OLD),) if rng.random() < 0.5 else ()


def _nonogram_call(rng: random.Random, command: str, seeds: Sequence[Seed]) -> Call:
    arg, files, stdin, what = _nonogram_source(rng, seeds)
    inputs = tuple(name for name, _ in files)
    if command in ("check", "show"):
        flags = ("--ascii",) if command == "show" and rng.random() < 0.3 else ()
        return Call(command, (command, *flags, arg), files, inputs, stdin=stdin, what=what)
    if command == "convert":
        if rng.random() < 0.3:
            fmt = rng.choice(FORMATS)
            return Call(command, ("convert", arg, "-", "--to", fmt), files, inputs,
                        stdin=stdin, what=what)
        out = "out" + rng.choice(OUT_EXTENSIONS)
        return Call(command, ("convert", arg, out), files + _output(rng, out), inputs, (out,),
                    stdin=stdin, must_write=True, what=what)
    argv = ["solve", "--timeout", "2", arg]
    extras = rng.sample([["--logic-only"], ["--max-solutions", "1"], ["--ascii"], ["--out"]],
                        rng.choice((0, 0, 1, 2)))
    outputs: tuple[str, ...] = ()
    for extra in extras:
        if extra == ["--out"]:
            out = "solved" + rng.choice((".non", ".nonogram", ".xml"))
            files += _output(rng, out)
            outputs = (out,)
            extra = ["--out", out]
        argv += extra
    return Call("solve", tuple(argv), files, inputs, outputs, stdin=stdin,
                writes_on=frozenset({0, 1, 5}), limit=SOLVE_SECONDS, what=what)


def _fifteen_call(rng: random.Random, command: str, seeds: Sequence[Seed]) -> Call:
    seed = _source(rng, (FIFTEEN,), seeds)
    data, done = mutate(rng, seed, [s for s in seeds if s.kind == FIFTEEN])
    what = f"fifteen seed {seed.name}; {', '.join(done) or 'unmutated'}"
    board = _as_argument(data)
    if command == "fifteen solve":
        flags = ("--letters",) if rng.random() < 0.3 else ()
        # --fast: the optimal solver's first use builds tables for seconds to minutes
        return Call(command, ("fifteen", "solve", "--fast", *flags, board), what=what)
    if rng.random() < 0.3:
        number = _as_argument(mutate(rng, Seed(FIFTEEN, "id", b"12345"), [])[0])
        size = _as_argument(mutate(rng, Seed(FIFTEEN, "size", b"4x4"), [])[0])
        return Call(command, ("fifteen", "show", "--id", number, "--size", size),
                    what=f"--id {number[:40]!r} --size {size[:40]!r}")
    return Call(command, ("fifteen", "show", board), what=what)


def _read_call(rng: random.Random, seeds: Sequence[Seed]) -> Call:
    kinds = (IMAGE,) if rng.random() < 0.95 else (IMAGE, NONOGRAM, RIPPLE)
    seed = _source(rng, kinds, seeds)
    data, done = mutate(rng, seed, [s for s in seeds if s.kind == IMAGE])
    name, how = _file_name(rng, seed.name)
    what = f"{seed.kind} seed {seed.name}; {', '.join(done) or 'unmutated'}" + (
        f"; {how}" if how else "")
    argv = ["read", name]
    files: tuple[tuple[str, bytes], ...] = ((name, data),)
    stdin = b""
    if rng.random() < 0.05:
        argv, files, stdin, what = ["read", "-"], (), data, what + "; on stdin"
    outputs: tuple[str, ...] = ()
    if rng.random() < 0.3:
        files += _output(rng, "read.non")
        argv += ["--out", "read.non"]
        outputs += ("read.non",)
    if rng.random() < 0.2:
        files += _output(rng, "overlay.png")
        argv += ["--overlay", "overlay.png"]
        outputs += ("overlay.png",)
    return Call("read", tuple(argv), files, (name,), outputs, stdin=stdin, must_write=True,
                what=what)


def _ripple_call(rng: random.Random, command: str, seeds: Sequence[Seed]) -> Call:
    """`ripple-effect` (or `autoplayer ripple solve`) on a puzzle, or the checker on a
    puzzle and, mostly, a solution."""
    checking = command in ("ripple-effect-check", "ripple check")
    prefix = ("ripple", command.split()[1]) if command.startswith("ripple ") else ()
    puzzles = [s for s in seeds if s.kind == RIPPLE]
    if checking and rng.random() < 0.7:
        solution = _source(rng, (RIPPLE_SOLUTION,), seeds)
        partner = next((s for s in puzzles if s.name == solution.partner), puzzles[0])
        data, done = mutate(rng, solution, [s for s in seeds if s.kind == RIPPLE_SOLUTION])
        puzzle_data, puzzle_done = (mutate(rng, partner, puzzles) if rng.random() < 0.2
                                    else (partner.data, []))
        what = (f"solution seed {solution.name}; {', '.join(done) or 'unmutated'}; "
                f"puzzle {partner.name}; {', '.join(puzzle_done) or 'unmutated'}")
        if rng.random() < 0.1:
            return Call(command, (*prefix, "puzzle.txt", "-"), (("puzzle.txt", puzzle_data),),
                        ("puzzle.txt",), stdin=data, what=what + "; solution on stdin")
        name, how = _file_name(rng, "solution.txt")
        return Call(command, (*prefix, "puzzle.txt", name),
                    (("puzzle.txt", puzzle_data), (name, data)), ("puzzle.txt", name),
                    what=what + (f"; solution {how}" if how else ""))
    seed = rng.choice(puzzles)
    data, done = mutate(rng, seed, puzzles)
    name, how = _file_name(rng, seed.name)
    what = f"ripple seed {seed.name}; {', '.join(done) or 'unmutated'}" + (
        f"; {how}" if how else "")
    files: tuple[tuple[str, bytes], ...] = ((name, data),)
    if checking:
        return Call(command, (*prefix, name), files, (name,), what=what)
    roll = rng.random()
    if roll < 0.1:
        return Call(command, (*prefix, "-", "solution.out"), (), (), ("solution.out",),
                    stdin=data, must_write=True, what=what + "; on stdin")
    if roll < 0.25:
        return Call(command, (*prefix, name, "-"), files, (name,), what=what)
    limit = rng.choice((1, 3, 100))
    flags: tuple[str, ...] = ()
    if roll < 0.4:
        flags = ("--all", f"--limit={limit}") if not prefix else ("--all", "--limit", str(limit))
    return Call(command, (*prefix, *flags, name, "solution.out"),
                files + _output(rng, "solution.out"), (name,), ("solution.out",),
                must_write=True, what=what)


def make_call(rng: random.Random, command: str, seeds: Sequence[Seed]) -> Call:
    if command in ("check", "show", "convert", "solve"):
        return _nonogram_call(rng, command, seeds)
    if command.startswith("fifteen"):
        return _fifteen_call(rng, command, seeds)
    if command == "read":
        return _read_call(rng, seeds)
    return _ripple_call(rng, command, seeds)


def make_calls(seed: int, count: int, seeds: Sequence[Seed]) -> list[Call]:
    """`count` calls drawn from `seed`: the same seed, the same calls."""
    rng = random.Random(seed)
    names = list(COMMAND_WEIGHTS)
    weights = [COMMAND_WEIGHTS[n] for n in names]
    return [make_call(rng, rng.choices(names, weights)[0], seeds) for _ in range(count)]
