"""The database itself refuses UPDATE and DELETE on match events (they are append-only).

PostgreSQL: one plpgsql function raising SQLSTATE 23000 (integrity_constraint_violation), bound
BEFORE UPDATE OR DELETE FOR EACH ROW. TRUNCATE is not a row operation and stays possible (test
database flushes use it). SQLite: BEFORE UPDATE and BEFORE DELETE triggers doing
RAISE(ABORT, ...), a constraint error. Either way Django raises django.db.IntegrityError.

Careful on SQLite: a later migration that alters matches_matchevent makes Django rebuild the table,
which drops these triggers; such a migration must run the SQLite part of this one again.
tests/store/test_event_immutability.py builds its databases from all migrations and would fail.
"""

from django.db import migrations

TABLE = "matches_matchevent"
MESSAGE = "match events are append-only"

POSTGRESQL_FORWARD = [
    f"""
    CREATE OR REPLACE FUNCTION {TABLE}_append_only() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE}: % refused on %', TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END;
    $$
    """,
    f"""
    CREATE TRIGGER {TABLE}_append_only
    BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION {TABLE}_append_only()
    """,
]
POSTGRESQL_BACKWARD = [
    f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE}",
    f"DROP FUNCTION IF EXISTS {TABLE}_append_only()",
]

SQLITE_FORWARD = [
    f"""
    CREATE TRIGGER IF NOT EXISTS {TABLE}_no_update BEFORE UPDATE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE refused on {TABLE}'); END
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS {TABLE}_no_delete BEFORE DELETE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE refused on {TABLE}'); END
    """,
]
SQLITE_BACKWARD = [
    f"DROP TRIGGER IF EXISTS {TABLE}_no_update",
    f"DROP TRIGGER IF EXISTS {TABLE}_no_delete",
]

STATEMENTS = {
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_BACKWARD),
    "sqlite": (SQLITE_FORWARD, SQLITE_BACKWARD),
}


def _run(schema_editor, direction: int) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in STATEMENTS:
        raise NotImplementedError(
            f"no append-only trigger for {vendor}: the match store supports PostgreSQL and SQLite"
        )
    for sql in STATEMENTS[vendor][direction]:
        schema_editor.execute(sql, params=None)  # params=None: '%' in the SQL is literal


def forward(apps, schema_editor) -> None:
    _run(schema_editor, 0)


def backward(apps, schema_editor) -> None:
    _run(schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
