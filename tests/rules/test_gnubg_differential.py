"""Differential tests against the real GNU Backgammon (skipped when it is not installed).

Fresh positions (seeded, so failures repeat) from three sources:
- random self-play with our own engine from the starting position (hits, bar entries,
  blocked rolls, races),
- bear-offs, with and without opposing checkers left in the mover's home board, and with a
  straggler or two still outside,
- random scatters of 15 + 15 checkers over points, bars and off.
For each, gnubg lists every legal play in one batch run; our legal_plays must reach exactly
the same set of resulting positions. The same run checks that gnubg reads our Position IDs
back as the same board. A second run compares Match IDs from gnubg's own encoder.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from games.rules.dice import Dice
from games.rules.gnubgid import (
    GameState,
    MatchId,
    gnubg_board,
    match_id,
    position_from_id,
    position_id,
)
from games.rules.plays import legal_plays
from games.rules.position import Position

from .gnubg_oracle import (
    GnubgError,
    apply_steps,
    gnubg_available,
    gnubg_legal_plays,
    run_gnubg,
)

pytestmark = pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed")

SEED = 20251129
SELFPLAY_CASES = 320
BEAROFF_CASES = 200
SCATTER_CASES = 200


# -- position generators ---------------------------------------------------------------------


def _roll(rng: random.Random) -> Dice:
    return Dice.of(rng.randint(1, 6), rng.randint(1, 6))


def selfplay_cases(rng: random.Random, n: int) -> list[tuple[Position, Dice]]:
    """Positions met while two random players play whole games with our engine."""
    cases: list[tuple[Position, Dice]] = []
    position = Position.starting()
    while len(cases) < n:
        dice = _roll(rng)
        if rng.random() < 0.35:
            cases.append((position, dice))
        plays = legal_plays(position, dice)
        if plays:
            position = rng.choice(plays).result
            if position.off[0] == 15:  # game over: start another
                position = Position.starting()
                continue
        position = position.flipped()
    return cases


def _place(rng: random.Random, count: int, points: list[int]) -> Counter[int]:
    return Counter(rng.choice(points) for _ in range(count))


def bearoff_cases(rng: random.Random, n: int) -> list[tuple[Position, Dice]]:
    cases: list[tuple[Position, Dice]] = []
    while len(cases) < n:
        board = [0] * 24
        kind = rng.choice(["race", "contact", "straggler"])
        mine_n = rng.randint(1, 15)
        home = list(range(1, 7))
        if kind == "race" and rng.random() < 0.5:
            home = list(range(1, rng.randint(2, 6) + 1))  # leave the high points empty
        mine = _place(rng, mine_n, home)
        if kind == "straggler":
            moved = rng.randint(1, min(2, mine_n))
            for _ in range(moved):
                p = rng.choice(list(mine.elements()))
                mine[p] -= 1
                mine[rng.randint(7, 12)] += 1
        for p, k in mine.items():
            if k:
                board[p - 1] = k
        theirs_n = rng.randint(1, 15)
        if kind == "race":
            spots = [p for p in range(19, 25) if not board[p - 1]]
        else:
            spots = [p for p in range(1, 25) if not board[p - 1]]
        theirs = _place(rng, theirs_n, spots)
        if kind == "contact":
            # make sure some of them sit in the mover's home board
            open_home = [p for p in range(1, 7) if not board[p - 1]]
            if open_home:
                theirs[rng.choice(open_home)] += rng.randint(1, 2)
                theirs_n = sum(theirs.values())
                if theirs_n > 15:
                    continue
        for p, k in theirs.items():
            board[p - 1] = -k
        their_bar = rng.choice([0, 0, 0, 1]) if theirs_n < 15 else 0
        position = Position(tuple(board), (0, their_bar), (15 - mine_n, 15 - theirs_n - their_bar))
        position.check()
        cases.append((position, _roll(rng)))
    return cases


def scatter_cases(rng: random.Random, n: int) -> list[tuple[Position, Dice]]:
    cases: list[tuple[Position, Dice]] = []
    while len(cases) < n:
        board = [0] * 24
        bar = [0, 0]
        off = [0, 0]
        on_bar_weight = rng.choice([0, 1, 3])
        slots = list(range(24)) + [24] * on_bar_weight + [25]
        for _ in range(15):
            s = rng.choice(slots)
            if s < 24:
                board[s] += 1
            elif s == 24:
                bar[0] += 1
            else:
                off[0] += 1
        free = [i for i in range(24) if board[i] == 0] + [24] * on_bar_weight + [25]
        for _ in range(15):
            s = rng.choice(free)
            if s < 24:
                board[s] -= 1
            elif s == 24:
                bar[1] += 1
            else:
                off[1] += 1
        if off[0] == 15 or off[1] == 15:
            continue
        closed = all(k >= 2 for k in board[:6]) and all(k <= -2 for k in board[18:])
        if closed and bar[0] and bar[1]:
            continue  # gnubg refuses this position
        position = Position(tuple(board), (bar[0], bar[1]), (off[0], off[1]))
        position.check()
        cases.append((position, _roll(rng)))
    return cases


def all_cases() -> list[tuple[Position, Dice]]:
    rng = random.Random(SEED)
    return (
        selfplay_cases(rng, SELFPLAY_CASES)
        + bearoff_cases(rng, BEAROFF_CASES)
        + scatter_cases(rng, SCATTER_CASES)
    )


# -- the run ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gnubg_run() -> tuple[list[tuple[Position, Dice]], list[dict[str, Any]]]:
    cases = all_cases()
    records = gnubg_legal_plays([(position_id(p), d.high, d.low) for p, d in cases])
    return cases, records


def test_the_cases_cover_the_interesting_families(
    gnubg_run: tuple[list[tuple[Position, Dice]], list[dict[str, Any]]],
) -> None:
    cases, records = gnubg_run
    assert len(cases) == SELFPLAY_CASES + BEAROFF_CASES + SCATTER_CASES
    on_bar = sum(1 for p, _ in cases if p.bar[0])
    no_play = sum(1 for r in records if not r["moves"])
    doubles = sum(1 for _, d in cases if d.is_double)
    bearing_off = sum(
        1 for r in records if any(step[1] == 0 for steps in r["steps"] for step in steps)
    )
    assert on_bar >= 50 and no_play >= 10 and doubles >= 60 and bearing_off >= 100, (
        on_bar,
        no_play,
        doubles,
        bearing_off,
    )


def test_gnubg_reads_our_position_ids(
    gnubg_run: tuple[list[tuple[Position, Dice]], list[dict[str, Any]]],
) -> None:
    cases, records = gnubg_run
    for (position, dice), record in zip(cases, records, strict=True):
        pid = position_id(position)
        assert record["position_id"] == pid
        assert tuple(map(tuple, record["board"])) == gnubg_board(position), pid
        assert position_from_id(record["position_id"]) == position
        assert sorted(record["dice"], reverse=True) == [dice.high, dice.low]


def test_legal_plays_agree_with_gnubg(
    gnubg_run: tuple[list[tuple[Position, Dice]], list[dict[str, Any]]],
) -> None:
    cases, records = gnubg_run
    disagreements = []
    for (position, dice), record in zip(cases, records, strict=True):
        theirs = [apply_steps(position, steps) for steps in record["steps"]]
        ours = {play.result for play in legal_plays(position, dice)}
        # gnubg lists each resulting position once
        assert len(set(theirs)) == len(theirs), record["moves"]
        if set(theirs) != ours:
            disagreements.append(
                {
                    "position_id": position_id(position),
                    "position": position.to_json(),
                    "dice": dice.to_json(),
                    "only_gnubg": sorted(
                        m for m, t in zip(record["moves"], theirs, strict=True) if t not in ours
                    ),
                    "only_ours": sorted(
                        " ".join(str(s) for s in play.steps)
                        for play in legal_plays(position, dice)
                        if play.result not in set(theirs)
                    ),
                }
            )
    assert disagreements == [], json.dumps(disagreements[:5], indent=1)


# -- Match IDs from gnubg's own encoder ------------------------------------------------------

_MATCH_SCRIPT = """\
import json
import gnubg

