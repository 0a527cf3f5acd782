"""`autoplayer count --cluster`: a Dask local cluster counts what one process counts."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

from autoplayer import cli
from autoplayer.games.nonogram import count_cluster
from autoplayer.games.nonogram.count import count_grids
from autoplayer.games.nonogram.count_shards import RESULTS_FILE


def test_a_local_cluster_of_two_workers_counts_as_one_process(tmp_path: Path, capsys) -> None:
    args = ["count", "4", "5", "--unique", "--cluster", "local", "--workers", "2",
            "--checkpoint", str(tmp_path), "--json"]
    assert cli.main(args) == 0
    record = json.loads(capsys.readouterr().out)
    whole = count_grids(4, 5, unique=True, jobs=1)
    assert (record["line_solvable"], record["unique"]) == (whole.line_solvable, whole.unique)
    assert record["shards"] == 16 and record["cpu_seconds"] > 0
    lines = [json.loads(line) for line in (tmp_path / RESULTS_FILE).read_text().splitlines()]
    assert sorted(r["shard"] for r in lines) == list(range(16))
    assert len({r["worker"] for r in lines}) >= 1


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_scheduler_is_one_line_and_exit_2(monkeypatch, capsys) -> None:
    monkeypatch.setattr(count_cluster, "CONNECT_SECONDS", 1)
    address = f"127.0.0.1:{closed_port()}"
    assert cli.main(["count", "3", "--cluster", address]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert f"cannot reach a Dask scheduler at {address}" in captured.err


def test_without_the_extra_the_cluster_is_one_line_and_exit_2(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    assert cli.main(["count", "3", "--cluster", "local"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'autoplayer[cluster]'" in err
    assert cli.main(["count", "3"]) == 0  # the plain count needs no extra
