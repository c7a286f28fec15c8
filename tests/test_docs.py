"""The README and docs/ link only to files in the repository, and every link resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "deploy" / "README.md"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_stay_in_the_repository(page: Path) -> None:
    text = page.read_text()
    for target in LINK.findall(text):
        assert not re.match(r"[a-z]+:", target), f"{page.name}: {target} leaves the repository"
        path = target.split("#", 1)[0]
        if not path:
            continue
        resolved = (page.parent / path).resolve()
        assert resolved.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"
        assert resolved.exists(), f"{page.name}: {target} does not exist"


def test_the_readme_opens_with_the_two_commands() -> None:
    head = (ROOT / "README.md").read_text().split("```")[1]
    commands = [line.split("#")[0].strip() for line in head.splitlines()[1:] if line.strip()]
    assert commands == ["make run", "make test"]
