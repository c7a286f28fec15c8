"""Agreement with GNU Backgammon 1.07 on 1,688 positions (tests/data/moves-public.jsonl).

Every case must match exactly: the list of resulting positions equals gnubg's "plays" in the
same (sorted) order, and every play uses exactly "max_dice_used" steps. Notation agreement with
gnubg's "play_notation" is measured and reported, not asserted.
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


def test_notation_agreement_report():
    """Report how often Play.notation equals gnubg's play_notation. Never fails on mismatch."""
    agree = total = 0
    by_family: Counter[str] = Counter()
    disagree_by_family: Counter[str] = Counter()
    samples: list[str] = []
    for case in CASES:
        position = Position.from_json(case["position"])
        plays = legal_plays(position, Dice.of(*case["dice"]))
        if [p.result.to_json() for p in plays] != case["plays"]:
            continue  # counted by test_gnubg_case
        for play, theirs in zip(plays, case["play_notation"], strict=True):
            try:
                ours = play.notation
            except ImportError:
                pytest.skip("Play.notation is not available yet")
            total += 1
            by_family[case["family"]] += 1
            if ours == theirs:
                agree += 1
            else:
                disagree_by_family[case["family"]] += 1
                if len(samples) < 15:
                    samples.append(f"  case {case['id']}: ours {ours!r} gnubg {theirs!r}")
    share = agree / total if total else 1.0
    lines = [f"notation agreement with gnubg: {agree}/{total} = {share:.2%}"]
    lines += [
        f"  {fam}: {by_family[fam] - n}/{by_family[fam]} agree"
        for fam, n in disagree_by_family.most_common()
    ]
    lines += samples
    print("\n".join(lines))
