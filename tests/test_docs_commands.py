"""Every command in README.md and docs/*.md runs as written and prints what the page shows.

The convention (also in docs/development.md, "The documentation's commands"):

- A fenced block marked ```console is run. Each line starting with `$ ` is a command
  (a line ending in `\\` continues on the next); the lines after it, up to the next
  `$ ` or the end of the block, are what it prints, stdout and stderr together in the
  order a terminal shows them.
- A last output line `[exit N]` is the exit status expected; without one it is 0.
- Output wildcards: a line that is just `...` stands for any number of lines (none
  included); `{...}` inside a line stands for any text within that line.
- `<!-- skip: REASON -->` on the line before a block's fence leaves the block out, and the
  test reports REASON (a display, the network, minutes of work). Blocks marked ```sh,
  ```bash or ```shell must carry one: every shell command in the docs is either run
  or says why not.
- A block's commands run in order, through bash, in a fresh temporary directory holding a
  copy of examples/, so `examples/NAME` paths work and files the commands write go
  nowhere near the checkout. `autoplayer`, `ripple-effect` and `ripple-effect-check` run
  this checkout's code, with no display, LC_ALL=C.UTF-8 and COLUMNS=80.
- Caches are the user's own. The 3x3 15-puzzle tables are built before the first block
  (a few seconds, once per machine), so that no block's output holds the progress bar
  of building them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = {"sh", "bash", "shell"}
SKIP = re.compile(r"<!--\s*skip:\s*(.+?)\s*-->")
EXIT = re.compile(r"\[exit (\d+)\]")
ENTRY_POINTS = {  # pyproject.toml's [project.scripts]
    "autoplayer": "autoplayer.cli:main",
    "ripple-effect": "autoplayer.games.ripple.cli:main_solve",
    "ripple-effect-check": "autoplayer.games.ripple.cli:main_check",
}
TIMEOUT_S = 60
# How a line that is a command starts (`autoplayer: error: ...` is output, not one).
COMMAND = re.compile(r"(autoplayer|ripple-effect|ripple-effect-check|make|sgt-\w+|tools/\S+) ")


@dataclass(frozen=True)
class Step:
    command: str
    expected: tuple[str, ...]
    status: int


@dataclass(frozen=True)
class Block:
    where: str  # FILE:LINE of the opening fence
    language: str
    skip: str | None
    steps: tuple[Step, ...]
    lines: tuple[str, ...]


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of one Markdown file, with their skip reasons and steps."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\S*)", lines[i])
        if not fence:
            i += 1
            continue
        indent, language = fence.group(1), fence.group(2)
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith("```"):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        before = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        reason = SKIP.search(before)
        found.append(Block(f"{path.relative_to(ROOT)}:{start + 1}", language,
                           reason.group(1) if reason else None, tuple(steps(body)),
                           tuple(body)))
    return found


def steps(body: list[str]) -> list[Step]:
    """Commands (`$ ` lines, joined over trailing backslashes) and the output after each."""
    out: list[Step] = []
    i = 0
    while i < len(body):
        if not body[i].startswith("$ "):
            i += 1
            continue
        command = body[i][2:]
        while command.endswith("\\") and i + 1 < len(body):
            i += 1
            command = command[:-1] + "\n" + body[i]
        i += 1
        expected: list[str] = []
        while i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        while expected and not expected[-1].strip():
            expected.pop()
        status = 0
        if expected and EXIT.fullmatch(expected[-1].strip()):
            status = int(EXIT.fullmatch(expected[-1].strip()).group(1))
            expected.pop()
        out.append(Step(command, tuple(expected), status))
    return out


def matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Whether the output fits the expected lines, `...` lines and `{...}` included."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("{...}"))
    return re.fullmatch(pattern, actual[0].rstrip()) is not None and matches(rest, actual[1:])


ALL = [block for doc in DOCS for block in blocks(doc)]
RUN = [b for b in ALL if b.language == "console" or b.language in SHELLS]


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory) -> Path:
    """Shims that run this checkout's entry points, whatever is installed."""
    where = tmp_path_factory.mktemp("bin")
    for name, target in ENTRY_POINTS.items():
        module, function = target.split(":")
        shim = where / name
        shim.write_text(f'#!{sys.executable}\nimport sys\nfrom {module} import {function}\n'
                        f'sys.exit({function}())\n')
        shim.chmod(0o755)
    return where


