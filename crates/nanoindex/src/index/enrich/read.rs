//! Each text is read once: the windows of the document's prose and the one model request per
//! window that serves both summaries and model entities.
//!
//! A node's prose is its own text less the lines the tree read as figure rows of a table
//! ([`nanoindex_core::DocumentTree::figure_row_keys`]): the model never paraphrases rows of
//! figures (a table is described from its title and header instead, in `summary`), and the
//! rule-based graph already leaves rows out of prose. Prose of at least the minimum size is
//! cut at paragraphs, sentences and lines into windows of at most the window size (all of
//! it, not a prefix), and each window goes to the model once:
//!
//! - summaries and entities: one request whose reply fills one JSON Schema with the window's
//!   `summary`, `entities` and `relationships` ([`prompts::read`]);
//! - entities only: the same request without `summary`;
//! - summaries only: the plain-text summary request ([`prompts::summary`]).
//!
//! The fixed instructions (the document's focus, the entity and relationship types) are the
//! system message, so every request of a document starts with the same tokens: llama.cpp
//! evaluates that prefix once per batch and tags it with every sequence, and a request sent
//! alone reuses it from the previous request's cache.

use std::collections::HashSet;

use nanoindex_core::tree::row_key;
use nanoindex_core::{estimate_tokens, NodeId, TreeNode};
use nanoindex_llm::{GenerateRequest, LlmError};

use super::{prompts, Calls};
use crate::text::{boundaries, head, pack};

/// Estimated tokens of prose per window when model entities are asked for (with or without
/// summaries); summaries alone use the enrichment's prompt budget.
pub const WINDOW_TOKENS: usize = 480;

/// One window of one node's prose.
#[derive(Debug, Clone)]
pub(crate) struct Window {
    /// Child indices from the top of the structure to the node.
    pub path: Vec<usize>,
    /// The node's id.
    pub node_id: NodeId,
    /// The node's title.
    pub title: String,
    /// The window's text: a stretch of the node's prose.
    pub text: String,
}

/// What the model returned for one window.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reading {
    /// The summary written for the window, as the model wrote it (`None` when not asked for or
    /// when the reply had none); `summary` checks and cleans it.
    pub summary: Option<String>,
    /// The reply's `entities` and `relationships` (`Null` when not asked for or not JSON).
    pub entities: serde_json::Value,
}

/// What to ask of every window.
pub(crate) struct Asked<'a> {
    /// Ask for a summary of each window.
    pub summaries: bool,
    /// Ask for entities and relationships of these types (`None`: not asked).
    pub entities: Option<EntityAsk<'a>>,
}

/// The types of model entities and what the document is.
pub(crate) struct EntityAsk<'a> {
    /// What the document is, for the instructions ("a company's annual report").
    pub focus: &'a str,
    /// Entity type names (the schema's enum).
    pub entity_types: &'a [&'a str],
    /// Relationship type names (the schema's enum).
    pub relation_types: &'a [&'a str],
}

/// A node's prose: the lines of `text` that are not figure rows (`rows`, [`row_key`]s), in
/// order, and how many lines were left out.
pub(crate) fn prose(text: &str, rows: &HashSet<String>) -> (String, usize) {
    if rows.is_empty() {
        return (text.to_string(), 0);
    }
    let mut out = String::with_capacity(text.len());
    let mut left_out = 0;
    for line in text.split_inclusive('\n') {
        let key = row_key(line);
        if !key.is_empty() && rows.contains(&key) {
            left_out += 1;
        } else {
            out.push_str(line);
        }
    }
    (out, left_out)
}

/// The windows of every node's prose of at least `min_tokens` estimated tokens, each of at
/// most `window_tokens`, in document order (parents before children).
pub(crate) fn windows(
    structure: &[TreeNode],
    rows: &HashSet<String>,
    window_tokens: usize,
    min_tokens: usize,
) -> Vec<Window> {
    let mut out = Vec::new();
    collect(
        structure,
        rows,
        window_tokens,
        min_tokens,
        &mut Vec::new(),
        &mut out,
    );
    out
}

