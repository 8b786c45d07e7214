"""What `bgboard analyze` prints: one JSON object per file, or a readable report.

The readable report puts the blunders first (marked decisions, worst first), then each
player's statistics as gnubg's `show statistics match` groups them.
"""
from __future__ import annotations

import json

from controller.analysis.match import MatchAnalysis
from controller.analysis.network import weights_in_use
from controller.analysis.stats import PlayerStats, decision_json, player_stats


def analysis_json(name: str, analysis: MatchAnalysis) -> dict[str, object]:
    players = analysis.players
    return {
        "file": name,
        "length": analysis.length,
        "ply": analysis.plies,
        "judged_as": analysis.judged_as,
        "weights": weights_in_use(),
        "players": [player_stats(analysis, i).to_json() for i in (0, 1)],
        "games": [decision_json(d, players) for d in analysis.decisions],
    }


def json_line(name: str, analysis: MatchAnalysis) -> str:
    return json.dumps(analysis_json(name, analysis), ensure_ascii=False)


def _stats_lines(s: PlayerStats) -> list[str]:
    return [
        f"  {s.name or '?'}: PR {s.pr:.1f} ({s.rating}), overall {s.overall_rate:.1f} mEMG per decision",
        f"    checker play: {s.unforced} unforced moves, {s.doubtful} doubtful, {s.bad} bad, "
        f"{s.very_bad} very bad; {s.checker_error:.3f} EMG lost ({s.checker_rate:.1f} mEMG a move)",
        f"    cube: {s.close_cube} close or actual decisions; {s.cube_error:.3f} EMG lost "
        f"({s.cube_rate:.1f} mEMG a decision)",
        f"    luck: {s.luck:+.3f} EMG",
    ]


def text_report(name: str, analysis: MatchAnalysis) -> str:
    players = analysis.players
    marked = sorted((d for d in analysis.decisions if d.mark), key=lambda d: -d.loss)
    lines = [f"{name}: match to {analysis.length}, {players[0] or '?'} vs {players[1] or '?'}, "
             f"{analysis.plies}-ply cubeful analysis as {analysis.judged_as} judges"]
    lines.append(f"Marked decisions ({len(marked)}), worst first:" if marked else "No marked decisions.")
    for d in marked:
        dice = f" {d.dice[0]}{d.dice[1]}" if d.dice else ""
        lines.append(f"  {d.mark:>8}  -{d.loss:.3f}  game {d.game} move {d.move}, {players[d.player] or '?'}"
                     f"{dice}: played {d.played}, best {d.best}")
    lines.append("Statistics:")
    for i in (0, 1):
        lines += _stats_lines(player_stats(analysis, i))
    return "\n".join(lines)
