"""The public face of the rules engine: `games.rules` and its `__all__`.

Code outside games/rules imports only names in `games.rules.__all__`, and only from
`games.rules` itself: never a submodule (`games.rules.plays`, ...), never a submodule as a
module (`from games.rules import match`). An AST scan of every import statement checks it.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import games.rules

ROOT = Path(__file__).resolve().parent.parent.parent
FACADE = set(games.rules.__all__)
SUBMODULES = {info.name for info in pkgutil.iter_modules(games.rules.__path__)}


def facade_violations(package: Path, root: Path = ROOT) -> list[str]:
    """Every import of the rules engine under `package` that goes past the facade."""
    found = []
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(root)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.level:  # relative imports stay inside their own package
                    continue
                if node.module.startswith("games.rules."):
                    found.append(f"{where}:{node.lineno}: from {node.module} import ...")
                elif node.module == "games.rules":
                    found += [
                        f"{where}:{node.lineno}: {alias.name} is not in games.rules.__all__"
                        for alias in node.names
                        if alias.name not in FACADE
                    ]
                elif node.module == "games":
                    found += [
                        f"{where}:{node.lineno}: from games import rules (use its names)"
                        for alias in node.names
                        if alias.name == "rules"
                    ]
            elif isinstance(node, ast.Import):
                found += [
                    f"{where}:{node.lineno}: import {alias.name}"
                    for alias in node.names
                    if alias.name.startswith("games.rules.")
                ]
    return found


def test_games_bots_uses_only_the_facade() -> None:
    assert facade_violations(ROOT / "games" / "bots") == []


def test_matches_uses_only_the_facade() -> None:
    assert facade_violations(ROOT / "matches") == []


def test_the_scan_finds_every_kind_of_reaching_in(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text(
        "from games.rules import Position, legal_plays\n"  # fine
        "from games.rules.plays import to_array\n"
        "from games.rules import match as rules\n"
        "import games.rules.position\n"
        "from games import rules\n"
        "from . import sibling\n"  # fine
    )
    found = facade_violations(package, root=tmp_path)
    assert [line.split(": ", 1)[0] for line in found] == [
        "pkg/a.py:2",
        "pkg/a.py:3",
        "pkg/a.py:4",
        "pkg/a.py:5",
    ]


def test_all_names_exist_and_none_is_a_module() -> None:
    for name in games.rules.__all__:
        assert hasattr(games.rules, name), name
        assert not isinstance(getattr(games.rules, name), ModuleType), name
    assert len(games.rules.__all__) == len(FACADE)


def test_what_the_django_side_uses_today_is_exported() -> None:
    """Every name matches/ imports from the rules engine today (through submodules too), or
    its replacement, is in the facade, so the switch is a change of import lines."""
    replaced = {
        "MAX_LENGTH": "MAX_MATCH_LENGTH",
        "to_array": "apply_steps",
        "from_array": "apply_steps",
        "apply_step": "apply_steps",
        "match": None,  # `from games.rules import match as rules`: its names, below
    }
    used: set[str] = set()
    for path in sorted((ROOT / "matches").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.rules"):
                used |= {alias.name for alias in node.names}
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "rules"
            ):
                used.add(node.attr)
    assert used, "the scan found nothing: matches/ moved?"
    missing = []
    for name in sorted(used):
        target = replaced.get(name, name)
        if target is not None and target not in FACADE:
            missing.append(name)
    assert missing == []


def test_the_facade_is_a_re_export() -> None:
    """Each facade name is the very object a submodule defines under that name (no copies,
    no wrappers)."""
    modules = [importlib.import_module(f"games.rules.{m}") for m in SUBMODULES - {"__main__"}]
    for name in FACADE:
        value = getattr(games.rules, name)
        assert any(vars(m).get(name) is value for m in modules), name


# -- the array form for fast callers ---------------------------------------------------------


def _corpus() -> list[dict]:
    import json

    path = ROOT / "tests" / "data" / "moves-public.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_successor_arrays_are_the_results_of_legal_plays() -> None:
    from games.rules import (
        Dice,
        Position,
        board_array,
        legal_plays,
        position_from_array,
        successor_arrays,
    )

    for case in _corpus()[::3]:
        position = Position.from_json(case["position"])
        high, low = case["dice"]
        array = board_array(position)
        found = successor_arrays(array, high, low)
        assert array == board_array(position)  # untouched
        assert isinstance(found, list) and len(set(found)) == len(found)
        assert successor_arrays(array, low, high) == found  # either order
        plays = legal_plays(position, Dice.of(high, low))
        assert {tuple(board_array(p.result)) for p in plays} == set(found)
        assert {position_from_array(key).board for key in found} == {p.result.board for p in plays}


def test_array_form_round_trips() -> None:
    from games.rules import Position, board_array, flipped_array, position_from_array

    for case in _corpus()[::7]:
        position = Position.from_json(case["position"])
        array = board_array(position)
        assert len(array) == 26
        assert position_from_array(array) == position
        assert position_from_array(flipped_array(array)) == position.flipped()
        assert flipped_array(flipped_array(array)) == array


def test_apply_steps_moves_and_hits_without_judging() -> None:
    from games.rules import Position, Step, apply_steps

    start = Position.starting()
    after = apply_steps(start, [Step(24, 18), (13, 11)])
    assert after.board[17] == 1 and after.board[10] == 1 and after.board[23] == 1
    hit = apply_steps(Position((-1, *([0] * 22), 15)), [(24, 1)])  # lands on a blot
    assert hit.bar == (0, 1) and hit.board[0] == 1
    # Not judged: a step no die allows is still shown.
    assert apply_steps(start, [(24, 2)]).board[1] == 1
