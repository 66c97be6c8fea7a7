//! Each text is read once: the windows of the document's prose, and the requests that read
//! each window for both its summary and its model entities while its text is evaluated once.
//!
//! A node's prose is its own text less the lines the tree read as figure rows of a table
//! ([`nanoindex_core::DocumentTree::figure_row_keys`]): the model never paraphrases rows of
//! figures (a table is described from its title and header instead, in `summary`), and the
//! rule-based graph already leaves rows out of prose. Prose of at least the minimum size is
//! cut at paragraphs, sentences and lines into windows of at most the window size (all of
//! it, not a prefix), and each window is read:
//!
//! - summaries and entities: a conversation of two turns, one window after the other. The
//!   first asks for the summary, written as one JSON string that begins with "This section"
//!   ([`prompts::summary_in_own_words`]; ended as soon as it starts to loop,
//!   [`crate::text::loop_start`]; asked again in the same conversation when it copies the
//!   text, up to [`SUMMARY_TURNS`] turns in all); the second, the summary's
//!   conversation plus one more user turn, asks for the entities and relationships under a
//!   JSON Schema ([`prompts::entities_after_summary`]). The backend still holds the first
//!   turn's keys and values, so the second evaluates only its own new tokens, never the
//!   window's text again; the list is ended at its first repeated item
//!   ([`repeats_an_item`]). (Writing the summary inside the JSON reply instead was tried: the
//!   default model then looped on the summary or the list until the token limit.)
//! - entities only: one request with the instructions and types as the system message
//!   ([`prompts::entities`]), the same for every window, so llama.cpp evaluates that prefix
//!   once per batch;
//! - summaries only: the plain-text summary request, batched.

use std::collections::HashSet;

use nanoindex_core::tree::row_key;
use nanoindex_core::{estimate_tokens, NodeId, TreeNode};
use nanoindex_llm::{Conversations, GenerateRequest, Generation, LlmError, TokenControl};

use super::summary::{clean, usable};
use super::{prompts, Calls};
use crate::text::{boundaries, head, pack};

/// Estimated tokens of prose per window when model entities are asked for (with or without
/// summaries); summaries alone use the enrichment's prompt budget.
pub const WINDOW_TOKENS: usize = 960;

/// Most summary turns of one window's conversation: the first request and the retries
/// after a reply that is not usable. A window whose last reply is still not usable has no
/// summary of its own (it is not read again alone: that would evaluate its text twice, and
/// on the default model such retries mostly returned the text reworded).
pub const SUMMARY_TURNS: usize = 3;

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
    /// The summary written for the window, as the model wrote it (`None` when not asked for);
    /// `summary` checks and cleans it.
    pub summary: Option<String>,
    /// Replies rejected in the window's conversation and asked for again there (0 to
    /// [`SUMMARY_TURNS`] − 1); the last reply is `summary`.
    pub retried: usize,
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

/// Reads every window once and returns one [`Reading`] per window, in order: summaries and
/// entities together window by window (two turns of one conversation, see the module
/// docs), one of them alone in batches.
///
/// # Errors
///
/// Model failures only; a reply that is not JSON reads as a window without entities (its
/// complete part is kept, [`salvage`]).
pub(crate) fn read(
    calls: &mut Calls<'_, '_>,
    windows: &[Window],
    asked: &Asked<'_>,
) -> Result<Vec<Reading>, LlmError> {
    match (&asked.entities, asked.summaries) {
        (None, _) => {
            let requests: Vec<GenerateRequest> = windows
                .iter()
                .map(|w| prompts::summary(&w.title, &w.text, false))
                .collect();
            Ok(calls
                .batch(&requests)?
                .into_iter()
                .map(|reply| Reading {
                    summary: Some(reply.text),
                    retried: 0,
                    entities: serde_json::Value::Null,
                })
                .collect())
        }
        (Some(e), false) => {
            let requests: Vec<GenerateRequest> = windows
                .iter()
                .map(|w| {
                    prompts::entities(e.focus, &w.title, &w.text, e.entity_types, e.relation_types)
                })
                .collect();
            Ok(calls
                .batch(&requests)?
                .into_iter()
                .map(|reply| Reading {
                    summary: None,
                    retried: 0,
                    entities: salvage(&reply.text),
                })
                .collect())
        }
        (Some(e), true) => {
            calls.expect(2 * windows.len());
            let system = prompts::reading_system(e.focus, e.entity_types, e.relation_types);
            let mut conversations = WindowConversations {
                windows,
                system: &system,
                entities: e,
                next: 0,
                states: windows.iter().map(|_| None).collect(),
                readings: vec![Reading::default(); windows.len()],
                retries: 0,
            };
            calls.serve(&mut conversations)?;
            Ok(conversations.readings)
        }
    }
}

