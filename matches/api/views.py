"""Matches: create, find, join, play, watch, export and import.

Views validate the input, call one service (matches.services) or selector
(matches.selectors), and return the state of the match from the caller's side. Writes run in
one transaction with the idempotency record (matches/api/idempotency.py); the computer's
reply and the clock's task follow from the committed events (matches/tasks/).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import parsers, renderers
from rest_framework.generics import ListAPIView
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rules.errors import IllegalAction, InvalidMatchFile, RulesError
from games.rules.match import Phase
from games.rules.notation import parse_moves
from games.rules.plays import Step
from matches import selectors, services
from matches.errors import MatchFull, VersionConflict
from matches.interop.exporting import match_to_mat
from matches.interop.importing import import_mat
from matches.services import presence
from matches.store.models import Match, MatchLobby, PlayerProfile, new_invite_code
from matches.store.replay import MatchView
from matches.store.streams import load_view, stored_events

from .auth_views import valid
from .errors import ApiError
from .idempotency import run_write
from .permissions import (
    Authenticated,
    check_can_act,
    is_seated,
    load_match,
    readable_match,
)
from .schema import (
    AUTH,
    MATCH_ID,
    READ_MATCH,
    WRITE,
    WRITE_HEADERS,
    errors,
    state_example,
)
from .serializers import (
    ChallengeQuerySerializer,
    EmptyWriteSerializer,
    EventsQuerySerializer,
    EventsSerializer,
    ImportedSerializer,
    ImportSerializer,
    JoinSerializer,
    LiveQuerySerializer,
    MatchCreateSerializer,
    MatchListQuerySerializer,
    MatchStateSerializer,
    MatchSummarySerializer,
    NextStepsQuerySerializer,
    NextStepsSerializer,
    PlaySerializer,
    ResignSerializer,
    StateQuerySerializer,
)
from .throttling import CreateThrottle, MatchWriteThrottle

# -- helpers ---------------------------------------------------------------------------------------


def parse_if_match(value: str | None) -> int | None:
    """If-Match: `"12"`, `W/"12"` or `12`; None when absent."""
    if value is None:
        return None
    text = value.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not text.isdigit() or len(text) > 10:
        raise ApiError(
            "invalid_version",
            'If-Match must be a version number like "12" (the ETag of the state).',
            {"If-Match": [value[:40]]},
        )
    return int(text)


def expected_version(request: Request, data: dict[str, Any]) -> int | None:
    header = parse_if_match(request.headers.get("If-Match"))
    body = data.get("expected_version")
    if header is not None and body is not None and header != body:
        raise ApiError(
            "invalid_version",
            "If-Match and expected_version disagree: send one of them.",
            {"If-Match": header, "expected_version": body},
        )
    return header if header is not None else body


def state_response(
    match: Match | Any,
    view: MatchView,
    user: Any,
    *,
    status: int = 200,
    seat: int | None = None,
) -> Response:
    """The state as the response of a read or a write. `match` is the Match row, or its id
    when the seats just changed (then it is read again)."""
    if not isinstance(match, Match):
        match = load_match(match)
    body = selectors.match_state(match, view, user, seat=seat)
    headers = {"ETag": f'"{view.version}"'}
    if status == 201:
        headers["Location"] = f"/api/v1/matches/{match.pk}"
    return Response(body, status=status, headers=headers)


def _conflict_with_version(exc: VersionConflict, match_id: Any) -> VersionConflict:
    if exc.current_version is None:
        current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
        exc.current_version = current
    return exc


def ensure_computer(level: str) -> None:
    user = services.computer_user(level)
    PlayerProfile.objects.get_or_create(
        user=user,
        defaults={"kind": PlayerProfile.Kind.COMPUTER, "display_name": f"Computer ({level})"},
    )


def create_lobby(match_id: Any, **fields: Any) -> MatchLobby:
    """The lobby row of a new match (a fresh invite code; retried on the rare collision)."""
    for _ in range(5):
        try:
            with transaction.atomic():
                return MatchLobby.objects.create(
                    match_id=match_id, invite_code=new_invite_code(), **fields
                )
        except IntegrityError:
            if MatchLobby.objects.filter(match_id=match_id).exists():
                raise
    raise RuntimeError("could not draw a free invite code")  # pragma: no cover


def create_match(user: Any, data: dict[str, Any], **lobby: Any) -> MatchView:
    mode = data["mode"]
    if mode == Match.Mode.COMPUTER:
        ensure_computer(data["level"])
    view = services.match_create(
        user=user,
        mode=mode,
        length=data["length"],
        cube=data["cube"],
        crawford=data["crawford"],
        jacoby=data["jacoby"],
        backgammon_value=data["backgammon_value"],
        next_game_starter=data["next_game_starter"],
        clock=data["clock"],
        computer_level=data["level"] if mode == Match.Mode.COMPUTER else "",
        public=data["public"],
        seat=data["seat"],
    )
    lobby.setdefault("open_challenge", data.get("open_challenge", False))
    if mode != Match.Mode.ONLINE:
        lobby["open_challenge"] = False
    create_lobby(view.match_id, created_by=user, **lobby)
    return view


class MatchPagination(CursorPagination):
    ordering = "-created_at"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 100


def _query(serializer_class: type, request: Request) -> dict[str, Any]:
    return valid(serializer_class, request.query_params)


STATE_200 = OpenApiResponse(MatchStateSerializer, examples=[state_example()])


# -- lists and creation -------------------------------------------------------------------------


class _SummaryListView(ListAPIView):
    """A page of match summaries, each from the caller's side."""

    pagination_class = MatchPagination
    serializer_class = MatchSummarySerializer

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(
            [selectors.match_summary(m, request.user) for m in page or []]
        )


