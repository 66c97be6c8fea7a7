//! Answers and their citations, in NanoIndex's shape plus verified quotes and page labels.

use serde::{Deserialize, Serialize};

use crate::id::NodeId;
use crate::tree::BoundingBox;

/// Where a claim in an answer comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// Node holding the supporting text.
    pub node_id: NodeId,
    /// Title of that node.
    pub title: String,
    /// Document name, for answers across several documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc_name: Option<String>,
    /// 1-based pages where the quoted text is (not the node's whole range).
    #[serde(default)]
    pub pages: Vec<u32>,
    /// Boxes of the quote on those pages.
    #[serde(default)]
    pub bounding_boxes: Vec<BoundingBox>,
    /// Text quoted verbatim from the page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// Printed page labels of `pages`, present when some label differs from the number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_labels: Option<Vec<String>>,
}

/// An answer to a question about a document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The answer text shown to the user.
    pub content: String,
    /// Step-by-step reasoning, when the mode produced it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Verified citations.
    #[serde(default)]
    pub citations: Vec<Citation>,
    /// Retrieval mode that produced the answer.
    pub mode: String,
    /// Rounds, nodes and pages read, model calls and timings (free-form JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<serde_json::Value>,
}
