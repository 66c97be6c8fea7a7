#!/usr/bin/env bash
# Which stored format of the default model is fastest on this CPU (issue 14, item 2): the
# packaged SmolLM2-135M-Instruct Q4_1 is converted with llama.cpp's own quantizer
# (`requantize` example of nanoindex-llm-llamacpp) to Q4_0 (which llama.cpp repacks for the
# CPU's wide kernels at load), Q8_0 and F16, and each file is measured through
# `nanoindex-local generate --json` on the llama.cpp backend: prefill and decode tokens/s on
# an about 450-token prompt, and the greedy reply to one summary request and one JSON
# extraction request, so that a faster format can be seen to keep its replies sensible.
#
# Usage: scripts/bench-formats.sh [THREADS]   (default 1). Converted files go to a temporary
# folder and are removed.
set -euo pipefail
cd "$(dirname "$0")/.."
threads="${1:-1}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(pwd)/target}"
cargo build --quiet -p nanoindex-cli
cargo build --quiet -p nanoindex-llm-llamacpp --example requantize
bin="$CARGO_TARGET_DIR/debug/nanoindex-local"
requantize="$CARGO_TARGET_DIR/debug/examples/requantize"
models_dir="$("$bin" models path)"
source_model="$models_dir/SmolLM2-135M-Instruct.Q4_1.gguf"
[[ -f "$source_model" ]] || { echo "error: \`$source_model\` not installed (run scripts/fetch-models.sh)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

paragraph="The company reported revenue of 4.1 billion dollars for the fiscal year, an increase \
of twelve percent over the previous year, driven mainly by cloud services and subscriptions. \
Operating expenses rose more slowly than revenue, so the operating margin widened to 21 percent. \
Cash from operations funded share repurchases and a higher dividend, and net debt fell. "
long_prompt="Summarise the following report in three sentences. $paragraph$paragraph$paragraph$paragraph$paragraph$paragraph"
summary_prompt="Summarise in one sentence: $paragraph"
schema='{"type":"object","properties":{"entities":{"type":"array","items":{"type":"string"},"maxItems":5}},"required":["entities"]}'
echo "$schema" > "$work/schema.json"
json_prompt="List the organisations and amounts named in this text. Text: Harbor Mills Inc. bought \
Aster Labs LLC for \$300 million in March 2024; Brightline Corp advised Harbor Mills."

declare -a files=("q4_1:$source_model")
for kind in q4_0 q8_0 f16; do
    out="$work/SmolLM2-135M-Instruct.${kind^^}.gguf"
    started=$(date +%s.%N)
    "$requantize" "$source_model" "$out" "$kind" > "$work/requantize-$kind.log" 2>&1
    printf 'converted to %s in %.1f s (%d MB)\n' "$kind" "$(echo "$(date +%s.%N) - $started" | bc)" "$(( $(stat -c %s "$out") / 1000000 ))"
    files+=("$kind:$out")
done
echo

printf '%-6s %8s %8s %12s %12s\n' format MB threads prefill_t/s decode_t/s
declare -A replies=()
for entry in "${files[@]}"; do
    kind="${entry%%:*}" path="${entry#*:}"
    python3 - "$kind" "$path" "$threads" "$bin" "$long_prompt" <<'PY'
import json, os, subprocess, sys
kind, path, threads, binary, prompt = sys.argv[1:]
runs = []
for _ in range(3):
    out = subprocess.run([binary, "generate", "--json", "--llm", f"llama-cpp:{path}", "--threads", threads,
                          "--max-tokens", "128", "--stop", "never-appears-stop", prompt],
                         capture_output=True, text=True, check=True).stdout
    runs.append(json.loads(out))
best = lambda key: max(r[key] for r in runs)
print(f"{kind:<6} {os.path.getsize(path) / 1e6:8.0f} {threads:>8} {best('prefill_tokens_per_s'):12.1f} "
      f"{best('decode_tokens_per_s'):12.1f}")
PY
done
echo
echo "Greedy replies (summary request, then JSON extraction request):"
for entry in "${files[@]}"; do
    kind="${entry%%:*}" path="${entry#*:}"
    summary="$("$bin" generate --llm "llama-cpp:$path" --threads "$threads" --max-tokens 60 "$summary_prompt" 2>/dev/null | tr '\n' ' ')"
    extraction="$("$bin" generate --llm "llama-cpp:$path" --threads "$threads" --max-tokens 80 --json-schema "$work/schema.json" "$json_prompt" 2>/dev/null | tr '\n' ' ')"
    printf '%-6s %s\n       %s\n' "$kind" "$summary" "$extraction"
done
