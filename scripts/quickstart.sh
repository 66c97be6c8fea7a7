#!/usr/bin/env bash
# README quick start: installs the build prerequisites and the models, builds nanoindex-local,
# writes the project's own sample annual report (a fictional company) and asks it a question
# with the default local model, printing the verified answer and its cited page and quote.
# Everything runs offline after the first setup.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prereqs.sh
bash scripts/fetch-models.sh
# The dev profile is the project's one build profile (dependencies -O3, our crates -O2), shared
# with the test command, so the two quick-start commands compile the stack once.
cargo build -p nanoindex-cli -p nanoindex-pdf --examples --bins
target="${CARGO_TARGET_DIR:-target}/debug"
out="${TMPDIR:-/tmp}/nanoindex-quickstart"
mkdir -p "$out"
"$target/examples/make_sample" "$out/northwind-2024-10k.pdf"
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
"$target/nanoindex-local" ask "$out/northwind-2024-10k.pdf" "What were capital expenditures in 2024?"
