#!/usr/bin/env bash
# Builds llama.cpp's own `llama-bench` for the side-by-side figures of scripts/bench-llm.sh.
#
# The llama-cpp-2 crate vendors llama.cpp without its tools, so this takes the full tree that
# the `llama-cpp-python` source distribution on the Python package index vendors, and builds
# only the `llama-bench` target with cmake (CPU, native instructions, OpenMP as the crate
# uses; about 10 minutes on 2 cores). It prints the path of the binary on its last line.
#
# Usage: scripts/build-llama-bench.sh [VERSION]   (default 0.3.36, which vendors
#        ggml-org/llama.cpp@0c1e57098, ggml 0.25.3)
# Then:  LLAMA_BENCH=$(scripts/build-llama-bench.sh | tail -1) scripts/bench-llm.sh 2
# The build is kept under ${XDG_CACHE_HOME:-~/.cache}/nanoindex-local/llama-bench-VERSION and
# reused by later runs.
set -euo pipefail
version="${1:-0.3.36}"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/nanoindex-local/llama-bench-$version"
bin="$dir/build/bin/llama-bench"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi
mkdir -p "$dir"
if [ ! -d "$dir/src" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download -q --no-deps --no-binary :all: "llama-cpp-python==$version" -d "$tmp"
  tar xzf "$tmp"/llama_cpp_python-"$version".tar.gz -C "$tmp"
  mv "$tmp/llama_cpp_python-$version/vendor/llama.cpp" "$dir/src"
  grep -m1 "llama.cpp@" "$tmp/llama_cpp_python-$version/CHANGELOG.md" > "$dir/COMMIT" || true
fi
cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON \
  -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF \
  -DLLAMA_BUILD_TOOLS=ON >&2
cmake --build "$dir/build" --target llama-bench -j "${BUILD_JOBS:-$(nproc)}" >&2
echo "llama.cpp of llama-cpp-python $version: $(cat "$dir/COMMIT" 2>/dev/null)" >&2
echo "$bin"
