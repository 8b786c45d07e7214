"""The match clocks: the seeds' timer and the tournament clock, driven by given times."""
from __future__ import annotations

import pytest

from controller.engine.clock import (
    SeedsTimer,
    TournamentClock,
    clock_from_dict,
    make_clock,
)


def test_timer_action_time_runs_before_the_bank() -> None:
    t = SeedsTimer().begin("white", 100.0)
    r = t.reading(110.0)
    assert r.running == "white"
    assert r.white.allowance == pytest.approx(5.0)
    assert r.white.bank == pytest.approx(20.0)
    r = t.reading(120.0)  # 15 s used, 5 s of bank
    assert r.white.allowance == 0.0
    assert r.white.bank == pytest.approx(15.0)
    assert r.black.bank == pytest.approx(20.0) and r.black.allowance == 0.0


def test_timer_bank_grows_by_unused_share_after_a_move() -> None:
    t = SeedsTimer().begin("white", 0.0).finish(3.0, moved=True)  # 12 of 15 s unused
    assert t.banks[0] == pytest.approx(24.0)
    assert t.running is None
    # a roll is an action too but does not grow the bank
    t2 = SeedsTimer().begin("white", 0.0).begin("white", 3.0)
    assert t2.banks[0] == pytest.approx(20.0)


def test_timer_bank_is_capped_at_two_minutes() -> None:
    t = SeedsTimer((119.0, 20.0))
    t = t.begin("white", 0.0).finish(0.0, moved=True)
    assert t.banks[0] == pytest.approx(120.0)


def test_timer_slow_move_spends_bank_and_gains_nothing() -> None:
    t = SeedsTimer().begin("black", 0.0).finish(25.0, moved=True)
    assert t.banks == pytest.approx((20.0, 10.0))


def test_timer_warns_near_zero_and_expires() -> None:
    t = SeedsTimer().begin("white", 0.0)
    assert not t.reading(20.0).warning  # bank 15
    assert t.reading(25.0).warning  # bank 10
    assert t.expired(34.9) is None
    assert t.expires_at() == pytest.approx(35.0)
    assert t.expired(35.0) == "white"
    assert t.reading(40.0).white.bank == 0.0
    assert t.reading(40.0).expired == "white"


def test_timer_does_not_warn_while_the_action_time_runs() -> None:
    t = SeedsTimer((5.0, 20.0)).begin("white", 0.0)
    assert not t.reading(10.0).warning
    assert t.reading(15.5).warning


def test_tournament_reserve_per_match_point_less_points_scored() -> None:
    assert TournamentClock.new(7).reserves == (840.0, 840.0)
    assert TournamentClock.new(7, (3, 2)).reserves == (540.0, 540.0)
    assert TournamentClock.new(1).reserves == (120.0, 120.0)
    assert TournamentClock.new(7, (3, 2), minutes=20).reserves == (1200.0, 1200.0)  # a director's choice


def test_tournament_delay_then_reserve_and_hits() -> None:
    c = TournamentClock.new(1).begin("white", 0.0)
    r = c.reading(5.0)
    assert r.white.allowance == pytest.approx(7.0) and r.white.bank == pytest.approx(120.0)
    # rolling is not a clock hit: the same side keeps its running delay
    assert c.begin("white", 5.0) is c
    c = c.begin("black", 20.0)  # white hits: 8 s of reserve used
    assert c.reserves == pytest.approx((112.0, 120.0))
    assert c.reading(21.0).black.allowance == pytest.approx(11.0)
    c = c.begin("white", 22.0)  # within the delay: nothing spent
    assert c.reserves == pytest.approx((112.0, 120.0))


def test_tournament_out_of_reserve() -> None:
    c = TournamentClock((30.0, 30.0)).begin("black", 10.0)
    assert c.expires_at() == pytest.approx(52.0)
    assert c.expired(51.0) is None
    assert c.expired(52.0) == "black"
    assert c.reading(45.0).warning  # 7 s left


def test_finish_stops_the_clock() -> None:
    c = TournamentClock((30.0, 30.0)).begin("black", 0.0).finish(20.0)
    assert c.running is None and c.expires_at() is None
    assert c.expired(10_000.0) is None
    assert c.reserves == pytest.approx((30.0, 22.0))


def test_time_may_not_go_backwards() -> None:
    with pytest.raises(ValueError):
        SeedsTimer().begin("white", 10.0).reading(5.0)


def test_make_clock_and_round_trip() -> None:
    assert make_clock("off", 5) is None
    with pytest.raises(ValueError):
        make_clock("blitz", 5)
    for clock in (SeedsTimer((12.5, 30.0), "black", 7.25), TournamentClock((100.0, 90.0), "white", 3.0)):
        assert clock_from_dict(clock.to_dict()) == clock
    assert clock_from_dict(None) is None
    with pytest.raises(ValueError):
        clock_from_dict({"mode": "x", "since": 0})


def test_restart_moves_the_time_origin_without_charging_anyone() -> None:
    t = SeedsTimer((18.0, 20.0)).begin("white", 500.0).restart(3.0)
    assert t.running == "white" and t.since == 3.0 and t.banks == (18.0, 20.0)
    c = TournamentClock((100.0, 90.0), "black", 800.0).restart(1.0)
    assert c.reading(2.0).black.allowance == pytest.approx(11.0)
