"""Match chat over HTTP (matches/services/chat.py): who may say and read what, the checks on
a line, the rate limit, sanctions, blocks, and the append-only table."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation
from django.utils.formats import date_format
from rest_framework.test import APIClient

from matches.errors import EventsAreImmutable
from matches.services import reports
from matches.store.community_models import ChatMessage, Sanction
from matches.store.models import Match
from tests.api.conftest import API, create

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_player: Any) -> tuple[Any, Any, Any, str]:
    """ana (seat 0) and ben play a friendly (unrated) online match; eve watches."""
    ana, ben, eve = make_player("ana"), make_player("ben"), make_player("eve")
    match_id = create(ana, mode="online", length=3, rated=False)["id"]
    assert ben.post(f"/matches/{match_id}/join", {}).status_code == 200
    return ana, ben, eve, match_id


def say(player: Any, match_id: str, **body: Any) -> Any:
    return player.post(f"/matches/{match_id}/chat", {"channel": "say", **body})


def read(player: Any, match_id: str, **params: Any) -> list[dict[str, Any]]:
    r = player.get(f"/matches/{match_id}/chat", data=params)
    assert r.status_code == 200, r.content
    return r.json()["messages"]


def test_players_say_and_everyone_reads_in_id_order(table) -> None:
    ana, ben, eve, match_id = table
    first = say(ana, match_id, text="  good luck!  ")
    assert first.status_code == 201, first.content
    line = first.json()
    assert line["text"] == "good luck!" and line["quick"] is None and line["channel"] == "say"
    assert line["author"]["name"] == ana.username and line["match"] == match_id
    second = say(ben, match_id, quick="thanks").json()
    assert second["quick"] == "thanks" and second["text"] is None and second["id"] > line["id"]
    for reader in (ana, ben, eve):
        assert [m["id"] for m in read(reader, match_id)] == [line["id"], second["id"]]
    assert [m["id"] for m in read(eve, match_id, after=line["id"])] == [second["id"]]
    anonymous = APIClient().get(f"{API}/matches/{match_id}/chat")
    assert anonymous.status_code == 200 and len(anonymous.json()["messages"]) == 2


def test_spectators_kibitz_and_players_read_it_only_when_they_ask(table) -> None:
    ana, _ben, eve, match_id = table
    r = eve.post(f"/matches/{match_id}/chat", {"channel": "kibitz", "text": "nice roll"})
    assert r.status_code == 201, r.content
    assert say(eve, match_id, text="hi").json()["code"] == "not_a_player"
    r = ana.post(f"/matches/{match_id}/chat", {"channel": "kibitz", "text": "hi"})
    assert r.status_code == 403 and r.json()["code"] == "permission_denied"
    assert [m["channel"] for m in read(eve, match_id)] == ["kibitz"]
    assert read(ana, match_id) == []  # a player: off by default
    assert [m["text"] for m in read(ana, match_id, kibitz="true")] == ["nice roll"]


def test_a_rated_match_hides_the_kibitz_from_its_players_until_it_ends(table) -> None:
    ana, _ben, eve, match_id = table
    eve.post(f"/matches/{match_id}/chat", {"channel": "kibitz", "text": "he should double"})
    Match.objects.filter(pk=match_id).update(rated=True)
    assert read(ana, match_id, kibitz="true") == []
    assert len(read(eve, match_id)) == 1
    Match.objects.filter(pk=match_id).update(status=Match.Status.FINISHED)
    assert len(read(ana, match_id, kibitz="true")) == 1


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "x" * 301,
        "bell\x07",
        "nul\x00",
        "line\nbreak",
        "abc\u202edcba",
        "isolate\u2066x\u2069",
        "embed\u202ax",
    ],
)
def test_bad_lines_are_refused_invalid_message(table, text: str) -> None:
    ana, _, _, match_id = table
    r = say(ana, match_id, text=text)
    assert r.status_code == 400 and r.json()["code"] == "invalid_message", r.content
    assert not ChatMessage.objects.exists()


def test_a_line_of_300_characters_and_markup_is_kept_as_sent(table) -> None:
    ana, _, _, match_id = table
    assert say(ana, match_id, text="é" * 300).status_code == 201
    markup = '<script>alert(1)</script><svg onload="alert(2)">'
    assert say(ana, match_id, text=markup).json()["text"] == markup
    r = say(ana, match_id, quick="hello")
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    r = say(ana, match_id, text="a", quick="thanks")
    assert r.status_code == 400 and r.json()["code"] == "invalid_message"


def test_a_private_match_chat_is_not_found_for_others(make_player) -> None:
    ana, eve = make_player(), make_player()
    match_id = create(ana, mode="online", length=1, public=False, open_challenge=False)["id"]
    assert say(ana, match_id, text="hello?").status_code == 201
    r = eve.get(f"/matches/{match_id}/chat")
    assert r.status_code == 404 and r.json()["code"] == "match_not_found"
    r = eve.post(f"/matches/{match_id}/chat", {"channel": "kibitz", "text": "x"})
    assert r.status_code == 404


def test_writing_needs_a_token(table) -> None:
    _, _, _, match_id = table
    r = APIClient().post(f"{API}/matches/{match_id}/chat", {"channel": "say", "text": "x"})
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


def test_the_rate_limit_holds(table, settings) -> None:
    ana, ben, _, match_id = table
    rf = dict(settings.REST_FRAMEWORK)
    rf["DEFAULT_THROTTLE_RATES"] = {**rf["DEFAULT_THROTTLE_RATES"], "chat": "5/min"}
    settings.REST_FRAMEWORK = rf
    codes = [say(ana, match_id, text=f"line {i}").status_code for i in range(7)]
    assert codes == [201] * 5 + [429, 429]
    r = say(ana, match_id, text="again")
    assert r.json()["code"] == "throttled" and r.json()["detail"]["retry_after"] >= 1
    assert say(ben, match_id, text="my own limit").status_code == 201  # per user
    assert ChatMessage.objects.filter(author_id=ana.user_id).count() == 5


def test_a_muted_player_is_refused_with_the_code_and_the_time(table) -> None:
    ana, _, _, match_id = table
    staff = get_user_model().objects.create_user("mod", is_staff=True)
    until = timezone.now() + timedelta(hours=1)
    user = get_user_model().objects.get(pk=ana.user_id)
    reports.sanction(user=user, kind=Sanction.Kind.MUTE, by=staff, note="insults", until=until)
    r = say(ana, match_id, text="let me talk")
    assert r.status_code == 403, r.content
    body = r.json()
    assert body["code"] == "chat_muted"
    assert body["detail"]["until"] == until.astimezone().isoformat().replace("+00:00", "Z")
    assert until.strftime("%Y-%m-%d %H:%M") in body["message"]
    r = ana.post(
        f"/matches/{match_id}/chat", {"channel": "say", "text": "x"}, HTTP_ACCEPT_LANGUAGE="tr"
    )
    assert r.json()["code"] == "chat_muted" and "susturuldunuz" in r.json()["message"]
    # the time in the reader's own way of writing it, not English text
    for language, tag in (("tr", "tr"), ("sr-latn", "sr-Latn")):
        with translation.override(language):
            local = date_format(until.astimezone(UTC), "SHORT_DATETIME_FORMAT")
        r = ana.post(
            f"/matches/{match_id}/chat", {"channel": "say", "text": "x"}, HTTP_ACCEPT_LANGUAGE=tag
        )
        assert f"{local} UTC" in r.json()["message"], (language, r.json()["message"])
        assert until.strftime("%Y-%m-%d") not in r.json()["message"]
    # lifted: he talks again
    reports.lift(sanction=Sanction.objects.get(), by=staff, note="apologised")
    assert say(ana, match_id, text="sorry").status_code == 201


def test_a_chat_ban_and_a_past_mute(table) -> None:
    ana, _, _, match_id = table
    staff = get_user_model().objects.create_user("mod", is_staff=True)
    user = get_user_model().objects.get(pk=ana.user_id)
    past = timezone.now() - timedelta(minutes=1)
    reports.sanction(user=user, kind=Sanction.Kind.MUTE, by=staff, note="old", until=past)
    assert say(ana, match_id, text="fine").status_code == 201
    reports.sanction(user=user, kind=Sanction.Kind.CHAT_BAN, by=staff, note="spam")
    r = say(ana, match_id, text="spam")
    assert r.status_code == 403 and r.json()["code"] == "chat_banned"
    assert r.json()["detail"] == {"until": None}
    assert "until further notice" in r.json()["message"]
    sr = ana.post(
        f"/matches/{match_id}/chat", {"channel": "say", "text": "x"}, HTTP_ACCEPT_LANGUAGE="sr-Latn"
    )
    assert sr.json()["message"] == "Zabranjeno vam je ćaskanje do daljeg."


def test_say_is_refused_between_blocked_players(table) -> None:
    ana, ben, _, match_id = table
    assert ben.post(f"/players/{ana.username}/block").json() == {"blocked": True}
    for speaker in (ana, ben):
        r = say(speaker, match_id, text="hey")
        assert r.status_code == 403 and r.json()["code"] == "blocked"
    assert ben.client.delete(f"{API}/players/{ana.username}/block").json() == {"blocked": False}
    assert say(ana, match_id, text="hey").status_code == 201


def test_the_chat_table_is_append_only(table) -> None:
    ana, _, _, match_id = table
    line_id = say(ana, match_id, text="kept").json()["id"]
    line = ChatMessage.objects.get(pk=line_id)
    with pytest.raises(EventsAreImmutable):
        line.save()
    with pytest.raises(EventsAreImmutable):
        line.delete()
    with pytest.raises(EventsAreImmutable):
        ChatMessage.objects.filter(pk=line_id).update(text="changed")
    with pytest.raises(EventsAreImmutable):
        ChatMessage.objects.all().delete()
    for sql in (
        "UPDATE matches_chatmessage SET text = 'changed'",
        "DELETE FROM matches_chatmessage",
    ):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert ChatMessage.objects.get(pk=line_id).text == "kept"


def test_a_reader_does_not_get_the_lines_of_a_player_blocked_either_way(table, make_player):
    _ana, _ben, eve, match_id = table
    cy, dan = make_player("cy"), make_player("dan")
    eve.post(f"/matches/{match_id}/chat", {"channel": "kibitz", "text": "from eve"})
    assert cy.post(f"/players/{eve.username}/block").status_code == 200
    assert read(cy, match_id) == []  # he blocked her
    cy_line = cy.post(f"/matches/{match_id}/chat", {"channel": "kibitz", "text": "from cy"})
    assert [m["text"] for m in read(eve, match_id)] == ["from eve"]  # she was blocked by him
    assert [m["text"] for m in read(dan, match_id)] == ["from eve", "from cy"]
    assert cy_line.status_code == 201
