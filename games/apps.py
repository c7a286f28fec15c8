from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The game itself. It has no models; games.rules and games.bots never import Django."""

    name = "games"
    verbose_name = "Games (rules engine and bots)"
