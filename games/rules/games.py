"""The games the engine plays, found by name: one `Game` each (variant.py says what one is).

Adding a game: write its module (its Position subclass with its own `variant`, its move
search, its `Game` subclass with the board's facts and refusals), add its name to `Variant`
and its instance here (docs/architecture.md "Adding a game").
"""

from __future__ import annotations

from .errors import InvalidSettings
from .nardy import LongNardy
from .position import Position
from .tavla import Tavla
from .variant import Game, Variant

TAVLA: Game = Tavla()
LONG_NARDY: Game = LongNardy()
GAMES: dict[Variant, Game] = {game.variant: game for game in (TAVLA, LONG_NARDY)}
"""Every game, by its variant (its name)."""
_BY_NAME: dict[str, Game] = {game.variant.value: game for game in GAMES.values()}


def find_game(name: Variant | str) -> Game:
    """The game of this name ("tavla", "long-nardy"); InvalidSettings for no such game."""
    try:
        return GAMES[Variant(name)]
    except ValueError:
        names = ", ".join(v.value for v in Variant)
        raise InvalidSettings.because(
            "no_such_game", "game", games=names, name=repr(name)
        ) from None


def game_of(what: Variant | str | Position | Game) -> Game:
    """The game of a variant (or its name), of a position (its class says: `variant`), or
    the game itself."""
    if isinstance(what, Game):
        return what
    if isinstance(what, Position):
        return _BY_NAME[what.variant]  # the hot path: every legal_plays and resolve_play
    return find_game(what)
