//! Rule-based entity extraction (no model): organisations with a legal suffix, people with
//! a title, amounts of money, percentages, dates, contract defined terms, and financial
//! metrics with the value a sentence gives them. Entities that are the same thing are merged
//! by a normalised key (`3M Company`, `3M Co.` and `3M` are one organisation); every entity
//! and relationship records the ids of the tree nodes it was found in.
//!
//! Only prose is read: table rows (two or more figures, ending in a figure, and the rows of
//! the tree's tables, which take one-figure rows too) are left to the tree, so a 10-K's thousands of table cells do not become entities.

use std::collections::HashMap;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use nanoindex_core::figures::is_row_before;
use nanoindex_core::metrics::METRICS;
use nanoindex_core::tree::row_key;
use nanoindex_core::{
    DocumentGraph, DocumentTree, Entity, EntityType, NodeId, RelationType, Relationship,
};
use regex::Regex;

/// Most entities kept per document (the first found win).
pub const MAX_ENTITIES: usize = 3000;

const LEGAL_SUFFIX: &str = r"(?:Inc\.?|Incorporated|Corp\.?|Corporation|LLC|L\.L\.C\.|Ltd\.?|Limited|plc|PLC|N\.V\.|S\.A\.|AG|GmbH|Co\.|Company|LP|L\.P\.|LLP)";

/// Names that end in a legal suffix without naming anyone ("the Company", "Total Company").
const GENERIC_ORGANIZATIONS: &[&str] = &[
    "the",
    "total",
    "public",
    "us",
    "our",
    "this",
    "such",
    "vice president",
    "parent",
];

/// Metric names whose value a sentence may state ("net sales of $32.8 billion"): the prose
/// phrases of the one metric lexicon, `nanoindex_core::metrics`, in its order, and one
/// automaton that finds them all in a single pass over a line. (Searching for each phrase
/// on its own was about a tenth of the CPU time of `index --no-llm` on a 10-K.)
struct MetricFinder {
    phrases: Vec<&'static str>,
    automaton: AhoCorasick,
}

fn metric_finder() -> &'static MetricFinder {
    static FINDER: OnceLock<MetricFinder> = OnceLock::new();
    FINDER.get_or_init(|| {
        let phrases: Vec<&'static str> = METRICS
            .iter()
            .filter(|m| m.quantity)
            .flat_map(|m| m.prose_phrases.iter().copied())
            .collect();
        let automaton = AhoCorasick::new(&phrases).expect("metric phrases");
        MetricFinder { phrases, automaton }
    })
}

/// The metric phrases found in `lower` (lowercased text), in lexicon order, each with the
/// byte offset of its first occurrence: for every phrase, what `lower.find(phrase)` gives.
fn metric_mentions(lower: &str) -> Vec<(&'static str, usize)> {
    let finder = metric_finder();
    let mut first: Vec<Option<usize>> = vec![None; finder.phrases.len()];
    // Overlapping matches, so that a phrase inside another ("revenue" in "net revenue") is
    // found where it starts too.
    for m in finder.automaton.find_overlapping_iter(lower) {
        let slot = &mut first[m.pattern().as_usize()];
        if slot.is_none_or(|at| m.start() < at) {
            *slot = Some(m.start());
        }
    }
    finder
        .phrases
        .iter()
        .zip(first)
        .filter_map(|(phrase, at)| at.map(|at| (*phrase, at)))
        .collect()
}

