#!/usr/bin/env bash
# Extraction benchmark: structure-only indexing (`nanoindex-local index --no-llm`) against
# PyMuPDF on the same files, in one run, on this machine.
#
# Prints pages/s for PyMuPDF `page.get_text("dict")` (structured extraction, the reference)
# and `page.get_text("text")` (MuPDF's bare text pass, single thread), for our full index run
# (extraction + tree + cross-references + JSON written) with --jobs 1 and --jobs 2, the ratios,
# the time for the largest 10-K alone, and our peak RSS.
#
# Usage: scripts/bench-extract.sh [PDF_DIR]   (default: ../shared/data/financebench-dev/pdfs)
# NANOINDEX_BIN=path uses that binary instead of building the release one.
# PyMuPDF is installed into a throwaway virtualenv under $TMPDIR; nothing else is installed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pdf_dir="${1:-${NANOINDEX_TEST_DATA:-$root/../shared}/data/financebench-dev/pdfs}"
[ -d "$pdf_dir" ] || { echo "error: no PDF folder at \`$pdf_dir\`" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q pymupdf
target="${CARGO_TARGET_DIR:-$root/target}"
if [ -n "${NANOINDEX_BIN:-}" ]; then
  bin="$NANOINDEX_BIN"   # a binary built already (e.g. the dev profile: deps -O3, ours -O2)
else
  (cd "$root" && cargo build -q --release -p nanoindex-cli)
  bin="$target/release/nanoindex-local"
fi

"$work/venv/bin/python" - "$pdf_dir" "$bin" "$work" <<'PY'
import glob, os, resource, subprocess, sys, time
import pymupdf

pdf_dir, binary, work = sys.argv[1], sys.argv[2], sys.argv[3]
files = sorted(glob.glob(os.path.join(pdf_dir, "*.pdf")))
pages = sum(pymupdf.open(f).page_count for f in files)

def pymupdf_pass(kind):
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for f in files:
            doc = pymupdf.open(f)
            for page in doc:
                page.get_text(kind)
        best = min(best, time.perf_counter() - t)
    return best

def ours(jobs, inputs):
    best = float("inf")
    for _ in range(3):
        out = os.path.join(work, f"out{jobs}")
        t = time.perf_counter()
        subprocess.run([binary, "index", *inputs, "-o", out, "--no-llm", "--force", "--jobs", str(jobs)],
                       check=True, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
    return best

t_dict = pymupdf_pass("dict")
t_text = pymupdf_pass("text")
t1 = ours(1, files)
t2 = ours(2, files)
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
largest = max((f for f in files if "10K" in f), key=lambda f: pymupdf.open(f).page_count)
n_largest = pymupdf.open(largest).page_count
t_largest = ours(2, [largest])

print(f"files: {len(files)}, pages: {pages}, cores: {os.cpu_count()}")
print(f"PyMuPDF {pymupdf.VersionBind} get_text('dict'), 1 thread : {pages / t_dict:8.1f} pages/s")
print(f"PyMuPDF get_text('text') (bare text pass), 1 thread: {pages / t_text:8.1f} pages/s")
print(f"nanoindex-local index --no-llm --jobs 1           : {pages / t1:8.1f} pages/s  ({t_dict / t1:.2f}x dict)")
print(f"nanoindex-local index --no-llm --jobs 2           : {pages / t2:8.1f} pages/s  ({t_dict / t2:.2f}x dict, {t_text / t2 * 100 / 2:.0f}% of 2x bare text)")
print(f"largest 10-K ({os.path.basename(largest)}, {n_largest} pages), --jobs 2: {t_largest * 1000:.0f} ms")
print(f"peak RSS of nanoindex-local runs: {rss_mb:.0f} MB")
PY
