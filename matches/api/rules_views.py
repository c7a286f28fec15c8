"""The stateless rules service: legal plays and legal next steps of any position."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import bots
from games.rules.dice import Dice
from games.rules.gnubgid import position_from_id
from matches import selectors

from .auth_views import valid
from .schema import errors
from .serializers import (
    LevelsSerializer,
    NextStepsSerializer,
    RulesNextStepsQuerySerializer,
    RulesPlaysQuerySerializer,
    RulesPlaysSerializer,
)
from .views import parse_steps


class LegalPlaysView(APIView):
    @extend_schema(
        tags=["rules"],
        summary="Legal plays of a position and a roll",
        description="Every distinct legal play of the player on roll (as gnubg lists them):"
        " notation, single-die steps and the resulting position (Position ID with the"
        " opponent on roll, and the board from the mover's side). An empty list: the roll"
        " cannot be played.",
        parameters=[RulesPlaysQuerySerializer],
        responses={
            200: OpenApiResponse(
                RulesPlaysSerializer,
                examples=[
                    OpenApiExample(
                        "opening 2-1 (first of 15 plays)",
                        value={
                            "position_id": "4HPwATDgc/ABMA",
                            "dice": [2, 1],
                            "plays": [
                                {
                                    "notation": "13/11 6/5",
                                    "steps": [
                                        {"from": 13, "to": 11, "hit": False},
                                        {"from": 6, "to": 5, "hit": False},
                                    ],
                                    "position_id": "4HPwATDgc/ABMA",
                                    "board": {
                                        "points": [
                                            -2,
                                            0,
                                            0,
                                            0,
                                            1,
                                            4,
                                            0,
                                            3,
                                            0,
                                            0,
                                            1,
                                            -5,
                                            4,
                                            0,
                                            0,
                                            0,
                                            -3,
                                            0,
                                            -5,
                                            0,
                                            0,
                                            0,
                                            0,
                                            2,
                                        ],
                                        "bar": {"you": 0, "opponent": 0},
                                        "off": {"you": 0, "opponent": 0},
                                    },
                                }
                            ],
                        },
                    )
                ],
            ),
            **errors("invalid_request", "invalid_id", "invalid_dice", "authentication_failed"),
        },
    )
    def get(self, request: Request) -> Response:
        q = valid(RulesPlaysQuerySerializer, request.query_params)
        position = position_from_id(q["position_id"])
        dice = Dice.parse(q["dice"])
        return Response(
            {
                "position_id": q["position_id"],
                "dice": dice.to_json(),
                "plays": selectors.plays_json(position, dice, board=True),
            }
        )


class RulesNextStepsView(APIView):
    @extend_schema(
        tags=["rules"],
        summary="Legal next steps of a partial play in any position",
        parameters=[RulesNextStepsQuerySerializer],
        responses={
            200: OpenApiResponse(
                NextStepsSerializer,
                examples=[
                    OpenApiExample(
                        "opening 3-1 after 8/5",
                        value={
                            "steps_so_far": [{"from": 8, "to": 5, "hit": False}],
                            "next_steps": [
                                {"from": 24, "to": 23, "hit": False},
                                {"from": 8, "to": 7, "hit": False},
                                {"from": 6, "to": 5, "hit": False},
                                {"from": 5, "to": 4, "hit": False},
                            ],
                            "complete": False,
                            "dice_to_use": 2,
                        },
                    )
                ],
            ),
            **errors(
                "invalid_request",
                "invalid_id",
                "invalid_dice",
                "invalid_notation",
                "illegal_play",
                "authentication_failed",
            ),
        },
    )
    def get(self, request: Request) -> Response:
        q = valid(RulesNextStepsQuerySerializer, request.query_params)
        position = position_from_id(q["position_id"])
        dice = Dice.parse(q["dice"])
        return Response(selectors.next_steps_json(position, dice, parse_steps(q["steps"])))


class LevelsView(APIView):
    @extend_schema(
        tags=["rules"],
        summary="The computer's levels, weakest first",
        responses={
            200: OpenApiResponse(
                LevelsSerializer, examples=[OpenApiExample("levels", value={"levels": ["random"]})]
            ),
            **errors("authentication_failed"),
        },
    )
    def get(self, request: Request) -> Response:
        return Response({"levels": bots.levels()})
