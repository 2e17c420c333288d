#!/usr/bin/env bash
# Start a local PostgreSQL for the tests (installing Debian's package when missing) and print its URL.
# Best effort: prints nothing and exits 0 when PostgreSQL cannot be had, so the tests skip saying so.
set -u
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >/dev/null 2>&1 || exit 0
fi
version=$(ls /etc/postgresql | sort -V | tail -n 1)
[ -n "$version" ] || exit 0
pg_ctlcluster "$version" main start >/dev/null 2>&1 || pg_ctlcluster "$version" main status >/dev/null 2>&1 || exit 0
as_postgres() { su postgres -c "psql -qtA -c \"$1\"" 2>/dev/null; }
for _ in 1 2 3 4 5; do as_postgres "SELECT 1" >/dev/null && break; sleep 1; done
[ "$(as_postgres "SELECT 1 FROM pg_roles WHERE rolname='jax_errors_test'")" = 1 ] \
  || as_postgres "CREATE USER jax_errors_test PASSWORD 'jax_errors_test' CREATEDB" >/dev/null || exit 0
echo "postgresql+psycopg://jax_errors_test:jax_errors_test@127.0.0.1/postgres"
