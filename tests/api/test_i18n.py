"""Messages in the player's language (Accept-Language: English, Serbian Latin, Turkish), with
codes that never change; the translations are complete and their compiled files current."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation
from rest_framework.test import APIClient

from games.rules import match as rules
from games.rules.dice import Dice
from games.rules.errors import RulesError
from games.rules.position import Position
from games.rules.validate import resolve_play
from matches.api import messages
from matches.api.errors import _MESSAGES
from tests.api.conftest import API, create

LOCALE = Path(__file__).resolve().parents[2] / "matches" / "locale"
LANGUAGES = ("sr_Latn", "tr")
START = "4HPwATDgc/ABMA"


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"%\((\w+)\)s", text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str) -> None:
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    found = {(e.msgctxt, e.msgid): e.msgstr for e in po}
    wanted = [(None, t) for t in messages.TEMPLATES.values()]
    wanted += [(None, m) for m in _MESSAGES.values()]
    wanted += [(ctx, a) for a in messages.ACTIONS.values() for ctx in ("your", "opponent")]
    for key in wanted:
        assert found.get(key), f"{language}: no translation of {key}"
        assert placeholders(found[key]) == placeholders(key[1]), (language, key)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogs_are_current(language: str) -> None:
    folder = LOCALE / language / "LC_MESSAGES"
    po = {(e.msgctxt, e.msgid): e.msgstr for e in polib.pofile(str(folder / "django.po"))}
    mo = {(e.msgctxt, e.msgid): e.msgstr for e in polib.mofile(str(folder / "django.mo"))}
    assert mo == po, "run: python -m tavla_project.messages"


def rules_errors() -> list[RulesError]:
    """Real refusals of the rules engine, as a player meets them."""
    start = Position.starting()
    state = rules.MatchState.new(rules.MatchSettings(length=3, cube=True))
    playing = rules.apply(state, rules.OpeningRoll(5, 2))  # player 0 plays 5-2
    errors: list[RulesError] = []
    attempts = [
        lambda: resolve_play(start, Dice.of(5, 1), "24/19 6/5"),  # point 19 is closed
        lambda: resolve_play(start, Dice.of(3, 1), "8/5"),  # both dice
        lambda: resolve_play(start, Dice.of(6, 6), "24/18"),  # as many 6s as possible
        lambda: resolve_play(start, Dice.of(3, 1), "7/4 6/5"),  # no checker on point 7
        lambda: resolve_play(start, Dice.of(3, 1), "bar/22 6/5"),  # no checker on the bar
        lambda: resolve_play(start, Dice.of(3, 1), "6/off 8/7"),  # bear off with all home
        lambda: rules.apply(playing, rules.Double(0)),  # rolled: no double now
        lambda: rules.apply(playing, rules.Take(1)),  # nothing to take
        lambda: rules.apply(playing, rules.Roll(1, Dice.of(2, 1))),  # not his turn
        lambda: rules.apply(rules.MatchState.new(rules.MatchSettings()), rules.Double(0)),
        lambda: rules.MatchSettings(length=40).check(),
        lambda: rules.MatchSettings(length=3, jacoby=True).check(),
    ]
    for attempt in attempts:
        with pytest.raises(RulesError) as caught:
            attempt()
        errors.append(caught.value)
    return errors


def test_every_refusal_of_the_rules_has_a_template() -> None:
    for exc in rules_errors():
        found = messages.reason_of(exc)
        assert found is not None, f"no template explains {str(exc)!r}"
        code, params = found
        assert messages.TEMPLATES[code] % params == str(exc)  # read back exactly


@pytest.mark.parametrize("language", ["en", "sr-latn", "tr"])
def test_the_rules_refusals_read_in_every_language(language: str) -> None:
    with translation.override(language):
        for exc in rules_errors():
            text = messages.say(exc)
            if language == "en":
                assert text == str(exc)
            else:
                assert text != str(exc), (language, str(exc))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "message"),
    [
        ("", "Point 19 is closed by 5 of your opponent's checkers."),
        ("de-DE,de;q=0.9", "Point 19 is closed by 5 of your opponent's checkers."),
        ("sr-Latn-RS,sr;q=0.9", "Polje 19 je zatvoreno: protivnik na njemu ima 5 pula."),
        ("sr", "Polje 19 je zatvoreno: protivnik na njemu ima 5 pula."),
        ("tr-TR,tr;q=0.9,en;q=0.5", "19 numaralı hane rakibinizin 5 pulu ile kapalı."),
    ],
)
def test_the_api_answers_in_the_callers_language(accept: str, message: str) -> None:
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    r = APIClient().get(
        f"{API}/rules/legal-next-steps",
        {"position_id": START, "dice": "51", "steps": "24/19"},
        **headers,
    )
    assert r.status_code == 422 and r.json()["code"] == "illegal_play"
    assert r.json()["message"] == message
    assert r.json()["detail"]["rule"] == "point_closed"
    assert r.json()["detail"]["reason"] == message[0].lower() + message[1:-1]


@pytest.mark.django_db
def test_api_messages_and_store_refusals_are_translated(make_player) -> None:
    ana = make_player()
    r = ana.get("/matches/not-a-match", HTTP_ACCEPT_LANGUAGE="tr")
    assert r.status_code == 404 and r.json()["code"] == "match_not_found"
    assert r.json()["message"] == "Not-a-match diye bir maç yok."
    state = create(ana, mode="online", length=1)
    r = ana.post(f"/matches/{state['id']}/roll", {}, HTTP_ACCEPT_LANGUAGE="sr-latn")
    assert r.status_code == 422 and r.json()["code"] == "illegal_action"
    assert r.json()["message"] == "Meč nije počeo: čeka se protivnik."
    r = APIClient().post(f"{API}/matches", {}, format="json", HTTP_ACCEPT_LANGUAGE="tr")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    assert r.json()["message"].startswith("Önce giriş yapın")
    r = ana.post(
        f"/matches/{state['id']}/abort", {"expected_version": "x"}, HTTP_ACCEPT_LANGUAGE="tr"
    )
    assert r.json()["code"] == "invalid_version"
    assert r.json()["message"].startswith("Sürüm numarasını expected_version")
