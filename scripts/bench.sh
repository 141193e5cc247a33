#!/usr/bin/env bash
# Benchmark (not a test): builds the release bundle, runs the native criterion benchmark of the
# planning core, then measures the page in headless Chromium. Prints a readable table and one
# JSON line (also written to target/bench.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
bash scripts/wasm.sh trunk build --release
cargo bench --bench planning -- --noplot --sample-size 20 --measurement-time 5 2>&1 | tee target/criterion.txt
node scripts/bench.mjs target/criterion.txt