gnubg.command("new match 3")
out = []
for ci, pi in json.loads({cases!r}):
    cube = gnubg.cubeinfo()
    cube.update(ci)
    cube["score"] = tuple(cube["score"])
    pi["dice"] = tuple(pi["dice"])
    out.append(gnubg.matchid(cube, pi))
emit(json.dumps(out))
"""


def _random_match_ids(rng: random.Random, n: int) -> list[MatchId]:
    out = []
    for _ in range(n):
        length = rng.choice([0, 0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25, 64, 32767])
        dice = None
        if rng.random() < 0.6:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append(
            MatchId(
                cube_value=1 << rng.randint(0, 15),
                cube_owner=rng.choice([None, 0, 1]),
                player_on_roll=rng.randint(0, 1),
                crawford=bool(length) and rng.random() < 0.3,
                game_state=rng.choice(list(GameState)),
                turn=rng.randint(0, 1),
                double_offered=rng.random() < 0.3,
                resignation=rng.randint(0, 3),
                dice=dice,
                match_length=length,
                score=(rng.randint(0, length or 40), rng.randint(0, length or 40)),
                jacoby=rng.random() < 0.5,
            )
        )
    return out


def test_match_ids_agree_with_gnubg() -> None:
    ids = _random_match_ids(random.Random(SEED), 300)
    payload = [
        (
            {
                "cube": m.cube_value,
                "cubeowner": -1 if m.cube_owner is None else m.cube_owner,
                "move": m.player_on_roll,
                "matchto": m.match_length,
                "score": list(m.score),
                "crawford": int(m.crawford),
                "jacoby": int(m.jacoby),
            },
            {
                "turn": m.turn,
                "resigned": m.resignation,
                "doubled": int(m.double_offered),
                "gamestate": int(m.game_state),
                "dice": list(m.dice or (0, 0)),
            },
        )
        for m in ids
    ]
    theirs = json.loads(run_gnubg(_MATCH_SCRIPT.format(cases=json.dumps(payload))))
    assert len(theirs) == len(ids)
    wrong = [(m, t, match_id(m)) for m, t in zip(ids, theirs, strict=True) if t != match_id(m)]
    assert wrong == []


# -- the helper itself -----------------------------------------------------------------------


def test_run_gnubg_returns_what_the_script_emits() -> None:
    text = run_gnubg(
        "import gnubg\n"
        # Both players human: gnubg's own player would move at once when it wins the opening.
        "gnubg.command('set player 0 human')\n"
        "gnubg.command('set player 1 human')\n"
        "gnubg.command('new match 1')\n"
        "emit('version ok\\n')\n"
        "emit(gnubg.positionid())\n"
    )
    assert text == "version ok\n4HPwATDgc/ABMA"


def test_run_gnubg_raises_the_script_error() -> None:
    with pytest.raises(GnubgError, match="ZeroDivisionError"):
        run_gnubg("emit('partial')\n1 / 0\n")
