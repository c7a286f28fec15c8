"""One deployed-like site for the package (tests/security/site.py); rows the tests make are
committed (transactional_db), since the server is another process."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection

from .site import Site


@pytest.fixture(scope="package")
def site(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any) -> Iterator[Site]:
    s = Site(tmp_path_factory.mktemp("security"), dict(connection.settings_dict))
    try:
        s.start()
    except BaseException:
        print(s.logs())
        s.stop()
        raise
    yield s
    s.stop()


@dataclass
class Account:
    user: Any
    token: str
    password: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Token {self.token}"}


@pytest.fixture
def account(transactional_db: Any) -> Any:
    """account(name, staff=False): a registered player (committed) and a token of his."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from matches.api.authentication import issue_token
    from matches.store.models import PlayerProfile

    def make(name: str, *, staff: bool = False) -> Account:
        password = f"{name} has a long secret"
        user = get_user_model().objects.create_user(
            username=name, is_staff=staff, is_superuser=staff
        )
        # hashed as the server's settings read it (the suite's own hasher is MD5, for speed)
        hasher = PBKDF2PasswordHasher()
        user.password = hasher.encode(password, hasher.salt(), iterations=1000)
        user.save(update_fields=["password"])
        PlayerProfile.objects.create(user=user, kind=PlayerProfile.Kind.REGISTERED)
        return Account(user, issue_token(user), password)

    return make


@pytest.fixture(autouse=True)
def fresh_throttles() -> None:
    """In-process tests start with empty throttle counters (the local-memory cache); the
    deployed-like site keeps its own in its Redis."""
    from django.core.cache import cache

    cache.clear()
