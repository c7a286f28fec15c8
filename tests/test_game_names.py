"""Outside the rules engine nobody asks "is this tavla / long nardy?" by the game's name or by
its `Game` object: what differs between the games is a fact or a method of the game
(games/rules/variant.py, docs/architecture.md "Adding a game"). And the games' names are
written out once beside the rules, in the API's shapes (a Literal, as the OpenAPI schema needs).
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

from games.rules import GAMES
from matches.selectors import shapes

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("games/bots", "matches")
GAME_NAMES = {"tavla", "long-nardy"}
GAME_OBJECTS = {"TAVLA", "LONG_NARDY"}  # games.rules' games, and Variant's members
ALLOWED = {
    "games/bots/__main__.py": "the benchmark players (pubeval, gnubg) play tavla only",
}
"""Files that may still compare a game's name, each with its reason."""


def _names_a_game(node: ast.AST) -> bool:
    """Whether the expression is a game's name or game: "tavla", TAVLA, rules.TAVLA,
    Variant.LONG_NARDY(.value), or a tuple/list/set holding one."""
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(e) for e in node.elts)
    if isinstance(node, ast.Name):
        return node.id in GAME_OBJECTS
    if isinstance(node, ast.Attribute):
        return node.attr in GAME_OBJECTS or (node.attr == "value" and _names_a_game(node.value))
    return False


def game_comparisons(path: Path) -> list[int]:
    """The lines where `path` compares something with a game's name or game (==, !=, is,
    is not, in, not in)."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Compare)
        and any(_names_a_game(side) for side in (node.left, *node.comparators))
    )


def test_the_scan_finds_a_comparison_with_a_game(tmp_path: Path) -> None:
    code = tmp_path / "x.py"
    code.write_text(
        'a = game == "long-nardy"\n'
        "b = state.game is rules.TAVLA\n"
        "c = request.game != Variant.LONG_NARDY.value\n"
        'd = name in ("tavla", "x")\n'
        "e = LONG_NARDY is not game\n"
        'f = LEVELS["tavla"]\n'  # a registry keyed by name compares nothing
        "g = game.has_cube\n"
    )
    assert game_comparisons(code) == [1, 2, 3, 4, 5]


def test_outside_the_rules_no_code_compares_a_game() -> None:
    found = {}
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            if lines := game_comparisons(path):
                found[str(path.relative_to(ROOT))] = lines
    assert {name: lines for name, lines in found.items() if name not in ALLOWED} == {}
    assert set(ALLOWED) <= set(found), "an allowed file compares no game now: drop it"


def test_the_api_names_the_rules_games() -> None:
    assert set(typing.get_args(shapes.Game)) == {game.name for game in GAMES.values()}
