"""ASGI entry point: `tavla_project.asgi:application` (uvicorn workers under gunicorn,
deploy/gunicorn.conf.py).

- WebSockets under /ws/v1/: Channels (matches/streams/routing.py).
- HTTP to an async view (the Server-Sent Events stream, the events long-poll): Django's ASGI
  handler, so a waiting client is a coroutine, not a thread.
- Every other HTTP request (the API, the admin, static files): Django's WSGI handler in a
  fixed pool of `WEB_THREADS` threads (tavla_project/wsgi_pool.py). Under Django's ASGI
  handler a synchronous view and its synchronous middleware cost some thirty hops between the
  event loop and a new thread per request (measured: 2 to 3 ms of CPU each, four times the
  request itself); in the pool it is one hop each way, and the threads keep their database
  connections between requests.
"""

import logging
import os
from functools import lru_cache
from inspect import iscoroutinefunction
from typing import Any

from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavla_project.settings")

# Django first: the routing below imports models.
django_asgi = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import Resolver404, resolve  # noqa: E402

from matches.streams.routing import websocket_urlpatterns  # noqa: E402
from tavla_project.wsgi_pool import WsgiPool  # noqa: E402

if not settings.DEBUG and not settings.STATIC_COLLECTED:
    logging.getLogger("tavla_project.static").warning(
        "static files: %s does not exist (collectstatic not run): the web client's files are "
        "served from the apps' folders, uncompressed; run `python manage.py collectstatic` "
        "when deploying",
        settings.STATIC_ROOT,
    )

django_wsgi = WsgiPool(get_wsgi_application(), threads=settings.WEB_THREADS)


# benchmarks only: every request through Django's ASGI handler (docs/private-internals.md)
_ALL_TO_ASGI = "wsgi_pool" in settings.TAVLA_PUBLIC_PATHS


class HttpRouter:
    """Async views to Django's ASGI handler, everything else to the WSGI thread pool."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if _ALL_TO_ASGI or _is_async_view(scope["path"]):
            await django_asgi(scope, receive, send)
        else:
            await django_wsgi(scope, receive, send)


@lru_cache(maxsize=4096)
def _is_async_view(path: str) -> bool:
    """Remembered per path: resolving a URL costs more than the rest of the routing."""
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


application = ProtocolTypeRouter(
    {"http": HttpRouter(), "websocket": URLRouter(websocket_urlpatterns)}
)
