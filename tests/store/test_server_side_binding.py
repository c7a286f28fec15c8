"""PostgreSQL connections bind parameters on the server and prepare the statements they run
often (`DATABASE_SERVER_SIDE_BINDING`, Django's `server_side_binding`;
`DATABASE_PREPARE_THRESHOLD`, psycopg's `prepare_threshold`, which Django turns off;
docs/performance.md, 2026-12-04, fifth session): a state read's row read, run on a
connection again and again, is parsed and planned there once, and no value is quoted into
SQL by the client."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from matches.store import rows
from tavla_project.settings import database_from_url

from .helpers import NewTable

POSTGRES = "postgres://postgres@127.0.0.1:5432/tavla"


def test_postgresql_binds_on_the_server_and_prepares_unless_told_not_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DATABASE_SERVER_SIDE_BINDING", raising=False)
    monkeypatch.delenv("DATABASE_PREPARE_THRESHOLD", raising=False)
    options = database_from_url(POSTGRES)["OPTIONS"]
    assert options["server_side_binding"] is True
    assert options["prepare_threshold"] == 5
    monkeypatch.setenv("DATABASE_PREPARE_THRESHOLD", "off")  # an old PgBouncer
    assert database_from_url(POSTGRES)["OPTIONS"]["prepare_threshold"] is None
    monkeypatch.setenv("DATABASE_PREPARE_THRESHOLD", "2")
    assert database_from_url(POSTGRES)["OPTIONS"]["prepare_threshold"] == 2
    monkeypatch.setenv("DATABASE_SERVER_SIDE_BINDING", "false")
    assert database_from_url(POSTGRES)["OPTIONS"]["server_side_binding"] is False


def test_sqlite_is_left_as_it_is(tmp_path: object) -> None:
    options = database_from_url(f"sqlite:///{tmp_path}/db.sqlite3")["OPTIONS"]
    assert "server_side_binding" not in options
    assert "prepare_threshold" not in options


@pytest.mark.django_db
def test_the_row_read_is_prepared_once_on_its_connection(new_table: NewTable) -> None:
    table = new_table(first=0, length=3)
    with connection.cursor() as cursor:
        # a psycopg Cursor sends the values apart; a ClientCursor would quote them in
        assert isinstance(cursor.cursor, psycopg.Cursor)
        assert not isinstance(cursor.cursor, psycopg.ClientCursor)
    threshold = connection.connection.prepare_threshold
    assert threshold == 5  # the settings' (Django's own default would be None: never)
    for _ in range(threshold + 2):  # prepared on the run after `threshold` runs
        match = rows.fetch_match(table.match_id)
        assert match is not None and match.pk == table.match_id
    read = rows._read_sql(connection.alias).replace("%s", "$1")
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [text for (text,) in cursor.fetchall()]
    assert read in prepared
