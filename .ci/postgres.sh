#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests: a fresh cluster in a temporary directory, listening on a
# loopback port only, trust authentication, gone when stopped. CI (.ci/run) uses it; so can you:
#
#   eval "$(bash .ci/postgres.sh start)"      # exports WARROOM_TEST_PG and WARROOM_PG_DIR
#   python -m pytest tests/web -q
#   bash .ci/postgres.sh stop "$WARROOM_PG_DIR"
#
# Needs Debian's `postgresql` package (apt-get install postgresql). Run as root, the cluster runs
# as the `postgres` user (PostgreSQL refuses to run as root); otherwise as you.
set -euo pipefail

bin_dir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$found" ] || [ ! -x "$found/initdb" ]; then
    echo "postgres.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2
    exit 1
  fi
  echo "$found"
}

as_owner() {  # run a command as the cluster's owner
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
  local bin dir port
  bin=$(bin_dir)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/warroom-pg.XXXXXX")
  [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
  chmod 700 "$dir"
  port=${1:-$(free_port)}
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2; exit 1; }
  # fsync stays on: the kill -9 tests check that a committed move survives the server process
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-k $dir -p $port -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null || {
    cat "$dir/server.log" >&2; exit 1; }
  echo "export WARROOM_TEST_PG=postgresql://postgres@127.0.0.1:$port/postgres"
  echo "export WARROOM_PG_DIR=$dir"
  echo "# stop it and delete it: bash .ci/postgres.sh stop $dir"
}

stop() {
  local dir=${1:-${WARROOM_PG_DIR:-}}
  if [ -z "$dir" ] || [ ! -d "$dir/data" ]; then
    echo "postgres.sh: no cluster to stop (give the directory start printed as WARROOM_PG_DIR)" >&2
    exit 1
  fi
  as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: bash .ci/postgres.sh start [PORT] | stop DIR" >&2; exit 2 ;;
esac
