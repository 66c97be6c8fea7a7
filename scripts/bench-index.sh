#!/usr/bin/env bash
# Enrichment benchmark: full indexing (structure, split cascade, graph, summaries and model
# entities) with the default model, on a few FinanceBench filings, in one run.
#
# Prints, for `--jobs 1` and `--jobs 2`: wall time, pages/s, model requests, the documents'
# own tokens (in the model's vocabulary), prompt tokens evaluated and their ratio to the
# documents' tokens, generated tokens, generated tokens/s, and the share of time in structure
# (extraction + tree, measured by a `--no-llm --no-split` run), split, graph, the one reading
# of every window (summaries and entities together), summaries (combined parts, parents)
# and entities (from each document's enrichment report). Then the summary stage alone with one sequence
# per model call (`--batch-size 1`) against batches of 8, to show what batching gives.
#
# Usage: scripts/bench-index.sh [PDF ...]
#   default: the three smallest filings of ../shared/data/financebench-dev/pdfs
#   (AMCOR_2022_8K_dated-2022-07-01, ULTABEAUTY_2023Q4_EARNINGS, AMCOR_2023Q4_EARNINGS:
#   32 pages); a full run of all 17 filings is hours of prefill on two cores.
# NANOINDEX_BIN=path uses that binary instead of building the dev one.
# NANOINDEX_THREADS sets the model's threads (default: every core); BENCH_JOBS the --jobs values of the
# full runs (default "1 2"); BENCH_SUMMARIES=0 skips the batched/one-by-one comparison.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${NANOINDEX_TEST_DATA:-$root/../shared}/data/financebench-dev/pdfs"
if [ "$#" -gt 0 ]; then
  files=("$@")
else
  files=("$data/AMCOR_2022_8K_dated-2022-07-01.pdf" "$data/ULTABEAUTY_2023Q4_EARNINGS.pdf"
         "$data/AMCOR_2023Q4_EARNINGS.pdf")
fi
for f in "${files[@]}"; do
  [ -f "$f" ] || { echo "error: no PDF at \`$f\`" >&2; exit 1; }
done
source "$root/scripts/lib/cli-bin.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$bin" "$work" "${files[@]}" <<'PY'
import json, os, subprocess, sys, time

binary, work, files = sys.argv[1], sys.argv[2], sys.argv[3:]

def run(name, *extra):
    out = os.path.join(work, name)
    start = time.perf_counter()
    proc = subprocess.run([binary, "index", *files, "-o", out, "--json", *extra],
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    docs = [json.loads(l) for l in proc.stdout.splitlines() if l.strip()]
    bad = [d for d in docs if not d.get("ok")]
    if proc.returncode != 0 or bad:
        sys.exit(f"error: {name} failed: {bad or proc.stderr[-2000:]}")
    return wall, docs

def totals(docs):
    t = {"pages": 0, "nodes": 0, "calls": 0, "prompt": 0, "completion": 0, "text": 0,
         "stages": {}}
    for d in docs:
        e = d["enrichment"]
        t["pages"] += d["pages"]
        t["nodes"] += d["nodes"]
        t["calls"] += e["llm_calls"]
        t["prompt"] += e["prompt_tokens"]
        t["completion"] += e["completion_tokens"]
        t["text"] += e.get("text_tokens", 0)
        for stage, ms in e["stage_ms"]:
            t["stages"][stage] = t["stages"].get(stage, 0.0) + ms / 1000
    return t

structure_wall, _ = run("structure", "--no-llm", "--no-split", "--jobs", "1")
print(f"{len(files)} files; structure only (--no-llm, --jobs 1): {structure_wall:.2f} s")
print()
print("| jobs | wall s | pages/s | model requests | document tokens | prompt tokens | prompt / document | generated tokens | generated tokens/s | structure | split | graph | read | summaries | entities |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for jobs in os.environ.get("BENCH_JOBS", "1 2").split():
    wall, docs = run(f"full-{jobs}", "--jobs", jobs, "--force")
    t = totals(docs)
    s = t["stages"]
    share = lambda x: f"{100 * x / wall:.0f}%"
    ratio = t["prompt"] / t["text"] if t["text"] else 0.0
    print(f"| {jobs} | {wall:.1f} | {t['pages'] / wall:.3f} | {t['calls']} | {t['text']} | "
          f"{t['prompt']} | {ratio:.2f} | "
          f"{t['completion']} | {t['completion'] / wall:.1f} | {share(structure_wall)} | "
          f"{share(s.get('split', 0))} | {share(s.get('graph', 0))} | {share(s.get('read', 0))} | "
          f"{share(s.get('summaries', 0) + s.get('description', 0))} | {share(s.get('entities', 0))} |")
if os.environ.get("BENCH_SUMMARIES", "1") == "0":
    sys.exit(0)
print()
print("Summary stage alone (--no-llm-entities), generated tokens per second of summary time:")
rates = {}
for batch in ("1", "8"):
    wall, docs = run(f"summaries-{batch}", "--jobs", "1", "--no-llm-entities",
                     "--batch-size", batch)
    t = totals(docs)
    secs = t["stages"].get("read", 0.0) + t["stages"].get("summaries", 0.0)
    rates[batch] = t["completion"] / secs if secs else 0.0
    print(f"  batch size {batch}: {t['calls']} requests, {t['completion']} tokens generated, "
          f"{t['prompt']} prompt tokens, {secs:.1f} s -> {rates[batch]:.1f} tokens/s, "
          f"{t['calls'] / secs if secs else 0:.2f} summaries/s")
if rates.get("1"):
    print(f"  batching speed-up: {rates['8'] / rates['1']:.2f}x")
PY