struct Patterns {
    organization: Regex,
    person: Regex,
    money: Regex,
    percentage: Regex,
    date: Regex,
    defined_term: Regex,
    governed_by: Regex,
    subsidiary_of: Regex,
    change: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| Patterns {
        organization: Regex::new(&format!(
            r"\b((?:[A-Z][A-Za-z0-9&\-]*|[0-9][A-Za-z0-9]*)(?:\s+(?:[A-Z][A-Za-z0-9&\-]*|of|&)){{0,4}}),?\s+{LEGAL_SUFFIX}(?:\W|$)"
        ))
        .expect("organisation pattern"),
        person: Regex::new(
            r"\b([A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+),\s+(?:our\s+|the\s+)?((?:Executive\s+)?(?:Chief\s+[A-Z][a-z]+\s+Officer|President|Chairman|Chairwoman|Chair|Director|Secretary|Treasurer|General\s+Counsel|Controller))",
        )
        .expect("person pattern"),
        money: Regex::new(
            r"(?:\$|USD\s?|€|£)\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand|bn|m)\b)?",
        )
        .expect("money pattern"),
        percentage: Regex::new(r"\b\d+(?:\.\d+)?\s?(?:%|percent\b)").expect("percentage pattern"),
        date: Regex::new(
            r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},\s+\d{4}\b",
        )
        .expect("date pattern"),
        defined_term: Regex::new(r#"\(\s*(?:the\s+)?["“]([A-Z][A-Za-z ]{1,40})["”]\s*\)"#)
            .expect("defined term pattern"),
        governed_by: Regex::new(
            r"\b(?:This|this|The|the)\s+(Agreement|Contract|Policy|Plan|Lease|Note|Indenture)\b[^.]{0,80}?\bgoverned\s+by[^.]{0,60}?\blaws?\s+of\s+(?:the\s+)?(?:State\s+of\s+|Commonwealth\s+of\s+)?([A-Z][A-Za-z]+(?:\s+[A-Z][A-Za-z]+){0,3})",
        )
        .expect("governed-by pattern"),
        subsidiary_of: Regex::new(&format!(
            r"\b((?:[A-Z][A-Za-z0-9&\-]*)(?:\s+(?:[A-Z][A-Za-z0-9&\-]*|of|&)){{0,4}}(?:,?\s+{LEGAL_SUFFIX})?),?\s+(?:is\s+)?an?\s+(?:(?:wholly[- ]owned|direct|indirect|majority[- ]owned)\s+)*subsidiary\s+of\s+((?:[A-Z][A-Za-z0-9&\-]*)(?:\s+(?:[A-Z][A-Za-z0-9&\-]*|of|&)){{0,4}}(?:,?\s+{LEGAL_SUFFIX})?)"
        ))
        .expect("subsidiary pattern"),
        change: Regex::new(
            r"\b(?:increased|grew|rose|decreased|declined|fell)\s+(?:by\s+)?(\d+(?:\.\d+)?\s?(?:%|percent\b))",
        )
        .expect("change pattern"),
    })
}

/// The key under which names of one thing merge: lowercase words without a legal suffix or
/// punctuation (`3M Company` → `3m`).
#[must_use]
pub fn normalized_name(name: &str, entity_type: &EntityType) -> String {
    if *entity_type == EntityType::Percentage {
        if let Some(rest) = name.trim_start().strip_prefix('-') {
            // A fall (`-5%`) is not the same value as a rise.
            return format!("-{}", normalized_name(rest, entity_type));
        }
    }
    let mut words: Vec<String> = name
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '$' && c != '%')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    if *entity_type == EntityType::Organization {
        while words.len() > 1
            && matches!(
                words.last().map(String::as_str),
                Some(
                    "inc"
                        | "incorporated"
                        | "corp"
                        | "corporation"
                        | "llc"
                        | "l.l.c"
                        | "ltd"
                        | "limited"
                        | "plc"
                        | "n.v"
                        | "s.a"
                        | "ag"
                        | "gmbh"
                        | "co"
                        | "company"
                        | "lp"
                        | "l.p"
                        | "llp"
                        | "the"
                )
            )
        {
            words.pop();
        }
        if words.first().map(String::as_str) == Some("the") && words.len() > 1 {
            words.remove(0);
        }
    }
    words.join(" ")
}

