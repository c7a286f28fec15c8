"""Messages in the player's language, translated at the API's edge.

The rules engine and the store speak English (the rules import nothing from Django). Every
refusal of the rules is typed: it carries its reason code and the values it names
(`exc.reason`, `exc.params`; the codes and English templates are the rules' own,
games/rules/errors.py `REFUSALS`). Here `say(exc)` takes the template of that code,
translates it into the request's language (Django's i18n, chosen by Accept-Language) and
puts the values back; nothing of the rules is read back from English.

The store's and the lobby's sentences that do not carry a reason yet (matches/services,
matches/errors.py) are still recognised by their template (`_STORE_PATTERNS`, the
templates below `REFUSALS`); a sentence nothing explains is given as it is, in English. The
API's own fixed sentences are msgids themselves. The codes never change with the language.

Adding a message: a refusal of the rules gets its code and English template in
games/rules/errors.py `REFUSALS` and is raised with `Error.because(code, **values)`; other
text gets its template here (or a Django-side string is wrapped in `gettext`). Add the msgid
and its translations to matches/locale/<lang>/LC_MESSAGES/django.po, and compile with
`python -m tavla_project.messages` (pure Python, no GNU gettext needed). tests/api/test_i18n.py
fails while a template has no translation or a .mo file is older than its .po.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_noop as N_

from games.rules import REFUSALS

TEMPLATES: dict[str, str] = {
    # the rules' refusals (games/rules/errors.py REFUSALS): they carry their reason and values
    **REFUSALS,
    # the store and the lobby (matches/errors.py, matches/services)
    "waiting_for_opponent": N_("the match has not started: it is waiting for an opponent"),
    "abort_before_move": N_("a match can be aborted only before the first move"),
    "abort_before_roll": N_(
        "an online match can be aborted only before the opening roll: resign instead"
    ),
    "rematch_when_over": N_("a rematch is offered once the match is over"),
    "version_conflict": N_("the match is at version %(current)s, not %(expected)s: reload it"),
    "raced": N_("another move reached the match first: reload it"),
    "match_full": N_("this match already has two players"),
    "already_seated": N_("you already play in this match"),
    "seat_taken": N_("seat %(seat)s is taken"),
    "spectator": N_("you do not play in this match: spectators can watch, not move"),
    "not_a_player": N_("you do not play in this match"),
    "not_your_seat": N_("you do not sit on seat %(seat)s"),
    "out_of_time": N_("time ran out for seat %(seat)s: the match is lost on time"),
    "no_match": N_("there is no match %(id)s"),
    "invite_only": N_("this match is joined with its invite code only"),
    "rematch_for_other": N_("this rematch is offered to another player"),
    "online_only": N_("only online matches can be joined"),
    "no_invite": N_("no match has the invite code %(code)s"),
    # ratings and quick pairing (matches/services/seeks.py, docs/ratings.md)
    "already_playing": N_("you are playing an online match: finish it before seeking another"),
    "seek_refused": N_(
        "you left %(count)s matches before moving lately: quick pairing is closed to you until"
        " %(until)s"
    ),
    "no_seek": N_("there is no seek %(id)s"),
    "no_player": N_("there is no player called %(name)s"),
    "seek_clock": N_("clock presets are %(presets)s"),
    "rated_online": N_("only online matches to a number of points are rated"),
    "rated_clock": N_("a rated match needs a preset clock or one of at least %(minimum)s"),
    # imports (matches/interop/importing.py)
    "import_games": N_("the file has %(count)s games: at most %(max)s can be imported"),
    "import_actions": N_("the file has %(count)s moves and rolls: at most %(max)s can be imported"),
    "import_name": N_("the name of player %(seat)s is refused: %(problem)s"),
    # the post-game analysis and hints (matches/services/analysis.py)
    "match_not_finished": N_("the match is not finished: it is analysed once it is over"),
    "hints_not_allowed": N_("hints are not given in this match"),
    "rated_hints": N_("a rated match has no hints: create it unrated"),
    # the API's own (matches/api)
    "no_path": N_("There is nothing at %(path)s: see %(docs)s."),
    "trailing_slash": N_(
        "There is nothing at %(path)s: API paths have no trailing slash (%(without)s)."
    ),
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


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"%\((\w+)\)s", template)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
    )
    return re.compile(f"^{regex}$", re.DOTALL)


# The store's sentences only (the rules' refusals carry their reason), most literal text
# first: a template with more fixed words is the better explanation.
_STORE_PATTERNS = sorted(
    ((code, _pattern(t)) for code, t in TEMPLATES.items() if code not in REFUSALS),
    key=lambda item: -len(re.sub(r"\(\?P<\w+>\.\+\?\)", "", item[1].pattern)),
)


def reason_of(exc_or_text: Any) -> tuple[str, dict[str, str]] | None:
    """The reason code and values of an error: the data a refusal of the rules carries (a
    store sentence without it is recognised by its template), or None for a sentence no
    template explains."""
    reason = getattr(exc_or_text, "reason", None)
    if isinstance(reason, str) and reason in TEMPLATES:
        params = getattr(exc_or_text, "params", None) or {}
        return reason, {k: str(v) for k, v in params.items()}
    text = str(exc_or_text).strip()
    for code, pattern in _STORE_PATTERNS:
        found = pattern.match(text)
        if found is not None:
            return code, found.groupdict()
    return None


def say(exc_or_text: Any) -> str:
    """The sentence in the active language (English when nothing explains it)."""
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
