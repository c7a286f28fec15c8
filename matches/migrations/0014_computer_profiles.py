"""Every account of the site's computer has its profile (kind computer), as
PlayerProfile.computer_user makes it: the ones made before without one get theirs (issue 26,
"what kind an account is, one place"). Going back leaves them: a profile is harmless there."""

from typing import Any

from django.conf import settings
from django.db import migrations

PREFIX = "computer-"  # PlayerProfile.COMPUTER_PREFIX when this was written


def add_profiles(apps: Any, schema_editor: Any) -> None:
    alias = schema_editor.connection.alias
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile = apps.get_model("matches", "PlayerProfile")
    missing = User.objects.using(alias).filter(
        username__startswith=PREFIX, tavla_profile__isnull=True
    )
    Profile.objects.using(alias).bulk_create(
        Profile(
            user=user,
            kind="computer",
            display_name=f"Computer ({user.username.removeprefix(PREFIX)})",
        )
        for user in missing
    )


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0013_ended_by_bearoff"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(add_profiles, migrations.RunPython.noop)]
