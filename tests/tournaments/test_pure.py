"""The tournaments' domain is pure Python: importing all of it loads no part of the service
(the import-linter contract `pure-core` in .importlinter says the same for static imports)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICE = {"django", "rest_framework", "celery", "kombu", "environ", "tavla_project", "psycopg"}

PROBE = """
import importlib, json, pkgutil, sys
import matches.tournaments as package
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(info.name)
print(json.dumps(sorted(sys.modules)))
"""


def test_the_tournaments_domain_imports_nothing_of_the_service() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert "matches.tournaments.swiss" in loaded  # the probe did import the modules
    tops = {name.split(".")[0] for name in loaded}
    assert not tops & SERVICE, f"imports {sorted(tops & SERVICE)}"
    matches = {name for name in loaded if name.startswith("matches.")}
    assert all(name.startswith("matches.tournaments") for name in matches), sorted(matches)
