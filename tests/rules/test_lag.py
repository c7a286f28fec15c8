"""The lag tracker (after lichess's LagTracker), pure: quota, growth, cap, bound per move."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.rules import Clock, ClockSettings, LagTracker
from games.rules.clock import LAG_MAX_PER_MOVE, LAG_QUOTA_GAIN, LAG_QUOTA_MAX, LAG_QUOTA_START

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
SETTINGS = ClockSettings(delay=2, reserve=3, max_move=4, reconnect=60)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_the_figures_are_the_documented_ones() -> None:
    assert (LAG_QUOTA_START, LAG_QUOTA_GAIN, LAG_QUOTA_MAX, LAG_MAX_PER_MOVE) == (3, 1, 7, 2)


def test_lag_is_compensated_up_to_the_quota_and_the_bound_per_move() -> None:
    tracker = LagTracker()
    assert tracker.compensation(0.4) == 0.4
    assert tracker.compensation(5) == LAG_MAX_PER_MOVE  # the bound per move
    assert tracker.compensation(-1) == 0  # a negative report is nothing
    assert tracker.compensation(1.5, credit=1.0) == 1.0  # the move already had 1 s
    assert LagTracker(quota=0.3).compensation(1.5) == 0.3  # the quota


def test_the_quota_is_spent_grows_each_move_and_is_capped() -> None:
    tracker = LagTracker().granted(2)
    assert (tracker.quota, tracker.armed) == (1, True)
    tracker = tracker.moved()
    assert tracker.quota == 2
    for _ in range(20):
        tracker = tracker.moved()
    assert tracker.quota == LAG_QUOTA_MAX


def test_no_grace_until_the_client_reports_lag() -> None:
    assert LagTracker().grace() == 0
    assert LagTracker(armed=True).grace() == LAG_MAX_PER_MOVE
    assert LagTracker(quota=0.5, armed=True).grace() == 0.5
    assert LagTracker(armed=True).grace(credit=1.5) == 0.5


def test_the_clock_charges_the_move_less_the_compensation() -> None:
    clock = Clock.new(SETTINGS).switch(0, at(0))
    comp = clock.compensation(0.8)
    assert comp == 0.8
    clock = clock.credited(comp)
    assert clock.deadline() == at(4.8)  # min(2 + 3, 4) + 0.8
    assert clock.timeout_at() == at(6)  # + what the quota could still cover: 1.2 s more
    clock = clock.switch(1, at(3.8))  # 3.8 s taken, 0.8 s of it lag: 1 s past the delay
    assert clock.reserve == (2, 3)
    assert clock.lag[0].quota == LAG_QUOTA_START - 0.8 + LAG_QUOTA_GAIN
    assert clock.credit == 0 and clock.lag[1] == LagTracker()


def test_a_command_is_late_only_past_what_its_lag_earns() -> None:
    clock = Clock.new(SETTINGS).switch(0, at(0))
    assert clock.out_of_time(at(4.5), lag=0.6) is None  # 0.5 s late, 0.6 s of lag
    assert clock.out_of_time(at(4.5), lag=0.4) == 0
    assert clock.out_of_time(at(4.5), lag=0) == 0
    assert clock.out_of_time(at(4.5)) == 0  # never reported: no grace
    armed = clock.credited(0)
    assert armed.out_of_time(at(5.9)) is None  # the grace: the most a report could earn
    assert armed.out_of_time(at(6)) == 0
    assert armed.out_of_time(at(6.5), lag=9) == 0  # never more than the bound


def test_without_lag_the_clock_is_unchanged() -> None:
    clock = Clock.new(SETTINGS).switch(0, at(0))
    assert clock.deadline() == clock.timeout_at() == at(4)
    assert clock.switch(1, at(3)).reserve == (2, 3)
