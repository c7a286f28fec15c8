"""Messages in the player's language, translated at the API's edge.

The rules engine and the store speak English (the rules import nothing from Django) and say
why in a sentence built from a few values ("point 5 is closed by 2 of your opponent's
checkers"). Here each such sentence has a reason code and an English template with named
values (`TEMPLATES`, marked for gettext); `say(text)` finds the template a sentence was made
from, translates it into the request's language (Django's i18n, chosen by Accept-Language)
and puts the values back. A sentence no template matches is given as it is, in English. The
API's own fixed sentences are msgids themselves. The codes never change with the language.

When a rules error carries its reason as data (`exc.reason`, `exc.params`) that is used
instead of reading the sentence (see `reason_of`).

Adding a message: add its template here (or wrap a Django-side string in `gettext`), add the
msgid and its translations to matches/locale/<lang>/LC_MESSAGES/django.po, and compile with
`python -m tavla_project.messages` (pure Python, no GNU gettext needed). tests/api/test_i18n.py
fails while a template has no translation or a .mo file is older than its .po.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_noop as N_

TEMPLATES: dict[str, str] = {
    # plays (games/rules/validate.py)
    "point_closed": N_("point %(point)s is closed by %(count)s of your opponent's checkers"),
    "must_play_both": N_("you must play both dice: %(play)s is possible"),
    "must_play_most": N_(
        "you must play as many %(die)ss as possible (%(count)s): %(play)s is possible"
    ),
    "larger_die": N_(
        "only one die can be played, so you must play the larger one (%(die)s): %(play)s"
    ),
    "not_legal": N_("that play is not legal with %(high)s-%(low)s; %(play)s is"),
    "no_checker_on_bar": N_("you have no checker on the bar"),
    "enter_first": N_(
        "you have a checker on the bar: it must enter before any other checker moves"
    ),
    "bear_off_home": N_("you can bear off only when all your checkers are in your home board"),
    "bear_off_higher": N_(
        "a %(die)s bears off from point %(point)s only when no checker of yours is on a higher"
        " point (you have one on %(top)s)"
    ),
    "no_checker_on_point": N_("you have no checker on point %(point)s"),
    "no_such_step": N_("%(step)s is not a step any die you have left can make"),
    "no_die_moves": N_("no die you have left (%(dice)s) moves a checker from %(from)s to %(to)s"),
    "no_move_possible": N_("no move is possible with %(high)s-%(low)s: the turn passes"),
    "which_blots": N_("say which blots you hit: %(options)s"),
    "must_move": N_("you must move: %(high)s-%(low)s can be played, e.g. %(play)s"),
    # notation and dice
    "no_such_point": N_("there is no point %(number)s: points run from 1 to 24"),
    "unreadable_move": N_(
        "cannot read %(token)s: write each move as from/to, like 24/18, bar/22* or 6/off"
    ),
    "unreadable_dice": N_("cannot read dice from %(value)s; write them like 31 or [3, 1]"),
    # the match (games/rules/match.py)
    "match_length": N_("a match is played to 1-%(max)s points, or 0 for money play"),
    "backgammon_value": N_("a backgammon counts 3 points, or 2 where clubs count it as mars"),
    "jacoby_money": N_("the Jacoby rule is for money play only"),
    "match_over": N_("the match is over"),
    "no_such_player": N_("there is no player %(player)s: players are 0 and 1"),
    "resign_own_turn": N_("you may resign only on your own turn"),
    "resign_value": N_("resign a single (1), gammon (2) or backgammon (3) game"),
    "roll_first": N_("there is nothing to play now: roll first"),
    "not_rolled": N_("there is nothing to play now: the dice are not rolled"),
    "opening_over": N_("the opening roll is over"),
    "not_your_turn": N_("it is not your turn to %(what)s"),
    "nothing_to_answer": N_("there is nothing to %(what)s now"),
    "only_opponent": N_("only your opponent can %(what)s"),
    "opening_first": N_("the game has not started: the opening roll comes first"),
    "phase_roll": N_("you cannot %(what)s now: roll the dice first"),
    "phase_play": N_("you cannot %(what)s now: you have rolled, play your dice"),
    "phase_doubled": N_("you cannot %(what)s now: the double must be taken or dropped"),
    "phase_resigning": N_("you cannot %(what)s now: the resignation must be accepted or rejected"),
    "no_cube": N_("this match is played without the doubling cube"),
    # long nardy (games/rules/nardy.py, validate.py, match.py)
    "nardy_no_cube": N_("long nardy is played without the doubling cube"),
    "nardy_no_jacoby": N_("long nardy has no Jacoby rule (no cube)"),
    "nardy_resign_value": N_("resign an oyn (1) or a mars (2)"),
    "nardy_no_bar": N_("long nardy has no bar"),
    "nardy_point_held": N_(
        "point %(to)s is held by your opponent: in long nardy one checker closes it"
    ),
    "nardy_head": N_(
        "only one checker may leave the head (24) in a turn; two only on your first turn of a"
        " game with 6-6, 4-4 or 3-3"
    ),
    "nardy_wall_example": N_(
        "that play leaves six of your points in a row with none of your opponent's checkers"
        " past them; %(play)s is legal"
    ),
    "nardy_wall": N_(
        "that play leaves six of your points in a row with none of your opponent's checkers"
        " past them"
    ),
    "crawford_no_double": N_("no doubling in the Crawford game"),
    "double_own_turn": N_("you may double only on your own turn"),
    "double_before_roll": N_("you may double only before you roll"),
    "cube_at_max": N_("the cube is at its maximum of %(max)s"),
    "cube_owner": N_("only the player who owns the cube may redouble"),
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


# Most literal text first: a template with more fixed words is the better explanation.
_PATTERNS = sorted(
    ((code, _pattern(t)) for code, t in TEMPLATES.items()),
    key=lambda item: -len(re.sub(r"\(\?P<\w+>\.\+\?\)", "", item[1].pattern)),
)


def reason_of(exc_or_text: Any) -> tuple[str, dict[str, str]] | None:
    """The reason code and values of an error (its data if it carries them, else read from
    its English sentence), or None for a sentence no template explains."""
    reason = getattr(exc_or_text, "reason", None)
    if isinstance(reason, str) and reason in TEMPLATES:
        params = getattr(exc_or_text, "params", None) or {}
        return reason, {k: str(v) for k, v in params.items()}
    text = str(exc_or_text).strip()
    for code, pattern in _PATTERNS:
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
