"""The gunicorn worker class of the web processes: uvicorn serving the ASGI application.

gunicorn manages the processes (count, graceful restarts, a stuck worker killed after
WEB_TIMEOUT); each worker is one uvicorn event loop serving HTTP, Server-Sent Events and
WebSockets. Lifespan is off (Django has no startup hooks). A WebSocket frame longer than
1 MiB closes that socket (1009); shorter messages over TAVLA_WS_MAX_MESSAGE get an error and
the socket stays open. Pings every 20 s find dead peers (their presence then ends).
"""

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "auto",
        "http": "auto",
        "lifespan": "off",
        "proxy_headers": False,
        "ws_max_size": 1 << 20,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
    }
