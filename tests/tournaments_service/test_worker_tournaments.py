"""Tournaments run by a real Celery worker and beat (subprocesses, our own Redis, the test's
PostgreSQL database), played over the API by scripted players: the start task at the start
time, each match's end recorded by the worker, the next round paired within seconds, the
reconnect grace's forfeit, a worker killed between two rounds, a tournament cancelled at its
start for too few players.

The players' clock is `FAST` (6 s to reconnect); every match is one point long, and most end
by a resignation after a few turns (the script decides who loses: the checks know the winner).
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from matches.store.models import Match, MatchEvent, PlayerRating
from matches.store.tournament_models import TournamentEvent
from tests.api.conftest import Player
from tests.servers import Process, Redis

from .conftest import FAST, create
from .driver import Script, join_all, wait_round, wait_status

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))
SWEEP = 1.0

pytestmark = [pytest.mark.django_db(transaction=True)]


class Cluster:
    """Our Redis, a worker and beat; the test process sends its tasks to the same Redis."""

    def __init__(self, tmp: Path, database: str) -> None:
        self.tmp = tmp
        self.redis = Redis(tmp)
        db = connection.settings_dict
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tavla_project.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{database}",
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": self.redis.url,
            "CELERY_VISIBILITY_TIMEOUT": "5",
            "CELERY_UNACKED_RESTORE_INTERVAL": "1",
            "TAVLA_CLOCK_SWEEP_SECONDS": str(SWEEP),
            "TAVLA_TOURNAMENT_SWEEP_SECONDS": str(SWEEP),
            "TAVLA_CLOCK_PRESETS": json.dumps({"fast": FAST}),
            "CELERY_HEARTBEAT_SECONDS": "3600",
            "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp / "beat-schedule"),
            "LOG_LEVEL": "INFO",
        }
        if db.get("PASSWORD"):
            self.env["PGPASSWORD"] = db["PASSWORD"]
        self.worker: Process | None = None
        self.beat: Process | None = None

    def start_worker(self) -> Process:
        self.worker = Process(
            [
                CELERY, "-A", "tavla_project", "worker", "--pool=solo", "--without-gossip",
                "--without-mingle", "--without-heartbeat", "-n",
                f"tournament-{uuid.uuid4().hex[:6]}@%h", "-l", "INFO",
            ],
            self.env, self.tmp / "worker.log", "ready.", ROOT,
        )  # fmt: skip
        return self.worker

    def start_beat(self) -> Process:
        self.beat = Process(
            [CELERY, "-A", "tavla_project", "beat", "-l", "INFO", "--max-interval", "1"],
            self.env, self.tmp / "beat.log", "beat: Starting", ROOT,
        )  # fmt: skip
        return self.beat

    def stop(self) -> None:
        for proc in (self.worker, self.beat):
            if proc is not None:
                proc.stop()


@pytest.fixture(scope="module")
def cluster(django_db_setup: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    from tavla_project.celery import app

    tmp = tmp_path_factory.mktemp("tournament-cluster")
    c = Cluster(tmp, connection.settings_dict["NAME"])
    c.redis.start()
    saved = {k: app.conf[k] for k in ("broker_url", "broker_transport_options")}
    app.conf.update(broker_url=c.redis.url, broker_transport_options={"visibility_timeout": 5})
    forget_pools(app)
    try:
        c.start_beat()
        c.start_worker()
        yield c
    finally:
        c.stop()
        c.redis.stop()
        app.conf.update(saved)
        forget_pools(app)


def forget_pools(app: Any) -> None:
    """Forget the pools made for one broker, so later senders connect to the right one."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None


def field_of(make_player: Any, n: int, prefix: str) -> dict[int, Player]:
    """`n` players, the first signed up rated highest (distinct ratings: seeding by rating)."""
    players = [make_player(prefix) for _ in range(n)]
    for i, p in enumerate(players):
        PlayerRating.objects.create(user_id=p.user_id, game="tavla", rating=1900.0 - 25 * i)
    return {p.user_id: p for p in players}


def soon(seconds: float = 3.0) -> Any:
    return timezone.now() + timedelta(seconds=seconds)


