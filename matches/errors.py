"""Errors of the match store, and every refusal of the store, the lobby and the services.

A refusal carries a stable reason code and the values its sentence names, like the rules'
refusals (games/rules/errors.py `REFUSALS`, `Error.because(code, **values)`): `exc.reason`
is a key of `REFUSALS` below, `exc.params` the values, `str(exc)` the English sentence. The
API says it in the player's language from the code and the values (matches/api/messages.py);
nothing reads the English back. The API maps each error class to an HTTP status with a
stable code (matches/api/errors.py `ERRORS`).

Adding a refusal: its reason code and English template here (the template is the msgid of
its translations in matches/locale), raised as `SomeStoreError.because("code", name=value)`
or, for an error class of the rules (IllegalAction, InvalidSettings, ...),
`refused(IllegalAction, "code", name=value)`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Self, TypeVar

# The rules decide whose turn it is; the store's callers may catch it from here too.
from games.rules import NotYourTurn  # noqa: F401


def gettext_noop(text: str) -> str:
    """Marks a template for translation (`makemessages` finds it by this name)."""
    return text


N_ = gettext_noop

REFUSALS: dict[str, str] = {
    # the store and the command path (matches/store, matches/services/play.py, access.py)
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
    "no_tournament": N_("there is no tournament %(id)s"),
    # the lobby (matches/services/lobby.py)
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
    # creating a match (matches/services/play.py; the API validates these before)
    "no_beavers": N_("beavers are not played on this site"),
    "unknown_mode": N_("unknown mode %(mode)s: choose online, hotseat or computer"),
    "seat_number": N_("a seat is 0 or 1"),
    "unknown_game": N_("unknown game %(game)s: choose tavla or long-nardy"),
    "not_a_player_action": N_("%(action)s is not an action a player takes"),
    "not_out_of_time": N_("seat %(seat)s is not out of time"),
    "import_unplayed": N_("the file has opening rolls of games that were never played"),
    # players among players (matches/services/chat.py, blocks.py, challenges.py, reports.py)
    "chat_text": N_("a message is a text"),
    "chat_empty": N_("a message cannot be empty"),
    "chat_long": N_("a message may be at most %(max)s characters"),
    "chat_controls": N_("a message cannot hold control or direction characters"),
    "chat_one": N_("send either a text or a quick message"),
    "chat_quick": N_("there is no such quick message"),
    "chat_kibitz": N_("kibitz is the spectators' chat: players talk with say"),
    "chat_say": N_("you do not play in this match: spectators talk with kibitz"),
    "chat_muted": N_("you are muted in chat until %(until)s"),
    "chat_banned": N_("you are banned from chat until %(until)s"),
    "play_banned": N_("you are banned from play until %(until)s"),
    "blocked": N_("this player is not available to you"),
    "self": N_("you cannot follow or block yourself"),
    "report_self": N_("you cannot report yourself"),
    "report_message": N_("there is no such message"),
    "report_author": N_("the message is not this player's"),
    "challenge_pending": N_("you have challenged this player already: wait for the answer"),
    "challenge_not_pending": N_("this challenge is %(status)s already"),
    "challenge_none": N_("there is no such challenge"),
    "mute_needs_end": N_("a mute needs an end"),
    # the post-game analysis and hints (matches/services/analysis.py)
    "match_not_finished": N_("the match is not finished: it is analysed once it is over"),
    "hints_not_allowed": N_("hints are not given in this match"),
    "rated_hints": N_("a rated match has no hints: create it unrated"),
}
"""Every refusal of the store, the lobby and the services, by its stable reason code (the
API's `detail.rule` where it has one): the English template with the values it names."""

E = TypeVar("E", bound=Exception)


def english(params: dict[str, object]) -> dict[str, object]:
    """The values as the English sentence shows them: a time as `2026-12-02 13:00 UTC`, an
    `until` of None (a sanction without an end) as "further notice". The API says them in
    the reader's language (matches/api/messages.py `shown`)."""
    return {k: english_value(k, v) for k, v in params.items()}


def english_value(key: str, value: object) -> object:
    if isinstance(value, datetime):
        return f"{value.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    if value is None and key == "until":
        return "further notice"
    return value


def refused(cls: type[E], reason: str, /, *args: object, **params: object) -> E:
    """The error `cls` for a reason of `REFUSALS` with its values (`args`: the class's own
    leading arguments, e.g. InvalidSettings' field): `str(error)` is the English sentence,
    `error.reason` and `error.params` say it as data."""
    error = cls(*args, REFUSALS[reason] % english(params))
    error.reason = reason  # type: ignore[attr-defined]
    error.params = params  # type: ignore[attr-defined]
    return error


class StoreError(Exception):
    """Base class of everything the match store refuses (`reason`, `params`: as data)."""

    code = "store_error"
    reason: str | None = None
    params: dict[str, Any] = {}  # noqa: RUF012 (replaced, never changed)

    @classmethod
    def because(cls, reason: str, /, **params: object) -> Self:
        """The error for a reason of `REFUSALS` with its values."""
        return refused(cls, reason, **params)

    def _say(self, reason: str, **params: object) -> None:
        """For a subclass's own constructor: the sentence of `reason` with its values."""
        Exception.__init__(self, REFUSALS[reason] % english(params))
        self.reason = reason
        self.params = params


class EventsAreImmutable(StoreError):
    """Something tried to change or delete a stored match event: events are append-only."""

    code = "events_are_immutable"


class MatchNotFound(StoreError):
    code = "match_not_found"

    def __init__(self, match_id: object) -> None:
        self._say("no_match", id=match_id)


class NotAPlayer(StoreError):
    """The user has no seat in the match (spectators read, they do not act)."""

    code = "not_a_player"


class MatchFull(StoreError):
    code = "match_full"


class VersionConflict(StoreError):
    """Another write reached the match first: reload and decide again."""

    code = "version_conflict"

    def __init__(self, current_version: int | None, expected: int | None = None) -> None:
        self.current_version = current_version
        self.expected = expected
        if expected is not None:
            self._say("version_conflict", current=current_version, expected=expected)
        else:
            self._say("raced")


class OutOfTime(StoreError):
    """A move came after the deadline: the player has lost the match on time."""

    code = "out_of_time"

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._say("out_of_time", seat=seat)


class InviteRequired(StoreError):
    """The match is joined by its invite code (or the rematch is offered to someone else)."""

    code = "invite_required"


class InviteNotFound(MatchNotFound):
    def __init__(self, code: str) -> None:
        self._say("no_invite", code=repr(code))


class MatchNotFinished(StoreError):
    """The match is still being played (or never started): it has no analysis yet."""

    code = "match_not_finished"


class HintsNotAllowed(StoreError):
    """Hints are given only where the match allows them (docs/analysis.md)."""

    code = "hints_not_allowed"
