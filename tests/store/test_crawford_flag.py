"""The Crawford flag at the end of a match whose last game was the Crawford game (issue 26).

The state said `crawford_game: true` there while its gnubg Match ID had the Crawford bit 0.
gnubg's own Match ID has it 0 (tests/rules/test_gnubg_match_state.py, against the real
gnubg: once a game is over the flag is already the next game's, and no game follows a won
match), so the state's JSON, the admin's board picture and the Match ID all take it from one
place, `MatchState.crawford_flag`."""

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


def test_the_states_json_and_the_admins_picture_take_the_same_flag() -> None:
    """The two readers name `crawford_flag`, not `crawford_game` (read from their source, as
    building a whole stored match for them would test the rest of the stack instead)."""
    import inspect

    from matches.review import frames
    from matches.selectors import state

    # the state is built by `state_of` (`match_state` gathers its inputs and calls it)
    assert "state_of(" in inspect.getsource(state.match_state)
    assert "crawford_game=state.crawford_flag" in inspect.getsource(state.state_of)
    assert "crawford=state.crawford_flag" in inspect.getsource(frames.picture)
