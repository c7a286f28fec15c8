"""Typed errors of the rules engine.

Each carries a stable `code` for APIs and a message a player understands.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: something the rules do not allow or cannot read."""

    code = "rules_error"


class InvalidPosition(RulesError):
    """A position that cannot exist (wrong checker counts, malformed data)."""

    code = "invalid_position"


class InvalidDice(RulesError):
    """Dice that are not two numbers from 1 to 6."""

    code = "invalid_dice"


class InvalidNotation(RulesError):
    """Text that is not step notation such as "24/18 13/10" or "bar/22*"."""

    code = "invalid_notation"


class IllegalPlay(RulesError):
    """A well-formed play that the rules forbid in this position with these dice."""

    code = "illegal_play"


class IllegalAction(RulesError):
    """An action (roll, double, take, resign, ...) that is not allowed now."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The action is allowed now, but to the other player."""

    code = "not_your_turn"


class NoCube(IllegalAction):
    """A double in a game played without the doubling cube (long nardy has none)."""

    code = "no_cube_in_long_nardy"


class InvalidSettings(RulesError):
    """Match or clock settings that are not allowed; `field` names the setting at fault."""

    code = "invalid_settings"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class InvalidId(RulesError):
    """A gnubg Position ID or Match ID that does not decode."""

    code = "invalid_id"


class InvalidMatchFile(RulesError):
    """A .mat match file that cannot be read."""

    code = "invalid_match_file"
