"""Every place that relies on a library's private behaviour fails here first when it changes.

docs/private-internals.md lists them, with the library version each was checked against. An
upgrade (`make lock`, README "Dependencies") is caught three ways:

- the installed versions must be the lock's (an upgrade by hand, without the lock, fails);
- the libraries the document names must be at the versions it was checked against (an upgraded
  lock fails until someone re-read each entry of that library and updated the document);
- each place has tests of the exact private names, signatures and behaviour it uses, and a
  fingerprint of the library code it replaces or copies (its source without docstrings and
  comments), so that a change there is seen even when the behaviour tests still pass.

When a fingerprint fails: read the library's new code beside ours (the document says where),
fix ours if needed, then update the fingerprint and the document's version.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import inspect
import re
import textwrap
import tomllib
import uuid
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "private-internals.md"


# -- the lock ---------------------------------------------------------------------------------

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def locked(path: Path) -> dict[str, str]:
    """Name -> version of every pin of a lock file whose marker holds here."""
    pins: dict[str, str] = {}
    for line in path.read_text().splitlines():
        m = PIN.match(line)
        if m is None:
            continue
        name, version, marker = m.groups()
        if marker is None or Marker(marker).evaluate():
            pins[canonicalize_name(name)] = version
    return pins


def test_the_locks_pin_every_file_by_its_hash() -> None:
    for path in (ROOT / "requirements.lock", ROOT / "requirements-dev.lock"):
        text = path.read_text()
        pins = [line for line in text.splitlines() if PIN.match(line)]
        assert len(pins) > 20, f"{path.name}: no pins found"
        blocks = re.split(r"\n(?=\S)", text)
        for block in blocks:
            if PIN.match(block.splitlines()[0]):
                assert "--hash=sha256:" in block, (
                    f"{path.name}: no hash for {block.splitlines()[0]}"
                )


def test_installed_versions_are_the_locks() -> None:
    """An upgrade by hand (pip install -U ...) fails CI until the lock says it (`make lock`)."""
    wrong = {}
    for name, version in locked(ROOT / "requirements-dev.lock").items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "missing"
        if installed == "missing" or Version(installed) != Version(version):
            wrong[name] = f"locked {version}, installed {installed}"
    assert not wrong, f"not the locked versions (make .venv/.installed installs them): {wrong}"


def test_the_runtime_lock_and_the_dev_lock_agree() -> None:
    runtime, dev = locked(ROOT / "requirements.lock"), locked(ROOT / "requirements-dev.lock")
    assert set(runtime) <= set(dev)
    assert {n: v for n, v in dev.items() if n in runtime} == runtime


def test_every_range_of_pyproject_has_its_locked_version() -> None:
    """After a dependency is added or a range moved, `make lock UPGRADE=` is due."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    sources = {
        "requirements.lock": project["project"]["dependencies"]
        + project["build-system"]["requires"],
        "requirements-dev.lock": project["project"]["optional-dependencies"]["dev"],
    }
    for lock, requirements in sources.items():
        pins = locked(ROOT / lock)
        for text in requirements:
            req = Requirement(text)
            name = canonicalize_name(req.name)
            assert name in pins, f"{req} is not in {lock}: run make lock UPGRADE="
            assert req.specifier.contains(pins[name], prereleases=True), (
                f"{lock} has {name}=={pins[name]}, outside {req}: run make lock UPGRADE="
            )


DOC_VERSION = re.compile(r"^\| `([a-z0-9_.-]+)` \| ([0-9][^ |]*) \|", re.M)


def documented_versions() -> dict[str, str]:
    return {canonicalize_name(n): v for n, v in DOC_VERSION.findall(DOC.read_text())}


