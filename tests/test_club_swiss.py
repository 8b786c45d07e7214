"""The Swiss pairing and standings, from the Dutch system's rules and hand-worked charts
(club/tournament/swiss.py says which rules and why), not from the code."""
from __future__ import annotations

import pytest

from club.tournament.model import Pairing, Round
from club.tournament.swiss import pair_round, standings

EIGHT = [f"P{i}" for i in range(1, 9)]


def _pairs(r: Round) -> list[tuple[str, str]]:
    return [(p.white, p.black) for p in r.pairings]


def test_round_one_pairs_the_top_half_with_the_bottom_half() -> None:
    # Dutch: one score group of 8, S1 = 1..4 meets S2 = 5..8 in order; the higher seed White
    assert _pairs(pair_round(EIGHT, [], {}, "s")) == [("P1", "P5"), ("P2", "P6"), ("P3", "P7"), ("P4", "P8")]


def test_round_two_pairs_within_each_score_group() -> None:
    one = pair_round(EIGHT, [], {}, "s")
    won_by_white = {p.match_id: p.white for p in one.pairings}
    two = pair_round(EIGHT, [one], won_by_white, "s")
    # winners P1..P4 (1 point): P1 v P3, P2 v P4; losers P5..P8: P5 v P7, P6 v P8
    assert {frozenset(p) for p in _pairs(two)} == {frozenset(p) for p in
                                                    [("P1", "P3"), ("P2", "P4"), ("P5", "P7"), ("P6", "P8")]}
    assert [p.match_id for p in two.pairings] == ["sR2-1", "sR2-2", "sR2-3", "sR2-4"]


def test_an_odd_field_gives_the_bye_to_the_lowest_without_one_and_it_counts_as_a_win() -> None:
    five = ["A", "B", "C", "D", "E"]
    one = pair_round(five, [], {}, "s")
    assert one.byes == ("E",)
    assert _pairs(one) == [("A", "C"), ("B", "D")]
    two = pair_round(five, [one], {"sR1-1": "A", "sR1-2": "B"}, "s")
    # E has 1 point (the bye): the lowest without a bye is now D (0 points, seed 4)
    assert two.byes == ("D",)
    table = {s.name: s.score for s in standings(five, [one], {"sR1-1": "A", "sR1-2": "B"}, seed=1)}
    assert table == {"A": 1, "B": 1, "E": 1, "C": 0, "D": 0}


def test_no_one_meets_twice_where_a_pairing_avoids_it() -> None:
    four = ["A", "B", "C", "D"]
    one = pair_round(four, [], {}, "s")
    assert _pairs(one) == [("A", "C"), ("B", "D")]
    two = pair_round(four, [one], {"sR1-1": "A", "sR1-2": "B"}, "s")
    assert {frozenset(p) for p in _pairs(two)} == {frozenset(("A", "B")), frozenset(("C", "D"))}
    winners = {"sR1-1": "A", "sR1-2": "B",
               **{p.match_id: "A" if "A" in (p.white, p.black) else "C" for p in two.pairings}}
    # A 2, B 1, C 1, D 0: A floats down past B and C (both met) to D; B then meets C
    three = pair_round(four, [one, two], winners, "s")
    assert {frozenset(p) for p in _pairs(three)} == {frozenset(("A", "D")), frozenset(("B", "C"))}


def test_when_every_pairing_is_a_rematch_the_round_is_still_paired() -> None:
    four = ["A", "B", "C", "D"]
    rounds: list[Round] = []
    winners: dict[str, str] = {}
    for _ in range(4):  # 4 players have 3 opponents each: round 4 must repeat
        r = pair_round(four, rounds, winners, "s")
        rounds.append(r)
        winners.update({p.match_id: p.white for p in r.pairings})
    assert len(rounds[-1].pairings) == 2
    assert sorted(n for p in rounds[-1].pairings for n in (p.white, p.black)) == four


def test_a_round_is_paired_only_when_the_last_is_finished() -> None:
    one = pair_round(EIGHT, [], {}, "s")
    with pytest.raises(ValueError, match="not finished"):
        pair_round(EIGHT, [one], {"sR1-1": "P1"}, "s")


