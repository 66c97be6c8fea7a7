//! Data model of nanoindex-local: the section tree, bounding boxes, the entity graph,
//! citations and answers, with JSON save/load compatible with NanoIndex 0.4.0.
//!
//! Conventions shared by every crate:
//! - pages in JSON (`start_index`, `end_index`, `BoundingBox::page`) are 1-based and inclusive;
//! - boxes are fractions (0–1) of the page as displayed (after rotation), origin top-left;
//! - node ids are dotted, 4-digit, depth-first and 0-based (`0000`, `0000.0000`, `0003.0001`).
//!
//! This crate does no I/O beyond reading and writing its own JSON files.

pub mod answer;
pub mod dirs;
pub mod domain;
pub mod english;
pub mod error;
pub mod extract;
pub mod figures;
pub mod graph;
pub mod id;
pub mod io;
pub mod metrics;
pub mod numbering;
pub mod script;
pub mod tree;
pub mod years;

pub use answer::{Answer, AnswerStatus, Citation};
pub use domain::DomainName;
pub use error::CoreError;
pub use graph::{
    CrossReference, DocumentGraph, Entity, EntityType, RelationType, Relationship, TypeNameError,
};
pub use id::NodeId;
pub use io::{load_graph, load_tree, save_graph, save_tree};
pub use tree::{
    assign_node_ids, estimate_tokens, iter_nodes, BoundingBox, DocumentTree, ExtractionMetadata,
    OcrPage, PageDimensions, PageError, SourceSpan, SplitMethod, Table, TableCell, TextPageSpan,
    TreeNode,
};

/// Version of the tree and graph JSON written by this crate. Bump it when a field changes
/// meaning; readers refuse nothing (NanoIndex files have no version) but caches key on it.
pub const FORMAT_VERSION: u32 = 1;
