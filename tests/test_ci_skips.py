"""Under CI a skipped test fails the run (tests/conftest.py); elsewhere a skip is a skip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SAMPLE = """
import pytest

def test_needs_a_tool():
    pytest.skip("the tool is not installed")

@pytest.mark.may_skip("documented")
def test_may_skip():
    pytest.skip("allowed")

@pytest.mark.xfail(strict=True)
def test_expected_failure():
    assert False
"""


def run(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("CI", "TAVLA_NO_SKIPS")}
    return subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-p", "no:django", "-p", "no:cacheprovider"),
            *("-q", "-o", "markers=may_skip: allowed", str(folder)),
        ],
        cwd=folder,
        env={**base, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_skip_fails_under_ci_and_only_there(tmp_path: Path) -> None:
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "conftest.py")
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    ci = run(tmp_path, CI="true")
    assert ci.returncode == 1, ci.stdout
    assert "1 failed, 1 skipped, 1 xfailed" in ci.stdout
    assert "test_needs_a_tool was skipped under CI" in ci.stdout
    local = run(tmp_path)
    assert local.returncode == 0, local.stdout
    assert "2 skipped, 1 xfailed" in local.stdout