def test_buchholz_breaks_a_tie_of_scores() -> None:
    # hand-worked: A b B, C b D, E b F; then A b C, E b B, D b F
    r1 = Round(1, (Pairing("1", "A", "B"), Pairing("2", "C", "D"), Pairing("3", "E", "F")))
    r2 = Round(2, (Pairing("4", "A", "C"), Pairing("5", "E", "B"), Pairing("6", "D", "F")))
    winners = {"1": "A", "2": "C", "3": "E", "4": "A", "5": "E", "6": "D"}
    table = standings(list("ABCDEF"), [r1, r2], winners, seed=7)
    # A 2 (B 0 + C 1 = 1), E 2 (F 0 + B 0 = 0), C 1 (D 1 + A 2 = 3), D 1 (C 1 + F 0 = 1),
    # B 0 (A 2 + E 2 = 4), F 0 (E 2 + D 1 = 3)
    assert [(s.name, s.score, s.buchholz) for s in table] == [
        ("A", 2, 1), ("E", 2, 0), ("C", 1, 3), ("D", 1, 1), ("B", 0, 4), ("F", 0, 3)]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6]


def test_sonneborn_berger_breaks_a_tie_of_buchholz_and_median() -> None:
    # a round robin of 4: A b B, C b D; A b C, B b D; D b A, B b C
    rounds = [Round(1, (Pairing("1", "A", "B"), Pairing("2", "C", "D"))),
              Round(2, (Pairing("3", "A", "C"), Pairing("4", "B", "D"))),
              Round(3, (Pairing("5", "D", "A"), Pairing("6", "B", "C")))]
    winners = {"1": "A", "2": "C", "3": "A", "4": "B", "5": "D", "6": "B"}
    table = standings(list("ABCD"), rounds, winners, seed=3)
    # A and B: 2 points, Buchholz 4, median 1; A beat B (2) and C (1): SB 3, B beat D and C: 2.
    # C and D: 1 point, Buchholz 5, median 2; D beat A (2): SB 2, C beat D (1): 1.
    assert [(s.name, s.buchholz, s.median_buchholz, s.sonneborn_berger) for s in table] == [
        ("A", 4, 1, 3), ("B", 4, 1, 2), ("D", 5, 2, 2), ("C", 5, 2, 1)]


def test_the_median_drops_the_best_and_worst_opponent() -> None:
    # X met opponents of 0, 2, 2, 2 points, Y of 1, 1, 2, 2: Buchholz 6 each; without the
    # best and the worst, X's field is 2 + 2 = 4, Y's 1 + 2 = 3
    rounds = [Round(1, (Pairing("a", "X", "O0"), Pairing("b", "Y", "Q1"))),
              Round(2, (Pairing("c", "X", "O2"), Pairing("d", "Y", "R1"))),
              Round(3, (Pairing("e", "X", "P2"), Pairing("f", "Y", "S2"))),
              Round(4, (Pairing("g", "X", "T2"), Pairing("h", "Y", "U2")))]
    winners = {k: ("X" if k in "aceg" else "Y") for k in "abcdefgh"}
    # the opponents' own points come from byes (a bye is a win): Q1, R1 one each, the 2s two
    byes = [Round(5 + i, (), (name,)) for i, name in
            enumerate(["Q1", "R1", "O2", "O2", "P2", "P2", "T2", "T2", "S2", "S2", "U2", "U2"])]
    players = ["X", "Y", "O0", "Q1", "R1", "O2", "P2", "T2", "S2", "U2"]
    table = {s.name: s for s in standings(players, rounds + byes, winners, seed=0)}
    assert table["X"].buchholz == 6 and table["Y"].buchholz == 6
    assert table["X"].median_buchholz == 4 and table["Y"].median_buchholz == 3
    assert [s.name for s in standings(players, rounds + byes, winners, seed=0)][:2] == ["X", "Y"]


def test_the_lot_is_the_last_tie_break_and_is_the_same_for_the_same_seed() -> None:
    orders = {tuple(s.name for s in standings(["A", "B", "C"], [], {}, seed)) for seed in range(20)}
    assert len(orders) > 1  # the lot decides, not the registration order
    assert standings(["A", "B", "C"], [], {}, 5) == standings(["A", "B", "C"], [], {}, 5)
