"""The page's dice panel, server side: what the snapshot says about the dice, and the
page's dice messages (entered dice, phrases, the reveal) turned into controller events.

- `mode`: the match's `dice` setting (controller/dice/README.md).
- `commitment`: for verifiable dice, the whole SHA-256 commitment, its short form (the
  display's) and a QR code of it as inline SVG (segno, in the simulator's extra), so a
  player can photograph it before the match; `seed` and `phrases` once revealed.
- `entry`: whether the board waits for real dice and whether it is the opening roll
  (then the page's first row of die faces is White's die, the second Black's).
- `phrases_open`: whether the players may still give their phrases; `phrase_sides` the
  sides that may (the people: a computer gives none), `phrases_given` which gave one (the
  page acknowledges it; the words themselves are shown with the seed).
- `commitment.verified_rolls`: set when the seed was revealed while the match went on: the
  rolls verifiable by it; the rest of the match rolls ordinary dice.
- `stats`: per player, every roll they made this match (opening rolls, one die each, are
  left out) beside what fair dice give, with chi-square p-values
  (`controller/dice/fairness.py`).
"""
from __future__ import annotations

from functools import lru_cache

from controller.dice.fairness import roll_fairness
from controller.dice.secret import DiceSecret
from controller.engine.match import Match
from controller.engine.match_history import TurnRecord
from controller.events import ActionRequested, DiceEntered, DicePhraseGiven, DieChosen, Event
from controller.json_value import JsonObject
from controller.play.status import TableStatus


@lru_cache(maxsize=8)
def qr_svg(text: str) -> str:
    """A QR code of `text` as an inline SVG element (error correction M)."""
    import segno

    svg: str = segno.make(text, error="m").svg_inline(scale=3, border=2, dark="#111", light="#fff")
    return svg


def player_rolls(match: Match) -> dict[str, list[tuple[int, int]]]:
    """Each player's rolls in the match's history, opening rolls left out."""
    rolls: dict[str, list[tuple[int, int]]] = {"white": [], "black": []}
    for game in match.history:
        for action in game.actions:
            if isinstance(action, TurnRecord) and not action.opening:
                rolls[action.side].append(action.dice)
    return rolls


def dice_panel(status: TableStatus, mode: str, secret: DiceSecret | None) -> JsonObject:
    """The snapshot's `dice_panel` object (see the module docstring): the table's `status`,
    its dice `mode` and their `secret` (verifiable dice; None otherwise)."""
    m = status.match
    view: JsonObject = {
        "mode": mode,
        "entry": {"waiting": status.asking_dice, "opening": m.phase == "opening"},
        "stats": {side: roll_fairness(rolls).to_dict() for side, rolls in player_rolls(m).items()},
        "commitment": None, "phrases_open": False,
    }
    if secret is not None:
        commitment: JsonObject = {"hex": secret.commitment, "short": secret.short_commitment,
                                  "qr_svg": qr_svg(secret.commitment), "revealed": secret.revealed}
        if secret.revealed:
            commitment["seed"] = secret.seed.hex()
            commitment["phrases"] = {"white": secret.phrases[0], "black": secret.phrases[1]}
            commitment["verified_rolls"] = secret.verified_rolls
        view["commitment"] = commitment
        view["phrases_open"] = not secret.revealed and m.game == 1 and m.phase == "opening" and not any(
            isinstance(a, TurnRecord) for a in m.history[-1].actions)
        view["phrase_sides"] = [side for side in ("white", "black") if not m.settings.is_computer(side)]
        view["phrases_given"] = {"white": bool(secret.phrases[0]), "black": bool(secret.phrases[1])}
    return view


def dice_event(kind: str, side: str, payload: str, match: Match, at: float) -> Event:
    """The controller event of a page dice message: `dice` (payload "52": entered dice, for
    the opening White's die then Black's), `die` (payload "5": the first of them, chosen
    before the second), `phrase` (payload: the words), `reveal`."""
    if kind == "dice":
        return DiceEntered(side, (int(payload[0]), int(payload[1])), at)  # type: ignore[arg-type]
    if kind == "die":
        return DieChosen(int(payload), at)
    if kind == "phrase":
        return DicePhraseGiven(side, payload, at)  # type: ignore[arg-type]
    return ActionRequested(match.turn or "white", "reveal", at)
