"""The package type-checks: mypy, configured in pyproject.toml ([tool.mypy]), over
controller/, sim/ and firmware/ finds nothing.

Type hints are one of the project's rules (no `Any` at module boundaries, one `Colour`,
a typed `Match.phase`); this keeps them true as the code changes. A cold run takes some
seconds (mypy's cache, `.mypy_cache/`, makes the next ones faster).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_errors_in_the_package() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
