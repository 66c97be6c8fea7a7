#!/usr/bin/env bash
# Knowledge base benchmark on the FinanceBench dev filings (../shared/data/financebench-dev):
# `kb add` of every filing, structure-only and lexical (--no-dense), then again with passage
# embeddings (all-MiniLM-L6-v2), each into a fresh knowledge base with a fresh cache;
# per run: seconds, seconds per document and per page, store size and wiki pages. Then
# `kb search` latency (median of 20 queries) and `kb ask --mode fast` seconds for a
# question about one filing and a comparison of two, with the default model.
#
# Usage: scripts/bench-kb.sh [PDF_DIR]
# NANOINDEX_BIN=path uses that binary instead of building the dev one; NANOINDEX_THREADS
# sets the model's threads (default 1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pdfs="${1:-${NANOINDEX_TEST_DATA:-$root/../shared}/data/financebench-dev/pdfs}"
[ -d "$pdfs" ] || { echo "error: no folder \`$pdfs\`" >&2; exit 1; }
source "$root/scripts/lib/cli-bin.sh"
export NANOINDEX_THREADS="${NANOINDEX_THREADS:-1}" OMP_WAIT_POLICY=passive
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$bin" "$work" "$pdfs" <<'PY'
import json, os, statistics, subprocess, sys, time
bin_, work, pdfs = sys.argv[1:4]

def run(args, env_extra):
    env = dict(os.environ, **env_extra)
    t = time.perf_counter()
    out = subprocess.run([bin_, *args], capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t
    if out.returncode != 0:
        sys.exit(f"error: {' '.join(args)}: {out.stderr[-2000:]}")
    return dt, out.stdout

def size(path):
    total = 0
    for d, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    return total

kbs = {}
for label, flags in [("structure-only, lexical", ["--no-dense"]), ("with embeddings", [])]:
    kb = os.path.join(work, label.split(",")[0].replace(" ", "-"))
    env = {"NANOINDEX_CACHE": os.path.join(kb + "-cache")}
    dt, _ = run(["kb", "add", kb, pdfs, *flags], env)
    _, status = run(["kb", "status", kb, "--json"], env)
    st = json.loads(status)["status"]
    store = os.path.getsize(os.path.join(kb, ".nanoindex", "kb.sqlite"))
    wal = os.path.join(kb, ".nanoindex", "kb.sqlite-wal")
    store += os.path.getsize(wal) if os.path.exists(wal) else 0
    wiki = sum(len(f) for _, _, f in os.walk(os.path.join(kb, "wiki")))
    print(f"kb add ({label}): {st['documents']} documents, {st['pages']} pages in {dt:.1f} s "
          f"= {dt / st['documents']:.2f} s/document, {1000 * dt / st['pages']:.1f} ms/page; "
          f"store {store / 1e6:.1f} MB ({st['passages']} passages, {st['vectors']} vectors); "
          f"wiki {wiki} pages")
    kbs[label] = (kb, env)

kb, env = kbs["with embeddings"]
queries = ["capital expenditure", "net property plant and equipment", "restructuring liability",
           "stock repurchases", "streaming content obligations", "gross margin",
           "inventories", "effective tax rate", "operating income", "long-term debt",
           "dividends paid", "goodwill impairment", "segment revenue", "cash and cash equivalents",
           "accounts receivable", "deferred revenue", "lease liabilities", "share-based compensation",
           "foreign exchange", "litigation"]
times = []
for q in queries:
    dt, _ = run(["kb", "search", kb, q, "--json"], env)
    times.append(dt)
print(f"kb search: median {1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms "
      f"over {len(queries)} queries (process start and store open included)")
for q in ["What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
          "Compare the net PP&E of Boeing at year end FY2018 and of 3M at year end FY2018"]:
    dt, out = run(["kb", "ask", kb, q, "--mode", "fast", "--json"], env)
    a = json.loads(out)
    cited = sorted({(c.get("doc_name"), tuple(c["pages"])) for c in a["answer"]["citations"]})
    print(f"kb ask --mode fast: {dt:.1f} s, read {a['read']}, status {a['answer']['status']}, "
          f"cited {cited}: {a['answer']['content'][:160]!r}")
PY
