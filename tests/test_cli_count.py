"""`autoplayer count`: output lines, progress on stderr, errors, and a light start."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from autoplayer import cli
from autoplayer.commands import count as count_command


def parse(stdout: str) -> dict[str, str]:
    return dict(line.split(" ", 1) for line in stdout.splitlines())


def test_count_prints_key_value_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["count", "4", "--unique", "--jobs", "2"]) == 0
    out = parse(capsys.readouterr().out)
    assert out["size"] == "4x4"
    assert out["grids"] == "65536"
    assert out["line-solvable"] == "51234"
    assert out["unique"] == "52362"
    assert float(out["seconds"]) >= 0


def test_count_rectangle_without_unique(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["count", "3", "4"]) == 0
    out = parse(capsys.readouterr().out)
    assert (out["size"], out["grids"], out["line-solvable"]) == ("3x4", "4096", "3116")
    assert "unique" not in out


def test_progress_is_a_plain_line_when_stderr_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(count_command, "PLAIN_EVERY", 0.0)
    assert cli.main(["count", "4", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    assert err.splitlines()[-1].startswith("count 4x4: 100.0% (65536/65536 grids")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_redraws_one_terminal_line() -> None:
    term = Terminal()
    bar = count_command.ProgressBar(term, "5x5")
    bar.last = 0.0  # let each update through the redraw throttle
    bar.update(50, 100)
    bar.update(50, 100)  # throttled: at most ten redraws a second
    bar.last = 0.0
    bar.update(100, 100)
    bar.close()
    text = term.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n") and text.count("\n") == 1
    assert "[###############...............]  50.0%" in text
    assert "[" + "#" * 30 + "] 100.0%" in text


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "autoplayer", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["count", "9"], "N=9 is outside 0..8"),
        (["count", "3", "-2"], "M=-2 is outside 0..8"),
        (["count", "8"], "8x8 has 2^64 grids"),
        (["count", "3", "--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_sizes_give_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_start_does_not_import_numba() -> None:
    code = (
        "import sys; from autoplayer.cli import build_parser; build_parser(); "
        "print('numba' in sys.modules, 'autoplayer.games.nonogram.count' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.split() == ["False", "False"]


def test_count_through_the_real_process() -> None:
    result = run_cli("count", "2", "3", "--unique")
    assert result.returncode == 0, result.stderr
    assert parse(result.stdout)["line-solvable"] == "52"
    assert parse(result.stdout)["unique"] == "52"
