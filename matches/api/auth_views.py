"""Accounts: sign-up, token login/logout, guests, bot accounts, who am I."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.db import transaction
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.store.models import PlayerProfile

from .errors import ApiError
from .permissions import Authenticated
from .schema import AUTH, errors
from .serializers import (
    GuestSerializer,
    LoginSerializer,
    SignupSerializer,
    TokenResponseSerializer,
    UserSerializer,
)
from .throttling import AuthThrottle

TOKEN_EXAMPLE = OpenApiExample(
    "token",
    value={
        "token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
        "user": {"id": 7, "username": "ana", "display_name": "Ana", "kind": "registered"},
    },
    response_only=True,
)


def user_json(user: Any) -> dict[str, Any]:
    profile = getattr(user, "tavla_profile", None)
    return {
        "id": user.pk,
        "username": user.get_username(),
        "display_name": (profile.display_name if profile else "") or user.get_username(),
        "kind": profile.kind if profile else PlayerProfile.Kind.REGISTERED,
    }


def _token_response(user: Any, status: int) -> Response:
    token, _ = Token.objects.get_or_create(user=user)
    return Response({"token": token.key, "user": user_json(user)}, status=status)


def valid(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class SignupView(APIView):
    authentication_classes = ()
    throttle_classes = (AuthThrottle,)

    @extend_schema(
        tags=["accounts"],
        summary="Register a player (or a bot account) and get its token",
        description="Creates the account and returns its API token. `bot: true` makes a bot"
        " account for a third-party program: it plays through the same endpoints.",
        request=SignupSerializer,
        responses={
            201: OpenApiResponse(TokenResponseSerializer, examples=[TOKEN_EXAMPLE]),
            **errors("invalid_request", "parse_error", "unsupported_media_type", "throttled"),
        },
        examples=[
            OpenApiExample(
                "player",
                value={"username": "ana", "password": "a long secret", "display_name": "Ana"},
                request_only=True,
            ),
            OpenApiExample(
                "bot",
                value={"username": "gnubot", "password": "another secret", "bot": True},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = valid(SignupSerializer, request.data)
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=data["username"], password=data["password"]
            )
            kind = PlayerProfile.Kind.BOT if data["bot"] else PlayerProfile.Kind.REGISTERED
            PlayerProfile.objects.create(
                user=user, kind=kind, display_name=data.get("display_name", "")
            )
            return _token_response(user, 201)


class LoginView(APIView):
    authentication_classes = ()
    throttle_classes = (AuthThrottle,)

    @extend_schema(
        tags=["accounts"],
        summary="Log in: exchange username and password for the account's token",
        request=LoginSerializer,
        responses={
            200: OpenApiResponse(TokenResponseSerializer, examples=[TOKEN_EXAMPLE]),
            **errors(
                "invalid_request",
                "invalid_credentials",
                "parse_error",
                "unsupported_media_type",
                "throttled",
            ),
        },
        examples=[
            OpenApiExample(
                "login", value={"username": "ana", "password": "a long secret"}, request_only=True
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = valid(LoginSerializer, request.data)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            raise ApiError("invalid_credentials")
        return _token_response(user, 200)


class LogoutView(APIView):
    permission_classes = (Authenticated,)

    @extend_schema(
        tags=["accounts"],
        summary="Log out: delete the token (every client using it is signed out)",
        request=None,
        responses={204: OpenApiResponse(description="Signed out."), **errors(*AUTH)},
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, Token):
            request.auth.delete()
        else:
            Token.objects.filter(user=request.user).delete()
        return Response(status=204)


class GuestView(APIView):
    authentication_classes = ()
    throttle_classes = (AuthThrottle,)

    @extend_schema(
        tags=["accounts"],
        summary="Play as a guest: one call returns a token for a new guest account",
        description="No registration: the guest keeps playing as long as it keeps the token.",
        request=GuestSerializer,
        responses={
            201: OpenApiResponse(
                TokenResponseSerializer,
                examples=[
                    OpenApiExample(
                        "guest",
                        value={
                            "token": "4c1e0c0f3b0bd8f1a0f3e6d7c2b9a8e7f6d5c4b3",
                            "user": {
                                "id": 8,
                                "username": "guest-3f9a1c2b7d",
                                "display_name": "Marko",
                                "kind": "guest",
                            },
                        },
                        response_only=True,
                    )
                ],
            ),
            **errors("invalid_request", "parse_error", "unsupported_media_type", "throttled"),
        },
        examples=[OpenApiExample("guest", value={"display_name": "Marko"}, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        data = valid(GuestSerializer, request.data)
        with transaction.atomic():
            user = get_user_model()(username=f"guest-{secrets.token_hex(5)}")
            user.set_unusable_password()
            user.save()
            PlayerProfile.objects.create(
                user=user, kind=PlayerProfile.Kind.GUEST, display_name=data["display_name"]
            )
            return _token_response(user, 201)


class MeView(APIView):
    permission_classes = (Authenticated,)

    @extend_schema(
        tags=["accounts"],
        summary="The account this token belongs to",
        responses={
            200: OpenApiResponse(
                UserSerializer,
                examples=[
                    OpenApiExample(
                        "me",
                        value={"id": 7, "username": "ana", "display_name": "Ana", "kind": "bot"},
                    )
                ],
            ),
            **errors(*AUTH),
        },
    )
    def get(self, request: Request) -> Response:
        return Response(user_json(request.user))
