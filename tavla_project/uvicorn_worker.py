"""The gunicorn worker class of the web processes: uvicorn serving the ASGI application.

gunicorn manages the processes (count, graceful restarts, a stuck worker killed after
WEB_TIMEOUT); each worker is one uvicorn event loop serving HTTP, Server-Sent Events and
WebSockets. Lifespan is off (Django has no startup hooks). A WebSocket frame longer than
1 MiB closes that socket (1009); shorter messages over TAVLA_WS_MAX_MESSAGE get an error and
the socket stays open. Pings every 20 s find dead peers (their presence then ends).

A token sent in a URL's query string (`/ws/v1/live?token=<key>`, which the WebSocket still
accepts from clients that cannot send a header or a subprotocol) is never written to the logs:
the access log and the error log (uvicorn's `WebSocket ... [accepted]` lines) show
`token=[redacted]`.
"""

import logging
import re
from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker

SECRET_PARAMS = re.compile(r"(?i)\b(token|key|access_token)=[^&\s\"']*")


def redact(text: str) -> str:
    return SECRET_PARAMS.sub(r"\1=[redacted]", text)


class RedactSecrets(logging.Filter):
    """Secrets in URLs out of every log line: the message's arguments (uvicorn passes the
    path with its query string as one) and the message itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "=" in record.msg:
            record.msg = redact(record.msg)
        args = record.args
        if isinstance(args, tuple) and any(isinstance(a, str) and "=" in a for a in args):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        return True


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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        redacting = RedactSecrets()
        for name in ("uvicorn.access", "uvicorn.error"):
            logger = logging.getLogger(name)
            logger.addFilter(redacting)
            for handler in logger.handlers:
                handler.addFilter(redacting)