# -- the rules every round must keep ----------------------------------------------------------


def check_swiss_round(detail: dict[str, Any], number: int) -> None:
    """Round `number`: nobody meets an opponent twice, at most one bye each, the bye to the
    lowest-scored player who had none, pairs within a point of each other."""
    points: Counter[int] = Counter()
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for played in detail["rounds"][: number - 1]:
        for b in played["boards"]:
            a, c = b["players"]
            if c is None:
                byes[a] += 1
                points[a] += 1
                continue
            met.add(frozenset((a, c)))
            assert b["result"] is not None
            if b["result"]["winner"] is not None:
                points[b["result"]["winner"]] += 1
    boards = detail["rounds"][number - 1]["boards"]
    seen = [p for b in boards for p in b["players"] if p is not None]
    assert len(seen) == len(set(seen)) == len(detail["players"])
    for b in boards:
        a, c = b["players"]
        if c is None:
            assert byes[a] == 0, f"a second bye for {a}"
            eligible = [p["user_id"] for p in detail["players"] if byes[p["user_id"]] == 0]
            assert points[a] == min(points[p] for p in eligible), "the bye went too high"
            continue
        assert frozenset((a, c)) not in met, f"{a} and {c} met again in round {number}"
        assert abs(points[a] - points[c]) <= 1, f"round {number}: {a} and {c} far apart"


def expected_swiss(detail: dict[str, Any]) -> list[int]:
    """The standings by the rules, computed here from the boards: points, Buchholz, the
    opponents' Buchholz, rating."""
    pts: Counter[int] = Counter()
    opponents: dict[int, list[int]] = {p["user_id"]: [] for p in detail["players"]}
    for played in detail["rounds"]:
        for b in played["boards"]:
            a, c = b["players"]
            if c is None:
                pts[a] += 1
                continue
            opponents[a].append(c)
            opponents[c].append(a)
            if b["result"]["winner"] is not None:
                pts[b["result"]["winner"]] += 1
    buch = {p: sum(pts[o] for o in opps) for p, opps in opponents.items()}
    obuch = {p: sum(buch[o] for o in opps) for p, opps in opponents.items()}
    rating = {p["user_id"]: p["rating"] for p in detail["players"]}
    return sorted(opponents, key=lambda p: (-pts[p], -buch[p], -obuch[p], -rating[p]))


def check_results(script: Script, detail: dict[str, Any]) -> None:
    """Every match the script played is in the tournament with the match's own winner."""
    for played in script.played:
        board = detail["rounds"][played.round - 1]["boards"][played.board]
        assert board["result"] is not None, played
        assert board["result"]["winner"] == played.winner, played


# -- the proofs --------------------------------------------------------------------------------


def test_a_swiss_of_13_players_and_4_rounds(cluster: Cluster, staff: Any, make_player: Any) -> None:
    """12 scripted players and the site's computer (entered by staff; the worker plays it)."""
    players = field_of(make_player, 12, "swiss")
    tid = create(staff, "swiss", rounds=4, min_players=5, max_players=16, starts_at=soon(8))["id"]
    join_all(tid, players.values())
    entered = staff.post(f"/tournaments/{tid}/join", {"computer": "random"})
    assert entered.status_code == 200, entered.content
    computer = {p["user_id"] for p in entered.json()["players"]} - set(players)
    assert len(computer) == 1 and len(entered.json()["players"]) == 13
    flip = iter(range(1000))
    # the first match is played to its end; in the others the script picks the loser
    script = Script(
        players,
        loser=lambda a, b: None if next(flip) == 0 else (a, b)[(a + b) % 2],
        computer=frozenset(computer),
    )
    detail = wait_status(script, tid, "running", 20)
    pairing_waits = []
    for number in range(1, 5):
        check_swiss_round(detail, number)
        script.play_round(tid, number)
        detail, waited = wait_round(script, tid, number + 1, 15)
        pairing_waits.append(waited)
    assert detail["status"] == "finished", detail["status"]
    check_results(script, detail)
    assert len(script.played) == 4 * 6
    assert not [p for p in script.played if p.ended_by == "forfeit"], "a present player forfeited"
    assert (
        Counter(b["players"][1] is None for r in detail["rounds"] for b in r["boards"])[True] == 4
    )
    expected = expected_swiss(detail)
    standings = staff.get(f"/tournaments/{tid}/standings").json()
    assert standings["final"] is True
    assert [r["user_id"] for r in standings["rows"]] == expected
    assert detail["winner"] == expected[0]
    theirs = [p for p in script.played if computer & set(p.players)]
    assert len(theirs) >= 3 and all(p.winner is not None for p in theirs)  # a bye at most
    moved = MatchEvent.objects.filter(
        match_id__in=[m for r in detail["rounds"] for b in r["boards"] if (m := b["match"])],
        type="moved",
        actor_id__in=computer,
    )
    assert moved.exists(), "the computer never moved: its matches were not played by it"
    print(f"swiss: each next round ready {[round(w, 2) for w in pairing_waits]} s after")
    assert max(pairing_waits) < 5, pairing_waits  # "within seconds" of the last match's end


