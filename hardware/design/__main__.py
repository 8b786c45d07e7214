"""Regenerate every generated file of hardware/: `python -m hardware.design` (from the
repository's root). `--check` writes nothing and exits 1 if a committed file differs or
the profile (the default one, or `--profile F`) disagrees with the boards, one line each."""
from __future__ import annotations

import sys

from controller.board.profile import load_profile
from controller.errors import ProfileError

from . import agreement, outputs


def main(argv: list[str]) -> int:
    check = "--check" in argv
    if check or "--profile" in argv:
        at = argv.index("--profile") if "--profile" in argv else -1
        if at >= 0 and at + 1 >= len(argv):
            print("--profile needs a file")
            return 2
        name = argv[at + 1] if at >= 0 else "hardware/profiles/default.toml"
        try:
            problems = agreement.profile_problems(load_profile(argv[at + 1] if at >= 0 else None), name)
        except ProfileError as exc:
            print(exc)
            return 2
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            print(problems[0] + more)
            return 1
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
