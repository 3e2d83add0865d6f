#!/usr/bin/env bash
# `manage.py` as the shop's user, with the environment file and the production settings (deploy/README.md):
#   /srv/gpurent/deploy/manage.sh migrate --noinput
#   /srv/gpurent/deploy/manage.sh check --deploy --fail-level WARNING
# Run it as root or as the shop's user. GPURENT_ENV names another environment file (default /etc/gpurent/env),
# GPURENT_USER another user (default gpurent).
set -euo pipefail
cd "$(dirname "$0")/.."
env_file=${GPURENT_ENV:-/etc/gpurent/env}
user=${GPURENT_USER:-gpurent}
# The file is systemd's EnvironmentFile format (VAR=value lines, comments, values with spaces in double quotes),
# which bash reads the same way.
run=(bash -c 'set -a && . "$1" && set +a && shift &&
  DJANGO_SETTINGS_MODULE=config.settings.production exec .venv/bin/python manage.py "$@"' manage "$env_file" "$@")
if [ "$(id -un)" = "$user" ]; then
  exec "${run[@]}"
fi
exec runuser -u "$user" -- "${run[@]}"
