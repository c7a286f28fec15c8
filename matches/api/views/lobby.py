"""The lobby over HTTP: accept a challenge, invite codes, rematches (matches/services/lobby.py
decides)."""

from __future__ import annotations

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

    @docs.matches_join
    def post(self, request: Request, match_id: str) -> Response:
        def handle() -> Response:
            match = seen_match(match_id, request.user)
            data = valid(rq.JoinSerializer, request.data)
            view = lobby.join(match, request.user, data.get("seat"))
            return state_response(match.pk, view, request.user)

        return run_write(request, handle)


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

    @docs.rematch
    def post(self, request: Request, match_id: str) -> Response:
        def handle() -> Response:
            old = seen_match(match_id, request.user)
            check_can_act(old, request.user)
            view, created = lobby.rematch(old, request.user)
            return state_response(view.match_id, view, request.user, status=201 if created else 200)

        return run_write(request, handle)
