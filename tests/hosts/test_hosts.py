"""Several hosts, one of them killed (deploy/README.md "Several hosts: the tested configuration").

Runs benchmarks/hosts.py, shortened: network namespaces for a data host (PostgreSQL and Redis
of its own), two web hosts (web process and Celery worker each), an HAProxy balancer with
deploy/haproxy.cfg and 28 playing clients; web1 is killed (link cut, processes SIGKILLed)
in the middle. The script checks everything itself and exits 1 on any failure; this test also
reads its report, so a check that stopped measuring (no client on the dead host, no task held
by the dead worker) fails here too. Needs root, iproute2, haproxy, redis-server and PostgreSQL's
binaries: .ci/run installs them; under CI a missing one fails (tests/conftest.py).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "benchmarks" / "hosts.py"


def missing() -> str | None:
    if os.geteuid() != 0:
        return "needs root (network namespaces)"
    for tool in ("ip", "haproxy", "redis-server", "runuser"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if not glob.glob("/usr/lib/postgresql/*/bin/postgres"):
        return "no PostgreSQL binaries in /usr/lib/postgresql/*/bin"
    probe = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"ip netns does not work here: {probe.stderr.strip()}"
    return None


def test_a_web_host_killed_under_play_loses_nothing() -> None:
    reason = missing()
    if reason:
        pytest.skip(reason)
    command = [sys.executable, str(SCRIPT), "--clients", "28", "--seconds", "45", "--think", "1",
               "--kill-at", "0.4", "--web-concurrency", "1", "--settle", "40"]  # fmt: skip
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:  # fmt: skip
        try:
            stdout, stderr = proc.communicate(timeout=420)
        except subprocess.TimeoutExpired:
            proc.terminate()  # SIGTERM: the script removes its hosts before it exits
            stdout, stderr = proc.communicate(timeout=60)
    result = subprocess.CompletedProcess(command, proc.returncode, stdout, stderr)
    assert result.stdout, result.stderr[-3000:]
    report = json.loads(result.stdout)
    assert result.returncode == 0 and report["ok"], (report.get("failures"), result.stderr[-3000:])
    # What the checks stand on actually happened:
    assert report["commands"]["acknowledged"] > 100
    assert report["commands"]["wrong_or_missing"] == 0
    assert report["commands"]["stored_without_ack"] == 0
    assert report["events"]["gaps"] == report["events"]["duplicates"] == 0
    assert report["resume"]["clients_on_dead_host"] >= 3
    assert report["resume"]["since_kill_s"]["n"] == report["resume"]["clients_on_dead_host"]
    assert report["resume"]["sockets_after_kill_on_other_server"] == 0
    computer = [p for p in report["dead_worker"]["picked_up"] if p["task"] == "computer"]
    assert computer and all(p["played_after_kill_s"] is not None for p in computer)
    assert report["stallers_timed_out_after_kill_s"], "no clocked match timed out after the kill"
    assert report["client_addresses_seen"] == 28  # X-Forwarded-For: each client's own address
    # nothing of the run is left behind
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert f"tavla-{report['run']}-" not in listed
