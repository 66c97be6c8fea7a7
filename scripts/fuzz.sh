#!/usr/bin/env bash
# Fuzzes extraction + tree building (bytes → `index --no-llm` in process) and the GGUF header
# check with libFuzzer (libfuzzer-sys; the coverage flags cargo-fuzz passes, on the stable
# toolchain, no sanitizer), seeded with the hostile corpus. Prints libFuzzer's final stats
# (executions, coverage) and lists any crash inputs, which become regression tests.
#
#   scripts/fuzz.sh [SECONDS_EXTRACT] [SECONDS_GGUF] [SHARED_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
extract_secs="${1:-3600}"
gguf_secs="${2:-300}"
shared="${3:-$root/../shared}"
cache="${NANOINDEX_FUZZ_DIR:-$HOME/.cache/nanoindex-local/fuzz}"
host="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions"
cargo build --release --manifest-path "$root/tests/fuzz/Cargo.toml" \
    --target "$host" --target-dir "$cache/target" --bins
bins="$cache/target/$host/release"

corpus="$cache/corpus/extract_tree"
mkdir -p "$corpus" "$cache/corpus/gguf_header" "$cache/artifacts"
if [ -d "$shared/corpus/hostile" ]; then
    find "$shared/corpus/hostile" -name '*.pdf' -size -256k -exec cp -n {} "$corpus/" \;
fi
if [ -d "$shared/data/fixtures" ]; then
    find "$shared/data/fixtures" -name '*.pdf' -size -256k -exec cp -n {} "$corpus/" \;
fi
printf 'GGUF\003\000\000\000' >"$cache/corpus/gguf_header/seed"

run() {
    local name="$1" secs="$2" max_len="$3"
    echo "== $name for ${secs}s"
    "$bins/$name" "$cache/corpus/$name" -max_total_time="$secs" -max_len="$max_len" \
        -timeout=60 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="$cache/artifacts/$name-" 2>&1 |
        grep -E "^(stat::|#[0-9]+ +DONE|==[0-9]+== ERROR|SUMMARY|Done )" || true
}
run gguf_header "$gguf_secs" 64
run extract_tree "$extract_secs" 262144
echo "== crash inputs (each becomes a regression test):"
ls -l "$cache/artifacts" 2>/dev/null | tail -n +2 || true
