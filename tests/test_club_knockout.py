"""The knockout with its consolation bracket, from the rules club directors run it by
(standard seeding, byes to the top seeds, first-round losers play on), hand-worked."""
from __future__ import annotations

import pytest

from club.tournament.knockout import knockout, knockout_round, places, seed_positions

EIGHT = [f"S{i}" for i in range(1, 9)]


def _pairs(seeds: list[str], winners: dict[str, str], number: int) -> list[tuple[str, str]]:
    return [(p.white, p.black) for p in knockout_round(seeds, winners, "k", number).pairings]


def test_seeds_are_placed_so_that_the_top_two_meet_only_in_the_final() -> None:
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_byes_go_to_the_top_seeds_when_the_field_is_not_a_power_of_two() -> None:
    six = EIGHT[:6]
    first = knockout_round(six, {}, "k", 1)
    assert first.byes == ("S1", "S2")
    assert [(p.white, p.black) for p in first.pairings] == [("S4", "S5"), ("S3", "S6")]


def test_eight_players_play_three_rounds_with_the_first_round_losers_in_the_consolation() -> None:
    winners: dict[str, str] = {}
    assert _pairs(EIGHT, winners, 1) == [("S1", "S8"), ("S4", "S5"), ("S2", "S7"), ("S3", "S6")]
    for p in knockout_round(EIGHT, winners, "k", 1).pairings:
        winners[p.match_id] = p.black if p.white == "S4" else p.white  # S5 beats S4
    # main: S1 v S5, S2 v S3; consolation of S4, S6, S7, S8 seeded 1..4: S4 v S8, S6 v S7
    assert _pairs(EIGHT, winners, 2) == [("S1", "S5"), ("S2", "S3"), ("S4", "S8"), ("S6", "S7")]
    for p in knockout_round(EIGHT, winners, "k", 2).pairings:
        winners[p.match_id] = p.white
    assert _pairs(EIGHT, winners, 3) == [("S1", "S2"), ("S4", "S6")]
    final = knockout_round(EIGHT, winners, "k", 3).pairings
    winners.update({final[0].match_id: "S2", final[1].match_id: "S6"})
    with pytest.raises(ValueError, match="no round 4"):
        knockout_round(EIGHT, winners, "k", 4)
    ko = knockout(EIGHT, winners, "k")
    assert ko.main.champion == "S2" and ko.consolation is not None and ko.consolation.champion == "S6"
    assert places(EIGHT, winners, "k") == [("1", "S2"), ("2", "S1"), ("3-4", "S3"), ("3-4", "S5"),
                                           ("5-8", "S4"), ("5-8", "S6"), ("5-8", "S7"), ("5-8", "S8")]


def test_a_player_with_a_bye_who_then_loses_is_not_in_the_consolation() -> None:
    five = EIGHT[:5]
    first = knockout_round(five, {}, "k", 1)
    assert [(p.white, p.black) for p in first.pairings] == [("S4", "S5")]
    assert first.byes == ("S1", "S2", "S3")
    winners = {first.pairings[0].match_id: "S4"}
    # one first-round loser: no consolation bracket; round 2 is the main bracket's alone
    assert _pairs(five, winners, 2) == [("S1", "S4"), ("S2", "S3")]
    assert knockout(five, winners, "k").consolation is None


def test_the_next_round_waits_for_every_result() -> None:
    with pytest.raises(ValueError):
        knockout_round(EIGHT, {"kMR1-1": "S1"}, "k", 2)