#[derive(Default)]
struct Collector {
    entities: Vec<Entity>,
    by_key: HashMap<(EntityType, String), usize>,
    relationships: Vec<Relationship>,
    relation_keys: HashMap<(String, String, RelationType), usize>,
    /// Earlier spellings of organisations renamed to a longer one: old → new.
    renames: HashMap<String, String>,
}

impl Collector {
    /// The entities and relationships, with relationship ends renamed to the final
    /// spelling of their entity; a relationship whose end names no entity is dropped.
    fn finish(self) -> (Vec<Entity>, Vec<Relationship>) {
        let renames = self.renames;
        let resolve = |name: &str| {
            let mut name = name.to_string();
            for _ in 0..8 {
                match renames.get(&name) {
                    Some(next) if *next != name => name = next.clone(),
                    _ => break,
                }
            }
            name
        };
        let names: std::collections::HashSet<&str> =
            self.entities.iter().map(|e| e.name.as_str()).collect();
        let mut seen = std::collections::HashSet::new();
        let mut relationships = Vec::with_capacity(self.relationships.len());
        for mut r in self.relationships {
            r.source = resolve(&r.source);
            r.target = resolve(&r.target);
            if !names.contains(r.source.as_str()) || !names.contains(r.target.as_str()) {
                continue;
            }
            let key = (r.source.clone(), r.target.clone(), r.relation_type.clone());
            if seen.insert(key) {
                relationships.push(r);
            }
        }
        (self.entities, relationships)
    }

    /// Adds (or merges) an entity; returns its canonical name.
    fn entity(
        &mut self,
        name: &str,
        entity_type: &EntityType,
        node: &NodeId,
        context: &str,
    ) -> Option<String> {
        let name = name.trim().trim_end_matches([',', ';']).trim();
        let key = (entity_type.clone(), normalized_name(name, entity_type));
        if key.1.is_empty() {
            return None;
        }
        if let Some(&i) = self.by_key.get(&key) {
            let e = &mut self.entities[i];
            if !e.source_node_ids.contains(node) {
                e.source_node_ids.push(node.clone());
            }
            // The longest spelling is kept as the name (`3M Company` over `3M`).
            if name.len() > e.name.len() && *entity_type == EntityType::Organization {
                let old = std::mem::replace(&mut e.name, name.to_string());
                self.renames.insert(old, name.to_string());
            }
            return Some(e.name.clone());
        }
        if self.entities.len() >= MAX_ENTITIES {
            return None;
        }
        self.by_key.insert(key, self.entities.len());
        self.entities.push(Entity {
            name: name.to_string(),
            entity_type: entity_type.clone(),
            description: context.chars().take(160).collect(),
            source_node_ids: vec![node.clone()],
        });
        Some(name.to_string())
    }

    fn relationship(
        &mut self,
        source: &str,
        target: &str,
        relation: &RelationType,
        node: &NodeId,
        context: &str,
    ) {
        let key = (source.to_string(), target.to_string(), relation.clone());
        if let Some(&i) = self.relation_keys.get(&key) {
            let r = &mut self.relationships[i];
            if !r.source_node_ids.contains(node) {
                r.source_node_ids.push(node.clone());
            }
            return;
        }
        self.relation_keys.insert(key, self.relationships.len());
        self.relationships.push(Relationship {
            source: source.to_string(),
            target: target.to_string(),
            relation_type: Some(relation.clone()),
            keywords: relation.as_str().replace('_', " "),
            description: context.chars().take(200).collect(),
            source_node_ids: vec![node.clone()],
        });
    }
}

