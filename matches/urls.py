"""API v1 routes (mounted at /api/v1/). Filled in by the API work."""

from django.urls import URLPattern, URLResolver

app_name = "matches"

urlpatterns: list[URLPattern | URLResolver] = []
