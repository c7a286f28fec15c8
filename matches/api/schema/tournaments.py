"""The documentation of the tournaments' operations (docs/tournaments.md), applied to the views
in matches/api/views/tournaments.py as decorators."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from matches.api import requests as rq
from matches.api.contract import serializer_for
from matches.selectors.tournaments import TournamentDetail, TournamentList, TournamentStandings

from .common import AUTH, IDEMPOTENCY_KEY, errors

TAGS = ["tournaments"]
TOURNAMENT_ID = OpenApiParameter(
    "tournament_id", str, OpenApiParameter.PATH, description="The tournament's id (a UUID)."
)
DETAIL = OpenApiResponse(
    serializer_for(TournamentDetail),
    description="The tournament: its settings, players, rounds with their matches and results.",
)

tournament_list = extend_schema(
    tags=TAGS,
    operation_id="tournaments_list",
    summary="Tournaments: upcoming, running or finished",
    description="Upcoming and running ones starting soonest first, finished ones latest first"
    " (100 at most). Anyone may read them.",
    parameters=[rq.TournamentListQuerySerializer],
    responses={200: serializer_for(TournamentList), **errors("invalid_request", "throttled")},
)

tournament_create = extend_schema(
    tags=TAGS,
    operation_id="tournaments_create",
    summary="Create a tournament (staff; players where the site allows it)",
    description="A knockout or a Swiss, open for sign-up until `starts_at`. At the start time"
    " the service closes sign-up, cancels it if fewer than `min_players` joined, seeds by"
    " rating and creates the first round's matches; each later round is paired when the last"
    " match of the one before ends. A setting that cannot be played is 400 `invalid_request`"
    " naming its field.",
    request=rq.TournamentCreateSerializer,
    parameters=[IDEMPOTENCY_KEY],
    responses={
        201: DETAIL,
        **errors(
            "invalid_request",
            "parse_error",
            "unsupported_media_type",
            *AUTH,
            "permission_denied",
            "idempotency_key_reused",
            "throttled",
        ),
    },
)

tournament_read = extend_schema(
    tags=TAGS,
    operation_id="tournaments_read",
    summary="A tournament: settings, players, rounds, matches and results",
    description="`actions` says whether you may join or leave now. Follow its changes on the"
    ' WebSocket (docs/realtime.md "Tournaments").',
    parameters=[TOURNAMENT_ID],
    responses={200: DETAIL, **errors("tournament_not_found", "throttled")},
)

tournament_standings = extend_schema(
    tags=TAGS,
    operation_id="tournaments_standings",
    summary="A tournament's standings",
    description="Swiss: by points, then Buchholz, then the opponents' Buchholz, then rating."
    " Knockout: the champion, then by the round reached. `final` once it is finished.",
    parameters=[TOURNAMENT_ID],
    responses={
        200: serializer_for(TournamentStandings),
        **errors("tournament_not_found", "throttled"),
    },
)

_WRITE = ("invalid_request", *AUTH, "tournament_not_found", "tournament_refused")

tournament_join = extend_schema(
    tags=TAGS,
    operation_id="tournaments_join",
    summary="Sign up for a tournament",
    description="Until it starts (and from `signup_opens`), while it has room; guests only in"
    " a tournament that allows them. A refusal is 409 `tournament_refused` with"
    " `detail.reason` (signup_closed, already_joined, tournament_full, guests_not_allowed,"
    ' ...). Staff may enter the site\'s computer instead, with `{"computer": level}`.',
    request=rq.TournamentJoinSerializer,
    parameters=[TOURNAMENT_ID, IDEMPOTENCY_KEY],
    responses={
        200: DETAIL,
        **errors(*_WRITE, "permission_denied", "idempotency_key_reused", "throttled"),
    },
)

tournament_leave = extend_schema(
    tags=TAGS,
    operation_id="tournaments_leave",
    summary="Leave a tournament",
    description="Before the start: off the list. While it runs: withdrawn, paired no more, his"
    " unfinished match resigned (the opponent wins it).",
    request=None,
    parameters=[TOURNAMENT_ID, IDEMPOTENCY_KEY],
    responses={200: DETAIL, **errors(*_WRITE, "idempotency_key_reused", "throttled")},
)
