"""Dependencies point one way: matches -> games.rules / games.bots, never back (DESIGN.md).

games.rules and games.bots are pure Python: importing every module of them in a fresh
interpreter must not load Django or any part of the service.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICE_PACKAGES = {"django", "rest_framework", "celery", "kombu", "environ", "matches"}
SERVICE_PACKAGES |= {"tavla_project", "psycopg"}
SERVICE_PACKAGES |= {"gnubg"}  # the network's teacher at training time only (benchmarks/distill)

PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    if info.name.rsplit(".", 1)[-1] != "__main__":
        importlib.import_module(info.name)
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


PURE_PACKAGES = [p for p in ("games.rules", "games.bots") if (ROOT / p.replace(".", "/")).is_dir()]


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_packages_import_nothing_of_the_service(package: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, package],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert not loaded & SERVICE_PACKAGES, f"{package} imports {sorted(loaded & SERVICE_PACKAGES)}"


def test_layers_hold() -> None:
    """The import-linter contracts in .importlinter: rules <- bots <- matches core <- delivery."""
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout
