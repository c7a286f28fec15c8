"""`python manage.py import_mat FILE [FILE ...]`: store gnubg .mat match files as matches.

One JSON line per file: {"file", "match_id", "games", "final_score": [left, right], "winner"}
(left = the player in the file's left column, seat 0), or {"file", "error"}; the exit status
is non-zero when any file failed. A failed file leaves nothing behind.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules import RulesError
from matches.interop.importing import import_mat


class Command(BaseCommand):
    help = "Import gnubg .mat match files as matches in the store."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        failed = 0
        for name in options["files"]:
            line = _import_one(name)
            failed += "error" in line
            self.stdout.write(json.dumps(line))
        if failed:
            sys.stdout.flush()
            raise CommandError(f"{failed} of {len(options['files'])} files failed", returncode=1)


def _import_one(name: str) -> dict[str, Any]:
    try:
        text = Path(name).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return {"file": name, "error": f"cannot read the file: {exc.strerror}"}
    try:
        done = import_mat(text)
    except RulesError as exc:
        return {"file": name, "error": str(exc)}
    return {
        "file": name,
        "match_id": done.match_id,
        "games": done.games,
        "final_score": list(done.final_score),
        "winner": done.winner,
    }
