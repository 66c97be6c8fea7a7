#!/usr/bin/env bash
# Installs what building nanoindex-local needs on a fresh Debian/Ubuntu machine; the one copy
# of this logic, run (not sourced) by `scripts/quickstart.sh` and `.ci/run`.
#
# - cmake: llama-cpp-sys-2 builds llama.cpp with it.
# - libclang (the C interface, `libclang.so` / `libclang-N.so`): bindgen, which mupdf-sys and
#   llama-cpp-sys-2 run at build time, loads it through clang-sys. The image may ship only
#   `libclang-cpp.so.N` (the C++ interface), which clang-sys cannot use, so the check looks for
#   exactly the file names clang-sys accepts, with a digit after the dash (`libclang-14.so.1`,
#   not `libclang-cpp.so.14`), in `$LIBCLANG_PATH` and the usual library folders, and clang's
#   builtin headers (`stddef.h`, from libclang-common-N-dev), without which bindgen fails with
#   "'stddef.h' file not found" even when the library loads.
# - a C/C++ compiler (gcc, g++) and pip (scripts/fetch-models.sh downloads the models with it).
# - Tesseract's language data for OCR of scanned pages (MuPDF builds Tesseract in; the data
#   is not code): `<lang>.traineddata` for each language of OCR_LANGS (default `eng`; CI adds
#   `chi_sim` for the hostile corpus's Chinese scan), from the Debian/Ubuntu packages
#   `tesseract-ocr-<lang>`. Without apt-get a missing language is a warning (OCR of scanned
#   pages then fails with a message naming the package), not an error: the build needs none.
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

have_clang_headers() {
    local header
    for header in /usr/lib/llvm-*/lib/clang/*/include/stddef.h /usr/lib/clang/*/include/stddef.h \
                  /usr/local/lib/clang/*/include/stddef.h; do
        [ -e "$header" ] && return 0
    done
    return 1
}

have_tessdata() {
    local lang="$1" dir
    for dir in "${TESSDATA_PREFIX:-/nonexistent}" "${TESSDATA_PREFIX:-/nonexistent}/tessdata" \
               /usr/share/tesseract-ocr/*/tessdata /usr/share/tessdata /usr/local/share/tessdata; do
        [ -e "$dir/$lang.traineddata" ] && return 0
    done
    return 1
}

need_apt=()
missing_ocr=()
ocr_langs="${OCR_LANGS:-eng}"
for lang in ${ocr_langs//+/ }; do
    case "$lang" in *[!A-Za-z0-9_]*) echo "error: invalid OCR language \`$lang\` in OCR_LANGS" >&2; exit 1 ;; esac
    have_tessdata "$lang" || missing_ocr+=("tesseract-ocr-$(echo "$lang" | tr '_' '-' | tr '[:upper:]' '[:lower:]')")
done
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
{ have_libclang && have_clang_headers; } || need_apt+=(libclang-dev)
command -v cc >/dev/null 2>&1 || need_apt+=(gcc)
command -v c++ >/dev/null 2>&1 || need_apt+=(g++)
command -v make >/dev/null 2>&1 || need_apt+=(make)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
python3 -m pip --version >/dev/null 2>&1 || command -v pip >/dev/null 2>&1 || need_apt+=(python3-pip)

if [ ${#missing_ocr[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null 2>&1; }; then
        need_apt+=("${missing_ocr[@]}")
    else
        echo "warning: no Tesseract language data for OCR (${missing_ocr[*]}); install it with" \
             "your package manager or set TESSDATA_PREFIX; scanned pages cannot be read until then" >&2
    fi
fi

if [ ${#need_apt[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: missing build prerequisites (${need_apt[*]}) and no apt-get to install them;" \
             "install them with your package manager (libclang: the clang C library, e.g. libclang-dev)" >&2
        exit 1
    fi
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "error: missing build prerequisites (${need_apt[*]}); run as root or install sudo" >&2
            exit 1
        fi
        SUDO="sudo"
    fi
    echo "installing build prerequisites: ${need_apt[*]}" >&2
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
    if ! have_libclang || ! have_clang_headers; then
        echo "error: libclang-dev was installed but no libclang.so was found; set LIBCLANG_PATH" >&2
        exit 1
    fi
fi

# The workspace needs Rust 1.85 or later (Cargo.toml `rust-version`); distribution packages
# are often older.
if ! command -v cargo >/dev/null 2>&1; then
    echo "error: cargo not found; install Rust 1.85 or later with rustup (https://rustup.rs)" >&2
    exit 1
fi
rust_minor="$(rustc --version | sed -E 's/^rustc 1\.([0-9]+).*/\1/')"
if [ "${rust_minor:-0}" -lt 85 ] 2>/dev/null; then
    echo "error: $(rustc --version) is older than 1.85; update with rustup (https://rustup.rs)" >&2
    exit 1
fi
