#!/usr/bin/env bash
# Start web, Celery worker and Celery beat together on this machine; Ctrl-C (or any one of them
# exiting) stops all three. `make run` migrates first and then runs this. Same processes as
# deploy/Procfile, with the embedded defaults (SQLite, filesystem broker) unless the environment
# says otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
BIND=${BIND:-127.0.0.1:8000}

# Gossip, mingle and worker heartbeats broadcast to every worker; on the filesystem broker their
# messages would pile up in var/broker, and one worker does not need them.
WORKER_FLAGS=(--without-gossip --without-mingle --without-heartbeat)

pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping web, worker and beat..."
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
}
trap stop INT TERM EXIT

"$BIN/gunicorn" tavla_project.asgi:application -c deploy/gunicorn.conf.py --bind "$BIND" &
pids+=($!)
"$BIN/celery" -A tavla_project worker --loglevel INFO "${WORKER_FLAGS[@]}" &
pids+=($!)
"$BIN/celery" -A tavla_project beat --loglevel INFO &
pids+=($!)

echo "tavla: web on http://$BIND/ (admin at /admin/), worker and beat running; Ctrl-C stops all"
# Return as soon as any of them exits (then the trap stops the others).
wait -n "${pids[@]}" || true
