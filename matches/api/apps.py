from django.apps import AppConfig


class ApiConfig(AppConfig):
    """REST API v1: player kinds, lobby (invites, open challenges, rematches), idempotency."""

    name = "matches.api"
    label = "tavla_api"
    verbose_name = "API"
    default_auto_field = "django.db.models.BigAutoField"
