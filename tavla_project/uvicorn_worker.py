"""The gunicorn worker class of the web processes: uvicorn serving the ASGI application.

gunicorn manages the processes (count, graceful restarts, a stuck worker killed after
WEB_TIMEOUT); each worker is one uvicorn event loop serving HTTP, Server-Sent Events and
WebSockets. Lifespan is off (Django has no startup hooks). A WebSocket frame longer than
1 MiB closes that socket (1009); shorter messages over TAVLA_WS_MAX_MESSAGE get an error and
the socket stays open. Pings every 20 s find dead peers (their presence then ends).

HTTP is uvicorn's httptools protocol with two changes (`Protocol`):

- a request whose headers are not complete `WEB_HEADER_TIMEOUT` seconds (default 10) after
  the connection opened, or after the request's first byte, is closed: uvicorn times out
  idle keep-alive connections only, so a client sending headers slowly, or nothing, held a
  connection (and its file descriptor) for good;
- a request the parser refuses (a NUL byte in a header, a broken request line) gets the API's
  JSON error (400 `invalid_request`) instead of uvicorn's plain text.

A token sent in a URL's query string (`/ws/v1/live?token=<key>`, which the WebSocket still
accepts from clients that cannot send a header or a subprotocol) is never written to the logs:
the access log and the error log (uvicorn's `WebSocket ... [accepted]` lines) show
`token=[redacted]`.
"""

import json
import logging
import os
import re
from asyncio import TimerHandle, Transport
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn_worker import UvicornWorker

HEADER_TIMEOUT = float(os.environ.get("WEB_HEADER_TIMEOUT", "10"))


class Protocol(HttpToolsProtocol):
    header_timer: TimerHandle | None = None

    def connection_made(self, transport: Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.header_timer is None:
            self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._cancel_header_timer()
        super().on_headers_complete()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        if HEADER_TIMEOUT > 0:
            self.header_timer = self.loop.call_later(HEADER_TIMEOUT, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _headers_too_slow(self) -> None:
        self.header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        from matches.api.errors import error_body, message

        body = json.dumps(
            error_body("invalid_request", message("invalid_request"), {"reason": msg})
        ).encode()
        content = [STATUS_LINE[400]]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: application/json\r\n",
                b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        self.transport.close()


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
        "http": Protocol,
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
