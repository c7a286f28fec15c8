"""Single elimination: the seeding, the byes, the next rounds and the final's length."""

from __future__ import annotations

from matches.tournaments import decide, knockout
from matches.tournaments.state import Board, Status

from .helpers import Run, byes_of, higher_seed, pairs_of, settings


def test_the_standard_seed_order_keeps_the_top_seeds_apart_until_the_end() -> None:
    assert knockout.seed_order(2) == [1, 2]
    assert knockout.seed_order(4) == [1, 4, 2, 3]
    assert knockout.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = knockout.seed_order(16)
    assert order == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    # seeds 1 and 2 in different halves, 1-4 in different quarters, 1-8 in different eighths
    for groups in (2, 4, 8):
        part = len(order) // groups
        tops = [min(order[i : i + part]) for i in range(0, len(order), part)]
        assert sorted(tops) == list(range(1, groups + 1))


def test_eleven_players_give_the_five_top_seeds_a_bye() -> None:
    run = Run(settings("knockout", 11))
    run.join(11)
    run.start()
    assert sorted(byes_of(run.state, 1)) == [1, 2, 3, 4, 5]
    assert sorted(pairs_of(run.state, 1)) == [(6, 11), (7, 10), (8, 9)]
    assert run.state.total_rounds == 4
    boards = [b.players for b in run.state.rounds[0].boards]
    assert boards == [
        (1, None),
        (8, 9),
        (4, None),
        (5, None),
        (2, None),
        (7, 10),
        (3, None),
        (6, 11),
    ]


def test_the_winners_of_neighbouring_boards_meet_and_the_final_is_longer() -> None:
    run = Run(settings("knockout", 11, final_length=7))
    run.join(11)
    run.start()
    assert run.state.rounds[0].length == 3
    run.play_round(higher_seed)
    assert [b.players for b in run.state.rounds[1].boards] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    run.play_round(higher_seed)
    assert [b.players for b in run.state.rounds[2].boards] == [(1, 4), (2, 3)]
    run.play_round(higher_seed)
    assert [b.players for b in run.state.rounds[3].boards] == [(1, 2)]
    assert run.state.rounds[3].length == 7
    run.play_round(lambda board: 2)
    assert run.state.status == Status.FINISHED
    assert run.state.finished is not None
    assert run.state.finished.winner == 2
    assert run.state.finished.standings[:4] == (2, 1, 3, 4)
    assert len(run.state.finished.standings) == 11


def test_two_players_play_only_a_final() -> None:
    run = Run(settings("knockout", 2, final_length=5))
    run.join(2)
    run.start()
    assert [b.players for b in run.state.rounds[0].boards] == [(1, 2)]
    assert run.state.rounds[0].length == 5


def test_a_player_who_withdraws_forfeits_and_his_next_opponent_gets_a_bye() -> None:
    run = Run(settings("knockout", 8))
    run.join(8)
    run.start()
    # 8 leaves during his first match against 1: 1 wins it by forfeit
    run.add(*decide.leave(run.state, 8))
    first = run.state.rounds[0].boards[0]
    assert first.result is not None and first.result.winner == 1
    assert first.result.ended_by == "withdrawn"
    # 5 beats 4, then leaves before he plays 1 in the second round: 1 goes on by forfeit
    run.play_round(lambda board: 5 if 5 in board.players else higher_seed(board))
    assert run.state.rounds[1].boards[0].players == (1, 5)
    run.add(*decide.leave(run.state, 5))
    assert run.state.rounds[1].boards[0].winner == 1
    run.play_out(higher_seed)
    assert run.state.finished is not None and run.state.finished.winner == 1


def test_an_empty_board_sends_nobody_on() -> None:
    boards = [
        Board(1, 0, (1, None)),
        Board(1, 1, (None, None)),
        Board(1, 2, (3, None)),
        Board(1, 3, (4, None)),
    ]
    assert knockout.next_round(boards) == ((1, None), (3, 4))
    assert knockout.next_round(boards, gone=frozenset({3})) == ((1, None), (4, None))
