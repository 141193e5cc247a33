#!/usr/bin/env bash
# Sets up a fresh machine if needed (toolchain pieces and Chromium), then runs every test:
# formatting and lint gates, native unit and integration tests of the core, then end-to-end specs in headless Chromium
# against the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

echo "== format and lints (cargo fmt --check, clippy native and wasm32, warnings are errors)"
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
# The page's crate only (the command line, cli/, is native); --lib --bins: the dev-dependencies
# (proptest's getrandom) do not build for wasm32.
bash scripts/wasm.sh cargo clippy --locked -p llm-slo-planner --lib --bins --target wasm32-unknown-unknown -- -D warnings

echo "== native tests (cargo test: the core, and the command line's binary run on real files)"
cargo test --locked --workspace

echo "== release build (trunk build --release)"
bash scripts/wasm.sh trunk build --release

echo "== the first load against its budget (brotli -q 11 of what a first visit fetches; exit 1 over it)"
node scripts/first-load.mjs

echo "== end-to-end tests in headless Chromium (node --test)"
node --test --test-concurrency=1 tests/e2e/
