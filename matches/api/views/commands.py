"""Actions on a match by its players (roll, play, double, ...), the heartbeat, and the legal
next steps of a partial play. Each action is one service call (matches/services/play.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rules import IllegalAction, Phase, Step, parse_moves
from matches import selectors, services
from matches.errors import VersionConflict
from matches.store import load_view
from matches.store.models import Match
from matches.store.plays import first_turn_of
from matches.store.replay import MatchView

from .. import requests as rq
from ..contract import respond
from ..idempotency import run_write
from ..permissions import Authenticated, check_can_act, readable, readable_match
from ..schema import operations as docs
from ..throttling import AnonReadThrottle, MatchWriteThrottle
from .common import expected_version, query, state_response, valid, with_current_version


class CommandView(APIView):
    """A command on a match by one of its players: the shared path of every action."""

    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, MatchWriteThrottle)
    input_serializer: type = rq.EmptyWriteSerializer
    staff_may: bool = False

    def post(self, request: Request, match_id: str) -> Response:
        # One service call, itself one transaction: no outer transaction unless idempotent.
        return run_write(request, lambda: self.handle(request, match_id), atomic=False)

    def handle(self, request: Request, match_id: str) -> Response:
        user = request.user
        try:
            version = expected_version(request)  # before the body: a bad version is its own error
            data = valid(self.input_serializer, request.data)
        except APIException:  # a bad request: but 404 and 403 come first, as they always did
            self.authorize(readable_match(match_id, user), user)
            raise
        locked: list[Match] = []

        def authorize(match: Match) -> None:  # on the row the command read: one read
            self.authorize(readable(match, user), user)
            locked.append(match)  # the last one read is the one written

        try:
            view = self.run(
                match_id, user, {**data, "lag": reported_lag(request)}, version, authorize
            )
        except VersionConflict as exc:
            raise with_current_version(exc, match_id) from None
        return state_response(locked[-1], view, user)

    def authorize(self, match: Match, user: Any) -> None:
        if not (self.staff_may and user.is_staff):
            check_can_act(match, user)

    def run(
        self,
        match_id: str,
        user: Any,
        data: dict[str, Any],
        version: int | None,
        authorize: Callable[[Match], None],
    ) -> MatchView:
        raise NotImplementedError


LAG_HEADER = "Tavla-Lag"
MAX_REPORTED_LAG_MS = 60_000


def reported_lag(request: Request) -> float | None:
    """The network lag the client reports for this command (header `Tavla-Lag`, whole
    milliseconds 0-60000), in seconds; None when absent or not such a number (ignored: it
    only ever earns bounded compensation, docs/clocks.md "Lag")."""
    raw = request.headers.get(LAG_HEADER)
    if raw is None or not raw.strip().isdigit():
        return None
    ms = int(raw.strip())
    return ms / 1000 if ms <= MAX_REPORTED_LAG_MS else None


def command(
    name: str,
    service: Callable[..., MatchView],
    summary: str,
    description: str,
    rules_errors: tuple[str, ...] = ("illegal_action", "not_your_turn"),
    input_serializer: type = rq.EmptyWriteSerializer,
    example: dict[str, Any] | None = None,
    extra: Callable[[dict[str, Any]], dict[str, Any]] = lambda data: {},
) -> type[CommandView]:
    """A CommandView for one service, documented."""

    class View(CommandView):
        def run(
            self,
            match_id: str,
            user: Any,
            data: dict[str, Any],
            version: int | None,
            authorize: Callable[[Match], None],
        ) -> MatchView:
            return service(
                match_id=match_id,
                user=user,
                expected_version=version,
                authorize=authorize,
                lag=data.get("lag"),
                **extra(data),
            )

        @docs.command(name, summary, description, rules_errors, input_serializer, example)
        def post(self, request: Request, match_id: str) -> Response:
            return CommandView.post(self, request, match_id)

    View.input_serializer = input_serializer
    View.__name__ = View.__qualname__ = f"{name.title().replace('_', '').replace('-', '')}View"
    return View


RollView = command(
    "roll",
    services.match_roll,
    "Roll the dice",
    "The server rolls (never the client). If the roll cannot be played the turn passes at"
    " once (a `passed` event).",
)
PlayView = command(
    "play",
    services.match_play,
    "Play the rolled dice",
    'A whole play: notation ("24/18 13/11", "bar/22*", "6/off", "8/5(2)") or steps'
    " [[from, to], ...] in your numbering (25 = bar, 0 = off). An illegal play gets 422"
    " `illegal_play` with the rule it breaks in `detail.reason`.",
    ("illegal_play", "illegal_action", "not_your_turn", "invalid_notation"),
    rq.PlaySerializer,
    {"play": "24/18 13/11", "expected_version": 12},
    lambda data: {"play": data["play"]},
)
DoubleView = command(
    "double",
    services.match_double,
    "Offer the cube (before rolling)",
    "While the cube is centred either player may double on his turn before rolling;"
    " afterwards only its owner. Never in the Crawford game; never in long nardy (400"
    " `no_cube_in_long_nardy`).",
    ("illegal_action", "not_your_turn", "no_cube_in_long_nardy"),
)
TakeView = command(
    "take", services.match_take, "Take the double", "The cube doubles and becomes yours."
)
DropView = command(
    "drop",
    services.match_drop,
    "Drop the double",
    "You lose the game at the cube's value before the offer.",
)
ResignView = command(
    "resign",
    services.match_resign,
    "Offer to resign the game",
    "On your turn: a single (1), gammon (2) or backgammon (3), times the cube. The opponent"
    " accepts or rejects.",
    input_serializer=rq.ResignSerializer,
    example={"value": 2, "expected_version": 12},
    extra=lambda data: {"value": int(data["value"])},
)
ResignMatchView = command(
    "resign-match",
    services.match_resign_match,
    "Resign the whole match",
    "At any moment of the match, your turn or not: it ends at once and the opponent wins with"
    " the points the match still needed (an unlimited match: the cube's value). Recorded as a"
    " `match_resigned` event; `ended_by` is `resign`.",
    ("illegal_action",),
)
AcceptView = command(
    "accept",
    services.match_accept_resign,
    "Accept the opponent's resignation",
    "The game ends at the offered value times the cube.",
)
RejectView = command(
    "reject",
    services.match_reject_resign,
    "Reject the opponent's resignation",
    "Play goes on where it was.",
)
AbortView = command(
    "abort",
    services.match_abort,
    "Abort the match (before the first move)",
    "Ends the match with no winner; allowed until the first play (staff: any time).",
)
AbortView.staff_may = True


class HeartbeatView(APIView):
    permission_classes = (Authenticated,)

    @docs.heartbeat
    def post(self, request: Request, match_id: str) -> Response:
        match = readable_match(match_id, request.user)  # touches the player's presence
        check_can_act(match, request.user)
        return Response(status=204)


def parse_steps(text: str) -> list[Step]:
    return [Step(m.frm, m.to, m.hit) for m in parse_moves(text)]


class NextStepsView(APIView):
    @docs.next_steps
    def get(self, request: Request, match_id: str) -> Response:
        q = query(rq.NextStepsQuerySerializer, request)
        match = readable_match(match_id, request.user)
        state = load_view(match.pk, version=match.version).state
        if state is None or state.phase != Phase.PLAY or state.dice is None or state.turn is None:
            raise IllegalAction.because("not_rolled")
        steps = parse_steps(q["steps"])
        position = state.position_for(state.turn)
        first = first_turn_of(state)
        return respond(selectors.next_steps_json(position, state.dice, steps, first_turn=first))
