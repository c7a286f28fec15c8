"""A match's row says how it ended in the rules' word: `bearoff` for a game played out, which
the row called `points` before (issue 26, "one word for each fact")."""

from typing import Any

from django.db import migrations, models


def _rename(old: str, new: str) -> Any:
    def run(apps: Any, schema_editor: Any) -> None:
        Match = apps.get_model("matches", "Match")
        Match.objects.using(schema_editor.connection.alias).filter(ended_by=old).update(
            ended_by=new
        )

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0012_analysis"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="ended_by",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Not ended"),
                    ("bearoff", "Borne off"),
                    ("resign", "Resignation"),
                    ("drop", "Dropped double"),
                    ("timeout", "Time out"),
                    ("forfeit", "Forfeit"),
                    ("abort", "Aborted"),
                ],
                default="",
                max_length=16,
            ),
        ),
        migrations.RunPython(_rename("points", "bearoff"), _rename("bearoff", "points")),
    ]
