"""Shards of a count on a Dask distributed cluster: a local one, or one joined by address.

Dask distributed rather than Ray: it is pure-Python wheels on PyPI (about 40 MB with
what it pulls in, against Ray's 60+ MB compiled wheel per platform and Python), a
local cluster starts in about a second on 2 cores (Ray's raylet, GCS and dashboard
take several and most of a core), and `dask scheduler` / `dask worker ADDRESS` on
the cluster's machines is all a user needs to set up. Imported only with --cluster:
the extra (`pip install 'autoplayer[cluster]'`) is optional.

Workers run `count_shards.run_shard`, so each needs this autoplayer installed; a
worker whose kernel differs would give other counts, which `run` refuses.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import islice

from autoplayer.errors import UserError, printable
from autoplayer.games.nonogram.count_shards import (
    ENUMERATION,
    Runner,
    ShardPlan,
    ShardResult,
    run_shard,
)

CONNECT_SECONDS = 10
"""How long joining a scheduler may take before its address counts as unreachable."""


def _distributed():
    try:
        import distributed
    except ImportError:
        raise UserError(
            "--cluster needs Dask distributed, which is not installed: "
            "pip install 'autoplayer[cluster]'"
        ) from None
    return distributed


@contextmanager
def dask_client(cluster: str, workers: int):
    """A client of a new local cluster (`local`, `workers` processes) or of a scheduler."""
    distributed = _distributed()
    if cluster == "local":
        local = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True,
            dashboard_address=":0", silence_logs=logging.ERROR,  # any free port, no warning
            preload=[__name__],  # dask_setup below, in each worker process
        )
        try:
            with distributed.Client(local) as client:
                yield client
        finally:
            local.close()
        return
    address = cluster if "://" in cluster else f"tcp://{cluster}"
    try:
        client = distributed.Client(address, timeout=f"{CONNECT_SECONDS}s")
    except (OSError, ValueError, TypeError) as error:
        reason = printable(str(error).splitlines()[0] if str(error) else type(error).__name__)
        raise UserError(f"cannot reach a Dask scheduler at {printable(cluster)}: {reason}"
                        ) from None
    with client:
        yield client


def dask_setup(worker) -> None:
    """Run by each worker of a local cluster as it starts: Ctrl-C at the terminal reaches
    the whole process group, and this process closes the cluster; a worker that took it
    too would only print a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _threads(client) -> int:
    return max(1, sum(client.nthreads().values()))


def _worker_signature() -> tuple[int, str]:
    """What a worker must share with the client for its shards to mean the same grids."""
    from autoplayer import __version__

    return ENUMERATION, __version__


def _ask(call, who: str):
    """`_worker_signature` run there, or a one-line error when it cannot be loaded."""
    try:
        return call(_worker_signature)
    except Exception as error:  # whatever the remote end raised: it cannot run our shards
        first = str(error).splitlines()[0] if str(error) else ""
        raise UserError(f"the Dask {who} cannot run autoplayer's count ({type(error).__name__}"
                        f": {printable(first)}): install the same autoplayer on the scheduler "
                        "and every worker") from None


def dask_runner(client, plan: ShardPlan) -> Runner:
    """Shards on the cluster, a few per worker thread in flight (never all submitted)."""
    distributed = _distributed()

    def run(tasks: Iterable[int]) -> Iterator[ShardResult]:
        mine = _worker_signature()
        if not client.nthreads():
            print("count: the Dask scheduler has no workers yet; the shards wait for them",
                  file=sys.stderr, flush=True)
        # The scheduler unpickles each task, the workers run it: both need this autoplayer.
        found = {"the Dask scheduler": _ask(client.run_on_scheduler, "scheduler")}
        found.update((f"Dask worker {w}", s)
                     for w, s in _ask(client.run, "workers").items())
        for who, signature in found.items():
            if tuple(signature) != mine:
                raise UserError(f"{who} runs autoplayer {signature[1]} (enumeration "
                                f"{signature[0]}), this is {mine[1]} (enumeration {mine[0]}): "
                                "install the same on the scheduler and every worker")
        queue = iter(tasks)

        def submit(batch: list[int]) -> list:
            return [client.submit(run_shard, plan.rows, plan.columns, plan.unique, t,
                                  key=f"count-{plan.rows}x{plan.columns}"
                                      f"{'-unique' if plan.unique else ''}-shard-{t}",
                                  pure=False, retries=2)
                    for t in batch]

        pending = distributed.as_completed(submit(list(islice(queue, 2 * _threads(client)))))
        try:
            for future in pending:
                yield future.result()
                future.release()
                room = 2 * _threads(client) - pending.count()
                if room > 0:
                    for new in submit(list(islice(queue, room))):
                        pending.add(new)
        finally:
            for future in list(pending.futures):
                future.cancel()

    return run
