"""Long nardy's refusals have templates and read in every language (matches/api/messages.py,
matches/locale): the head rule, the wall, a point one checker holds, no bar, no cube."""

from __future__ import annotations

import pytest
from django.utils import translation

import games.rules as rules
from games.rules import LONG_NARDY, Dice, NardyPosition, RulesError, resolve_play
from matches.api import messages

START = LONG_NARDY.starting()


def _position(mine: dict[int, int], theirs: dict[int, int]) -> NardyPosition:
    board = [0] * 24
    for point, n in mine.items():
        board[point - 1] = n
    for point, n in theirs.items():
        board[point - 1] = -n
    return NardyPosition(tuple(board))


def nardy_refusals() -> list[RulesError]:
    wall = _position({24: 9, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1, 14: 1}, {12: 15})
    held = _position({24: 14, 20: 1}, {12: 14, 18: 1})
    settings = rules.MatchSettings(game=rules.Variant.LONG_NARDY, length=3)
    state = rules.MatchState.new(settings)
    rolled = rules.apply(rules.apply(state, rules.OpeningRoll(5, 2)), rules.Roll(0, Dice.of(3, 1)))
    attempts = [
        lambda: resolve_play(START, Dice.of(3, 1), "24/21 24/23"),  # one from the head
        lambda: resolve_play(START, Dice.of(6, 6), "24/18(2)"),  # not the first turn
        lambda: resolve_play(wall, Dice.of(6, 5), "19/13 24/19"),  # the wall
        lambda: resolve_play(held, Dice.of(2, 1), "20/18 24/23"),  # one checker holds 18
        lambda: resolve_play(START, Dice.of(2, 1), "bar/23 24/22"),  # no bar
        lambda: rules.apply(state, rules.Double(0)),
        lambda: rules.apply(rolled, rules.Resign(0, 3)),
        lambda: rules.MatchSettings(game=rules.Variant.LONG_NARDY, cube=True).check(),
        lambda: rules.MatchSettings(game=rules.Variant.LONG_NARDY, jacoby=True).check(),
    ]
    errors = []
    for attempt in attempts:
        with pytest.raises(RulesError) as caught:
            attempt()
        errors.append(caught.value)
    return errors


def test_every_long_nardy_refusal_has_a_template() -> None:
    codes = []
    for exc in nardy_refusals():
        found = messages.reason_of(exc)
        assert found is not None, f"no template explains {str(exc)!r}"
        code, params = found
        assert messages.TEMPLATES[code] % params == str(exc)
        codes.append(code)
    assert {"nardy_head", "nardy_no_cube", "nardy_resign_value", "nardy_no_jacoby"} <= set(codes)
    assert {"nardy_wall", "nardy_wall_example"} & set(codes)


@pytest.mark.parametrize("language", ["sr-latn", "tr"])
def test_long_nardys_refusals_read_in_every_language(language: str) -> None:
    with translation.override(language):
        for exc in nardy_refusals():
            assert messages.say(exc) != str(exc), (language, str(exc))
