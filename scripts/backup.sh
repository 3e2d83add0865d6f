#!/usr/bin/env bash
# A backup of the shop's PostgreSQL database: `pg_dump --format=custom` (compressed; pg_restore reads it table by
# table), named by the UTC time it started, written beside the earlier ones, encrypted with age when recipients
# are given. deploy/backup.md says where to keep the files, for how long, and how to restore one
# (scripts/restore.sh).
#
# Usage: scripts/backup.sh [DATABASE_URL]
#   DATABASE_URL          the database to dump: the argument, else the environment (a libpq URL; keep the
#                         password in ~/.pgpass or PGPASSFILE rather than in the URL, which `ps` shows)
#   BACKUP_DIR            where the dumps go (default /var/backups/gpurent; created, mode 700)
#   BACKUP_KEEP_DAYS      after a good dump, dumps in BACKUP_DIR older than this many days are deleted
#                         (default 14; 0 keeps every one)
#   BACKUP_AGE_RECIPIENTS a file of age public keys (one a line): the dump is encrypted to them and written as
#                         gpurent-….dump.age; the plain dump never stays on disk. Unset: a plain gpurent-….dump.
# Prints the new file's path. On any failure it exits non-zero and leaves no file named like a dump: the dump is
# written as NAME.partial, read back (pg_restore --list), encrypted if asked, and only then renamed, so a copy
# job that takes gpurent-*.dump* never ships half a dump, and nothing old is deleted unless the new one is good.
set -euo pipefail

url="${1:-${DATABASE_URL:-}}"
if [ -z "$url" ]; then
  echo "backup.sh: no database: pass DATABASE_URL as the argument or set it in the environment" >&2
  exit 2
fi
dir="${BACKUP_DIR:-/var/backups/gpurent}"
keep="${BACKUP_KEEP_DAYS:-14}"
recipients="${BACKUP_AGE_RECIPIENTS:-}"
if ! [[ "$keep" =~ ^[0-9]+$ ]]; then
  echo "backup.sh: BACKUP_KEEP_DAYS must be a whole number of days, not '$keep'" >&2
  exit 2
fi
if [ -n "$recipients" ] && [ ! -r "$recipients" ]; then
  echo "backup.sh: cannot read the age recipients file $recipients" >&2
  exit 2
fi

umask 077  # the dump holds every customer's data: readable by the backup's owner only
mkdir -p "$dir"
final="$dir/gpurent-$(date -u +%Y%m%dT%H%M%SZ).dump"
[ -z "$recipients" ] || final="$final.age"
if [ -e "$final" ]; then
  echo "backup.sh: $final already exists (two backups in one second?)" >&2
  exit 1
fi
partial="$final.partial"
plain="$final.plain.partial"
trap 'rm -f "$partial" "$plain"' EXIT

# --no-password: never wait for a prompt (a timer has no terminal). One consistent snapshot of the database,
# taken while the shop serves: pg_dump reads in a repeatable-read transaction and blocks no writer.
pg_dump --format=custom --no-password --file="$plain" --dbname="$url"
pg_restore --list "$plain" > /dev/null
if [ -n "$recipients" ]; then
  age --encrypt --recipients-file "$recipients" --output "$partial" "$plain"
  rm -f "$plain"
else
  mv "$plain" "$partial"
fi
mv "$partial" "$final"
trap - EXIT

if [ "$keep" -gt 0 ]; then
  find "$dir" -maxdepth 1 -type f \( -name 'gpurent-*.dump' -o -name 'gpurent-*.dump.age' \) -mtime +"$keep" -delete
fi
echo "$final"
