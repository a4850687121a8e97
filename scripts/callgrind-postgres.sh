#!/usr/bin/env bash
# A throwaway PostgreSQL cluster run under valgrind's callgrind, for bench/pg-instructions.ts:
# every backend writes its instruction counts to $DIR/out/cg.<pid> when it exits. Diagnostic
# only (valgrind slows the server ~50×); needs valgrind and the server's binaries.
#   bash scripts/callgrind-postgres.sh start   # cluster on 127.0.0.1:5499
#   bash scripts/callgrind-postgres.sh stop    # stops it and removes its files
# CALLGRIND_PG_FLAGS adds server flags. Each statement's share of a purchase (its time under
# valgrind follows its instructions): start with pg_stat_statements loaded, CREATE EXTENSION
# pg_stat_statements in the postgres database, run the bench, then read the view there (with
# one buyer, CG_BUYERS=1, the workers' batched statements run once a purchase: dearer-looking).
#   CALLGRIND_PG_FLAGS='-c shared_preload_libraries=pg_stat_statements
#     -c pg_stat_statements.track=all' bash scripts/callgrind-postgres.sh start
set -euo pipefail
DIR=${CALLGRIND_ROOT:-/tmp/vitrine-callgrind}
PORT=${CALLGRIND_PORT:-5499}
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
# PostgreSQL refuses to run as root.
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
  start)
    mkdir -p "$DIR/out"
    [ "$(id -u)" = 0 ] && chown -R postgres "$DIR"
    [ -d "$DIR/data" ] || as_postgres "$BIN/initdb" -D "$DIR/data" -A trust -U postgres >/dev/null
    # The machine server's settings that matter here (autovacuum off, as on this workplace's).
    as_postgres nohup valgrind --tool=callgrind --trace-children=yes --dump-instr=no \
      --callgrind-out-file="$DIR/out/cg.%p" \
      "$BIN/postgres" -D "$DIR/data" -p "$PORT" -k "$DIR" -c listen_addresses=127.0.0.1 \
      -c autovacuum=off ${CALLGRIND_PG_FLAGS:-} >"$DIR/server.log" 2>&1 &
    for _ in $(seq 60); do
      if pg_isready -q -h 127.0.0.1 -p "$PORT"; then
        echo "postgres://postgres@127.0.0.1:$PORT/postgres"
        exit 0
      fi
      sleep 1
    done
    echo "the cluster did not start: $DIR/server.log" >&2
    exit 1
    ;;
  stop)
    as_postgres "$BIN/pg_ctl" -D "$DIR/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
