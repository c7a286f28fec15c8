"""Rate limits on writes: match creation, match actions, sign-up/login/guest.

Scopes and rates are in settings (`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, from the
`API_THROTTLE_*` environment variables). Reads are never throttled here. Counters live in the
Django cache: per process with the default local-memory cache, shared with `CACHE_URL=redis://`.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class WriteThrottle(SimpleRateThrottle):
    """Limits the unsafe requests of one user (or one IP when anonymous) in a scope."""

    scope = ""

    def __init__(self) -> None:  # rates are read per request, so settings changes apply
        pass

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        self.rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = request.user
        ident = user.pk if user and user.is_authenticated else self.get_ident(request)
        return f"throttle_{self.scope}_{ident}"


class AuthThrottle(WriteThrottle):
    scope = "auth"


class CreateThrottle(WriteThrottle):
    scope = "match_create"


class MatchWriteThrottle(WriteThrottle):
    scope = "match_write"
