#!/usr/bin/env bash
# Runs a command that builds for the browser (trunk, or cargo with --target wasm32-unknown-unknown)
# with the standard library built from source for the page (`-Zbuild-std`). That lets the
# wasm32 flags in .cargo/config.toml abort on a panic without formatting it
# (`-Cpanic=immediate-abort`) and leave out the file and line of each possible panic
# (`-Zlocation-detail=none`): about 18 KB brotli less page WASM. These are unstable options of
# this machine's one (stable) Rust toolchain, allowed by RUSTC_BOOTSTRAP=1, as the Leptos book's
# size advice and the Linux kernel's Rust build use them; setup.sh adds the rust-src component
# they need. The standard library is built with its `optimize_for_size` feature: smaller
# integer formatting and sorts, float parsing without its fast path, the same results (about
# 2 KB brotli less page WASM, 3 KB less tools module). Native builds (the tests, the command
# line) never use any of this.
set -euo pipefail
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
exec "$@"
