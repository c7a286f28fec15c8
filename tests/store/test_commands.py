"""Every command of matches.services on real PostgreSQL: happy paths, refusals, whole matches.

Dice are chosen by the test (a DiceScript) or seeded (SeededDice), never rolled. After every
test the `contract` fixture replays each stored match cold and compares it with its `Match` row.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games.rules import match as rules
from games.rules.errors import IllegalAction, IllegalPlay, InvalidNotation, RulesError
from games.rules.match import EndedBy, GameResult, Phase
from games.rules.scoring import GameKind
from matches import services
from matches.errors import MatchFull, MatchNotFound, NotAPlayer, NotYourTurn, VersionConflict
from matches.store.models import Match, MatchEvent

from .helpers import (
    SITE_CLOCK,
    DiceScript,
    NewTable,
    Policy,
    PureDriver,
    SeededDice,
    StoreDriver,
    Table,
    check_views_are_cold_replays,
    expected_projection,
    find_seed,
    opening,
    play_random,
    projection,
    pure_match,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("contract")]

# Refused for being out of turn: the rules say so in words; NotYourTurn is the store's own code.
WRONG_TURN = (IllegalAction, NotYourTurn)


def payloads(table: Table, after: int = 0) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type, e.payload) for e in table.events()[after:]]


def counts() -> tuple[int, int]:
    return Match.objects.count(), MatchEvent.objects.count()


# -- creating and joining -------------------------------------------------------------------------


def test_an_online_match_waits_for_an_opponent(new_table: NewTable, ana: Any) -> None:
    table = new_table(join=False, length=5, cube=True)
    assert payloads(table) == [
        (
            "match_created",
            {
                "v": 1,
                "length": 5,
                "cube": True,
                "crawford": True,
                "jacoby": False,
                "backgammon_value": 3,
                "next_game_starter": "opening_roll",
                "mode": "online",
                "clock": None,
                "computer_level": "",
                "game": "tavla",
                "rated": True,
            },
        ),
        (
            "player_joined",
            {"v": 1, "seat": 0, "user_id": ana.pk, "name": "ana", "kind": "registered"},
        ),
    ]
    row = table.row()
    assert (row.status, row.version, row.turn, row.player0, row.player1) == (
        "waiting",
        2,
        None,
        ana,
        None,
    )
    assert row.created_at == table.views[0].created_at
    assert (row.started_at, row.finished_at) == (None, None)
    assert table.view().state.phase == Phase.OPENING  # type: ignore[union-attr]
    assert [e.actor_id for e in table.events()] == [ana.pk, ana.pk]


def test_joining_starts_the_match_with_the_opening_roll(
    new_table: NewTable, ana: Any, bob: Any
) -> None:
    table = new_table(first=1, dice=(6, 2), length=3)
    assert payloads(table, 2) == [
        (
            "player_joined",
            {"v": 1, "seat": 1, "user_id": bob.pk, "name": "bob", "kind": "registered"},
        ),
        ("opening_roll", {"v": 1, "die0": 2, "die1": 6}),
    ]
    joined_at = table.views[-1].last_at
    state = table.state
    assert (state.phase, state.turn, str(state.dice)) == (Phase.PLAY, 1, "62")
    row = table.row()
    assert (row.status, row.turn, row.version, row.player1) == ("active", 1, 4, bob)
    assert row.started_at == joined_at
    assert state.actions_for(1) == ["play", "resign"]
    assert state.actions_for(0) == []


def test_opening_roll_ties_are_rolled_again_each_one_recorded(new_table: NewTable) -> None:
    table = new_table(openings=[(4, 4), (2, 2), (6, 6), (1, 5)])
    assert table.types(3) == ["opening_roll"] * 4
    assert [e.payload["die0"] for e in table.events()[3:]] == [4, 2, 6, 1]
    assert (table.state.turn, str(table.state.dice)) == (1, "51")
    assert table.dice.left == 0


def test_a_hotseat_match_seats_one_user_twice_and_starts_at_once(
    hotseat_table: NewTable, ana: Any
) -> None:
    table = hotseat_table(first=1, dice=(5, 2))
    assert table.types() == ["match_created", "player_joined", "player_joined", "opening_roll"]
    row = table.row()
    assert (row.status, row.mode, row.player0, row.player1, row.turn) == (
        "active",
        "hotseat",
        ana,
        ana,
        1,
    )
    # ana acts for whoever is to act
    table.play(1, "13/8 13/11")
    table.roll(0, (2, 1))
    assert table.play(0, "13/11 6/5").state.turn == 1  # type: ignore[union-attr]


def test_a_computer_match_seats_the_computer_account(ana: Any) -> None:
    view = services.match_create(
        user=ana, mode="computer", computer_level="easy", length=1, dice=DiceScript([(2, 5)])
    )
    row = Match.objects.get(pk=view.match_id)
    assert row.player0 == ana
    assert row.player1.username == "computer-easy"
    assert (row.status, row.computer_level, row.turn) == ("active", "easy", 1)
    assert view.created is not None and view.created.clock is None


def test_only_online_matches_carry_a_clock(ana: Any) -> None:
    clock = {"delay": 12, "reserve": 120, "max_move": 60, "reconnect": 60}
    online = services.match_create(user=ana, clock=clock)
    hotseat = services.match_create(
        user=ana, mode="hotseat", clock=clock, dice=DiceScript([(3, 1)])
    )
    assert Match.objects.get(pk=online.match_id).clock == clock
    assert online.created is not None and online.created.clock == clock
    assert Match.objects.get(pk=hotseat.match_id).clock is None


@pytest.mark.parametrize(
    ("settings", "reason"),
    [
        ({"length": 26}, "1-25 points"),
        ({"length": -1}, "1-25 points"),
        ({"length": 3, "jacoby": True}, "money play only"),
        ({"length": 0, "backgammon_value": 4}, "backgammon counts 3 points"),
        ({"beavers": True}, "beavers"),
        ({"mode": "tournament"}, "unknown mode"),
        ({"seat": 2}, "seat is 0 or 1"),
        ({"next_game_starter": "loser"}, "not a valid Starter"),
    ],
)
def test_create_refuses_bad_settings_and_stores_nothing(
    ana: Any, settings: dict[str, Any], reason: str
) -> None:
    before = counts()
    with pytest.raises((RulesError, ValueError), match=reason):
        services.match_create(user=ana, **settings)
    assert counts() == before


def test_create_on_seat_1(ana: Any, bob: Any) -> None:
    view = services.match_create(user=ana, seat=1)
    assert view.seats[0] is None and view.seats[1] is not None
    dice = DiceScript([(3, 1)])
    view = services.match_join(match_id=view.match_id, user=bob, dice=dice)
    row = Match.objects.get(pk=view.match_id)
    assert (row.player0, row.player1, row.turn) == (bob, ana, 0)


def test_join_refusals(new_table: NewTable, ana: Any, bob: Any, carol: Any) -> None:
    waiting = new_table(join=False)
    with pytest.raises(MatchFull, match="already play"):
        services.match_join(match_id=waiting.match_id, user=ana)
    with pytest.raises(MatchFull, match="seat 0 is taken"):
        services.match_join(match_id=waiting.match_id, user=bob, seat=0)
    with pytest.raises(MatchNotFound):
        services.match_join(match_id=uuid.uuid4(), user=bob)
    assert waiting.row().version == 2
    full = new_table()
    before = counts()
    with pytest.raises(MatchFull, match="two players"):
        services.match_join(match_id=full.match_id, user=carol, dice=DiceScript([(3, 1)]))
    assert counts() == before


def test_a_named_player_without_an_account_can_be_seated(ana: Any) -> None:
    view = services.match_create(user=None, mode="online")
    assert view.seats == (None, None)
    dice = DiceScript([(5, 3)])
    services.match_join(match_id=view.match_id, user=None, seat=1, name="Black")
    view = services.match_join(match_id=view.match_id, user=None, seat=0, name="White", dice=dice)
    assert [s.name for s in view.seats] == ["White", "Black"]  # type: ignore[union-attr]
    assert Match.objects.get(pk=view.match_id).status == "active"


def test_join_honours_expected_version(new_table: NewTable, bob: Any) -> None:
    table = new_table(join=False)
    with pytest.raises(VersionConflict):
        services.match_join(
            match_id=table.match_id, user=bob, expected_version=1, dice=DiceScript([(3, 1)])
        )


# -- rolling ------------------------------------------------------------------------------------


def test_roll(new_table: NewTable) -> None:
    table = new_table(first=0)
    table.play(0, "8/5 6/5")
    view = table.roll(1, (2, 5))
    assert payloads(table)[-1] == ("rolled", {"v": 1, "seat": 1, "dice": [5, 2]})
    assert table.events()[-1].actor_id == table.users[1].pk
    assert view.state is not None
    assert (view.state.phase, view.state.turn, str(view.state.dice)) == (Phase.PLAY, 1, "52")
    assert table.row().turn == 1


def test_roll_refusals_spend_no_dice_and_store_nothing(
    new_table: NewTable, carol: Any, staff: Any
) -> None:
    table = new_table(first=0)
    version = table.row().version
    table.dice.push((6, 6))
    with pytest.raises(IllegalAction, match="you have rolled, play your dice"):
        table.roll(0)  # the opening roll is his roll
    with pytest.raises(IllegalAction):
        table.roll(1)  # (the message is wrong for him: see test_refusals_name_the_real_reason)
    with pytest.raises(NotAPlayer):
        table.call(services.match_roll, None, user=carol)
    with pytest.raises(NotAPlayer):
        table.call(services.match_roll, None, user=staff)
    with pytest.raises(NotAPlayer, match="seat 1"):
        table.call(services.match_roll, None, user=table.users[0], seat=1)
    table.play(0, "8/5 6/5")
    with pytest.raises(WRONG_TURN, match="not your turn"):
        table.roll(0)
    assert table.dice.left == 1
    assert table.row().version == version + 1


def test_commands_on_a_waiting_match_are_refused(new_table: NewTable, ana: Any) -> None:
    table = new_table(join=False, cube=True, length=3)
    for command, kw in [
        (services.match_roll, {}),
        (services.match_play, {"play": "8/5 6/5"}),
        (services.match_double, {}),
        (services.match_resign, {"value": 1}),
    ]:
        with pytest.raises(IllegalAction, match="has not started"):
            table.call(command, 0, **kw)
    with pytest.raises(IllegalAction, match="has not started"):
        table.timeout(1)
    assert table.row().version == 2


def test_commands_on_a_missing_match(ana: Any) -> None:
    with pytest.raises(MatchNotFound):
        services.match_roll(match_id=uuid.uuid4(), user=ana)
    with pytest.raises(MatchNotFound):
        services.match_play(match_id=uuid.uuid4(), user=ana, play="8/5 6/5")


def test_a_malformed_match_id_is_not_found(ana: Any) -> None:
    with pytest.raises(MatchNotFound):
        services.match_roll(match_id="not-a-uuid", user=ana)


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("bob rolls while ana must play", "not your turn"),
        ("ana plays again while bob must roll", "not your turn"),
        ("ana plays while bob must answer her resignation", "accepted or rejected"),
        ("ana plays after the match was aborted", "the match is over"),
    ],
)
def test_refusals_name_the_real_reason(
    new_table: NewTable, staff: Any, case: str, reason: str
) -> None:
    table = new_table(first=0)
    with pytest.raises(IllegalAction, match=reason):
        if case.startswith("bob rolls"):
            table.roll(1, (2, 1))
        elif case.startswith("ana plays again"):
            table.play(0, "8/5 6/5")
            table.play(0, "13/10 13/12")
        elif case.startswith("ana plays while"):
            table.resign(0, 1)
            table.play(0, "8/5 6/5")
        else:
            table.abort(staff)
            table.play(0, "8/5 6/5")


# -- playing ------------------------------------------------------------------------------------


def test_play_in_notation_and_as_steps(new_table: NewTable) -> None:
    table = new_table(first=0)
    view = table.play(0, "8/5 6/5")
    assert payloads(table)[-1] == (
        "moved",
        {"v": 1, "seat": 0, "steps": [[8, 5, 0], [6, 5, 0]], "notation": "8/5 6/5"},
    )
    assert view.state is not None
    assert (view.state.phase, view.state.turn, view.state.dice) == (Phase.ROLL, 1, None)
    assert table.row().turn == 1
    table.roll(1, (2, 1))
    table.play(1, [[13, 11], [6, 5]])
    table.roll(0, (4, 4))
    table.play(0, "24/20*(2) 13/9(2)")
    moved = table.events()[-1]
    assert moved.payload["steps"] == [[24, 20, 1], [24, 20, 0], [13, 9, 0], [13, 9, 0]]
    assert moved.payload["notation"] == "24/20*(2) 13/9(2)"
    assert table.state.board.checkers(20) == 2  # board from player 0's side
    assert table.state.board.bar == (0, 1)


def test_play_refusals_say_why(new_table: NewTable, carol: Any) -> None:
    table = new_table(first=0, dice=(3, 1))
    version = table.row().version
    with pytest.raises(IllegalPlay, match="must play both dice"):
        table.play(0, "8/5")
    with pytest.raises(IllegalPlay, match="from 24 to 18"):
        table.play(0, "24/18 13/10")
    with pytest.raises(InvalidNotation):
        table.play(0, "eight to five")
    with pytest.raises(WRONG_TURN, match="not your turn"):
        table.play(1, "24/21 24/23")
    with pytest.raises(NotAPlayer):
        table.call(services.match_play, None, user=carol, play="8/5 6/5")
    assert table.row().version == version
    table.play(0, "8/5 6/5")
    with pytest.raises(IllegalAction, match="roll the dice first"):
        table.play(1, "24/21 24/23")
    assert table.row().version == version + 1


def test_a_forced_pass_is_recorded_by_the_server_and_the_turn_moves_on(
    new_table: NewTable,
) -> None:
    table = new_table(first=0, dice=(3, 1), length=3, cube=True)
    table.play(0, "8/5 6/5")  # ana makes her 5 point: 5 and 6 closed
    table.turn(1, (2, 1), "13/11 6/5")  # bob leaves a blot on ana's 20 point
    table.turn(0, (4, 4), "24/20*(2) 13/9(2)")  # and ana hits it
    version = table.row().version
    view = table.roll(1, (6, 5))  # bob cannot enter on 6 or 5
    new = table.events()[version:]
    assert [(e.type, e.payload) for e in new] == [
        ("rolled", {"v": 1, "seat": 1, "dice": [6, 5]}),
        ("passed", {"v": 1, "seat": 1}),
    ]
    assert new[0].at == new[1].at  # one command, one transaction
    assert view.state is not None
    assert (view.state.phase, view.state.turn, view.state.dice) == (Phase.ROLL, 0, None)
    assert view.moves == 4
    row = table.row()
    assert (row.turn, row.version) == (0, version + 2)
    # and play goes on: ana may even double now
    table.double(0)
    assert table.row().turn == 1


# -- the cube -----------------------------------------------------------------------------------


def test_double_take_and_redouble(new_table: NewTable) -> None:
    table = new_table(first=0, length=0, cube=True)
    table.play(0, "8/5 6/5")
    view = table.double(1)
    assert payloads(table)[-1] == ("cube_offered", {"v": 1, "seat": 1})
    assert view.state is not None and view.state.phase == Phase.DOUBLED
    assert table.row().turn == 0  # the taker must answer
    assert view.state.actions_for(0) == ["take", "drop"]
    table.take(0)
    state = table.state
    assert payloads(table)[-1] == ("cube_taken", {"v": 1, "seat": 0})
    assert (state.cube, state.cube_owner, state.phase, state.turn) == (2, 0, Phase.ROLL, 1)
    assert table.row().turn == 1
    with pytest.raises(IllegalAction, match="only the player who owns the cube"):
        table.double(1)
    table.roll(1, (2, 1))
    table.any_play(1)
    table.double(0)
    table.take(1)
    assert (table.state.cube, table.state.cube_owner) == (4, 1)


def test_the_cube_stops_at_64(new_table: NewTable) -> None:
    table = new_table(first=0, length=0, cube=True)
    table.play(0, "8/5 6/5")
    doubler = 1
    for cube in (2, 4, 8, 16, 32, 64):
        table.double(doubler)
        table.take(1 - doubler)
        assert table.state.cube == cube
        table.roll(doubler, (2, 1))
        table.any_play(doubler)
        doubler = 1 - doubler
    assert table.state.cube_owner == doubler
    with pytest.raises(IllegalAction, match="maximum of 64"):
        table.double(doubler)


def test_drop_ends_the_game_at_the_cube_before_the_offer(new_table: NewTable) -> None:
    table = new_table(first=0, length=5, cube=True)
    table.play(0, "8/5 6/5")
    table.double(1)
    table.take(0)
    table.roll(1, (2, 1))
    table.any_play(1)
    table.double(0)
    table.dice.push(opening(1, 6, 4))  # the next game's opening roll
    view = table.drop(1)
    state = view.state
    assert state is not None
    assert payloads(table)[-2:] == [
        ("cube_dropped", {"v": 1, "seat": 1}),
        ("opening_roll", {"v": 1, "die0": 4, "die1": 6}),
    ]
    assert state.games == (GameResult(1, 0, 2, GameKind.SINGLE, 2, EndedBy.DROP),)
    assert (state.score, state.game_number, state.cube, state.cube_owner) == ((2, 0), 2, 1, None)
    assert (state.phase, state.turn) == (Phase.PLAY, 1)
    row = table.row()
    assert (row.score0, row.score1, row.status, row.turn) == (2, 0, "active", 1)


def test_cube_refusals(new_table: NewTable) -> None:
    no_cube = new_table(first=0, length=3)
    no_cube.play(0, "8/5 6/5")
    with pytest.raises(IllegalAction, match="without the doubling cube"):
        no_cube.double(1)

    table = new_table(first=0, length=3, cube=True)
    with pytest.raises(IllegalAction, match="only before you roll"):
        table.double(0)  # the opening roll is his roll
    with pytest.raises(IllegalAction, match="nothing to take"):
        table.take(1)
    with pytest.raises(IllegalAction, match="nothing to drop"):
        table.drop(1)
    table.play(0, "8/5 6/5")
    with pytest.raises(IllegalAction, match="only on your own turn"):
        table.double(0)
    table.double(1)
    with pytest.raises(IllegalAction, match="only your opponent can take"):
        table.take(1)
    with pytest.raises(IllegalAction, match="only your opponent can drop"):
        table.drop(1)
    with pytest.raises(IllegalAction, match="must be taken or dropped"):
        table.roll(1, (2, 1))
    with pytest.raises(IllegalAction):
        table.double(0)
    assert table.types()[-1] == "cube_offered"


# -- resignations -------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "kind"), [(1, "SINGLE"), (2, "GAMMON"), (3, "BACKGAMMON")])
def test_resign_values_times_the_cube(new_table: NewTable, value: int, kind: str) -> None:
    table = new_table(first=0, length=7, cube=True)
    table.play(0, "8/5 6/5")
    table.double(1)
    table.take(0)
    table.roll(1, (2, 1))
    table.any_play(1)
    view = table.resign(0, value)
    assert payloads(table)[-1] == ("resign_offered", {"v": 1, "seat": 0, "value": value})
    assert view.state is not None and view.state.phase == Phase.RESIGNING
    assert table.row().turn == 1
    table.dice.push((3, 1))
    view = table.accept(1)
    assert payloads(table)[-2] == ("resign_accepted", {"v": 1, "seat": 1})
    state = view.state
    assert state is not None
    assert state.games == (GameResult(1, 1, 2 * value, GameKind[kind], 2, EndedBy.RESIGN),)
    assert state.score == (0, 2 * value)
    row = table.row()
    assert (row.score0, row.score1, row.status) == (0, 2 * value, "active")


def test_rejecting_a_resignation_resumes_play_where_it_was(new_table: NewTable) -> None:
    table = new_table(first=0, length=3)
    table.resign(0, 2)  # after rolling: resumes in PLAY with the same dice
    view = table.reject(1)
    assert payloads(table)[-1] == ("resign_rejected", {"v": 1, "seat": 1})
    state = view.state
    assert state is not None
    assert (state.phase, state.turn, str(state.dice)) == (Phase.PLAY, 0, "31")
    table.play(0, "8/5 6/5")
    table.resign(1, 1)  # before rolling: resumes in ROLL
    table.reject(0)
    assert (table.state.phase, table.state.turn) == (Phase.ROLL, 1)
    assert table.row().turn == 1
    table.roll(1, (2, 1))


def test_resign_refusals(new_table: NewTable) -> None:
    table = new_table(first=0, length=3)
    with pytest.raises(IllegalAction, match="only on your own turn"):
        table.resign(1, 1)
    with pytest.raises(IllegalAction, match=r"single \(1\), gammon \(2\) or backgammon \(3\)"):
        table.resign(0, 4)
    with pytest.raises(IllegalAction, match="nothing to accept"):
        table.accept(1)
    with pytest.raises(IllegalAction, match="nothing to reject"):
        table.reject(1)
    table.resign(0, 1)
    with pytest.raises(IllegalAction, match="only your opponent can accept"):
        table.accept(0)
    with pytest.raises(IllegalAction):
        table.play(0, "8/5 6/5")
    with pytest.raises(IllegalAction, match="only on your own turn"):
        table.resign(1, 1)
    assert table.types()[-1] == "resign_offered"


# -- the clock, forfeits and aborts -------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "ended_by", "event"),
    [
        ("timeout", "timeout", ("timed_out", {"v": 1, "seat": 1})),
        ("forfeit", "forfeit", ("forfeited", {"v": 1, "seat": 1, "reason": "forfeit"})),
    ],
)
def test_timeout_and_forfeit_lose_the_match(
    new_table: NewTable, command: str, ended_by: str, event: tuple[str, dict[str, Any]]
) -> None:
    table = new_table(first=0, length=5, cube=True, clock=SITE_CLOCK)
    table.end_game_by_resign(0, 1, next_opening=opening(1))  # 0-1
    view = getattr(table, command)(1)  # bob's time runs out / bob left
    assert payloads(table)[-1] == event
    assert table.events()[-1].actor_id is None
    state = view.state
    assert state is not None
    assert state.games[-1] == GameResult(2, 0, 5, GameKind.SINGLE, 1, EndedBy(ended_by))
    assert (state.score, state.winner, state.is_over) == ((5, 1), 0, True)
    row = table.row()
    assert (row.status, row.winner, row.ended_by, row.turn) == ("finished", 0, ended_by, None)
    assert (row.score0, row.score1) == (5, 1)
    assert row.finished_at == table.events()[-1].at
    with pytest.raises(IllegalAction, match="the match is over"):
        table.roll(0, (3, 1))
    with pytest.raises(IllegalAction, match="the match is over"):
        getattr(table, command)(0)


def test_the_timeout_command_acts_only_when_time_has_run_out(new_table: NewTable) -> None:
    untimed = new_table(first=0, length=3)
    with pytest.raises(IllegalAction, match="not out of time"):
        untimed.timeout(0, wait=3600)  # no clock: nobody runs out of time
    timed = new_table(first=0, length=3, clock=SITE_CLOCK)
    with pytest.raises(IllegalAction, match="not out of time"):
        timed.timeout(0, wait=11)  # within the free delay
    with pytest.raises(IllegalAction, match="not out of time"):
        timed.timeout(1, wait=60)  # bob is not the one to move
    assert timed.types()[-1] == "opening_roll"
    timed.timeout(0, wait=0)  # 71 s after ana's move began
    assert (timed.row().winner, timed.row().ended_by) == (1, "timeout")


def test_timeout_in_money_play_costs_the_cube(new_table: NewTable) -> None:
    table = new_table(first=0, length=0, cube=True, clock=SITE_CLOCK)
    table.play(0, "8/5 6/5")
    table.double(1)
    table.take(0)
    view = table.timeout(1)
    assert view.state is not None and view.state.score == (2, 0)
    assert (table.row().status, table.row().winner) == ("finished", 0)


def test_a_player_may_not_abort_an_online_match_once_the_opening_roll_is_out(
    new_table: NewTable, ana: Any, staff: Any
) -> None:
    table = new_table(first=1)  # the opening roll is out; nobody moved
    with pytest.raises(IllegalAction, match="only before the opening roll"):  # fair dice
        table.abort(ana)
    view = table.abort(staff, reason="changed my mind")
    assert payloads(table)[-1] == ("aborted", {"v": 1, "reason": "changed my mind"})
    assert table.events()[-1].actor_id == staff.pk
    assert view.state is not None and view.state.ended_by == EndedBy.ABORT
    row = table.row()
    assert (row.status, row.winner, row.ended_by, row.turn) == ("aborted", None, "abort", None)
    assert row.finished_at == table.events()[-1].at
    with pytest.raises(IllegalAction, match="the match is over"):
        table.roll(1, (3, 1))


def test_after_the_first_move_only_staff_or_the_system_may_abort(
    new_table: NewTable, ana: Any, bob: Any, carol: Any, staff: Any
) -> None:
    table = new_table(first=0)
    table.play(0, "8/5 6/5")
    for player in (ana, bob):
        with pytest.raises(IllegalAction, match="only before the first move"):
            table.abort(player)
    with pytest.raises(NotAPlayer):
        table.abort(carol)
    assert table.types()[-1] == "moved"
    table.abort(staff, reason="cheating")
    assert table.events()[-1].actor_id == staff.pk
    assert table.row().status == "aborted"

    other = new_table(first=0)
    other.play(0, "8/5 6/5")
    other.abort(None, reason="server maintenance")
    assert (other.row().status, other.events()[-1].actor_id) == ("aborted", None)


def test_a_match_nobody_joined_may_be_aborted_by_its_creator_or_staff(
    new_table: NewTable, bob: Any, carol: Any, staff: Any
) -> None:
    table = new_table(join=False)
    with pytest.raises(NotAPlayer):
        table.abort(carol)
    table.abort(table.users[0], reason="nobody came")
    row = table.row()
    assert (row.status, row.ended_by, row.winner, row.version) == ("aborted", "abort", None, 3)
    assert row.started_at is None and row.finished_at == table.events()[-1].at
    with pytest.raises(MatchFull):
        services.match_join(match_id=table.match_id, user=bob, dice=DiceScript([(3, 1)]))
    assert table.row().version == 3

    other = new_table(join=False)
    other.abort(staff)
    assert other.row().status == "aborted"


@pytest.mark.parametrize("how", ["aborted", "timed_out"])
def test_a_match_that_is_over_cannot_be_aborted(
    new_table: NewTable, ana: Any, staff: Any, how: str
) -> None:
    table = new_table(first=0, clock=SITE_CLOCK)
    if how == "aborted":
        table.abort(staff)
    else:
        table.timeout(0)
    version = table.row().version
    for user in (ana, staff):
        with pytest.raises(IllegalAction, match="the match is over"):
            table.abort(user)
    assert table.row().version == version


# -- optimistic concurrency (one writer; many writers are in test_concurrency.py) ---------------


def test_expected_version(new_table: NewTable) -> None:
    table = new_table(first=0)
    version = table.row().version
    with pytest.raises(VersionConflict) as caught:
        table.play(0, "8/5 6/5", expected_version=version - 1)
    assert (caught.value.current_version, caught.value.expected) == (version, version - 1)
    assert caught.value.code == "version_conflict"
    assert f"version {version}, not {version - 1}" in str(caught.value)
    table.play(0, "8/5 6/5", expected_version=version)
    with pytest.raises(VersionConflict):
        table.roll(1, (2, 1), expected_version=version)
    assert table.dice.left == 1  # refused before any dice were spent
    table.roll(1, expected_version=version + 1)
    assert table.row().version == version + 2


# -- whole matches --------------------------------------------------------------------------------


def test_a_3_point_match_with_the_cube_crawford_and_post_crawford(new_table: NewTable) -> None:
    table = new_table(first=0, dice=(3, 1), length=3, cube=True)
    started_at = table.row().started_at
    assert started_at == table.events()[-1].at

    # game 1: doubled, taken, then bob resigns a single at cube 2: 2-0, ana is at N-1
    table.play(0, "8/5 6/5")
    table.turn(1, (2, 1), "13/11 6/5")
    table.double(0)
    table.take(1)
    table.turn(0, (6, 5), "24/13")
    state = table.end_game_by_resign(1, 1, next_opening=opening(1, 4, 2)).state
    assert state is not None
    assert (state.score, state.game_number, state.crawford_game) == ((2, 0), 2, True)
    assert state.games[-1] == GameResult(1, 0, 2, GameKind.SINGLE, 2, EndedBy.RESIGN)

    # game 2, the Crawford game: no cube
    table.play(1, "8/4 6/4")
    assert not table.state.may_double(0)
    assert table.state.actions_for(0) == ["roll", "resign"]
    with pytest.raises(IllegalAction, match="no doubling in the Crawford game"):
        table.double(0)
    state = table.end_game_by_resign(0, 1, next_opening=opening(0, 5, 2)).state
    assert state is not None
    assert (state.score, state.crawford_game, state.crawford_done, state.post_crawford) == (
        (2, 1),
        False,
        True,
        True,
    )

    # game 3, post-Crawford: the trailer doubles at once, ana drops: 2-2
    table.play(0, "13/8 13/11")
    assert table.state.actions_for(1) == ["roll", "double", "resign"]
    table.double(1)
    table.dice.push(opening(1, 6, 1))
    state = table.drop(0).state
    assert state is not None
    assert (state.score, state.crawford_game, state.cube) == ((2, 2), False, 1)

    # game 4: doubled and taken; bob resigns: ana wins 4-2
    table.play(1, "13/7 8/7")
    table.double(0)
    table.take(1)
    table.roll(0, (2, 1))
    table.any_play(0)
    view = table.end_game_by_resign(1, 1)
    state = view.state
    assert state is not None
    assert state.games == (
        GameResult(1, 0, 2, GameKind.SINGLE, 2, EndedBy.RESIGN),
        GameResult(2, 1, 1, GameKind.SINGLE, 1, EndedBy.RESIGN),
        GameResult(3, 1, 1, GameKind.SINGLE, 1, EndedBy.DROP),
        GameResult(4, 0, 2, GameKind.SINGLE, 2, EndedBy.RESIGN),
    )
    assert (state.score, state.winner, state.ended_by, state.phase) == (
        (4, 2),
        0,
        EndedBy.RESIGN,
        Phase.OVER,
    )
    row = table.row()
    assert (row.status, row.score0, row.score1, row.winner, row.ended_by, row.turn) == (
        "finished",
        4,
        2,
        0,
        "resign",
        None,
    )
    assert (row.started_at, row.finished_at) == (started_at, table.events()[-1].at)
    assert row.version == len(table.events())
    assert table.dice.left == 0
    assert table.types().count("opening_roll") == 4
    check_views_are_cold_replays(table)


def test_no_second_crawford_game(new_table: NewTable) -> None:
    table = new_table(first=0, length=5, cube=True)
    table.end_game_by_resign(0, 3, next_opening=opening(0))  # 0-3
    assert not table.state.crawford_game
    table.end_game_by_resign(0, 1, next_opening=opening(1))  # 0-4: the Crawford game next
    assert table.state.crawford_game
    table.end_game_by_resign(1, 3, next_opening=opening(1))  # 3-4, post-Crawford
    assert table.state.post_crawford
    table.end_game_by_resign(1, 1, next_opening=opening(1))  # 4-4: no second Crawford game
    state = table.state
    assert (state.score, state.crawford_game, state.post_crawford) == ((4, 4), False, True)
    table.play(1, "8/5 6/5")
    table.double(0)
    view = table.drop(1)
    assert view.state is not None
    assert (view.state.score, view.state.winner) == ((5, 4), 0)
    assert [g.winner for g in view.state.games] == [1, 1, 0, 0, 0]
    row = table.row()
    assert (row.status, row.winner, row.ended_by) == ("finished", 0, "drop")


def test_the_winner_starts_the_next_game_when_so_set(new_table: NewTable) -> None:
    table = new_table(first=0, length=3, next_game_starter="winner")
    version = table.row().version
    view = table.end_game_by_resign(0, 1)  # bob wins: he rolls first, no opening roll
    assert table.types(version) == ["resign_offered", "resign_accepted"]
    assert view.state is not None
    assert (view.state.phase, view.state.turn, view.state.game_number) == (Phase.ROLL, 1, 2)
    assert table.row().turn == 1
    table.roll(1, (6, 5))
    table.play(1, "24/13")
    assert table.state.turn == 0


# -- gammons and backgammons by bearing off: seeded random play, judged independently -----------


def judged_kind(state: rules.MatchState) -> GameKind:
    """The kind of the last game, judged from the final board (still on the table when a
    1-point match ends), without the rules' scoring."""
    winner = state.games[-1].winner
    view = state.position_for(winner)  # the winner's side: his home is points 1-6
    loser_off = 15 - view.bar[1] + sum(n for n in view.board if n < 0)
    assert view.off[0] == 15
    if loser_off:
        return GameKind.SINGLE
    if view.bar[1] or any(n < 0 for n in view.board[:6]):
        return GameKind.BACKGAMMON
    return GameKind.GAMMON