def test_the_document_was_checked_against_the_installed_versions() -> None:
    """An upgraded lock fails here until the entries of each upgraded library were re-read
    (and their tests below pass) and the document's table says the new version."""
    documented = documented_versions()
    assert {"django", "djangorestframework", "channels", "channels-redis"} <= set(documented)
    stale = {
        name: f"checked against {version}, installed {metadata.version(name)}"
        for name, version in documented.items()
        if Version(metadata.version(name)) != Version(version)
    }
    assert not stale, f"re-check docs/private-internals.md for {stale}"


# -- fingerprints -----------------------------------------------------------------------------


def fingerprint(fn: Any) -> str:
    """A hash of a function's code without its docstrings and comments."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.unparse(tree).encode()).hexdigest()[:16]


def library_function(path: str) -> Any:
    module, _, rest = path.partition(":")
    obj: Any = __import__(module, fromlist=["_"])
    for part in rest.split("."):
        obj = inspect.getattr_static(obj, part) if inspect.isclass(obj) else getattr(obj, part)
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    return getattr(obj, "func", obj)  # a cached_property's function


# The library code each override replaces, copies or depends on, as it was when checked
# (docs/private-internals.md says which of ours goes with which).
FINGERPRINTS = {
    # tavla_project/cache.py, matches/api/ratecount.py
    "django.core.cache.backends.redis:RedisCacheClient.__init__": "a08931669b96d406",
    "django.core.cache.backends.redis:RedisCacheClient._get_connection_pool": "13c4a2478e847a7d",
    "django.core.cache.backends.redis:RedisCacheClient.get_client": "48133b21a3ebc2fe",
    "django.core.cache.backends.redis:RedisCache.__init__": "d15a577d94d145fe",
    "django.core.cache.backends.redis:RedisCache._cache": "ffbb5cab3c645af7",
    # matches/streams/consumers.py
    "channels.consumer:AsyncConsumer.dispatch": "32a44591cd405e48",
    "channels.consumer:AsyncConsumer.__call__": "8462ee3f7788c350",
    "channels.generic.websocket:AsyncWebsocketConsumer.websocket_disconnect": "3b0dcdc7420644eb",
    "channels.consumer:get_handler_name": "514cdb5a605f2ab4",
    # matches/streams/publish.py
    "channels_redis.pubsub:RedisPubSubLoopLayer._get_group_channel_name": "fdab10ceb48a9857",
    "channels_redis.pubsub:RedisPubSubLoopLayer.group_send": "ae5b3b0423b7a9c4",
    "channels_redis.pubsub:RedisPubSubChannelLayer.serialize": "1155b43471c8209b",
    # matches/store/rows.py
    "django.db.models.sql.compiler:SQLCompiler.get_converters": "81f9cc135fc20905",
    "django.db.models.sql.compiler:SQLCompiler.apply_converters": "159f2fc72f705432",
    "django.db.models.sql.compiler:SQLCompiler.results_iter": "1ff4d423ddaf50fe",
    # tavla_project/wsgi_pool.py
    "django.core.handlers.wsgi:WSGIHandler.__call__": "1244654f6388ebc6",
    "django.http.response:HttpResponseBase.close": "1d0ee8e9b28d9f9f",
    # matches/api/contract.py (the compiled renderers)
    "rest_framework.serializers:Serializer.to_representation": "cb8425981b4e624c",
    "rest_framework.fields:IntegerField.to_representation": "34414bc9bda52949",
    "rest_framework.fields:FloatField.to_representation": "20f9d6dcf967fa7b",
    "rest_framework.fields:CharField.to_representation": "4f377faaba594958",
    "rest_framework.fields:JSONField.to_representation": "44bab694e61f3d5c",
    "rest_framework.fields:UUIDField.to_representation": "170792ccc4ee5012",
    "rest_framework.fields:BooleanField.to_representation": "464ad7d36c2a7bd9",
    # (a string among string choices passed through; a datetime's kept per instant and zone)
    "rest_framework.fields:ChoiceField.to_representation": "395c0f07f617be97",
    "rest_framework.fields:DateTimeField.to_representation": "1646d1eff057c463",
    # matches/streams/views.py (AsyncAPIView.dispatch)
    "rest_framework.views:APIView.dispatch": "35774e9080c3fa6e",
    # tavla_project/uvicorn_worker.py (Protocol: the header timeout, the JSON 400)
    "uvicorn.protocols.http.httptools_impl:HttpToolsProtocol.connection_made": "52a70c678525d887",
    "uvicorn.protocols.http.httptools_impl:HttpToolsProtocol.connection_lost": "8a5a84898dabba92",
    "uvicorn.protocols.http.httptools_impl:HttpToolsProtocol.on_message_begin": "4f7bac281585eb31",
    "uvicorn.protocols.http.httptools_impl:HttpToolsProtocol.on_headers_complete": (
        "f5d7f89383b961ff"
    ),
    "uvicorn.protocols.http.httptools_impl:HttpToolsProtocol.send_400_response": (
        "65982634137320d0"
    ),
    "uvicorn.protocols.http.httptools_impl:HttpToolsProtocol.data_received": "8583b7d501b5b5dd",
    # tavla_project/broker.py (the embedded broker's transport)
    "kombu.transport.sqlalchemy:Channel._engine_from_config": "ff34f1007cda0890",
    "kombu.transport.sqlalchemy:Channel._get": "1d3303fa19a6d3a8",
    "kombu.transport.sqlalchemy:Channel._open": "4cf69253e926ee99",
}


@pytest.mark.parametrize("path", sorted(FINGERPRINTS))
def test_the_library_code_relied_on_is_unchanged(path: str) -> None:
    assert fingerprint(library_function(path)) == FINGERPRINTS[path], (
        f"{path} changed: re-read it against its entry in docs/private-internals.md, fix ours"
        " if needed, then update its fingerprint here and the library's version there"
    )


# -- tavla_project/cache.py and matches/api/ratecount.py: Django's Redis cache client -------


def test_djangos_redis_client_has_the_private_parts_the_shared_pool_uses() -> None:
    from django.core.cache.backends.redis import RedisCacheClient

    client = RedisCacheClient(["redis://127.0.0.1:1/0"], socket_timeout=1)
    # what SharedPoolClient reads to build and key its pool, and the client it makes
    assert client._servers == ["redis://127.0.0.1:1/0"]
    assert client._pool_options["socket_timeout"] == 1 and "parser_class" in client._pool_options
    assert client._pool_class.__name__ == "ConnectionPool" and hasattr(
        client._pool_class, "from_url"
    )
    assert client._client.__name__ == "Redis"
    assert list(inspect.signature(client._get_connection_pool_index).parameters) == ["write"]
    assert list(inspect.signature(client._get_connection_pool).parameters) == ["write"]
    get_client = inspect.signature(RedisCacheClient.get_client).parameters
    assert list(get_client) == ["self", "key", "write"]
    assert get_client["write"].kind is inspect.Parameter.KEYWORD_ONLY


def test_every_cache_call_goes_through_our_client_and_one_shared_pool(tmp_path: Path) -> None:
    """Django's RedisCache builds its client from `self._class` (the `_cache` property) and
    every operation asks it for `get_client`: replacing `_class` is what makes every cache
    call use the process's one pool and one client."""
    from tavla_project.cache import RedisCache, SharedPoolClient

    from .servers import Redis

    redis = Redis(tmp_path)
    redis.start()
    try:
        calls: list[bool] = []

        class Counting(SharedPoolClient):
            def get_client(self, key: Any = None, *, write: bool = False) -> Any:
                calls.append(write)
                return super().get_client(key, write=write)

        first, second = RedisCache(redis.url, {}), RedisCache(redis.url, {})
        assert isinstance(first._cache, SharedPoolClient)
        first._class = Counting
        del first.__dict__["_cache"]  # the cached_property, built again from `_class`
        first.set("k", 1)
        assert first.get("k") == 1
        assert first.incr("k") == 2
        first.delete("k")
        assert calls.count(True) >= 3 and calls.count(False) >= 1
        # one pool and one redis.Redis for both cache objects (what ratecount's script uses)
        client = first._cache.get_client(write=True)
        assert client is second._cache.get_client(write=True)
        assert client is second._cache.get_client()
        assert callable(client.register_script)
    finally:
        redis.stop()


