# Sourced by the benchmark scripts (with `root` set to the repository root): sets `bin` to
# the nanoindex-local binary to measure — `NANOINDEX_BIN` when set, else the dev-profile
# build (dependencies -O3, our crates -O2), built now.
target="${CARGO_TARGET_DIR:-$root/target}"
if [ -n "${NANOINDEX_BIN:-}" ]; then
  bin="$NANOINDEX_BIN"
else
  (cd "$root" && cargo build -q -p nanoindex-cli)
  bin="$target/debug/nanoindex-local"
fi
