#!/usr/bin/env bash
# Benchmark (not a test): builds the release bundle, runs the native criterion benchmark of the
# planning core, measures the page in headless Chromium (scripts/bench.mjs), then reading
# per-request files on the command line and in the page (scripts/bench-records.sh). Each prints
# its figures beside their budgets and one JSON line (target/bench.json,
# target/bench-records.json); exits 1 when a budget is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
bash scripts/wasm.sh trunk build --release
mkdir -p target
cargo bench --bench planning -- --noplot --sample-size 20 --measurement-time 5 2>&1 | tee target/criterion.txt
missed=0
node scripts/bench.mjs target/criterion.txt || missed=1
BENCH_BUILT=1 bash scripts/bench-records.sh || missed=1
if [ "$missed" = 1 ]; then
    echo "bench: a budget was missed (the tables above say which)"
fi
exit "$missed"
