"""Whole shards of 7×7 and 6×7, as a cluster's workers run them: the rate per core, the
core-hours of the whole count, and each shard checked against a brute-force recount.

A shard is the unit `autoplayer count --cluster` hands a worker (about 2^35 grids).
Random shards of the real plans are run whole on one thread (kernel CPU time), and
random slices of each are recounted grid by grid by `count_audit` (every grid the
slice stands for, mirror images and transposes included, each propagated alone) and
must agree exactly. Shards are drawn with AUTOPLAYER_SEED (printed) so a run can be
replayed; `python -m bench.bench_count_shards [SHARDS_7x7 [SHARDS_6x7]]`.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

from bench.report import write_section

SLICES = 12
"""Brute-force slices per shard, each holding grids the kernel counts."""
SLICE_GROUPS = 600
"""Row-clue groups a slice spans (about a second of brute force on 7×7)."""
RESULTS = Path(os.environ.get("COUNT_SHARD_RESULTS", "/tmp/bench_count_shards.jsonl"))


def main() -> None:
    from autoplayer.games.nonogram.count_shards import plan_shards, run_shard

    seed = int(os.environ.get("AUTOPLAYER_SEED", random.SystemRandom().randrange(10**6)))
    print(f"seed {seed} (AUTOPLAYER_SEED={seed} replays the draw)", flush=True)
    rng = random.Random(seed)
    wanted = [int(a) for a in sys.argv[1:3]] or [2, 1]
    sizes = [((7, 7), wanted[0]), ((6, 7), wanted[1] if len(wanted) > 1 else 1)]
    lines = [
        f"Random whole shards of the real plans (`AUTOPLAYER_SEED={seed}`), each run on one "
        "thread as a cluster worker runs it (kernel CPU time; the machine is shared, so the "
        "CPU time is inflated by the other work on the second core's siblings), and "
        f"{SLICES} random slices of {SLICE_GROUPS} row-clue groups in each recounted grid "
        "by grid (`count_audit`: every grid the slice stands for, mirror images and kept "
        "transposes, each propagated alone). Rate = the grids the shard's counts stand for "
        "per CPU second; core-hours = all 2^(N·M) grids at that rate.",
        "",
        "| size | shard | groups (blocks) | grids | line-solvable | CPU s | grids/CPU s "
        "| core-hours, whole count | brute-force slices (grids checked) |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for (rows, columns), count in sizes:
        plan = plan_shards(rows, columns, False)
        for shard in rng.sample(range(plan.shards), count):
            ranges = plan.ranges(shard)
            result = run_shard(rows, columns, False, shard)
            grids = result.grids
            rate = grids / result.cpu_seconds
            hours = plan.grids / rate / 3600
            checked = 0
            agree = 0
            for lo, hi, brute, seconds in audited_slices(rows, columns, ranges, rng):
                agree += 1
                checked += brute[0]
                print(f"  slice [{lo}, {hi}): {brute[:2]} both ways, {seconds:.1f} s",
                      flush=True)
            record = {"size": f"{rows}x{columns}", "shard": shard, "groups": result.groups,
                      "blocks": len(ranges), "grids": grids,
                      "line_solvable": result.line_solvable, "cpu_seconds": result.cpu_seconds,
                      "rate": rate, "core_hours": hours, "slices": agree,
                      "slice_grids": checked, "seed": seed}
            record["shards"] = plan.shards
            with RESULTS.open("a") as out:
                out.write(json.dumps(record) + "\n")
            print(row(record), flush=True)
    # Every shard measured so far (runs with other seeds append to the same file).
    records = [json.loads(line) for line in RESULTS.read_text().splitlines()]
    lines += [row(r) for r in records]
    seeds = sorted({r["seed"] for r in records})
    lines[0] = lines[0].replace(f"`AUTOPLAYER_SEED={seed}`",
                                "`AUTOPLAYER_SEED=` " + ", ".join(map(str, seeds)))
    write_section("nonogram-count-shards", "\n".join(lines))


def audited_slices(rows: int, columns: int, ranges: list[tuple[int, int]],
                   rng: random.Random) -> list[tuple[int, int, tuple, float]]:
    """SLICES random slices of the shard that hold counted grids (most groups are
    skipped by symmetry: a slice of those checks nothing), each recounted grid by grid
    and compared with the kernel; a disagreement stops the bench."""
    from autoplayer.games.nonogram.count import _plan, count_range
    from autoplayer.games.nonogram.count_audit import audit_groups

    p = _plan(rows, columns)
    out = []
    for _ in range(200 * SLICES):
        if len(out) == SLICES:
            break
        lo, hi = rng.choice(ranges)
        a = rng.randrange(lo, max(lo + 1, hi - SLICE_GROUPS))
        b = min(hi, a + SLICE_GROUPS)
        kernel = count_range(p, a, b, False)
        if kernel[0] == 0:
            continue
        began = time.thread_time()
        brute = audit_groups(rows, columns, a, b)
        if brute[:2] != kernel[:2]:
            raise SystemExit(f"{rows}x{columns} groups [{a}, {b}): brute force {brute[:2]}, "
                             f"kernel {kernel[:2]}")
        out.append((a, b, brute, time.thread_time() - began))
    return out


def row(r: dict) -> str:
    return (f"| {r['size']} | {r['shard']} of {r['shards']} | {r['groups']:,} ({r['blocks']}) "
            f"| {r['grids']:,} | {r['line_solvable']:,} | {r['cpu_seconds']:.0f} "
            f"| {r['rate']:.3g} | {r['core_hours']:,.0f} "
            f"| {r['slices']}/{SLICES} agree ({r['slice_grids']:,}) |")


if __name__ == "__main__":
    main()
