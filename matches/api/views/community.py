"""Players among players over HTTP (issue 28): match chat, follow and block, the lists of
whom you follow and block, direct challenges, reports. The services decide
(matches/services/chat.py, follows.py, blocks.py, challenges.py, reports.py); the reads and
the shapes are matches/selectors/community.py."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.selectors import community
from matches.services import blocks, challenges, chat, follows, reports

from .. import requests as rq
from ..contract import respond
from ..idempotency import run_write
from ..permissions import Authenticated
from ..schema import community as docs
from ..throttling import AnonReadThrottle, ChatThrottle, MatchWriteThrottle
from .common import query, seen_match, valid
from .players import _player


class ChatView(APIView):
    """`GET /matches/{id}/chat?after=`: the lines after an id; `POST`: say one."""

    throttle_classes = (AnonReadThrottle, ChatThrottle)

    def get_permissions(self) -> list[Any]:
        return [Authenticated()] if self.request.method == "POST" else []

    @docs.chat_read
    def get(self, request: Request, match_id: str) -> Response:
        q = query(rq.ChatQuerySerializer, request)
        match = seen_match(match_id, request.user)
        return respond(community.chat_after(match, request.user, q["after"], q["kibitz"]))

    @docs.chat_say
    def post(self, request: Request, match_id: str) -> Response:
        return run_write(request, lambda: self.answer(request.user, match_id, request.data))

    @staticmethod
    def answer(user: Any, match_id: str, body: Any) -> Response:
        """The answer to a line said over HTTP or the socket (matches/streams/commands.py)."""
        data = valid(rq.ChatPostSerializer, body)
        seen_match(match_id, user)
        said = chat.say(
            user=user,
            match_id=match_id,
            channel=data["channel"],
            text=data.get("text"),
            quick=data.get("quick"),
        )
        return respond(community.chat_message(said), 201)


class FollowView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.follow
    def post(self, request: Request, name: str) -> Response:
        other = _player(name)
        follows.follow(request.user, other)
        return respond(community.Following(True))

    @docs.unfollow
    def delete(self, request: Request, name: str) -> Response:
        follows.unfollow(request.user, _player(name))
        return respond(community.Following(False))


class BlockView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.block
    def post(self, request: Request, name: str) -> Response:
        blocks.block(request.user, _player(name))
        return respond(community.Blocking(True))

    @docs.unblock
    def delete(self, request: Request, name: str) -> Response:
        blocks.unblock(request.user, _player(name))
        return respond(community.Blocking(False))


class FollowingView(APIView):
    permission_classes = (Authenticated,)

    @docs.following
    def get(self, request: Request) -> Response:
        return respond(community.following(request.user))


class BlockedView(APIView):
    permission_classes = (Authenticated,)

    @docs.blocked
    def get(self, request: Request) -> Response:
        return respond(community.blocked(request.user))


class ChallengesView(APIView):
    """`GET /challenges`: your pending ones; `POST`: challenge a player by name."""

    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.challenges_read
    def get(self, request: Request) -> Response:
        return respond(community.challenges(*challenges.pending(request.user)))

    @docs.challenge_create
    def post(self, request: Request) -> Response:
        def handle() -> Response:
            data = valid(rq.ChallengeCreateSerializer, request.data)
            made = challenges.challenge(request.user, _player(data["to"]), data)
            return respond(community.challenge(made), 201)

        return run_write(request, handle, atomic=False)


class ChallengeView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.challenge_cancel
    def delete(self, request: Request, challenge_id: str) -> Response:
        return respond(community.challenge(challenges.cancel(request.user, challenge_id)))


class ChallengeAcceptView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.challenge_accept
    def post(self, request: Request, challenge_id: str) -> Response:
        return run_write(
            request,
            lambda: respond(community.challenge(challenges.accept(request.user, challenge_id))),
            atomic=False,
        )


class ChallengeDeclineView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.challenge_decline
    def post(self, request: Request, challenge_id: str) -> Response:
        return respond(community.challenge(challenges.decline(request.user, challenge_id)))


class ReportsView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.report
    def post(self, request: Request) -> Response:
        def handle() -> Response:
            data = valid(rq.ReportSerializer, request.data)
            made = reports.report(
                reporter=request.user,
                player=_player(data["player"]),
                reason=data["reason"],
                text=data.get("text") or "",
                message_id=data.get("message"),
                match_id=data.get("match"),
            )
            return respond(community.ReportReceipt(made.pk, made.status), 201)

        return run_write(request, handle, atomic=False)
