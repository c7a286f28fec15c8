"""The clock with injected time: delay not banked, reserve draining, the 60-second cap."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from games.rules.clock import SITE, SITE_CLOCK, Clock, ClockSettings
from games.rules.errors import IllegalAction, InvalidSettings

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def site_clock() -> Clock:
    return Clock.new(ClockSettings.from_json(SITE))


def test_the_site_preset_is_12s_delay_2min_reserve_60s_cap() -> None:
    assert ClockSettings.from_json({}) == ClockSettings(12, 120, 60, 60)
    assert ClockSettings(delay=12, reserve=120, max_move=60, reconnect=60) == SITE_CLOCK
    assert SITE == {"delay": 12, "reserve": 120, "max_move": 60, "reconnect": 60}


def test_a_move_within_the_delay_costs_no_reserve_and_unused_delay_is_not_banked() -> None:
    clock = site_clock().switch(0, at(0)).switch(1, at(5))
    assert clock.reserve == (120, 120)
    # Player 0's next move starts with a fresh 12 s delay, not 12 + 7.
    clock = clock.switch(0, at(10))
    assert clock.deadline() == at(10 + 60)  # 12 s delay + 120 s reserve, capped at 60 s
    assert clock.remaining(at(10))[0] == {"delay": 12, "reserve": 120}


def test_time_past_the_delay_drains_the_reserve() -> None:
    clock = site_clock().switch(0, at(0)).switch(1, at(30))
    assert clock.reserve == (102, 120)
    assert clock.running == 1 and clock.since == at(30)


def test_remaining_counts_down_delay_then_reserve() -> None:
    clock = site_clock().switch(0, at(0))
    assert clock.remaining(at(4))[0] == {"delay": 8, "reserve": 120}
    assert clock.remaining(at(20))[0] == {"delay": 0, "reserve": 112}
    assert clock.remaining(at(20))[1] == {"delay": 0, "reserve": 120}


def test_no_move_may_take_longer_than_the_cap() -> None:
    clock = site_clock().switch(0, at(0))
    assert clock.deadline() == at(60)
    assert clock.out_of_time(at(59.9)) is None
    assert clock.out_of_time(at(60)) == 0


def test_a_small_reserve_ends_the_move_before_the_cap() -> None:
    clock = Clock(ClockSettings(12, 120, 60, 60), (5.0, 120.0)).switch(0, at(0))
    assert clock.deadline() == at(17)
    assert clock.out_of_time(at(17)) == 0


def test_the_reserve_never_goes_below_zero() -> None:
    clock = Clock(ClockSettings(2, 3, 60, 60), (3.0, 3.0)).switch(1, at(0)).switch(0, at(10))
    assert clock.reserve == (3.0, 0.0)


def test_switching_to_the_running_player_keeps_his_move_going() -> None:
    clock = site_clock().switch(0, at(0))
    assert clock.switch(0, at(8)) is clock  # he rolled; now he plays, same move


def test_stopping_charges_the_running_move() -> None:
    clock = site_clock().switch(1, at(0)).switch(None, at(20))
    assert clock.reserve == (120, 112)
    assert clock.running is None and clock.deadline() is None


def test_custom_clocks_are_checked() -> None:
    assert ClockSettings.from_json({"delay": 1, "reserve": 2, "max_move": 3}).reconnect == 60
    for bad, field in (
        ({"delay": -1}, "delay"),
        ({"reserve": "x"}, "reserve"),
        ({"max_move": 0}, "max_move"),
        ({"speed": 3}, "speed"),
        ({"reconnect": True}, "reconnect"),
        ({"delay": float("inf")}, "delay"),
        ([12], "clock"),
    ):
        with pytest.raises(InvalidSettings) as refused:
            ClockSettings.from_json(bad)
        assert refused.value.field == field and refused.value.code == "invalid_settings"
        assert not isinstance(refused.value, IllegalAction)


@pytest.mark.parametrize("field", ["delay", "reserve", "max_move", "reconnect"])
def test_clock_settings_are_whole_seconds(field: str) -> None:
    with pytest.raises(InvalidSettings, match="whole seconds") as refused:
        ClockSettings.from_json({field: 1.5})
    assert refused.value.field == field
    assert ClockSettings.from_json({field: 2.0}) == replace(SITE_CLOCK, **{field: 2})


def test_a_recorded_clock_is_read_without_judging_it() -> None:
    recorded = {"delay": 12, "reserve": 120, "max_move": 60, "reconnect": 1.5}
    assert ClockSettings.from_json(recorded, check=False).reconnect == 1.5
