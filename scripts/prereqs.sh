#!/usr/bin/env bash
# Installs what building nanoindex-local needs on a fresh Debian/Ubuntu machine; the one copy
# of this logic, sourced or run by `scripts/quickstart.sh` and `.ci/run`.
#
# - cmake: llama-cpp-sys-2 builds llama.cpp with it.
# - libclang (the C interface, `libclang.so` / `libclang-N.so`): bindgen, which mupdf-sys and
#   llama-cpp-sys-2 run at build time, loads it through clang-sys. The image may ship only
#   `libclang-cpp.so.N` (the C++ interface), which clang-sys cannot use, so the check looks for
#   exactly the file names clang-sys accepts, with a digit after the dash (`libclang-14.so.1`,
#   not `libclang-cpp.so.14`), in `$LIBCLANG_PATH` and the usual library folders.
# - a C/C++ compiler (gcc, g++) and pip (scripts/fetch-models.sh downloads the models with it).
#
# Missing packages are installed with apt-get (through sudo when not root). On a machine
# without apt-get a missing prerequisite is an error naming what to install.
set -euo pipefail

have_libclang() {
    local dirs=()
    [ -n "${LIBCLANG_PATH:-}" ] && dirs+=("$LIBCLANG_PATH")
    dirs+=(/usr/lib/llvm-*/lib /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib)
    local dir file
    for dir in "${dirs[@]}"; do
        [ -d "$dir" ] || continue
        for file in "$dir"/libclang.so "$dir"/libclang.so.* "$dir"/libclang-[0-9]*.so "$dir"/libclang-[0-9]*.so.*; do
            [ -e "$file" ] && return 0
        done
    done
    return 1
}

need_apt=()
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
have_libclang || need_apt+=(libclang-dev)
command -v cc >/dev/null 2>&1 || need_apt+=(gcc)
command -v c++ >/dev/null 2>&1 || need_apt+=(g++)
command -v make >/dev/null 2>&1 || need_apt+=(make)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
python3 -m pip --version >/dev/null 2>&1 || command -v pip >/dev/null 2>&1 || need_apt+=(python3-pip)

if [ ${#need_apt[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: missing build prerequisites (${need_apt[*]}) and no apt-get to install them;" \
             "install them with your package manager (libclang: the clang C library, e.g. libclang-dev)" >&2
        exit 1
    fi
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing build prerequisites: ${need_apt[*]}" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
    if ! have_libclang; then
        echo "error: libclang-dev was installed but no libclang.so was found; set LIBCLANG_PATH" >&2
        exit 1
    fi
fi
