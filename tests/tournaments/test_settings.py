"""Settings a tournament cannot be played with are refused at creation, with a reason."""

from __future__ import annotations

from datetime import timedelta

import pytest

from matches.tournaments import decide
from matches.tournaments.refusals import InvalidTournamentSettings, TournamentRefused
from matches.tournaments.settings import MAX_PLAYERS, TournamentSettings
from matches.tournaments.state import replay

from .helpers import START, settings


def refusal(chosen: TournamentSettings, **check: object) -> InvalidTournamentSettings:
    with pytest.raises(InvalidTournamentSettings) as caught:
        chosen.check(**check)  # type: ignore[arg-type]
    return caught.value


@pytest.mark.parametrize(
    ("changes", "reason", "field"),
    [
        ({"name": "  "}, "tournament_name", "name"),
        ({"game": "chess"}, "tournament_game", "game"),
        ({"format": "round-robin"}, "tournament_format", "format"),
        ({"length": 0}, "tournament_length", "length"),
        ({"length": 26}, "tournament_length", "length"),
        ({"final_length": 1}, "final_length", "final_length"),
        ({"rounds": 3}, "knockout_rounds", "rounds"),
        ({"min_players": 1}, "min_players", "min_players"),
        ({"max_players": 3}, "max_players", "max_players"),
        ({"max_players": MAX_PLAYERS + 1}, "max_players", "max_players"),
        ({"guests": True}, "guests_rated", "guests"),
        ({"starts_at": START.replace(tzinfo=None)}, "starts_at", "starts_at"),
        ({"signup_opens": START}, "signup_window", "signup_opens"),
    ],
)
def test_a_knockout_refuses(changes: dict[str, object], reason: str, field: str) -> None:
    chosen = settings("knockout", 4, final_length=None)
    chosen = TournamentSettings(**{**chosen.__dict__, **changes})
    found = refusal(chosen)
    assert (found.reason, found.field) == (reason, field)
    assert str(found) and "%(" not in str(found)  # the sentence has its values


def test_a_swiss_needs_its_rounds_and_no_final() -> None:
    assert refusal(settings("swiss", 8)).reason == "swiss_rounds"
    assert refusal(settings("swiss", 8, rounds=0)).reason == "swiss_rounds"
    assert refusal(settings("swiss", 8, rounds=3, final_length=5)).reason == "final_length_swiss"


def test_more_rounds_than_the_smallest_field_can_play_without_a_repeat_are_refused() -> None:
    found = refusal(settings("swiss", 4, rounds=4))
    assert found.reason == "too_many_rounds"
    assert found.params == {"rounds": 4, "need": 5}
    assert str(found).startswith("a swiss of 4 rounds needs at least 5 players")
    settings("swiss", 4, rounds=3).check()  # a round robin of four


def test_the_clock_is_a_preset_and_the_start_is_ahead() -> None:
    chosen = settings("swiss", 8, rounds=3, clock="blitz")
    found = refusal(chosen, clocks=("site", "rapid"))
    assert (found.reason, str(found)) == (
        "tournament_clock",
        "the clock is one of the presets: site, rapid",
    )
    assert refusal(chosen, now=START + timedelta(seconds=1)).reason == "starts_in_past"
    chosen.check(clocks=("site", "blitz"), now=START - timedelta(hours=1))


def test_guests_play_unrated_tournaments_only_when_the_settings_allow() -> None:
    state = replay([decide.create(settings("swiss", 4, rounds=2, rated=False, guests=True))])
    decide.join(state, 1, "guest-1", "guest")
    state = replay([decide.create(settings("swiss", 4, rounds=2, rated=False))])
    with pytest.raises(TournamentRefused) as caught:
        decide.join(state, 1, "guest-1", "guest")
    assert caught.value.reason == "guests_not_allowed"


def test_a_long_nardy_knockout_with_a_longer_final_is_fine() -> None:
    chosen = settings("knockout", 16, game="long-nardy", final_length=9, rated=False)
    chosen.check()
    assert [chosen.length_of(r, 4) for r in (1, 2, 3, 4)] == [3, 3, 3, 9]
