"""`autoplayer calibrate` on screenshots Pattern renders itself, one game ID per screenshot."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from autoplayer.cli import main
from autoplayer.games.nonogram.formats import load_puzzle
from autoplayer.games.nonogram.game import NonogramGame
from autoplayer.games.nonogram.pattern.session import PATTERN, generate
from autoplayer.screen.capture import Frame

pytestmark = pytest.mark.skipif(not os.path.exists(PATTERN), reason="sgt-puzzles is not installed")

REPO = Path(__file__).resolve().parent.parent


def shot(game_id: str, tile: int, path: Path) -> Path:
    env = {**os.environ, "PATTERN_TILESIZE": str(tile)}
    subprocess.run([PATTERN, "--screenshot", str(path), game_id], env=env, check=True,
                   timeout=60, capture_output=True)
    return path


def sheets() -> list[str]:
    """The digit sheets tools/pattern-calibration renders (every digit, both fonts)."""
    labels = json.loads((REPO / "calibration/pattern-screens/labels.json").read_text())
    ids = []
    for entry in labels["screenshots"]:
        if entry["puzzle"] not in ids and "generated" not in entry["file"]:
            ids.append(entry["puzzle"])
    return ids


def test_calibrate_with_a_game_id_per_screenshot_then_read_with_it(tmp_path: Path) -> None:
    large, small = sheets()
    a = shot(large, 24, tmp_path / "large.png")
    b = shot(small, 24, tmp_path / "small.png")
    code = main(["calibrate", str(a), str(b), "--puzzle", large, "--puzzle", small,
                 "--name", "mine", "--dir", str(tmp_path)])
    assert code == 0
    from autoplayer.vision.templates import load_templates

    templates = load_templates(tmp_path / "templates" / "mine")
    assert templates.digits == set(range(10))
    assert (tmp_path / "calibration" / "mine" / "samples.json").exists()
    game_id = generate("20x20#calibrated")
    game = NonogramGame(str(tmp_path / "templates" / "mine"))
    read = game.read(Frame(_load(shot(game_id, 24, tmp_path / "game.png"))))
    assert read.raw.template_set == "mine"
    truth = load_puzzle(game_id)
    assert (read.puzzle.rows, read.puzzle.columns) == (truth.rows, truth.columns)


def test_calibrate_refuses_a_game_id_count_that_matches_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    large, small = sheets()
    a = shot(large, 16, tmp_path / "a.png")
    b = shot(small, 16, tmp_path / "b.png")
    code = main(["calibrate", str(a), str(b), "--puzzle", large, "--puzzle", small,
                 "--puzzle", large, "--name", "x", "--dir", str(tmp_path)])
    assert code == 2
    assert "3 --puzzle for 2 screenshots" in capsys.readouterr().err
    assert not (tmp_path / "templates").exists()


def test_calibrate_refuses_a_screenshot_of_another_puzzle(tmp_path: Path) -> None:
    large, small = sheets()
    a = shot(large, 24, tmp_path / "a.png")
    assert main(["calibrate", str(a), "--puzzle", small, "--name", "x",
                 "--dir", str(tmp_path)]) == 2
    assert not (tmp_path / "templates").exists()


def _load(path: Path):
    import numpy as np
    from PIL import Image

    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))
