#!/usr/bin/env bash
# Evaluation of `ask` on our own question set over the real documents of
# ../shared/corpus/real (tests/data/real-questions.jsonl: contracts, court opinions and
# filings, insurance policies, a protocol, a rule, a paper, 10-Qs; values and evidence pages
# checked by hand on the page; questions whose answer is not in the document marked
# `answerable: false`). Per mode: evidence page read, cited page exact, expected value in the
# answer (and per answer type), "not found" when the value is absent, pages read, seconds.
#
#   scripts/eval-real.sh [CORPUS_DIR] [OUT.json] [MODES] [LIMIT]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${1:-$root/../shared/corpus/real}"
out="${2:-eval-real.json}"
modes="${3:-fast,agentic}"
limit="${4:-1000000}"
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
cd "$root"
cargo build -q -p nanoindex --example eval_ask
target="${CARGO_TARGET_DIR:-$root/target}/debug"
"$target/examples/eval_ask" "$root/tests/data/real-questions.jsonl" "$corpus" "$out" "$modes" "$limit"
