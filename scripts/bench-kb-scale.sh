#!/usr/bin/env bash
# Knowledge base at scale: time and peak memory against the number of documents. Copies of
# the FinanceBench dev filings (each copy a distinct file: a PDF comment line appended after
# its end changes its SHA-256, not its content) are added structure-only and lexical
# (`kb add --no-dense`) in steps up to N documents (default 510: 30 copies of each of the 17
# filings). At 17 documents and at N, it measures: `kb add` of one more document (seconds and
# peak RSS: its transaction and the wiki's rendering), `kb search` (median of 10 queries,
# process start included), `kb ask --mode fast` with the default model (seconds, peak RSS),
# and `kb status`. Targets (issue 13): search under 100 ms and ask under 5 s at 500
# documents, peak memory independent of the number of documents.
#
# Usage: scripts/bench-kb-scale.sh [N] [PDF_DIR]
# NANOINDEX_BIN=path uses that binary instead of building the dev one.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-510}"
pdfs="${2:-${NANOINDEX_TEST_DATA:-$root/../shared}/data/financebench-dev/pdfs}"
[ -d "$pdfs" ] || { echo "error: no folder \`$pdfs\`" >&2; exit 1; }
source "$root/scripts/lib/cli-bin.sh"
export NANOINDEX_THREADS="${NANOINDEX_THREADS:-1}" OMP_WAIT_POLICY=passive
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$bin" "$work" "$pdfs" "$n" <<'PY'
import json, os, shutil, statistics, subprocess, sys, time
bin_, work, pdfs, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
kb = os.path.join(work, "kb")
env = dict(os.environ, NANOINDEX_CACHE=os.path.join(work, "cache"))
filings = sorted(f for f in os.listdir(pdfs) if f.lower().endswith(".pdf"))

def copy(k):
    """The k-th document (0-based): filing k mod 17, copy k div 17, in its own folder."""
    name = filings[k % len(filings)]
    folder = os.path.join(work, "docs", f"copy{k // len(filings):03d}")
    os.makedirs(folder, exist_ok=True)
    stem = os.path.splitext(name)[0]
    path = os.path.join(folder, f"{stem}_c{k // len(filings):03d}.pdf")
    shutil.copyfile(os.path.join(pdfs, name), path)
    with open(path, "ab") as f:
        f.write(f"%copy {k}\n".encode())
    return path

def timed(args):
    t = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-f", "%M", bin_, *args],
                         capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t
    if out.returncode != 0:
        sys.exit(f"error: {' '.join(args)}: {out.stderr[-2000:]}")
    rss_mb = int(out.stderr.strip().splitlines()[-1]) / 1024
    return dt, rss_mb, out.stdout

def measure(count):
    extra = copy(count)  # one more document, added alone
    dt_add, rss_add, _ = timed(["kb", "add", kb, extra, "--no-dense"])
    queries = ["capital expenditure", "net property plant and equipment", "inventories",
               "effective tax rate", "operating income", "long-term debt", "dividends paid",
               "goodwill impairment", "cash and cash equivalents", "lease liabilities"]
    search = [timed(["kb", "search", kb, q, "--json"]) for q in queries]
    q = "What is the FY2018 capital expenditure amount (in USD millions) for 3M?"
    dt_ask, rss_ask, out = timed(["kb", "ask", kb, q, "--mode", "fast", "--json", "--no-dense"])
    a = json.loads(out)
    cited = sorted({(c.get("doc_name"), tuple(c["pages"])) for c in a["answer"]["citations"]})
    _, _, status = timed(["kb", "status", kb, "--json"])
    st = json.loads(status)["status"]
    print(f"{st['documents']} documents, {st['pages']} pages: "
          f"add one {dt_add:.2f} s ({rss_add:.0f} MB peak); "
          f"search median {1000 * statistics.median(s[0] for s in search):.0f} ms "
          f"({max(s[1] for s in search):.0f} MB peak); "
          f"ask fast {dt_ask:.1f} s ({rss_ask:.0f} MB peak), status {a['answer']['status']}, "
          f"cited {cited[:2]}", flush=True)
    return count + 1

count = 0
t0 = time.perf_counter()
for target in [len(filings), n]:
    batch = [copy(k) for k in range(count, target)]
    if batch:
        t = time.perf_counter()
        dt, rss, _ = timed(["kb", "add", kb, *batch, "--no-dense", "--json"])
        print(f"kb add of {len(batch)} documents (one batch): {dt:.1f} s = "
              f"{dt / len(batch):.2f} s/document, {rss:.0f} MB peak", flush=True)
    count = measure(target)
size = sum(os.path.getsize(os.path.join(d, f))
           for d, _, fs in os.walk(os.path.join(kb, ".nanoindex")) for f in fs)
print(f"store {size / 1e6:.0f} MB; total {time.perf_counter() - t0:.0f} s")
PY