# -- matches/streams/publish.py: channels-redis' group channels ---------------------------


def test_publish_names_a_group_channel_as_channels_redis_does(tmp_path: Path) -> None:
    """The Publisher PUBLISHes on the channel channels-redis' private
    `_get_group_channel_name` gives the group, with the layer's own serialization: exactly
    what `group_send` publishes (listened to with a plain Redis subscription)."""
    import redis as redis_py
    from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer

    from matches.streams import publish

    from .servers import Redis

    assert inspect.signature(RedisPubSubLoopLayer).parameters["prefix"].default == "asgi"
    server = Redis(tmp_path)
    server.start()
    try:
        layer = RedisPubSubChannelLayer(hosts=[server.url], prefix="tavla-pin")
        message = {"type": "match.committed", "match": "m1", "version": 3, "events": []}

        async def heard() -> tuple[str, bytes]:
            loop_layer = layer._get_layer()
            name = loop_layer._get_group_channel_name("match.m1")
            assert name == publish.group_channel("tavla-pin", "match.m1")
            sub = redis_py.Redis.from_url(server.url).pubsub(ignore_subscribe_messages=True)
            sub.subscribe(name)
            await asyncio.sleep(0.1)
            await layer.group_send("match.m1", message)
            got = None
            for _ in range(50):
                got = sub.get_message(timeout=0.1)
                if got is not None:
                    break
            sub.close()
            await layer.flush()
            assert got is not None, "group_send published nothing on that channel"
            return got["channel"].decode(), got["data"]

        channel, data = asyncio.run(heard())
        assert channel == publish.group_channel("tavla-pin", "match.m1")
        assert data == layer.serialize(message)
        assert layer.deserialize(data) == message
    finally:
        server.stop()


