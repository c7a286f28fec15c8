"""The stateless rules service: the games' board facts, legal plays and legal next steps of
any position."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import bots
from games.rules import Dice
from matches import selectors

from ..bodies import Levels
from ..contract import respond
from ..requests import (
    GameQuerySerializer,
    RulesNextStepsQuerySerializer,
    RulesPlaysPageSerializer,
)
from ..schema import operations as docs
from ..throttling import AnonReadThrottle, RulesThrottle
from .commands import parse_steps
from .common import valid


class LegalPlaysView(APIView):
    throttle_classes = (AnonReadThrottle, RulesThrottle)

    @docs.legal_plays
    def get(self, request: Request) -> Response:
        q = valid(RulesPlaysPageSerializer, request.query_params)
        dice = Dice.parse(q["dice"])
        page = selectors.rules_plays(
            q["position"],
            dice,
            q.get("position_id"),
            first_turn=q["first_turn"],
            offset=q["offset"],
            limit=q["limit"],
        )
        return respond(page)


class RulesNextStepsView(APIView):
    throttle_classes = (AnonReadThrottle, RulesThrottle)

    @docs.rules_next_steps
    def get(self, request: Request) -> Response:
        q = valid(RulesNextStepsQuerySerializer, request.query_params)
        dice = Dice.parse(q["dice"])
        steps = parse_steps(q["steps"])
        return respond(
            selectors.next_steps_json(q["position"], dice, steps, first_turn=q["first_turn"])
        )


class GamesView(APIView):
    @docs.rules_games
    def get(self, request: Request) -> Response:
        return respond(selectors.games_json())


class LevelsView(APIView):
    @docs.levels
    def get(self, request: Request) -> Response:
        game = valid(GameQuerySerializer, request.query_params)["game"]
        return respond(
            Levels(game=game, levels=bots.levels(game), default=bots.default_level(game))
        )
