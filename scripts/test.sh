#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it (README: "Run the tests").
# Formatting, lints as errors (also of the engine built with --no-default-features), docs
# without warnings, then every test of the workspace (expected-output files under
# crates/nanoindex/tests/expected are checked, never rewritten: UPDATE_EXPECT is cleared).
# Tests that need ../shared or the models skip with a reason outside CI; with CI=true they must run.
set -euo pipefail
cd "$(dirname "$0")/.."
export NANOINDEX_THREADS="${NANOINDEX_THREADS:-1}"
unset UPDATE_EXPECT
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
# The engine without its optional parts (no backends, no download code) builds clean.
cargo clippy -p nanoindex --no-default-features -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
cargo test --workspace
