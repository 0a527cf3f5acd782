"""What a user gets from a wheel: built from the committed tree, installed into a fresh
virtual environment outside the checkout, and run from a directory with no templates/.

The rest of the suite imports the source tree; this module alone proves the
package carries what it reads at run time (digit templates, the browser games'
pages) and finds it through importlib.resources, not by a path into a checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO
from desktop import needs_pattern

from autoplayer.games.nonogram.pattern.session import PATTERN, generate

pytestmark = pytest.mark.slow

_NOT_SHIPPED = {".pyc"}


def _source_files() -> list[str]:
    """The package's files as a clean clone has them (git's list; else the tree, less caches)."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "autoplayer", "pyproject.toml",
                             "README.md"], capture_output=True, text=True, check=False)
    if listed.returncode == 0 and listed.stdout.strip():
        return [f for f in listed.stdout.splitlines() if (REPO / f).is_file()]
    return [str(p.relative_to(REPO)) for p in (REPO / "autoplayer").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts] + ["pyproject.toml", "README.md"]


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.pop("PYTHONHOME", None)
    return env


def _run(*args: str | Path, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    out = subprocess.run([str(a) for a in args], cwd=cwd, env=_clean_env(), capture_output=True,
                         text=True, timeout=timeout, check=False)
    assert out.returncode == 0, f"{' '.join(map(str, args))} failed:\n{out.stdout}\n{out.stderr}"
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, list[str]]]:
    """(the fresh venv's bin/, a work directory outside the checkout, the files packed)."""
    root = tmp_path_factory.mktemp("wheel")
    src = root / "src"
    files = _source_files()
    for name in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, src / name)
    dist = root / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, src, cwd=root)
    wheel = next(dist.glob("autoplayer-*.whl"))
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    _run(bin_dir / "python", "-m", "pip", "install", "-q", wheel, cwd=root)
    work = root / "elsewhere"
    work.mkdir()
    with zipfile.ZipFile(wheel) as packed:
        names = packed.namelist()
    yield bin_dir, work, names


def test_the_wheel_carries_every_data_file_of_the_package(installed) -> None:
    _, _, names = installed
    data = [f for f in _source_files() if f.startswith("autoplayer/")
            and not f.endswith(".py") and Path(f).suffix not in _NOT_SHIPPED]
    assert any(f.startswith("autoplayer/templates/pattern/") for f in data)
    missing = sorted(set(data) - set(names))
    assert not missing, f"files of the package left out of the wheel: {missing[:10]}"


def test_the_installed_package_is_the_wheel_not_the_checkout(installed) -> None:
    bin_dir, work, _ = installed
    where = _run(bin_dir / "python", "-c", "import autoplayer; print(autoplayer.__file__)",
                 cwd=work).stdout.strip()
    assert Path(where).is_relative_to(bin_dir.parent), where
    sets = _run(bin_dir / "python", "-c", "from autoplayer.vision.templates import "
                "available_templates as a; print(' '.join(a()))", cwd=work).stdout.split()
    assert {"pattern", "web-sans", "web-serif", "web-mono"} <= set(sets)


@needs_pattern
def test_the_installed_wheel_reads_a_pattern_screenshot_with_its_templates(installed) -> None:
    bin_dir, work, _ = installed
    game_id = generate("12x12#wheel")
    shot = work / "pattern.png"
    subprocess.run([PATTERN, "--screenshot", str(shot), game_id], check=True, timeout=60,
                   env={**_clean_env(), "PATTERN_TILESIZE": "20"}, capture_output=True)
    assert not (work / "templates").exists()
    out = _run(bin_dir / "autoplayer", "read", shot, "--templates", "pattern", cwd=work).stdout
    assert "clues read with templates pattern" in out
    assert game_id in out.split()
