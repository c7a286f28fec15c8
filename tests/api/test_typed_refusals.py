"""The API says every refusal from its reason and values, never from its English sentence
(matches/api/messages.py): the rules' refusals (games/rules/errors.py `REFUSALS`) and the
store's, the lobby's and the services' (matches/errors.py `REFUSALS`) alike. A refusal whose
sentence were different still reads the same in every language, and a sentence alone is never
recognised as a refusal."""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Callable
from pathlib import Path

import polib
import pytest
from django.utils import translation

from games.rules import (
    REFUSALS,
    ClockSettings,
    Dice,
    IllegalAction,
    IllegalPlay,
    InvalidMatchFile,
    InvalidSettings,
    Position,
    RulesError,
    mat_actions,
    match_id_decode,
    parse_mat,
)
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


MAT_WITH_A_CLOSED_POINT = """ 1 point match

 Game 1
 ana : 0                              zoe : 0
  1) 51: 24/19 6/5
"""


def test_a_refusal_within_a_refusal_is_said_in_the_readers_language() -> None:
    with pytest.raises(InvalidMatchFile) as caught:
        mat_actions(parse_mat(MAT_WITH_A_CLOSED_POINT))
    exc = caught.value
    assert (exc.reason, exc.params["problem"].reason) == ("mat_play_refused", "point_closed")
    closed = "point 19 is closed by 5 of your opponent's checkers"
    assert str(exc) == f"game 1, move 1: 51: 24/19 6/5: {closed}"
    with translation.override("tr"):
        kapali = "19 numaralı hane rakibinizin 5 pulu ile kapalı"  # noqa: RUF001
        assert messages.say(exc) == f"oyun 1, hamle 1: 51: 24/19 6/5: {kapali}"


def _refusal(attempt: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        attempt()
    return caught.value


@pytest.mark.parametrize(
    ("attempt", "code", "rule"),
    [
        (lambda: Position.from_json({"board": [0] * 24}), "invalid_position", "checkers_on_roll"),
        (lambda: match_id_decode("cAmlAAAAAAA"), "invalid_id", "id_length"),
        (lambda: parse_mat("Game 1"), "invalid_match_file", "mat_no_length"),
        (lambda: Dice.parse("7"), "invalid_dice", "unreadable_dice"),
    ],
)
def test_every_refusal_of_the_rules_names_its_rule(
    attempt: Callable[[], object], code: str, rule: str
) -> None:
    response = error_response(_refusal(attempt))
    assert response is not None and response.data["code"] == code
    assert response.data["detail"] == {"rule": rule}


def test_a_setting_the_rules_refuse_names_its_field_and_its_rule() -> None:
    with translation.override("en"):
        response = error_response(_refusal(lambda: ClockSettings.from_json({"max_move": 0})))
    assert response is not None and response.data["code"] == "invalid_request"
    assert response.data["detail"] == {
        "max_move": ["clock max_move must be more than 0 seconds"],
        "rule": "clock_max_move",
    }


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


SCANNED = (
    "games/rules",
    "matches/store",
    "matches/api",
    "matches/tournaments",
    "matches/services",
    "matches/interop",
    "matches/errors.py",
)
REFUSAL_BASES = {"RulesError", "StoreError", "ApiError", "TournamentRefused"}
NOT_REFUSALS = {"EventsAreImmutable"}  # the store's guard against a bug (a 500), no refusal


def _scanned() -> list[Path]:
    paths: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        paths += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return paths


def _refusal_classes(paths: list[Path]) -> set[str]:
    """The refusal classes: the bases and every class defined on one of them, by name (a
    ValueError or a RuntimeError is a programming error, never a refusal)."""
    classes = [
        node
        for path in paths
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef)
    ]
    found = set(REFUSAL_BASES)
    while new := {
        c.name
        for c in classes
        if c.name not in found and any(ast.unparse(b).split(".")[-1] in found for b in c.bases)
    }:
        found |= new
    return found - NOT_REFUSALS


def _translated() -> set[str]:
    """The msgids every language translates."""
    catalogs = sorted((ROOT / "matches" / "locale").glob("*/LC_MESSAGES/django.po"))
    return set.intersection(
        *({e.msgid for e in polib.pofile(str(p)) if e.msgstr} for p in catalogs)
    )


def _fixed_text(arg: ast.expr, path: Path) -> str | None:
    """The text of a fixed sentence: a string, or an f-string of its module's constants."""
    if isinstance(arg, ast.Constant):
        return str(arg.value)
    if not isinstance(arg, ast.JoinedStr):
        return None
    parts = []
    for part in arg.values:
        if isinstance(part, ast.Constant):
            parts.append(str(part.value))
        elif (
            isinstance(part, ast.FormattedValue)
            and isinstance(part.value, ast.Name)
            and part.value.id.isupper()
            and part.conversion == -1
            and part.format_spec is None
        ):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            parts.append(str(getattr(importlib.import_module(module), part.value.id)))
        else:
            return None
    return "".join(parts)


def _sentence_refusals(paths: list[Path], refusals: set[str], translated: set[str]) -> list[str]:
    """Refusals made from a bare sentence, raised or kept (`IllegalPlay("...")`,
    `MatchFull(f"...")`): a refusal is made `because` a reason (or `refused(...)`). An
    ApiError may say a fixed sentence of the API, its own msgid, when it is translated."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func).split(".")[-1]
            if name not in refusals:
                continue  # `.because(...)`, `refused(...)`, a programming error, ...
            args = [*node.args, *(k.value for k in node.keywords if k.arg != "detail")]
            sentences = [
                a
                for a in args
                if isinstance(a, ast.JoinedStr)
                or (isinstance(a, ast.Constant) and " " in str(a.value))
            ]
            if name == "ApiError":
                sentences = [a for a in sentences if _fixed_text(a, path) not in translated]
            if sentences:
                found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_refusal_is_made_from_a_bare_sentence() -> None:
    paths = _scanned()
    found = _sentence_refusals(paths, _refusal_classes(paths), _translated())
    assert not found, "make it `because` a reason of a REFUSALS table:\n" + "\n".join(found)


def test_the_scan_finds_a_refusal_made_from_a_sentence(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        "class SeekClosed(MatchFull): ...\n"
        "MARKER = IllegalPlay('a marker is made from a sentence')\n"  # 2
        "raise InvalidId(f'bad id {text!r}')\n"  # 3
        "raise SeekClosed('this seek is closed')\n"  # 4
        "raise ApiError('permission_denied', 'Only the owner may do this.')\n"  # 5
        "raise ApiError('invalid_request', message=f'{n} is too many')\n"  # 6
        "raise ApiError('invalid_version', 'If-Match and expected_version disagree: send"
        " one of them.')\n"
        "raise IllegalPlay.because('point_closed', point=19, count=5)\n"
        "raise refused(IllegalAction, 'abort_before_move')\n"
        "raise ValueError('a programming error, not a refusal')\n"
        "raise TournamentRefused('signup_closed')\n"
        "raise ApiError('not_found', detail={'name': ['no such name']})\n"
    )
    paths = _scanned()
    found = _sentence_refusals([planted], _refusal_classes([*paths, planted]), _translated())
    assert [int(line.split(":")[1]) for line in found] == [2, 3, 4, 5, 6]
