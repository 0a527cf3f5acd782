"""CPU seconds of this process and of the children it has waited for: with a deadline
the SAT solver runs in a forked child (`sat._search_in_child`), whose time is the
solve's as much as the parent's."""

from __future__ import annotations

import resource
import time


def cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime
