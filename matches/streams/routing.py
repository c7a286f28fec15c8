"""WebSocket routes (tavla_project/asgi.py serves them beside Django's HTTP)."""

from django.urls import path

from .consumers import LiveConsumer

websocket_urlpatterns = [
    path("ws/v1/live", LiveConsumer.as_asgi()),
]
