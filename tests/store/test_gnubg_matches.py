"""The public gnubg self-play matches (tests/data/matches-public/, copied from
../shared/oracle/matches-public/) replayed through the store.

Each match is there as gnubg's .mat export and as .jsonl (one line per game: the opening roll,
every move with its dice and the position before it, cube actions, resignations, the result);
index.json has the final score and winner of each.
- importing each .mat ends with gnubg's per-game results and final score;
- driving the store from each .jsonl (the system actor, ScriptedDice in the file's order) does
  too, and meets every position gnubg recorded;
- an exported .mat of an imported match imports again to the same events;
- `manage.py import_mat` prints one JSON line per file, and refuses a file with an illegal move
  naming the game, the move and the reason, storing nothing of it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.rules import match as rules
from games.rules.match import Phase
from games.rules.position import Position
from matches import services, store
from matches.interop.exporting import match_to_mat
from matches.interop.importing import import_mat
from matches.store.dice import ScriptedDice
from matches.store.models import Match, MatchEvent
from matches.store.replay import MatchView, fold

from .helpers import Policy, PureDriver, SeededDice, StoreDriver, find_seed, opening, play_random

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "matches-public"
INDEX = json.loads((DATA / "index.json").read_text())
MATCHES = {m["name"]: m for m in INDEX["matches"]}
NAMES = sorted(MATCHES)
KINDS = {"single": 1, "gammon": 2, "backgammon": 3}

pytestmark = pytest.mark.usefixtures("contract")


@cache
def games_of(name: str) -> list[dict[str, Any]]:
    lines = (DATA / MATCHES[name]["events"]).read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def mat_text(name: str) -> str:
    return (DATA / MATCHES[name]["mat"]).read_text()


def results(match_id: Any) -> list[tuple[int, int, int, int, str]]:
    """(winner, points, kind, cube, how) of each game of a stored match."""
    state = store.load_view(match_id, cached=False).state
    assert state is not None
    return [(g.winner, g.points, int(g.kind), g.cube, g.ended_by.value) for g in state.games]


def gnubg_results(name: str) -> list[tuple[int, int, int, int, str]]:
    out = []
    for game in games_of(name):
        r = game["result"]
        out.append((r["winner"], r["points"], KINDS[r["type"]], r["cube_value"], r["ended_by"]))
    return out


def check_final(match_id: Any, name: str, *, imported: bool = True) -> None:
    """The stored match ends as gnubg's did: per-game results, final score, winner, row.
    (A .mat file does not say whether the cube was on: an import turns it on when the file
    has a double.)"""
    info = MATCHES[name]
    assert results(match_id) == gnubg_results(name)
    assert len(results(match_id)) == info["games"]
    row = Match.objects.get(pk=match_id)
    assert (
        [row.score0, row.score1]
        == info["final_score"]
        == games_of(name)[-1]["result"]["score_after"]
    )
    assert (row.winner, row.status, row.length) == (
        info["winner"],
        "finished",
        info["match_length"],
    )
    if not imported:
        assert row.cube == info["cube_enabled"]


def test_the_data_is_complete() -> None:
    assert len(NAMES) == 11
    for name in NAMES:
        games = games_of(name)
        assert len(games) == MATCHES[name]["games"]
        assert [g["game"] for g in games] == list(range(1, len(games) + 1))
        assert (DATA / MATCHES[name]["mat"]).is_file()


# -- importing the .mat files -------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", NAMES)
def test_importing_a_mat_file_gives_gnubgs_results_and_exports_back(name: str) -> None:
    done = import_mat(mat_text(name))
    info = MATCHES[name]
    assert (done.games, list(done.final_score), done.winner) == (
        info["games"],
        info["final_score"],
        info["winner"],
    )
    assert done.names == tuple(INDEX["players"])
    check_final(done.match_id, name)
    first = [(e.type, e.payload) for e in store.stored_events(done.match_id)]
    assert {e.actor_id for e in store.stored_events(done.match_id)} == {None}

    # the crawford flags gnubg gives each game
    for game, crawford in zip(games_of(name), crawford_flags(done.match_id), strict=True):
        if info["match_length"] > 1:
            assert crawford == (game["crawford_game"], game["post_crawford"]), game["game"]

    # export, import again: the same events
    exported = match_to_mat(done.match_id)
    again = import_mat(exported)
    assert again.match_id != done.match_id
    second = [(e.type, e.payload) for e in store.stored_events(again.match_id)]
    assert second == first
    assert match_to_mat(again.match_id) == exported


def crawford_flags(match_id: Any) -> list[tuple[bool, bool]]:
    """(Crawford game, post-Crawford) of each game of a stored match, as its opening roll
    (the last one, after any ties) leaves it."""
    view = MatchView(match_id)
    flags = []
    for stored in store.stored_events(match_id):
        view = fold(view, stored)
        state = view.state
        if stored.type == "opening_roll" and state is not None and state.phase != Phase.OPENING:
            flags.append((state.crawford_game, state.post_crawford))
    return flags


# -- driving the store from the .jsonl files ------------------------------------------------------


def jsonl_dice(name: str) -> list[tuple[int, int]]:
    """The dice in the order the store uses them: each game's opening roll (player 0's die
    first), then the dice of every move but the first (the opening roll is its dice)."""
    pairs: list[tuple[int, int]] = []
    for game in games_of(name):
        high, low = game["opening_roll"]["dice"]
        pairs.append((high, low) if game["opening_roll"]["player"] == 0 else (low, high))
        moves = [e for e in game["events"] if e["type"] == "move"]
        pairs += [(m["dice"][0], m["dice"][1]) for m in moves[1:]]
    return pairs


@pytest.mark.django_db(transaction=True)  # committed commands: the view cache as in production
@pytest.mark.parametrize("name", NAMES)
def test_driving_the_store_from_the_jsonl_gives_gnubgs_results(name: str) -> None:
    info = MATCHES[name]
    dice = ScriptedDice(jsonl_dice(name))
    view = services.match_create(
        user=None, mode="hotseat", length=info["match_length"], cube=info["cube_enabled"]
    )
    match_id = view.match_id
    for seat, player in enumerate(INDEX["players"]):
        view = services.match_join(match_id=match_id, user=None, seat=seat, name=player, dice=dice)

    def command(fn: Any, seat: int, **kw: Any) -> Any:
        return fn(match_id=match_id, user=None, seat=seat, dice=dice, **kw)

    passes = 0
    for game in games_of(name):
        state = view.state
        assert state is not None
        assert (state.game_number, state.score) == (game["game"], tuple(game["score_before"]))
        if info["match_length"] > 1:
            assert (state.crawford_game, state.post_crawford) == (
                game["crawford_game"],
                game["post_crawford"],
            )
        first_move = True
        for event in game["events"]:
            seat = event["player"]
            kind = event["type"]
            if kind == "move":
                if not first_move:
                    view = command(services.match_roll, seat)
                first_move = False
                state = view.state
                assert state is not None
                if not event["play"]:
                    # the server passed by itself, in the same command as the roll
                    assert store.stored_events(match_id)[-1].type == "passed"
                    assert (state.turn, state.phase) != (seat, Phase.PLAY)
                    passes += 1
                    continue
                assert (state.turn, state.phase) == (seat, Phase.PLAY)
                assert state.dice is not None and state.dice.to_json() == event["dice"]
                assert state.position_for(seat) == Position.from_json(event["position"])
                view = command(services.match_play, seat, play=event["play"])
            elif kind == "double":
                assert view.state is not None and view.state.cube == event["cube_before"]
                view = command(services.match_double, seat)
            elif kind == "take":
                view = command(services.match_take, seat)
                assert view.state is not None and view.state.cube == event["cube_value"]
            elif kind == "drop":
                view = command(services.match_drop, seat)
            elif kind == "resign":
                view = command(services.match_resign, seat, value=event["value"])
            elif kind == "accept_resign":
                view = command(services.match_accept_resign, seat)
            else:  # pragma: no cover
                raise AssertionError(f"unknown event {kind}")
        state = view.state
        assert state is not None
        assert state.score == tuple(game["result"]["score_after"])
        assert state.is_over == game["result"]["match_over"]
    assert dice.left == 0
    check_final(match_id, name, imported=False)
    types = [e.type for e in store.stored_events(match_id)]
    assert types.count("passed") == passes
    assert types.count("opening_roll") == info["games"]


# -- the management command -------------------------------------------------------------------


SMALL = ["match_02_len1_cube", "match_09_len3_cube"]
ILLEGAL = ("13/7 13/7   43:", "13/7 8/3    43:")  # 66 cannot move 8/3


@pytest.fixture
def bad_mat(tmp_path: Path) -> Path:
    text = mat_text("match_31_len1_nocube")
    assert ILLEGAL[0] in text
    path = tmp_path / "illegal.mat"
    path.write_text(text.replace(*ILLEGAL))
    return path


@pytest.mark.django_db
def test_the_import_mat_command_prints_one_json_line_per_file(bad_mat: Path) -> None:
    files = [str(DATA / MATCHES[name]["mat"]) for name in SMALL]
    missing = str(bad_mat.parent / "nowhere.mat")
    before = (Match.objects.count(), MatchEvent.objects.count())
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("import_mat", files[0], str(bad_mat), files[1], missing, stdout=out)
    assert caught.value.returncode == 1
    assert "2 of 4" in str(caught.value)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 4
    good = [lines[0], lines[2]]
    for line, name, path in zip(good, SMALL, files, strict=True):
        info = MATCHES[name]
        assert set(line) == {"file", "match_id", "games", "final_score", "winner"}
        assert (line["file"], line["games"], line["final_score"], line["winner"]) == (
            path,
            info["games"],
            info["final_score"],
            info["winner"],
        )
        check_final(line["match_id"], name)
    assert lines[1] == {
        "file": str(bad_mat),
        "error": lines[1]["error"],
    }
    error = lines[1]["error"]
    assert error.startswith("game 1, move 2: 66: 24/18 24/18 13/7 8/3:"), error
    assert len(error) > len("game 1, move 2: 66: 24/18 24/18 13/7 8/3: ")  # and the reason
    assert set(lines[3]) == {"file", "error"} and "cannot read" in lines[3]["error"]
    # nothing of the failed files is stored; the good ones are whole
    stored = Match.objects.exclude(pk__in=[line["match_id"] for line in good])
    assert stored.count() == before[0]
    assert Match.objects.count() == before[0] + 2
    assert MatchEvent.objects.count() == before[1] + sum(
        MatchEvent.objects.filter(match_id=line["match_id"]).count() for line in good
    )


@pytest.mark.django_db(transaction=True)
def test_manage_py_import_mat_exits_non_zero_and_stores_nothing_of_a_bad_file(
    bad_mat: Path,
) -> None:
    """The real command line, on the test database."""
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    good = str(DATA / MATCHES["match_31_len1_nocube"]["mat"])
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "tavla_project.settings"}
    before = (Match.objects.count(), MatchEvent.objects.count())
    run = subprocess.run(
        [sys.executable, "manage.py", "import_mat", str(bad_mat), good],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode != 0, run.stdout + run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [set(line) for line in lines] == [
        {"file", "error"},
        {"file", "match_id", "games", "final_score", "winner"},
    ]
    assert lines[0]["error"].startswith("game 1, move 2: ")
    assert lines[1]["final_score"] == MATCHES["match_31_len1_nocube"]["final_score"]
    assert Match.objects.count() == before[0] + 1
    check_final(lines[1]["match_id"], "match_31_len1_nocube")
    assert MatchEvent.objects.count() == before[1] + len(store.stored_events(lines[1]["match_id"]))


# -- matches played in the store, exported and imported -----------------------------------------


def game_events(match_id: Any) -> list[tuple[str, dict[str, Any]]]:
    """The events from the first opening roll on, without resignations that were rejected
    (a .mat file records neither)."""
    events = [(e.type, e.payload) for e in store.stored_events(match_id)]
    start = next(i for i, (kind, _) in enumerate(events) if kind == "opening_roll")
    out: list[tuple[str, dict[str, Any]]] = []
    for kind, payload in events[start:]:
        if kind == "resign_rejected":
            assert out.pop()[0] == "resign_offered"
            continue
        out.append((kind, payload))
    return out


def has_everything(driver: PureDriver) -> bool:
    """A match with a forced pass, a rejected and an accepted resignation, a take, a drop."""
    kinds = {type(a).__name__ for a in driver.actions}
    passed = any(isinstance(a, rules.Move) and not a.steps for a in driver.actions)
    return passed and {"RejectResign", "AcceptResign", "Take", "Drop"} <= kinds


@pytest.mark.django_db(transaction=True)
def test_a_match_played_in_the_store_exports_and_imports_again(new_table: Any) -> None:
    settings = rules.MatchSettings(length=3, cube=True)
    policy = {"double": 0.25, "take": 0.5, "resign": 0.03, "accept": 0.5}
    seed = find_seed(settings, has_everything, policy=policy)
    table = new_table(source=SeededDice(seed), length=3, cube=True)
    play_random(StoreDriver(table), Policy(seed, **policy))
    types = set(table.types())
    assert {"passed", "resign_rejected", "resign_accepted", "cube_taken", "cube_dropped"} <= types
    exported = match_to_mat(table.match_id)
    assert ["ana", ":", "0", "bob", ":", "0"] in [line.split() for line in exported.splitlines()]
    again = import_mat(exported)
    assert results(again.match_id) == results(table.match_id)
    assert game_events(again.match_id) == game_events(table.match_id)
    assert match_to_mat(again.match_id) == exported


@pytest.mark.django_db
def test_a_game_resigned_before_its_first_move_exports_and_imports_again(
    new_table: Any,
) -> None:
    table = new_table(first=0, length=3)
    table.play(0, "8/5 6/5")
    table.end_game_by_resign(1, 1, next_opening=opening(1, 6, 5))  # game 2: bob rolled 65
    table.end_game_by_resign(1, 2)  # and resigns at once: 3-0
    again = import_mat(match_to_mat(table.match_id))
    assert results(again.match_id) == results(table.match_id)


@pytest.mark.django_db
def test_exporting_a_match_that_does_not_exist() -> None:
    import uuid

    from matches.errors import MatchNotFound

    with pytest.raises(MatchNotFound):
        match_to_mat(uuid.uuid4())
