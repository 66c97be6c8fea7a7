#!/usr/bin/env bash
# OCR speed and accuracy on real pages: pages FIRST-LAST of born-digital FinanceBench filings
# are scanned (rendered in grey at DPI and written back as images alone), read back by OCR,
# and compared word for word with the filing's own text layer (the `ocr_accuracy` example).
# Each filing is read twice: in this process alone, and with one `ocr-worker` process per
# core beyond the first (MuPDF's OCR engine is one per process). Prints one JSON line per run:
# pages/s, word accuracy, mean page confidence. Uses the dev build (dependencies, MuPDF and
# Tesseract at opt-level 3).
#
#   scripts/bench-ocr.sh [SHARED_DIR] [FIRST-LAST] [DPI]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$(cd "${1:-$root/../shared}" && pwd)"
range="${2:-1-10}"
dpi="${3:-200}"
cd "$root"
cargo build -q -p nanoindex-cli -p nanoindex-pdf --bins --examples
target="${CARGO_TARGET_DIR:-$root/target}/debug"
cores="$(nproc)"
for name in 3M_2018_10K BOEING_2022_10K; do
    pdf="$shared/data/financebench-dev/pdfs/$name.pdf"
    [ -f "$pdf" ] || { echo "missing $pdf" >&2; exit 1; }
    "$target/examples/ocr_accuracy" "$pdf" "$range" "$dpi"
    if [ "$cores" -gt 1 ]; then
        "$target/examples/ocr_accuracy" "$pdf" "$range" "$dpi" "$target/nanoindex-local" "$((cores - 1))"
    fi
done
