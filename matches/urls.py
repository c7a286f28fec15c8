"""API v1 routes (mounted at /api/v1/): see matches/api/urls.py, and the HTTP streams (the
events long-poll and Server-Sent Events, matches/streams/urls.py); then, last, a JSON 404 for
every other path under /api/v1/ (never Django's HTML page)."""

from django.urls import URLPattern, URLResolver, re_path

from .api.urls import urlpatterns as api_urlpatterns
from .api.views.root import NotFoundView
from .streams.urls import urlpatterns as stream_urlpatterns

app_name = "matches"

urlpatterns: list[URLPattern | URLResolver] = [
    *api_urlpatterns,
    *stream_urlpatterns,
    re_path(r"^(?P<rest>.*)$", NotFoundView.as_view(), name="not-found"),  # keep it last
]
