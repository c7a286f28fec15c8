"""Actions on a match by its players (roll, play, double, ...), the heartbeat, and the legal
next steps of a partial play. Each action is one service call (matches/services/play.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import games.rules as rules
from games.rules import IllegalAction, Phase, Step, parse_moves
from matches import selectors, services
from matches.errors import VersionConflict
from matches.services.access import check_can_act
from matches.store import load_view
from matches.store.plays import first_turn_of

from .. import requests as rq
from ..contract import respond
from ..idempotency import run_write
from ..permissions import Authenticated
from ..schema import operations as docs
from ..throttling import AnonReadThrottle, MatchWriteThrottle
from .common import (
    agreed_version,
    query,
    seen_match,
    state_response,
    valid,
    with_current_version,
)


class CommandView(APIView):
    """A command on a match by one of its players: the shared path of every action.

    The view authenticates and parses; the service (`services.run`) loads the row,
    authorises, decides once and appends, and gives back the row and the view the response
    is made of."""

    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, MatchWriteThrottle)
    input_serializer: type = rq.EmptyWriteSerializer
    kind: type[services.Ask] = services.Ask
    fields: Callable[[dict[str, Any]], dict[str, Any]] = staticmethod(lambda data: {})

    atomic_write: ClassVar[bool] = False  # one service call, itself one transaction
    keyed: ClassVar[bool] = True  # an Idempotency-Key is honoured

    def post(self, request: Request, match_id: str) -> Response:
        # One service call, itself one transaction: no outer transaction unless idempotent.
        def handle() -> Response:
            if_match = request.headers.get("If-Match")
            return self.answer(
                request.user, match_id, request.data, if_match, reported_lag(request)
            )

        return run_write(request, handle, atomic=False)

    @classmethod
    def answer(
        cls, user: Any, match_id: str, body: Any, if_match: str | None, lag: float | None
    ) -> Response:
        """The response to the command, over HTTP or a socket (matches/streams/commands.py)."""
        try:
            version = agreed_version(if_match, body)  # before the body: a bad version first
            data = valid(cls.input_serializer, body)
        except APIException:  # a bad request: but 404 and 403 come first, as they always did
            check_can_act(seen_match(match_id, user), user, staff_may=cls.kind.staff_may)
            raise
        command = services.Command(
            match_id,
            user,
            cls.kind(**cls.fields(data)),
            expected_version=version,
            lag=lag,
            request=True,
        )
        try:
            done = services.run(command)
        except VersionConflict as exc:
            raise with_current_version(exc, match_id) from None
        return state_response(done.match, done.view, user)


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
    kind: type[services.Ask],
    summary: str,
    description: str,
    rules_errors: tuple[str, ...] = ("illegal_action", "not_your_turn"),
    input_serializer: type = rq.EmptyWriteSerializer,
    example: dict[str, Any] | None = None,
    fields: Callable[[dict[str, Any]], dict[str, Any]] = lambda data: {},
) -> type[CommandView]:
    """A CommandView for one kind of command: what it asks (`kind`, with the `fields` taken
    from the request's body), documented."""

    class View(CommandView):
        @docs.command(name, summary, description, rules_errors, input_serializer, example)
        def post(self, request: Request, match_id: str) -> Response:
            return CommandView.post(self, request, match_id)

    View.kind = kind
    View.fields = staticmethod(fields)
    View.input_serializer = input_serializer
    View.__name__ = View.__qualname__ = f"{name.title().replace('_', '').replace('-', '')}View"
    return View


RollView = command(
    "roll",
    services.Roll,
    "Roll the dice",
    "The server rolls (never the client). If the roll cannot be played the turn passes at"
    " once (a `passed` event).",
)
PlayView = command(
    "play",
    services.PlayDice,
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
    services.Act,
    "Offer the cube (before rolling)",
    "While the cube is centred either player may double on his turn before rolling;"
    " afterwards only its owner. Never in the Crawford game; never in long nardy (400"
    " `no_cube_in_long_nardy`).",
    ("illegal_action", "not_your_turn", "no_cube_in_long_nardy"),
    fields=lambda data: {"action": rules.Double},
)
TakeView = command(
    "take",
    services.Act,
    "Take the double",
    "The cube doubles and becomes yours.",
    fields=lambda data: {"action": rules.Take},
)
DropView = command(
    "drop",
    services.Act,
    "Drop the double",
    "You lose the game at the cube's value before the offer.",
    fields=lambda data: {"action": rules.Drop},
)
ResignView = command(
    "resign",
    services.Resign,
    "Offer to resign the game",
    "On your turn: a single (1), gammon (2) or backgammon (3), times the cube. The opponent"
    " accepts or rejects.",
    input_serializer=rq.ResignSerializer,
    example={"value": 2, "expected_version": 12},
    fields=lambda data: {"value": int(data["value"])},
)
ResignMatchView = command(
    "resign-match",
    services.ResignMatch,
    "Resign the whole match",
    "At any moment of the match, your turn or not: it ends at once and the opponent wins with"
    " the points the match still needed (an unlimited match: the cube's value). Recorded as a"
    " `match_resigned` event; `ended_by` is `resign`.",
    ("illegal_action",),
)
AcceptView = command(
    "accept",
    services.Act,
    "Accept the opponent's resignation",
    "The game ends at the offered value times the cube.",
    fields=lambda data: {"action": rules.AcceptResign},
)
RejectView = command(
    "reject",
    services.Act,
    "Reject the opponent's resignation",
    "Play goes on where it was.",
    fields=lambda data: {"action": rules.RejectResign},
)
AbortView = command(
    "abort",
    services.AbortMatch,
    "Abort the match (before the first move)",
    "Ends the match with no winner; allowed until the first play (staff: any time).",
)


class HeartbeatView(APIView):
    permission_classes = (Authenticated,)
    atomic_write: ClassVar[bool] = False
    keyed: ClassVar[bool] = False  # nothing is written but presence: a key changes nothing

    @docs.heartbeat
    def post(self, request: Request, match_id: str) -> Response:
        return self.answer(request.user, match_id, request.data, None, None)

    @classmethod
    def answer(
        cls, user: Any, match_id: str, body: Any, if_match: str | None, lag: float | None
    ) -> Response:
        match = seen_match(match_id, user)  # the player's presence: he is here
        check_can_act(match, user)
        return Response(status=204)


def parse_steps(text: str) -> list[Step]:
    return [Step(m.frm, m.to, m.hit) for m in parse_moves(text)]


class NextStepsView(APIView):
    @docs.next_steps
    def get(self, request: Request, match_id: str) -> Response:
        q = query(rq.NextStepsQuerySerializer, request)
        match = seen_match(match_id, request.user)
        state = load_view(match.pk, version=match.version).state
        if state is None or state.phase != Phase.PLAY or state.dice is None or state.turn is None:
            raise IllegalAction.because("not_rolled")
        steps = parse_steps(q["steps"])
        position = state.position_for(state.turn)
        first = first_turn_of(state)
        return respond(selectors.next_steps_json(position, state.dice, steps, first_turn=first))
