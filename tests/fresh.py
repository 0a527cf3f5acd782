"""Running an `autoplayer` command in a fresh interpreter, to see what it imported."""

from __future__ import annotations

import ast
import subprocess
import sys


def modules_after(argv: list[str], *names: str) -> tuple[list[str], int]:
    """The modules named (exactly, or as a package prefix ending in '.') that are loaded
    after `main(argv)` in a new interpreter, sorted, and main's exit code."""
    code = (
        "import sys\n"
        "from autoplayer.cli import main\n"
        "try:\n"
        f"    code = main({argv!r})\n"
        "except SystemExit as exit:\n"
        "    code = exit.code\n"
        f"names = {names!r}\n"
        "loaded = sorted(m for m in sys.modules\n"
        "                if any(m == n or (n.endswith('.') and m.startswith(n)) for n in names))\n"
        "print(repr((loaded, code)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    loaded, exit_code = ast.literal_eval(out.splitlines()[-1])
    return loaded, exit_code
