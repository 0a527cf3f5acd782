import sys

from autoplayer.cli import main

# Guarded: a process pool started with "spawn" (Dask's local cluster) imports the parent's
# __main__ again in every worker, as __mp_main__; unguarded, each worker ran the command.
if __name__ == "__main__":
    sys.exit(main())
