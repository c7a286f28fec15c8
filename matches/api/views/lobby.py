"""The lobby over HTTP: accept a challenge, invite codes, rematches (matches/services/lobby.py
decides)."""

from __future__ import annotations

from typing import Any, ClassVar

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import selectors
from matches.services import lobby

from .. import requests as rq
from ..contract import respond
from ..idempotency import run_write
from ..permissions import Authenticated, check_can_act
from ..schema import operations as docs
from ..throttling import AnonReadThrottle, CreateThrottle, MatchWriteThrottle
from .common import seen_match, state_response, valid


class JoinView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, MatchWriteThrottle)
    atomic_write: ClassVar[bool] = True
    keyed: ClassVar[bool] = True

    @docs.matches_join
    def post(self, request: Request, match_id: str) -> Response:
        return run_write(
            request, lambda: self.answer(request.user, match_id, request.data, None, None)
        )

    @classmethod
    def answer(
        cls, user: Any, match_id: str, body: Any, if_match: str | None, lag: float | None
    ) -> Response:
        """The response, over HTTP or a socket (matches/streams/commands.py)."""
        match = seen_match(match_id, user)
        data = valid(rq.JoinSerializer, body)
        view = lobby.join(match, user, data.get("seat"))
        return state_response(match.pk, view, user)


class InviteView(APIView):
    @docs.invite
    def get(self, request: Request, code: str) -> Response:
        found = lobby.lobby_by_code(code)
        return respond(selectors.match_summary(found.match, request.user))


class InviteJoinView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, MatchWriteThrottle)

    @docs.invite_join
    def post(self, request: Request, code: str) -> Response:
        def handle() -> Response:
            data = valid(rq.JoinSerializer, request.data)
            view = lobby.join_by_code(code, request.user, data.get("seat"))
            return state_response(view.match_id, view, request.user)

        return run_write(request, handle)


class RematchView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, CreateThrottle)
    atomic_write: ClassVar[bool] = True
    keyed: ClassVar[bool] = True

    @docs.rematch
    def post(self, request: Request, match_id: str) -> Response:
        return run_write(
            request, lambda: self.answer(request.user, match_id, request.data, None, None)
        )

    @classmethod
    def answer(
        cls, user: Any, match_id: str, body: Any, if_match: str | None, lag: float | None
    ) -> Response:
        """The response, over HTTP or a socket (matches/streams/commands.py)."""
        old = seen_match(match_id, user)
        check_can_act(old, user)
        view, created = lobby.rematch(old, user)
        return state_response(view.match_id, view, user, status=201 if created else 200)
