//! The document graph: cross-references between sections, as `references` edges and as the
//! graph JSON's `cross_references`, and rule-based entities ([`entities`]): organisations,
//! people with titles, money, percentages, dates, defined terms and metric values. The only
//! crate that names petgraph.
//!
//! A reference such as "Section 2.5(b)", "Clause 5", "Article 19", "Item 1A", "Note 5",
//! "Exhibit 4.6", "Part I" or "Schedule A" in a node's text is resolved by *numbering*: to the
//! node whose title carries that number (`2.5(b) Late payment`, `ARTICLE XIX`, `Item 1A. Risk
//! Factors`). A sub-clause that is not a node of its own resolves to the section that holds
//! it (`2.5(b)` → `2.5`). There is no edge when no node carries the number, and none merely
//! because two headings share a page.

pub mod entities;

use std::collections::{HashMap, HashSet};

use nanoindex_core::numbering::{find_references, parse_heading_numbering, NumberingKind};
use nanoindex_core::{
    CrossReference, DocumentGraph, DocumentTree, Entity, EntityType, NodeId, RelationType,
    Relationship, TreeNode, FORMAT_VERSION,
};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

/// The class a numbering is looked up in: contracts number sections, clauses and articles in
/// one sequence, so those share a class.
fn class(kind: NumberingKind) -> NumberingKind {
    if kind.is_section_like() {
        NumberingKind::Section
    } else {
        kind
    }
}

/// Nodes by the numbering in their titles.
struct NumberIndex {
    by_number: HashMap<(NumberingKind, String), Vec<NodeId>>,
}

impl NumberIndex {
    fn new(tree: &DocumentTree) -> Self {
        let mut by_number: HashMap<(NumberingKind, String), Vec<NodeId>> = HashMap::new();
        for node in tree.iter_nodes() {
            if let Some((n, _)) = parse_heading_numbering(&node.title) {
                let entry = by_number
                    .entry((class(n.kind), n.label.clone()))
                    .or_default();
                entry.push(node.node_id.clone());
                // ARTICLE IV headings are also what "Section 4" means in many contracts, but
                // "Article 4" is never a decimal 4.x section: register articles under their
                // own kind too.
                if n.kind == NumberingKind::Article {
                    by_number
                        .entry((NumberingKind::Article, n.label))
                        .or_default()
                        .push(node.node_id.clone());
                }
            }
        }
        NumberIndex { by_number }
    }

    /// Candidates for a reference, trying `2.5(b)(i)`, then `2.5(b)`, then `2.5`.
    fn lookup(&self, kind: NumberingKind, label: &str) -> Option<&Vec<NodeId>> {
        let mut label = label.to_string();
        loop {
            if kind == NumberingKind::Article {
                if let Some(found) = self.by_number.get(&(NumberingKind::Article, label.clone())) {
                    return Some(found);
                }
            }
            if let Some(found) = self.by_number.get(&(class(kind), label.clone())) {
                return Some(found);
            }
            match label.rfind('(') {
                Some(cut) if cut > 0 => label.truncate(cut),
                _ => return None,
            }
        }
    }
}

fn top_level(id: &NodeId) -> &str {
    id.as_str().split('.').next().unwrap_or("")
}

/// Finds every resolvable cross-reference in the tree, in document order, one per
/// (source, target) pair.
pub fn cross_references(tree: &DocumentTree) -> Vec<CrossReference> {
    let index = NumberIndex::new(tree);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for node in tree.iter_nodes() {
        let Some(text) = node.text.as_deref() else {
            continue;
        };
        for reference in find_references(text) {
            let Some(candidates) =
                index.lookup(reference.numbering.kind, &reference.numbering.label)
            else {
                continue;
            };
            // Items repeat across the parts of a 10-Q: prefer the one in the same part.
            let target = candidates
                .iter()
                .find(|c| top_level(c) == top_level(&node.node_id))
                .unwrap_or(&candidates[0]);
            if *target == node.node_id || !seen.insert((node.node_id.clone(), target.clone())) {
                continue;
            }
            out.push(CrossReference {
                source_node_id: node.node_id.clone(),
                target_node_id: target.clone(),
                text: text[reference.span.clone()].to_string(),
                page: node.page_of_offset(reference.span.start),
            });
        }
    }
    out
}

/// Builds the graph JSON of a tree: section entities and `references` relationships for
/// every cross-reference, plus the entities and relationships found by rules in the text
/// (see [`entities`]).
pub fn build_graph(tree: &DocumentTree) -> DocumentGraph {
    let refs = cross_references(tree);
    let titles: HashMap<&NodeId, &TreeNode> = tree.iter_nodes().map(|n| (&n.node_id, n)).collect();
    let mut entity_ids: Vec<&NodeId> = Vec::new();
    let mut relationships = Vec::new();
    for r in &refs {
        let (Some(source), Some(target)) =
            (titles.get(&r.source_node_id), titles.get(&r.target_node_id))
        else {
            continue;
        };
        for id in [&r.source_node_id, &r.target_node_id] {
            if !entity_ids.contains(&id) {
                entity_ids.push(id);
            }
        }
        relationships.push(Relationship {
            source: source.title.clone(),
            target: target.title.clone(),
            relation_type: Some(RelationType::References),
            keywords: r.text.clone(),
            description: format!(
                "\"{}\" on page {} refers to \"{}\"",
                r.text, r.page, target.title
            ),
            source_node_ids: vec![r.source_node_id.clone()],
        });
    }
    let mut entities: Vec<Entity> = entity_ids
        .into_iter()
        .filter_map(|id| titles.get(id))
        .map(|n| Entity {
            name: n.title.clone(),
            entity_type: EntityType::Section,
            description: format!("section on pages {}–{}", n.start_index, n.end_index),
            source_node_ids: vec![n.node_id.clone()],
        })
        .collect();
    let (found, found_relationships) = entities::extract_entities(tree);
    entities.extend(found);
    relationships.extend(found_relationships);
    DocumentGraph {
        doc_name: tree.doc_name.clone(),
        format_version: FORMAT_VERSION,
        entities,
        relationships,
        cross_references: refs,
    }
}

/// The cross-reference graph of one document in petgraph form, for traversal at query time.
#[derive(Debug, Default)]
pub struct SectionGraph {
    graph: DiGraph<NodeId, String>,
    index: HashMap<NodeId, NodeIndex>,
}

impl SectionGraph {
    /// Builds the graph from a graph file's cross-references.
    pub fn new(graph: &DocumentGraph) -> Self {
        let mut out = SectionGraph::default();
        for r in &graph.cross_references {
            let a = out.node(&r.source_node_id);
            let b = out.node(&r.target_node_id);
            out.graph.add_edge(a, b, r.text.clone());
        }
        out
    }

    fn node(&mut self, id: &NodeId) -> NodeIndex {
        if let Some(&ix) = self.index.get(id) {
            return ix;
        }
        let ix = self.graph.add_node(id.clone());
        self.index.insert(id.clone(), ix);
        ix
    }

    /// Nodes that `id` refers to, in the order the references were found.
    pub fn references_from(&self, id: &NodeId) -> Vec<&NodeId> {
        self.neighbours(id, Direction::Outgoing)
    }

    /// Nodes that refer to `id`.
    pub fn referenced_by(&self, id: &NodeId) -> Vec<&NodeId> {
        self.neighbours(id, Direction::Incoming)
    }

    fn neighbours(&self, id: &NodeId, direction: Direction) -> Vec<&NodeId> {
        let Some(&ix) = self.index.get(id) else {
            return Vec::new();
        };
        let mut edges: Vec<_> = self.graph.edges_directed(ix, direction).collect();
        edges.sort_by_key(|e| e.id());
        edges
            .into_iter()
            .map(|e| {
                let other = if direction == Direction::Outgoing {
                    e.target()
                } else {
                    e.source()
                };
                &self.graph[other]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nanoindex_core::{assign_node_ids, ExtractionMetadata, TextPageSpan};

    fn tree(nodes: Vec<TreeNode>) -> DocumentTree {
        let mut structure = nodes;
        assign_node_ids(&mut structure);
        DocumentTree {
            doc_name: "t".into(),
            doc_description: None,
            domain: None,
            extraction_metadata: ExtractionMetadata::default(),
            structure,
            all_bounding_boxes: vec![],
            page_dimensions: vec![],
        }
    }

    fn node(title: &str, text: &str, page: u32) -> TreeNode {
        let mut n = TreeNode::new(title, page, page);
        n.text = Some(text.to_string());
        n
    }

    #[test]
    fn resolves_by_numbering_and_falls_back_to_the_holding_section() {
        let mut s2 = node("2. Payment", "Fees are due monthly.", 1);
        s2.nodes.push(node(
            "2.5 Late Payment",
            "Interest accrues. See Section 7.1 and Article IV.",
            2,
        ));
        let mut s4 = node(
            "ARTICLE IV Indemnification",
            "Subject to Section 2.5(b), the vendor indemnifies.",
            3,
        );
        s4.text_pages = vec![
            TextPageSpan { page: 3, offset: 0 },
            TextPageSpan {
                page: 4,
                offset: 10,
            },
        ];
        let t = tree(vec![
            s2,
            node("Schedule A", "Prices. Section 9.9 does not exist.", 5),
            s4,
        ]);
        let refs = cross_references(&t);
        let pairs: Vec<(&str, &str, &str, u32)> = refs
            .iter()
            .map(|r| {
                (
                    r.source_node_id.as_str(),
                    r.target_node_id.as_str(),
                    r.text.as_str(),
                    r.page,
                )
            })
            .collect();
        assert_eq!(
            pairs,
            [
                ("0000.0000", "0002", "Article IV", 2),
                ("0002", "0000.0000", "Section 2.5(b)", 4)
            ]
        );
        let graph = build_graph(&t);
        assert_eq!(graph.relationships.len(), 2);
        assert_eq!(
            graph.relationships[0]
                .relation_type
                .as_ref()
                .map(nanoindex_core::RelationType::as_str),
            Some("references")
        );
        let sg = SectionGraph::new(&graph);
        assert_eq!(
            sg.references_from(&NodeId::from("0002")),
            [&NodeId::from("0000.0000")]
        );
        assert_eq!(
            sg.referenced_by(&NodeId::from("0002")),
            [&NodeId::from("0000.0000")]
        );
    }
}
