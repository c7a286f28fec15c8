"""Commands written by one compare-and-set statement (matches/store/streams.py `append_if_at`):
one statement when the view is current, and exactly the locked path's outcome when it is not.

These run with committed transactions (`transaction=True`): the process's cache of views, which
the statement trusts and checks, is filled only on commit. A cache left behind the store stands
for another process's write (every process has its own cache).
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.rules import IllegalAction
from matches import store
from matches.services.deadlines import deadline_of
from matches.store import streams
from matches.store.events import TimedOut
from matches.store.models import Match, MatchClock
from matches.store.replay import MatchView, replay

from .helpers import SITE_CLOCK, NewTable, Table, check_stream, statements

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("contract")]


def version_seen_elsewhere(table: Table) -> int:
    """The row's version read on another connection: what is committed."""
    out: list[int] = []

    def read() -> None:
        try:
            out.append(Match.objects.get(pk=table.match_id).version)
        finally:
            connection.close()

    thread = threading.Thread(target=read)
    thread.start()
    thread.join(timeout=30)
    return out[0]


def left_behind(table: Table, version: int) -> MatchView:
    """Leave this process's cached view at `version`, as if another process had written the
    events after it."""
    view = replay(table.events()[:version], MatchView(table.match_id))
    with streams._cache_lock:
        streams._cache[table.match_id] = view
    return view


def test_a_command_on_a_current_cached_view_is_one_committed_statement(
    new_table: NewTable,
) -> None:
    table = new_table(first=0, length=3)
    played = table.play(0, "8/5 6/5")
    assert streams.cached_view(table.match_id) == played  # cached on commit
    with statements() as seen:
        rolled = table.roll(1, (6, 5))
    assert len(seen) == 1, seen
    assert seen[0].startswith("WITH moved AS (UPDATE")
    assert rolled.version == played.version + 1
    assert version_seen_elsewhere(table) == rolled.version  # no transaction left open
    assert table.types(played.version) == ["rolled"]


def test_a_command_refused_on_a_cached_view_behind_the_store_is_asked_again(
    new_table: NewTable,
) -> None:
    """On the old view it is not bob's turn; on the stored one it is: his roll goes through."""
    table = new_table(first=0, length=3)
    before = table.view().version
    played = table.play(0, "8/5 6/5")
    left_behind(table, before)
    rolled = table.roll(1, (6, 5))
    assert rolled.version == played.version + 1
    assert table.types(before) == ["moved", "rolled"]
    assert store.load_view(table.match_id) == table.view()


def test_a_client_ahead_of_the_cached_view_is_not_told_it_is_stale(new_table: NewTable) -> None:
    table = new_table(first=0, length=3)
    before = table.view().version
    played = table.play(0, "8/5 6/5")
    left_behind(table, before)
    rolled = table.roll(1, (6, 5), expected_version=played.version)
    assert rolled.version == played.version + 1


def test_a_command_legal_only_on_the_old_view_is_not_written_twice(new_table: NewTable) -> None:
    """The same play again, decided on a view from before it: legal there, so the statement
    is tried and finds the version moved; under the lock it is refused. One move stored."""
    table = new_table(first=0, length=3)
    before = table.view().version
    table.play(0, "8/5 6/5")
    left_behind(table, before)
    with statements() as seen, pytest.raises(IllegalAction):
        table.play(0, "8/5 6/5")
    assert seen[0].startswith("WITH moved AS (UPDATE")  # tried, and found the row moved
    assert any("FOR UPDATE" in sql for sql in seen[1:])  # then decided under the lock
    assert table.types(before) == ["moved"]
    check_stream(table.match_id)


def test_the_clock_row_is_written_by_the_same_statement(new_table: NewTable) -> None:
    table = new_table(first=0, length=3, clock=SITE_CLOCK)
    table.play(0, "8/5 6/5")
    with statements() as seen:
        rolled = table.roll(1, (6, 5))
    assert len(seen) == 1, seen
    clock = MatchClock.objects.get(match_id=table.match_id)
    assert (clock.version, clock.active) == (rolled.version, True)
    assert clock.deadline == deadline_of(rolled) is not None


def test_the_end_of_a_match_is_written_under_the_lock(new_table: NewTable) -> None:
    """Its ratings and early exits are decided with the row locked."""
    table = new_table(first=0, length=1)
    table.resign(0)
    with statements() as seen:
        ended = table.accept(1)
    assert ended.state is not None and ended.state.is_over
    assert not seen[0].startswith("WITH moved AS")
    assert any("FOR UPDATE" in sql for sql in seen)


def test_inside_a_transaction_the_write_waits_for_its_commit(new_table: NewTable) -> None:
    """An Idempotency-Key's record is written in the command's transaction: the statement
    joins it, and nothing is cached or committed until it commits."""
    table = new_table(first=0, length=3)
    played = table.play(0, "8/5 6/5")
    with transaction.atomic():
        rolled = table.roll(1, (6, 5))
        assert streams.cached_view(table.match_id) == played
        assert version_seen_elsewhere(table) == played.version
    assert streams.cached_view(table.match_id) == rolled
    assert version_seen_elsewhere(table) == rolled.version


def test_a_statement_that_finds_the_row_moved_returns_it_and_writes_nothing(
    new_table: NewTable,
) -> None:
    """The row as found is the stored one, field by field, and the stream is unchanged."""
    table = new_table(first=0, length=3)
    before = table.view().version
    played = table.play(0, "8/5 6/5")
    behind = left_behind(table, before)
    moved = streams.append_if_at(behind, [TimedOut(1)], actor_id=None, at=timezone.now())
    assert isinstance(moved, streams.Moved) and moved.match is not None
    stored = Match.objects.get(pk=table.match_id)
    fields = [f.attname for f in Match._meta.concrete_fields]
    assert {f: getattr(moved.match, f) for f in fields} == {f: getattr(stored, f) for f in fields}
    assert stored.version == played.version
    assert table.types(before) == ["moved"]
    assert streams.cached_view(table.match_id) is None  # forgotten: it was behind
    check_stream(table.match_id)
