"""The store contract: the events are the truth; everything else is rebuilt from them.

- A cold replay of every stored match (load_view(cached=False)) equals its projected `Match`
  row and the view the cache holds; every command returned the cold replay of its prefix.
- The cache is disposable: forgetting it changes nothing; a rolled-back transaction leaves no
  trace in it; a view from beyond the committed version is thrown away.
- Replay checks seq continuity and does not re-judge legality.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import transaction

from games.rules import match as rules
from games.rules.errors import IllegalAction, IllegalPlay
from games.rules.plays import Step
from matches import store
from matches.errors import OutOfTime
from matches.store import streams
from matches.store.events import MatchCreated, Moved, OpeningRolled, PlayerJoined, Rolled
from matches.store.models import Match, MatchEvent
from matches.store.replay import MatchView, ReplayError, StoredEvent, replay

from .helpers import (
    SITE_CLOCK,
    T0,
    NewTable,
    Policy,
    SeededDice,
    StoreDriver,
    Table,
    check_contract,
    check_views_are_cold_replays,
    play_random,
)

pytestmark = pytest.mark.usefixtures("contract")


class Boom(Exception):
    """Raised by a test to roll its transaction back."""


def cached(match_id: Any) -> MatchView | None:
    with streams._cache_lock:
        return streams._cache.get(match_id)


# -- a corpus of matches in every state, committed -----------------------------------------------

RANDOM = [
    # (settings, policy, games): short matches (resignations end games early), many cube
    # actions; whole games borne off are in test_commands.py, checked by the same contract
    ({"length": 1}, {"resign": 0.05, "accept": 0.9}, None),
    ({"length": 3, "cube": True}, {"double": 0.3, "take": 0.4, "resign": 0.05}, None),
    (
        {"length": 5, "cube": True, "next_game_starter": "winner", "backgammon_value": 2},
        {"double": 0.3, "take": 0.3, "resign": 0.05, "accept": 0.8},
        None,
    ),
    (
        {"length": 0, "cube": True, "jacoby": True},
        {"double": 0.3, "take": 0.3, "resign": 0.05},
        2,
    ),
]


def build_corpus(new_table: NewTable, hotseat_table: NewTable, staff: Any) -> list[Table]:
    tables = []
    for seed, (settings, policy, games) in enumerate(RANDOM, 100):
        table = new_table(source=SeededDice(seed), **settings)
        play_random(StoreDriver(table), Policy(seed, **policy), games=games)
        tables.append(table)
    waiting = new_table(join=False, length=7, cube=True)
    aborted = new_table(first=1)
    aborted.abort(staff)
    timed_out = new_table(first=0, length=3, clock=SITE_CLOCK)
    timed_out.play(0, "8/5 6/5")
    timed_out.timeout(1)
    doubled = new_table(first=0, length=0, cube=True)
    doubled.play(0, "8/5 6/5")
    doubled.double(1)
    resigning = new_table(first=1, length=5, cube=True)
    resigning.resign(1, 2)
    hotseat = hotseat_table(first=0, length=3, cube=True)
    hotseat.play(0, "8/5 6/5")
    hotseat.roll(1, (6, 6))
    tables += [waiting, aborted, timed_out, doubled, resigning, hotseat]
    return tables


@pytest.mark.django_db(transaction=True)
def test_every_stored_match_replays_to_its_projection_and_its_cached_view(
    new_table: NewTable, hotseat_table: NewTable, staff: Any
) -> None:
    tables = build_corpus(new_table, hotseat_table, staff)
    statuses = set()
    for table in tables:
        check_views_are_cold_replays(table)
    assert Match.objects.count() == len(tables)
    for match in Match.objects.all():
        cold = check_contract(match.pk)
        statuses.add(match.status)
        # every command remembered its view on commit: the cache is at the stream's head
        warm = cached(match.pk)
        assert warm is not None and warm.version == match.version
        assert warm == cold
        assert store.load_view(match.pk) == cold
        assert store.load_view(match.pk, version=match.version) == cold
    assert statuses == {"waiting", "active", "finished", "aborted"}

    # the cache is disposable: drop one view, then all of them
    some = tables[1].match_id
    store.forget(some)
    assert cached(some) is None
    assert store.load_view(some) == store.load_view(some, cached=False)
    assert cached(some) is not None  # a load outside a transaction fills it again
    store.forget()
    for match in Match.objects.all():
        assert cached(match.pk) is None
        assert store.load_view(match.pk) == check_contract(match.pk)

    # and play goes on from a rebuilt view as from a cached one
    doubled = tables[-3]
    store.forget()
    doubled.take(0)
    assert store.load_view(doubled.match_id) == store.load_view(doubled.match_id, cached=False)


@pytest.mark.django_db(transaction=True)
def test_a_cached_view_extended_by_later_events_equals_a_cold_replay(new_table: NewTable) -> None:
    """The cache holds version n; the next load reads only the events after n."""
    table = new_table(source=SeededDice(7), length=3, cube=True)
    driver = StoreDriver(table)
    policy = Policy(7, double=0.2, take=0.5)
    for _ in range(40):
        before = cached(table.match_id)
        assert before is not None
        what, seat, arg = policy.choose(driver.state)
        driver.act(what, seat, arg)
        after = cached(table.match_id)
        assert after is not None and after.version > before.version
        assert after == replay(table.events()[before.version :], before)
        assert after == store.load_view(table.match_id, cached=False)


# -- a rolled-back transaction leaves no trace --------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_command_leaves_no_trace_in_the_cache(new_table: NewTable) -> None:
    table = new_table(first=0, length=3)
    table.play(0, "8/5 6/5")
    head = table.row().version
    committed = cached(table.match_id)
    assert committed is not None and committed.version == head

    # the command succeeds inside a transaction that is then rolled back
    with pytest.raises(Boom), transaction.atomic():
        view = table.roll(1, (6, 6))
        assert view.version == head + 1
        assert cached(table.match_id) == committed  # nothing before the commit
        raise Boom
    assert cached(table.match_id) == committed
    assert table.row().version == head
    assert MatchEvent.objects.filter(match_id=table.match_id).count() == head
    assert store.load_view(table.match_id) == store.load_view(table.match_id, cached=False)

    # the same with the command's own transaction nested in an outer one (a savepoint)
    with pytest.raises(Boom), transaction.atomic():
        with transaction.atomic():
            table.roll(1, (5, 5))
        table.play(1, "13/3(2)")
        raise Boom
    assert cached(table.match_id) == committed
    assert table.row().version == head

    # a refused command changes nothing either
    with pytest.raises(IllegalAction):
        table.play(1, "24/18")
    assert cached(table.match_id) == committed

    # and the stream goes on from the committed head, without a gap
    view = table.roll(1, (2, 1))
    assert view.version == head + 1
    assert [e.payload.get("dice") for e in table.events()[head:]] == [[2, 1]]
    assert cached(table.match_id) == store.load_view(table.match_id, cached=False)


@pytest.mark.django_db(transaction=True)
def test_a_view_from_beyond_the_committed_version_is_thrown_away(new_table: NewTable) -> None:
    """Should a rolled-back view ever reach the cache, the next command (which knows the
    committed version from the locked row) throws it away instead of building on it."""
    table = new_table(first=0, length=3)
    table.play(0, "8/5 6/5")
    head = table.row().version
    with pytest.raises(Boom), transaction.atomic():
        ghost = table.roll(1, (6, 6))
        raise Boom
    streams._remember(table.match_id, ghost)  # simulate the leak
    assert cached(table.match_id) == ghost
    assert store.load_view(table.match_id, version=head) == store.load_view(
        table.match_id, cached=False
    )
    streams._remember(table.match_id, ghost)
    view = table.roll(1, (2, 1))  # decided on the committed state, not on the ghost's 6-6
    assert view.version == head + 1
    assert view.state is not None and str(view.state.dice) == "21"
    assert cached(table.match_id) == store.load_view(table.match_id, cached=False)


@pytest.mark.django_db(transaction=True)
def test_a_late_move_is_refused_but_its_timeout_is_committed_and_cached(
    new_table: NewTable,
) -> None:
    """The command raises OutOfTime after its transaction committed the timeout: the cache
    follows the commit, not the exception."""
    table = new_table(first=0, length=3, clock=SITE_CLOCK)
    head = table.row().version
    table.clock.now += dt.timedelta(seconds=61)
    with pytest.raises(OutOfTime) as caught:
        table.play(0, "8/5 6/5")
    assert caught.value.seat == 0
    assert table.types(head) == ["timed_out"]
    row = table.row()
    assert (row.status, row.winner, row.ended_by, row.version) == (
        "finished",
        1,
        "timeout",
        head + 1,
    )
    warm = cached(table.match_id)
    assert warm is not None and warm == store.load_view(table.match_id, cached=False)


@pytest.mark.django_db(transaction=True)
def test_the_cache_keeps_the_latest_views_only(
    new_table: NewTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "_CACHE_SIZE", 2)
    store.forget()
    tables = [new_table(first=0) for _ in range(3)]
    assert [cached(t.match_id) is not None for t in tables] == [False, True, True]
    for table in tables:
        assert store.load_view(table.match_id) == store.load_view(table.match_id, cached=False)
    assert [cached(t.match_id) is not None for t in tables] == [False, True, True]


# -- replay itself (no database) ----------------------------------------------------------------


def stream(*events: Any) -> list[StoredEvent]:
    at = T0
    out = []
    for seq, event in enumerate(events, 1):
        at += dt.timedelta(seconds=1)
        out.append(StoredEvent(seq, event.type, event.to_payload(), None, at))
    return out


BASIC = stream(
    MatchCreated(3, False, True, False, 3, "opening_roll", "online"),
    PlayerJoined(0, 1, "ana"),
    PlayerJoined(1, 2, "bob"),
    OpeningRolled(3, 1),
    Moved(0, [[8, 5, 0], [6, 5, 0]], "8/5 6/5"),
    Rolled(1, [2, 1]),
)


def test_replay_checks_seq_continuity() -> None:
    assert replay(BASIC).version == 6
    gap = [*BASIC[:3], *BASIC[4:]]
    with pytest.raises(ReplayError, match="gap"):
        replay(gap)
    duplicate = [*BASIC[:4], BASIC[3], *BASIC[4:]]
    with pytest.raises(ReplayError):
        replay(duplicate)
    with pytest.raises(ReplayError):
        replay(BASIC[2:], replay(BASIC[:3]))  # seq 3 again after version 3


def test_replay_refuses_a_stream_it_cannot_read() -> None:
    with pytest.raises(ReplayError, match="nothing to apply to"):
        replay(stream(OpeningRolled(3, 1)))  # no match_created first
    future = StoredEvent(1, "match_created", {**BASIC[0].payload, "v": 2}, None, T0)
    with pytest.raises(ValueError, match="schema version 2"):
        replay([future])


def test_replay_trusts_the_events_it_is_given() -> None:
    """Legality is judged when a command is decided, not on replay: a move the dice do not
    allow still replays (it could only come from a broken writer)."""
    forged = stream(*(s.event for s in BASIC[:4]), Moved(0, [[24, 18, 0]], "24/18"))
    view = replay(forged)
    assert view.state is not None and view.state.board.checkers(18) == 1
    before = replay(BASIC[:4]).state
    assert before is not None
    with pytest.raises(IllegalPlay):
        rules.apply(before, rules.Move(0, (Step(24, 18),)))


def test_replay_in_any_split_equals_one_replay() -> None:
    """What the cache relies on: replay(tail, replay(head)) == replay(head + tail)."""
    whole = replay(BASIC)
    for k in range(len(BASIC) + 1):
        assert replay(BASIC[k:], replay(BASIC[:k])) == whole


def test_a_view_records_times_from_the_events() -> None:
    view = replay(BASIC)
    assert view.created_at == BASIC[0].at
    assert view.started_at == BASIC[2].at  # the second seat filled
    assert view.last_at == BASIC[-1].at
    assert replay(BASIC[:5]).turn_started_at == BASIC[4].at  # bob got the turn with ana's move
    assert view.finished_at is None
    assert view.moves == 1


def test_a_match_created_before_long_nardy_existed_is_tavla() -> None:
    """Streams written before the `game` setting have no such field: they replay as tavla."""
    from matches.store.events import event_from_payload

    old = {
        "v": 1,
        "length": 3,
        "cube": False,
        "crawford": True,
        "jacoby": False,
        "backgammon_value": 3,
        "next_game_starter": "opening_roll",
        "mode": "online",
        "clock": None,
        "computer_level": "",
    }
    created = event_from_payload("match_created", old)
    assert isinstance(created, MatchCreated)
    assert created.game == "tavla"
    assert created.settings().game == rules.Variant.TAVLA
