"""Bad input, soaked: the mutation fuzz of tests/test_fuzz.py, many more calls.

Draws BENCH_FUZZ_CALLS calls (default 4000) with tests/fuzz_corpus.py from the built-in
seeds and small files of ../shared: every offline command (check, show, convert to
each format and to stdout, solve --timeout 2, fifteen solve/show, read, ripple-effect,
ripple-effect-check and their `autoplayer ripple` forms) on mutated puzzle files, game
IDs, solutions and images. Each call runs in process and is judged by the rules of
issue 22 (tests/fuzz_runner.py): a documented exit code, one line on stderr for a
failure and no traceback, no control bytes, no warning, no hang (5 s, 10 s for solve),
no memory blow-up (2 GB), outputs untouched on failure, inputs never modified, no stray
file. The seed comes from AUTOPLAYER_SEED, else a random one, and is printed; every
kind of failure is listed with one reproducer (its files kept in a folder to replay).

Run: `.venv/bin/python -m bench.run_all fuzz`.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench.report import write_section

TESTS = Path(__file__).resolve().parent.parent / "tests"
CALLS = int(os.environ.get("BENCH_FUZZ_CALLS", "4000"))
SHOWN = 25
"""Kinds of failure listed in docs/benchmarks.md at the most (the terminal gets them all)."""


def fuzz_modules():
    """tests/fuzz_*.py, imported as the tests import them (tests/ on the path)."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    import fuzz_corpus
    import fuzz_runner
    import fuzz_seeds

    return fuzz_corpus, fuzz_runner, fuzz_seeds


def main() -> None:
    corpus, runner, seeds = fuzz_modules()
    given = os.environ.get("AUTOPLAYER_SEED")
    run = int(given) if given else random.SystemRandom().randrange(1 << 30)
    extra, why = seeds.shared_seeds()
    pool = seeds.builtin_seeds() + extra
    calls = corpus.make_calls(run, CALLS, pool)
    command = (f"BENCH_FUZZ_CALLS={CALLS} AUTOPLAYER_SEED={run} "
               ".venv/bin/python -m bench.run_all fuzz")
    print(f"AUTOPLAYER_SEED={run}: {len(calls)} calls from {len(pool)} seeds; {why}", flush=True)
    load = os.getloadavg()[0]
    started = time.monotonic()

    def progress(outcome) -> None:
        done = outcome.index + 1
        if done % 500 == 0:
            print(f"[{done}/{len(calls)}] {time.monotonic() - started:.0f} s", flush=True)

    outcomes = runner.run_calls(calls, progress=progress)
    seconds = time.monotonic() - started
    rows = command_table(calls, outcomes)
    groups = sorted(runner.grouped(outcomes).items(), key=lambda item: -len(item[1]))
    failing = [o for o in outcomes if o.problems]
    kinds = Counter(kind for o in outcomes for kind in {p.kind for p in o.problems})
    rows += ["", "| failure kind | calls |", "|---|---|"]
    rows += [f"| {kind} | {n} |" for kind, n in kinds.most_common()] or ["| (none) | 0 |"]
    examples = []
    for (kind, signature), group in groups:
        first = group[0]
        folder = runner.replay_folder(calls[first.index], first.index, run)
        text = runner.failure_text(calls[first.index], first, run, folder)
        print(f"\n== {kind} [{signature}]: {len(group)} calls\n{text}")
        examples.append(f"- **{kind}** `{signature}`: {len(group)} calls; e.g. "
                        f"`{calls[first.index].shell()[:160]}` ({calls[first.index].what[:160]})")
    if examples:
        rows += ["", f"By cause ({len(groups)}), one reproducer each (the run prints its "
                 "input folder):", "", *examples[:SHOWN]]
        if len(examples) > SHOWN:
            rows.append(f"- … and {len(examples) - SHOWN} more (printed by the run)")
    text = (
        "## Bad input (fuzz soak)\n\n"
        f"{len(outcomes)} calls of the offline commands on inputs mutated from {len(pool)} "
        "seeds (the built-in ones of tests/fuzz_seeds.py and small files of ../shared): "
        "byte flips, deletions, duplications, truncation, line swaps, 5,000-digit, 2^64+1, "
        "10^8, negative and zero numbers, control and escape bytes, NUL, invalid UTF-8, "
        "long lines, splices, XML entities and PNG headers declaring other sizes; hostile "
        "file names; input by file, stdin and the command line. Each call in process, "
        "judged by the rules of issue 22 (tests/fuzz_runner.py). Goal: 0 calls breaking a "
        f"rule. {len(failing)} of {len(outcomes)} calls broke one; {seconds:.0f} s "
        f"({len(outcomes) / seconds:.0f} calls/s); load average {load:.1f} at start on "
        f"{os.cpu_count()} cores.\n\n" + "\n".join(rows) + f"\n\nCommand: `{command}`.")
    print(text)
    write_section("fuzz", text)


def command_table(calls, outcomes) -> list[str]:
    """Calls, exit codes, time and failures per command."""
    per: dict[str, list] = defaultdict(list)
    for outcome in outcomes:
        per[calls[outcome.index].command].append(outcome)
    rows = ["| command | calls | exit codes (no exit: raised, hung or died) | median ms | "
            "slowest s | calls failing |",
            "|---|---|---|---|---|---|"]
    for name in sorted(per):
        mine = per[name]
        codes = Counter("no exit" if o.code is None else o.code for o in mine)
        shown = ", ".join(f"{code}: {n}" for code, n in sorted(codes.items(), key=str))
        times = sorted(o.seconds for o in mine)
        rows.append(f"| {name} | {len(mine)} | {shown} | {times[len(times) // 2] * 1000:.0f} | "
                    f"{times[-1]:.1f} | {sum(bool(o.problems) for o in mine)} |")
    return rows


if __name__ == "__main__":
    main()
