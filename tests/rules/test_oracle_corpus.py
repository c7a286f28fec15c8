"""Agreement with GNU Backgammon 1.07 on 1,688 positions (tests/data/moves-public.jsonl).

Every case must match exactly: the list of resulting positions equals gnubg's "plays" in the
same (sorted) order, and every play uses exactly "max_dice_used" steps; every play's notation
equals gnubg's "play_notation".
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from games.rules.dice import Dice
from games.rules.plays import legal_plays
from games.rules.position import Position

CORPUS = Path(__file__).resolve().parent.parent / "data" / "moves-public.jsonl"


def _load() -> list[dict]:
    with CORPUS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CASES = _load()


def test_corpus_is_complete():
    assert len(CASES) == 1688
    assert len({c["id"] for c in CASES}) == len(CASES)
    families = Counter(c["family"] for c in CASES)
    assert set(families) == {
        "opening",
        "opening_reply",
        "selfplay",
        "bar_single",
        "bar_multiple",
        "bearoff_high_die",
        "bearoff",
        "bearoff_hit",
        "must_use_larger",
        "one_die_only",
        "doubles_partial",
        "no_play",
        "forced_order",
    }


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['id']:04d}-{c['family']}")
def test_gnubg_case(case):
    position = Position.from_json(case["position"])
    dice = Dice.of(*case["dice"])
    plays = legal_plays(position, dice)
    got = [p.result.to_json() for p in plays]
    expected = case["plays"]
    if got != expected:
        got_set = {json.dumps(p, sort_keys=True) for p in got}
        exp_set = {json.dumps(p, sort_keys=True) for p in expected}
        pytest.fail(
            f"case {case['id']} ({case['family']}, dice {case['dice']}, "
            f"{case['gnubg_position_id']}): {len(got)} plays vs gnubg {len(expected)}; "
            f"missing {sorted(exp_set - got_set)[:3]}; extra {sorted(got_set - exp_set)[:3]}"
        )
    assert {len(p.steps) for p in plays} <= {case["max_dice_used"]}
    if plays:
        assert all(len(p.steps) == case["max_dice_used"] for p in plays)
    else:
        assert case["max_dice_used"] == 0


def test_notation_agrees_with_gnubg_on_every_play():
    """Play.notation equals gnubg's play_notation for every play of every case."""
    total = 0
    disagree_by_family: Counter[str] = Counter()
    samples: list[str] = []
    for case in CASES:
        position = Position.from_json(case["position"])
        plays = legal_plays(position, Dice.of(*case["dice"]))
        assert [p.result.to_json() for p in plays] == case["plays"], case["id"]
        for play, theirs in zip(plays, case["play_notation"], strict=True):
            total += 1
            ours = play.notation
            if ours != theirs:
                disagree_by_family[case["family"]] += 1
                if len(samples) < 15:
                    samples.append(f"  case {case['id']}: ours {ours!r} gnubg {theirs!r}")
    assert total == sum(len(c["plays"]) for c in CASES) > 15_000
    assert not disagree_by_family, (
        f"notation differs from gnubg on {sum(disagree_by_family.values())}/{total} plays"
        f" ({dict(disagree_by_family)}):\n" + "\n".join(samples)
    )
