#!/usr/bin/env bash
# Prefill and decode speed and peak resident memory of our llama.cpp and candle backends on
# the installed test models (SmolLM2-135M-Instruct Q4_1, Gemma 3 270M Q4_K_M), measured
# through `nanoindex-local generate --json` (one process per run), the candle/llama.cpp
# decode ratio per model, and side by side llama.cpp's own `llama-bench` when one is given
# (LLAMA_BENCH=/path/to/llama-bench; the llama-cpp-2 crate does not vendor the tools), with
# the ratio ours / llama-bench (llama-bench decodes after a 448-token context, as ours does
# after its prompt). Then the memory-bandwidth bound: model bytes read per generated token
# against the machine's copy bandwidth.
#
# Usage: scripts/bench-llm.sh [THREADS]   (default: 1; more threads than free cores collapse
# decoding, see DEPENDENCIES.md; with THREADS > 1 run with OMP_WAIT_POLICY=passive)
set -euo pipefail
cd "$(dirname "$0")/.."
threads="${1:-1}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(pwd)/target}"
cargo build --quiet -p nanoindex-cli
bin="$CARGO_TARGET_DIR/debug/nanoindex-local"
models_dir="$("$bin" models path)"

# About 450 prompt tokens of plain prose, so that prefill is measured on a real batch.
paragraph="The company reported revenue of 4.1 billion dollars for the fiscal year, an increase \
of twelve percent over the previous year, driven mainly by cloud services and subscriptions. \
Operating expenses rose more slowly than revenue, so the operating margin widened to 21 percent. \
Cash from operations funded share repurchases and a higher dividend, and net debt fell. "
prompt="Summarise the following report in three sentences. $paragraph$paragraph$paragraph$paragraph$paragraph$paragraph"

# Runs `generate --json` and prints "prefill decode n_out peak_rss_mib".
measure() {
    python3 - "$@" <<'PY'
import json, resource, subprocess, sys
out = subprocess.run(sys.argv[1:], capture_output=True, text=True, check=True).stdout
r = json.loads(out)
peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(round(r["prefill_tokens_per_s"], 1), round(r["decode_tokens_per_s"], 1), r["n_completion_tokens"], round(peak_mib))
PY
}

printf '%-28s %-10s %8s %12s %12s %10s %14s %14s\n' model backend threads prefill_t/s decode_t/s peak_MiB bench_prefill bench_decode
for file in SmolLM2-135M-Instruct.Q4_1.gguf gemma-3-270m-q4_k_m.gguf; do
    path="$models_dir/$file"
    if [[ ! -f "$path" ]]; then
        echo "skipped $file: not installed (run scripts/fetch-models.sh)" >&2
        continue
    fi
    declare -A decode_of=()
    for backend in llama-cpp candle; do
        read -r prefill decode n_out peak < <(measure "$bin" generate --json --llm "$backend:$path" \
            --threads "$threads" --max-tokens 128 --stop "never-appears-stop" "$prompt")
        decode_of[$backend]="$decode"
        bench_prefill="-" bench_decode="-"
        if [[ "$backend" == llama-cpp && -n "${LLAMA_BENCH:-}" ]]; then
            # Prefill of 512 tokens, and decode of 128 tokens after a 448-token context (our
            # prompt is about that long): the same work as the `generate` run above.
            bench_prefill="$("$LLAMA_BENCH" -m "$path" -t "$threads" -p 512 -n 0 -o json \
                | python3 -c 'import json,sys; print(round(json.load(sys.stdin)[0]["avg_ts"],1))')"
            bench_decode="$("$LLAMA_BENCH" -m "$path" -t "$threads" -p 0 -n 128 -d 448 -o json \
                | python3 -c 'import json,sys; print(round(json.load(sys.stdin)[0]["avg_ts"],1))')"
        fi
        printf '%-28s %-10s %8s %12s %12s %10s %14s %14s\n' "$file" "$backend" "$threads" "$prefill" "$decode" "$peak" "$bench_prefill" "$bench_decode"
        if [[ "$n_out" -lt 32 ]]; then
            echo "note: $file on $backend stopped after $n_out tokens; its decode rate rests on few tokens" >&2
        fi
        if [[ "$bench_decode" != "-" ]]; then
            python3 -c "print('  ratio ours/llama-bench: prefill %.2f, decode %.2f' % ($prefill/$bench_prefill, $decode/$bench_decode))"
        fi
    done
    python3 -c "print('  ratio candle/llama.cpp decode: %.2f' % (${decode_of[candle]}/${decode_of[llama-cpp]}))"
