"""Quick pairing over HTTP: post a seek, poll it, cancel it (matches/services/seeks.py
decides; docs/ratings.md)."""

from __future__ import annotations

import math
from typing import Any

from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.selectors import players
from matches.services import seeks
from matches.store.models import Seek

from .. import requests as rq
from ..contract import respond
from ..idempotency import run_write
from ..permissions import Authenticated
from ..schema import players as docs
from ..throttling import AnonReadThrottle, CreateThrottle, MatchWriteThrottle
from .common import valid


def seek_response(found: Seek, status: int = 200) -> Response:
    now = timezone.now()
    window = seeks.schedule().window(seeks.waited(found, now))
    expires = found.last_seen + seeks.timeout()
    shape = players.seek_state(found, None if math.isinf(window) else window, now, expires)
    headers = {"Location": f"/api/v1/seeks/{found.pk}"} if status == 201 else None
    return respond(shape, status, headers)


def seek_request(data: dict[str, Any]) -> seeks.SeekRequest:
    computer = data.get("computer") or {}
    return seeks.SeekRequest(
        game=data["game"],
        length=data["length"],
        cube=data["cube"],
        clock=data["clock"],
        rating_min=data.get("rating_min"),
        rating_max=data.get("rating_max"),
        computer_level=computer.get("level", ""),
        computer_after=computer.get("after"),
    )


class SeeksView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, CreateThrottle)

    @docs.seek_create
    def post(self, request: Request) -> Response:
        def handle() -> Response:
            data = valid(rq.SeekCreateSerializer, request.data)
            return seek_response(seeks.seek(request.user, seek_request(data)), 201)

        return run_write(request, handle, atomic=False)


class SeekView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, MatchWriteThrottle)

    @docs.seek_read
    def get(self, request: Request, seek_id: str) -> Response:
        return seek_response(seeks.look(request.user, seek_id))

    @docs.seek_cancel
    def delete(self, request: Request, seek_id: str) -> Response:
        return run_write(
            request, lambda: seek_response(seeks.cancel(request.user, seek_id)), atomic=False
        )
