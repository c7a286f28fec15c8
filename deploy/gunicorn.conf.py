"""gunicorn settings, overridable by environment: BIND (or PORT), WEB_CONCURRENCY, WEB_THREADS."""

import os

bind = os.environ.get("BIND") or f"0.0.0.0:{os.environ.get('PORT', '8000')}"
# Sync workers with a few threads: requests are short DB transactions; long-polls (API) hold a
# thread, so raise WEB_THREADS rather than processes when many clients wait.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 20
keepalive = 5
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