/// Where one window's conversation stands.
struct WindowState {
    /// The summary request last asked (the conversation so far).
    asked_summary: GenerateRequest,
    /// The summary reply, once it is usable or out of turns.
    summary: Option<String>,
    /// Summary replies rejected and asked for again.
    retried: usize,
}

/// Every window's conversation of two turns (see the module docs), served together by the
/// model ([`Calls::serve`]): each window's summary, asked again in its conversation while it
/// is not usable, then its entities and relationships.
struct WindowConversations<'w> {
    windows: &'w [Window],
    system: &'w str,
    entities: &'w EntityAsk<'w>,
    next: usize,
    states: Vec<Option<WindowState>>,
    readings: Vec<Reading>,
    /// Summary turns asked again and not yet told to progress ([`Conversations::planned`]).
    retries: usize,
}

impl Conversations for WindowConversations<'_> {
    fn start(&mut self, _idle: bool) -> Option<(usize, GenerateRequest)> {
        let id = self.next;
        let w = self.windows.get(id)?;
        self.next += 1;
        let asked_summary = prompts::summary_in_own_words(&w.title, &w.text, self.system);
        self.states[id] = Some(WindowState {
            asked_summary: asked_summary.clone(),
            summary: None,
            retried: 0,
        });
        Some((id, asked_summary))
    }

    fn watch(&mut self, id: usize, written: &str) -> TokenControl {
        let in_summary = self.states[id]
            .as_ref()
            .is_some_and(|s| s.summary.is_none());
        // A summary that starts to loop is ended there (`clean` keeps what came before the
        // loop; decoding the loop to the token limit was a fifth of the default model's
        // summary tokens). A list that starts over is ended there: the model has run out of
        // items, and decoding the repeats until the schema's maximum was most of the time.
        let stop = if in_summary {
            crate::text::loop_start(written).is_some()
        } else {
            repeats_an_item(written)
        };
        if stop {
            TokenControl::Stop
        } else {
            TokenControl::Continue
        }
    }

    fn reply(&mut self, id: usize, reply: Result<Generation, LlmError>) -> Option<GenerateRequest> {
        let text = reply.map(|r| r.text).unwrap_or_default();
        let window = &self.windows[id];
        let state = self.states[id].as_mut()?;
        if state.summary.is_some() {
            self.readings[id] = Reading {
                summary: state.summary.as_deref().map(prompts::summary_text),
                retried: state.retried,
                entities: salvage(&text),
            };
            self.states[id] = None;
            return None;
        }
        // The reply as generated goes back into the conversation (the backend's cache holds
        // those tokens); its text is the summary. Asked again while the conversation is
        // still in the cache: each turn evaluates the reply and one line, not the window.
        if state.retried + 1 < SUMMARY_TURNS
            && !usable(&clean(&prompts::summary_text(&text)), &window.text)
        {
            state.asked_summary = prompts::summary_again(&state.asked_summary, &text);
            state.retried += 1;
            self.retries += 1;
            return Some(state.asked_summary.clone());
        }
        let asked_entities = prompts::entities_after_summary(
            &state.asked_summary,
            &text,
            self.entities.entity_types,
            self.entities.relation_types,
        );
        state.summary = Some(text);
        Some(asked_entities)
    }

    fn planned(&mut self) -> usize {
        std::mem::take(&mut self.retries)
    }
}

