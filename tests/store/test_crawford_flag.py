"""The Crawford flag at the end of a match whose last game was the Crawford game (issue 26):
the state's `crawford_game` (which the state's JSON and the admin's picture show) and the gnubg
Match ID say the same (gnubg keeps the flag of the last game; the Match ID had it 0 while the
state said the game was the Crawford game)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.rules import (
    AcceptResign,
    MatchSettings,
    MatchState,
    Phase,
    Resign,
    apply,
    match_id_decode,
)


def _over_after(crawford_game: bool) -> MatchState:
    """A 3-point match at 2-1 ended by a resignation accepted in the game after it."""
    new = MatchState.new(MatchSettings(length=3, cube=True))
    playing = replace(
        new,
        score=(2, 1),
        phase=Phase.ROLL,
        turn=1,
        crawford_game=crawford_game,
        crawford_done=not crawford_game,
    )
    return apply(apply(playing, Resign(1, 1)), AcceptResign(0))


@pytest.mark.parametrize("crawford_game", [True, False])
def test_the_match_id_keeps_the_last_games_crawford_flag(crawford_game: bool) -> None:
    over = _over_after(crawford_game)
    assert over.is_over and over.score == (3, 1)
    assert over.crawford_game is crawford_game  # what the state's `crawford` says
    assert match_id_decode(over.gnubg_ids()[1]).crawford is crawford_game