/// Adds `entities` and `relationships` (found by a model, say) to `graph`, merging each
/// entity with an existing one of the same type and [`normalized_name`] (so `3M` joins
/// `3M Company`, keeping the longer organisation name) and unioning `source_node_ids`.
/// Relationship endpoints are renamed to the canonical names of their entities; a
/// relationship already present (same source, target and type) only gains node ids.
/// Entities past [`MAX_ENTITIES`] are dropped. Returns how many entities and
/// relationships were new.
pub fn merge_into(
    graph: &mut DocumentGraph,
    entities: Vec<Entity>,
    relationships: Vec<Relationship>,
) -> (usize, usize) {
    let mut c = Collector::default();
    for e in std::mem::take(&mut graph.entities) {
        let key = (
            e.entity_type.clone(),
            normalized_name(&e.name, &e.entity_type),
        );
        c.by_key.entry(key).or_insert(c.entities.len());
        c.entities.push(e);
    }
    for r in std::mem::take(&mut graph.relationships) {
        let key = (
            r.source.clone(),
            r.target.clone(),
            r.relation_type
                .clone()
                .unwrap_or_else(|| RelationType::from_file(&r.keywords)),
        );
        c.relation_keys.entry(key).or_insert(c.relationships.len());
        c.relationships.push(r);
    }
    let (before_e, before_r) = (c.entities.len(), c.relationships.len());
    let mut canonical: HashMap<String, String> = HashMap::new();
    for e in entities {
        let mut name = None;
        for node in &e.source_node_ids {
            name = c
                .entity(&e.name, &e.entity_type, node, &e.description)
                .or(name);
        }
        if let Some(name) = name {
            canonical.insert(e.name.to_lowercase(), name);
        }
    }
    for r in relationships {
        let resolve = |n: &str| {
            canonical
                .get(&n.to_lowercase())
                .cloned()
                .unwrap_or_else(|| n.to_string())
        };
        let (source, target) = (resolve(&r.source), resolve(&r.target));
        let relation = r
            .relation_type
            .clone()
            .unwrap_or_else(|| RelationType::from_file(&r.keywords));
        for node in &r.source_node_ids {
            c.relationship(&source, &target, &relation, node, &r.description);
        }
    }
    let added = (
        c.entities.len() - before_e,
        c.relationships.len() - before_r,
    );
    graph.entities = c.entities;
    graph.relationships = c.relationships;
    added
}

