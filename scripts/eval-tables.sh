#!/usr/bin/env bash
# Tables in the tree, measured on FinanceBench dev: for each question whose answer is a
# statement figure (a `metrics-generated` question whose gold figure is printed in its
# evidence text), whether a table cell on an evidence page holds that figure (same value
# once `$`, `,` and parentheses are read; absolute values compared, since statements print
# outflows in parentheses). Trees are built structure-only (`index --no-llm`). Then the
# tables of three hostile files (a small ruled table, Chinese tables, a landscape page
# rotated 90°) as markdown, for a reader to check. Prints a line per question and the total;
# writes a JSON report when OUT.json is given.
#
#   scripts/eval-tables.sh [SHARED_DIR] [OUT.json]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="${1:-$root/../shared}"
out="${2:-}"
source "$root/scripts/lib/cli-bin.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

data="$shared/data/financebench-dev"
python3 - "$data/questions.jsonl" >"$work/docs.txt" <<'EOF'
import json, sys
docs = {json.loads(l)["doc_name"] for l in open(sys.argv[1]) if json.loads(l)["question_type"] == "metrics-generated"}
print("\n".join(sorted(docs)))
EOF
while read -r doc; do
    "$bin" index "$data/pdfs/$doc.pdf" -o "$work" --no-llm --force >/dev/null 2>&1 ||
        echo "index failed: $doc" >&2
done <"$work/docs.txt"
for f in table-small-ruled cjk-chinese-tables rotated-90-landscape-table; do
    pdf="$(ls "$shared/corpus/hostile/$f"*.pdf 2>/dev/null | head -1 || true)"
    [ -n "$pdf" ] && "$bin" index "$pdf" -o "$work" --no-llm --force >/dev/null 2>&1 || true
done

python3 - "$data/questions.jsonl" "$work" "$out" <<'EOF'
import json, re, sys
from pathlib import Path

questions, work, out = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
NUM = re.compile(r"\(?-?\$?\(?\d[\d,]*(?:\.\d+)?\)?")

def values(text):
    vals = []
    for m in NUM.finditer(text):
        s = m.group(0).replace("$", "").replace(",", "").strip("()")
        try:
            vals.append(abs(float(s)))
        except ValueError:
            pass
    return vals

def same(a, b):
    return abs(a - b) <= max(0.005, 1e-4 * abs(b))

def tables(tree):
    stack = list(tree.get("structure", []))
    while stack:
        n = stack.pop()
        yield from n.get("tables", [])
        stack.extend(n.get("nodes", []))

report, found, total = [], 0, 0
for line in open(questions):
    q = json.loads(line)
    if q["question_type"] != "metrics-generated":
        continue
    golds = values(q["answer"])
    if not golds:
        continue
    gold = golds[0]
    evidence = " ".join(q["evidence_text"])
    if not any(same(v, gold) for v in values(evidence)):
        report.append({"id": q["financebench_id"], "doc": q["doc_name"], "statement_figure": False})
        print(f"  computed  {q['doc_name']:28} {q['answer']:>12}  (not printed in the evidence)")
        continue
    total += 1
    path = work / f"{q['doc_name']}.tree.json"
    hit = None
    if path.exists():
        tree = json.loads(path.read_text())
        pages = set(q["evidence_pages"])
        for t in tables(tree):
            for row in t.get("cells", []):
                for c in row[1:]:
                    box = c.get("bbox") or {}
                    if box.get("page") in pages and any(same(v, gold) for v in values(c["text"])):
                        hit = hit or {"table": t["id"], "title": t.get("title", ""), "row": row[0]["text"], "cell": c["text"], "page": box["page"]}
    found += hit is not None
    report.append({"id": q["financebench_id"], "doc": q["doc_name"], "statement_figure": True, "gold": q["answer"], "found": hit})
    where = f"p{hit['page']} {hit['row'][:40]!r} = {hit['cell']}" if hit else "NOT IN A TABLE CELL"
    print(f"  {'found' if hit else 'MISSED':8}  {q['doc_name']:28} {q['answer']:>12}  {where}")
print(f"statement figures found in a table cell on an evidence page: {found}/{total}")

for f in sorted(work.glob("*.tree.json")):
    if not any(k in f.name for k in ("table-small-ruled", "cjk-chinese-tables", "rotated-90")):
        continue
    tree = json.loads(f.read_text())
    ts = list(tables(tree))
    print(f"\n== {f.name}: {len(ts)} table(s)")
    for t in ts:
        print(f"-- {t['id']} p{t['page']} {t.get('title', '')!r}")
        print(t.get("markdown", ""))
if out:
    Path(out).write_text(json.dumps({"found": found, "total": total, "questions": report}, indent=1))
EOF
