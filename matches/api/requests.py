"""What the API reads: request bodies and query parameters, validated by DRF serializers.

(What it answers is in matches/api/contract.py: response dataclasses rendered and documented
by one serializer each.)
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, ClassVar

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import ProhibitNullCharactersValidator as NoNulls
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import bots
from games.rules import (
    MAX_MATCH_LENGTH,
    REFUSALS,
    SITE_CLOCK,
    InvalidSettings,
    MatchSettings,
    Starter,
    Variant,
    find_game,
    position_from_id,
)
from matches.store.models import Match, PlayerProfile

from . import reservednames
from .names import display_name_problem, impersonates

USERNAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,29}$")
RESERVED_PREFIXES = (PlayerProfile.GUEST_PREFIX, PlayerProfile.COMPUTER_PREFIX)
RESERVED = " or ".join(RESERVED_PREFIXES)  # "guest- or computer-"
CLOCK_FIELDS = ("delay", "reserve", "max_move", "reconnect")
CLOCK_MAX = 24 * 3600
BLANK_NAME = (
    "Optional; empty or missing: the username is shown. No control or direction characters;"
    " not a name of the computer or the staff, nor a registered player's name or username."
)
CLOCK_PRESETS: dict[str, dict[str, int]] = {
    "site": {k: int(v) for k, v in SITE_CLOCK.to_json().items()}
}
"""Named clocks a match may be created with; "site" is the rules' site clock."""


# -- accounts ----------------------------------------------------------------------------------


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=30,
        help_text=f"3-30 letters, digits, '.', '_' or '-'; not starting with {RESERVED}.",
    )
    password = serializers.CharField(write_only=True, max_length=128, min_length=1)
    display_name = serializers.CharField(
        max_length=40, required=False, default="", allow_blank=True, help_text=BLANK_NAME
    )
    bot = serializers.BooleanField(
        required=False, default=False, help_text="A bot account for a third-party program."
    )

    def validate_username(self, value: str) -> str:
        if not USERNAME_RE.match(value):
            raise serializers.ValidationError(
                "use 3-30 letters, digits, '.', '_' or '-', starting with a letter or digit"
            )
        if value.lower().startswith(RESERVED_PREFIXES):
            raise serializers.ValidationError(f"names starting {RESERVED} are reserved")
        if impersonates(value):
            raise serializers.ValidationError(
                "this name is kept for the computer and the site's staff"
            )
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("this username is taken")
        if reservednames.taken(value):
            raise serializers.ValidationError(reservednames.TAKEN)
        return value

    def validate_display_name(self, value: str) -> str:
        return checked_display_name(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"])
        try:
            validate_password(attrs["password"], user)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True)


class LogoutSerializer(serializers.Serializer):
    everywhere = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Sign out every client of the account (every token), not only this one.",
    )


class GuestSerializer(serializers.Serializer):
    display_name = serializers.CharField(
        max_length=40, required=False, default="", allow_blank=True, help_text=BLANK_NAME
    )

    def validate_display_name(self, value: str) -> str:
        return checked_display_name(value)


def checked_display_name(value: str) -> str:
    """The name as it will be shown (NFC, one space between words), or a field error."""
    value = " ".join(unicodedata.normalize("NFC", value).split(" "))
    value = " ".join(part for part in value.split(" ") if part)
    problem = display_name_problem(value)
    if problem:
        raise serializers.ValidationError(problem)
    if reservednames.taken(value):
        raise serializers.ValidationError(reservednames.TAKEN)
    return value


def _error(field: serializers.Field, key: str, **params: Any) -> serializers.ValidationError:
    """The field's error `key`, to raise (DRF's `fail`, visible to the type checker)."""
    return serializers.ValidationError(field.error_messages[key].format(**params), code=key)


# -- versioned writes ------------------------------------------------------------------------------


class VersionedSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="The version you decided on (or send `If-Match`); a stale one gets 409.",
    )


