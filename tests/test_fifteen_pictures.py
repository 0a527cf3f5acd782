"""Picture tiles: the goal arrangement inferred from how tile edges continue, on pictures
generated here (gradients, shapes, smooth noise) cut 3x3 to 5x5: exact, or refused, never
wrong; and mostly exact."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from picture_tiles import KINDS, cut

from autoplayer.games.fifteen.goals import Unsure
from autoplayer.games.fifteen.pictures import PictureGoal, infer_picture_goal
from tests.draws import run_seed

SIZES = ((3, 3), (4, 4), (5, 5))
DRAWS = 4  # per size and kind: 48 draws, about 1 s


def test_inferred_arrangements_are_exact_or_refused_never_wrong():
    seed = run_seed()
    print(f"AUTOPLAYER_SEED={seed}")
    rng = np.random.default_rng(seed)
    tally: Counter[str] = Counter()
    for width, height in SIZES:
        for kind in KINDS:
            for draw in range(DRAWS):
                c = cut(rng, kind, width, height)
                got = infer_picture_goal(c.tiles, width, height)
                where = f"AUTOPLAYER_SEED={seed} {width}x{height} {kind} draw {draw}"
                if isinstance(got, Unsure):
                    assert got.reason, where
                    tally["refused"] += 1
                    continue
                assert got.cells == c.truth, f"{where}: a wrong arrangement: {got.reason}"
                assert got.gap == c.truth.index(-1) and got.confidence >= 2.0
                tally[f"exact {kind}"] += 1
    exact = sum(v for k, v in tally.items() if k.startswith("exact"))
    print(dict(tally))
    # bench_fifteen_pictures (1,200 draws): 70 % exact, 0 wrong; gradient and noise 88-99 %
    assert exact >= 0.5 * len(SIZES) * len(KINDS) * DRAWS, f"seed {seed}: {dict(tally)}"
    assert tally["exact noise"] + tally["exact gradient"] >= 0.6 * len(SIZES) * 2 * DRAWS


def test_an_obvious_picture_is_placed_with_its_gap_and_the_reason_says_so():
    rng = np.random.default_rng(7)
    c = cut(rng, "noise", 4, 4, tile=48)
    got = infer_picture_goal(c.tiles, 4, 4)
    assert isinstance(got, PictureGoal) and got.cells == c.truth
    gap = c.truth.index(-1)
    assert f"the gap is the cell they leave, row {gap // 4 + 1} column {gap % 4 + 1}" in got.reason


def test_featureless_tiles_are_refused():
    flat = [np.full((32, 32, 3), 128, np.uint8) for _ in range(8)]
    got = infer_picture_goal(flat, 3, 3)
    assert isinstance(got, Unsure)


def test_grey_tiles_and_bad_input():
    rng = np.random.default_rng(3)
    c = cut(rng, "noise", 3, 3, tile=40)
    grey = [t.mean(axis=2) for t in c.tiles]
    got = infer_picture_goal(grey, 3, 3)
    assert isinstance(got, Unsure) or got.cells == c.truth
    with pytest.raises(ValueError, match="has 8 tiles, got 7"):
        infer_picture_goal(c.tiles[:7], 3, 3)
    with pytest.raises(ValueError, match="differ in shape"):
        infer_picture_goal([*c.tiles[:7], c.tiles[7][:20]], 3, 3)
