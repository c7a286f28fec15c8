"""No module of `games` or `matches` imports itself back, however indirectly: the import graph
is drawn from every import statement of every module (those inside functions and under
`if TYPE_CHECKING:` included, which import-linter's layers in test_architecture.py do not
see), and it must have no cycle. And outside the rules engine nobody asks a position's type:
what differs between the games is asked of the game (games/rules/variant.py)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "matches")
POSITION_TYPES = {"Position", "NardyPosition"}


def modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module by its dotted name (a package by its own name), migrations left out."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that the module `name` imports anywhere in its code: for
    `from p import x` the submodule p.x when it is one, else p."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                targets.add(sub if sub in known else module)
    edges = set()
    for target in targets:
        while target and target not in known:  # a name inside a module: that module
            target = target.rpartition(".")[0]
        if target and target != name:
            edges.add(target)
    return edges


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {name: imported(name, path, known) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_finder_sees_a_cycle_through_an_import_inside_a_function(tmp_path: Path) -> None:
    pkg = tmp_path / "games"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("x = 1\n\ndef late():\n    from games import c\n")
    (pkg / "c.py").write_text("from . import a\n")
    (pkg / "d.py").write_text("import games.a\n")
    graph = import_graph(tmp_path, ("games",))
    assert graph["games.b"] == {"games.c"} and graph["games.d"] == {"games.a"}
    assert cycles(graph) == [["games.a", "games.b", "games.c"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package: str) -> None:
    graph = import_graph()
    assert len(graph) > 30 and any(graph.values())
    assert [c for c in cycles(graph) if any(m.split(".")[0] == package for m in c)] == []


def _names(node: ast.expr) -> set[str]:
    """The names an isinstance/type check compares with (a tuple's, `rules.X`'s X)."""
    if isinstance(node, ast.Tuple):
        return set().union(*(_names(e) for e in node.elts))
    if isinstance(node, ast.BinOp):  # X | Y
        return _names(node.left) | _names(node.right)
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.Name):
        return {node.id}
    return set()


def position_type_checks(path: Path) -> list[int]:
    """The lines where `path` asks whether a value is a (long nardy) position by its type."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            checked = node.func.id in ("isinstance", "issubclass") and len(node.args) == 2
            if checked and _names(node.args[1]) & POSITION_TYPES:
                lines.append(node.lineno)
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            typed = any(
                isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id == "type"
                for s in sides
            )
            if typed and set().union(*(_names(s) for s in sides)) & POSITION_TYPES:
                lines.append(node.lineno)
    return lines


def test_the_scan_finds_a_position_type_check(tmp_path: Path) -> None:
    code = tmp_path / "x.py"
    code.write_text(
        "a = isinstance(p, rules.NardyPosition)\nb = type(p) is Position\n"
        "c = isinstance(p, (int, NardyPosition))\nd = isinstance(p, int)\n"
    )
    assert position_type_checks(code) == [1, 2, 3]


def test_outside_the_rules_no_code_asks_a_positions_type() -> None:
    rules = ROOT / "games" / "rules"
    found = {
        str(path.relative_to(ROOT)): lines
        for path in modules().values()
        if rules not in path.parents and (lines := position_type_checks(path))
    }
    assert found == {}
