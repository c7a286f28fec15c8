"""Accounts: sign-up, token login/logout, guests, bot accounts, who am I."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.selectors import display_name, forget_player
from matches.store.models import PlayerProfile

from ..authentication import TokenAuthentication, forget_user_tokens, issue_token, revoke_all
from ..bodies import TokenResponse, User
from ..contract import respond
from ..errors import ApiError
from ..models import ApiToken
from ..permissions import Authenticated
from ..requests import GuestSerializer, LoginSerializer, LogoutSerializer, SignupSerializer
from ..schema import operations as docs
from ..throttling import AnonReadThrottle, AuthThrottle
from .common import valid


def user_json(user: Any) -> User:
    profile = getattr(user, "tavla_profile", None)
    kind = str(profile.kind if profile else PlayerProfile.Kind.REGISTERED)
    return User(
        id=user.pk,
        username=user.get_username(),
        display_name=display_name(user),
        kind=kind,  # type: ignore[arg-type]  # a PlayerProfile.Kind value
    )


def _token_response(user: Any, status: int, key: str | None = None) -> Response:
    """The account and a token: `key` (the one the client holds) or a newly issued one."""
    return respond(TokenResponse(token=key or issue_token(user), user=user_json(user)), status)


class SignupView(APIView):
    """A new account (201), or, sent with a guest's token, that guest registered (200)."""

    authentication_classes = (TokenAuthentication,)
    throttle_classes = (AnonReadThrottle, AuthThrottle)

    @docs.signup
    def post(self, request: Request) -> Response:
        if request.user.is_authenticated and not _is_guest(request.user):
            raise ApiError("already_registered")
        data = valid(SignupSerializer, request.data)
        kind = PlayerProfile.Kind.BOT if data["bot"] else PlayerProfile.Kind.REGISTERED
        if request.user.is_authenticated:
            return _register_guest(request.user, data, kind, _sent_key(request))
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=data["username"], password=data["password"]
            )
            PlayerProfile.objects.create(
                user=user, kind=kind, display_name=data.get("display_name", "")
            )
            return _token_response(user, 201)


def _is_guest(user: Any) -> bool:
    profile = getattr(user, "tavla_profile", None)
    return profile is not None and profile.kind == PlayerProfile.Kind.GUEST


def _sent_key(request: Request) -> str | None:
    """The token key the request was authenticated with (the guest keeps it)."""
    parts = request.headers.get("Authorization", "").split()
    return parts[1] if len(parts) == 2 and isinstance(request.auth, ApiToken) else None


def _register_guest(guest: Any, data: dict[str, Any], kind: Any, key: str | None) -> Response:
    """The guest becomes the account `data` describes: the same user row (so every seat,
    match and token stays his), a username, a password and a kind."""
    try:
        with transaction.atomic():
            user = get_user_model().objects.select_for_update().get(pk=guest.pk)
            profile = PlayerProfile.objects.select_for_update().get(user=user)
            if profile.kind != PlayerProfile.Kind.GUEST:  # a concurrent sign-up came first
                raise ApiError("already_registered")
            user.username = data["username"]
            user.set_password(data["password"])
            user.save(update_fields=["username", "password"])
            profile.kind = kind
            profile.display_name = data.get("display_name") or profile.display_name
            profile.save(update_fields=["kind", "display_name"])
    except IntegrityError:  # the same username taken by a concurrent sign-up
        raise ApiError("invalid_request", detail={"username": ["this username is taken"]}) from None
    # Committed: the name and kind cached for the state, and the token's cached account (the
    # user's save forgot it too, but a request in between could have cached the guest again).
    forget_player(user.pk)
    forget_user_tokens(None, user)
    return _token_response(user, 200, key)


class LoginView(APIView):
    authentication_classes = ()
    throttle_classes = (AnonReadThrottle, AuthThrottle)

    @docs.login
    def post(self, request: Request) -> Response:
        data = valid(LoginSerializer, request.data)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            raise ApiError("invalid_credentials")
        return _token_response(user, 200)


class LogoutView(APIView):
    permission_classes = (Authenticated,)

    @docs.logout
    def post(self, request: Request) -> Response:
        everywhere = valid(LogoutSerializer, request.data or {})["everywhere"]
        if isinstance(request.auth, ApiToken) and not everywhere:
            request.auth.delete()
        else:  # every sign-in of the account (also a staff session's logout of its tokens)
            revoke_all(request.user)
        return Response(status=204)


class GuestView(APIView):
    authentication_classes = ()
    throttle_classes = (AnonReadThrottle, AuthThrottle)

    @docs.guest
    def post(self, request: Request) -> Response:
        data = valid(GuestSerializer, request.data)
        with transaction.atomic():
            user = get_user_model()(username=f"{PlayerProfile.GUEST_PREFIX}{secrets.token_hex(5)}")
            user.set_unusable_password()
            user.save()
            PlayerProfile.objects.create(
                user=user, kind=PlayerProfile.Kind.GUEST, display_name=data["display_name"]
            )
            return _token_response(user, 201)


class MeView(APIView):
    permission_classes = (Authenticated,)

    @docs.me
    def get(self, request: Request) -> Response:
        return respond(user_json(request.user))
