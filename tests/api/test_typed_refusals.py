"""The API says a refusal of the rules from its reason and values, not from its English
sentence (matches/api/messages.py): a refusal whose sentence were different still reads the
same in every language, and the store's templates never stand for a rules refusal."""

from __future__ import annotations

from django.utils import translation

from games.rules import REFUSALS, IllegalPlay
from matches.api import messages


def test_a_refusal_is_said_from_its_code_and_values_not_its_sentence() -> None:
    exc = IllegalPlay.because("point_closed", point=19, count=5)
    exc.args = ("a sentence nothing could read back",)
    assert messages.reason_of(exc) == ("point_closed", {"point": "19", "count": "5"})
    with translation.override("tr"):
        turkish = "19 numaralı hane rakibinizin 5 pulu ile kapalı"  # noqa: RUF001
        assert messages.say(exc) == turkish
    with translation.override("en"):
        assert messages.say(exc) == REFUSALS["point_closed"] % {"point": 19, "count": 5}


def test_every_refusal_of_the_rules_has_its_template_and_only_the_store_is_read() -> None:
    for reason, template in REFUSALS.items():
        assert messages.TEMPLATES[reason] == template
    read = {code for code, _ in messages._STORE_PATTERNS}
    assert read and not read & set(REFUSALS)
