"""Names and tokens (issue 12, item 6): display names that are safe to show and do not pass
for the computer or the staff, hashed tokens that expire, rotate at login and sign out
everywhere at once (across web processes sharing the Redis token cache), private matches out
of public lists, idempotency records that expire, and `check --deploy` clean with the
documented production settings."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from matches.api.models import ApiToken, IdempotencyRecord

from .site import Site, client

API = "/api/v1"
ROOT = Path(__file__).resolve().parents[2]


def post(path: str, data: dict, token: str | None = None) -> Any:
    c = APIClient()
    if token:
        c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return c.post(API + path, data, format="json")


# -- names -------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "ana\u202egnp.exe",  # right-to-left override
        "\u2067ana\u2069",  # isolates
        "x\x1b[31mred",  # terminal escape
        "tab\there",
        "zero\u200bwidth",
        "Zalgo\u0301\u0302\u0303\u0304",
        "Computer",
        "c0mputer (expert)",
        "GNUBG",
        "Računar",
        "Bilgisayar",
        "Admin",
        "adm1n",
        "Moderator Mile",
        "tavla support",
        "$taff",
        "System",
    ],
)
def test_display_names_refused(name: str) -> None:
    r = post("/auth/guest", {"display_name": name})
    assert r.status_code == 400 and "display_name" in r.json()["detail"], name
    r = post(
        "/auth/signup", {"username": "zed", "password": "a long secret 9", "display_name": name}
    )
    assert r.status_code == 400 and "display_name" in r.json()["detail"], name


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["Ana", "Ayşe", "Marko Marković", "Ömer", "Modrić", "Tavlac\u0131 Ali"]
)
def test_display_names_accepted(name: str) -> None:
    r = post("/auth/guest", {"display_name": name})
    assert r.status_code == 201 and r.json()["user"]["display_name"] == name


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["admin", "Computer1", "gnubg", "staff-team", "m0derator"])
def test_usernames_impersonating_the_site_are_refused(username: str) -> None:
    r = post("/auth/signup", {"username": username, "password": "a long secret 9"})
    assert r.status_code == 400 and "username" in r.json()["detail"], username


# -- tokens ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_tokens_are_stored_hashed_rotated_and_revoked_everywhere() -> None:
    signed = post("/auth/signup", {"username": "ana", "password": "a long secret 9"}).json()
    key = signed["token"]
    row = ApiToken.objects.get()
    assert row.digest == hashlib.sha256(key.encode()).hexdigest() and key not in str(row)
    assert not ApiToken.objects.filter(digest=key).exists()
    phone = post("/auth/login", {"username": "ana", "password": "a long secret 9"}).json()["token"]
    laptop = post("/auth/login", {"username": "ana", "password": "a long secret 9"}).json()["token"]
    assert len({key, phone, laptop}) == 3  # a new token per login
    assert post("/auth/logout", {}, phone).status_code == 204
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {phone}")
    assert me.get(f"{API}/me").status_code == 401
    me.credentials(HTTP_AUTHORIZATION=f"Token {laptop}")
    assert me.get(f"{API}/me").status_code == 200
    assert post("/auth/logout", {"everywhere": True}, laptop).status_code == 204
    for token in (key, laptop):
        me.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert me.get(f"{API}/me").status_code == 401
    assert not ApiToken.objects.exists()


@pytest.mark.django_db
def test_tokens_expire(settings: Any) -> None:
    settings.TAVLA_TOKEN_MAX_AGE = 3600
    key = post("/auth/guest", {}).json()["token"]
    token = ApiToken.objects.get()
    assert token.expires_at is not None
    assert timedelta(minutes=59) < token.expires_at - timezone.now() <= timedelta(hours=1)
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert me.get(f"{API}/me").status_code == 200
    ApiToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    r = me.get(f"{API}/me")
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed"


@pytest.mark.django_db
def test_an_account_keeps_a_bounded_number_of_tokens(settings: Any) -> None:
    settings.TAVLA_TOKENS_PER_USER = 3
    post("/auth/signup", {"username": "ana", "password": "a long secret 9"})
    keys = [
        post("/auth/login", {"username": "ana", "password": "a long secret 9"}).json()["token"]
        for _ in range(5)
    ]
    assert ApiToken.objects.count() == 3
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {keys[0]}")
    assert me.get(f"{API}/me").status_code == 401  # the oldest went
    me.credentials(HTTP_AUTHORIZATION=f"Token {keys[-1]}")
    assert me.get(f"{API}/me").status_code == 200


@pytest.mark.django_db
def test_staff_cannot_read_token_keys_in_the_admin(admin_client: Client) -> None:
    key = post("/auth/guest", {"display_name": "Marko"}).json()["token"]
    assert admin_client.get("/admin/authtoken/").status_code == 404
    assert admin_client.get("/admin/authtoken/tokenproxy/").status_code == 404
    index = admin_client.get("/admin/").content.decode()
    assert "Token" not in index and key not in index


def test_logout_reaches_every_web_process_at_once(site: Site, account: Any) -> None:
    """Two web processes share the Redis token cache: both have the token cached, one logs it
    out, the other refuses it on the very next request."""
    ana = account("ana")
    first, second = (client(url, headers=ana.auth) for url in site.urls)
    with first, second:
        for http in (first, second, first, second):  # cached by both processes' reads
            assert http.get(f"{API}/me").status_code == 200
        assert first.post(f"{API}/auth/logout", json={}).status_code == 204
        r = second.get(f"{API}/me")
        assert r.status_code == 401 and r.json()["code"] == "authentication_failed"


# -- private matches, idempotency records --------------------------------------------------------


@pytest.mark.django_db
def test_a_private_match_never_shows_in_a_public_list(django_user_model: Any) -> None:
    ana = post("/auth/signup", {"username": "ana", "password": "a long secret 9"}).json()["token"]
    private = post(
        "/matches", {"mode": "online", "length": 3, "public": False, "open_challenge": True}, ana
    ).json()
    public = post("/matches", {"mode": "online", "length": 3, "open_challenge": True}, ana).json()
    listed = APIClient().get(f"{API}/matches/challenges").json()
    ids = (
        {m["id"] for m in listed["results"]}
        if isinstance(listed, dict)
        else {m["id"] for m in listed}
    )
    assert public["id"] in ids and private["id"] not in ids
    live = APIClient().get(f"{API}/matches/live").json()
    assert private["id"] not in str(live)


@pytest.mark.django_db
def test_idempotency_records_keep_little_and_expire(settings: Any) -> None:
    from matches.api.tasks import expire_idempotency

    ana = post("/auth/signup", {"username": "ana", "password": "a long secret 9"}).json()["token"]
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {ana}", HTTP_IDEMPOTENCY_KEY="my secret key 1")
    assert (
        c.post(f"{API}/matches", {"mode": "hotseat", "length": 1}, format="json").status_code == 201
    )
    record = IdempotencyRecord.objects.get()
    assert record.key == hashlib.sha256(b"my secret key 1").hexdigest()  # not the client's string
    assert set(record.headers) <= {"ETag", "Location"}
    assert expire_idempotency() == 0  # fresh: kept
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(days=2))
    assert expire_idempotency() == 1 and not IdempotencyRecord.objects.exists()
    assert "idempotency-expiry" in settings.CELERY_BEAT_SCHEDULE


# -- production settings ----------------------------------------------------------------------


def production_env() -> dict[str, str]:
    """deploy/production.env (the documented settings) over a bare environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DEBUG"))}
    for line in (ROOT / "deploy" / "production.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    env["SECRET_KEY"] = "p" * 30 + "-Q8x!u2#Zr7@vL0$kN5^wT3&mB9*" + "s" * 20
    env["DJANGO_SETTINGS_MODULE"] = "tavla_project.settings"
    return env


def test_check_deploy_is_clean_with_the_documented_production_settings() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout
