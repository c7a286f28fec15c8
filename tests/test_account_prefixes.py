"""What kind an account is, its profile says (PlayerProfile.Kind); the usernames the site gives
its computer and its guests (`computer-<level>`, `guest-<random>`) are written in one place,
matches/store/models.py (PlayerProfile.COMPUTER_PREFIX, GUEST_PREFIX), and every other use is
built from those. The scan reads every string in the code of games/ and matches/, the parts of
f-strings included; docstrings, comments and migrations (history, frozen as written) are not
code that uses a name."""

from __future__ import annotations

import ast
from pathlib import Path

from matches.store.models import PlayerProfile

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "matches")
PREFIXES = ("computer-", "guest-")
HOME = "matches/store/models.py"
ALLOWED = {
    "matches/api/schema/examples.py": "a sample guest's username shown in the OpenAPI document",
    "matches/api/schema/operations.py": "a sample guest's username shown in the OpenAPI document",
}
"""Files that may write a prefix, each with its reason."""


def prefix_uses(path: Path) -> list[tuple[str, int]]:
    """(prefix, line) of each string in `path`'s code holding one of PREFIXES."""
    tree = ast.parse(path.read_text(), str(path))
    prose = {  # docstrings and other bare strings (attribute docstrings): they do nothing
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return sorted(
        (prefix, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
        for prefix in PREFIXES
        if prefix in node.value
    )


def test_the_scan_finds_a_prefix_in_strings_and_f_strings(tmp_path: Path) -> None:
    code = tmp_path / "x.py"
    code.write_text(
        '"""A docstring may say computer-random."""\n'
        'a = "guest-"\n'
        'b = f"computer-{level}"\n'
        "# a comment may say guest-\n"
        'c = name.startswith(("guest-", "x"))\n'
        "d = PlayerProfile.computer_username(level)\n"
        "def f():\n"
        '    """Nor here: computer-x."""\n'
        '    return "staff-"\n'
    )
    assert prefix_uses(code) == [("computer-", 3), ("guest-", 2), ("guest-", 5)]


def test_the_prefixes_are_written_once() -> None:
    found: dict[str, list[tuple[str, int]]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts and (uses := prefix_uses(path)):
                found[str(path.relative_to(ROOT))] = uses
    outside = {name: uses for name, uses in found.items() if name not in ALLOWED}
    assert list(outside) == [HOME]
    assert [prefix for prefix, _ in outside[HOME]] == sorted(PREFIXES)  # each written once
    assert set(ALLOWED) <= set(found), "an allowed file writes no prefix now: drop it"
    assert (PlayerProfile.COMPUTER_PREFIX, PlayerProfile.GUEST_PREFIX) == PREFIXES
