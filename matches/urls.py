"""API v1 routes (mounted at /api/v1/): see matches/api/urls.py."""

from django.urls import URLPattern, URLResolver

from .api.urls import urlpatterns as api_urlpatterns

app_name = "matches"

urlpatterns: list[URLPattern | URLResolver] = [*api_urlpatterns]
