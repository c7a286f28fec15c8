"""The API says every refusal from its reason and values, never from its English sentence
(matches/api/messages.py): the rules' refusals (games/rules/errors.py `REFUSALS`) and the
store's, the lobby's and the services' (matches/errors.py `REFUSALS`) alike. A refusal whose
sentence were different still reads the same in every language, and a sentence alone is never
recognised as a refusal."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from django.utils import translation

from games.rules import REFUSALS, IllegalAction, IllegalPlay, InvalidSettings
from matches import errors as store
from matches.api import messages
from matches.api.errors import ApiError, error_response

ROOT = Path(__file__).resolve().parents[2]


def test_a_refusal_is_said_from_its_code_and_values_not_its_sentence() -> None:
    exc = IllegalPlay.because("point_closed", point=19, count=5)
    exc.args = ("a sentence nothing could read back",)
    assert messages.reason_of(exc) == ("point_closed", {"point": "19", "count": "5"})
    with translation.override("tr"):
        turkish = "19 numaralı hane rakibinizin 5 pulu ile kapalı"  # noqa: RUF001
        assert messages.say(exc) == turkish
    with translation.override("en"):
        assert messages.say(exc) == REFUSALS["point_closed"] % {"point": 19, "count": 5}


def test_a_store_refusal_is_said_from_its_code_and_values_not_its_sentence() -> None:
    exc = store.MatchFull.because("seat_taken", seat=1)
    assert str(exc) == "seat 1 is taken" and exc.code == "match_full"
    exc.args = ("a sentence nothing could read back",)
    assert messages.reason_of(exc) == ("seat_taken", {"seat": "1"})
    with translation.override("sr-latn"):
        assert messages.say(exc) == "mesto 1 je zauzeto"
    with translation.override("en"):
        assert messages.say(exc) == "seat 1 is taken"


def test_the_store_errors_made_by_their_constructors_carry_their_reason() -> None:
    cases = [
        (store.MatchNotFound("m1"), "no_match", {"id": "m1"}, "there is no match m1"),
        (store.InviteNotFound("ab"), "no_invite", {"code": "'ab'"}, None),
        (store.OutOfTime(1), "out_of_time", {"seat": 1}, None),
        (store.VersionConflict(4, 3), "version_conflict", {"current": 4, "expected": 3}, None),
        (store.VersionConflict(None), "raced", {}, None),
    ]
    for exc, reason, params, english in cases:
        assert (exc.reason, exc.params) == (reason, params)
        assert str(exc) == store.REFUSALS[reason] % params
        assert english is None or str(exc) == english


def test_a_rules_error_raised_by_the_services_carries_the_stores_reason() -> None:
    exc = store.refused(InvalidSettings, "rated_clock", "rated", minimum="base 60 s")
    assert exc.field == "rated" and exc.reason == "rated_clock"
    assert str(exc) == "a rated match needs a preset clock or one of at least base 60 s"
    response = error_response(store.refused(IllegalAction, "waiting_for_opponent"))
    assert response is not None and response.status_code == 422
    assert response.data["detail"]["rule"] == "waiting_for_opponent"


def test_an_api_error_with_values_is_said_from_its_reason() -> None:
    exc = ApiError.because("not_found", "no_player", name="zoe")
    exc.message = "a sentence nothing could read back"
    with translation.override("en"):
        response = error_response(exc)
    assert response is not None
    assert response.data["message"] == "There is no player called zoe."


@pytest.mark.parametrize(
    "text",
    [
        "seat 1 is taken",
        "there is no match 12",
        "point 19 is closed by 5 of your opponent's checkers",
        "the match is at version 4, not 3: reload it",
    ],
)
def test_a_sentence_alone_is_never_read_back_as_a_refusal(text: str) -> None:
    assert messages.reason_of(text) is None
    assert messages.reason_of(Exception(text)) is None
    with translation.override("en"):
        assert messages.say(text) == text  # said as its own msgid, not parsed


def test_every_refusal_has_its_template_and_no_code_is_two_sentences() -> None:
    for reason, template in REFUSALS.items():
        assert messages.TEMPLATES[reason] == template
    for reason, template in store.REFUSALS.items():
        assert messages.TEMPLATES[reason] == template
    assert not set(REFUSALS) & set(store.REFUSALS)
    source = inspect.getsource(messages)
    assert "import re" not in source and "_STORE_PATTERNS" not in source


def _sentence_raises(path: Path) -> list[str]:
    """`raise Error("...")` / `raise Error(f"...")`: a refusal given as a bare sentence."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        name = ast.unparse(node.exc.func)
        if name.endswith(("because", "refused")):
            continue  # a reason code and its values
        if name.endswith("Error") and not name.endswith("StoreError"):
            continue  # programming errors (ValueError, RuntimeError, ...): never a refusal
        if any(
            isinstance(a, ast.JoinedStr) or (isinstance(a, ast.Constant) and " " in str(a.value))
            for a in node.exc.args
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node.exc)}")
    return found


def test_the_services_and_the_interop_raise_no_sentence_without_its_code() -> None:
    paths = sorted((ROOT / "matches" / "services").glob("*.py"))
    paths += sorted((ROOT / "matches" / "interop").glob("*.py"))
    paths += [ROOT / "matches" / "errors.py"]
    found = [line for path in paths for line in _sentence_raises(path)]
    assert not found, "raise it `because` a reason of matches/errors.py REFUSALS:\n" + "\n".join(
        found
    )