done

# Memory-bandwidth bound: every weight is read once per generated token, so decode cannot
# beat (copy bandwidth) / (model file size). Bandwidth: best of five 1 GiB copies between
# buffers already touched (read + write counted).
python3 - "$models_dir" <<'PY'
import os, sys, time
n = 1 << 30
src, dst = bytearray(b"x" * n), bytearray(b"y" * n)
best = min((lambda t: (dst.__setitem__(slice(None), src), time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(5))
bw = 2 * n / best
print(f"copy bandwidth: {bw / 1e9:.1f} GB/s (read + write)")
for f in ("SmolLM2-135M-Instruct.Q4_1.gguf", "gemma-3-270m-q4_k_m.gguf"):
    p = os.path.join(sys.argv[1], f)
    if os.path.isfile(p):
        size = os.path.getsize(p)
        print(f"  {f}: {size / 1e6:.0f} MB read per token -> decode bound {bw / size:.0f} tokens/s")
PY

# Decoding several sequences together (continuous batching, issue 14 item 3): aggregate
# generated tokens/s of `generate_batch` on the llama.cpp backend for 1 to 16 sequences of
# 96 tokens each (examples/batch_decode.rs). On a CPU the gain is bounded by compute, not by
# reading the weights; on a GPU it is where throughput comes from.
cargo build --quiet -p nanoindex-llm-llamacpp --example batch_decode
echo "batched decode, SmolLM2-135M-Instruct Q4_1, llama.cpp, $threads thread(s):"
"$CARGO_TARGET_DIR/debug/examples/batch_decode" "$models_dir/SmolLM2-135M-Instruct.Q4_1.gguf" "$threads" 1,2,4,8,16

# Continuous batching (`TextGenerator::serve`, issue 14 item 3): conversations shaped like
# enrichment's (a ~900-token window read for a summary, then its names in the same
# conversation) served 1, 4 and 8 at a time (examples/serve_bench.rs), on the prose of the
# first FinanceBench dev filing's structure-only tree.
data="${NANOINDEX_TEST_DATA:-$(pwd)/../shared}/data/financebench-dev/pdfs/AMCOR_2022_8K_dated-2022-07-01.pdf"
if [ -f "$data" ]; then
  serve_work="$(mktemp -d)"
  "$bin" index "$data" -o "$serve_work" --no-llm >/dev/null
  python3 - "$serve_work" <<'PY'
import json, os, sys
d = sys.argv[1]
tree = json.load(open(os.path.join(d, next(f for f in os.listdir(d) if f.endswith(".tree.json")))))
texts = []
def walk(nodes):
    for n in nodes:
        if n.get("text"):
            texts.append(n["text"])
        walk(n.get("nodes", []))
walk(tree["structure"])
open(os.path.join(d, "prose.txt"), "w").write("\n\n".join(texts))
PY
  cargo build --quiet -p nanoindex-llm-llamacpp --example serve_bench
  echo "continuous batching, SmolLM2-135M-Instruct Q4_1, llama.cpp, $threads thread(s):"
  "$CARGO_TARGET_DIR/debug/examples/serve_bench" "$models_dir/SmolLM2-135M-Instruct.Q4_1.gguf" \
    "$threads" "$serve_work/prose.txt" 8 1,4,8
  rm -rf "$serve_work"
else
  echo "skipped continuous batching: no \`$data\` (set NANOINDEX_TEST_DATA)"
fi
