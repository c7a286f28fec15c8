"""ASGI entry point (for an ASGI server such as uvicorn: tavla_project.asgi:application)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavla_project.settings")

application = get_asgi_application()
