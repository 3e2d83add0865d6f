#!/usr/bin/env bash
# The chain watcher tests (pytest -m chain_node) run against real local nodes:
# - Litecoin Core in regtest: Debian's `litecoind` package (bookworm main, 0.21.x);
# - ganache (a local Ethereum node) and solc (the Solidity compiler), from npm into tools/chain-nodes.
# Install what is missing when we may (root with apt; npm on the PATH); otherwise say what to do. The tests
# skip with that reason when a node is still missing, so `make test` passes on a machine that has neither.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v litecoind >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's litecoind for the chain watcher tests..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null && apt-get install -y -q litecoind >/dev/null \
      || echo "Could not install litecoind: the Litecoin node tests will be skipped." >&2
  else
    echo "The Litecoin node tests need litecoind: run 'sudo apt-get install litecoind'." >&2
  fi
fi
if [ ! -x tools/chain-nodes/node_modules/.bin/ganache ] || [ ! -f tools/chain-nodes/node_modules/solc/soljson.js ]; then
  if command -v npm >/dev/null; then
    echo "Installing ganache and solc (npm, into tools/chain-nodes) for the Ethereum watcher tests..."
    (cd tools/chain-nodes && npm ci --no-audit --no-fund --loglevel=error >/dev/null) \
      || echo "Could not install ganache/solc: the Ethereum node tests will be skipped." >&2
  else
    echo "The Ethereum node tests need Node.js and npm: run 'sudo apt-get install nodejs npm'." >&2
  fi
fi
exit 0
