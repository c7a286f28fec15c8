"""Django's WSGI handler served from the ASGI event loop through a fixed pool of threads.

Why not a2wsgi (used before): it hops between the loop and the thread for every message
(the body read, the response start, each chunk, the end), each hop a future and a wake-up;
measured on this machine, 0.48 ms of server CPU per trivial request against 0.10 ms for one
hop each way (benchmarks/api_bench.py, one worker, one client). Here the loop reads the
request body first, the thread runs Django and collects the whole response, and the loop
sends it. That suits every view on this path: API answers, admin pages, static files and
exports are finite; the streams that never end (SSE, the long-poll) are async views served
by Django's ASGI handler instead (tavla_project/asgi.py).

The body limit is applied before a byte is read: a Content-Length over the path's limit is
not read at all, and tavla_project.errorpages.BodyLimitMiddleware answers it with a JSON 413
from the header. A request without Content-Length has no body for Django either.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .errorpages import body_limit

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
Response = tuple[int, list[tuple[bytes, bytes]], list[bytes]]


class WsgiPool:
    """An ASGI application (HTTP only) that runs a WSGI application in `threads` threads;
    the threads live as long as the process, so each keeps its database connection."""

    def __init__(self, app: WSGIApp, threads: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="web")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        environ = build_environ(scope)
        body = await read_body(environ, scope["path"], receive)
        if body is None:
            return  # the client went away while sending its body: nobody to answer
        environ["wsgi.input"] = io.BytesIO(body)
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        status, headers, chunks = await loop.run_in_executor(
            self.executor, context.run, self.respond, environ
        )
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"".join(chunks)})

    def respond(self, environ: dict[str, Any]) -> Response:
        """In a pool thread: the whole response (closing the iterable ends Django's request:
        its request_finished signal returns the database connection as configured)."""
        started: list[Any] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Any:
            started[:] = [status, headers]
            return chunks.append  # the legacy write() callable

        chunks: list[bytes] = []
        iterable = self.app(environ, start_response)
        try:
            chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        status, headers = started
        encoded = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]
        return int(status[:3]), encoded, chunks


async def read_body(environ: dict[str, Any], path: str, receive: Any) -> bytes | None:
    """The request body when Django will read it (a Content-Length within the path's limit),
    else b""; None when the client disconnected first."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return b""  # BodyLimitMiddleware answers 400 from the header
    if length <= 0 or length > body_limit(path):
        return b""
    parts: list[bytes] = []
    received = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        part = message.get("body", b"")
        parts.append(part)
        received += len(part)
        if not message.get("more_body", False) or received >= length:
            return b"".join(parts)


def build_environ(scope: dict[str, Any]) -> dict[str, Any]:
    """The WSGI environ of an ASGI HTTP scope (PEP 3333: text as latin-1 "bytes as str"),
    without its body (`wsgi.input`, set once the body is read)."""
    script_name = scope.get("root_path", "").encode("utf-8").decode("latin-1")
    path_info = scope["path"].encode("utf-8").decode("latin-1")
    if script_name and path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server_name, server_port = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_NAME": server_name,
        "SERVER_PORT": str(server_port or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client is not None:
        environ["REMOTE_ADDR"], port = client
        environ["REMOTE_PORT"] = str(port)
    for raw_name, raw_value in scope["headers"]:
        name = raw_name.decode("latin-1")
        if name == "content-length":
            key = "CONTENT_LENGTH"
        elif name == "content-type":
            key = "CONTENT_TYPE"
        else:
            key = "HTTP_" + name.upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if key in environ:
            value = environ[key] + "," + value
        environ[key] = value
    return environ
