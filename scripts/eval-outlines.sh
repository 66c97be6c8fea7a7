#!/usr/bin/env bash
# Scores structure-only trees (`nanoindex-local index --no-llm`) of the real documents against
# outlines written by hand (tests/data/outlines/STEM.tsv: `level	page	title`, titles and
# start pages as a careful reader lists them, checked on the page) and against the outline
# each PDF carries, where it has one. Prints per document: reference entries, title recall,
# exact start page (share of all reference entries whose matched node starts on the same
# 1-based page), the same two figures for the PDF's own outline read alone (the baseline a
# tree must not fall below), and the reference titles the tree misses.
#
# A reference title is found when a tree node's title is the same after normalising both
# (NFKC, quotes and dashes folded, case folded, punctuation dropped, a "(part K of N)" suffix
# and a " — parent" disambiguation dropped); each node matches one reference entry, the
# nearest by page. Near misses (one title a prefix of the other) are listed, not counted.
#
#   scripts/eval-outlines.sh [CORPUS_DIR] [OUT.json]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${1:-$root/../shared/corpus/real}"
out="${2:-}"
source "$root/scripts/lib/cli-bin.sh"
(cd "$root" && cargo build -q -p nanoindex-pdf --example pdf_outline)
outline_bin="${CARGO_TARGET_DIR:-$root/target}/debug/examples/pdf_outline"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for pdf in "$corpus"/*.pdf; do
    stem="$(basename "$pdf" .pdf)"
    "$bin" index "$pdf" -o "$work" --no-llm --force >/dev/null 2>&1 ||
        echo "warning: index failed on $pdf" >&2
    "$outline_bin" "$pdf" >"$work/$stem.pdf-outline.tsv" 2>/dev/null || true
done

python3 - "$root/tests/data/outlines" "$work" "$out" <<'EOF'
import json, re, sys, unicodedata
from pathlib import Path

refs_dir, work, out = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                      "\u2013": "-", "\u2014": "-", "\u00a0": " "})

def norm(title):
    t = unicodedata.normalize("NFKC", title).translate(FOLD).lower()
    t = re.sub(r"\(part \d+ of \d+\)\s*$", "", t)
    return " ".join(re.sub(r"[^\w]+", " ", t).split())

def forms(title):
    """The normalised forms a tree title may match by: whole, and before ' — '."""
    whole = norm(title)
    head = norm(title.split(" \u2014 ")[0])
    return {whole, head}

def read_tsv(path):
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) < 3 or not parts[2].strip():
            continue
        page = int(parts[1]) if parts[1].strip() else None
        rows.append({"level": int(parts[0]), "page": page, "title": parts[2].strip()})
    return rows

def tree_nodes(path):
    nodes = []
    def walk(ns):
        for n in ns:
            nodes.append({"title": n["title"], "page": n["start_index"]})
            walk(n.get("nodes", []))
    walk(json.loads(path.read_text())["structure"])
    return nodes

def score(reference, nodes):
    used, found, exact, misses, near = set(), 0, 0, [], []
    node_forms = [forms(n["title"]) for n in nodes]
    for ref in reference:
        key = norm(ref["title"])
        best = None
        for i, n in enumerate(nodes):
            if i in used or key not in node_forms[i]:
                continue
            dist = abs(n["page"] - ref["page"]) if ref["page"] else 0
            if best is None or dist < best[0]:
                best = (dist, i)
        if best is None:
            misses.append(f'p{ref["page"]} {ref["title"]}')
            close = [n["title"] for n in nodes
                     if any(f and (f.startswith(key) or key.startswith(f)) for f in forms(n["title"]))]
            if close:
                near.append(f'{ref["title"]!r} ~ {close[0]!r}')
            continue
        used.add(best[1])
        found += 1
        exact += ref["page"] is not None and best[0] == 0
    total = len(reference)
    return {"entries": total, "recall": found / total if total else None,
            "page_exact": exact / total if total else None, "misses": misses, "near": near}

def pdf_outline_nodes(stem):
    path = work / f"{stem}.pdf-outline.tsv"
    rows = read_tsv(path) if path.exists() else []
    return [{"title": r["title"], "page": r["page"] or 0} for r in rows], rows

def fmt(x):
    return "  -  " if x is None else f"{x:5.3f}"

report = {"hand": {}, "pdf_outline": {}}
print("Against outlines written by hand (tests/data/outlines):")
print(f'{"document":58} {"refs":>4} {"recall":>6} {"page":>6} | {"outline alone":>13}')
totals = {"entries": 0, "found": 0, "exact": 0}
for ref_path in sorted(refs_dir.glob("*.tsv")):
    stem = ref_path.stem
    tree = work / f"{stem}.tree.json"
    if not tree.exists():
        print(f"{stem:58} (no tree: PDF missing or index failed)")
        continue
    reference = read_tsv(ref_path)
    s = score(reference, tree_nodes(tree))
    outline_nodes, outline_rows = pdf_outline_nodes(stem)
    alone = score(reference, outline_nodes) if outline_rows else None
    report["hand"][stem] = {"tree": s, "outline_alone": alone}
    totals["entries"] += s["entries"]
    totals["found"] += round(s["recall"] * s["entries"])
    totals["exact"] += round(s["page_exact"] * s["entries"])
    base = f'{fmt(alone["recall"])}/{fmt(alone["page_exact"])}' if alone else "(none)"
    print(f'{stem:58} {s["entries"]:4} {fmt(s["recall"])} {fmt(s["page_exact"])} | {base:>13}')
    for m in s["misses"][:12]:
        print(f"    missed: {m}")
    if len(s["misses"]) > 12:
        print(f'    … and {len(s["misses"]) - 12} more')
    for n in s["near"][:5]:
        print(f"    near: {n}")
if totals["entries"]:
    print(f'{"all (micro)":58} {totals["entries"]:4} {totals["found"]/totals["entries"]:6.3f} '
          f'{totals["exact"]/totals["entries"]:6.3f}')
print()
print("Against the outline the PDF carries:")
for path in sorted(work.glob("*.pdf-outline.tsv")):
    stem = path.name[: -len(".pdf-outline.tsv")]
    rows = read_tsv(path)
    tree = work / f"{stem}.tree.json"
    if not rows or not tree.exists():
        continue
    s = score(rows, tree_nodes(tree))
    report["pdf_outline"][stem] = s
    print(f'{stem:58} {s["entries"]:4} {fmt(s["recall"])} {fmt(s["page_exact"])}')
    for m in s["misses"][:8]:
        print(f"    missed: {m}")
if out:
    Path(out).write_text(json.dumps(report, indent=1))
EOF
