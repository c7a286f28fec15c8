"""gunicorn settings, overridable by environment: BIND (or PORT), WEB_CONCURRENCY, WEB_THREADS,
WEB_TIMEOUT.

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


def post_worker_init(worker: object) -> None:
    """The loaded application (Django, the rules, the network's weights) is never garbage:
    freezing it keeps the collector's full passes short, which cut the tail of push latency
    with thousands of open sockets (benchmarks/live_bench.py)."""
    import gc

    gc.freeze()