# -- matches/streams/consumers.py: Channels' dispatch ----------------------------------------


def test_channels_routes_every_message_through_dispatch() -> None:
    """LiveConsumer.dispatch replaces AsyncConsumer.dispatch: Channels must still hand every
    message (from the client and from the layer) to `self.dispatch`, and name handlers by
    `get_handler_name` (tests/test_socket_dispatch.py: what the override leaves out)."""
    from channels.consumer import AsyncConsumer, get_handler_name

    from matches.streams.consumers import LiveConsumer

    assert "self.dispatch" in inspect.getsource(AsyncConsumer.__call__)
    assert "aclose_old_connections" in inspect.getsource(AsyncConsumer.dispatch)
    assert get_handler_name({"type": "websocket.receive"}) == "websocket_receive"
    with pytest.raises(ValueError):
        get_handler_name({"type": "_private"})
    for kind in ("websocket.connect", "websocket.receive", "websocket.disconnect"):
        assert callable(getattr(LiveConsumer, get_handler_name({"type": kind})))
    assert LiveConsumer.dispatch is not AsyncConsumer.dispatch


def test_a_consumer_on_an_alias_with_no_layer_gets_no_channel(settings: Any) -> None:
    """LiveConsumer's pushes come through the process's hub, not a channel per socket: its
    `channel_layer_alias` names no configured layer, so Channels gives it none (no
    `new_channel`, only the client's messages dispatched), even with a default layer set."""
    import asyncio

    from channels.consumer import AsyncConsumer, StopConsumer
    from channels.layers import channel_layers, get_channel_layer

    from matches.streams.consumers import LiveConsumer

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    try:
        assert get_channel_layer() is not None
        assert LiveConsumer.channel_layer_alias not in settings.CHANNEL_LAYERS
        assert get_channel_layer(LiveConsumer.channel_layer_alias) is None

        seen: list[str] = []

        class Probe(AsyncConsumer):
            channel_layer_alias = LiveConsumer.channel_layer_alias

            async def websocket_connect(self, message: dict[str, Any]) -> None:
                seen.append(message["type"])
                raise StopConsumer

        async def receive() -> dict[str, Any]:
            return {"type": "websocket.connect"}

        async def send(message: dict[str, Any]) -> None:  # pragma: no cover - nothing sent
            raise AssertionError(message)

        probe = Probe()
        asyncio.run(probe(receive=receive, send=send, scope={"type": "websocket"}))
        assert seen == ["websocket.connect"]
        assert probe.channel_layer is None and not hasattr(probe, "channel_name")
    finally:
        channel_layers.backends.clear()


