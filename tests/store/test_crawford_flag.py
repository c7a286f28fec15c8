"""The Crawford flag at the end of a match whose last game was the Crawford game (issue 26).

The state said `crawford_game: true` there while its gnubg Match ID had the Crawford bit 0.
gnubg's own Match ID has it 0 (tests/rules/test_gnubg_match_state.py, against the real
gnubg: once a game is over the flag is already the next game's, and no game follows a won
match), so the state's JSON, the admin's review (its board picture and its text) and the Match
ID all take it from one place, `MatchState.crawford_flag`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

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
from matches.review.frames import picture, position_facts
from matches.review.views import replay_match
from matches.selectors.state import match_state

from .helpers import NewTable, opening


def _in_game(crawford_game: bool) -> MatchState:
    """A 3-point match at 2-1, player 1 on roll, in the Crawford game or after it."""
    new = MatchState.new(MatchSettings(length=3, cube=True))
    return replace(
        new,
        score=(2, 1),
        phase=Phase.ROLL,
        turn=1,
        crawford_game=crawford_game,
        crawford_done=not crawford_game,
    )


@pytest.mark.parametrize("crawford_game", [True, False])
def test_the_flag_is_the_games_while_it_is_played(crawford_game: bool) -> None:
    playing = _in_game(crawford_game)
    assert playing.crawford_flag is crawford_game
    assert match_id_decode(playing.gnubg_ids()[1]).crawford is crawford_game


@pytest.mark.parametrize("crawford_game", [True, False])
def test_after_the_match_the_state_and_the_match_id_agree(crawford_game: bool) -> None:
    over = apply(apply(_in_game(crawford_game), Resign(1, 1)), AcceptResign(0))
    assert over.is_over and over.score == (3, 1)
    assert over.crawford_game is crawford_game  # the last game's own record
    assert over.crawford_flag is False  # gnubg's: no next game
    assert match_id_decode(over.gnubg_ids()[1]).crawford is over.crawford_flag


@pytest.mark.django_db
@pytest.mark.usefixtures("contract")
def test_a_match_won_in_the_crawford_game_reads_the_same_everywhere(
    new_table: NewTable, ana: Any
) -> None:
    """The state's JSON, the Match ID and the admin's review (its text and its picture) of a
    stored match that ended in the Crawford game."""
    table = new_table(first=0, length=3, cube=True)
    table.end_game_by_resign(0, 2, next_opening=opening(0))  # 0-2: the Crawford game next
    assert table.state.crawford_game
    table.end_game_by_resign(0, 1)  # 0-3: bob wins the match in the Crawford game
    over = table.state
    assert over.is_over and over.crawford_game and not over.crawford_flag
    assert match_id_decode(over.gnubg_ids()[1]).crawford is False

    state = match_state(table.row(), table.view(), ana)
    assert state.crawford.crawford_game is False

    replay = replay_match(table.row())
    offered, accepted = replay.frames[-2:]
    during = position_facts(offered, replay.names)  # bob's resignation offered: still playing
    assert during.game == "tavla, game 2 (Crawford game)"
    assert during.cube == "none in the Crawford game"
    assert picture(offered, replay.names).crawford is True
    end = position_facts(accepted, replay.names)
    assert end.game == "tavla, game 2: over"
    assert end.cube == "1, centred"
    assert match_id_decode(end.match_id).crawford is False
    assert picture(accepted, replay.names).crawford is False
