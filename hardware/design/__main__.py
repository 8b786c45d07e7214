"""Regenerate every generated file of hardware/: `python -m hardware.design` (from the
repository's root). `--check` writes nothing and exits 1 if a committed file differs."""
from __future__ import annotations

import sys

from . import outputs


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path, render in outputs.FILES.items():
        text = render()
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path_name in stale:
        print(f"out of date: {path_name} (run python -m hardware.design)")
    return 1 if stale else 0



if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
