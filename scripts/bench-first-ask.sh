#!/usr/bin/env bash
# First-answer benchmark: `ask --mode fast` on a PDF never seen before (empty cache: index,
# embed what the question needs, answer), then the same and other questions on the cached
# document. Prints wall seconds, peak RSS, passages embedded and model calls per ask, from
# each answer's trace.
#
# Usage: scripts/bench-first-ask.sh [PDF] [QUESTION ...]
#   default: BOEING_2022_10K of ../shared/data/financebench-dev (190 pages) and three
#   questions (one the reader decides, one it does not, one about another page).
# NANOINDEX_BIN=path uses that binary instead of building the dev one; NANOINDEX_THREADS sets
# the model's threads (default 1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pdf="${1:-${NANOINDEX_TEST_DATA:-$root/../shared}/data/financebench-dev/pdfs/BOEING_2022_10K.pdf}"
[ -f "$pdf" ] || { echo "error: no PDF at \`$pdf\`" >&2; exit 1; }
shift || true
if [ "$#" -gt 0 ]; then
  questions=("$@")
else
  questions=("What was Boeing's total revenue in 2022?"
             "Why did Boeing's revenue increase in 2022?"
             "How many employees did Boeing have at the end of 2022?")
fi
source "$root/scripts/lib/cli-bin.sh"
export NANOINDEX_THREADS="${NANOINDEX_THREADS:-1}" OMP_WAIT_POLICY=passive
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
export NANOINDEX_CACHE="$cache"

python3 - "$bin" "$pdf" "${questions[@]}" <<'PY'
import json, subprocess, sys, time, resource
bin_, pdf, *questions = sys.argv[1:]
runs = [("first ask (new PDF)", questions[0])] + [("cached", q) for q in questions]
print(f"{'ask':<20} {'seconds':>8} {'peak MB':>8} {'embedded':>9} {'model calls':>12}  question")
for label, q in runs:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.monotonic()
    out = subprocess.run([bin_, "ask", pdf, q, "--mode", "fast", "--json"],
                         capture_output=True, text=True)
    seconds = time.monotonic() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if out.returncode != 0:
        print(f"{label}: failed ({out.returncode}): {out.stderr.strip()[:300]}")
        sys.exit(1)
    trace = json.loads(out.stdout)["trace"]
    calls = len(trace["llm_calls"])
    print(f"{label:<20} {seconds:8.2f} {max(peak, before) / 1024:8.0f} "
          f"{trace.get('embedded_passages', 0):9d} {calls:12d}  {q}")
PY
