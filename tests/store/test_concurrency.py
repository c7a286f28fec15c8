"""Many writers on one match at once: exactly one wins, the others fail cleanly.

Each test starts 50 threads, each with its own PostgreSQL connection (opened before a barrier,
so the race is on the command, not on connecting, and closed at the end of the thread), and
releases them together. The stream must have no gaps and no duplicate seqs, and the projected
row, the cold replay and the cached view must agree afterwards (the `contract` fixture).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from games.rules.errors import IllegalAction
from matches import services, store
from matches.errors import VersionConflict
from matches.store.events import Rolled
from matches.store.models import Match

from .helpers import NewTable, Table, check_stream, steps_of

THREADS = 50

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("contract")]


def at_once(work: Callable[[int, threading.Barrier], Any], n: int = THREADS) -> list[Any]:
    """Run work(i, barrier) in n threads; each returns its result or the exception it raised.
    `work` must wait on the barrier right before the racing write."""
    barrier = threading.Barrier(n, timeout=60)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            connection.ensure_connection()
            results[i] = work(i, barrier)
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a writer hung"
    return results


def outcome(results: list[Any]) -> Counter[str]:
    return Counter(type(r).__name__ for r in results)


def racing(table: Table, command: Callable[..., Any], seat: int, **kw: Any) -> Callable[..., Any]:
    """A thread's work: wait for the others, then run the command as `seat`'s user."""

    def work(i: int, barrier: threading.Barrier) -> Any:
        args = {k: (v(i) if callable(v) else v) for k, v in kw.items()}
        barrier.wait()
        return command(match_id=table.match_id, user=table.users[seat], dice=table.dice, **args)

    return work


def test_the_same_move_50_times_with_expected_version(new_table: NewTable) -> None:
    table = new_table(first=0, dice=(3, 1), length=3)
    head = table.row().version
    results = at_once(racing(table, services.match_play, 0, play="8/5 6/5", expected_version=head))
    assert outcome(results) == {"MatchView": 1, "VersionConflict": THREADS - 1}
    for conflict in results:
        if isinstance(conflict, VersionConflict):
            assert (conflict.current_version, conflict.expected) == (head + 1, head)
    events = check_stream(table.match_id)
    assert len(events) == head + 1
    assert [e.type for e in events[head:]] == ["moved"]
    assert table.row().version == head + 1


def test_different_moves_50_times_with_expected_version(new_table: NewTable) -> None:
    table = new_table(first=0, dice=(6, 5), length=3)
    head = table.row().version
    plays = table.state.legal_plays()
    assert len(plays) > 5
    results = at_once(
        racing(
            table,
            services.match_play,
            0,
            play=lambda i: steps_of(plays[i % len(plays)]),
            expected_version=head,
        )
    )
    assert outcome(results) == {"MatchView": 1, "VersionConflict": THREADS - 1}
    (won,) = [r for r in results if not isinstance(r, Exception)]
    events = check_stream(table.match_id)
    assert [e.type for e in events[head:]] == ["moved"]
    assert won.state.board == table.state.board  # the stored move is the winner's
    assert table.row().turn == 1


def test_the_same_roll_50_times_stores_one_roll(new_table: NewTable) -> None:
    """One roll is stored, the winner's, and the winner alone is answered with dice. The
    writers decide on this process's cached view and write with a compare-and-set, so a
    loser may have drawn dice before it found the version moved: those are thrown away,
    never stored nor answered (each roll of the secret dice is independent, so a draw
    nobody saw changes nothing). A roll refused on the current view spends no dice
    (test_commands)."""
    table = new_table(first=0, length=3)
    table.play(0, "8/5 6/5")
    head = table.row().version
    table.dice.push(*[(i % 6 + 1, (i * 5) % 6 + 1) for i in range(THREADS)])
    results = at_once(racing(table, services.match_roll, 1, expected_version=head))
    assert outcome(results) == {"MatchView": 1, "VersionConflict": THREADS - 1}
    (won,) = [r for r in results if not isinstance(r, Exception)]
    events = check_stream(table.match_id)
    assert [e.type for e in events[head:]] == ["rolled"]
    assert events[-1].payload["dice"] == won.state.dice.to_json()  # the winner's roll


def test_without_expected_version_the_command_is_decided_again_on_the_new_state(
    new_table: NewTable,
) -> None:
    """No stale client: each writer is decided against the latest state in turn; the first
    roll goes through and the others are refused by the rules, none lost, none doubled."""
    table = new_table(first=0, length=3)
    table.play(0, "8/5 6/5")
    head = table.row().version
    table.dice.push(*[(2, 1)] * THREADS)
    results = at_once(racing(table, services.match_roll, 1))
    assert outcome(results) == {"MatchView": 1, "IllegalAction": THREADS - 1}
    assert all("play your dice" in str(r) for r in results if isinstance(r, IllegalAction))
    events = check_stream(table.match_id)
    assert [e.type for e in events[head:]] == ["rolled"]


def test_mixed_commands_from_both_players_serialise(new_table: NewTable) -> None:
    """Ana may double, or resign; bob may do neither now. Whatever the order, the stream is
    one consistent history that a cold replay rebuilds."""
    table = new_table(first=1, length=0, cube=True)
    table.play(1, "8/5 6/5")
    head = table.row().version
    commands = [
        (services.match_double, 0, {}),
        (services.match_resign, 0, {"value": 1}),
        (services.match_double, 1, {}),
        (services.match_take, 1, {}),
        (services.match_reject_resign, 1, {}),
    ]

    def work(i: int, barrier: threading.Barrier) -> Any:
        command, seat, kw = commands[i % len(commands)]
        barrier.wait()
        return command(match_id=table.match_id, user=table.users[seat], dice=table.dice, **kw)

    results = at_once(work)
    events = check_stream(table.match_id)
    types = [e.type for e in events[head:]]
    accepted = sum(not isinstance(r, Exception) for r in results)
    assert accepted == len(types) >= 1
    assert all(isinstance(r, IllegalAction) for r in results if isinstance(r, Exception))
    assert types[0] in ("cube_offered", "resign_offered")
    assert store.load_view(table.match_id, cached=False).version == table.row().version


def test_the_unique_seq_is_the_last_line_of_defence(new_table: NewTable) -> None:
    """Writers that skip the row lock and append at the same seq: the (match, seq) constraint
    lets one through; the others get VersionConflict, and nothing of theirs is stored."""
    table = new_table(first=0, length=3)
    table.play(0, "8/5 6/5")
    head = table.row().version

    def work(i: int, barrier: threading.Barrier) -> Any:
        with transaction.atomic():
            match = Match.objects.get(pk=table.match_id)  # no select_for_update
            view = store.load_view(table.match_id, cached=False)
            barrier.wait()
            return store.append(
                match, view, [Rolled(1, [i % 6 + 1, 1])], actor_id=None, at=table.clock()
            )

    results = at_once(work)
    assert outcome(results) == {"MatchView": 1, "VersionConflict": THREADS - 1}
    (won,) = [r for r in results if not isinstance(r, Exception)]
    events = check_stream(table.match_id)
    assert len(events) == head + 1
    assert events[-1].type == "rolled"
    assert events[-1].payload["dice"] == won.state.dice.to_json()  # the winner's roll
    assert table.row().version == head + 1
    assert store.load_view(table.match_id) == store.load_view(table.match_id, cached=False)
