"""Input validation (requests) and the documented shape of every response.

The response serializers describe the dictionaries `matches.selectors` builds; they exist for
the OpenAPI schema (drf-spectacular) and are never used to render.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import bots
from games.rules.errors import RulesError
from games.rules.match import MAX_LENGTH, MatchSettings, Starter
from matches.store.models import Match, PlayerProfile

USERNAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,29}$")
RESERVED_PREFIXES = ("guest-", "computer-")
CLOCK_FIELDS = ("delay", "reserve", "max_move", "reconnect")
CLOCK_MAX = 24 * 3600


# -- accounts ----------------------------------------------------------------------------------


class UserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    kind = serializers.ChoiceField(choices=PlayerProfile.Kind.choices)


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")
    user = UserSerializer()


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=30,
        help_text="3-30 letters, digits, '.', '_' or '-'; not starting with guest- or computer-.",
    )
    password = serializers.CharField(write_only=True, max_length=128, min_length=1)
    display_name = serializers.CharField(max_length=40, required=False, default="")
    bot = serializers.BooleanField(
        required=False, default=False, help_text="A bot account for a third-party program."
    )

    def validate_username(self, value: str) -> str:
        if not USERNAME_RE.match(value):
            raise serializers.ValidationError(
                "use 3-30 letters, digits, '.', '_' or '-', starting with a letter or digit"
            )
        if value.lower().startswith(RESERVED_PREFIXES):
            raise serializers.ValidationError("names starting guest- or computer- are reserved")
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("this username is taken")
        return value

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


class GuestSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=40, required=False, default="")


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
                self.fail("invalid")
            return data
        if isinstance(data, list) and len(data) <= 8:
            return [_pair(step, self) for step in data]
        self.fail("invalid")
        raise AssertionError  # pragma: no cover

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
    field.fail("invalid")
    raise AssertionError  # pragma: no cover


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


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": ["site", "none"]},
            {
                "type": "object",
                "properties": {k: {"type": "integer", "minimum": 0} for k in CLOCK_FIELDS},
                "required": list(CLOCK_FIELDS),
            },
        ],
        "nullable": True,
        "example": "site",
    }
)
class ClockField(serializers.Field):
    """`"site"` (12 s delay, 2 min reserve, 60 s per move, 60 s to reconnect), `"none"`/null,
    or custom seconds `{"delay", "reserve", "max_move", "reconnect"}`. Online matches only."""

    default_error_messages: ClassVar[dict[str, str]] = {
        "invalid": 'a clock is "site", "none" or {{"delay", "reserve", "max_move", "reconnect"}}'
        f" in seconds (0-{CLOCK_MAX})"
    }

    def to_internal_value(self, data: Any) -> dict[str, int] | None:
        presets = getattr(settings, "TAVLA_CLOCK_PRESETS", {})
        if data is None or data == "none":
            return None
        if isinstance(data, str):
            if data in presets:
                return dict(presets[data])
            self.fail("invalid")
        if isinstance(data, dict) and set(data) == set(CLOCK_FIELDS):
            values = {k: data[k] for k in CLOCK_FIELDS}
            if all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= CLOCK_MAX
                for v in values.values()
            ):
                return values
        self.fail("invalid")
        raise AssertionError  # pragma: no cover

    def to_representation(self, value: Any) -> Any:
        return value


class MatchCreateSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=Match.Mode.choices, default=Match.Mode.ONLINE)
    level = serializers.CharField(
        required=False,
        default=bots.DEFAULT_LEVEL,
        max_length=32,
        help_text="Computer level (mode computer), weakest first: see GET /rules/levels.",
    )
    length = serializers.IntegerField(
        min_value=0, max_value=MAX_LENGTH, default=5, help_text="Points to win; 0 = money play."
    )
    cube = serializers.BooleanField(default=False)
    crawford = serializers.BooleanField(default=True)
    jacoby = serializers.BooleanField(default=False, help_text="Money play only.")
    backgammon_value = serializers.ChoiceField(choices=[(3, "3"), (2, "2")], default=3)
    next_game_starter = serializers.ChoiceField(
        choices=[(s.value, s.value) for s in Starter], default=Starter.OPENING_ROLL.value
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

    def validate_level(self, value: str) -> str:
        if value not in bots.LEVELS:
            raise serializers.ValidationError(f"levels are {', '.join(bots.levels())}")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            MatchSettings(
                length=attrs["length"],
                cube=attrs["cube"],
                crawford=attrs["crawford"],
                jacoby=attrs["jacoby"],
                backgammon_value=attrs["backgammon_value"],
                next_game_starter=Starter(attrs["next_game_starter"]),
            ).check()
        except RulesError as exc:
            field = "jacoby" if "Jacoby" in str(exc) else "length"
            raise serializers.ValidationError({field: [str(exc)]}) from None
        if "clock" not in attrs:
            presets = getattr(settings, "TAVLA_CLOCK_PRESETS", {})
            online = attrs["mode"] == Match.Mode.ONLINE
            attrs["clock"] = dict(presets["site"]) if online and "site" in presets else None
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


class NextStepsQuerySerializer(serializers.Serializer):
    steps = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=200,
        help_text='The steps made so far, one die each: "24/18 18/13" or "bar/22" (may be empty).',
    )


class RulesPlaysQuerySerializer(serializers.Serializer):
    position_id = serializers.CharField(
        max_length=14, min_length=1, help_text="gnubg Position ID, the player on roll to move."
    )
    dice = serializers.CharField(max_length=5, help_text='The roll: "31", "3-1" or "3,1".')


class RulesNextStepsQuerySerializer(RulesPlaysQuerySerializer, NextStepsQuerySerializer):
    pass


class MatchListQuerySerializer(serializers.Serializer):
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
    length = serializers.IntegerField(min_value=0, max_value=MAX_LENGTH, required=False)
    cube = serializers.BooleanField(required=False, allow_null=True, default=None)


class LiveQuerySerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=Match.Mode.choices, required=False)


# -- responses (schema only) ---------------------------------------------------------------------


class WhoSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    who = serializers.ChoiceField(choices=["you", "opponent"])


class SideCountSerializer(serializers.Serializer):
    you = serializers.IntegerField()
    opponent = serializers.IntegerField()


class BoardSerializer(serializers.Serializer):
    points = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=24,
        max_length=24,
        help_text="points[i] is point i+1 in your numbering; positive: your checkers.",
    )
    bar = SideCountSerializer()
    off = SideCountSerializer()


class StepSerializer(serializers.Serializer):
    from_ = serializers.IntegerField(help_text="25 = the bar")
    to = serializers.IntegerField(help_text="0 = borne off")
    hit = serializers.BooleanField()

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class LegalPlaySerializer(serializers.Serializer):
    notation = serializers.CharField()
    steps = StepSerializer(many=True)
    position_id = serializers.CharField(
        help_text="The position after the play, opponent on roll (as gnubg shows it)."
    )


class RulesPlaySerializer(LegalPlaySerializer):
    board = BoardSerializer(help_text="The position after the play, from the mover's side.")


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["registered", "guest", "bot", "computer", "named"])


class SettingsSerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=Match.Mode.choices)
    length = serializers.IntegerField()
    cube = serializers.BooleanField()
    crawford = serializers.BooleanField()
    jacoby = serializers.BooleanField()
    backgammon_value = serializers.IntegerField()
    next_game_starter = serializers.CharField()
    computer_level = serializers.CharField(allow_null=True)
    clock = serializers.JSONField(allow_null=True)
    public = serializers.BooleanField()


class LobbySerializer(serializers.Serializer):
    open_challenge = serializers.BooleanField()
    invite_code = serializers.CharField(
        allow_null=True, help_text="Shown to the match's players only."
    )
    reserved_for = serializers.CharField(allow_null=True)
    rematch_of = serializers.UUIDField(allow_null=True)
    rematch = serializers.UUIDField(allow_null=True)
    imported = serializers.BooleanField()


class CubeSerializer(serializers.Serializer):
    value = serializers.IntegerField()
    owner = WhoSerializer(allow_null=True, help_text="null: centred.")
    offered = serializers.BooleanField()
    in_use = serializers.BooleanField()


class CrawfordSerializer(serializers.Serializer):
    rule = serializers.BooleanField()
    crawford_game = serializers.BooleanField()
    post_crawford = serializers.BooleanField()


class ScoreSerializer(serializers.Serializer):
    you = serializers.IntegerField()
    opponent = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.IntegerField())
    length = serializers.IntegerField()


class ResignationSerializer(serializers.Serializer):
    offered_by = WhoSerializer()
    value = serializers.IntegerField()
    points = serializers.IntegerField()


class ResultSerializer(serializers.Serializer):
    winner = WhoSerializer(allow_null=True)
    ended_by = serializers.CharField(allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField())


class GameResultSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    winner = WhoSerializer()
    points = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["single", "gammon", "backgammon"])
    cube = serializers.IntegerField()
    ended_by = serializers.CharField()


class GnubgSerializer(serializers.Serializer):
    position_id = serializers.CharField()
    match_id = serializers.CharField()


class SideSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The seat the board is shown from.")
    role = serializers.ChoiceField(choices=["player", "hotseat", "spectator"])
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="Your seats.")


class MatchStateSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    version = serializers.IntegerField(help_text="Send it back as If-Match / expected_version.")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    settings = SettingsSerializer()
    players = PlayerSerializer(many=True, allow_null=True)
    side = SideSerializer()
    lobby = LobbySerializer()
    game = serializers.IntegerField()
    phase = serializers.ChoiceField(
        choices=["opening", "roll", "play", "doubled", "resigning", "over"]
    )
    board = BoardSerializer()
    pips = SideCountSerializer()
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    turn = WhoSerializer(allow_null=True, help_text="The player whose turn it is (the roller).")
    to_act = WhoSerializer(
        allow_null=True, help_text="Who must act now (the opponent while answering a double)."
    )
    actions = serializers.ListField(
        child=serializers.ChoiceField(
            choices=[
                "roll",
                "play",
                "double",
                "take",
                "drop",
                "resign",
                "accept",
                "reject",
                "join",
                "abort",
                "rematch",
            ]
        ),
        help_text="What you may do now (the endpoint names).",
    )
    legal_plays = LegalPlaySerializer(many=True, help_text="When you must play: every option.")
    cube = CubeSerializer()
    crawford = CrawfordSerializer()
    score = ScoreSerializer()
    resignation = ResignationSerializer(allow_null=True)
    clock = serializers.JSONField(
        allow_null=True,
        help_text="Online matches with a clock (README Clocks): settings; running (whose move"
        " runs); deadline (ISO time the running move is lost on time); you/opponent/seats:"
        " {delay, reserve} seconds left now; reconnect (grace in seconds); now (server time)."
        " null without a clock.",
    )
    result = ResultSerializer(allow_null=True)
    games = GameResultSerializer(many=True)
    gnubg = GnubgSerializer()
    moves = serializers.IntegerField()
    created_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    settings = SettingsSerializer()
    players = PlayerSerializer(many=True, allow_null=True)
    score = serializers.ListField(child=serializers.IntegerField())
    to_act = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    ended_by = serializers.CharField(allow_null=True)
    version = serializers.IntegerField()
    lobby = LobbySerializer()
    created_at = serializers.DateTimeField()
    last_move_at = serializers.DateTimeField(allow_null=True)


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    at = serializers.DateTimeField()
    data = serializers.DictField(help_text="The event's payload; seats are 0 and 1.")


class EventsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)


class NextStepsSerializer(serializers.Serializer):
    steps_so_far = StepSerializer(many=True)
    next_steps = StepSerializer(many=True)
    complete = serializers.BooleanField(help_text="The steps so far are a whole legal play.")
    dice_to_use = serializers.IntegerField(help_text="How many dice a legal play uses.")


class RulesPlaysSerializer(serializers.Serializer):
    position_id = serializers.CharField()
    dice = serializers.ListField(child=serializers.IntegerField())
    plays = RulesPlaySerializer(many=True)


class ImportedSerializer(serializers.Serializer):
    match = MatchSummarySerializer()
    games = serializers.IntegerField()
    final_score = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)


class LevelsSerializer(serializers.Serializer):
    levels = serializers.ListField(child=serializers.CharField(), help_text="Weakest first.")


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable machine code.")
    message = serializers.CharField(help_text="A sentence a player understands.")
    detail = serializers.JSONField(allow_null=True, help_text="Context; null when none.")
