"""Commands on matches: every write to the store goes through here (README "Match store").

`play` holds the match commands (`run` takes a `Command`: who asks what of which match;
`match_act` takes a rules Action, for callers that decide in the rules' terms), `judgement`
the one place the rules judge a command, `access` who may read and act, `lobby` opening and
joining matches, `moderation` staff actions, `deadlines`/`clock` the clock's decisions,
`presence` the reconnect rule, `computer` the computer opponent's turn.
"""

from .play import (
    AbortMatch,
    Act,
    Ask,
    Command,
    Outcome,
    PlayDice,
    Resign,
    ResignMatch,
    Roll,
    match_abort,
    match_accept_resign,
    match_act,
    match_create,
    match_double,
    match_drop,
    match_forfeit,
    match_join,
    match_offer_rematch,
    match_play,
    match_reject_resign,
    match_resign,
    match_resign_match,
    match_roll,
    match_take,
    match_timeout,
    run,
)

__all__ = [
    "AbortMatch",
    "Act",
    "Ask",
    "Command",
    "Outcome",
    "PlayDice",
    "Resign",
    "ResignMatch",
    "Roll",
    "match_abort",
    "match_accept_resign",
    "match_act",
    "match_create",
    "match_double",
    "match_drop",
    "match_forfeit",
    "match_join",
    "match_offer_rematch",
    "match_play",
    "match_reject_resign",
    "match_resign",
    "match_resign_match",
    "match_roll",
    "match_take",
    "match_timeout",
    "run",
]
