#!/usr/bin/env bash
# Peak memory of structure-only indexing on inputs that inflate: a small PDF whose one page
# holds one line of CHARS characters (default 18 million; a Flate stream of a few KB), the
# largest real document of the shared corpus, and a PDF of 500 pages or more joined from
# four FinanceBench filings (the `join_pdfs` example). Prints seconds and peak RSS (MB) of
# `nanoindex-local index --no-llm` for each; the target is under 500 MB. Uses the dev build
# (dependencies at opt-level 3, as the workspace sets), so seconds are above a release
# build's; memory is what it is.
#
#   scripts/bench-memory.sh [CHARS] [SHARED_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
chars="${1:-18000000}"
shared="${2:-$root/../shared}"
cd "$root"
cargo build -q -p nanoindex-cli -p nanoindex-pdf --bins --examples
bin="${CARGO_TARGET_DIR:-$root/target}/debug/nanoindex-local"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$chars" "$work/inflating-line.pdf" <<'EOF'
import sys, zlib
chars, out = int(sys.argv[1]), sys.argv[2]
content = b"BT /F1 1 Tf 10 700 Td (" + b"A" * chars + b") Tj ET"
stream = zlib.compress(content, 9)
objects = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
    b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
]
pdf = bytearray(b"%PDF-1.7\n")
offsets = []
for i, body in enumerate(objects, 1):
    offsets.append(len(pdf))
    pdf += b"%d 0 obj\n" % i + body + b"\nendobj\n"
xref = len(pdf)
pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
for o in offsets:
    pdf += b"%010d 00000 n \n" % o
pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
open(out, "wb").write(pdf)
EOF

measure() {
    local label="$1" pdf="$2"
    local log="$work/time.log"
    /usr/bin/time -v "$bin" index "$pdf" -o "$work/out" --no-llm --force >/dev/null 2>"$log" || true
    local rss secs
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$log")
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
    printf '%-40s %10s bytes  %8s wall  %6s MB peak RSS\n' "$label" "$(stat -c %s "$pdf")" "$secs" "$rss"
    grep -E "^warning|^error" "$log" | head -3 || true
}

measure "one line of $chars characters" "$work/inflating-line.pdf"
if [ -d "$shared/data/financebench-dev/pdfs" ]; then
    largest=$(ls -S "$shared"/data/financebench-dev/pdfs/*.pdf | head -1)
    measure "$(basename "$largest")" "$largest"
fi
if [ -d "$shared/data/financebench-dev/pdfs" ]; then
    dir="$shared/data/financebench-dev/pdfs"
    "${CARGO_TARGET_DIR:-$root/target}/debug/examples/join_pdfs" "$work/joined.pdf" \
        "$dir/3M_2022_10K.pdf" "$dir/BOEING_2022_10K.pdf" "$dir/3M_2018_10K.pdf" \
        "$dir/AMCOR_2023_10K.pdf" >/dev/null
    measure "four 10-Ks joined (758 pages)" "$work/joined.pdf"
fi
