"""The projection's UPDATE is a heap-only tuple (HOT) update on PostgreSQL: no index of the
Match table holds a column that a command changes (migration 0008), so PostgreSQL adds no
index entries for it. Counted by PostgreSQL itself within the test's transaction."""

from __future__ import annotations

import pytest
from django.db import connection

from matches.store.models import Match

from .helpers import NewTable

# The columns the projection may change on an ordinary roll or play (streams.projection).
EVERY_COMMAND = {"version", "turn", "last_move_at", "score0", "score1", "started_at"}

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("contract")]


def test_no_index_holds_a_column_a_command_changes() -> None:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Match._meta.db_table)
    indexed = {column for c in constraints.values() if c["index"] for column in c["columns"]}
    assert indexed, "the introspection found no index at all"
    assert not indexed & EVERY_COMMAND, indexed & EVERY_COMMAND


def hot_and_all_updates() -> tuple[int, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_hot_updated(%s::regclass),"
            " pg_stat_get_xact_tuples_updated(%s::regclass)",
            [Match._meta.db_table] * 2,
        )
        hot, every = cursor.fetchone()
    return int(hot), int(every)


def test_rolls_and_plays_update_the_row_in_place(new_table: NewTable) -> None:
    table = new_table(first=0)
    hot0, every0 = hot_and_all_updates()
    table.play(0, "8/5 6/5")
    table.roll(1, (2, 5))
    table.play(1, "13/11 13/8")
    hot, every = hot_and_all_updates()
    assert every - every0 == 3
    assert hot - hot0 == 3  # each a HOT update: no index entry added