/// Whether an entities reply being written (`{"entities": [...], "relationships": [...]}`,
/// possibly cut anywhere) has begun to repeat itself: an entity whose `name` (compared
/// without case or surrounding space) an earlier entity had, or a relationship whose source,
/// relation and target an earlier one had. Greedy decoding that repeats an item has run out
/// of new ones and goes on cycling through the list until the schema's `maxItems`.
pub(crate) fn repeats_an_item(reply: &str) -> bool {
    /// A container open at this point: an object with its current key and the string
    /// fields read so far, or an array with the key it is the value of.
    enum Frame {
        Object {
            key: Option<String>,
            after_colon: bool,
            fields: Vec<(String, String)>,
        },
        Array {
            key: Option<String>,
        },
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut names: HashSet<String> = HashSet::new();
    let mut triples: HashSet<(String, String, String)> = HashSet::new();
    let mut string: Option<String> = None;
    let mut escaped = false;
    // The key of the array that holds the object on top of the stack.
    let list_of = |stack: &[Frame]| -> Option<String> {
        match stack.iter().rev().nth(1) {
            Some(Frame::Array { key }) => key.clone(),
            _ => None,
        }
    };
    for c in reply.chars() {
        if let Some(buf) = string.as_mut() {
            match (escaped, c) {
                (true, _) => {
                    escaped = false;
                    buf.push(c);
                }
                (false, '\\') => escaped = true,
                (false, '"') => {
                    let value = string.take().unwrap_or_default();
                    let in_entities = list_of(&stack).as_deref() == Some("entities");
                    if let Some(Frame::Object {
                        key,
                        after_colon,
                        fields,
                    }) = stack.last_mut()
                    {
                        if !*after_colon {
                            *key = Some(value);
                        } else if let Some(k) = key.clone() {
                            if in_entities
                                && k == "name"
                                && !names.insert(value.trim().to_lowercase())
                            {
                                return true;
                            }
                            fields.push((k, value));
                        }
                    }
                }
                (false, _) => buf.push(c),
            }
            continue;
        }
        match c {
            '"' => string = Some(String::new()),
            ':' => {
                if let Some(Frame::Object { after_colon, .. }) = stack.last_mut() {
                    *after_colon = true;
                }
            }
            ',' => {
                if let Some(Frame::Object {
                    key, after_colon, ..
                }) = stack.last_mut()
                {
                    *key = None;
                    *after_colon = false;
                }
            }
            '{' => stack.push(Frame::Object {
                key: None,
                after_colon: false,
                fields: Vec::new(),
            }),
            '[' => {
                let key = match stack.last() {
                    Some(Frame::Object { key, .. }) => key.clone(),
                    _ => None,
                };
                stack.push(Frame::Array { key });
            }
            '}' => {
                let in_relationships = list_of(&stack).as_deref() == Some("relationships");
                if let Some(Frame::Object { fields, .. }) = stack.pop() {
                    if in_relationships {
                        let field = |name: &str| {
                            fields
                                .iter()
                                .find(|(k, _)| k == name)
                                .map(|(_, v)| v.trim().to_lowercase())
                                .unwrap_or_default()
                        };
                        let triple = (field("source"), field("relation"), field("target"));
                        if !triples.insert(triple) {
                            return true;
                        }
                    }
                }
            }
            ']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    false
}

/// The JSON value of a reply, or of its longest complete part when the reply was cut (the
/// token limit reached while the model repeated a list item): the text up to the last
/// closed object or array, with the brackets still open closed after it. `Null` when not
/// even that parses.
///
/// `{"summary": "Rent terms.", "entities": [{"name": "Acme", "type": "organization"}, {"na`
/// reads as `{"summary": "Rent terms.", "entities": [{"name": "Acme", "type": "organization"}]}`.
pub(crate) fn salvage(reply: &str) -> serde_json::Value {
    if let Ok(value) = serde_json::from_str(reply) {
        return value;
    }
    // Brackets open at each point, outside strings.
    let mut open: Vec<char> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut best = serde_json::Value::Null;
    for (i, c) in reply.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => open.push('}'),
            '[' => open.push(']'),
            '}' | ']' => {
                open.pop();
                if open.is_empty() {
                    break;
                }
                let mut candidate = reply[..=i].to_string();
                candidate.extend(open.iter().rev());
                if let Ok(value) = serde_json::from_str(&candidate) {
                    best = value;
                }
            }
            // A complete string value (`"summary": "…",`) before anything else closed.
            ',' if open.len() == 1 => {
                let mut candidate = reply[..i].to_string();
                candidate.push('}');
                if let Ok(value) = serde_json::from_str(&candidate) {
                    best = value;
                }
            }
            _ => {}
        }
    }
    best
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
    fn a_reply_cut_by_the_token_limit_keeps_its_complete_part() {
        let cut = r#"{"summary": "Rent terms of the lease.", "entities": [{"name": "Acme", "type": "organization"}, {"name": "Acme", "type": "organization"}, {"na"#;
        assert_eq!(
            salvage(cut),
            serde_json::json!({
                "summary": "Rent terms of the lease.",
                "entities": [
                    {"name": "Acme", "type": "organization"},
                    {"name": "Acme", "type": "organization"}
                ]
            })
        );
        // Cut inside the first list: the summary before it is kept.
        let early = r#"{"summary": "Rent, \"terms\" [sic].", "entities": [{"name": "Ac"#;
        assert_eq!(
            salvage(early),
            serde_json::json!({"summary": "Rent, \"terms\" [sic]."})
        );
        // A whole reply parses as it is; nothing usable is Null.
        assert_eq!(salvage(r#"{"a": [1]}"#), serde_json::json!({"a": [1]}));
        assert_eq!(salvage(r#"{"summ"#), serde_json::Value::Null);
    }

    #[test]
    fn a_list_that_starts_over_is_seen_at_its_first_repeated_item() {
        let fresh = r#"{"entities": [{"name": "Amcor plc", "type": "organization"}, {"name": "Bemis", "type": "organization"}], "relationships": [{"source": "Amcor plc", "relation": "acquired", "target": "Bemis"}, {"source": "Bemis", "relation": "acquired", "target": "Amcor plc"}]}"#;
        assert!(!repeats_an_item(fresh));
        // Every prefix of a reply without repeats has none either.
        assert!((0..fresh.len()).all(|i| !repeats_an_item(&fresh[..i])));
        // The name is seen as soon as its string closes, before the item does; case and
        // surrounding space do not make it new.
        let again = r#"{"entities": [{"name": "Amcor plc", "type": "organization"}, {"name": "Bemis", "type": "organization"}, {"name": " amcor PLC""#;
        assert!(repeats_an_item(again));
        assert!(!repeats_an_item(&again[..again.len() - 1]));
        // A name equal to a type or a relationship's end is not an entity repeated.
        let types = r#"{"entities": [{"name": "organization", "type": "organization"}], "relationships": [{"source": "organization", "relation": "acquired", "target": "Bemis"}"#;
        assert!(!repeats_an_item(types));
        // A relationship repeated whole; quotes escaped inside names are read as text.
        let twice = r#"{"entities": [{"name": "A "B"", "type": "organization"}, {"name": "A B", "type": "organization"}], "relationships": [{"source": "A "B"", "relation": "owns", "target": "A B"}, {"source": "A "B"", "relation": "owns", "target": "A B"}"#;
        assert!(!repeats_an_item(&twice[..twice.len() - 1]));
        assert!(repeats_an_item(twice));
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
