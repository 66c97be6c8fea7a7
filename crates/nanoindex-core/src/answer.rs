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

/// Whether an answer answers its question, for scripts (`ask --json` carries it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerStatus {
    /// Every part of the question is answered by a value found in a cited quote (or
    /// computed from cited cells).
    Answered,
    /// Some parts are answered, or the answer is a quoted passage rather than a value.
    Partial,
    /// Nothing in the pages read answers the question.
    NotFound,
}

impl AnswerStatus {
    /// The status as written in JSON (`answered`, `partial`, `not_found`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerStatus::Answered => "answered",
            AnswerStatus::Partial => "partial",
            AnswerStatus::NotFound => "not_found",
        }
    }
}

/// An answer to a question about a document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The answer text shown to the user.
    pub content: String,
    /// Whether the question is answered (absent in NanoIndex's answers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<AnswerStatus>,
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