fn collect(
    nodes: &[TreeNode],
    rows: &HashSet<String>,
    window_tokens: usize,
    min_tokens: usize,
    path: &mut Vec<usize>,
    out: &mut Vec<Window>,
) {
    for (i, node) in nodes.iter().enumerate() {
        path.push(i);
        let (text, _) = prose(node.text.as_deref().unwrap_or(""), rows);
        if estimate_tokens(&text) >= min_tokens {
            for range in parts(&text, window_tokens) {
                out.push(Window {
                    path: path.clone(),
                    node_id: node.node_id.clone(),
                    title: node.title.clone(),
                    text: text[range].to_string(),
                });
            }
        }
        collect(&node.nodes, rows, window_tokens, min_tokens, path, out);
        path.pop();
    }
}

/// Parts of `text` of at most `budget` estimated tokens, cut at paragraphs, sentences and
/// lines.
pub(crate) fn parts(text: &str, budget: usize) -> Vec<std::ops::Range<usize>> {
    let bounds = boundaries(text, budget);
    pack(text, 0..text.len(), &bounds, budget)
        .into_iter()
        .map(|r| {
            // A stretch with no boundary inside can still be over the budget: keep its head.
            let keep = head(&text[r.clone()], budget).len();
            r.start..r.start + keep
        })
        .collect()
}

/// The request that reads `window` for what is `asked`.
pub(crate) fn request(window: &Window, asked: &Asked<'_>) -> GenerateRequest {
    match &asked.entities {
        Some(e) => prompts::read(
            e.focus,
            &window.title,
            &window.text,
            e.entity_types,
            e.relation_types,
            asked.summaries,
        ),
        None => prompts::summary(&window.title, &window.text, false),
    }
}

/// Reads every window once (batched) and returns one [`Reading`] per window, in order.
///
/// # Errors
///
/// Model failures only; a reply that is not JSON reads as a window without entities or
/// summary.
pub(crate) fn read(
    calls: &mut Calls<'_, '_>,
    windows: &[Window],
    asked: &Asked<'_>,
) -> Result<Vec<Reading>, LlmError> {
    let requests: Vec<GenerateRequest> = windows.iter().map(|w| request(w, asked)).collect();
    let replies = calls.batch(&requests)?;
    Ok(replies
        .into_iter()
        .map(|reply| {
            if asked.entities.is_none() {
                return Reading {
                    summary: Some(reply.text),
                    entities: serde_json::Value::Null,
                };
            }
            let value: serde_json::Value =
                serde_json::from_str(&reply.text).unwrap_or(serde_json::Value::Null);
            let summary = value
                .get("summary")
                .and_then(|s| s.as_str())
                .map(str::to_string);
            Reading {
                summary,
                entities: value,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_rows_are_left_out_of_the_prose() {
        let text = "Revenue grew in every region.\nNet sales $ 1,200 $ 1,100\nCost of sales 800 \
                    700\nMargins were stable.\n";
        let rows: HashSet<String> = ["Netsales$1,200$1,100", "Costofsales800700"]
            .into_iter()
            .map(String::from)
            .collect();
        let (kept, left_out) = prose(text, &rows);
        assert_eq!(
            kept,
            "Revenue grew in every region.\nMargins were stable.\n"
        );
        assert_eq!(left_out, 2);
        assert_eq!(prose(text, &HashSet::new()).0, text);
    }

    #[test]
    fn long_text_is_cut_into_parts_within_the_budget() {
        let text = (0..40)
            .map(|i| format!("Paragraph {i} has several words in it to make it longer."))
            .collect::<Vec<_>>()
            .join("\n\n");
        let p = parts(&text, 60);
        assert!(p.len() > 1);
        assert!(p.iter().all(|r| estimate_tokens(&text[r.clone()]) <= 60));
        assert_eq!(p[0].start, 0);
        // All of the text is read: the parts cover it in order, with only whitespace between.
        let covered: String = p.iter().map(|r| &text[r.clone()]).collect();
        let squash = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(squash(&covered), squash(&text));
    }
}
