//! Entities and relationships found by the model, on top of the rule-based graph.
//!
//! The model reads every window of a node's prose once (module `read`) and fills a JSON
//! Schema whose type fields are enums of the domain's (and the user's) entity and
//! relationship types. An entity is kept only when its name occurs in the window (case and
//! spacing aside) — the name stored is the document's own spelling — and a relationship only
//! when both ends are kept entities of that window. Kept items are merged into the graph by
//! normalised name (`nanoindex_graph::entities::merge_into`).

use nanoindex_core::{DocumentGraph, Entity, EntityType, RelationType, Relationship};

use super::read::{Reading, Window};

/// What model extraction did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct EntityStats {
    /// Windows sent to the model.
    pub windows: usize,
    /// Entities the model named that were in the window and were kept.
    pub kept_entities: usize,
    /// Entities rejected: not in the window, or of a type not asked for.
    pub rejected_entities: usize,
    /// Relationships kept.
    pub kept_relationships: usize,
    /// Relationships rejected: an end that is not a kept entity of the window.
    pub rejected_relationships: usize,
    /// Entities new to the graph after merging.
    pub new_entities: usize,
    /// Relationships new to the graph after merging.
    pub new_relationships: usize,
}

/// Checks the entities and relationships the model read in each window against the window's
/// text and the asked types, and merges the kept ones into `graph`, each pointing at its
/// window's node.
pub(crate) fn merge(
    windows: &[Window],
    readings: &[Reading],
    graph: &mut DocumentGraph,
    entity_types: &[EntityType],
    relation_types: &[RelationType],
) -> EntityStats {
    let mut stats = EntityStats {
        windows: windows.len(),
        ..EntityStats::default()
    };
    let mut entities = Vec::new();
    let mut relationships = Vec::new();
    for (window, reading) in windows.iter().zip(readings) {
        let value = &reading.entities;
        let mut kept: Vec<(String, String)> = Vec::new();
        for e in value
            .get("entities")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let name = e.get("name").and_then(|v| v.as_str()).unwrap_or("");
            let kind = e.get("type").and_then(|v| v.as_str()).unwrap_or("");
            let known = entity_types.iter().find(|t| *t == kind);
            match (verbatim(&window.text, name), known) {
                (Some(found), Some(known))
                    if plausible(&found, known)
                        && !kept.iter().any(|(k, _)| *k == found.to_lowercase()) =>
                {
                    stats.kept_entities += 1;
                    entities.push(Entity {
                        name: found.clone(),
                        entity_type: known.clone(),
                        description: format!("named in \"{}\" (found by the model)", window.title),
                        source_node_ids: vec![window.node_id.clone()],
                    });
                    kept.push((found.to_lowercase(), found));
                }
                _ => stats.rejected_entities += 1,
            }
        }
        for r in value
            .get("relationships")
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
        {
            let end = |key: &str| {
                let name = r.get(key).and_then(|v| v.as_str()).unwrap_or("");
                let key = verbatim(&window.text, name)?.to_lowercase();
                kept.iter().find(|(k, _)| *k == key).map(|(_, n)| n.clone())
            };
            let relation = r.get("relation").and_then(|v| v.as_str()).unwrap_or("");
            let known = relation_types.iter().find(|t| *t == relation);
            match (end("source"), end("target"), known) {
                (Some(source), Some(target), Some(relation)) if source != target => {
                    stats.kept_relationships += 1;
                    relationships.push(Relationship {
                        source,
                        target,
                        relation_type: Some(relation.clone()),
                        keywords: relation.as_str().replace('_', " "),
                        description: format!("stated in \"{}\" (found by the model)", window.title),
                        source_node_ids: vec![window.node_id.clone()],
                    });
                }
                _ => stats.rejected_relationships += 1,
            }
        }
    }
    let (new_entities, new_relationships) =
        nanoindex_graph::entities::merge_into(graph, entities, relationships);
    stats.new_entities = new_entities;
    stats.new_relationships = new_relationships;
    stats
}

const TRAILING: &[char] = &[',', '.', ';', ':', ')', '"', '\''];

