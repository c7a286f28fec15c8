"""Tournaments over HTTP: create, list, read, join, leave, standings (matches/services/
tournaments.py decides; matches/selectors/tournaments.py reads; docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.selectors import tournaments as reads
from matches.services import tournaments
from matches.store.tournament_models import Tournament
from matches.tournaments.settings import TournamentSettings

from .. import requests as rq
from ..contract import respond
from ..errors import ApiError
from ..idempotency import run_write
from ..permissions import Authenticated
from ..schema import tournaments as docs
from ..throttling import AnonReadThrottle, CreateThrottle, MatchWriteThrottle
from .common import valid


def detail_response(row: Tournament, user: Any, status: int = 200) -> Response:
    row, state = tournaments.load(row.pk)
    headers = {"Location": f"/api/v1/tournaments/{row.pk}"} if status == 201 else None
    return respond(reads.detail(row, state, user), status, headers)


def may_create(user: Any) -> bool:
    """Staff always; players where the site allows it (TAVLA_PLAYERS_CREATE_TOURNAMENTS)."""
    allowed = bool(getattr(django_settings, "TAVLA_PLAYERS_CREATE_TOURNAMENTS", False))
    return bool(user.is_staff) or allowed


class TournamentsView(APIView):
    throttle_classes = (AnonReadThrottle, CreateThrottle)

    def get_permissions(self) -> list[Any]:
        return [Authenticated()] if self.request.method == "POST" else []

    @docs.tournament_list
    def get(self, request: Request) -> Response:
        query = valid(rq.TournamentListQuerySerializer, request.query_params)
        return respond(reads.listed(query.get("status")))

    @docs.tournament_create
    def post(self, request: Request) -> Response:
        def handle() -> Response:
            if not may_create(request.user):
                raise ApiError.because("permission_denied", "staff_create_tournaments")
            data = valid(rq.TournamentCreateSerializer, request.data)
            row = tournaments.create(request.user, TournamentSettings(**data))
            return detail_response(row, request.user, 201)

        return run_write(request, handle, atomic=False)


class TournamentView(APIView):
    throttle_classes = (AnonReadThrottle,)

    @docs.tournament_read
    def get(self, request: Request, tournament_id: str) -> Response:
        row, state = tournaments.load(tournament_id)
        return respond(reads.detail(row, state, request.user))


class TournamentStandingsView(APIView):
    throttle_classes = (AnonReadThrottle,)

    @docs.tournament_standings
    def get(self, request: Request, tournament_id: str) -> Response:
        row, state = tournaments.load(tournament_id)
        return respond(reads.standings(row, state))


class TournamentJoinView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.tournament_join
    def post(self, request: Request, tournament_id: str) -> Response:
        def handle() -> Response:
            data = valid(rq.TournamentJoinSerializer, request.data or {})
            if "computer" not in data:
                tournaments.join(request.user, tournament_id)
            elif not request.user.is_staff:
                raise ApiError.because("permission_denied", "staff_enter_computer")
            else:
                _, state = tournaments.load(tournament_id)
                game = state.settings.game if state.settings else ""
                level = rq.level_of(game, data["computer"], "computer")
                tournaments.enter_computer(request.user.pk, tournament_id, level)
            row, _ = tournaments.load(tournament_id)
            return detail_response(row, request.user)

        return run_write(request, handle, atomic=False)


class TournamentLeaveView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @docs.tournament_leave
    def post(self, request: Request, tournament_id: str) -> Response:
        def handle() -> Response:
            tournaments.leave(request.user.pk, tournament_id)
            row, _ = tournaments.load(tournament_id)
            return detail_response(row, request.user)

        return run_write(request, handle, atomic=False)
