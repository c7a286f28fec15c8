"""Why a tournament refuses something, in a form the API can put in the player's language.

A refusal carries a stable reason code, the values of its sentence and the field at fault (for
settings), like the rules' refusals (`exc.reason`, `exc.params`; matches/api/messages.py turns
them into the request's language). The English sentences are here, by reason code.
"""

from __future__ import annotations

from typing import Any

REASONS: dict[str, str] = {
    "tournament_name": "a tournament needs a name of 1-%(max)s characters",
    "tournament_game": "a tournament is played in tavla or long-nardy",
    "tournament_format": "a tournament is a knockout or a swiss",
    "tournament_length": "a tournament match is played to 1-%(max)s points",
    "final_length": "the final is played to %(length)s-%(max)s points (never shorter than the"
    " rounds before it)",
    "final_length_swiss": "only a knockout has a final: a swiss plays every round to the same"
    " length",
    "swiss_rounds": "a swiss is played over 1-%(max)s rounds",
    "knockout_rounds": "a knockout has as many rounds as its field needs: leave rounds out",
    "too_many_rounds": "a swiss of %(rounds)s rounds needs at least %(need)s players, so that"
    " nobody meets the same opponent twice: raise the minimum or play fewer rounds",
    "min_players": "a tournament needs at least 2 players",
    "max_players": "the most players a tournament takes is between its minimum (%(min)s) and"
    " %(max)s",
    "tournament_clock": "the clock is one of the presets: %(presets)s",
    "guests_rated": "guests may play only in unrated tournaments",
    "starts_at": "the start time needs a time zone",
    "signup_window": "sign-up opens before the tournament starts",
    "starts_in_past": "the start time has already passed",
    # commands (decide.py)
    "signup_closed": "sign-up for this tournament is closed",
    "signup_not_open": "sign-up for this tournament opens at %(opens)s",
    "tournament_full": "the tournament is full (%(max)s players)",
    "already_joined": "you are already in this tournament",
    "guests_not_allowed": "guests may not join this tournament: sign up for an account",
    "not_in_tournament": "you are not in this tournament",
    "tournament_over": "the tournament is over",
    "not_started": "the tournament has not started",
    "no_such_board": "round %(round)s has no board %(board)s",
    "board_decided": "that match's result is already recorded",
    "not_on_board": "the winner must be one of the board's two players",
}
"""Each refusal's reason code and its English sentence with named values."""


class TournamentRefused(Exception):
    """Something a tournament does not allow: `reason` is the stable code, `params` the values
    of its sentence, `field` the setting at fault (or "" when it is not about a setting)."""

    code = "tournament_refused"

    def __init__(self, reason: str, field: str = "", **params: Any) -> None:
        self.reason = reason
        self.field = field
        self.params = params
        super().__init__(REASONS[reason] % params if params else REASONS[reason])


class InvalidTournamentSettings(TournamentRefused):
    code = "invalid_settings"