def play_seed_through_the_store(
    new_table: NewTable,
    settings: rules.MatchSettings,
    seed: int,
    policy: dict[str, float] | None = None,
    **kw: Any,
) -> Table:
    table = new_table(
        source=SeededDice(seed),
        length=settings.length,
        cube=settings.cube,
        jacoby=settings.jacoby,
        backgammon_value=settings.backgammon_value,
    )
    play_random(StoreDriver(table), Policy(seed, **(policy or {})), **kw)
    return table


# Long random games: committed transactions, so the view cache works as in production (inside
# one test transaction every command would replay the stream from the start).
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("kind", "backgammon_value", "points"),
    [
        (GameKind.SINGLE, 3, 1),
        (GameKind.GAMMON, 3, 2),
        (GameKind.BACKGAMMON, 3, 3),
        (GameKind.BACKGAMMON, 2, 2),
    ],
)
def test_bearing_off_wins_single_gammon_or_backgammon(
    new_table: NewTable, kind: GameKind, backgammon_value: int, points: int
) -> None:
    settings = rules.MatchSettings(length=1, backgammon_value=backgammon_value)
    seed = find_seed(settings, lambda d: d.state.games[-1].kind == kind)
    pure = pure_match(settings, seed)
    table = play_seed_through_the_store(new_table, settings, seed)
    state = table.state
    assert state == pure.state
    assert judged_kind(state) == kind
    assert state.games == (GameResult(1, state.winner, points, kind, 1, EndedBy.BEAROFF),)  # type: ignore[arg-type]
    assert state.score[state.winner] == points  # type: ignore[index]
    row = table.row()
    assert (row.status, row.ended_by, row.winner) == ("finished", "bearoff", state.winner)
    assert (row.score0 + row.score1, row.finished_at) == (points, table.events()[-1].at)
    assert table.types()[-1] == "moved"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("jacoby", "policy", "wanted", "points"),
    [
        # the cube never turned: a gammon counts 1 under Jacoby, 2 without it
        (True, {}, lambda g: g.kind == GameKind.GAMMON, lambda g: 1),
        (False, {}, lambda g: g.kind == GameKind.GAMMON, lambda g: 2),
        (True, {}, lambda g: g.kind == GameKind.BACKGAMMON, lambda g: 1),
        # turned: gammons count again, times the cube
        (
            True,
            {"double": 0.3, "take": 1.0},
            lambda g: g.kind == GameKind.GAMMON and g.cube > 1 and g.ended_by == EndedBy.BEAROFF,
            lambda g: 2 * g.cube,
        ),
    ],
)
def test_money_play_with_jacoby_by_bearing_off(
    new_table: NewTable, jacoby: bool, policy: dict[str, float], wanted: Any, points: Any
) -> None:
    settings = rules.MatchSettings(length=0, cube=True, jacoby=jacoby)
    seed = find_seed(settings, lambda d: wanted(d.state.games[0]), policy=policy, games=1)
    table = play_seed_through_the_store(new_table, settings, seed, policy, games=1)
    state = table.state
    game = state.games[0]
    assert wanted(game)
    assert game.points == points(game)
    assert state.score[game.winner] == points(game)
    # money play goes on: the next game has started, nobody has won the match
    assert (state.is_over, state.game_number, state.phase) == (False, 2, Phase.PLAY)
    row = table.row()
    assert (row.status, row.winner, row.ended_by) == ("active", None, "")
    assert (row.score0, row.score1) == state.score


