"""Where what the bot learned about a game is kept: one small JSON file per game window.

A window is named by its class and its title with numbers left out (a puzzle's
size or number, a clock), so every puzzle of one game shares its file. Files
are written whole to a temp file and renamed: a reader never sees half of one.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "autoplayer"


def window_key(wm_class: tuple[str, ...] | list[str], title: str) -> dict[str, Any]:
    """What names a game: its window class and its title with numbers (a puzzle's size or
    number, a clock) left out, so every puzzle of one game shares a profile."""
    return {"class": list(wm_class), "title": re.sub(r"\d+", "#", title).strip()}


def profile_path(key: Mapping[str, Any], kind: str = "") -> Path:
    """The profile file for a window key: readable name plus a short hash of the key;
    `kind` (a game's name) starts the name when one window may hold several games."""
    text = " ".join([*key.get("class", []), key.get("title", "")])
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48] or "window"
    digest = hashlib.sha1(json.dumps(dict(key), sort_keys=True).encode()).hexdigest()[:8]
    return config_dir() / "profiles" / f"{kind + '-' if kind else ''}{slug}-{digest}.json"


def load_json(path: Path) -> Any:
    """A profile file's data; UserError naming the file and line when it is not JSON."""
    from autoplayer.errors import UserError
    from autoplayer.files import read_text

    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as err:
        raise UserError(f"{path}: line {err.lineno}: not JSON ({err.msg})") from None


def save_json(path: Path, data: Any) -> None:
    """Written whole to a temp file and renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
