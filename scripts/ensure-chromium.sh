#!/usr/bin/env bash
# Browser tests drive Debian's Chromium at /usr/bin/chromium (never a downloaded browser build).
# Install it when it is missing and we may (root with apt); otherwise say what to do.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q chromium >/dev/null
  exit 0
fi
echo "The browser tests need /usr/bin/chromium: run 'sudo apt-get install chromium'." >&2
exit 1