def test_money_play_with_jacoby_resignations(new_table: NewTable) -> None:
    table = new_table(first=0, length=0, cube=True, jacoby=True)
    table.end_game_by_resign(0, 2, next_opening=opening(1))  # gammon, cube centred: 1
    assert table.state.games[-1].points == 1
    table.play(1, "8/5 6/5")
    table.double(0)
    table.take(1)
    table.roll(0, (2, 1))
    table.any_play(0)
    table.end_game_by_resign(1, 2, next_opening=opening(0))  # gammon at cube 2: 4
    table.end_game_by_resign(0, 3, next_opening=opening(0))  # backgammon, centred: 1
    state = table.state
    assert [(g.winner, g.points, g.kind) for g in state.games] == [
        (1, 1, GameKind.GAMMON),
        (0, 4, GameKind.GAMMON),
        (1, 1, GameKind.BACKGAMMON),
    ]
    assert (state.score, state.game_number, state.is_over) == ((4, 2), 4, False)
    row = table.row()
    assert (row.status, row.score0, row.score1, row.winner) == ("active", 4, 2, None)

    plain = new_table(first=0, length=0, cube=True)
    plain.end_game_by_resign(0, 3, next_opening=opening(0))
    assert plain.state.score == (0, 3)


# -- random whole matches: the store and the rules alone agree ------------------------------------


