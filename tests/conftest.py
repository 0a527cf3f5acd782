"""Shared fixtures. Tests may read ../shared beside the checkout; without it they skip.

The end-to-end modules share a private X display (`xserver`) and a game server
(`game_server`) here; what they do on the display is in desktop.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from autoplayer.screen.xvfb import Xvfb
    from autoplayer.webgame.server import GameServer

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"reference data not found at {SHARED} (CI checks it out beside the repo)")
    return SHARED


@pytest.fixture(scope="module")
def xserver(request: pytest.FixtureRequest) -> Iterator[Xvfb]:
    """A private Xvfb for the whole module, sized by the module's `SCREEN = (width, height)`.

    DISPLAY points at it while the module runs: pynput reads DISPLAY when a
    controller is made, and the bot's in-process input goes there.
    """
    from autoplayer.screen.xvfb import virtual_display

    width, height = request.module.SCREEN
    with virtual_display(width, height) as x:
        yield x


@pytest.fixture(scope="module")
def game_server() -> Iterator[GameServer]:
    """The bundled games' server for the module; the headless browser that rendered its
    pages goes with it."""
    from autoplayer.webgame.browser import close_shared_browser
    from autoplayer.webgame.server import GameServer

    with GameServer() as server:
        yield server
    close_shared_browser()


@pytest.fixture(autouse=True)
def private_config(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps what the bot learns (game profiles) in a config directory of its
    own: never the user's, never another test's."""
    home = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home