# -- matches/store/rows.py: the ORM compiler's converters -----------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_match_row_read_by_compiled_sql_is_the_orms(django_user_model: Any) -> None:
    """The row read by `fetch_match` and the row returned by a command's compare-and-set
    statement are, field by field, the ORM's."""
    from django.db import connection, transaction
    from django.db.models.sql.compiler import SQLCompiler

    from matches import services
    from matches.store import rows
    from matches.store.models import Match

    params = inspect.signature(SQLCompiler.get_converters).parameters
    assert list(params) == ["self", "expressions"]
    user = django_user_model.objects.create_user("pin")
    view = services.match_create(user=user, mode=Match.Mode.HOTSEAT, length=3, cube=True)
    rows._compiled.cache_clear()
    orm = Match.objects.get(pk=view.match_id)
    fields = [f.attname for f in Match._meta.concrete_fields]
    for for_update in (False, True):
        with transaction.atomic():
            got = rows.fetch_match(view.match_id, for_update=for_update)
        assert got is not None
        assert {f: getattr(got, f) for f in fields} == {f: getattr(orm, f) for f in fields}
        assert got._state.db == "default" and not got._state.adding
    # the players' ratings go after the ORM's select list, before its one FROM
    read = rows._compiled("default", False)[0]
    assert read.count(" FROM ") == 1 and read.startswith('SELECT "matches_match"."id", ')
    sql, names, listed, converters = rows._compiled("default", True)
    assert "FOR UPDATE" in sql and names == fields
    assert listed == rows.returned_columns("default")
    # the row a command's compare-and-set statement returns (RETURNING those columns), built
    # with the same converters, is the ORM's too
    resign = services.Resign(1)  # the opening roll was rolled: an offer, on his turn
    done = services.run(services.Command(view.match_id, user, resign, request=True))
    assert done.view.version > view.version
    orm = Match.objects.get(pk=view.match_id)
    assert orm.version == done.view.version
    assert {f: getattr(done.match, f) for f in fields} == {f: getattr(orm, f) for f in fields}
    assert done.match._state.db == "default" and not done.match._state.adding
    # the converters are called as the compiler's apply_converters calls them
    assert "converter(value, expression, connection)" in inspect.getsource(
        SQLCompiler.apply_converters
    )
    assert converters, "no converters: the test above compared nothing converted"
    assert rows.fetch_match(uuid.uuid4()) is None
    assert connection.vendor == "postgresql"


# -- tavla_project/wsgi_pool.py: Django's WSGI handler --------------------------------------


