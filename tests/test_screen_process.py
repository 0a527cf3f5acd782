"""A helper program that dies says why: its own stderr, not a symptom further on."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from desktop import needs_xvfb

from autoplayer.screen.process import Helper, HelperExited

SCREEN = (640, 480)


def _program(tmp_path: Path, name: str, body: str) -> Path:
    """An executable script `name` that runs `body` (sh)."""
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_helper_that_dies_at_start_is_reported_with_its_own_stderr(tmp_path: Path) -> None:
    wm = _program(tmp_path, "fake-wm", 'echo "starting" >&2\n'
                  'echo \'fake-wm: unable to open fontset "variable"\' >&2\nexit 3')
    with Helper("fake-wm", [str(wm)]) as helper, \
            pytest.raises(HelperExited) as caught:
        helper.settle(2.0)
    message = str(caught.value)
    assert 'unable to open fontset "variable"' in message
    assert "fake-wm exited with code 3 right after it started" in message
    assert "\n" not in message


def test_a_running_helper_passes_and_is_stopped(tmp_path: Path) -> None:
    with Helper("sleeper", [sys.executable, "-c", "import time; time.sleep(60)"]) as helper:
        helper.settle(0.2)
        assert helper.alive()
    assert not helper.alive()


def test_a_missing_program_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(HelperExited, match="no-such-program could not be started"):
        Helper("no-such-program", [str(tmp_path / "no-such-program")])


def test_a_silent_death_says_so(tmp_path: Path) -> None:
    with Helper("quiet", [sys.executable, "-c", "raise SystemExit(4)"]) as helper:
        helper.proc.wait(10)
        with pytest.raises(HelperExited,
                           match="quiet exited with code 4; it printed nothing on stderr"):
            helper.check()


@needs_xvfb
def test_xvfb_that_cannot_start_quotes_itself() -> None:
    from autoplayer.screen.xvfb import Xvfb

    with pytest.raises(HelperExited) as caught, Xvfb(640, 480, depth=3):
        pass
    assert "Xvfb exited with code" in str(caught.value)
    assert "it said: " in str(caught.value)


@needs_xvfb
def test_a_game_that_dies_before_its_window_quotes_itself(xserver, tmp_path: Path) -> None:
    from autoplayer.games.nonogram.pattern.session import PatternProcess

    game = _program(tmp_path, "sgt-broken", "echo 'Gtk-WARNING: cannot open display' >&2\nexit 1")
    with pytest.raises(HelperExited, match="sgt-broken exited with code 1 before showing its "
                                           "window; it said: Gtk-WARNING: cannot open display"):
        PatternProcess("5x5:1/1/1/1/1/1/1/1/1/1", xserver.display, binary=str(game)).start(5)


@needs_xvfb
def test_a_browser_that_dies_before_its_window_quotes_itself(
        xserver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from autoplayer.webgame.browser import launch_app

    _program(tmp_path, "chromium", "echo '[1:1:ERROR] Missing X server or $DISPLAY' >&2\nexit 1")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(HelperExited, match="Chromium exited with code 1 before showing a window"
                                           r".*Missing X server or \$DISPLAY"), \
            launch_app("about:blank", display=xserver.display, width=300, height=200, timeout=10):
        pass
