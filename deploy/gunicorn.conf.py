"""gunicorn settings, overridable by environment: BIND (or PORT), WEB_CONCURRENCY, WEB_THREADS,
WEB_TIMEOUT, WEB_GC_FULL_EVERY.

ASGI: each worker process is one uvicorn event loop (tavla_project/uvicorn_worker.py) serving
WebSockets, Server-Sent Events and the long-poll as coroutines (a waiting client holds no
thread), and ordinary requests in a pool of WEB_THREADS threads (tavla_project/asgi.py). Run
about one worker per core (deploy/README.md explains the choice over daphne).
"""

import os

bind = os.environ.get("BIND") or f"0.0.0.0:{os.environ.get('PORT', '8000')}"
worker_class = "tavla_project.uvicorn_worker.Worker"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 20
keepalive = 5
accesslog = "-"
errorlog = "-"
# The client's address behind a load balancer: TRUSTED_PROXIES (settings), read by the
# application; the worker ignores forwarded headers (tavla_project/uvicorn_worker.py).
# gunicorn >= 24 opens a control socket at one fixed path per user: several servers on one host
# (tests, benchmarks) would fight over it, and nothing here uses it.
control_socket_disable = True


# The collector's full passes: at most one per this many middle-generation passes (CPython's
# default 10). With 2,000 sockets open a web process tracks some 300,000 objects, and a full
# pass over them stopped it for 85 to 240 ms, about every 7 seconds under load: the whole tail
# of push latency (benchmarks/live_bench.py, 200 players and 2,000 watchers: move-to-push p99
# 144-168 ms with 10, 47-56 ms with 100 and no full pass in the 30 s measured). Garbage that
# only a full pass finds (cycles that outlived two passes) waits that much longer.
GC_FULL_EVERY = int(os.environ.get("WEB_GC_FULL_EVERY", "100"))


def post_worker_init(worker: object) -> None:
    """The loaded application (Django, the rules, the network's weights) is never garbage:
    freezing it keeps the collector's full passes short; and they come less often."""
    import gc

    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, GC_FULL_EVERY)


def post_fork(server: object, worker: object) -> None:
    """A worker dies with its master: if the master is killed (SIGKILL, OOM), the kernel sends
    each worker SIGTERM, so no orphaned worker keeps serving on the old socket and the
    supervisor's new master can bind it again (Linux's PR_SET_PDEATHSIG; elsewhere nothing)."""
    import ctypes
    import signal
    import sys

    if sys.platform.startswith("linux"):
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
