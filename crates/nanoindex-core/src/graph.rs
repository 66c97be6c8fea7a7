//! The entity graph as stored in `<doc>.graph.json`: entities, relationships and
//! cross-references, each pointing back at tree nodes by id.

use serde::{Deserialize, Serialize};

use crate::id::NodeId;

/// Something named in the document: an organisation, an amount, a section, …
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// Canonical name.
    pub name: String,
    /// `organization`, `person`, `money`, `percentage`, `date`, `metric`, `product`,
    /// `location`, `legal_reference`, or a custom type.
    #[serde(default = "other")]
    pub entity_type: String,
    /// Short description or context.
    #[serde(default)]
    pub description: String,
    /// Ids of the tree nodes the entity was found in.
    #[serde(default)]
    pub source_node_ids: Vec<NodeId>,
}

fn other() -> String {
    "Other".to_string()
}

/// A typed, directed relation between two entities (by name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Relationship {
    /// Name of the source entity.
    pub source: String,
    /// Name of the target entity.
    pub target: String,
    /// `has_value`, `references`, `subsidiary_of`, … (our addition; optional in NanoIndex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relation_type: Option<String>,
    /// Free-text keywords, as NanoIndex stores them.
    #[serde(default)]
    pub keywords: String,
    /// Short description.
    #[serde(default)]
    pub description: String,
    /// Ids of the tree nodes the relation was found in.
    #[serde(default)]
    pub source_node_ids: Vec<NodeId>,
}

/// A reference such as "Section 2.5(b)" or "Item 7" in one node's text, resolved to the node
/// that carries that numbering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossReference {
    /// Node whose text contains the reference.
    pub source_node_id: NodeId,
    /// Node the reference names.
    pub target_node_id: NodeId,
    /// The reference as written ("Section 2.5(b)").
    pub text: String,
    /// 1-based page where the reference occurs.
    pub page: u32,
}

/// The graph file of one document.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DocumentGraph {
    /// Same as the tree's `doc_name`.
    #[serde(default)]
    pub doc_name: String,
    /// [`crate::FORMAT_VERSION`] of the writer.
    #[serde(default)]
    pub format_version: u32,
    /// Entities.
    #[serde(default)]
    pub entities: Vec<Entity>,
    /// Relationships between entities.
    #[serde(default)]
    pub relationships: Vec<Relationship>,
    /// Resolved cross-references between nodes.
    #[serde(default)]
    pub cross_references: Vec<CrossReference>,
}
