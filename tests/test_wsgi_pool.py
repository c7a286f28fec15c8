"""tavla_project.wsgi_pool: Django's WSGI handler served from the event loop, one hop each way.

A fake WSGI application records what it was given; the ASGI side is driven by hand (the
real server runs it in tests/streams, tests/security and tests/browser)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from django.conf import settings

from tavla_project.wsgi_pool import WsgiPool


class Recorder:
    def __init__(self, chunks: list[bytes] | None = None) -> None:
        self.environ: dict[str, Any] = {}
        self.body = b""
        self.threads: list[str] = []
        self.chunks = chunks if chunks is not None else [b"ok"]
        self.closed = False

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.environ = environ
        length = int(environ.get("CONTENT_LENGTH") or 0)
        if length <= settings.TAVLA_MAX_BODY_BYTES:
            self.body = environ["wsgi.input"].read(length)
        self.threads.append(threading.current_thread().name)
        write = start_response("201 Created", [("Content-Type", "text/plain"), ("X-Two", "2")])
        write(b"<")  # the legacy write() callable comes first
        recorder = self

        class Body:
            def __iter__(self) -> Any:
                return iter(recorder.chunks)

            def close(self) -> None:
                recorder.closed = True

        return Body()


def scope(path: str = "/api/v1/x", headers: list[tuple[bytes, bytes]] | None = None) -> dict:
    return {
        "type": "http",
        "method": "POST",
        "path": path,
        "root_path": "",
        "query_string": b"a=1&b=%C5%A1",
        "http_version": "1.1",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("10.0.0.7", 5555),
        "headers": headers or [],
    }


def serve(app: Recorder, sc: dict, messages: list[dict]) -> list[dict]:
    """Run the pool's ASGI call; the messages it sent."""
    sent: list[dict] = []
    incoming = list(messages)

    async def receive() -> dict:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(WsgiPool(app, threads=2)(sc, receive, send))
    return sent


def test_a_request_and_its_response() -> None:
    app = Recorder(chunks=[b"a", b"", b"bc"])
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"12"),
        (b"x-many", b"1"),
        (b"x-many", b"2"),
    ]
    parts = [
        {"type": "http.request", "body": b'{"a":', "more_body": True},
        {"type": "http.request", "body": b' "bcd"}', "more_body": False},
    ]
    sent = serve(app, scope("/api/v1/šah", headers), parts)
    assert app.body == b'{"a": "bcd"}'
    env = app.environ
    assert env["PATH_INFO"] == "/api/v1/šah".encode().decode("latin-1")  # PEP 3333
    assert env["QUERY_STRING"] == "a=1&b=%C5%A1"
    assert env["CONTENT_TYPE"] == "application/json" and env["CONTENT_LENGTH"] == "12"
    assert env["HTTP_X_MANY"] == "1,2"
    assert (env["REMOTE_ADDR"], env["SERVER_NAME"], env["SERVER_PORT"]) == (
        "10.0.0.7",
        "127.0.0.1",
        "8000",
    )
    assert app.threads[0].startswith("web") and app.closed
    assert sent == [
        {
            "type": "http.response.start",
            "status": 201,
            "headers": [(b"content-type", b"text/plain"), (b"x-two", b"2")],
        },
        {"type": "http.response.body", "body": b"<abc"},
    ]


def test_a_body_over_the_limit_is_not_read() -> None:
    app = Recorder()
    too_long = str(settings.TAVLA_MAX_BODY_BYTES + 1).encode()
    parts = [{"type": "http.request", "body": b"x" * 10, "more_body": True}]
    sent = serve(app, scope(headers=[(b"content-length", too_long)]), parts)
    assert app.environ["wsgi.input"].read() == b""  # the middleware answers from the header
    assert parts == [{"type": "http.request", "body": b"x" * 10, "more_body": True}]
    assert sent[0]["status"] == 201  # the fake app answered; nothing was waited for


def test_the_import_path_has_its_own_limit() -> None:
    app = Recorder()
    size = settings.TAVLA_MAX_BODY_BYTES + 1  # over the API's limit, under the import's
    assert size <= settings.TAVLA_IMPORT_MAX_BYTES
    body = b"y" * size
    parts = [{"type": "http.request", "body": body, "more_body": False}]
    headers = [(b"content-length", str(size).encode())]
    serve(app, scope("/api/v1/matches/import", headers), parts)
    assert app.environ["wsgi.input"].read() == body


def test_no_content_length_no_body() -> None:
    app = Recorder()
    parts = [{"type": "http.request", "body": b"chunked", "more_body": False}]
    serve(app, scope(), parts)
    assert app.body == b"" and len(parts) == 1  # not received


def test_a_client_gone_before_its_body_gets_no_answer() -> None:
    app = Recorder()
    parts = [{"type": "http.request", "body": b"12", "more_body": True}]  # then disconnect
    sent = serve(app, scope(headers=[(b"content-length", b"5")]), parts)
    assert sent == [] and app.threads == []