class MatchListCreateView(_SummaryListView):
    permission_classes = (Authenticated,)
    throttle_classes = (CreateThrottle,)

    def get_queryset(self) -> Any:
        q = _query(MatchListQuerySerializer, self.request)
        return selectors.matches_of(
            self.request.user, status=q.get("status"), mode=q.get("mode"), my_turn=q["my_turn"]
        )

    @extend_schema(
        tags=["lobby"],
        operation_id="matches_mine",
        summary="My matches (newest first), filtered by status, mode, whose turn",
        parameters=[MatchListQuerySerializer],
        responses={
            200: MatchSummarySerializer(many=True),
            **errors("invalid_request", "not_found", *AUTH),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=["matches"],
        operation_id="matches_create",
        summary="Create a match: online (challenge or invite), hot-seat, or vs the computer",
        description="Online matches wait for an opponent: listed as an open challenge"
        " (`open_challenge`, default) and/or joined with the invite code shown in"
        " `lobby.invite_code`. Hot-seat and computer matches start at once (the opening roll"
        " is made by the server). The clock defaults to the site's preset online.",
        request=MatchCreateSerializer,
        parameters=[WRITE_HEADERS[1]],
        responses={
            201: OpenApiResponse(
                MatchStateSerializer,
                description="The new match, from your side. Header Location: its URL.",
                examples=[state_example("created")],
            ),
            **errors(
                "invalid_request",
                "parse_error",
                "unsupported_media_type",
                "idempotency_key_reused",
                "throttled",
                *AUTH,
            ),
        },
        examples=[
            OpenApiExample(
                "online 5 points with cube",
                value={"mode": "online", "length": 5, "cube": True, "clock": "site"},
                request_only=True,
            ),
            OpenApiExample(
                "vs the computer",
                value={"mode": "computer", "level": "random", "length": 3},
                request_only=True,
            ),
            OpenApiExample(
                "money play, hot-seat",
                value={"mode": "hotseat", "length": 0, "cube": True, "jacoby": True},
                request_only=True,
            ),
            OpenApiExample(
                "custom clock",
                value={
                    "mode": "online",
                    "length": 7,
                    "clock": {"delay": 8, "reserve": 90, "max_move": 45, "reconnect": 60},
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        def handle() -> Response:
            data = valid(MatchCreateSerializer, request.data)
            view = create_match(request.user, data)
            return state_response(view.match_id, view, request.user, status=201)

        return run_write(request, handle)


class ChallengeListView(_SummaryListView):
    def get_queryset(self) -> Any:
        q = _query(ChallengeQuerySerializer, self.request)
        return selectors.open_challenges(length=q.get("length"), cube=q["cube"])

    @extend_schema(
        tags=["lobby"],
        summary="Open challenges: online matches waiting for anyone to accept (join)",
        parameters=[ChallengeQuerySerializer],
        responses={
            200: MatchSummarySerializer(many=True),
            **errors("invalid_request", "not_found", "authentication_failed"),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class LiveListView(ChallengeListView):
    def get_queryset(self) -> Any:
        q = _query(LiveQuerySerializer, self.request)
        return selectors.live_matches(mode=q.get("mode"))

    @extend_schema(
        tags=["lobby"],
        summary="Live matches: public matches being played now (to spectate)",
        parameters=[LiveQuerySerializer],
        responses={
            200: MatchSummarySerializer(many=True),
            **errors("invalid_request", "not_found", "authentication_failed"),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


# -- one match ------------------------------------------------------------------------------


class MatchDetailView(APIView):
    @extend_schema(
        tags=["matches"],
        summary="The state of a match from your side",
        description="Board in your orientation (your checkers positive, your point numbers),"
        " dice, whose turn, what you may do now, the legal plays, cube, Crawford, score, clock,"
        " version (also the ETag), result, gnubg Position ID and Match ID. Anyone may read a"
        " public match (spectators see it from seat 0 or `?seat=`).",
        parameters=[MATCH_ID, StateQuerySerializer],
        responses={200: STATE_200, **errors("invalid_request", *READ_MATCH, *AUTH)},
    )
    def get(self, request: Request, match_id: str) -> Response:
        q = _query(StateQuerySerializer, request)
        match = readable_match(match_id, request.user)
        return state_response(match, load_view(match.pk), request.user, seat=q.get("seat"))


class CommandView(APIView):
    """A command on a match by one of its players: the shared path of every action."""

    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)
    input_serializer: type = EmptyWriteSerializer
    staff_may: bool = False

    def post(self, request: Request, match_id: str) -> Response:
        # One service call, itself one transaction: no outer transaction unless idempotent.
        return run_write(request, lambda: self.handle(request, match_id), atomic=False)

    def handle(self, request: Request, match_id: str) -> Response:
        match = readable_match(match_id, request.user)
        if not (self.staff_may and request.user.is_staff):
            check_can_act(match, request.user)
        data = valid(self.input_serializer, request.data)
        version = expected_version(request, data)
        try:
            view = self.run(match, request.user, data, version)
        except VersionConflict as exc:
            raise _conflict_with_version(exc, match.pk) from None
        return state_response(match, view, request.user)

    def run(self, match: Match, user: Any, data: dict[str, Any], version: int | None) -> MatchView:
        raise NotImplementedError


def _command(
    name: str,
    service: Callable[..., MatchView],
    summary: str,
    description: str,
    rules_errors: tuple[str, ...] = ("illegal_action",),
    input_serializer: type = EmptyWriteSerializer,
    example: dict[str, Any] | None = None,
    extra: Callable[[dict[str, Any]], dict[str, Any]] = lambda data: {},
) -> type[CommandView]:
    """A CommandView for one service, documented."""

    class View(CommandView):
        def run(
            self, match: Match, user: Any, data: dict[str, Any], version: int | None
        ) -> MatchView:
            return service(match_id=match.pk, user=user, expected_version=version, **extra(data))

    View.input_serializer = input_serializer
    View.__name__ = View.__qualname__ = f"{name.title().replace('_', '')}View"
    examples = [OpenApiExample(name, value=example or {"expected_version": 12}, request_only=True)]

    def post(self: CommandView, request: Request, match_id: str) -> Response:
        return CommandView.post(self, request, match_id)

    View.post = extend_schema(  # type: ignore[method-assign]
        tags=["play"],
        operation_id=f"matches_{name}",
        summary=summary,
        description=description
        + " Returns the new state. Only a player seated in the match may do this.",
        request=input_serializer,
        parameters=[MATCH_ID, *WRITE_HEADERS],
        responses={200: STATE_200, **errors(*WRITE, *rules_errors, "out_of_time")},
        examples=examples,
    )(post)
    return View


RollView = _command(
    "roll",
    services.match_roll,
    "Roll the dice",
    "The server rolls (never the client). If the roll cannot be played the turn passes at"
    " once (a `passed` event).",
)
PlayView = _command(
    "play",
    services.match_play,
    "Play the rolled dice",
    'A whole play: notation ("24/18 13/11", "bar/22*", "6/off", "8/5(2)") or steps'
    " [[from, to], ...] in your numbering (25 = bar, 0 = off). An illegal play gets 422"
    " `illegal_play` with the rule it breaks in `detail.reason`.",
    ("illegal_play", "illegal_action", "invalid_notation"),
    PlaySerializer,
    {"play": "24/18 13/11", "expected_version": 12},
    lambda data: {"play": data["play"]},
)
DoubleView = _command(
    "double",
    services.match_double,
    "Offer the cube (before rolling)",
    "While the cube is centred either player may double on his turn before rolling;"
    " afterwards only its owner. Never in the Crawford game.",
)
TakeView = _command(
    "take", services.match_take, "Take the double", "The cube doubles and becomes yours."
)
DropView = _command(
    "drop",
    services.match_drop,
    "Drop the double",
    "You lose the game at the cube's value before the offer.",
)
ResignView = _command(
    "resign",
    services.match_resign,
    "Offer to resign the game",
    "On your turn: a single (1), gammon (2) or backgammon (3), times the cube. The opponent"
    " accepts or rejects.",
    input_serializer=ResignSerializer,
    example={"value": 2, "expected_version": 12},
    extra=lambda data: {"value": int(data["value"])},
)
AcceptView = _command(
    "accept",
    services.match_accept_resign,
    "Accept the opponent's resignation",
    "The game ends at the offered value times the cube.",
)
RejectView = _command(
    "reject",
    services.match_reject_resign,
    "Reject the opponent's resignation",
    "Play goes on where it was.",
)
AbortView = _command(
    "abort",
    services.match_abort,
    "Abort the match (before the first move)",
    "Ends the match with no winner; allowed until the first play (staff: any time).",
)
AbortView.staff_may = True


class JoinView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @extend_schema(
        tags=["lobby"],
        operation_id="matches_join",
        summary="Accept an open challenge (or a rematch offered to you)",
        description="Takes the free seat; the opening roll follows at once. Invite-only"
        " matches are joined with POST /invites/{code}/join.",
        request=JoinSerializer,
        parameters=[MATCH_ID, WRITE_HEADERS[1]],
        responses={
            200: STATE_200,
            **errors(
                "invalid_request",
                "parse_error",
                "unsupported_media_type",
                *AUTH,
                "invite_required",
                "match_not_found",
                "match_full",
                "idempotency_key_reused",
                "throttled",
            ),
        },
        examples=[OpenApiExample("join", value={}, request_only=True)],
    )
    def post(self, request: Request, match_id: str) -> Response:
        def handle() -> Response:
            match = readable_match(match_id, request.user)
            data = valid(JoinSerializer, request.data)
            lobby = MatchLobby.objects.filter(match=match).first()
            allowed = lobby is not None and (
                lobby.open_challenge or lobby.reserved_for_id == request.user.pk
            )
            if not allowed and not is_seated(match, request.user):
                raise ApiError("invite_required", "This match is joined with its invite code only.")
            return _join(match, lobby, request.user, data.get("seat"))

        return run_write(request, handle)


def _join(match: Match, lobby: MatchLobby | None, user: Any, seat: int | None) -> Response:
    if lobby is not None and lobby.reserved_for_id not in (None, user.pk):
        raise ApiError("invite_required", "This rematch is offered to another player.")
    if match.mode != Match.Mode.ONLINE:
        raise MatchFull("only online matches can be joined")
    view = services.match_join(match_id=match.pk, user=user, seat=seat)
    return state_response(match.pk, view, user)


class InviteView(APIView):
    @extend_schema(
        tags=["lobby"],
        summary="The match an invite code (or link) belongs to",
        parameters=[OpenApiParameter("code", str, OpenApiParameter.PATH)],
        responses={
            200: MatchSummarySerializer,
            **errors("match_not_found", "authentication_failed"),
        },
    )
    def get(self, request: Request, code: str) -> Response:
        lobby = _lobby_by_code(code)
        return Response(selectors.match_summary(lobby.match, request.user))


def _lobby_by_code(code: str) -> MatchLobby:
    lobby = (
        MatchLobby.objects.select_related(
            "match", "match__player0", "match__player1", "reserved_for"
        )
        .filter(invite_code=code.strip().upper()[:16])
        .first()
    )
    if lobby is None:
        raise ApiError("match_not_found", "No match has this invite code.")
    return lobby


class InviteJoinView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (MatchWriteThrottle,)

    @extend_schema(
        tags=["lobby"],
        operation_id="invites_join",
        summary="Join a match with its invite code",
        request=JoinSerializer,
        parameters=[OpenApiParameter("code", str, OpenApiParameter.PATH), WRITE_HEADERS[1]],
        responses={
            200: STATE_200,
            **errors(
                "invalid_request",
                "parse_error",
                "unsupported_media_type",
                *AUTH,
                "invite_required",
                "match_not_found",
                "match_full",
                "idempotency_key_reused",
                "throttled",
            ),
        },
        examples=[OpenApiExample("join", value={"seat": 1}, request_only=True)],
    )
    def post(self, request: Request, code: str) -> Response:
        def handle() -> Response:
            data = valid(JoinSerializer, request.data)
            lobby = _lobby_by_code(code)
            return _join(lobby.match, lobby, request.user, data.get("seat"))

        return run_write(request, handle)


class RematchView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (CreateThrottle,)

    @extend_schema(
        tags=["lobby"],
        operation_id="matches_rematch",
        summary="Rematch: a new match with the same settings and players",
        description="Hot-seat and computer rematches start at once. Online: the new match"
        " waits for the old opponent (offered to him only); if he asked for the rematch"
        " first, this joins it. The old match's `lobby.rematch` points to the new one.",
        request=None,
        parameters=[MATCH_ID, WRITE_HEADERS[1]],
        responses={
            200: OpenApiResponse(MatchStateSerializer, description="Joined the rematch."),
            201: OpenApiResponse(MatchStateSerializer, description="The new match."),
            **errors(
                *AUTH,
                "not_a_player",
                "match_not_found",
                "illegal_action",
                "idempotency_key_reused",
                "throttled",
            ),
        },
    )
    def post(self, request: Request, match_id: str) -> Response:
        return run_write(request, lambda: self._handle(request, match_id))

    def _handle(self, request: Request, match_id: str) -> Response:
        user = request.user
        old = readable_match(match_id, user)
        check_can_act(old, user)
        old_view = load_view(old.pk)
        state = old_view.state
        if state is None or not state.is_over or old.status == Match.Status.ABORTED:
            raise IllegalAction("a rematch is offered once the match is over")
        existing = MatchLobby.objects.filter(rematch_of=old).select_related("match").first()
        if existing is None:
            try:
                with transaction.atomic():
                    return self._create(old, old_view, user)
            except IntegrityError:
                existing = MatchLobby.objects.filter(rematch_of=old).select_related("match").get()
        new = existing.match
        if is_seated(new, user) or new.status != Match.Status.WAITING:
            return state_response(new.pk, load_view(new.pk), user)
        return _join(new, existing, user, None)

    def _create(self, old: Match, old_view: MatchView, user: Any) -> Response:
        seat = old_view.seats_of(user.pk)[0]
        opponent = old.player1 if seat == 0 else old.player0
        data = {
            "mode": old.mode,
            "level": old.computer_level,
            "length": old.length,
            "cube": old.cube,
            "crawford": old.crawford,
            "jacoby": old.jacoby,
            "backgammon_value": old.backgammon_value,
            "next_game_starter": old.next_game_starter,
            "clock": old.clock,
            "public": old.public,
            "seat": seat,
        }
        online = old.mode == Match.Mode.ONLINE
        view = create_match(
            user,
            data,
            open_challenge=False,
            rematch_of=old,
            reserved_for=opponent if online else None,
        )
        return state_response(view.match_id, view, user, status=201)


class NextStepsView(APIView):
    @extend_schema(
        tags=["play"],
        summary="Legal next steps of a partial play (the player on turn's numbering)",
        description="For clients that move one checker at a time (undo stays on the client):"
        " given the single-die steps made so far, which steps may come next. An empty"
        " `next_steps` with `complete: true` means the play can be confirmed.",
        parameters=[MATCH_ID, NextStepsQuerySerializer],
        responses={
            200: OpenApiResponse(
                NextStepsSerializer,
                examples=[
                    OpenApiExample(
                        "after 24/21 with 3-1",
                        value={
                            "steps_so_far": [{"from": 24, "to": 21, "hit": False}],
                            "next_steps": [
                                {"from": 24, "to": 23, "hit": False},
                                {"from": 21, "to": 20, "hit": False},
                                {"from": 8, "to": 7, "hit": False},
                                {"from": 6, "to": 5, "hit": False},
                            ],
                            "complete": False,
                            "dice_to_use": 2,
                        },
                    )
                ],
            ),
            **errors(
                "invalid_request",
                "invalid_notation",
                "match_not_found",
                "illegal_play",
                "illegal_action",
                "authentication_failed",
            ),
        },
    )
    def get(self, request: Request, match_id: str) -> Response:
        q = _query(NextStepsQuerySerializer, request)
        match = readable_match(match_id, request.user)
        state = load_view(match.pk).state
        if state is None or state.phase != Phase.PLAY or state.dice is None or state.turn is None:
            raise IllegalAction("there is nothing to play now: the dice are not rolled")
        steps = parse_steps(q["steps"])
        return Response(
            selectors.next_steps_json(state.position_for(state.turn), state.dice, steps)
        )


def parse_steps(text: str) -> list[Step]:
    return [Step(m.frm, m.to, m.hit) for m in parse_moves(text)]


class EventsView(APIView):
    @extend_schema(
        tags=["matches"],
        summary="The match's events after a sequence number, with long-poll",
        description="Events with seq > `after`, oldest first. With `wait` (seconds, at most"
        " 30) and nothing new, the request waits until an event arrives or the time is up"
        " (then `events` is empty). Clients loop with `after` = the last seq they saw.",
        parameters=[MATCH_ID, EventsQuerySerializer],
        responses={
            200: OpenApiResponse(
                EventsSerializer,
                examples=[
                    OpenApiExample(
                        "a roll and a play",
                        value={
                            "version": 6,
                            "events": [
                                {
                                    "seq": 5,
                                    "type": "rolled",
                                    "at": "2026-05-01T12:01:00+00:00",
                                    "data": {"seat": 1, "dice": [6, 4]},
                                },
                                {
                                    "seq": 6,
                                    "type": "moved",
                                    "at": "2026-05-01T12:01:09+00:00",
                                    "data": {
                                        "seat": 1,
                                        "steps": [[24, 18, 0], [18, 14, 0]],
                                        "notation": "24/14",
                                    },
                                },
                            ],
                        },
                    )
                ],
            ),
            **errors("invalid_request", "match_not_found", "authentication_failed"),
        },
    )
    def get(self, request: Request, match_id: str) -> Response:
        q = _query(EventsQuerySerializer, request)
        match = readable_match(match_id, request.user)
        after = q["after"]
        wait = min(q["wait"], getattr(settings, "TAVLA_LONG_POLL_MAX", 30))
        events = stored_events(match.pk, after)
        deadline = time.monotonic() + wait
        pause = 0.05
        # Poll the version (one indexed row, autocommit: no transaction is held) with a short,
        # growing pause, until something arrives or the wait is over.
        touched, refresh = time.monotonic(), presence.refresh_every(match)
        while not events and time.monotonic() < deadline:
            time.sleep(min(pause, max(deadline - time.monotonic(), 0)))
            pause = min(pause * 1.5, 0.5)
            if time.monotonic() - touched >= refresh:  # still waiting: still connected
                touched = time.monotonic()
                presence.touch(match, request.user)
            if Match.objects.filter(pk=match.pk, version__gt=after).exists():
                events = stored_events(match.pk, after)
        version = events[-1].seq if events else max(after, match.version)
        return Response(
            {
                "version": version,
                "events": [
                    {
                        "seq": e.seq,
                        "type": e.type,
                        "at": e.at.isoformat(),
                        "data": {k: v for k, v in e.payload.items() if k != "v"},
                    }
                    for e in events
                ],
            }
        )


class HeartbeatView(APIView):
    permission_classes = (Authenticated,)

    @extend_schema(
        tags=["play"],
        operation_id="matches_heartbeat",
        summary="Say you are still connected to a match",
        description="A seated player of an online match with a clock who makes no request on"
        " the match (state, events long-poll, an action, or this) for longer than the clock's"
        " `reconnect` seconds loses the match by forfeit. Clients that do not long-poll send"
        " this every few seconds. Nothing is written to the match's history.",
        request=None,
        parameters=[MATCH_ID],
        responses={
            204: OpenApiResponse(description="Seen."),
            **errors("match_not_found", "not_a_player", *AUTH),
        },
    )
    def post(self, request: Request, match_id: str) -> Response:
        match = readable_match(match_id, request.user)  # touches the player's presence
        check_can_act(match, request.user)
        return Response(status=204)


class MatRenderer(renderers.BaseRenderer):
    media_type = "text/plain"
    format = "mat"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):  # type: ignore[no-untyped-def]
        if isinstance(data, str):
            return data.encode()
        return renderers.JSONRenderer().render(data)


class ExportView(APIView):
    renderer_classes = (
        renderers.JSONRenderer,
        MatRenderer,
    )

    @extend_schema(
        tags=["matches"],
        summary="Export the match as a gnubg .mat file (text/plain)",
        parameters=[MATCH_ID],
        responses={
            (200, "text/plain"): OpenApiResponse(
                str,
                description="The Jellyfish/gnubg .mat text; seat 0 in the left column.",
                examples=[
                    OpenApiExample(
                        "mat",
                        value=" 3 point match\n\n Game 1\n ana : 0   ben : 0\n  1) 31: 8/5 6/5 ...",
                    )
                ],
            ),
            **errors("match_not_found", "authentication_failed"),
        },
    )
    def get(self, request: Request, match_id: str) -> HttpResponse:
        match = readable_match(match_id, request.user)
        text = match_to_mat(match.pk)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="tavla-{match.pk}.mat"'
        return response


class PlainTextParser(parsers.BaseParser):
    media_type = "text/plain"

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return {"text": stream.read().decode("utf-8")}
        except UnicodeDecodeError:
            raise InvalidMatchFile("the file is not UTF-8 text") from None


class ImportView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (CreateThrottle,)
    parser_classes = (
        parsers.JSONParser,
        parsers.MultiPartParser,
        PlainTextParser,
    )

    @extend_schema(
        tags=["matches"],
        operation_id="matches_import",
        summary="Import a gnubg .mat file as a finished match for review",
        description="Send the file as multipart (`file`), as a text/plain body, or as JSON"
        ' `{"text": ...}`. Every move is checked by the rules: a bad file is refused with'
        " the game, move and reason, and nothing is stored.",
        request={
            "multipart/form-data": ImportSerializer,
            "application/json": ImportSerializer,
            "text/plain": str,
        },
        parameters=[WRITE_HEADERS[1]],
        responses={
            201: ImportedSerializer,
            **errors(
                "invalid_request",
                "invalid_match_file",
                "parse_error",
                "unsupported_media_type",
                *AUTH,
                "idempotency_key_reused",
                "throttled",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        def handle() -> Response:
            data = valid(ImportSerializer, request.data)
            text = data.get("text")
            upload = data.get("file")
            if upload is not None:
                if upload.size > 2_000_000:
                    raise InvalidMatchFile("the file is larger than 2 MB")
                try:
                    text = upload.read().decode("utf-8")
                except UnicodeDecodeError:
                    raise InvalidMatchFile("the file is not UTF-8 text") from None
            if not text:
                raise ApiError(
                    "invalid_request", "Send the .mat file or its text.", {"file": ["required"]}
                )
            try:
                imported = import_mat(text)
            except RulesError:
                raise
            except (LookupError, ValueError, TypeError, AssertionError) as exc:
                raise InvalidMatchFile(f"the file cannot be replayed: {exc}") from None
            create_lobby(UUID(imported.match_id), created_by=request.user, imported=True)
            match = Match.objects.select_related("player0", "player1", "lobby").get(
                pk=imported.match_id
            )
            body = {
                "match": selectors.match_summary(match, request.user),
                "games": imported.games,
                "final_score": list(imported.final_score),
                "winner": imported.winner,
            }
            return Response(body, status=201, headers={"Location": f"/api/v1/matches/{match.pk}"})

        return run_write(request, handle)


__all__ = [
    "AbortView",
    "AcceptView",
    "ChallengeListView",
    "DoubleView",
    "DropView",
    "EventsView",
    "ExportView",
    "ImportView",
    "InviteJoinView",
    "InviteView",
    "JoinView",
    "LiveListView",
    "MatchDetailView",
    "MatchListCreateView",
    "NextStepsView",
    "PlayView",
    "RejectView",
    "RematchView",
    "ResignView",
    "RollView",
    "TakeView",
]
