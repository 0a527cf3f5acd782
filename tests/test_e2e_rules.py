"""End to end: the bot learns each rule set of the bundled nonogram page on the board and
plays it, in real Chromium under Xvfb with real pynput input.

The verdicts are the game's own: the page judges its board (solved, whether its sign
showed, every mouse press it took) and reports to its server, which the tests ask.
Every play, whatever its rules, must be *honest*: exit 0 only on a board the page calls
solved; "solved; the game answered ... with ..." on a page that said solved (its dialog,
alert, dim, restyled or frozen board, notice, or only its "Solved!" status line); "board
verified; the game gave no sign" only on a page that has no sign beyond its status line;
never an input while the page's dialog or alert is up, nor any press or key after the
page showed its sign (the page counts them: `events_after_sign`; with sign=none its sign is
the "Solved!" status line, shown at once); any exit 1 a one-line "stopped: ..." reason,
and never on a page that says solved. On top of that the bot must *solve* every rule set
the page offers. `dishonest` names what was dishonest about a play, by kind (the soak
bench, bench/bench_honesty.py, counts them over many draws).

1. Random draws: rule sets (`rulesets.random_rules`) with random looks (skin, theme,
   cell size, which side the clues stand on, thick 5-lines) and sizes 5..15, drawn
   afresh each run. The seed is printed with every draw; AUTOPLAYER_SEED=N replays a run.
   Looks keep the board's frame: a frameless board whose clue boxes are drawn exactly like
   its cells is the reader's business (tests/test_vision_layouts.py, where a refusal is
   an allowed outcome), not the rules'.
2. One fixed play per behaviour, so each is covered every run, not only by chance.
3. The profile the bot keeps per game: reused with no experiment, `--profile FILE`,
   `--relearn`, and refusing a corrupt file.
4. A profile the game contradicts: the bot must stay honest.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from desktop import (
    locate_window,
    needs_chromium,
    needs_xvfb,
    page_window,
    run_autoplayer,
    settled_window,
)
from rulesets import DEFAULT_RULES, random_rules

from autoplayer.errors import UserError
from autoplayer.screen.xvfb import Xvfb

SCREEN = (1280, 1024)

pytestmark = [pytest.mark.e2e, needs_xvfb, needs_chromium]


def _run_seed() -> int:
    given = os.environ.get("AUTOPLAYER_SEED")
    return int(given) if given else random.SystemRandom().randrange(1 << 30)


RUN_SEED = _run_seed()
DRAWS = 6

ANSWERED = "solved; the game answered "
QUIET = "board verified; the game gave no sign"
"""How the report ends a solved play: the game's answer to the last move (whatever the page
drew: its dialog, alert, dim, or only its status line saying "Solved!"), or no answer at
all on a board verified cell by cell."""

LEARNED = {
    "toggle": "left: blank->filled, filled->blank; right: blank->marked",
    "set": "left: blank->filled; right: blank->marked",
    "cycle": "left: blank->filled, marked->blank, filled->marked; menu on right",
    "cycle2": "left: blank->filled, marked->blank, filled->marked; right: blank->marked",
    "lock": "left: blank->filled, filled->blank; right: blank->marked",
}
"""What the experiment must find each button scheme does (`Rules.describe`), with marks."""


# --- one play ----------------------------------------------------------------------------

@dataclass
class Outcome:
    """One play: what the bot said and what the page says."""

    rules: dict[str, str]
    code: int
    """The exit code `autoplayer play` gives (0, or the UserError's)."""
    lines: list[str]
    """The report's lines, or the one-line error."""
    state: dict[str, Any]
    """The page's last report, once it has gone quiet."""
    report: Any = None
    error: str = ""
    during_sign: list[str] = field(default_factory=list)
    """Inputs the bot sent while the page said its dialog or alert was up."""
    sent: int = 0
    """Presses and drags the bot sent (every gesture but a pointer move)."""
    events_later: int | None = None
    """The page's press count a moment after the bot was done."""
    why: str = ""

    def line(self, start: str) -> str | None:
        return next((x for x in self.lines if x.startswith(start)), None)


def page_rules(params: dict[str, Any]) -> dict[str, str]:
    return {key: str(params.get(key, default)) for key, default in DEFAULT_RULES.items()}


def wait_for_title(display: str, window: int, timeout: float = 10.0) -> None:
    """Chromium names an app window after the page a moment after the page has drawn; the
    bot keys what it learns by the title, so it must see the page's own."""
    deadline = time.monotonic() + timeout
    while not locate_window(display, window).title.startswith("Nonogram"):
        assert time.monotonic() < deadline, "the window never took the page's title"
        time.sleep(0.05)


def quiet_state(page: Any, settle: float = 0.4) -> dict[str, Any]:
    """The page's report once it has sent nothing new for `settle` seconds."""
    last = (page.state() or {}).get("seq")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        time.sleep(settle)
        now = (page.state() or {}).get("seq")
        if now == last:
            break
        last = now
    return page.state()


@contextmanager
def game_page(xserver: Xvfb, server: Any, *, size: int, seed: int,
              **params: Any) -> Iterator[Any]:
    """The bundled page with these rules and looks in a Chromium app window, settled,
    titled, the pointer parked off it."""
    from autoplayer.commands.play import BundledGame
    from autoplayer.webgame.server import new_session_id

    session = new_session_id()
    with page_window(server, xserver, width=1200, height=1000, session=session,
                     size=(size, size), seed=seed, **params) as app:
        wait_for_title(xserver.display, app.window)
        settled_window(xserver, app.window).close()
        yield BundledGame(server, session, app.window)


def play_page(xserver: Xvfb, page: Any, params: dict[str, Any], why: str = "",
              **options: Any) -> Outcome:
    """The bot plays the open page in this process, as `autoplayer play --window` would
    (`options` go to make_game), every input watched against what the page reports."""
    from autoplayer.games.nonogram.game import make_game
    from autoplayer.geometry import Move
    from autoplayer.play import default_driver, play
    from autoplayer.screen.capture import Screen
    from autoplayer.screen.source import WindowSource

    during_sign: list[str] = []
    sent = 0

    def watched(*args: Any) -> Any:
        driver = default_driver(*args)
        perform = driver.perform

        def perform_watched(gestures: list[Any]) -> None:
            nonlocal sent
            acts = [g for g in gestures if not isinstance(g, Move)]
            if acts and (page.state() or {}).get("sign_open"):
                during_sign.extend(type(g).__name__ for g in acts)
            sent += len(acts)
            perform(gestures)

        driver.perform = perform_watched
        return driver

    source = WindowSource(Screen(xserver.display), window_id=page.window,
                          display=xserver.display)
    report, code, error = None, 0, ""
    try:
        game = make_game(window=source.window, **options)
        report = play(game, source, driver_factory=watched, time_budget=120)
        lines = report.lines()
    except UserError as err:
        code, error, lines = err.exit_code, str(err), [str(err)]
    finally:
        source.close()
    state = quiet_state(page)
    time.sleep(0.3)
    later = (page.state() or {}).get("events")
    rules = page_rules(params)
    print(f"{why or params}: exit {code}; page solved={state.get('solved')} "
          f"sign_shown={state.get('sign_shown')} events={state.get('events')} "
          f"after sign={state.get('events_after_sign')}")
    for line in lines:
        print("   ", line)
    return Outcome(rules, code, lines, state, report, error, during_sign, sent, later,
                   why or str(params))


def play_once(xserver: Xvfb, server: Any, *, size: int, seed: int, why: str = "",
              **params: Any) -> Outcome:
    with game_page(xserver, server, size=size, seed=seed, **params) as page:
        return play_page(xserver, page, params, why)


# --- what every play must be ---------------------------------------------------------

def assert_honest(out: Outcome) -> None:
    """Whatever happened, the bot's word agrees with the page's."""
    why, state, rules = out.why, out.state, out.rules
    assert out.code in (0, 1, 4), f"{why}: exit {out.code}: {out.lines}"
    assert not out.during_sign, f"{why}: input sent while the page's sign was up: " \
        f"{out.during_sign}"
    assert not state.get("events_after_sign"), f"{why}: the page received " \
        f"{state.get('events_after_sign')} presses or keys after it showed its sign " \
        f"(sign={rules['sign']}; {state.get('after_sign')}): {out.lines}"
    assert out.events_later == state.get("events"), f"{why}: the page took presses after " \
        "the bot was done"
    solved_line = out.line(ANSWERED)
    quiet_line = out.line(QUIET)
    if out.code == 0:
        assert state.get("solved") is True, f"{why}: exit 0 on a board the page calls " \
            f"unsolved: {out.lines}"
        assert (solved_line is None) != (quiet_line is None), f"{why}: {out.lines}"
        if quiet_line is not None:
            assert out.report.check.wrong == 0, why
    else:
        assert len(out.error.splitlines()) == 1 and out.error.startswith("stopped: "), \
            f"{why}: exit {out.code} without a one-line 'stopped:' reason: {out.error!r}"
        assert state.get("solved") is not True, f"{why}: exit {out.code} on a board the " \
            f"page calls solved: {out.error}"
        assert solved_line is None and quiet_line is None
    if quiet_line is not None:
        assert rules["sign"] == "none", f"{why}: sign={rules['sign']} was up and the bot " \
            "saw no answer"
    if rules["rule"] == "marks" and state.get("solved"):
        assert -1 not in np.array(state["grid"]), f"{why}: solved with undecided cells"


DISHONEST = ("exit 0 on an unsolved page", "exit 1 on a solved page",
             "input after the page showed its sign")
"""The kinds of dishonest ending `dishonest` tells apart."""


def dishonest(out: Outcome) -> list[str]:
    """What was dishonest about a play, by kind (DISHONEST), judged by the page's own
    record; empty for an honest one (exit 0 on a page that says solved, or a non-zero exit
    on one that does not). A crash (no exit code of the bot's) counts as non-zero."""
    solved = out.state.get("solved") is True
    kinds = []
    if out.code == 0 and not solved:
        kinds.append(DISHONEST[0])
    if out.code != 0 and solved:
        kinds.append(DISHONEST[1])
    if out.state.get("events_after_sign") or out.during_sign:
        kinds.append(DISHONEST[2])
    return kinds


def assert_solved(out: Outcome) -> None:
    """Honest, and solved: every rule set of the page is one the bot must play."""
    assert_honest(out)
    assert out.code == 0, f"{out.why}: {out.error}"
    if out.rules["sign"] != "none":
        assert out.line(ANSWERED), f"{out.why}: {out.lines}"
    if out.rules["rule"] == "marks" and out.report.learn_presses:
        # Marks only after the fills alone gave no sign: the bot's finishing batch.
        assert out.report.batches >= 2, f"{out.why}: {out.lines}"


# --- 1. random rule sets and looks -------------------------------------------------

def random_look(rng: random.Random) -> dict[str, Any]:
    return {"skin": rng.choice(("pixel", "sans", "serif", "mono")),
            "theme": rng.choice(("light", "dark")),
            "cell": rng.choice((20, 24, 28, 32)),
            "rows": rng.choice(("left", "right")),
            "columns": rng.choice(("top", "bottom")),
            "fives": rng.choice(("1", "0"))}


def random_draw(run_seed: int, draw: int, largest: int = 15
                ) -> tuple[int, int, dict[str, Any]]:
    """Draw `draw` of run `run_seed`: a size (5..largest), a puzzle seed, and the page's
    parameters (a random rule set and look); the same three for the same arguments."""
    rng = random.Random(f"{run_seed}:{draw}")
    params = {**random_rules(rng), **random_look(rng)}
    size, seed = rng.randint(5, largest), rng.randrange(1 << 20)
    return size, seed, params


@pytest.mark.parametrize("draw", range(DRAWS))
def test_random_rule_sets_and_looks_are_solved_honestly(xserver: Xvfb, game_server: Any,
                                                        draw: int) -> None:
    size, seed, params = random_draw(RUN_SEED, draw)
    why = f"AUTOPLAYER_SEED={RUN_SEED} draw {draw}: {size}x{size} seed {seed} {params}"
    print(why)
    assert_solved(play_once(xserver, game_server, size=size, seed=seed, why=why, **params))


KNOWN_DRAWS: dict[str, tuple[int, int, dict[str, Any]]] = {
    # A clean clone's `make test` failed on it (issue 21): the page solved and dimmed, the
    # bot said "after 1 batches 11 of 25 cells still differ". The seed drew it before
    # RULE_CHOICES grew (fill=hatched, highlight=clues, sign=restyle/freeze/notice); it
    # draws another game now, so the draw is kept here as it was.
    "AUTOPLAYER_SEED=491818805 draw 3": (5, 246887, dict(
        fill="light", mark="image", highlight="cell", buttons="cycle", drag="ends",
        rule="runs", sign="dim", skin="mono", theme="dark", cell=24, rows="left",
        columns="top", fives="0")),
}
"""Random draws that once failed, replayed every run."""


@pytest.mark.parametrize("name", list(KNOWN_DRAWS))
def test_draws_that_failed_once_are_solved_honestly(xserver: Xvfb, game_server: Any,
                                                    name: str) -> None:
    size, seed, params = KNOWN_DRAWS[name]
    why = f"{name}: {size}x{size} seed {seed} {params}"
    assert_solved(play_once(xserver, game_server, size=size, seed=seed, why=why, **params))


# --- 2. every behaviour, every run -------------------------------------------------------

def long_run_seed(size: int, length: int = 5, start: int = 1) -> int:
    """The first seed from `start` whose random puzzle has one solution, with a straight
    run of `length` filled cells off its last row and column (the bot parks the pointer
    over the bottom right cell and runs its experiment away from that row and column; a
    drag tells `enter` from `ends` only on such a run)."""
    from autoplayer.games.nonogram.solver import solve
    from autoplayer.webgame.puzzles import seeded_puzzle

    for seed in range(start, start + 200):
        result = solve(seeded_puzzle(size, size, seed), max_solutions=2)
        if len(result.solutions) != 1:
            continue
        grid = result.solutions[0][:-1, :-1]
        for lines in (grid, grid.T):
            for line in lines:
                runs = "".join("1" if v == 1 else "0" for v in line).split("0")
                if max(map(len, runs)) >= length:
                    return seed
    raise AssertionError("no such seed")


FIXED: dict[str, dict[str, Any]] = {
    "light-fills-grey-marks": dict(fill="light", mark="grey", rule="marks", sign="none"),
    "image-fills-image-marks": dict(fill="image", mark="image", rule="marks", sign="dim"),
    "highlight-lines": dict(highlight="lines", theme="dark", skin="pixel", sign="dim"),
    "buttons-toggle": dict(buttons="toggle", rule="marks", sign="alert"),
    "buttons-set": dict(buttons="set", rule="marks", sign="none"),
    "buttons-cycle": dict(buttons="cycle", rule="marks", sign="dialog"),
    "buttons-cycle2": dict(buttons="cycle2", rule="marks", sign="dim"),
    "buttons-lock": dict(buttons="lock", rule="marks", sign="none"),
    "drag-line": dict(drag="line"),
    "drag-enter": dict(drag="enter"),
    "drag-ends": dict(drag="ends"),
    "drag-none": dict(drag="none"),
    "sign-dialog": dict(sign="dialog"),
    "sign-alert": dict(sign="alert"),
    # Chromium's scrim on black blanks barely moves them and dims bright fills towards
    # the blank look; the alert's box covers the board's top row.
    "sign-alert-dark": dict(sign="alert", skin="mono", theme="dark", fill="image",
                            columns="bottom", cell=32),
    "sign-after-marks": dict(rule="marks", sign="dialog"),
    "no-sign": dict(sign="none"),
    # What third-party games did when the last cell went in (issue 21).
    "sign-restyle": dict(sign="restyle"),
    "sign-freeze": dict(sign="freeze"),
    "sign-notice": dict(sign="notice", fill="light"),
    "sign-alert-hatched": dict(sign="alert", fill="hatched", highlight="clues"),
    "sign-alert-image": dict(sign="alert", fill="image"),
    "highlight-clues": dict(highlight="clues", sign="dim"),
}
"""One play per behaviour (the rest of each rule set at the page's defaults)."""


@pytest.mark.parametrize("case", list(FIXED))
def test_each_behaviour(xserver: Xvfb, game_server: Any, case: str) -> None:
    params = {"skin": "sans", "cell": 28, **FIXED[case]}
    size = 10 if case.startswith("drag-") else 7
    seed = long_run_seed(size, start=len(case))
    out = play_once(xserver, game_server, size=size, seed=seed, why=case, **params)
    assert_solved(out)
    rules, report, state = out.rules, out.report, out.state
    if case.startswith("buttons-"):
        assert LEARNED[rules["buttons"]] in report.learned, report.learned
    if case.startswith("drag-"):
        assert f"drags: {rules['drag']}" in report.learned, report.learned
        if rules["drag"] in ("line", "enter"):
            assert report.gestures < report.units_changed, "drags not used"
    if rules["sign"] in ("dialog", "alert"):
        # The sign is still up, untouched: the bot neither clicked it away nor moved it,
        # and every press it made before it is one the page took.
        assert state["sign_open"] is True
        if rules["buttons"] != "cycle":  # no context menu opened and closed with Esc
            assert state["events"] == out.sent, (state["events"], out.sent)
    if rules["rule"] == "marks":
        assert (np.array(state["grid"]) != -1).all()


# --- 3. the profile --------------------------------------------------------------------

PROFILE_RULES = [
    dict(fill="light", mark="grey", buttons="set", drag="enter", rule="marks",
         sign="dialog"),
    dict(mark="skin", skin="mono", theme="dark", buttons="toggle", drag="ends",
         rule="marks", sign="none"),
]


def kept_profiles(config: Path) -> list[Path]:
    return sorted((config / "autoplayer" / "profiles").glob("*.json"))


@pytest.mark.parametrize("rules", PROFILE_RULES, ids=["light-set-enter", "mono-dots"])
def test_a_second_game_uses_the_kept_rules_with_no_experiment(
        xserver: Xvfb, game_server: Any, private_config: Path, rules: dict[str, Any]) -> None:
    first = play_once(xserver, game_server, size=8, seed=long_run_seed(8, start=3),
                      why="first", **rules)
    assert_solved(first)
    assert first.report.learn_presses > 0
    [kept] = kept_profiles(private_config)
    second = play_once(xserver, game_server, size=10, seed=long_run_seed(10, start=40),
                       why="second", **rules)
    assert_solved(second)
    assert second.report.learn_presses == 0
    assert second.report.learned.startswith(f"rules from {kept}"), second.report.learned
    assert kept_profiles(private_config) == [kept]


CYCLE2 = dict(buttons="cycle2", drag="none", rule="marks", sign="dialog")
CYCLE2_PROFILE = {
    "format": "autoplayer nonogram rules 1",
    "window": {},
    "press": {"blank": {"left": "filled", "right": "marked"},
              "filled": {"left": "marked", "right": "blank"},
              "marked": {"left": "blank", "right": "filled"}},
    "menu": [],
    "drag": "none",
    "done": "marks",
    "motion_ms": 20.0,
}
"""A rules file written by hand (the format is meant to be read and written by people) for
the page with the CYCLE2 rules."""


def cli_play(xserver: Xvfb, page: Any, *args: str) -> tuple[Any, dict[str, Any]]:
    """`autoplayer play --window TITLE ARGS` on the open page, as a user types it."""
    title = locate_window(xserver.display, page.window).title
    done = run_autoplayer(xserver.display, "play", "--window", title, "--exact", *args,
                          timeout=120)
    print(args, done.returncode, done.stdout, done.stderr, sep="\n")
    return done, quiet_state(page)


def test_cli_profile_file_and_relearn(xserver: Xvfb, game_server: Any, tmp_path: Path,
                                      private_config: Path) -> None:
    given = tmp_path / "my game.json"
    given.write_text(json.dumps(CYCLE2_PROFILE, indent=2))
    # --profile FILE: its rules, no experiment, nothing kept anywhere else.
    with game_page(xserver, game_server, size=6, seed=3, **CYCLE2) as page:
        done, state = cli_play(xserver, page, "--profile", str(given))
    assert done.returncode == 0, done.stderr
    assert f"rules: rules from {given}:" in done.stdout
    assert state["solved"] is True and state["sign_shown"] is True
    assert kept_profiles(private_config) == []

    # --relearn: the file is not read (it says drags paint a line; they do nothing here):
    # the experiment runs, and the file is rewritten with what it found.
    given.write_text(json.dumps({**CYCLE2_PROFILE, "drag": "line"}))
    with game_page(xserver, game_server, size=6, seed=4, **CYCLE2) as page:
        done, state = cli_play(xserver, page, "--profile", str(given), "--relearn")
    assert done.returncode == 0, done.stderr
    assert re.search(r"rules: learned the game's rules in [1-9]\d* presses", done.stdout)
    assert state["solved"] is True
    relearned = json.loads(given.read_text())
    assert relearned["drag"] == "none"
    assert relearned["press"]["blank"] == {"left": "filled", "right": "marked"}
    assert kept_profiles(private_config) == []


BAD_PROFILES = {
    "cut short": ("{\"format\": \"autoplayer nonogram rules 1\", \"press\": {",
                  "not JSON"),
    "unknown drag": ("{\"format\": \"autoplayer nonogram rules 1\", \"drag\": \"zigzag\"}",
                     "\"drag\" is 'zigzag'"),
    "not a profile": ("[1, 2, 3]\n", "not an autoplayer nonogram profile"),
}


def test_a_corrupt_profile_is_a_one_line_error_and_left_as_it_was(
        xserver: Xvfb, game_server: Any, tmp_path: Path, private_config: Path) -> None:
    from autoplayer.games.nonogram.rules import profile_path, window_key

    with game_page(xserver, game_server, size=5, seed=8) as page:
        window = locate_window(xserver.display, page.window)
        kept = profile_path(window_key(window.wm_class, window.title))
        kept.parent.mkdir(parents=True)
        given = tmp_path / "given.json"
        for what, (text, message) in BAD_PROFILES.items():
            for path, args in ((given, ("--profile", str(given))), (kept, ())):
                path.write_bytes(text.encode())
                done, state = cli_play(xserver, page, *args)
                lines = done.stderr.strip().splitlines()
                assert done.returncode == 2, (what, done.stdout, done.stderr)
                assert len(lines) == 1 and str(path) in lines[0] and message in lines[0], \
                    (what, lines)
                assert "Traceback" not in done.stderr and done.stdout == ""
                assert path.read_bytes() == text.encode(), f"{what}: {path} was changed"
                assert state["events"] == 0, f"{what}: input sent"
                path.unlink()


# --- 4. a profile the game contradicts ----------------------------------------------

CONTRADICTIONS = {
    # Learned where left toggles and right marks; then left cycles and right opens the
    # browser's menu.
    "toggle-then-cycle": (dict(buttons="toggle", rule="marks"), dict(buttons="cycle")),
    # Learned where drags paint the line; then drags take only their first cell.
    "line-then-none": (dict(drag="line"), dict(drag="none")),
    # Learned where left goes round blank, filled, marked (a mark is two left presses);
    # then a second left press clears the fill.
    "cycle-then-toggle": (dict(buttons="cycle", rule="marks"), dict(buttons="toggle",
                                                                     rule="marks")),
}


@pytest.mark.parametrize("case", list(CONTRADICTIONS))
def test_a_game_that_contradicts_the_profile_is_played_honestly(
        xserver: Xvfb, game_server: Any, case: str) -> None:
    learned_on, played_on = CONTRADICTIONS[case]
    first = play_once(xserver, game_server, size=8, seed=long_run_seed(8, start=5),
                      why=f"{case}: learn", **learned_on)
    assert_solved(first)
    rules = {**learned_on, **played_on}
    out = play_once(xserver, game_server, size=8, seed=long_run_seed(8, start=60),
                    why=f"{case}: play", **rules)
    assert_honest(out)
    if out.code == 1:
        # Where, with what, and what to do about it.
        assert re.search(r"row \d+ column \d+", out.error), out.error
        assert re.search(r"\b(click|drag)\b", out.error), out.error
        assert "--relearn" in out.error, out.error
