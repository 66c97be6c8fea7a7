#!/usr/bin/env bash
# Load on `ask` with the default model: N questions in a row on one cached document (the
# project's sample 10-K), then 4 concurrent `ask` processes on a document none of them has
# seen (one cache; the entry is locked, so one indexes and the others read it). Prints the
# errors (must be 0), latency percentiles (seconds), peak RSS (MB) and how many of the 4
# indexed the new document (must be 1). NANOINDEX_BIN selects the binary (scripts/lib/cli-bin.sh).
#
#   scripts/bench-load.sh [N] [MODE]      (MODE: fast, the default here, or agentic)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-200}"
mode="${2:-fast}"
cd "$root"
source "$root/scripts/lib/cli-bin.sh"
cargo build -q -p nanoindex-pdf --example make_sample
target="${CARGO_TARGET_DIR:-$root/target}/debug"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export NANOINDEX_CACHE="$work/cache"
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
"$target/examples/make_sample" "$work/sample.pdf" >/dev/null

questions=(
    "What were capital expenditures in 2024?"
    "What was net income in 2023?"
    "Who is the company's auditor?"
    "What were total current liabilities in 2024?"
    "How many employees does the company have?"
)
# Warm the cache once; the timed runs then all read it.
"$bin" ask "$work/sample.pdf" "${questions[0]}" --quiet >/dev/null

errors=0
: >"$work/times"
: >"$work/rss"
for i in $(seq 1 "$n"); do
    q="${questions[$(( (i - 1) % ${#questions[@]} ))]}"
    if ! /usr/bin/time -f "%e %M" -o "$work/one" "$bin" ask "$work/sample.pdf" "$q" --mode "$mode" --json \
        >"$work/out.json" 2>"$work/err"; then
        errors=$((errors + 1))
        head -3 "$work/err" >&2
    elif ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))["content"]' "$work/out.json"; then
        errors=$((errors + 1))
    fi
    read -r secs kb <"$work/one"
    echo "$secs" >>"$work/times"
    echo "$kb" >>"$work/rss"
done
python3 - "$work/times" "$work/rss" "$n" "$errors" "$mode" <<'EOF'
import sys, statistics
times = sorted(float(x) for x in open(sys.argv[1]))
rss = [int(x) for x in open(sys.argv[2])]
def pct(p):
    return times[min(len(times) - 1, int(round(p / 100 * (len(times) - 1))))]
print(f"{sys.argv[3]} asks ({sys.argv[5]}) in a row on one cached document: errors {sys.argv[4]}; "
      f"seconds p50 {pct(50):.2f} p90 {pct(90):.2f} p99 {pct(99):.2f} max {times[-1]:.2f}; "
      f"mean {statistics.mean(times):.2f}; peak RSS {max(rss) / 1024:.0f} MB")
EOF

# Four processes at once on a document none has seen.
# The sample with a comment appended: other bytes, so another document to the cache.
cp "$work/sample.pdf" "$work/fresh.pdf"
printf '%%fresh\n' >>"$work/fresh.pdf"
pids=()
for i in 1 2 3 4; do
    "$bin" ask "$work/fresh.pdf" "${questions[$i]}" --mode "$mode" >"$work/c$i.out" 2>"$work/c$i.err" &
    pids+=($!)
done
failed=0
for p in "${pids[@]}"; do
    wait "$p" || failed=$((failed + 1))
done
indexed=$(cat "$work"/c*.err | grep -c "^indexing" || true)
entries=$(find "$NANOINDEX_CACHE/documents" -mindepth 1 -maxdepth 1 -type d | wc -l)
echo "4 concurrent asks on a new document: errors $failed; indexed by $indexed of 4; cache entries $entries (sample + new = 2)"
