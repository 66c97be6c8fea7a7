#!/usr/bin/env bash
# Checks that tree and graph files written by nanoindex-local load in NanoIndex 0.4.0's own
# `load_tree` / `load_graph` (pydantic models), and that node ids, pages and titles survive.
# Installs nanoindex==0.4.0 into a throwaway virtualenv (needs the Python package index).
#
# Usage: scripts/check-nanoindex-compat.sh TREE.json [GRAPH.json]
set -euo pipefail
tree="${1:?usage: check-nanoindex-compat.sh TREE.json [GRAPH.json]}"
graph="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "nanoindex==0.4.0"
"$work/venv/bin/python" - "$tree" "$graph" <<'PY'
import json, sys
from nanoindex.utils.tree_ops import load_tree, load_graph

tree_path, graph_path = sys.argv[1], sys.argv[2]
tree = load_tree(tree_path)
raw = json.load(open(tree_path))

def walk(nodes):
    for n in nodes:
        yield n
        yield from walk(n.nodes)

def walk_raw(nodes):
    for n in nodes:
        yield n
        yield from walk_raw(n["nodes"])

ours = list(walk_raw(raw["structure"]))
theirs = list(walk(tree.structure))
assert len(ours) == len(theirs), (len(ours), len(theirs))
for a, b in zip(ours, theirs):
    assert (a["node_id"], a["title"], a["start_index"], a["end_index"]) == (b.node_id, b.title, b.start_index, b.end_index)
print(f"NanoIndex 0.4.0 load_tree: {tree.doc_name}: {len(theirs)} nodes, {len(tree.page_dimensions)} pages, "
      f"{len(tree.all_bounding_boxes)} boxes - OK")
if graph_path:
    g = load_graph(graph_path)
    print(f"NanoIndex 0.4.0 load_graph: {len(g.entities)} entities, {len(g.relationships)} relationships - OK")
PY
