"""Tournaments (issue 29): the Tournament row, its append-only event stream (the database
refuses UPDATE and DELETE on it with a trigger, as migration 0002 does for match events) and
the link from a tournament's matches to their boards."""

import uuid

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

TABLE = "matches_tournamentevent"
MESSAGE = "tournament events are append-only"
STATEMENTS = {
    "postgresql": (
        [
            f"""CREATE OR REPLACE FUNCTION {TABLE}_append_only() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '{MESSAGE}: % refused on %', TG_OP, TG_TABLE_NAME
                    USING ERRCODE = 'integrity_constraint_violation';
            END;
            $$""",
            f"""CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE}
            FOR EACH ROW EXECUTE FUNCTION {TABLE}_append_only()""",
        ],
        [
            f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE}",
            f"DROP FUNCTION IF EXISTS {TABLE}_append_only()",
        ],
    ),
    "sqlite": (
        [
            f"""CREATE TRIGGER IF NOT EXISTS {TABLE}_no_update BEFORE UPDATE ON {TABLE}
            BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE refused on {TABLE}'); END""",
            f"""CREATE TRIGGER IF NOT EXISTS {TABLE}_no_delete BEFORE DELETE ON {TABLE}
            BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE refused on {TABLE}'); END""",
        ],
        [f"DROP TRIGGER IF EXISTS {TABLE}_no_update", f"DROP TRIGGER IF EXISTS {TABLE}_no_delete"],
    ),
}


def _run(schema_editor, direction: int) -> None:
    for sql in STATEMENTS[schema_editor.connection.vendor][direction]:
        schema_editor.execute(sql, params=None)


def forward(apps, schema_editor) -> None:
    _run(schema_editor, 0)


def backward(apps, schema_editor) -> None:
    _run(schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0009_outbox_notice"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Tournament",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("name", models.CharField(max_length=100)),
                ("game", models.CharField(max_length=16)),
                ("format", models.CharField(max_length=16)),
                (
                    "settings",
                    models.JSONField(
                        help_text="The settings as checked at creation (its first event)."
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("upcoming", "Upcoming"),
                            ("running", "Running"),
                            ("finished", "Finished"),
                            ("cancelled", "Cancelled"),
                        ],
                        default="upcoming",
                        max_length=16,
                    ),
                ),
                (
                    "version",
                    models.PositiveIntegerField(default=0, help_text="seq of the last event."),
                ),
                ("starts_at", models.DateTimeField()),
                ("rounds_paired", models.PositiveSmallIntegerField(default=0)),
                (
                    "players",
                    models.PositiveIntegerField(default=0, help_text="Signed up (and not left)."),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournaments_created",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "winner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournaments_won",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ("starts_at", "created_at"),
            },
        ),
        migrations.CreateModel(
            name="TournamentEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seq", models.PositiveIntegerField()),
                ("type", models.CharField(max_length=32)),
                ("payload", models.JSONField(default=dict)),
                ("created_at", models.DateTimeField()),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournament_events",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="events",
                        to="matches.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ("tournament", "seq"),
                "base_manager_name": "objects",
            },
        ),
        migrations.CreateModel(
            name="TournamentMatch",
            fields=[
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        primary_key=True,
                        related_name="tournament_board",
                        serialize=False,
                        to="matches.match",
                    ),
                ),
                ("round", models.PositiveSmallIntegerField()),
                ("board", models.PositiveIntegerField()),
                ("recorded", models.BooleanField(default=False)),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="boards",
                        to="matches.tournament",
                    ),
                ),
            ],
        ),
        migrations.AddIndex(
            model_name="tournament",
            index=models.Index(fields=["status", "starts_at"], name="tournament_status_start"),
        ),
        migrations.AddConstraint(
            model_name="tournamentevent",
            constraint=models.UniqueConstraint(
                fields=("tournament", "seq"), name="tournamentevent_seq_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="tournamentevent",
            constraint=models.CheckConstraint(
                condition=models.Q(("seq__gte", 1)), name="tournamentevent_seq_positive"
            ),
        ),
        migrations.AddIndex(
            model_name="tournamentmatch",
            index=models.Index(
                condition=models.Q(("recorded", False)),
                fields=["tournament"],
                name="tournamentmatch_owed",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournamentmatch",
            constraint=models.UniqueConstraint(
                fields=("tournament", "round", "board"), name="tournamentmatch_board_unique"
            ),
        ),
        migrations.RunPython(forward, backward, elidable=False),
    ]
