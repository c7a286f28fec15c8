"""`GET /api/v1/matches/{id}/events?after=&wait=`: the events long-poll of older clients.

Same answer as ever (`{"version", "events"}`), but a waiting request is a coroutine following
the match through the process's hub, not a thread polling the database: thousands can wait
at once. An aborted match answers at once (nothing more can come); a finished one waits like
any other, since its players may still offer a rematch (a `rematch_offered` event, the one
event after the end): a client following it hears of the offer, and one that simply polls
again is never answered in a busy loop. A seated player waiting here is connected (the hub
touches his presence while he waits).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.response import Response

from matches.api.requests import EventsQuerySerializer
from matches.api.schema import operations as docs
from matches.api.views.common import query, seen_match
from matches.store.models import Match
from matches.store.streams import stored_events

from .db import in_thread
from .follow import Follower
from .hub import Hub
from .limits import acquire_for_request
from .messages import events_json
from .views import AsyncAPIView


class EventsView(AsyncAPIView):
    """The body is the `Events` shape (matches/selectors/shapes.py) as `render` gives it: the
    events come JSON-ready from the store or the hub's tail (matches/streams/messages.py)."""

    @docs.events
    async def get(self, request: Request, match_id: str) -> Response:
        q = query(EventsQuerySerializer, request)
        match = await in_thread(seen_match, match_id, request.user)
        after = q["after"]
        wait = min(q["wait"], getattr(settings, "TAVLA_LONG_POLL_MAX", 30))
        if wait <= 0 or match.status == Match.Status.ABORTED:
            events = await in_thread(_events_after, match.pk, after)
        else:
            slot = acquire_for_request(request)  # 429 too_many_streams past the caps
            try:
                events = await _wait_for_events(match, after, wait, request.user)
            finally:  # also when the client went away (Django cancels this coroutine)
                slot.release()
        version = events[-1]["seq"] if events else max(after, match.version)
        return Response({"version": version, "events": events})


async def _wait_for_events(match: Any, after: int, wait: float, user: Any) -> list[dict[str, Any]]:
    follower = Follower(Hub.current(), match, after, user)
    await follower.start()
    try:
        deadline = time.monotonic() + wait
        events = await follower.next_batch()
        while not events:  # a finished match too: a rematch may be offered
            left = deadline - time.monotonic()
            if left <= 0 or not await follower.wait(left):
                break
            events = await follower.next_batch()
        return events
    finally:
        await follower.close()


def _events_after(match_id: Any, after: int) -> list[dict[str, Any]]:
    return events_json(stored_events(match_id, after))
