"""What the review tests share: `bgboard analyze --json` of a file (the oracle the live
review must equal) and the comparison of a review's JSON with it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def analyze_json(path: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "bgboard.cli", "analyze", "--json", "--ply", "0", str(path)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def assert_review_is_the_analysis(review_json: dict, analysed: dict) -> None:
    """The review's players equal the CLI's; its marks are the CLI's marked decisions;
    its series the CLI's `win` of each checker play from White's side."""
    assert review_json["players"][0]["overall"] == analysed["players"][0]["overall"]
    assert review_json["players"] == [{**p, "name": r["name"]} for p, r in
                                      zip(analysed["players"], review_json["players"])]
    marked = [d for d in analysed["games"] if d["mark"]]
    assert [(m["game"], m["move"], m["kind"], m["equity_loss"], m["mark"], m["played"], m["best"])
            for m in review_json["marked"]] == \
        [(d["game"], d["move"], d["kind"], d["equity_loss"], d["mark"], d["played"], d["best"]) for d in marked]
    names = [p["name"] for p in analysed["players"]]
    wins = [(d["game"], d["win"] if d["player"] == names[0] else round(1 - d["win"], 4))
            for d in analysed["games"] if d["kind"] == "move"]
    ours = [(p["game"], p["white"]) for p in review_json["series"] if p["move"] != 0]
    assert [g for g, _ in ours] == [g for g, _ in wins]
    assert [w for _, w in ours] == pytest.approx([w for _, w in wins], abs=1e-4)