/// Whether `name` can be of type `kind`: amounts need a figure and a currency, percentages a
/// figure and a percent sign or word, dates a year, a month or a day figure; people two
/// capitalised words and no figures; organisations and places an initial capital and
/// not only figures. Custom types are not checked.
fn plausible(name: &str, kind: &EntityType) -> bool {
    let has_digit = name.chars().any(|c| c.is_ascii_digit());
    let lower = name.to_lowercase();
    let capitalised = name
        .chars()
        .next()
        .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
    match kind {
        EntityType::Money => {
            has_digit
                && (name.contains(['$', '€', '£', '¥'])
                    || ["dollar", "usd", "eur", "million", "billion", "thousand"]
                        .iter()
                        .any(|w| lower.contains(w)))
        }
        EntityType::Percentage => has_digit && (name.contains('%') || lower.contains("percent")),
        EntityType::Date => {
            has_digit
                || nanoindex_retrieve::analysis::MONTHS
                    .iter()
                    .chain(&["quarter", "fiscal"])
                    .any(|m| lower.contains(m))
        }
        EntityType::Person => {
            !has_digit
                && name.split_whitespace().count() >= 2
                && name
                    .split_whitespace()
                    .all(|w| w.chars().next().is_some_and(char::is_uppercase))
                && !ORG_WORDS
                    .iter()
                    .any(|w| lower.split_whitespace().any(|x| x.trim_matches('.') == *w))
        }
        EntityType::Organization | EntityType::Location | EntityType::Product => {
            capitalised && name.chars().any(char::is_alphabetic)
        }
        EntityType::Metric | EntityType::LegalReference => name.chars().any(char::is_alphabetic),
        _ => true,
    }
}

/// Words that mark an organisation, never a person.
const ORG_WORDS: &[&str] = &[
    "inc",
    "corp",
    "corporation",
    "company",
    "llc",
    "ltd",
    "plc",
    "group",
    "holdings",
    "bank",
    "partners",
    "fund",
    "trust",
    "association",
];

/// The text's own spelling of `name` when it occurs in `text`, ignoring case and runs of
/// whitespace; `None` for names shorter than two characters or not in the text.
fn verbatim(text: &str, name: &str) -> Option<String> {
    let wanted: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
    if wanted.is_empty() || name.trim().chars().count() < 2 {
        return None;
    }
    let words: Vec<(usize, &str)> = text
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .collect();
    let n = wanted.len();
    for start in 0..words.len() {
        if start + n > words.len() {
            break;
        }
        let matches = |i: usize| {
            let word = words[start + i].1.to_lowercase();
            if i + 1 == n {
                // The last word may carry trailing punctuation in the text (`Inc.,`).
                word == wanted[i] || word.trim_end_matches(TRAILING) == wanted[i]
            } else if i == 0 {
                word == wanted[i] || word.trim_start_matches(['(', '"', '\'']) == wanted[i]
            } else {
                word == wanted[i]
            }
        };
        if (0..n).all(matches) {
            let from = words[start].0
                + (words[start].1.len()
                    - words[start].1.trim_start_matches(['(', '"', '\'']).len());
            let last = words[start + n - 1];
            let to = if last.1.to_lowercase() == wanted[n - 1] {
                last.0 + last.1.len()
            } else {
                last.0 + last.1.trim_end_matches(TRAILING).len()
            };
            return Some(text[from..to].to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_in_the_documents_own_spelling() {
        let text = "Shares of ACME  Holdings Inc., a Delaware company, rose.";
        assert_eq!(
            verbatim(text, "acme holdings inc").as_deref(),
            Some("ACME  Holdings Inc")
        );
        assert_eq!(verbatim(text, "Delaware").as_deref(), Some("Delaware"));
        assert_eq!(verbatim(text, "Nevada"), None);
        assert_eq!(verbatim(text, "A"), None);
    }

    #[test]
    fn types_must_fit_the_name() {
        assert!(plausible("$4.2 billion", &"money".parse().unwrap()));
        assert!(!plausible("Acme Corporation", &"money".parse().unwrap()));
        assert!(!plausible("Acme Corporation", &"person".parse().unwrap()));
        assert!(plausible("Jane Smith", &"person".parse().unwrap()));
        assert!(plausible("12%", &"percentage".parse().unwrap()));
        assert!(!plausible(
            "Acme Corporation",
            &"percentage".parse().unwrap()
        ));
        assert!(plausible("fiscal 2025", &"date".parse().unwrap()));
        assert!(!plausible("europe", &"location".parse().unwrap()));
    }
}
