"""WSGI entry point (gunicorn tavla_project.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavla_project.settings")

application = get_wsgi_application()