@pytest.mark.django_db(transaction=True)  # committed: the view cache fills as in production
@pytest.mark.parametrize(
    ("length", "cube", "seed"),
    [(3, True, 11), (5, True, 12), (0, True, 13)],
)
def test_a_random_match_through_the_store_equals_the_rules_alone(
    new_table: NewTable, length: int, cube: bool, seed: int
) -> None:
    settings = rules.MatchSettings(length=length, cube=cube)
    policy = {"double": 0.2, "take": 0.6, "resign": 0.01, "accept": 0.7}
    games = 3 if length == 0 else None
    pure = PureDriver(settings, SeededDice(seed))
    play_random(pure, Policy(seed, **policy), games=games)
    table = play_seed_through_the_store(new_table, settings, seed, policy, games=games)
    assert table.state == pure.state
    assert table.types().count("passed") == pure.passes
    assert table.row().version == len(table.events())
    assert projection(table.row()) == expected_projection(table.view())
    check_views_are_cold_replays(table)
    if length:
        assert max(table.state.score) >= length
        assert table.row().status == "finished"


# -- dice sources ---------------------------------------------------------------------------------


def test_dice_sources() -> None:
    from matches.store.dice import SECRET_DICE, ScriptedDice

    rolls = [SECRET_DICE.roll() for _ in range(200)]
    assert {d.high for d in rolls} <= set(range(1, 7)) and len({str(d) for d in rolls}) > 10
    assert all(1 <= die <= 6 for _ in range(50) for die in SECRET_DICE.opening())
    script = ScriptedDice([(3, 1), (6, 6)])
    assert (script.opening(), str(script.roll()), script.left) == ((3, 1), "66", 0)
    with pytest.raises(LookupError, match="ran out"):
        script.roll()
