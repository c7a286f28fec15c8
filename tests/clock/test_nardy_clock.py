"""Long nardy under the site's clock rules, enforced by the real Celery worker and beat
(tests/clock/test_worker_clock.py's cluster): a player who does not move in time loses the
match on time, and a player who leaves forfeits after the reconnect grace."""

from __future__ import annotations

import time
from typing import Any

import pytest

from matches import services
from matches.services import presence
from matches.store.models import Match
from tests.servers import wait_for

from .test_worker_clock import cluster, count, ended, players  # noqa: F401

pytestmark = [pytest.mark.django_db(transaction=True)]


def nardy_match(players: tuple[Any, Any], clock: dict[str, float]) -> Any:  # noqa: F811
    ana, bob = players
    view = services.match_create(user=ana, mode="online", game="long-nardy", length=3, clock=clock)
    view = services.match_join(match_id=view.match_id, user=bob)
    assert view.state is not None and view.state.game.has_bar is False
    return view


def test_a_long_nardy_player_who_does_not_move_loses_on_time(cluster, players) -> None:  # noqa: F811
    view = nardy_match(players, {"delay": 1, "reserve": 1, "max_move": 2, "reconnect": 60})
    late = view.clock.running
    wait_for(lambda: ended(view.match_id), 15, "the worker's timeout", 0.2)
    match = Match.objects.get(pk=view.match_id)
    assert match.ended_by == Match.EndedBy.TIMEOUT and match.winner == 1 - late
    assert count(view.match_id, "timed_out") == 1


def test_a_long_nardy_player_who_leaves_forfeits(cluster, players) -> None:  # noqa: F811
    view = nardy_match(players, {"delay": 30, "reserve": 30, "max_move": 30, "reconnect": 2})
    here = view.clock.running  # keeps coming back; the other one is gone
    match = Match.objects.get(pk=view.match_id)
    by_seat = dict(zip((0, 1), players, strict=True))
    end = time.monotonic() + 10
    while time.monotonic() < end and not ended(view.match_id):
        presence.touch(match, by_seat[here])
        time.sleep(0.3)
    assert ended(view.match_id) == "forfeit"
    assert Match.objects.get(pk=view.match_id).winner == here
    assert count(view.match_id, "forfeited") == 1
