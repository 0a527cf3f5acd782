"""Writes one benchmark's results into its own section of docs/benchmarks.md."""

from __future__ import annotations

import os
import platform
import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def machine_line() -> str:
    """What the numbers were measured on, so a reader can compare like with like."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
            cwd=DOC.parent, check=False,
        ).stdout.strip()
    except OSError:
        commit = ""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"_Measured {when} on {cpu}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, commit {commit or '?'}, load average {load:.2f} at start._"
    )


def write_section(name: str, markdown: str) -> None:
    """Replace the text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`."""
    text = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    begin, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    body = f"{begin}\n{markdown.strip()}\n\n{machine_line()}\n{end}"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    text = pattern.sub(lambda _: body, text) if pattern.search(text) else f"{text}\n{body}\n"
    DOC.write_text(text)
