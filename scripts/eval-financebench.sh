#!/usr/bin/env bash
# FinanceBench evaluation of `ask` over ../shared/data/financebench-dev (or $1): per question
# and mode, whether an evidence page is among the pages read, whether the first cited page is
# one, whether the answer holds the gold figure, pages read, model calls, tokens and seconds;
# totals per mode on stdout and a JSON report (default: eval-financebench.json here).
#
#   scripts/eval-financebench.sh [DATA_DIR] [OUT.json] [MODES] [LIMIT]
#
# Uses the default local model and embedder (scripts/fetch-models.sh) on NANOINDEX_THREADS
# threads (default: every core). Documents are indexed and embedded once and cached (NANOINDEX_CACHE).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="${1:-$root/../shared/data/financebench-dev}"
out="${2:-eval-financebench.json}"
modes="${3:-fast,agentic,agentic_graph}"
limit="${4:-1000000}"
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
cd "$root"
cargo build -q -p nanoindex --example eval_ask
target="${CARGO_TARGET_DIR:-$root/target}/debug"
"$target/examples/eval_ask" "$data/questions.jsonl" "$data/pdfs" "$out" "$modes" "$limit"
