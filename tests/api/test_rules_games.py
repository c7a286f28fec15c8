"""GET /rules/games: each game's board facts, as the rules engine's games have them."""

from __future__ import annotations

from rest_framework.test import APIClient

from games.rules import GAMES, LONG_NARDY, TAVLA


def test_the_games_and_their_boards_facts() -> None:
    r = APIClient().get("/api/v1/rules/games")
    assert r.status_code == 200, r.content
    games = {g["game"]: g for g in r.json()["games"]}
    assert list(games) == [g.name for g in GAMES.values()] == ["tavla", "long-nardy"]
    tavla, nardy = games["tavla"], games["long-nardy"]
    assert tavla["bar"] and not nardy["bar"]
    assert tavla["heads"] is None and nardy["heads"] == [24, 12]
    assert (tavla["direction"], nardy["direction"]) == ("opposite", "same")
    assert tavla["start"] == list(TAVLA.starting().board)
    assert nardy["start"][23] == 15 and nardy["start"][11] == -15
    assert nardy["start"] == list(LONG_NARDY.starting().board)
    assert (tavla["closed_by"], nardy["closed_by"]) == (2, 1)
    assert not tavla["head_rule"] and nardy["head_rule"]
    assert (tavla["wall"], nardy["wall"]) == (None, 6)
    assert tavla["cube"] and not nardy["cube"]
    assert tavla["results"] == ["single", "gammon", "backgammon"]
    assert nardy["results"] == ["oyn", "mars"]
    assert (tavla["resign_values"], nardy["resign_values"]) == ([1, 2, 3], [1, 2])
    assert tavla["gnubg_ids"] and not nardy["gnubg_ids"]
    assert tavla["opening_dice_played"] and not nardy["opening_dice_played"]
