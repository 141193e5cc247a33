#!/usr/bin/env bash
# Sets up a fresh machine if needed (toolchain pieces and Chromium), then runs every test:
# native unit and integration tests of the core, then end-to-end specs in headless Chromium
# against the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

echo "== native tests (cargo test)"
cargo test --locked

echo "== release build (trunk build --release)"
trunk build --release

echo "== end-to-end tests in headless Chromium (node --test)"
node --test --test-concurrency=1 tests/e2e/