def test_every_shell_block_is_run_or_says_why_not():
    silent = [b.where for b in ALL if b.language in SHELLS and b.skip is None]
    assert not silent, f"shell blocks neither ```console nor <!-- skip: REASON -->: {silent}"


def test_commands_are_in_shell_blocks():
    """A command in an untagged or ```text block would be neither run nor skipped."""
    hidden = [b.where for b in ALL if b.language not in SHELLS | {"console"}
              and any(COMMAND.match(line) or line.startswith("$ ") for line in b.lines)]
    assert not hidden, f"commands outside ```console / ```sh blocks: {hidden}"


def test_the_shims_are_the_entry_points():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert scripts["project"]["scripts"] == ENTRY_POINTS


def test_the_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines < 250, f"README.md has {lines} lines"


def test_every_example_file_named_exists():
    named = set()
    for doc in DOCS:
        named |= set(re.findall(r"examples/[\w.\-/]+\w", doc.read_text(encoding="utf-8")))
    missing = sorted(n for n in named if not (ROOT / n).exists())
    assert not missing, f"named in the docs but not in the repository: {missing}"


def table_examples() -> list[str]:
    """The third column of README.md's table of commands."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    return [m.group(1) for row in table.splitlines() if row.startswith("| `")
            for m in [re.search(r"\| `([^`]+)` \|\s*$", row)] if m]


TABLE = table_examples()
# The table's examples that cannot run here, and why.
TABLE_SKIP = {
    "demo": "plays in Chromium on a screen (a minute)",
    "play": "needs a display and a game window",
    "serve": "runs until Ctrl+C (docs/webgame.md runs it for a second)",
    "calibrate": "names a screenshot of your own game (docs/reading.md runs one)",
}


def test_the_readme_table_has_an_example_a_row():
    assert len(TABLE) >= 10, TABLE


@pytest.mark.parametrize("example", TABLE)
def test_readme_table_examples(example: str, bin_dir: Path, warm_caches: None,
                               tmp_path: Path):
    """Each runs and exits 0 (their output is shown, and checked, in docs/)."""
    words = example.split()
    if words[0] == "autoplayer" and words[1] in TABLE_SKIP:
        pytest.skip(f"README.md table, `{example}`: {TABLE_SKIP[words[1]]}")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    done = subprocess.run(["bash", "-c", example], cwd=tmp_path, env=environment(bin_dir),
                          capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    assert done.returncode == 0, (
        f"`{example}` exited {done.returncode}:\n{done.stdout}{done.stderr}")


def environment(bin_dir: Path) -> dict[str, str]:
    """This checkout's entry points first on PATH, no display, a fixed locale and width."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "AUTOPLAYER_SEED")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT),
               PYTHONUNBUFFERED="1", LC_ALL="C.UTF-8", COLUMNS="80")
    return env


@pytest.fixture(scope="module")
def warm_caches() -> None:
    """Builds what a first run would build with a progress bar on stderr."""
    board = "3x3:1,2,3,4,5,6,7,0,8"
    subprocess.run([sys.executable, "-m", "autoplayer", "fifteen", "solve", board], cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                   timeout=TIMEOUT_S, check=True)


@pytest.mark.parametrize("block", RUN, ids=[b.where for b in RUN])
def test_documented_commands(block: Block, bin_dir: Path, warm_caches: None, tmp_path: Path):
    if block.skip:
        pytest.skip(f"{block.where}: {block.skip}")
    if block.language != "console":
        pytest.skip(f"{block.where}: a ```{block.language} block without a skip reason "
                    "(test_every_shell_block_is_run_or_says_why_not fails on it)")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = environment(bin_dir)
    for step in block.steps:
        done = subprocess.run(["bash", "-c", step.command], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=TIMEOUT_S, check=False)
        actual = done.stdout.rstrip("\n").split("\n") if done.stdout.strip() else []
        assert done.returncode == step.status, (
            f"{block.where}: `{step.command}` exited {done.returncode}, the docs say "
            f"{step.status}; it printed:\n{done.stdout}")
        assert matches(step.expected, actual), (
            f"{block.where}: `{step.command}` printed:\n{done.stdout}\nthe docs show:\n"
            + "\n".join(step.expected))


def test_relative_links_resolve():
    broken = []
    for doc in [*DOCS, ROOT / "examples" / "README.md"]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            if "://" not in target and not (doc.parent / target).exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
    assert not broken, broken
