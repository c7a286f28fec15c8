"""Players and ratings: a player's page, his rating history, the leaderboard (the reads are
matches/selectors/players.py; the seek queue's rule on early exits is the services')."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.utils import timezone
from rest_framework.pagination import CursorPagination, LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.selectors import community, players
from matches.services import conduct

from .. import requests as rq
from ..bodies import LeaderboardPage, RatingHistoryPage
from ..contract import respond
from ..errors import ApiError
from ..schema import players as docs
from .common import query
from .matches import page_of


def _player(name: str) -> Any:
    try:
        return players.player(name)
    except players.PlayerNotFound:
        raise ApiError.because("not_found", "no_player", name=name[:40]) from None


class PlayerView(APIView):
    @docs.player
    def get(self, request: Request, name: str) -> Response:
        user = _player(name)
        recent, until = conduct.standing(user, timezone.now())
        card = players.player_card(user, players.early_exits(user, recent, until))
        return respond(replace(card, viewer=community.viewer(request.user, user)))


class PlayerMatchesView(APIView):
    @docs.player_matches
    def get(self, request: Request, name: str) -> Response:
        q = query(rq.HistoryQuerySerializer, request)
        rows = players.finished_matches(_player(name), q.get("game"), request.user)
        return page_of(request, self, rows)


class HistoryPagination(CursorPagination):
    ordering = "-order"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 100


class PlayerRatingsView(APIView):
    @docs.player_ratings
    def get(self, request: Request, name: str) -> Response:
        q = query(rq.HistoryQuerySerializer, request)
        user = _player(name)
        paginator = HistoryPagination()
        history = players.rating_history(user, q.get("game"), request.user)
        rows = paginator.paginate_queryset(history, request, view=self) or []
        return respond(
            RatingHistoryPage(
                next=paginator.get_next_link(),
                previous=paginator.get_previous_link(),
                results=[players.rating_entry(r) for r in rows],
            )
        )


class LeaderboardPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 100


class LeaderboardView(APIView):
    @docs.leaderboard
    def get(self, request: Request) -> Response:
        q = query(rq.GameQuerySerializer, request)
        paginator = LeaderboardPagination()
        rows = paginator.paginate_queryset(players.leaderboard(q["game"]), request, view=self)
        first = (paginator.offset or 0) + 1
        return respond(
            LeaderboardPage(
                count=paginator.count,
                next=paginator.get_next_link(),
                previous=paginator.get_previous_link(),
                results=[players.leaderboard_entry(r, first + i) for i, r in enumerate(rows or [])],
            )
        )
