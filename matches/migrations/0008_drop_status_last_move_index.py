"""The projection's UPDATE becomes a heap-only tuple (HOT) update.

Every command sets `last_move_at`; while an index held it, each UPDATE of a Match row added an
entry to all six of the table's indexes. No query uses that index any more (the clock sweeper
reads matches_matchclock). Without it no index holds a column a command changes, and
PostgreSQL updates the row in place in its page when there is room: a fill factor of 85 leaves
room on every page written from now on.
"""

from django.db import migrations


def fill_factor(apps, schema_editor, value: int | None) -> None:  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor != "postgresql":
        return
    table = schema_editor.quote_name("matches_match")
    if value is None:
        schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")
    else:
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {int(value)})")


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_ratings_seeks"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="match",
            name="match_status_last_move",
        ),
        migrations.RunPython(
            lambda apps, se: fill_factor(apps, se, 85),
            lambda apps, se: fill_factor(apps, se, None),
        ),
    ]
