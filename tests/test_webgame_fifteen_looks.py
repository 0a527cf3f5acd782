"""The bundled 15-puzzle page's looks and rules: each part by its own parameter or all at once
by `look=N`, every shuffle solvable toward the page's own goal (no browser needed)."""

from __future__ import annotations

from typing import Any

import pytest

from autoplayer.errors import UserError
from autoplayer.games.fifteen.goals import Goal, can_reach, infer_goal
from autoplayer.webgame.fifteen import (
    DRAWN_KEYS,
    LOOK,
    configure,
    goal_board,
    random_look,
    seeded_board,
)


class _Server:
    def registered(self, name: str) -> Any:
        raise UserError(f"no puzzle {name}")


def config(**query: str) -> dict[str, Any]:
    return configure(_Server(), query).config  # type: ignore[arg-type]


def test_defaults_are_the_old_page() -> None:
    cfg = config(size="4x4", seed="3")
    assert cfg["look"] == {key: choices[0] for key, choices in LOOK.items()}
    assert cfg["goal"] == [*range(1, 16), 0] and cfg["slide"] == 130 and cfg["tile"] == 72


@pytest.mark.parametrize("goal", LOOK["goal"])
@pytest.mark.parametrize("size", [(3, 3), (4, 4), (5, 3)])
def test_every_shuffle_reaches_its_goal_and_shows_it(goal: str, size: tuple[int, int]) -> None:
    w, h = size
    solved = goal_board(w, h, goal)
    for seed in range(5):
        board = seeded_board(w, h, seed, goal)
        assert board != solved and can_reach(board.cells, solved.cells, w)
        found = infer_goal(board)  # what the bot infers from the tiles alone
        assert isinstance(found, Goal) and found.board == solved, found


def test_a_look_seed_draws_every_part_and_never_a_page_without_input() -> None:
    seen: dict[str, set[str]] = {key: set() for key in LOOK}
    for seed in range(200):
        look = random_look(seed)
        assert random_look(seed) == look
        assert not (look["click"] == "none" and look["keys"] == "none")
        for key in LOOK:
            seen[key].add(look[key])
        cfg = config(size="3x3", seed="1", look=str(seed))
        assert cfg["look"] == {key: look[key] for key in LOOK}
        assert cfg["tile"] == look["tile"] and cfg["slide"] == look["slide"]
    # Every part drawn, but "mixed" keys, which a page gets only by asking.
    assert seen == {key: set(DRAWN_KEYS if key == "keys" else choices)
                    for key, choices in LOOK.items()}
    assert set(LOOK["keys"]) - set(DRAWN_KEYS) == {"mixed"}


def test_a_part_named_overrides_the_seed_and_bad_values_are_refused() -> None:
    assert config(look="5", font="mono")["look"]["font"] == "mono"
    assert config(goal="gap-first", size="3x3")["goal"] == [0, *range(2, 10)]
    with pytest.raises(UserError, match="unknown click"):
        config(click="double")
    with pytest.raises(UserError, match="slide time"):
        config(slide="5000")