def test_a_knockout_of_11_with_a_no_show_and_a_worker_killed_between_rounds(
    cluster: Cluster, staff: Any, make_player: Any
) -> None:
    from tavla_project.celery import app

    players = field_of(make_player, 11, "ko")
    ranked = sorted(players)  # signed up first: rated highest
    absent = ranked[-1]  # seed 11: plays seed 6 in round 1 and never shows
    tid = create(staff, "knockout", min_players=4, starts_at=soon(7))["id"]
    join_all(tid, players.values())
    rank = {p: i for i, p in enumerate(ranked)}
    script = Script(
        players, loser=lambda a, b: a if rank[a] > rank[b] else b, absent=frozenset({absent})
    )
    detail = wait_status(script, tid, "running", 20)
    assert [b["players"][1] is None for b in detail["rounds"][0]["boards"]].count(True) == 5
    script.play_round(tid, 1)
    forfeit = next(p for p in script.played if absent in p.players)
    assert forfeit.ended_by == "forfeit" and forfeit.winner == ranked[5]
    detail, _ = wait_round(script, tid, 2, 15)
    script.play_round(tid, 2, timeout=60)
    detail, _ = wait_round(script, tid, 3, 15)
    # Kill the worker, end the last match of round 3, lose its message: beat's sweeper sends
    # the work again once a worker is back.
    assert cluster.worker is not None
    cluster.worker.kill()
    script.play_round(tid, 3)
    app.control.purge()
    time.sleep(2 * SWEEP + 1)
    assert len(script.detail(tid)["rounds"]) == 3, "paired with no worker"
    cluster.start_worker()
    wait_round(script, tid, 4, 20)
    script.play_round(tid, 4)
    detail = wait_status(script, tid, "finished", 15)
    check_results(script, detail)
    assert detail["winner"] == ranked[0]
    assert [len(r["boards"]) for r in detail["rounds"]] == [8, 4, 2, 1]
    standings = staff.get(f"/tournaments/{tid}/standings").json()["rows"]
    assert standings[0]["user_id"] == ranked[0] and standings[-1]["user_id"] in (absent,)
    assert Match.objects.filter(tournament_board__tournament_id=tid).count() == 3 + 4 + 2 + 1
    stream = TournamentEvent.objects.filter(tournament_id=tid).order_by("seq")
    types = list(stream.values_list("type", flat=True))
    assert types[:1] == ["tournament_created"] and types[-1] == "tournament_finished"
    assert types.count("round_paired") == 4 and types.count("match_result") == 10


def test_too_few_players_cancel_it_at_its_start_time(
    cluster: Cluster, staff: Any, make_player: Any
) -> None:
    tid = create(staff, "knockout", min_players=4, starts_at=soon(4))["id"]
    players = {p.user_id: p for p in (make_player("few") for _ in range(3))}
    join_all(tid, players.values())
    script = Script(players, loser=lambda a, b: None)
    detail = wait_status(script, tid, "cancelled", 15)
    assert detail["finish_reason"] == "too_few_players" and detail["rounds"] == []
    assert cluster.worker is not None and "matches.start_tournament" in cluster.worker.text()
