"""Matches: create one, read one, and the lists (mine, open challenges, live)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import selectors
from matches.services import lobby
from matches.store import load_view
from matches.store.models import Match

from .. import requests as rq
from ..bodies import MatchSummaryPage
from ..contract import respond
from ..idempotency import run_write
from ..permissions import Authenticated
from ..schema import operations as docs
from ..throttling import AnonReadThrottle, CreateThrottle
from .common import query, read_state_response, seen_match, state_response, valid


class MatchPagination(CursorPagination):
    ordering = "-created_at"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 100


def page_of(request: Request, view: APIView, matches: QuerySet[Match]) -> Response:
    """One page of match summaries, each from the caller's side."""
    paginator = MatchPagination()
    rows = paginator.paginate_queryset(matches, request, view=view) or []
    ratings = selectors.ratings_for_rows(rows)
    return respond(
        MatchSummaryPage(
            next=paginator.get_next_link(),
            previous=paginator.get_previous_link(),
            results=[selectors.match_summary(m, request.user, ratings) for m in rows],
        )
    )


def match_request(data: dict[str, Any]) -> lobby.MatchRequest:
    return lobby.MatchRequest(
        mode=data["mode"],
        game=data["game"],
        length=data["length"],
        cube=data["cube"],
        crawford=data["crawford"],
        jacoby=data["jacoby"],
        backgammon_value=data["backgammon_value"],
        next_game_starter=data["next_game_starter"],
        clock=data["clock"],
        level=data["level"],
        public=data["public"],
        seat=data["seat"],
        open_challenge=data["open_challenge"],
        rated=data.get("rated"),
        hints=data["hints"],
    )


class MatchesView(APIView):
    """`GET /matches`: my matches; `POST /matches`: a new one."""

    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, CreateThrottle)

    @docs.matches_mine
    def get(self, request: Request) -> Response:
        q = query(rq.MatchListQuerySerializer, request)
        mine = selectors.matches_of(
            request.user,
            status=q.get("status"),
            mode=q.get("mode"),
            my_turn=q["my_turn"],
            game=q.get("game"),
        )
        return page_of(request, self, mine)

    @docs.matches_create
    def post(self, request: Request) -> Response:
        def handle() -> Response:
            data = valid(rq.MatchCreateSerializer, request.data)
            view = lobby.open_match(request.user, match_request(data))
            return state_response(view.match_id, view, request.user, status=201)

        return run_write(request, handle)


class ChallengesView(APIView):
    @docs.matches_challenges
    def get(self, request: Request) -> Response:
        q = query(rq.ChallengeQuerySerializer, request)
        return page_of(
            request,
            self,
            selectors.open_challenges(length=q.get("length"), cube=q["cube"], game=q.get("game")),
        )


class LiveView(APIView):
    @docs.matches_live
    def get(self, request: Request) -> Response:
        q = query(rq.LiveQuerySerializer, request)
        return page_of(
            request, self, selectors.live_matches(mode=q.get("mode"), game=q.get("game"))
        )


class MatchDetailView(APIView):
    @docs.match_state
    def get(self, request: Request, match_id: str) -> Response:
        q = query(rq.StateQuerySerializer, request)
        match = seen_match(match_id, request.user)
        view = load_view(match.pk, version=match.version)  # no query when cached at it
        return read_state_response(match, view, request.user, q.get("seat"))
