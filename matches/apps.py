from django.apps import AppConfig


class MatchesConfig(AppConfig):
    """The event-sourced match store, its commands, API, tasks and admin."""

    name = "matches"
    default_auto_field = "django.db.models.BigAutoField"
