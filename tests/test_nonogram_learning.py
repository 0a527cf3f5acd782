"""Learning a nonogram game's looks and rules by watching its own presses (tests/simgame.py).

The simulated game draws any mix of looks, button schemes, drags, a sticky
hover tint, a context menu and completion signs; the bot's real back-end and
play loop play it through a driver that applies their gestures.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from draws import run_seed
from simgame import LOCKED, SCHEMES, SimDriver, SimGame, SimNonogram, SimSource

from autoplayer.games.nonogram.looks import UNEXPLAINED, fit_tint, reference_looks, samples
from autoplayer.games.nonogram.model import EMPTY, FILLED, UNKNOWN
from autoplayer.games.nonogram.rules import load_rules
from autoplayer.geometry import Button, Click, Drag
from autoplayer.play import NotSolved, Report, play

SOLUTION = np.array([[1 if (r * 7 + c * 3) % 5 < 3 else 0 for c in range(8)]
                     for r in range(8)], np.int8)
SOLUTION[2, 1:7] = 1  # a run long enough to tell how drags work


def run(sim: SimGame, tmp_path, profile: str = "game.json") -> tuple[Report, SimNonogram]:
    game = SimNonogram(sim, profile=tmp_path / profile)
    from autoplayer.games.nonogram.rules import load_rules as load

    if (tmp_path / profile).exists():
        game.rules = load(tmp_path / profile)
    report = play(game, SimSource(sim), driver_factory=lambda *a: SimDriver(sim),
                  time_budget=60)
    return report, game


@pytest.mark.parametrize("scheme,menu,drag", [
    ("toggle", False, "line"), ("set", False, "line"), ("cycle", True, "enter"),
    ("lock", False, "ends"), ("toggle", False, "none"), ("set", False, "enter"),
])
def test_learns_buttons_and_drags_then_solves_in_one_batch(tmp_path, scheme, menu,
                                                           drag) -> None:
    sim = SimGame(SOLUTION, scheme=scheme, menu=menu, drag=drag, sign="dialog")
    report, game = run(sim, tmp_path)
    assert sim.solved()
    assert report.answer is not None
    assert report.learn_presses <= 8
    rules = game.rules
    assert rules is not None
    assert rules.press[(UNKNOWN, Button.LEFT)] == FILLED
    assert rules.drag == drag
    assert (Button.RIGHT in rules.menu) == menu
    assert LOCKED_NEVER(sim)
    assert report.batches == 2 and report.wrong_after == [1, 0]  # all but the last move, then it
    if scheme == "cycle":
        assert rules.press[(FILLED, Button.LEFT)] == EMPTY
    if scheme == "toggle":
        assert rules.press[(FILLED, Button.LEFT)] == UNKNOWN


def LOCKED_NEVER(sim: SimGame) -> bool:
    return not (sim.grid == 3).any()


@pytest.mark.parametrize("fill,mark,hover", [
    ((169, 211, 245), "grey", "sticky"),   # light fills, whole-cell grey marks, a tint
    ((30, 30, 30), "dot", "sticky"),
    ((200, 60, 60), "cross", "none"),
])
def test_looks_come_from_the_presses_not_from_darkness(tmp_path, fill, mark, hover) -> None:
    sim = SimGame(SOLUTION, scheme="toggle", fill=fill, mark=mark, hover=hover,
                  sign="marks")
    report, game = run(sim, tmp_path)
    assert sim.solved(), sim.grid
    assert report.answer is not None
    assert game.rules is not None and game.rules.done == "marks"


def test_no_sign_gets_marks_then_an_honest_report(tmp_path) -> None:
    sim = SimGame(SOLUTION, scheme="toggle", sign="none")
    report, game = run(sim, tmp_path)
    assert (np.isin(sim.grid, (FILLED,)) == (SOLUTION == FILLED)).all()
    assert (sim.grid[SOLUTION == 0] == EMPTY).all()        # every empty cell marked
    assert "board verified; the game gave no sign" in report.lines()
    assert game.rules is not None and game.rules.done == "none"


def test_a_sign_that_comes_while_the_bot_marks_empty_cells_is_solved(tmp_path) -> None:
    """A dialog later than the sign wait comes up while the bot is pressing marks on the
    empty cells (into the dialog, which takes them): the game said solved on the fills."""
    sim = SimGame(SOLUTION, scheme="toggle", sign="dialog", sign_delay=0.7)
    driver = SimDriver(sim)
    driver.gap = 0.03
    game = SimNonogram(sim, profile=tmp_path / "game.json")
    report = play(game, SimSource(sim), driver_factory=lambda *a: driver, time_budget=60)
    assert sim.solved() and sim.dialog_up()
    assert not (sim.grid[SOLUTION == 0] == EMPTY).all(), "the dialog came mid-batch"
    assert report.answer is not None
    assert any(line.startswith("solved; the game answered ")
               for line in report.lines())


def test_a_game_that_accepts_only_its_own_picture_gets_the_clues_other_solutions(
        tmp_path) -> None:
    """Clues with two solutions; the game's sign comes only on its own picture, the one
    the solver finds second: the bot plays the first, sees no sign (marks the empty
    cells, still none), then plays the other."""
    from autoplayer.games.nonogram.model import Puzzle, line_clue
    from autoplayer.games.nonogram.solver import Verdict, solve

    grid = SOLUTION.copy()
    grid[5, 6:8] = grid[6:8, 5] = 0
    grid[6:8, 6:8] = [[1, 0], [0, 1]]  # its mirror [[0, 1], [1, 0]] fits the clues too
    result = solve(Puzzle(tuple(line_clue(r) for r in grid),
                          tuple(line_clue(c) for c in grid.T)), max_solutions=4)
    assert result.verdict is Verdict.MULTIPLE and len(result.solutions) == 2
    picture = np.asarray(result.solutions[1], np.int8)
    sim = SimGame(picture, scheme="toggle", sign="dialog")
    report, _ = run(sim, tmp_path)
    assert sim.solved() and sim.dialog_up()
    assert report.solutions_tried == 2 and report.answer is not None
    assert any("not that this was the picture it wanted" in line for line in report.lines())
    assert "several" not in report.note and "2 solutions" in report.note
    assert any(line.startswith("solved; the game answered ")
               for line in report.lines())


def test_a_game_seen_before_costs_no_presses_and_its_file_is_readable(tmp_path) -> None:
    first = SimGame(SOLUTION, scheme="cycle", menu=True, drag="enter", sign="dialog")
    run(first, tmp_path)
    text = (tmp_path / "game.json").read_text()
    assert '"drag": "enter"' in text and '"menu": [\n    "right"\n  ]' in text
    again = SimGame(SOLUTION, scheme="cycle", menu=True, drag="enter", sign="dialog")
    report, _ = run(again, tmp_path)
    assert again.solved() and report.learn_presses == 0
    assert report.learned.startswith("rules from")
    assert load_rules(tmp_path / "game.json").done == "sign"


def test_a_game_that_merges_motions_gets_slower_drags(tmp_path) -> None:
    """A game acting on each cell entered that merges close motions systematically
    misses cells between a drag's ends: the experiment still tells `enter` (both ends
    and some of the middle filled); the first batch's drags miss half the cells between
    their ends, so the repair and the profile get slower motions."""
    sim = SimGame(SOLUTION, drag="enter", merge=0.03, sign="dialog")
    report, game = run(sim, tmp_path)
    assert sim.solved() and report.answer is not None
    assert game.rules is not None and game.rules.drag == "enter"
    assert game.rules.motion >= 0.03
    assert report.batches == 3 and report.wrong_after[0] > 1
    assert report.wrong_after[1:] == [1, 0]
    assert load_rules(tmp_path / "game.json").motion == game.rules.motion


def test_merged_motions_seen_in_play_slow_the_kept_drags(tmp_path) -> None:
    """A game's profile says `enter` at the usual pace but it now merges motions: the
    first batch leaves cells between drag ends blank; the repair slows the drags."""
    run(SimGame(SOLUTION, drag="enter", sign="dialog"), tmp_path)
    busy = SimGame(SOLUTION, drag="enter", merge=0.03, sign="dialog")
    report, game = run(busy, tmp_path)
    assert busy.solved() and report.learn_presses == 0
    assert report.batches == 3 and report.wrong_after[0] > 1
    assert report.wrong_after[1:] == [1, 0]
    assert game.rules is not None and game.rules.motion >= 0.03
    assert load_rules(tmp_path / "game.json").motion >= 0.03


def test_a_button_whose_drags_the_game_ignores_is_clicked_cell_by_cell(tmp_path) -> None:
    """The game paints lines with the left button only: a right drag marks the pressed
    cell alone. The marking batch (the game gives no sign, so the bot marks the empty
    cells) misses the rest of each right drag; the repair and every later play click
    right cell by cell."""
    solution = np.zeros((8, 8), np.int8)
    solution[:3, :] = solution[5, 2:6] = 1  # long runs of empty cells to drag over
    sim = SimGame(solution, drag="line", drag_buttons=(Button.LEFT,), sign="none")
    report, game = run(sim, tmp_path)
    assert sim.solved() and (sim.grid != UNKNOWN).all()
    assert game.rules is not None and game.rules.click_only == {Button.RIGHT}
    assert any("clicked cell by cell" in line for line in game.learning), game.learning
    assert load_rules(tmp_path / "game.json").click_only == {Button.RIGHT}
    again = SimGame(solution, drag="line", drag_buttons=(Button.LEFT,), sign="none")
    report, game = run(again, tmp_path)
    assert again.solved() and report.learn_presses == 0 and report.batches == 2
    right = [g for g in again.log if getattr(g, "button", None) is Button.RIGHT]
    assert right and all(isinstance(g, Click) for g in right)
    assert any(isinstance(g, Drag) and g.button is Button.LEFT for g in again.log)


def test_a_game_that_no_longer_matches_its_profile_stops_honestly(tmp_path) -> None:
    run(SimGame(SOLUTION, scheme="toggle", sign="dialog"), tmp_path)
    changed = SimGame(SOLUTION, scheme="toggle", drag="none", sign="dialog")
    with pytest.raises(NotSolved, match=r"stopped|still differ"):
        run(changed, tmp_path)
    assert not changed.solved()


def test_a_look_no_press_explains_stops_naming_the_cell(tmp_path) -> None:
    """Two cells start locked (a fill with an icon): no press of the bot's made that look,
    so it cannot say what they are, and it stops after putting the rest right."""
    sim = SimGame(SOLUTION, scheme="lock", sign="none")
    locked = [tuple(map(int, rc)) for rc in np.argwhere(SOLUTION == 1)][-2:]
    for cell in locked:
        sim.grid[cell] = 3
    with pytest.raises(NotSolved, match=r"stopped: 2 cells show a look the bot has not seen "
                                        r"its presses make: row \d+ column \d+ \(a cell the "
                                        r"bot did not press\)"):
        run(sim, tmp_path)
    assert all(sim.grid[c] == 3 for c in locked)           # never pressed
    # The same with a game that would say solved: the bot cannot read two cells, so it
    # never sends the move that would complete the board, and says why.
    shown = SimGame(SOLUTION, scheme="lock", sign="dialog")
    for cell in locked:
        shown.grid[cell] = 3
    with pytest.raises(NotSolved, match=r"stopped: 2 cells show a look the bot has not seen"):
        run(shown, tmp_path, profile="again.json")
    assert not shown.solved() and not shown.dialog_up()


def test_sticky_tint_is_fitted_on_the_parked_row_and_column() -> None:
    sim = SimGame(SOLUTION, hover="sticky")
    sim.lit = (7, 7)
    game = SimNonogram(sim)
    frame = sim.grab()
    reading = game.read(frame)
    looks = reference_looks(samples(frame.pixels, reading.raw.grid), park=(7, 7))
    assert looks.blank.all()
    assert {(7, 0), (0, 7)} <= set(looks.tints)
    tint = fit_tint(looks.blank_look, samples(frame.pixels, reading.raw.grid)[7, 0], 6.0)
    assert tint is not None and tint.towards == 255.0 and 0.4 < tint.alpha < 0.6
    states, _ = looks.classify(samples(frame.pixels, reading.raw.grid))
    assert (states == UNKNOWN).all()
    sim.grid[3, 3] = FILLED
    states, _ = looks.classify(samples(sim.grab().pixels, reading.raw.grid))
    assert states[3, 3] == UNEXPLAINED          # a fill never seen made is no blank


def board_is_right(sim: SimGame) -> str | None:
    """What is wrong with the game's own cells (None: the picture is there, and the empty
    cells are marked wherever the game gives no sign until they are), by the game's
    state, not the bot's reading of it."""
    filled = sim.grid[SOLUTION == FILLED]
    if not (filled == FILLED).all():
        return f"{int((filled != FILLED).sum())} cells of the picture not filled"
    empty = sim.grid[SOLUTION != FILLED]
    if np.isin(empty, (FILLED, LOCKED)).any():
        return f"{int(np.isin(empty, (FILLED, LOCKED)).sum())} cells filled outside the picture"
    if sim.sign in ("none", "marks") and not (empty == EMPTY).all():
        return f"{int((empty != EMPTY).sum())} empty cells not marked"
    return None


