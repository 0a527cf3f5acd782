"""Random rule sets for the bundled nonogram page, so end-to-end tests can draw
combinations of behaviours (how cells look, what the buttons and drags do, when and how
the game says it is solved) instead of hand-picking a few.

The choices and which of them don't mix live in `autoplayer.webgame.nonogram`
(RULE_CHOICES, rules_conflict): this module only draws from them.
"""

from __future__ import annotations

import random

from autoplayer.webgame.nonogram import RULE_CHOICES, rules_conflict

DEFAULT_RULES: dict[str, str] = {key: choices[0] for key, choices in RULE_CHOICES.items()}
"""The page's own game (every option at its default)."""


def random_rules(rng: random.Random) -> dict[str, str]:
    """A random valid rule set, every key given: URL parameters for `GameServer.url(**rules)`.

    Drawn uniformly among the combinations the page accepts (rejection sampling against
    `rules_conflict`, so mark=none never comes with rule=marks or a right-button scheme).
    """
    while True:
        rules = {key: rng.choice(choices) for key, choices in RULE_CHOICES.items()}
        if rules_conflict(rules) is None:
            return rules
