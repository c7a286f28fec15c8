"""The clock in the store, with injected time: moves in time, a late move, the timeout command."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games.rules.errors import IllegalAction
from matches import services
from matches.errors import OutOfTime
from matches.store.dice import ScriptedDice
from matches.store.models import Match, MatchEvent

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
CLOCK = {"delay": 2, "reserve": 3, "max_move": 4, "reconnect": 60}


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def players(django_user_model: Any) -> tuple[Any, Any]:
    return (
        django_user_model.objects.create_user("ana"),
        django_user_model.objects.create_user("bob"),
    )


def start(players: tuple[Any, Any], dice: list[tuple[int, int]]) -> Any:
    """An online match with a short clock; ana wins the opening 3-1 at T0."""
    ana, bob = players
    script = ScriptedDice([(3, 1), *dice])
    view = services.match_create(user=ana, mode="online", length=1, clock=CLOCK, now=at(0))
    services.match_join(match_id=view.match_id, user=bob, now=at(0), dice=script)
    return view.match_id, script


@pytest.mark.django_db
def test_a_player_who_moves_in_time_keeps_his_reserve(players: tuple[Any, Any]) -> None:
    ana, bob = players
    match_id, script = start(players, [(6, 5)])
    view = services.match_play(match_id=match_id, user=ana, play="8/5 6/5", now=at(1.5))
    assert view.clock is not None
    assert view.clock.reserve == (3, 3)  # within the 2 s delay: nothing used
    assert view.clock.running == 1
    view = services.match_roll(match_id=match_id, user=bob, now=at(4), dice=script)
    assert view.clock.running == 1  # rolling and playing are one move
    view = services.match_play(match_id=match_id, user=bob, play="24/13", now=at(5))
    assert view.clock.reserve == (3, 1.5)  # 3.5 s used: 1.5 s past the delay
    assert view.state.winner is None


@pytest.mark.django_db
def test_a_move_after_the_deadline_is_refused_and_the_timeout_written(
    players: tuple[Any, Any],
) -> None:
    ana, _ = players
    match_id, _ = start(players, [])
    # 2 s delay + 3 s reserve, capped at 4 s: the deadline is T0 + 4 s.
    with pytest.raises(OutOfTime):
        services.match_play(match_id=match_id, user=ana, play="8/5 6/5", now=at(4.5))
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.winner, match.ended_by) == ("finished", 1, "timeout")
    last = MatchEvent.objects.filter(match_id=match_id).order_by("-seq").first()
    assert last is not None and last.type == "timed_out" and last.payload["seat"] == 0


@pytest.mark.django_db
def test_the_timeout_command_only_acts_when_time_has_run_out(players: tuple[Any, Any]) -> None:
    match_id, _ = start(players, [])
    with pytest.raises(IllegalAction, match="not out of time"):
        services.match_timeout(match_id=match_id, seat=0, now=at(3))
    with pytest.raises(IllegalAction, match="not out of time"):
        services.match_timeout(match_id=match_id, seat=1, now=at(10))  # not his move
    view = services.match_timeout(match_id=match_id, seat=0, now=at(4))
    assert view.state.winner == 1
    # A second, late run changes nothing.
    with pytest.raises(IllegalAction, match="over"):
        services.match_timeout(match_id=match_id, seat=0, now=at(20))
    assert MatchEvent.objects.filter(match_id=match_id, type="timed_out").count() == 1


@pytest.mark.django_db
def test_matches_without_a_clock_never_time_out(players: tuple[Any, Any]) -> None:
    ana, bob = players
    view = services.match_create(user=ana, mode="online", length=1, now=at(0))
    services.match_join(match_id=view.match_id, user=bob, now=at(0), dice=ScriptedDice([(3, 1)]))
    view = services.match_play(match_id=view.match_id, user=ana, play="8/5 6/5", now=at(3600))
    assert view.clock is None and not view.state.is_over
