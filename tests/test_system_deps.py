"""README.md's lists of Debian packages are the ones tools/ensure-system-deps installs.

The README names them between `<!-- system-deps: MODE -->` and `<!-- /system-deps -->`
(each package in backticks); MODE `demo` is what `make demo` installs, `test` what
`make test` adds to it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "ensure-system-deps"


def listed(mode: str) -> list[str]:
    done = subprocess.run([str(SCRIPT), "--list", mode], capture_output=True, text=True,
                          check=True, timeout=30)
    return done.stdout.split()


def readme(mode: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    part = re.search(rf"<!-- system-deps: {mode} -->(.*?)<!-- /system-deps -->", text, re.S)
    assert part, f"README.md has no <!-- system-deps: {mode} --> list"
    return re.findall(r"`([a-z0-9][a-z0-9.+-]*)`", part.group(1))


def test_the_readme_names_what_make_demo_installs():
    assert sorted(readme("demo")) == sorted(listed("demo"))


def test_the_readme_names_what_make_test_adds():
    extra = [p for p in listed("test") if p not in listed("demo")]
    assert sorted(readme("test")) == sorted(extra)


def test_the_demo_needs_a_subset_of_the_tests():
    assert set(listed("demo")) < set(listed("test"))


@pytest.mark.parametrize("mode", ["", "--list"])
def test_an_unknown_mode_is_refused(mode):
    args = [str(SCRIPT), *([mode] if mode else []), "everything"]
    done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 2 and "usage" in done.stderr
