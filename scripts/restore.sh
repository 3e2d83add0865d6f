#!/usr/bin/env bash
# Restore a dump made by scripts/backup.sh into a fresh database: one that does not exist yet (created here) or
# exists and is empty. It refuses a database that holds any table, so it can never overwrite the live one.
# deploy/backup.md has the whole procedure (check the restored copy, then point the shop at it).
#
# Usage: scripts/restore.sh DUMP TARGET_DATABASE_URL
#   DUMP                 a gpurent-*.dump file (pg_dump's custom format), or gpurent-*.dump.age (encrypted by
#                        backup.sh): then AGE_IDENTITY names the age private key file that decrypts it
#   TARGET_DATABASE_URL  postgres://USER@HOST:PORT/NEW_NAME (libpq URL; password in ~/.pgpass or PGPASSFILE).
#                        To create NEW_NAME, USER needs CREATEDB; otherwise create it first, owned by the shop's
#                        role (createdb -O gpurent NEW_NAME), and restore as that role.
# The restore is one transaction (all or nothing), objects are owned by USER (--no-owner; the dump's GRANTs are
# skipped), and the tables are analysed afterwards so the planner has statistics before the shop uses them.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: scripts/restore.sh DUMP TARGET_DATABASE_URL" >&2
  exit 2
fi
dump="$1" target="$2"
if [ ! -r "$dump" ]; then
  echo "restore.sh: cannot read $dump" >&2
  exit 2
fi
if [[ "$dump" == *.age ]]; then
  if [ -z "${AGE_IDENTITY:-}" ] || [ ! -r "$AGE_IDENTITY" ]; then
    echo "restore.sh: $dump is encrypted: set AGE_IDENTITY to the age private key file that decrypts it" >&2
    exit 2
  fi
  umask 077
  decrypted="$(mktemp "${TMPDIR:-/tmp}/gpurent-restore.XXXXXX")"
  trap 'rm -f "$decrypted"' EXIT
  age --decrypt --identity "$AGE_IDENTITY" --output "$decrypted" "$dump"
  dump="$decrypted"
fi
if ! pg_restore --list "$dump" > /dev/null; then
  echo "restore.sh: $1 is not a dump in pg_dump's custom format" >&2
  exit 2
fi

# The target URL without its query (?sslmode=...), split into the server and the database's name; the server's
# `postgres` database (same user, same query) is where the new database is created.
base="${target%%\?*}"
query="${target:${#base}}"
name="${base##*/}"
server="${base%/*}"
if [ -z "$name" ] || [ "$server" = "$base" ] || [[ "$server" != *://* ]]; then
  echo "restore.sh: TARGET_DATABASE_URL must name a database: postgres://USER@HOST:PORT/NAME" >&2
  exit 2
fi
maintenance="$server/postgres$query"

psql_value() {  # psql_value URL SQL: the single value a query returns; :'name' and :"name" are the target's name
  psql --no-psqlrc --no-password --quiet --tuples-only --no-align -v ON_ERROR_STOP=1 -v name="$name" "$1" <<< "$2"
}

if [ -z "$(psql_value "$maintenance" "SELECT 1 FROM pg_database WHERE datname = :'name'")" ]; then
  psql_value "$maintenance" 'CREATE DATABASE :"name"' > /dev/null
  echo "restore.sh: created database $name" >&2
fi
relations="$(psql_value "$target" "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'")"
if [ "$relations" != 0 ]; then
  echo "restore.sh: database $name is not empty ($relations relations): restore into a fresh database only" >&2
  exit 1
fi

pg_restore --exit-on-error --single-transaction --no-owner --no-acl --no-password --dbname="$target" "$dump"
psql_value "$target" 'ANALYZE' > /dev/null
echo "restore.sh: restored $1 into $name" >&2
