"""Messages in the player's language, translated at the API's edge.

The rules engine, the store and the services speak English (the rules import nothing from
Django). Every refusal is typed: it carries its reason code and the values it names
(`exc.reason`, `exc.params`). The codes and English templates live in two places: the rules'
own in games/rules/errors.py `REFUSALS`, the store's, the lobby's and the services' in
matches/errors.py `REFUSALS` (the API's own few are below). Here `say(exc)` takes the template
of that code, translates it into the request's language (Django's i18n, chosen by
Accept-Language) and puts the values back; nothing is read back from English. An error without
a reason (the API's fixed sentences, `ApiError("code", "Send ...")`) is its own msgid. The
codes never change with the language.

Adding a refusal: its code and English template in `REFUSALS` (games/rules/errors.py for the
rules, matches/errors.py for the rest), raised with `Error.because(code, **values)` (or
`matches.errors.refused(RulesErrorClass, code, **values)` for a rules error class raised
outside the rules, `ApiError.because(api_code, reason, **values)` in the API). Add the msgid
and its translations at the end of matches/locale/<lang>/LC_MESSAGES/django.po, and compile
with `python -m tavla_project.messages` (pure Python, no GNU gettext needed).
tests/api/test_i18n.py fails while a template has no translation or a .mo file is older than
its .po.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_noop as N_

from games.rules import REFUSALS
from matches.errors import REFUSALS as STORE_REFUSALS
from matches.errors import english_value
from matches.tournaments.refusals import REASONS as TOURNAMENT_REASONS

TEMPLATES: dict[str, str] = {
    # the rules' refusals (games/rules/errors.py REFUSALS)
    **REFUSALS,
    # the store's, the lobby's and the services' (matches/errors.py REFUSALS)
    **STORE_REFUSALS,
    # the tournaments' refusals (matches/tournaments/refusals.py)
    **TOURNAMENT_REASONS,
    # the API's own (matches/api)
    "no_path": N_("There is nothing at %(path)s: see %(docs)s."),
    "trailing_slash": N_(
        "There is nothing at %(path)s: API paths have no trailing slash (%(without)s)."
    ),
    "staff_create_tournaments": N_("Only staff create tournaments."),
    "staff_enter_computer": N_("Only staff enter the computer."),
}

# The verbs the rules put into `%(what)s`, said to the player ("your") or of his opponent.
ACTIONS: dict[str, str] = {
    "move": N_("move"),
    "roll": N_("roll"),
    "take": N_("take"),
    "drop": N_("drop"),
    "double": N_("double"),
    "accept the resignation": N_("accept the resignation"),
    "reject the resignation": N_("reject the resignation"),
}
ACTION_CONTEXT = {"only_opponent": "opponent"}  # else "your"


def reason_of(exc: Any) -> tuple[str, dict[str, str]] | None:
    """The reason code and values an error carries (`exc.reason`, `exc.params`), or None for
    one without a reason (a fixed sentence, said as its own msgid). Never read from text."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str) and reason in TEMPLATES:
        params = getattr(exc, "params", None) or {}
        return reason, {k: shown(k, v) for k, v in params.items()}
    return None


def shown(key: str, value: Any) -> str:
    """A value as the reader's language writes it: a time in its short date and time format
    (UTC, so named), an `until` of None as "further notice" (matches/errors.py `english`), a
    refusal within a refusal (why a .mat file is refused) said from its own reason."""
    if isinstance(value, Exception):
        return say(value)
    if isinstance(value, datetime):
        if (get_language() or "en").startswith("en"):
            return str(english_value(key, value))  # unambiguous where m/d and d/m both live
        return f"{date_format(value.astimezone(UTC), 'SHORT_DATETIME_FORMAT')} UTC"
    if value is None and key == "until":
        return gettext("further notice")
    return str(value)


def say(exc_or_text: Any) -> str:
    """The sentence in the active language: from its reason and values when it has them,
    else the text itself as a msgid (English when it has no translation)."""
    found = reason_of(exc_or_text)
    if found is None:
        text = str(exc_or_text).strip()
        return gettext(text) if text else text
    code, params = found
    what = params.get("what")
    if what in ACTIONS:
        params["what"] = pgettext(ACTION_CONTEXT.get(code, "your"), ACTIONS[what])
    return gettext(TEMPLATES[code]) % params


def sentence(text: str) -> str:
    """A message: capitalised (Turkish dotted İ included), ending with a full stop."""
    text = text.strip()
    if not text:
        return gettext("The request was refused.")
    first = "İ" if text[0] == "i" and (get_language() or "").startswith("tr") else text[0].upper()
    text = first + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
