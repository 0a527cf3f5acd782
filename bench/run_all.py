"""Runs every benchmark module `bench/bench_*.py` (each has `main()`) in turn."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main() -> int:
    names = sorted(p.stem for p in Path(__file__).parent.glob("bench_*.py"))
    only = set(sys.argv[1:])
    for name in names:
        if only and name.removeprefix("bench_") not in only:
            continue
        print(f"== {name}", flush=True)
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
