"""`autoplayer count` in shards: the plan, the checkpoint, resuming, and its errors."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

import pytest

from autoplayer import cli
from autoplayer.games.nonogram.count import _plan, count_grids
from autoplayer.games.nonogram.count_shards import (
    RESULTS_FILE,
    Checkpoint,
    count_sharded,
    plan_shards,
    run_shard,
    thread_runner,
)


def parse(stdout: str) -> dict[str, str]:
    return dict(line.split(" ", 1) for line in stdout.splitlines())


def shard_lines(directory: Path) -> list[dict]:
    return [json.loads(line) for line in (directory / RESULTS_FILE).read_text().splitlines()]


def test_the_plan_depends_on_the_size_alone_and_deals_every_group_once() -> None:
    plan = plan_shards(4, 5, False)
    assert plan == plan_shards(4, 5, False)
    ranges = sorted(r for shard in range(plan.shards) for r in plan.ranges(shard))
    assert ranges[0][0] == 0 and ranges[-1][1] == _plan(4, 5).n_groups
    assert all(a[1] == b[0] for a, b in pairwise(ranges))  # no gap, no overlap
    assert sum(plan.shard_groups(i) for i in range(plan.shards)) == plan.groups
    assert plan_shards(3, 3, False).shards == 16  # small sizes: a few shards
    big = plan_shards(7, 7, False)  # 2^35 grids a shard, each dealt 256 blocks or so
    assert big.shards == 1 << 14 and 250 <= len(big.ranges(12345)) <= 260


def test_every_shard_gets_a_fair_part_of_the_work() -> None:
    """Groups past the first quarter are mostly skipped by symmetry: dealt blocks keep
    each shard's share of the grids (and so of the CPU) within a factor of 2."""
    plan = plan_shards(5, 5, False)
    grids = [run_shard(5, 5, False, i).grids for i in range(plan.shards)]
    assert sum(grids) == 1 << 25
    assert min(grids) > max(grids) / 2


def test_shards_add_up_to_the_one_process_count() -> None:
    plan = plan_shards(4, 4, True)
    result = count_sharded(plan, thread_runner(plan, 2))
    whole = count_grids(4, 4, unique=True)
    assert (result.line_solvable, result.unique) == (whole.line_solvable, whole.unique)
    assert (result.line_solvable, result.unique) == (51234, 52362)
    assert result.resumed == 0 and result.cpu_seconds > 0


def test_a_resumed_count_skips_finished_shards_and_drops_a_torn_line(tmp_path: Path,
                                                                      capsys) -> None:
    args = ["count", "4", "5", "--unique", "--checkpoint", str(tmp_path), "--jobs", "2"]
    assert cli.main(args) == 0
    first = parse(capsys.readouterr().out)
    assert (first["line-solvable"], first["unique"], first["shards"]) == ("801832", "814632",
                                                                          "16")
    lines = (tmp_path / RESULTS_FILE).read_text().splitlines(keepends=True)
    kept = lines[:5]
    # A run killed mid-write: five whole lines and part of a sixth.
    (tmp_path / RESULTS_FILE).write_text("".join(kept) + lines[5][:20])
    assert cli.main(args) == 0
    captured = capsys.readouterr()
    assert "resuming from" in captured.err and "5 of 16 shards done" in captured.err
    again = parse(captured.out)
    assert (again["line-solvable"], again["unique"]) == ("801832", "814632")
    records = shard_lines(tmp_path)
    assert (tmp_path / RESULTS_FILE).read_text().startswith("".join(kept))
    assert sorted(r["shard"] for r in records) == list(range(16))  # each shard once
    plan = plan_shards(4, 5, True)
    for r in records:
        assert r["groups"] == plan.shard_groups(r["shard"])
        assert r["cpu_seconds"] >= 0 and r["worker"]
    assert sum(r["grids"] for r in records) == 1 << 20
    # Each line is auditable alone: recount a shard and compare.
    r = records[7]
    redo = run_shard(4, 5, True, r["shard"])
    assert (redo.grids, redo.line_solvable, redo.unique) == (r["grids"], r["line_solvable"],
                                                              r["unique"])


def test_a_killed_process_resumes_to_the_same_answer(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "autoplayer", "count", "5", "--jobs", "1",
            "--checkpoint", str(tmp_path)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    results = tmp_path / RESULTS_FILE
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if results.exists() and results.read_text().count("\n") >= 2:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    before = results.read_text()
    print(f"killed after {before.count(chr(10))} of 16 shards")
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert parse(done.stdout)["line-solvable"] == "24976511"
    after = results.read_text()
    assert after.startswith(before[: before.rfind("\n") + 1])
    assert sorted(r["shard"] for r in shard_lines(tmp_path)) == list(range(16))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "autoplayer", *args], capture_output=True,
                          text=True, timeout=120)


def test_a_checkpoint_of_another_size_is_one_line_and_exit_2(tmp_path: Path) -> None:
    assert run_cli("count", "3", "--checkpoint", str(tmp_path)).returncode == 0
    for args, words in ((["count", "3", "4"], "holds shards of 3x3, not of 3x4"),
                        (["count", "3", "--unique"], "holds shards of 3x3, not of 3x3 --unique")):
        done = run_cli(*args, "--checkpoint", str(tmp_path))
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
        assert done.stdout == ""


def test_a_checkpoint_line_of_another_plan_is_refused(tmp_path: Path) -> None:
    plan = plan_shards(3, 3, False)
    Checkpoint(tmp_path, plan).close()
    (tmp_path / RESULTS_FILE).write_text(json.dumps({
        "shard": 2, "groups": plan.shard_groups(2) + 1, "grids": 1, "line_solvable": 1,
        "unique": None, "cpu_seconds": 0, "worker": "x"}) + "\n")
    done = run_cli("count", "3", "--checkpoint", str(tmp_path))
    assert done.returncode == 2 and "line 1 is not a shard of this plan" in done.stderr


def test_a_checkpoint_in_use_is_refused(tmp_path: Path) -> None:
    held = Checkpoint(tmp_path, plan_shards(3, 3, False))
    try:
        done = run_cli("count", "3", "--checkpoint", str(tmp_path))
    finally:
        held.close()
    assert done.returncode == 2 and "in use by another count" in done.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["count", "7"], "need --cluster"),
        (["count", "7", "8", "--checkpoint", "X"], "need --cluster"),
        (["count", "8", "--cluster", "local"], "are refused"),
        (["count", "3", "--workers", "2"], "--workers sets the size of --cluster local"),
        (["count", "3", "--cluster", "local", "--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_size_and_option_errors_are_one_line(args: list[str], words: str, tmp_path: Path,
                                             capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # a stray X directory would land here
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
