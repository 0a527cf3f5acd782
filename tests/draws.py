"""Randomised reader tests: one way to hold a run's draws to "exact, or refused, and mostly exact".

A refusal is honest, so one draw may end in one; but a reader that refused
every draw would pass a test that allowed any refusal, so the run must read
at least `floor` of its draws exactly. A wrong reading that validated fails
at once. Every failure names the run's seed (how to replay it) and the draw.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from autoplayer.errors import InputError


def run_seed() -> int:
    """AUTOPLAYER_SEED if set (to replay a run), else a fresh random seed."""
    given = os.environ.get("AUTOPLAYER_SEED")
    return int(given) if given else random.SystemRandom().randrange(1 << 30)


@dataclass
class Draws:
    """Tally of a run's draws: exact readings and refusals (each with its draw and reason)."""

    seed: int
    floor: int
    """Exact readings the run needs, out of every draw it makes."""
    exact: int = 0
    refusals: list[str] = field(default_factory=list)

    @property
    def replay(self) -> str:
        return f"AUTOPLAYER_SEED={self.seed}"

    @contextmanager
    def draw(self, where: str) -> Iterator[Callable[[bool], None]]:
        """One draw (`where` names it): the block reads, then calls `judge(exact)`.

        An InputError from the block is a refusal; `judge(False)` (a reading that
        validated but is not the puzzle) and any other error fail, naming the seed.
        """
        print(f"{self.replay} {where}", flush=True)
        judged: list[bool] = []
        try:
            yield judged.append
        except InputError as refused:
            self.refusals.append(f"{where}: refused: {refused}")
            return
        except Exception as err:
            raise AssertionError(f"{self.replay} {where}: {type(err).__name__}: {err}") from err
        assert judged, f"{self.replay} {where}: the draw was never judged"
        assert judged[0], f"{self.replay} {where}: a wrong reading validated"
        self.exact += 1

    def check(self) -> None:
        """At least `floor` draws read exactly; the message lists every refusal."""
        draws = self.exact + len(self.refusals)
        print(f"{self.replay}: {self.exact} of {draws} draws read exactly "
              f"({100 * self.exact / max(draws, 1):.0f} %), {len(self.refusals)} refused",
              flush=True)
        assert self.exact >= self.floor, (
            f"{self.replay}: {self.exact} of {draws} draws read exactly, fewer than "
            f"{self.floor}; refusals:\n" + "\n".join(self.refusals))
