"""Quick pairing never pairs two players one of whom blocked the other (matches/services/
seeks.py asks matches/services/blocks.py), one by one and with 50 seekers at once."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from matches.services import blocks
from matches.store.community_models import Block
from matches.store.models import Match, PlayerRating, Seek
from tests.api.conftest import signup

pytestmark = pytest.mark.django_db


def seek(player: Any) -> dict[str, Any]:
    r = player.post("/seeks", {"length": 3, "cube": True})
    assert r.status_code == 201, r.content
    return r.json()


def test_a_blocked_pair_waits_and_each_is_paired_with_someone_else(make_player) -> None:
    ana, ben, cy = make_player("ana"), make_player("ben"), make_player("cy")
    assert ben.post(f"/players/{ana.username}/block").status_code == 200
    assert seek(ana)["status"] == "waiting"
    assert seek(ben)["status"] == "waiting"  # the only other seeker blocked him
    paired = seek(cy)
    assert paired["status"] == "paired"
    match = Match.objects.get(pk=paired["match"])
    assert {match.player0_id, match.player1_id} == {ana.user_id, cy.user_id}
    assert Seek.objects.get(user_id=ben.user_id, status="waiting")


@pytest.mark.django_db(transaction=True)
def test_fifty_seekers_with_blocked_pairs_never_pair_a_blocked_pair() -> None:
    """50 players seek in one pool at the same moment (50 threads, 50 connections). Ratings
    put them on islands 300 points apart (the window is +-100 at first), so each one's only
    acceptable partners are on his island: 15 islands of a blocked pair (blocked either way
    round), one of four where one blocks the three others, and 8 islands of two who may play.
    Every free pair is paired, no blocked pair is, and the blocker of three waits."""
    players = [signup(f"crowd{i}") for i in range(50)]
    islands = [players[i : i + 2] for i in range(0, 30, 2)]
    islands += [players[30:34]]
    islands += [players[i : i + 2] for i in range(34, 50, 2)]
    for k, island in enumerate(islands):
        for p in island:
            PlayerRating.objects.create(
                user_id=p.user_id, game="tavla", rating=1000 + 300 * k, experience=500, matches=9
            )
    for k, (a, b) in enumerate(islands[:15]):
        blocks.block(*((_user(a), _user(b)) if k % 2 else (_user(b), _user(a))))
    for other in players[31:34]:
        blocks.block(_user(players[30]), _user(other))
    assert Block.objects.count() == 18
    barrier = threading.Barrier(len(players))
    answers: list[int] = []
    lock = threading.Lock()

    def run(player: Any) -> None:
        try:
            barrier.wait()
            r = player.post("/seeks", {"length": 3, "cube": True})
            with lock:
                answers.append(r.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert Counter(answers) == Counter({201: 50})
    matches = list(Match.objects.filter(mode="online"))
    for match in matches:
        assert not blocks.between(match.player0_id, match.player1_id), match
    seated = Counter(p for m in matches for p in (m.player0_id, m.player1_id))
    assert max(seated.values()) == 1
    pairs = {frozenset((m.player0_id, m.player1_id)) for m in matches}
    for a, b in islands[16:]:
        assert frozenset((a.user_id, b.user_id)) in pairs  # the free pairs are all paired
    assert len(matches) == 8 + 1  # and on the island of four, two of the blocked three
    waiting = {s.user_id for s in Seek.objects.filter(status="waiting")}
    assert waiting == {p.user_id for p in players[:31]} | (
        {p.user_id for p in players[31:34]} - set(seated)
    )
    print(f"50 seekers, 18 blocks: {len(matches)} matches, {len(waiting)} waiting")


def _user(player: Any) -> Any:
    return get_user_model().objects.get(pk=player.user_id)
