"""Token authentication: `Authorization: Token <key>` (DRF's form) or `Bearer <key>`.

Tokens are stored hashed (`ApiToken.digest`, sha256 of the key): the key is shown once, in the
answer to sign-up, login or guest, and nobody reading the database or the admin can use a
stored token. Login issues a new token each time (rotation: an old key that leaked is not
handed out again); logout deletes the token used, `{"everywhere": true}` every token of the
account. Tokens expire `TAVLA_TOKEN_MAX_AGE` seconds after they were issued (0: never); an
account keeps at most `TAVLA_TOKENS_PER_USER` (the oldest are dropped).

The account of a token is kept in the shared cache (`TAVLA_TOKEN_CACHE`, on by default when
`CACHE_URL` is Redis) under the key's digest, so a request costs one cache read instead of a
join of two tables. Logout stays immediate on every process: deleting a token, or saving its
user (suspended, deactivated, made staff), deletes the cached entry from the one cache every
process reads (signals connected in `ApiConfig.ready`). A per-process cache (locmem) could not
promise that, so with one the token is read from the database every time.

The cache is never needed (cacheguard.py): while it cannot be reached the token is read from
the database, without waiting for the cache on every request. A logout, or a change of the
user, while it is out holds at once in the database; the copies Redis may still hold when it
comes back are dropped before this process uses it again (`drop_cached_tokens`).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from rest_framework import authentication, exceptions

from . import cacheguard
from .models import ApiToken


def token_cache() -> BaseCache | None:
    alias = getattr(settings, "TAVLA_TOKEN_CACHE", "")
    return caches[alias] if alias else None


def _guarded(op: Any, default: Any) -> Any:
    """`op(cache)` on the token cache through its guard; `default` when it is out or off."""
    alias = getattr(settings, "TAVLA_TOKEN_CACHE", "")
    if not alias:
        return default
    cacheguard.on_recovery(alias, drop_cached_tokens)
    return cacheguard.guard(alias).call(op, default)


def drop_cached_tokens(cache: Any) -> None:
    """Every cached token of the cache (after an outage: deletes may have been lost)."""
    client = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client is None:
        cache.clear()  # not Redis: no pattern to delete by
        return
    redis_client = client(write=True)
    batch: list[Any] = []
    for key in redis_client.scan_iter(match=cache.make_key("tavla:token:*"), count=1000):
        batch.append(key)
        if len(batch) >= 500:
            redis_client.delete(*batch)
            batch.clear()
    if batch:
        redis_client.delete(*batch)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def cache_key(token_digest: str) -> str:
    return "tavla:token:" + token_digest[:40]


def issue_token(user: Any) -> str:
    """A new token for the account; its key (returned here only) and its digest (stored)."""
    key = secrets.token_hex(20)
    max_age = int(getattr(settings, "TAVLA_TOKEN_MAX_AGE", 0))
    now = timezone.now()
    expires = now + timedelta(seconds=max_age) if max_age > 0 else None
    keep = max(1, int(getattr(settings, "TAVLA_TOKENS_PER_USER", 10)))
    with transaction.atomic():
        ApiToken.objects.create(digest=digest(key), user=user, created_at=now, expires_at=expires)
        older = ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")[keep:]
        stale = list(older.values_list("pk", flat=True))
        expired = ApiToken.objects.filter(user=user, expires_at__lte=now)
        if stale:
            ApiToken.objects.filter(pk__in=stale).delete()
        expired.delete()
    return key


def is_guest_token(token: Any) -> bool:
    """The token of a guest account (its kind is read with the token, and cached with it: a
    guest who registers is saved, which drops the cached copy)."""
    return getattr(token, "account_kind", None) == "guest"


def revoke_all(user: Any) -> int:
    """Logout everywhere: every token of the account (the cache forgets each at once)."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted


class TokenAuthentication(authentication.BaseAuthentication):
    """The token of the `Authorization` header (keywords `Token` and `Bearer`)."""

    keywords = ("token", "bearer")

    def authenticate(self, request: Any) -> tuple[Any, ApiToken] | None:
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

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        if not key or len(key) > 128:
            raise exceptions.AuthenticationFailed("Invalid token.")
        token_digest = digest(key)
        cached = _guarded(lambda cache: cache.get(cache_key(token_digest)), None)
        if cached is not None:
            user, token = cached
        else:
            token = (
                ApiToken.objects.select_related("user")
                .annotate(account_kind=F("user__tavla_profile__kind"))  # is_guest_token()
                .filter(digest=token_digest)
                .first()
            )
            if token is None:
                raise exceptions.AuthenticationFailed("Invalid token.")
            user = token.user
        now = timezone.now()
        if token.expires_at is not None and token.expires_at <= now:
            raise exceptions.AuthenticationFailed("The token has expired: sign in again.")
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        if cached is None:
            seconds = int(getattr(settings, "TAVLA_TOKEN_CACHE_SECONDS", 300))
            if token.expires_at is not None:
                seconds = min(seconds, max(1, int((token.expires_at - now).total_seconds())))
            entry = (user, token)
            _guarded(lambda cache: cache.set(cache_key(token_digest), entry, seconds), None)
        return user, token

    def authenticate_header(self, request: Any) -> str:
        return "Token"


def forget_token(sender: Any, instance: ApiToken, **kwargs: Any) -> None:
    """post_delete of a token: logout takes effect on every process at once."""
    _guarded(lambda cache: cache.delete(cache_key(instance.digest)), None)


def forget_user_tokens(sender: Any, instance: Any, **kwargs: Any) -> None:
    """post_save of a user: the cached copy (is_active, is_staff, ...) is stale."""
    if token_cache() is not None:
        digests = ApiToken.objects.filter(user_id=instance.pk).values_list("digest", flat=True)
        keys = [cache_key(d) for d in digests]
        _guarded(lambda cache: cache.delete_many(keys), None)
