"""Where template sets are found: the working directory's templates/ first, then ours."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from vision_render import Skin, random_puzzle, render

from autoplayer.errors import UserError
from autoplayer.vision.templates import (
    BUNDLED,
    TemplateSet,
    available_templates,
    load_templates,
    save_templates,
    templates_dir,
)


def test_bundled_sets_are_found_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names = available_templates()
    assert {"pattern", "web-sans", "web-serif", "web-mono"} <= set(names)
    assert templates_dir("web-mono") == BUNDLED / "web-mono"
    assert load_templates("web-mono").digits == set(range(10))


def test_a_users_set_shadows_ours_and_unknown_names_fail_clearly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mine = TemplateSet("web-mono")
    glyph = np.zeros((7, 5), bool)
    glyph[:, 2] = True
    mine.add(1, glyph)
    save_templates(mine, tmp_path / "templates" / "web-mono")
    assert templates_dir("web-mono") == Path("templates") / "web-mono"
    assert load_templates("web-mono").digits == {1}
    assert available_templates().count("web-mono") == 1
    with pytest.raises(UserError, match="no template set here"):
        load_templates("no-such-set")


def test_read_with_no_templates_uses_the_state_machines_alone(tmp_path):
    """`--templates none` reads, and says no set was used, where the default might try sets."""
    from autoplayer.games.nonogram.formats import format_puzzle

    puzzle = random_puzzle(10, 10, seed=7)
    image_path = tmp_path / "board.png"
    render(puzzle, Skin()).save(image_path)
    out = subprocess.run([sys.executable, "-m", "autoplayer", "read", str(image_path),
                          "--templates", "none"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "read with templates" not in out.stdout
    assert format_puzzle(puzzle, "tatham").strip() in out.stdout
