#!/usr/bin/env bash
# Installs what building and testing need on a fresh machine. Each step is skipped when it is
# already done, so running it again costs seconds.
#   bash scripts/setup.sh            toolchain pieces: wasm32 target, rustfmt, clippy, rust-src, trunk, wasm-bindgen-cli,
#                                    wasm-split-cli,
#                                    wasm-opt (npm binaryen), crates
#   bash scripts/setup.sh --browser  the same, plus Debian's Chromium for the browser tests
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must be exactly the wasm-bindgen version in Cargo.lock.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

rustup target add wasm32-unknown-unknown
# rust-src: the browser build compiles the standard library for the page (scripts/wasm.sh).
rustup component add rustfmt clippy rust-src

if ! trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION"; then
    echo "== installing trunk $TRUNK_VERSION (about 5 minutes on 2 cores)"
    cargo install --locked "trunk@$TRUNK_VERSION"
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
    echo "== installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes)"
    cargo install "wasm-bindgen-cli@$WASM_BINDGEN_VERSION"
fi

# The splitter of the page's WASM (scripts/page-wasm.mjs): the one cargo-leptos `--split` uses.
WASM_SPLIT_VERSION=0.2.4
if ! cargo install --list | grep -q "^wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
    echo "== installing wasm-split-cli $WASM_SPLIT_VERSION (about 3 minutes)"
    cargo install --locked "wasm_split_cli_support@$WASM_SPLIT_VERSION" --features build-binary
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/terser ] || [ ! -d node_modules/esbuild ]; then
    echo "== installing wasm-opt (binaryen 132), terser, esbuild, playwright-core and axe-core from npm"
    npm ci --no-audit --no-fund
fi

cargo fetch --locked
# The standard library's own dependencies, for the browser build (trunk builds offline).
bash scripts/wasm.sh cargo fetch --locked --target wasm32-unknown-unknown

if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
    echo "== installing Debian's Chromium for the browser tests"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
fi
