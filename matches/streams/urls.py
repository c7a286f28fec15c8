"""HTTP routes of the streams (mounted under /api/v1/ by matches/urls.py, beside the API's)."""

from django.urls import path

from .longpoll import EventsView
from .sse import StreamView

M = "matches/<str:match_id>"

urlpatterns = [
    path(f"{M}/events", EventsView.as_view(), name="events"),
    path(f"{M}/stream", StreamView.as_view(), name="stream"),
]
