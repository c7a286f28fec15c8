"""Every refusal of the rules is typed: a stable reason code (errors.REFUSALS) and the values
it names, from which its English sentence is made (an API says it in any language from the
same code and values, never reading the sentence back)."""

from __future__ import annotations

import re

import pytest

import games.rules as rules
from games.rules import LONG_NARDY, REFUSALS, Dice, IllegalPlay, Position, RulesError

START = Position.starting()
NARDY = LONG_NARDY.starting()


def attempts() -> list[object]:
    playing = rules.apply(
        rules.MatchState.new(rules.MatchSettings(length=3, cube=True)), rules.OpeningRoll(5, 2)
    )
    nardy = rules.MatchState.new(rules.MatchSettings(game=rules.Variant.LONG_NARDY, length=3))
    return [
        lambda: rules.resolve_play(START, Dice.of(5, 1), "24/19 6/5"),
        lambda: rules.resolve_play(START, Dice.of(6, 6), "24/18"),
        lambda: rules.resolve_play(START, Dice.of(3, 1), "6/off 8/7"),
        lambda: rules.resolve_play(START, Dice.of(3, 1), "bar/22 6/5"),
        lambda: rules.resolve_play(START, Dice.of(3, 1), "9/6 8/7"),
        lambda: rules.resolve_play(START, Dice.of(3, 1), ""),
        lambda: rules.resolve_play(START, Dice.of(3, 1), "24/18"),
        lambda: rules.legal_next_steps(START, Dice.of(5, 1), [rules.Step(24, 19)]),
        lambda: rules.resolve_play(NARDY, Dice.of(3, 1), "24/21 24/23"),
        lambda: rules.resolve_play(NARDY, Dice.of(2, 1), "bar/23 24/22"),
        lambda: rules.parse_moves("3/7"),
        lambda: rules.parse_moves("x"),
        lambda: rules.moves_from_pairs([[3, 5]]),
        lambda: Dice.parse("9"),
        lambda: Dice.of(7, 1),
        lambda: rules.apply(playing, rules.Double(0)),
        lambda: rules.apply(playing, rules.Take(1)),
        lambda: rules.apply(playing, rules.Roll(1, Dice.of(2, 1))),
        lambda: rules.apply(nardy, rules.Double(0)),
        lambda: rules.MatchSettings(length=40).check(),
        lambda: rules.MatchSettings(game=rules.Variant.LONG_NARDY, cube=True).check(),
    ]


def test_every_template_names_its_values_and_formats() -> None:
    for reason, template in REFUSALS.items():
        assert re.fullmatch(r"[a-z_]+", reason)
        names = re.findall(r"%\((\w+)\)s", template)
        assert template % {n: "x" for n in names}  # no stray % directive


@pytest.mark.parametrize("attempt", range(len(attempts())))
def test_each_refusal_carries_its_reason_and_values(attempt: int) -> None:
    with pytest.raises(RulesError) as caught:
        attempts()[attempt]()  # type: ignore[operator]
    exc = caught.value
    assert exc.reason in REFUSALS, str(exc)
    assert REFUSALS[exc.reason] % exc.params == str(exc)


def test_the_values_are_the_rules_facts() -> None:
    with pytest.raises(IllegalPlay) as caught:
        rules.resolve_play(START, Dice.of(5, 1), "24/19 6/5")
    assert (caught.value.reason, caught.value.params) == ("point_closed", {"point": 19, "count": 5})
    with pytest.raises(IllegalPlay) as caught:
        rules.resolve_play(START, Dice.of(6, 6), "24/18")
    assert caught.value.reason == "must_play_most"
    assert caught.value.params["die"] == 6 and caught.value.params["count"] == 4
