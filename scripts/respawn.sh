#!/usr/bin/env bash
# Run a command and start it again whenever it exits: `make run`'s supervisor for the worker and the sweep loop
# (in production systemd does this: deploy/systemd/, Restart=always). SIGTERM or SIGINT stop the command and
# this loop. Usage: scripts/respawn.sh COMMAND [ARGS...]
set -u
stop() {
  trap - TERM INT
  # $! is set when the command is started, before a trap can run: the command, or the pause after it.
  [ -n "${!:-}" ] && kill -TERM "$!" 2>/dev/null
  wait
  exit 0
}
trap stop TERM INT
while true; do
  "$@" &
  wait "$!"
  echo "respawn: '$*' exited with status $?; starting it again in 1 s" >&2
  sleep 1 &
  wait "$!"
done
