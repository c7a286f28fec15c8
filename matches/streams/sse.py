"""`GET /api/v1/matches/{id}/stream`: the match's events as Server-Sent Events.

For clients that only read (spectators, integrations, a browser's `EventSource`). Each message
is one `events` batch (docs/realtime.md), its SSE `id` the match's version after it, so a
client that reconnects (EventSource does by itself, sending `Last-Event-ID`) gets exactly what
it missed, read from the store. `?after=N` starts after version N. When the match is over and
everything was sent, an `end` message follows and the stream closes; reconnecting then gets
204, which stops EventSource. A comment line every `TAVLA_SSE_KEEPALIVE` seconds keeps
proxies from closing an idle stream; a stream is closed after `TAVLA_STREAM_MAX_SECONDS`
(the client resumes where it was, possibly on another process).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from django.conf import settings
from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request

from matches.api.errors import ApiError
from matches.api.renderers import JSONRenderer
from matches.api.schema.common import MATCH_ID, errors
from matches.api.views.common import VERSION_RE, seen_match, valid

from .db import in_thread
from .follow import Follower
from .hub import Hub
from .limits import Slot, acquire_for_request
from .messages import dumps
from .views import AsyncAPIView

EXAMPLE = (
    "retry: 2000\n\n"
    'id: 6\ndata: {"type":"events","match":"0b0e...","version":6,"events":[{"seq":5,'
    '"type":"rolled","at":"2026-05-01T12:01:00Z","data":{"seat":1,"dice":[6,4]}},'
    '{"seq":6,"type":"moved","at":"2026-05-01T12:01:09Z","data":{"seat":1,'
    '"steps":[[24,18,0],[18,14,0]],"notation":"24/14"}}]}\n\n'
    ": keep-alive\n\n"
)


class StreamQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, default=0, help_text="Start after this version."
    )


# One event of the stream, as a reader parses it (the schema of text/event-stream responses).
SSE_EVENT = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "The match's version after this message."},
        "data": {
            "type": "string",
            "description": 'JSON: `{"type": "events", "match", "version", "events": [...]}`'
            ' or `{"type": "end", "match", "version"}`.',
        },
        "event": {"type": "string"},
        "retry": {"type": "integer", "description": "Milliseconds before reconnecting."},
    },
}

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    str,
    OpenApiParameter.HEADER,
    description="Resume after this version (EventSource sends it when it reconnects); wins"
    " over `after`.",
)


class StreamView(AsyncAPIView):
    def perform_content_negotiation(self, request: Any, force: bool = False) -> Any:
        """EventSource asks for `Accept: text/event-stream`: the stream is that, and a refusal
        before it starts is the API's JSON error, whatever the client accepts."""
        return JSONRenderer(), JSONRenderer.media_type

    @extend_schema(
        tags=["matches"],
        operation_id="matches_stream",
        summary="The match's events pushed as Server-Sent Events (text/event-stream)",
        description='Each message is `id: <version>` and `data: {"type": "events",'
        ' "match", "version", "events": [...]}` (the events as the events endpoint shows'
        " them). Reconnect with `Last-Event-ID` (EventSource does) or `?after=` to get exactly"
        " the events missed. When the match is over and all was sent: a"
        ' `data: {"type": "end", ...}` message, then the stream closes; a reconnection then'
        " gets 204 (EventSource stops). Comment lines keep the connection alive. An open"
        " stream of a seated player counts as connected (README Clocks). See"
        " docs/realtime.md.",
        parameters=[MATCH_ID, StreamQuerySerializer, LAST_EVENT_ID],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                SSE_EVENT,
                description="The stream: each event's `data` is one JSON message.",
                examples=[OpenApiExample("a roll and a play", value=EXAMPLE)],
            ),
            204: OpenApiResponse(description="The match is over and nothing was missed."),
            **errors(
                "invalid_request", "match_not_found", "authentication_failed", "too_many_streams"
            ),
        },
    )
    async def get(self, request: Request, match_id: str) -> Any:
        after = valid(StreamQuerySerializer, request.query_params)["after"]
        last = request.headers.get("Last-Event-ID")
        if last is not None:
            if not VERSION_RE.fullmatch(last.strip()):
                raise ApiError(
                    "invalid_request",
                    "Last-Event-ID must be a version number.",
                    {"Last-Event-ID": [last[:40]]},
                )
            after = int(last.strip())
        match = await in_thread(seen_match, match_id, request.user)
        slot = acquire_for_request(request)  # 429 too_many_streams past the caps
        follower = Follower(Hub.current(), match, after, request.user)
        try:
            await follower.start()
            first = await follower.next_message()
        except BaseException:
            await follower.close()
            slot.release()
            raise
        if first is None and follower.over:
            await follower.close()
            slot.release()
            return HttpResponse(status=204)
        response = StreamingHttpResponse(
            _stream(follower, first, slot), content_type="text/event-stream; charset=utf-8"
        )
        # the slot is given back when the response closes, even if the stream never started
        response._resource_closers.append(slot.release)
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
        return response


async def _stream(follower: Follower, first: str | None, slot: Slot) -> AsyncIterator[str]:
    keepalive = float(getattr(settings, "TAVLA_SSE_KEEPALIVE", 15))
    ends = time.monotonic() + float(getattr(settings, "TAVLA_STREAM_MAX_SECONDS", 600))
    try:
        yield "retry: 2000\n\n"
        text = first
        while True:
            if text is not None:
                yield f"id: {follower.sent}\ndata: {text}\n\n"
            if follower.over:
                end = {"type": "end", "match": follower.match_id, "version": follower.sent}
                yield f"data: {dumps(end)}\n\n"
                return
            left = ends - time.monotonic()
            if left <= 0:
                return
            if text is None and not await follower.wait(min(keepalive, left)):
                yield ": keep-alive\n\n"
            text = await follower.next_message()
    finally:
        await follower.close()
        slot.release()