/// Entities and relationships found by rules in the text of every node of `tree`.
#[must_use]
pub fn extract_entities(tree: &DocumentTree) -> (Vec<Entity>, Vec<Relationship>) {
    let p = patterns();
    let mut c = Collector::default();
    // The tree's table rows (one-figure rows included) are rows too.
    let table_rows = tree.figure_row_keys();
    let is_row = |line: &str, next: Option<&str>| {
        is_row_before(line, next) || table_rows.contains(&row_key(line))
    };
    // Organisations named with a suffix anywhere count as aliases of their bare name later.
    for node in tree.iter_nodes() {
        let Some(text) = node.text.as_deref() else {
            continue;
        };
        let id = &node.node_id;
        let lines: Vec<&str> = text.lines().collect();
        for (k, &line) in lines.iter().enumerate() {
            if is_row(line, lines.get(k + 1).copied()) {
                continue;
            }
            // Only the whole match is used: `find_iter` runs the fast DFA, captures would not.
            for m in p.organization.find_iter(line) {
                let full = m.as_str();
                let key = normalized_name(full, &EntityType::Organization);
                if GENERIC_ORGANIZATIONS.contains(&key.as_str()) || key.contains(" total") {
                    continue;
                }
                c.entity(
                    full.trim_end_matches(|ch: char| !ch.is_alphanumeric() && ch != '.'),
                    &EntityType::Organization,
                    id,
                    line,
                );
            }
            for m in p.person.captures_iter(line) {
                let (Some(person), Some(title)) = (m.get(1), m.get(2)) else {
                    continue;
                };
                if let Some(name) = c.entity(person.as_str(), &EntityType::Person, id, line) {
                    let title = title
                        .as_str()
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ");
                    if let Some(title) = c.entity(&title, &EntityType::Title, id, line) {
                        c.relationship(&name, &title, &RelationType::HoldsTitle, id, line);
                    }
                }
            }
            for m in p.date.find_iter(line) {
                c.entity(m.as_str(), &EntityType::Date, id, line);
            }
            for m in p.percentage.find_iter(line) {
                c.entity(m.as_str(), &EntityType::Percentage, id, line);
            }
            let lower = line.to_lowercase();
            let amounts: Vec<(usize, String, EntityType)> = p
                .money
                .find_iter(line)
                .map(|m| (m.start(), m.as_str().to_string(), EntityType::Money))
                .chain(
                    p.percentage
                        .find_iter(line)
                        .map(|m| (m.start(), m.as_str().to_string(), EntityType::Percentage)),
                )
                .collect();
            for (_, amount, kind) in amounts.iter().filter(|a| a.2 == EntityType::Money) {
                c.entity(amount, kind, id, line);
            }
            // A metric and the first amount after it in the same line: `has_value`.
            for (metric, at) in metric_mentions(&lower) {
                let value = amounts.iter().filter(|a| a.0 > at).min_by_key(|a| a.0);
                if let Some((_, amount, kind)) = value {
                    // Named in lowercase: offsets in `lower` need not be offsets in `line`.
                    let metric_name = metric.to_string();
                    if let (Some(m), Some(v)) = (
                        c.entity(&metric_name, &EntityType::Metric, id, line),
                        c.entity(amount, kind, id, line),
                    ) {
                        c.relationship(&m, &v, &RelationType::HasValue, id, line);
                    }
                }
            }
        }
        // Statements that wrap over lines are read per paragraph, after the lines, so that
        // names found there are the canonical spellings.
        for paragraph in text.split("\n\n") {
            // The paragraph's prose: its table rows (by the one rule) left out.
            let lines: Vec<&str> = paragraph.lines().collect();
            let prose: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|&(k, l)| !is_row(l, lines.get(k + 1).copied()))
                .map(|(_, l)| *l)
                .collect();
            let line_owned = prose
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let line = line_owned.as_str();
            if line.is_empty() {
                continue;
            }
            let lower = line.to_lowercase();
            for m in p.defined_term.captures_iter(line) {
                if let Some(term) = m.get(1) {
                    c.entity(term.as_str(), &EntityType::DefinedTerm, id, line);
                }
            }
            for m in p.governed_by.captures_iter(line) {
                let (Some(doc), Some(place)) = (m.get(1), m.get(2)) else {
                    continue;
                };
                if let (Some(d), Some(l)) = (
                    c.entity(doc.as_str(), &EntityType::LegalReference, id, line),
                    c.entity(place.as_str(), &EntityType::Location, id, line),
                ) {
                    c.relationship(&d, &l, &RelationType::GovernedBy, id, line);
                }
            }
            for m in p.subsidiary_of.captures_iter(line) {
                let (Some(child), Some(parent)) = (m.get(1), m.get(2)) else {
                    continue;
                };
                let child = child.as_str().trim_start_matches("The ").trim();
                let parent = parent.as_str().trim();
                let generic = |n: &str| {
                    GENERIC_ORGANIZATIONS
                        .contains(&normalized_name(n, &EntityType::Organization).as_str())
                };
                if generic(child) || generic(parent) {
                    continue;
                }
                if let (Some(a), Some(b)) = (
                    c.entity(child, &EntityType::Organization, id, line),
                    c.entity(parent, &EntityType::Organization, id, line),
                ) {
                    c.relationship(&a, &b, &RelationType::SubsidiaryOf, id, line);
                }
            }
            // A metric followed, in the same sentence, by a change ("revenue increased
            // 12%"): `grew_by`, negative for a fall.
            for (metric, at) in metric_mentions(&lower) {
                // Searched in the lowercase line: its offsets are not the line's.
                let rest = &lower[at..];
                let sentence = &rest[..rest.find(". ").map_or(rest.len(), |e| e + 1)];
                let Some(m) = p.change.captures(sentence) else {
                    continue;
                };
                let (Some(verb), Some(change)) = (m.get(0), m.get(1)) else {
                    continue;
                };
                let falls = ["decreased", "declined", "fell"]
                    .iter()
                    .any(|v| verb.as_str().starts_with(v));
                let value = if falls {
                    format!("-{}", change.as_str())
                } else {
                    change.as_str().to_string()
                };
                if let (Some(m), Some(v)) = (
                    c.entity(metric, &EntityType::Metric, id, line),
                    c.entity(&value, &EntityType::Percentage, id, line),
                ) {
                    c.relationship(&m, &v, &RelationType::GrewBy, id, line);
                }
            }
        }
    }
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nanoindex_core::{assign_node_ids, TreeNode};

    fn tree(nodes: &[(&str, &str)]) -> DocumentTree {
        let mut structure: Vec<TreeNode> = nodes
            .iter()
            .map(|(title, text)| {
                let mut n = TreeNode::new(*title, 1, 1);
                n.text = Some((*text).to_string());
                n
            })
            .collect();
        assign_node_ids(&mut structure);
        DocumentTree {
            structure,
            ..DocumentTree::default()
        }
    }

    fn find<'a>(entities: &'a [Entity], kind: &str, name: &str) -> &'a Entity {
        entities
            .iter()
            .find(|e| e.entity_type == kind && e.name == name)
            .unwrap_or_else(|| panic!("no {kind} `{name}` in {entities:#?}"))
    }

    /// One pass of the automaton finds what searching for each phrase on its own did: every
    /// phrase present, at its first occurrence, in lexicon order (a phrase inside another
    /// and repeated phrases included, on text with non-ASCII characters).
    #[test]
    fn metric_mentions_are_each_phrase_at_its_first_occurrence() {
        let phrases: Vec<&str> = METRICS
            .iter()
            .filter(|m| m.quantity)
            .flat_map(|m| m.prose_phrases.iter().copied())
            .collect();
        let line = "über net revenue — revenue rose; net revenue and operating income, then \
                    net income, net revenue again and revenue éclair";
        let lower = line.to_lowercase();
        let by_find: Vec<(&str, usize)> = phrases
            .iter()
            .filter_map(|p| lower.find(p).map(|at| (*p, at)))
            .collect();
        assert!(by_find.len() >= 3, "{by_find:?}");
        assert_eq!(metric_mentions(&lower), by_find);
        assert!(metric_mentions("nothing to see here").is_empty());
    }

    #[test]
    fn contract_entities_and_defined_terms() {
        let t = tree(&[
            (
                "Preamble",
                "This Agreement (the \"Agreement\") is made on March 1, 2024 (the \"Effective Date\")\nbetween Aster Labs LLC and Brightline Corp.",
            ),
            (
                "8. Limitation of Liability",
                "The aggregate liability of Aster Labs shall not exceed $2,500,000.\nSigned: Maria Chen, Chief Executive Officer",
            ),
        ]);
        let (entities, relationships) = extract_entities(&t);
        let aster = find(&entities, "organization", "Aster Labs LLC");
        assert_eq!(aster.source_node_ids.len(), 1);
        find(&entities, "organization", "Brightline Corp.");
        find(&entities, "defined_term", "Effective Date");
        find(&entities, "defined_term", "Agreement");
        find(&entities, "date", "March 1, 2024");
        let money = find(&entities, "money", "$2,500,000");
        assert_eq!(money.source_node_ids, [t.structure[1].node_id.clone()]);
        let person = find(&entities, "person", "Maria Chen");
        assert_eq!(person.source_node_ids, [t.structure[1].node_id.clone()]);
        assert!(relationships.iter().any(|r| r.source == "Maria Chen"
            && r.target == "Chief Executive Officer"
            && r.relation_type
                .as_ref()
                .map(nanoindex_core::RelationType::as_str)
                == Some("holds_title")));
        assert!(relationships
            .iter()
            .any(|r| r.source == "aggregate liability"
                && r.target == "$2,500,000"
                && r.relation_type
                    .as_ref()
                    .map(nanoindex_core::RelationType::as_str)
                    == Some("has_value")));
    }

    /// The graph reads rows by the one rule of `nanoindex_core::figures`: a sentence ending
    /// in a date is prose (the graph's own rule took "June 29, 2020" for two figures and
    /// skipped the line), and a row's figures are never entities.
    #[test]
    fn a_sentence_ending_in_a_date_is_read_and_a_row_is_not() {
        let t = tree(&[(
            "Item 7",
            "Northwind Holdings Inc. paid $5 million on June 29, 2020\nCapital expenditures (1,577) (1,373)\nRevenue in fiscal 2022 totaled $1.6\nbillion compared to $1.5 billion a year earlier.",
        )]);
        let (entities, _) = extract_entities(&t);
        find(&entities, "organization", "Northwind Holdings Inc.");
        find(&entities, "money", "$5 million");
        find(&entities, "money", "$1.6");
        assert!(!entities.iter().any(|e| e.name.contains("1,577")));
    }

    /// A statement's one-figure row is a row when the tree read it into a table, though the
    /// row rule alone (two figures or more) takes it for prose.
    #[test]
    fn a_one_figure_row_of_a_tree_table_is_no_prose() {
        let text = "Proceeds from sale of businesses $846\nNet cash used in investing activities (222) (3,086)";
        let mut t = tree(&[("Cash flows", text)]);
        let (entities, _) = extract_entities(&t);
        find(&entities, "money", "$846");
        let cell = |s: &str| nanoindex_core::TableCell {
            text: s.into(),
            bbox: None,
        };
        t.structure[0].tables.push(nanoindex_core::Table {
            cells: vec![
                vec![
                    cell("Proceeds from sale of businesses"),
                    cell("$846"),
                    cell(""),
                ],
                vec![
                    cell("Net cash used in investing activities"),
                    cell("(222)"),
                    cell("(3,086)"),
                ],
            ],
            ..nanoindex_core::Table::default()
        });
        let (entities, _) = extract_entities(&t);
        assert!(
            !entities.iter().any(|e| e.name.contains("846")),
            "{entities:#?}"
        );
    }

    #[test]
    fn annual_report_metrics_and_aliases_merge() {
        let t = tree(&[
            (
                "Item 7. MD&A",
                "3M Company reported net sales of $32.8 billion, up 3.5% from 2017.\nPurchases of property, plant and equipment (1,577) (1,373) (1,420)",
            ),
            ("Item 8", "3M Co. paid dividends. The effective tax rate was 23.4% in 2018."),
        ]);
        let (entities, relationships) = extract_entities(&t);
        let orgs: Vec<&Entity> = entities
            .iter()
            .filter(|e| e.entity_type == "organization")
            .collect();
        assert_eq!(orgs.len(), 1, "{orgs:#?}");
        assert_eq!(orgs[0].name, "3M Company");
        assert_eq!(orgs[0].source_node_ids.len(), 2);
        assert!(relationships
            .iter()
            .any(|r| r.source == "net sales" && r.target == "$32.8 billion"));
        assert!(relationships
            .iter()
            .any(|r| r.source == "effective tax rate" && r.target == "23.4%"));
        // Table rows are not read.
        assert!(!entities.iter().any(|e| e.name.contains("1,577")));
        assert_eq!(
            normalized_name("The Boeing Company", &EntityType::Organization),
            "boeing"
        );
    }

    #[test]
    fn governing_law_subsidiaries_and_growth() {
        let t = tree(&[
            (
                "12. Governing Law",
                "This Agreement shall be governed by and construed in accordance with the laws of the State of New York.",
            ),
            (
                "Item 1. Business",
                "Brightline Payments LLC, a wholly owned subsidiary of Brightline Corp., processes cards.\nRevenue increased 12% compared with 2023. Gross margin was 40%. Operating expenses rose 3%.\n\nNet income declined 5% in 2024.",
            ),
        ]);
        let (entities, relationships) = extract_entities(&t);
        let has = |source: &str, target: &str, kind: &str| {
            relationships.iter().any(|r| {
                r.source == source
                    && r.target == target
                    && r.relation_type
                        .as_ref()
                        .map(nanoindex_core::RelationType::as_str)
                        == Some(kind)
            })
        };
        find(&entities, "location", "New York");
        assert!(
            has("Agreement", "New York", "governed_by"),
            "{relationships:#?}"
        );
        assert!(
            has(
                "Brightline Payments LLC",
                "Brightline Corp.",
                "subsidiary_of"
            ),
            "{relationships:#?}"
        );
        assert!(has("revenue", "12%", "grew_by"), "{relationships:#?}");
        assert!(has("net income", "-5%", "grew_by"), "{relationships:#?}");
        // A change in a later sentence is not the metric's.
        assert!(!has("gross margin", "3%", "grew_by"), "{relationships:#?}");
        let sub = relationships
            .iter()
            .find(|r| {
                r.relation_type
                    .as_ref()
                    .map(nanoindex_core::RelationType::as_str)
                    == Some("subsidiary_of")
            })
            .unwrap();
        assert_eq!(sub.source_node_ids, [t.structure[1].node_id.clone()]);
    }

    #[test]
    fn relationships_follow_a_renamed_organisation() {
        let t = tree(&[(
            "Item 1",
            "Harbor Pay LLC, a wholly owned subsidiary of Harbor Mills Inc., processes cards.\n\nHarbor Mills, Inc. was founded in 1950.",
        )]);
        let (entities, relationships) = extract_entities(&t);
        let names: Vec<&str> = entities.iter().map(|e| e.name.as_str()).collect();
        for r in &relationships {
            assert!(names.contains(&r.source.as_str()), "{r:?} / {names:?}");
            assert!(names.contains(&r.target.as_str()), "{r:?} / {names:?}");
        }
        assert!(relationships
            .iter()
            .any(|r| r.target == "Harbor Mills, Inc."
                && r.relation_type
                    .as_ref()
                    .map(nanoindex_core::RelationType::as_str)
                    == Some("subsidiary_of")));
    }

    #[test]
    fn merging_model_entities_joins_aliases() {
        let t = tree(&[("Item 7", "3M Company reported net sales of $32.8 billion.")]);
        let mut graph = DocumentGraph::default();
        let (entities, relationships) = extract_entities(&t);
        graph.entities = entities;
        graph.relationships = relationships;
        let node = NodeId::from_path(&[1]);
        let found = vec![
            Entity {
                name: "3M".into(),
                entity_type: "organization".into(),
                description: String::new(),
                source_node_ids: vec![node.clone()],
            },
            Entity {
                name: "St. Paul".into(),
                entity_type: "location".into(),
                description: String::new(),
                source_node_ids: vec![node.clone()],
            },
        ];
        let rels = vec![Relationship {
            source: "3M".into(),
            target: "St. Paul".into(),
            relation_type: Some("operates_in".into()),
            keywords: String::new(),
            description: String::new(),
            source_node_ids: vec![node.clone()],
        }];
        let (new_entities, new_relationships) = merge_into(&mut graph, found, rels);
        assert_eq!((new_entities, new_relationships), (1, 1));
        let org = find(&graph.entities, "organization", "3M Company");
        assert_eq!(org.source_node_ids.len(), 2);
        assert!(org.source_node_ids.contains(&node));
        assert!(graph.relationships.iter().any(|r| r.source == "3M Company"
            && r.target == "St. Paul"
            && r.relation_type
                .as_ref()
                .map(nanoindex_core::RelationType::as_str)
                == Some("operates_in")));
    }
}
