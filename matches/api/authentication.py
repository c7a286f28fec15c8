"""Token authentication: `Authorization: Token <key>` (DRF's form) or `Bearer <key>`.

One token per account (DRF's authtoken table): sign-up, login and the guest call return it,
logout deletes it (signing out every client of that account).

The account of a token is kept in the shared cache (`TAVLA_TOKEN_CACHE`, on by default when
`CACHE_URL` is Redis), so a request costs one cache read instead of a join of two tables.
Logout stays immediate on every process: deleting a token, or saving its user (suspended,
deactivated, made staff), deletes the cached entry from the one cache every process reads
(signals connected in `ApiConfig.ready`). A per-process cache (locmem) could not promise that,
so with one the token is read from the database every time.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


def token_cache() -> BaseCache | None:
    alias = getattr(settings, "TAVLA_TOKEN_CACHE", "")
    return caches[alias] if alias else None


def cache_key(key: str) -> str:
    return "tavla:token:" + hashlib.sha256(key.encode()).hexdigest()[:40]


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, also accepting the `Bearer` keyword most clients send."""

    keywords = ("token", "bearer")

    def authenticate(self, request: Any) -> tuple[Any, Token] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].decode("latin-1").lower() not in self.keywords:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Send 'Authorization: Token <key>'.")
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("The token has invalid characters.") from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        cache = token_cache()
        if cache is None:
            return super().authenticate_credentials(key)
        cached = cache.get(cache_key(key))
        if cached is not None:
            return cached
        user, token = super().authenticate_credentials(key)
        cache.set(
            cache_key(key), (user, token), getattr(settings, "TAVLA_TOKEN_CACHE_SECONDS", 300)
        )
        return user, token

    def authenticate_header(self, request: Any) -> str:
        return "Token"


def forget_token(sender: Any, instance: Token, **kwargs: Any) -> None:
    """post_delete of a Token: logout takes effect on every process at once."""
    cache = token_cache()
    if cache is not None:
        cache.delete(cache_key(instance.key))


def forget_user_tokens(sender: Any, instance: Any, **kwargs: Any) -> None:
    """post_save of a user: the cached copy (is_active, is_staff, ...) is stale."""
    cache = token_cache()
    if cache is not None:
        keys = Token.objects.filter(user_id=instance.pk).values_list("key", flat=True)
        cache.delete_many([cache_key(k) for k in keys])