@pytest.mark.django_db
def test_closing_the_response_ends_djangos_request() -> None:
    """The pool collects the whole response, then closes the iterable: Django's handler
    returns its response as that iterable, and its close() sends request_finished (which
    gives the database connection back) and runs the response's resource closers (the SSE
    stream's slot, matches/streams/sse.py)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_finished
    from django.http import StreamingHttpResponse

    from tavla_project.wsgi_pool import WsgiPool, build_environ

    finished: list[bool] = []

    def on_finished(**kwargs: Any) -> None:
        finished.append(True)

    request_finished.connect(on_finished)
    try:
        pool = WsgiPool(WSGIHandler(), threads=1)
        scope = {
            "type": "http",
            "method": "GET",
            "path": "/api/v1/rules/levels",
            "query_string": b"",
            "http_version": "1.1",
            "headers": [(b"host", b"127.0.0.1"), (b"accept", b"application/json")],
        }
        environ = build_environ(scope)
        environ["wsgi.input"] = __import__("io").BytesIO(b"")
        status, _, chunks = pool.respond(environ)
        assert status == 200 and b"".join(chunks)
        assert finished == [True]
    finally:
        request_finished.disconnect(on_finished)
    closed: list[bool] = []
    response = StreamingHttpResponse(iter([b"x"]))
    response._resource_closers.append(lambda: closed.append(True))
    response.close()
    assert closed == [True]


# -- matches/api/contract.py: the compiled renderers ----------------------------------------


def test_drfs_field_conversions_are_the_compiled_expressions() -> None:
    """contract._compile writes `int(v)`, `float(v)`, `str(v)`, `v` and `str(v)` (UUID) in
    place of these fields' to_representation, and None for a None attribute without calling
    the field, as Serializer.to_representation does."""
    from rest_framework import serializers

    from matches.api import contract

    samples: list[Any] = [0, 7, -3, "12", 2.5, True]
    for value in samples:
        assert serializers.IntegerField().to_representation(value) == int(value)
        assert serializers.FloatField().to_representation(value) == float(value)
        assert serializers.CharField().to_representation(value) == str(value)
    for value in [{"a": [1, None]}, [1, "x"], "s", 3]:
        assert serializers.JSONField().to_representation(value) is value
    assert serializers.JSONField(binary=True).binary is True
    key = uuid.uuid4()
    assert serializers.UUIDField().uuid_format == "hex_verbose"
    assert serializers.UUIDField().to_representation(key) == str(key)
    assert serializers.BooleanField().to_representation(True) is True
    assert set(contract._CONVERT) == {
        serializers.IntegerField,
        serializers.FloatField,
        serializers.CharField,
        serializers.JSONField,
    }

    class Shape(serializers.Serializer):
        a = serializers.IntegerField()
        b = serializers.CharField(source="c")

    class Obj:
        a = None
        c = "x"

    shape = Shape()
    assert shape.to_representation(Obj()) == {"a": None, "b": "x"}
    assert [(f.field_name, f.source) for f in shape.fields.values()] == [("a", "a"), ("b", "c")]
    listed = serializers.ListSerializer(child=Shape())
    assert isinstance(listed.child, Shape)
    assert isinstance(
        serializers.ListField(child=serializers.IntegerField()).child, serializers.IntegerField
    )


# -- matches/streams/views.py, matches/api: DRF's view and request internals ---------------


def test_drfs_request_wraps_djangos_as_request_underscore_request() -> None:
    """`request._request` (the idempotency key's body hash, the login's authenticate): the
    HttpRequest DRF wraps. AsyncAPIView.dispatch copies APIView.dispatch's steps (the
    fingerprint above); the methods it calls must still exist."""
    from django.test import RequestFactory
    from rest_framework.request import Request
    from rest_framework.views import APIView

    http = RequestFactory().post("/x", data=b"{}", content_type="application/json")
    request = Request(http)
    assert request._request is http and request._request.body == b"{}"
    for name in (
        "initialize_request",
        "initial",
        "http_method_not_allowed",
        "handle_exception",
        "finalize_response",
        "default_response_headers",
    ):
        assert hasattr(APIView, name), name


def test_the_uvicorn_worker_settings_are_uvicorns() -> None:
    """tavla_project/uvicorn_worker.py: CONFIG_KWARGS go to uvicorn.Config as they are."""
    from uvicorn import Config

    from tavla_project.uvicorn_worker import Worker

    accepted = inspect.signature(Config).parameters
    assert set(Worker.CONFIG_KWARGS) <= set(accepted)
    from uvicorn_worker import UvicornWorker

    assert "self.CONFIG_KWARGS" in inspect.getsource(UvicornWorker.__init__)