class EmptyWriteSerializer(VersionedSerializer):
    """Roll, double, take, drop, accept, reject, abort: only the optional expected version."""


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "example": "24/18 13/11"},
            {
                "type": "array",
                "items": {
                    "oneOf": [
                        {
                            "type": "array",
                            "items": {"type": "integer"},
                            "minItems": 2,
                            "maxItems": 2,
                        },
                        {
                            "type": "object",
                            "properties": {
                                "from": {"type": "integer"},
                                "to": {"type": "integer"},
                            },
                            "required": ["from", "to"],
                        },
                    ]
                },
                "example": [[24, 18], [13, 11]],
            },
        ]
    }
)
class PlayField(serializers.Field):
    """A play as notation ("24/18 13/11", "bar/22*", "6/off") or steps: [[from, to], ...]
    or [{"from": 24, "to": 18}, ...] (25 = bar, 0 = off). An empty list means "no move" (only
    legal when the roll cannot be played, which the server already does by itself)."""

    default_error_messages: ClassVar[dict[str, str]] = {
        "invalid": 'write the play as text like "24/18 13/11" or as steps [[24, 18], [13, 11]]'
    }

    def to_internal_value(self, data: Any) -> str | list[list[int]]:
        if isinstance(data, str):
            if len(data) > 200:
                raise _error(self, "invalid")
            return data
        if isinstance(data, list) and len(data) <= 8:
            return [_pair(step, self) for step in data]
        raise _error(self, "invalid")

    def to_representation(self, value: Any) -> Any:
        return value


def _pair(step: Any, field: serializers.Field) -> list[int]:
    if isinstance(step, dict) and set(step) >= {"from", "to"}:
        step = [step["from"], step["to"]]
    if (
        isinstance(step, list)
        and len(step) == 2
        and all(isinstance(p, int) and not isinstance(p, bool) for p in step)
    ):
        return [int(step[0]), int(step[1])]
    raise _error(field, "invalid")


class PlaySerializer(VersionedSerializer):
    play = PlayField()


class ResignSerializer(VersionedSerializer):
    value = serializers.ChoiceField(
        choices=[(1, "single"), (2, "gammon"), (3, "backgammon")],
        default=1,
        help_text="1 single, 2 gammon, 3 backgammon (times the cube).",
    )


class JoinSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(
        choices=[0, 1], required=False, allow_null=True, help_text="The free seat if omitted."
    )


_SITE_TEXT = ", ".join(f"{k} {v} s" for k, v in CLOCK_PRESETS["site"].items())


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": [*CLOCK_PRESETS, "none"]},
            {
                "type": "object",
                "properties": {
                    k: {"type": "integer", "minimum": 0, "maximum": CLOCK_MAX} for k in CLOCK_FIELDS
                },
                "required": list(CLOCK_FIELDS),
                "additionalProperties": False,
            },
        ],
        "nullable": True,
        "example": "site",
    }
)
class ClockField(serializers.Field):
    __doc__ = f"""`"site"` ({_SITE_TEXT}), `"none"`/null, or custom whole seconds
    `{{"delay", "reserve", "max_move", "reconnect"}}`. Online matches only."""

    default_error_messages: ClassVar[dict[str, str]] = {
        "invalid": 'a clock is "site", "none" or {{"delay", "reserve", "max_move", "reconnect"}}'
        f" in whole seconds (0-{CLOCK_MAX})",
        "fraction": "clock {name} must be a whole number of seconds (no fractions): {value}",
        "range": f"clock {{name}} must be 0 to {CLOCK_MAX} seconds",
        "max_move": "clock max_move must be more than 0 seconds",
    }

    def to_internal_value(self, data: Any) -> dict[str, int] | None:
        if data is None or data == "none":
            return None
        if isinstance(data, str) and data in CLOCK_PRESETS:
            return dict(CLOCK_PRESETS[data])
        if not isinstance(data, dict) or set(data) != set(CLOCK_FIELDS):
            raise _error(self, "invalid")
        values: dict[str, int] = {}
        for name in CLOCK_FIELDS:
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise _error(self, "invalid")
            if isinstance(value, float) and not value.is_integer():
                raise _error(self, "fraction", name=name, value=value)
            if not 0 <= value <= CLOCK_MAX:
                raise _error(self, "range", name=name)
            values[name] = int(value)
        if values["max_move"] <= 0:
            raise _error(self, "max_move")
        return values

    def to_representation(self, value: Any) -> Any:
        return value