def verdict_disagrees(sim: SimGame, report: Report) -> str | None:
    """Where the report (what `play` prints before exit 0) says other than the game did."""
    lines = report.lines()
    if not report.solved or report.check is None or report.check.wrong:
        return f"the report does not say solved: {lines}"
    if sim.sign == "none":
        if report.answer is not None or "board verified; the game gave no sign" not in lines:
            return f"the game gave no sign, but the report says {lines}"
    elif not (sim.dialog_up() and report.answer is not None and any(
            line.startswith("solved; the game answered ") for line in lines)):
        return f"dialog up: {sim.dialog_up()}; the report says {lines}"
    return None


def test_random_games(tmp_path) -> None:
    """Whatever the game's rules, looks and sign: its own cells end right (the picture
    filled, the empty cells marked where the game wants them or gives no sign) and the
    report says what the game did."""
    seed = run_seed()
    print(f"AUTOPLAYER_SEED={seed}")
    rng = random.Random(seed)
    for i in range(6):
        scheme = rng.choice(sorted(SCHEMES))
        sim = SimGame(SOLUTION, scheme=scheme, menu=scheme == "cycle" and rng.random() < 0.5,
                      drag=rng.choice(["line", "enter", "ends", "none"]),
                      fill=rng.choice([(30, 30, 30), (169, 211, 245), (90, 160, 90)]),
                      mark=rng.choice(["cross", "grey", "dot"]),
                      hover=rng.choice(["none", "sticky"]),
                      sign=rng.choice(["dialog", "marks", "none"]))
        where = (f"AUTOPLAYER_SEED={seed}: game {i} (scheme={sim.scheme} menu={sim.menu} "
                 f"drag={sim.drag} fill={sim.fill} mark={sim.mark} hover={sim.hover} "
                 f"sign={sim.sign})")
        try:
            report, _ = run(sim, tmp_path, profile=f"game{i}.json")
        except Exception as err:
            raise AssertionError(f"{where}: {err}") from err
        wrong = board_is_right(sim)
        assert wrong is None, f"{where}: {wrong}:\n{sim.grid}"
        disagrees = verdict_disagrees(sim, report)
        assert disagrees is None, f"{where}: {disagrees}"
        assert report.learn_presses <= 8, f"{where}: {report.learn_presses} learning presses"


def test_click_only_buttons_round_trip_and_are_checked(tmp_path) -> None:
    """The profile keeps the buttons to click cell by cell; a file naming no button there
    is refused with its name."""
    from autoplayer.errors import UserError
    from autoplayer.games.nonogram.rules import Rules, rules_from_json, save_rules

    rules = Rules(press={(UNKNOWN, Button.LEFT): FILLED}, drag="line",
                  click_only=frozenset({Button.RIGHT}))
    save_rules(tmp_path / "p.json", rules)
    assert load_rules(tmp_path / "p.json") == rules
    assert "clicks only with right" in rules.describe()
    data = {**rules.as_json(), "click_only": ["thumb"]}
    with pytest.raises(UserError, match=r"^x\.json: \"click_only\" must list buttons"):
        rules_from_json(data, "x.json")
