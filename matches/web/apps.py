from django.apps import AppConfig


class WebConfig(AppConfig):
    """The web client: the shell template and its static ES modules and CSS."""

    name = "matches.web"
    label = "tavla_web"
    verbose_name = "Web client"