def level_of(game: str, level: str | None, field: str = "level") -> str:
    """The computer level asked for (default: the game's), checked against the game's levels."""
    if not level:
        return bots.default_level(game)
    if level not in bots.levels(game):
        names = ", ".join(bots.levels(game))
        raise serializers.ValidationError({field: [f"the levels of {game} are {names}"]})
    return level


class MatchCreateSerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=[(v.value, v.value) for v in Variant],
        default=Variant.TAVLA.value,
        help_text="tavla (backgammon) or long-nardy (no cube, no Crawford rule; the winner"
        " starts the next game): docs/long-nardy.md.",
    )
    mode = serializers.ChoiceField(choices=Match.Mode.choices, default=Match.Mode.ONLINE)
    level = serializers.CharField(
        required=False,
        max_length=32,
        help_text="Computer level (mode computer), weakest first: see GET /rules/levels?game=."
        " Default: the game's default level.",
    )
    length = serializers.IntegerField(
        min_value=0,
        max_value=MAX_MATCH_LENGTH,
        default=5,
        help_text=f"Points to win, 1 to {MAX_MATCH_LENGTH}; 0 = money play.",
    )
    cube = serializers.BooleanField(default=False, help_text="Tavla only (long nardy: 400).")
    crawford = serializers.BooleanField(
        required=False, help_text="Default: on in tavla; long nardy has no Crawford rule."
    )
    jacoby = serializers.BooleanField(default=False, help_text="Money play only; tavla only.")
    backgammon_value = serializers.ChoiceField(choices=[(3, "3"), (2, "2")], default=3)
    next_game_starter = serializers.ChoiceField(
        choices=[(s.value, s.value) for s in Starter],
        required=False,
        help_text="Default: opening_roll in tavla, winner in long nardy.",
    )
    clock = ClockField(
        required=False, allow_null=True, help_text="Default: the site's clock online, else none."
    )
    public = serializers.BooleanField(default=True, help_text="Anyone may spectate.")
    open_challenge = serializers.BooleanField(
        default=True,
        help_text="Online: list it in the lobby for anyone to accept (else invite code only).",
    )
    seat = serializers.ChoiceField(choices=[0, 1], default=0, help_text="Your seat.")
    rated = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Count it for the ratings (default: true for online match play, which is"
        " rated when both players are registered players or bots, unless a custom clock is"
        " shorter than the rated minimum: then false, and true is a 400); false: a friendly"
        " match. Hot-seat, computer and money play are never rated.",
    )
    hints = serializers.BooleanField(
        default=False,
        help_text="The players may ask for the best plays (GET /matches/{id}/hint); only in an"
        " unrated match (with rated true: 400). Hot-seat and computer matches always allow"
        " hints.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs["level"] = level_of(attrs["game"], attrs.get("level"))
        if attrs.get("rated") and (attrs["mode"] != Match.Mode.ONLINE or attrs["length"] == 0):
            raise serializers.ValidationError(
                {"rated": ["only online matches to a number of points are rated"]}
            )
        if attrs["hints"] and attrs.get("rated"):
            raise serializers.ValidationError(
                {"hints": ["a rated match has no hints: create it unrated"]}
            )
        game = find_game(attrs["game"])
        if not game.has_cube and attrs.get("crawford"):
            raise serializers.ValidationError(
                {"crawford": [f"{game.title} has no Crawford rule (there is no cube)"]}
            )
        attrs.setdefault("crawford", game.has_cube)
        starter = attrs.get("next_game_starter")
        try:
            settings = MatchSettings(
                game=game.variant,
                length=attrs["length"],
                cube=attrs["cube"],
                crawford=attrs["crawford"],
                jacoby=attrs["jacoby"],
                backgammon_value=attrs["backgammon_value"],
                next_game_starter=Starter(starter) if starter else None,
            )
            settings.check()
            attrs["next_game_starter"] = str(settings.next_game_starter)
        except InvalidSettings as exc:
            raise serializers.ValidationError({exc.field: [str(exc)]}) from None
        if "clock" not in attrs:
            online = attrs["mode"] == Match.Mode.ONLINE
            attrs["clock"] = dict(CLOCK_PRESETS["site"]) if online else None
        elif attrs["clock"] is not None and attrs["mode"] != Match.Mode.ONLINE:
            raise serializers.ValidationError(
                {"clock": ["only online matches have a clock (none vs the computer or hot-seat)"]}
            )
        return attrs


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField(required=False, help_text="The .mat file (multipart).")
    text = serializers.CharField(
        required=False, max_length=2_000_000, trim_whitespace=False, help_text="Or its text."
    )
    game = serializers.ChoiceField(
        choices=[(v.value, v.value) for v in Variant],
        default=Variant.TAVLA.value,
        help_text="The file's game: .mat files are tavla (long-nardy: 400 no_mat_for_long_nardy).",
    )


# -- query parameters ----------------------------------------------------------------------------


class StateQuerySerializer(serializers.Serializer):
    seat = serializers.ChoiceField(
        choices=[0, 1],
        required=False,
        help_text="Spectators and hot-seat players: see the board from this seat.",
    )


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, default=0, help_text="Events with seq > after."
    )
    wait = serializers.IntegerField(
        min_value=0,
        max_value=600,
        default=0,
        help_text="Long-poll: wait up to this many seconds (capped at 30) for a new event.",
    )


class BoardsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, default=0, help_text="Plays with seq > after."
    )
    seat = serializers.ChoiceField(
        choices=[0, 1],
        required=False,
        help_text="See the boards from this seat (default: your own seat, else seat 0).",
    )


class NextStepsQuerySerializer(serializers.Serializer):
    steps = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=200,
        help_text='The steps made so far, one die each: "24/18 18/13" or "bar/22" (may be empty).',
    )


class RulesPlaysQuerySerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=[(v.value, v.value) for v in Variant],
        default=Variant.TAVLA.value,
        help_text="tavla (the position as a gnubg Position ID) or long-nardy (as `position`).",
    )
    position_id = serializers.CharField(
        max_length=14,
        min_length=1,
        required=False,
        help_text="Tavla: gnubg Position ID, the player on roll to move.",
    )
    position = serializers.CharField(
        max_length=400,
        required=False,
        help_text='Long nardy: the position as JSON from the mover\'s side, {"board": [24'
        ' ints], "off": [mine, theirs]} (positive: the mover\'s checkers; his head is 24).',
    )
    dice = serializers.CharField(max_length=5, help_text='The roll: "31", "3-1" or "3,1".')
    first_turn = serializers.BooleanField(
        default=False,
        help_text="Long nardy: the mover's first turn of the game (6-6, 4-4, 3-3 may take two"
        " checkers off the head).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        game = find_game(attrs["game"])
        if game.has_gnubg_ids:
            if "position_id" not in attrs:
                raise serializers.ValidationError({"position_id": ["This field is required."]})
            attrs["position"] = position_from_id(attrs["position_id"])
            return attrs
        if "position" not in attrs:
            raise serializers.ValidationError(
                {"position": [f"{game.title} positions are sent as position (JSON)"]}
            )
        try:
            data = json.loads(attrs["position"])
        except ValueError:
            raise serializers.ValidationError(
                {"position": ['write the position as JSON: {"board": [...], "off": [..]}']}
            ) from None
        attrs["position"] = game.position_from_json(data)  # InvalidPosition: 400
        return attrs


class RulesPlaysPageSerializer(RulesPlaysQuerySerializer):
    limit = serializers.IntegerField(
        min_value=1,
        max_value=1000,
        default=200,
        help_text="At most this many plays (default 200; `total` says how many there are).",
    )
    offset = serializers.IntegerField(
        min_value=0, max_value=100_000, default=0, help_text="Skip this many plays first."
    )


class RulesNextStepsQuerySerializer(RulesPlaysQuerySerializer, NextStepsQuerySerializer):
    pass


class MatchListQuerySerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=[(v.value, v.value) for v in Variant],
        required=False,
        help_text="Only this game: tavla or long-nardy.",
    )
    status = serializers.CharField(
        required=False,
        help_text="Comma-separated: waiting, active, finished, aborted.",
        max_length=64,
    )
    mode = serializers.ChoiceField(choices=Match.Mode.choices, required=False)
    my_turn = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="Only matches where I must act."
    )

    def validate_status(self, value: str) -> list[str]:
        parts = [p.strip() for p in value.split(",") if p.strip()]
        bad = [p for p in parts if p not in Match.Status.values]
        if bad:
            raise serializers.ValidationError(f"unknown status {bad[0]!r}")
        return parts


class ChallengeQuerySerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=[(v.value, v.value) for v in Variant],
        required=False,
        help_text="Only this game: tavla or long-nardy.",
    )
    length = serializers.IntegerField(min_value=0, max_value=MAX_MATCH_LENGTH, required=False)
    cube = serializers.BooleanField(required=False, allow_null=True, default=None)


class LiveQuerySerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=[(v.value, v.value) for v in Variant],
        required=False,
        help_text="Only this game: tavla or long-nardy.",
    )
    mode = serializers.ChoiceField(choices=Match.Mode.choices, required=False)


# -- players, leaderboard, quick pairing (docs/ratings.md) ----------------------------------------

GAME_CHOICES = [(v.value, v.value) for v in Variant]
RATING_MAX = 10_000


class GameQuerySerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=GAME_CHOICES,
        default=Variant.TAVLA.value,
        help_text="The game (ratings are per game).",
    )


class HistoryQuerySerializer(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=GAME_CHOICES, required=False, help_text="Only this game (default: every game)."
    )


class SeekComputerSerializer(serializers.Serializer):
    level = serializers.CharField(
        max_length=32,
        required=False,
        help_text="See GET /rules/levels?game= (default: the game's default level).",
    )
    after = serializers.IntegerField(
        min_value=0, max_value=3600, help_text="Seconds of waiting before the computer plays you."
    )


class SeekCreateSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAME_CHOICES, default=Variant.TAVLA.value)
    length = serializers.IntegerField(
        min_value=1, max_value=MAX_MATCH_LENGTH, default=5, help_text="Points to win."
    )
    cube = serializers.BooleanField(
        required=False, help_text="Default: true in tavla; long nardy has no cube."
    )
    clock = serializers.CharField(
        max_length=16, default="site", help_text='A clock preset by name: "site" (the default).'
    )
    rating_min = serializers.FloatField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=RATING_MAX,
        help_text="The lowest opponent's rating you accept (never widened).",
    )
    rating_max = serializers.FloatField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=RATING_MAX,
        help_text="The highest opponent's rating you accept (never widened).",
    )
    computer = SeekComputerSerializer(
        required=False,
        allow_null=True,
        default=None,
        help_text="Play the computer at this level if nobody is paired with you within"
        " `after` seconds (a computer match has no clock and is not rated).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        low, high = attrs.get("rating_min"), attrs.get("rating_max")
        if low is not None and high is not None and low > high:
            raise serializers.ValidationError({"rating_max": ["must not be below rating_min"]})
        game = find_game(attrs["game"])
        if not game.has_cube and attrs.get("cube"):
            raise serializers.ValidationError({"cube": [REFUSALS[game.no_cube_reason]]})
        attrs.setdefault("cube", game.has_cube)
        computer = attrs.get("computer")
        if computer is not None:
            computer["level"] = level_of(attrs["game"], computer.get("level"), "computer")
        return attrs


class TournamentCreateSerializer(serializers.Serializer):
    """A tournament's settings (docs/tournaments.md); the domain checks how they fit together."""

    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=GAME_CHOICES, default=Variant.TAVLA.value)
    format = serializers.ChoiceField(choices=["knockout", "swiss"])
    length = serializers.IntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, default=3)
    final_length = serializers.IntegerField(
        min_value=1,
        max_value=MAX_MATCH_LENGTH,
        required=False,
        allow_null=True,
        default=None,
        help_text="Knockout only: the final's length (null: the same as the rounds').",
    )
    rounds = serializers.IntegerField(
        min_value=1, max_value=1023, required=False, allow_null=True, default=None,
        help_text="Swiss only: the number of rounds.",
    )  # fmt: skip
    clock = serializers.CharField(max_length=16, default="site", help_text="A clock preset.")
    rated = serializers.BooleanField(default=True)
    guests = serializers.BooleanField(default=False, help_text="Unrated only: guests may join.")
    min_players = serializers.IntegerField(min_value=2, max_value=1024, default=4)
    max_players = serializers.IntegerField(min_value=2, max_value=1024, default=64)
    signup_opens = serializers.DateTimeField(required=False, allow_null=True, default=None)
    starts_at = serializers.DateTimeField(help_text="With a time zone.")


class TournamentListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["upcoming", "running", "finished", "cancelled"],
        required=False,
        help_text="Only tournaments in this state (none: all).",
    )


class TournamentJoinSerializer(serializers.Serializer):
    computer = serializers.CharField(
        required=False,
        max_length=32,
        help_text="Staff only: enter the site's computer at this level of the tournament's game"
        " (GET /rules/levels?game=) instead of yourself. It plays its matches by itself, is"
        " never forfeited for absence and is never rated.",
    )


# -- players among players (issue 28; matches/api/views/community.py) ---------------------------


class ChatTextField(serializers.CharField):
    """The text as sent: trimming, the length and the characters are the chat service's to
    judge (400 `invalid_message`), a NUL included."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, allow_blank=True, **kwargs)
        self.validators = [v for v in self.validators if not isinstance(v, NoNulls)]  # type: ignore[has-type]


class ChatPostSerializer(serializers.Serializer):
    channel = serializers.ChoiceField(
        choices=[("say", "say"), ("kibitz", "kibitz")],
        help_text="say: the two players; kibitz: the spectators (not the players).",
    )
    text = ChatTextField(
        required=False,
        allow_null=True,
        help_text="1 to 300 characters once trimmed: no control characters, no bidi override"
        " or isolate characters (U+202A-U+202E, U+2066-U+2069). Or send `quick`.",
    )
    quick = serializers.ChoiceField(
        choices=[(q, q) for q in ("good_luck", "well_played", "thanks", "sorry_connection")],
        required=False,
        allow_null=True,
        help_text="A quick message, shown in each reader's language (instead of `text`).",
    )


class ChatQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, default=0, help_text="The id of the last line you have (0: from the start)."
    )
    kibitz = serializers.BooleanField(
        default=False,
        help_text="A player: also the spectators' lines (never while a rated match is being"
        " played). Spectators always get them.",
    )


class ChallengeCreateSerializer(MatchCreateSerializer):
    """A direct challenge: `to`, and the settings of the online match (as POST /matches)."""

    to = serializers.CharField(max_length=150, help_text="The challenged player's username.")
    mode = None
    level = None
    open_challenge = None
    seat = None

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs.update(mode=str(Match.Mode.ONLINE), open_challenge=False, seat=0)
        return super().validate(attrs)


class ReportSerializer(serializers.Serializer):
    player = serializers.CharField(max_length=150, help_text="The reported player's username.")
    message = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, help_text="A chat line of his (its id)."
    )
    match = serializers.UUIDField(required=False, allow_null=True, help_text="A match of his.")
    reason = serializers.ChoiceField(
        choices=[(r, r) for r in ("abuse", "spam", "cheating", "other")]
    )
    text = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=500, help_text="What happened."
    )
