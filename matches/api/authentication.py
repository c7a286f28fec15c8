"""Token authentication: `Authorization: Token <key>` (DRF's form) or `Bearer <key>`.

One token per account (DRF's authtoken table): sign-up, login and the guest call return it,
logout deletes it (signing out every client of that account).
"""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


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

    def authenticate_header(self, request: Any) -> str:
        return "Token"
