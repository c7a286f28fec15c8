"""Rate limits: writes per scope, reads without an account (anonymous or a guest's, per
address), and the expensive rules service.

Scopes and rates are in settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, from the
`API_THROTTLE_*` environment variables). A signed-in caller is counted by account, an anonymous
one by address: `clientip.client_ip`, which believes `X-Forwarded-For` only from the proxies in
`TRUSTED_PROXIES` (a client that forges the header is still counted by its own address).
Counters live in the Django cache (matches/api/ratecount.py: a sliding window, one round trip
to Redis per request): per process with the default local-memory cache, shared with
`CACHE_URL=redis://` (and per process again while that Redis is out). Failed logins are
limited per account and per address by django-axes (settings `AXES_*`).
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from . import ratecount
from .authentication import is_guest_token
from .clientip import request_ip


class ScopedThrottle(SimpleRateThrottle):
    """One scope's rate (read per request, so settings changes apply), per account or
    per client address."""

    scope = ""

    def __init__(self) -> None:
        self.retry_after = 0.0

    def applies(self, request: Any) -> bool:
        return True

    def allow_request(self, request: Any, view: Any) -> bool:
        if not self.applies(request):
            return True
        self.rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if self.rate is None:
            return True
        limit, seconds = self.parse_rate(self.rate)
        allowed, self.retry_after = ratecount.hit(
            self.get_cache_key(request, view), limit, seconds, self.timer()
        )
        return allowed

    def wait(self) -> float:
        return self.retry_after

    def get_ident(self, request: Any) -> str:
        return request_ip(request)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = request.user
        ident = user.pk if user and user.is_authenticated else self.get_ident(request)
        return f"throttle_{self.scope}_{ident}"


class WriteThrottle(ScopedThrottle):
    """Limits the unsafe requests of one user (or one address when anonymous) in a scope."""

    def applies(self, request: Any) -> bool:
        return request.method not in SAFE_METHODS


class AuthThrottle(WriteThrottle):
    scope = "auth"


class CreateThrottle(WriteThrottle):
    scope = "match_create"


class MatchWriteThrottle(WriteThrottle):
    scope = "match_write"


class AnonReadThrottle(ScopedThrottle):
    """Reads by a client without an account of its own, per address: without a token
    (`API_THROTTLE_ANON_READ`), or with a guest's (`API_THROTTLE_GUEST_READ`, counted apart).
    Guest accounts are free, so a limit per account would let one address read without bound
    by taking new guests."""

    scope = "anon_read"

    def applies(self, request: Any) -> bool:
        if request.method not in SAFE_METHODS:
            return False
        user = request.user
        if not (user and user.is_authenticated):
            self.scope = "anon_read"
            return True
        if is_guest_token(request.auth):
            self.scope = "guest_read"
            return True
        return False

    def get_cache_key(self, request: Any, view: Any) -> str:
        return f"throttle_{self.scope}_{self.get_ident(request)}"


class RulesThrottle(ScopedThrottle):
    """The stateless rules service computes for anyone: its own, lower rate."""

    scope = "rules"


class ChatThrottle(WriteThrottle):
    """Chat lines of one user, over HTTP and the socket alike (`API_THROTTLE_CHAT`)."""

    scope = "chat"
