#!/usr/bin/env bash
# Benchmark (not a test) of reading per-request records (issues 30 and 56): writes two seeded
# folders of vLLM --save-detailed results (scripts/gen-detailed.py; kept in the target folder for
# the next run): the README's, 10 levels of 2,000 requests of 1,024 output tokens with their texts
# (541.6 MB), and one of full-precision latencies, 10 levels of 1,000 requests with empty texts
# (221.4 MB); builds the command line for speed (the `cli` profile) and, unless BENCH_BUILT=1
# (scripts/bench.sh has built it), the page's release bundle; puts numpy in a virtual
# environment for the Python reference, then runs scripts/bench-records.mjs. Prints a table of
# each figure beside its budget and one JSON line (also written to target/bench-records.json);
# exits 1 when a budget is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
target="${CARGO_TARGET_DIR:-target}"
out="$target/bench-records"
generate() {
    local folder="$out/$1"
    shift
    if [ ! -f "$folder/.complete" ]; then
        rm -rf "$folder"
        python3 scripts/gen-detailed.py "$folder" "$@"
        touch "$folder/.complete"
    fi
}
generate detailed
generate floats --requests 1000 --empty-texts
if [ ! -x "$out/venv/bin/python" ] || ! "$out/venv/bin/python" -c 'import numpy' 2>/dev/null; then
    python3 -m venv "$out/venv"
    "$out/venv/bin/pip" install --quiet numpy
fi
cargo build --locked --profile cli -p llm-slo-planner-cli
if [ "${BENCH_BUILT:-}" != 1 ]; then
    bash scripts/wasm.sh trunk build --release
fi
node scripts/bench-records.mjs "$target/cli/llm-slo-planner" "$out/venv/bin/python" "$out/detailed" "$out/floats"
