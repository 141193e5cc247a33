#!/usr/bin/env bash
# Benchmark (not a test) of reading per-request records (issue 30): writes a seeded folder of
# vLLM --save-detailed results (scripts/gen-detailed.py, 10 levels of 2,000 requests of 1,024
# output tokens, about 540 MB; kept in target/ for the next run), builds the command line for
# speed (the `cli` profile) and the page's release bundle, puts numpy in a virtual environment
# for the Python reference, then runs scripts/bench-records.mjs. Prints a table and one JSON
# line (also written to target/bench-records.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
out=target/bench-records
if [ ! -f "$out/detailed/.complete" ]; then
    rm -rf "$out/detailed"
    python3 scripts/gen-detailed.py "$out/detailed"
    touch "$out/detailed/.complete"
fi
if [ ! -x "$out/venv/bin/python" ] || ! "$out/venv/bin/python" -c 'import numpy' 2>/dev/null; then
    python3 -m venv "$out/venv"
    "$out/venv/bin/pip" install --quiet numpy
fi
cargo build --locked --profile cli -p llm-slo-planner-cli
bash scripts/wasm.sh trunk build --release
node scripts/bench-records.mjs "$out/detailed" target/cli/llm-slo-planner "$out/venv/bin/python"
