#!/usr/bin/env bash
# Sets up a fresh machine if needed, builds the release bundle and serves it on
# http://127.0.0.1:8080 (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# No auto-reload: its inline script would change after the CSP hook hashed it.
exec bash scripts/wasm.sh trunk serve --release --no-autoreload --address 127.0.0.1 --port "${PORT:-8080}"
