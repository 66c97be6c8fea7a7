//! The wiki: markdown pages rendered from the store into `<dir>/wiki/`, browsable in
//! Obsidian. It is a view, never the source of truth: [`render`] rebuilds it whole after
//! each change (once per batch of adds).
//!
//! - `_index.md`: every document, concept and question, linked.
//! - `log.md`: adds, replacements, removals and questions, oldest first (the store's
//!   append-only log).
//! - `documents/<doc>.md`: source, pages, description, the outline with page ranges, the
//!   document's entities (linked to their concept pages) and the questions that cited it.
//!   The outline and the entities come from the document's facts (`DocumentFacts`),
//!   computed once when the document is stored: rendering reads the store's tables, never
//!   a tree or a graph, so its memory does not grow with the documents' size.
//! - `concepts/<concept>.md`: one page per entity found in two or more documents (or a
//!   metric with values): each document and page that names it, and the values stated for
//!   it, in a table; past [`CONCEPT_ROWS`] rows the first ones, then links to the documents.
//! - `queries/<id>-<question>.md`: each question asked, its answer, status and citations.
//!
//! Every page opens with YAML front matter (`type`, `sources`, `updated`). File names are
//! slugs of `[a-z0-9-]` (never `/` or `..`, so no name writes outside the wiki), unique and
//! stable: two names that slug alike get the SHA-256 of the name appended. Links are
//! `[[folder/slug]]`, written only to pages that exist.
//!
//! The new wiki is written to `.nanoindex/wiki-new/`, then swapped in with two renames, and
//! the store records the log entry it shows (`meta.wiki_log_id`). A process killed before
//! that (between a change's commit and its rendering, or between the renames) leaves the
//! record behind the log: [`is_current`] says so, and the knowledge base renders it again
//! when next opened.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use nanoindex_core::english::counted;
use nanoindex_core::years::period_at;
use nanoindex_core::{Answer, DocumentGraph, DocumentTree, EntityType, RelationType, TreeNode};
use nanoindex_graph::entities::normalized_name;

use crate::{sha256_hex, KbError, Store};

/// The wiki's folder inside the knowledge base.
pub const WIKI_DIR: &str = "wiki";

/// Rows a concept page shows before it links to the documents instead.
pub const CONCEPT_ROWS: usize = 50;

/// Entity types that make concept pages (values such as money and dates are the rows of a
/// concept, not concepts).
const CONCEPT_TYPES: &[EntityType] = &[
    EntityType::Organization,
    EntityType::Person,
    EntityType::Metric,
    EntityType::Product,
    EntityType::Location,
    EntityType::LegalReference,
    EntityType::DefinedTerm,
];

/// The `meta` key recording the log entry the rendered wiki shows.
const WIKI_LOG_ID: &str = "wiki_log_id";

/// Whether the wiki shows the store's latest change (rendered after the last log entry, and
/// present on disk).
///
/// # Errors
/// [`KbError::Sql`].
pub fn is_current(store: &Store) -> Result<bool, KbError> {
    let shown: Option<u64> = store.meta(WIKI_LOG_ID)?.and_then(|v| v.parse().ok());
    Ok(shown == Some(store.log_head()?) && store.root().join(WIKI_DIR).is_dir())
}

/// What [`render`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WikiReport {
    /// The wiki's folder.
    pub dir: PathBuf,
    /// Pages written.
    pub pages: usize,
}

/// A problem of the rendered wiki found by [`check`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WikiProblem {
    /// A `[[link]]` whose page does not exist.
    BrokenLink {
        /// The page holding it (relative to the wiki).
        page: String,
        /// The link's target.
        target: String,
    },
    /// A page no other page links to.
    Orphan {
        /// The page (relative to the wiki).
        page: String,
    },
}

impl std::fmt::Display for WikiProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WikiProblem::BrokenLink { page, target } => {
                write!(f, "wiki `{page}`: link [[{target}]] has no page")
            }
            WikiProblem::Orphan { page } => write!(f, "wiki `{page}`: no page links to it"),
        }
    }
}

/// A file name for `name`: lowercase ASCII letters and digits, words joined by `-`, at
/// most 60 characters; `page` when nothing is left.
#[must_use]
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 60 {
            break;
        }
    }
    let out = out.trim_matches('-').to_string();
    if out.is_empty() {
        "page".to_string()
    } else {
        out
    }
}

/// Unique slugs per folder: the first name to claim a slug keeps it; another name with the
/// same slug gets the first 8 hex digits of its SHA-256 appended.
#[derive(Default)]
struct Slugs {
    by_name: HashMap<String, String>,
    taken: BTreeSet<String>,
}

impl Slugs {
    fn of(&mut self, name: &str) -> String {
        if let Some(s) = self.by_name.get(name) {
            return s.clone();
        }
        let mut s = slug(name);
        if self.taken.contains(&s) {
            s = format!("{s}-{}", &sha256_hex(name.as_bytes())[..8]);
        }
        self.taken.insert(s.clone());
        self.by_name.insert(name.to_string(), s.clone());
        s
    }
}

/// `2026-12-02T09:40:00Z` for seconds since the Unix epoch (proleptic Gregorian calendar;
/// days to civil date by Howard Hinnant's `civil_from_days`).
fn iso_time(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// YAML front matter; strings are written as JSON strings, which YAML reads as they are.
fn front_matter(kind: &str, title: &str, sources: &[String], updated: u64) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string());
    let sources: Vec<String> = sources.iter().map(|s| q(s)).collect();
    format!(
        "---\ntype: {kind}\ntitle: {}\nsources: [{}]\nupdated: {}\n---\n\n",
        q(title),
        sources.join(", "),
        iso_time(updated)
    )
}

/// Text for a markdown table cell: one line, `|` escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// A concept's key: the key under which the entity graph merges names of one thing
/// ([`normalized_name`]: lowercase words without punctuation, and an organisation without
/// its legal suffix), so that `Acme Corp.` in one document and `ACME Corp` in another are
/// one concept.
pub(crate) fn concept_key(name: &str, kind: &EntityType) -> String {
    normalized_name(name, kind)
}

/// One mention of a concept: document, pages, and the value stated for it and its period,
/// if any.
struct Mention {
    doc: String,
    pages: Vec<u32>,
    value: Option<String>,
    period: Option<String>,
}

/// One concept mention of a document, as the store keeps it (table `mentions`): the
/// concept's key ([`concept_key`]), the entity's name and type as the document writes them,
/// the value stated for it (a `has_value` relationship), if any, the period that value is
/// stated for as the issuer's level ([`level_period`] of the sentence that states it), and
/// the 1-based start pages
/// of the nodes that state it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MentionRow {
    pub key: String,
    pub name: String,
    pub kind: String,
    pub value: Option<String>,
    pub pages: Vec<u32>,
    pub period: Option<String>,
}

/// A stored mention with its document's name and issuer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DocMention {
    pub doc: String,
    pub issuer: Option<String>,
    pub row: MentionRow,
}

/// What the wiki and the lint read of one document that only its tree and graph hold: the
/// outline as markdown (one line per node with its pages), the issuer (the organisation the
/// document names in the most nodes, the first named on a tie: the company of a filing, a
/// party of a contract) and
/// the concept mentions, in graph order. Computed once, when the document is stored, so
/// that rendering the wiki reads no tree or graph: its time and memory do not grow with the
/// size of the documents stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DocumentFacts {
    pub outline: String,
    pub issuer: Option<String>,
    pub mentions: Vec<MentionRow>,
}

/// The [`DocumentFacts`] of a document's `tree` and `graph`.
pub(crate) fn facts(tree: &DocumentTree, graph: &DocumentGraph) -> DocumentFacts {
    let mut outline_md = String::new();
    outline(&tree.structure, 0, &mut outline_md);
    let kind_of: HashMap<&str, &EntityType> = graph
        .entities
        .iter()
        .map(|e| (e.name.as_str(), &e.entity_type))
        .collect();
    // A value's source is a metric unless the graph types it otherwise.
    let source_key = |name: &str| {
        concept_key(
            name,
            kind_of.get(name).copied().unwrap_or(&EntityType::Metric),
        )
    };
    // Concept key → (value, pages, period) of each `has_value` relationship.
    type Values = HashMap<String, Vec<(String, Vec<u32>, Option<String>)>>;
    let values: Values = graph
        .relationships
        .iter()
        .filter(|r| r.relation_type == Some(RelationType::HasValue))
        .fold(HashMap::new(), |mut m, r| {
            let period = level_period(&r.description, &r.source, &r.target);
            m.entry(source_key(&r.source)).or_default().push((
                r.target.clone(),
                pages_of(tree, &r.source_node_ids),
                period,
            ));
            m
        });
    // The first named on a tie (a filing names its registrant on the cover page).
    let issuer = graph
        .entities
        .iter()
        .filter(|e| e.entity_type == EntityType::Organization)
        .rev()
        .max_by_key(|e| e.source_node_ids.len())
        .map(|e| e.name.clone());
    let mut mentions = Vec::new();
    for e in &graph.entities {
        if !CONCEPT_TYPES.contains(&e.entity_type) {
            continue;
        }
        let key = concept_key(&e.name, &e.entity_type);
        if key.is_empty() {
            continue;
        }
        let row = |value: Option<String>, pages: Vec<u32>, period: Option<String>| MentionRow {
            key: key.clone(),
            name: e.name.clone(),
            kind: e.entity_type.to_string(),
            value,
            pages,
            period,
        };
        match values.get(&key) {
            Some(vs) => mentions.extend(
                vs.iter()
                    .map(|(v, pages, period)| row(Some(v.clone()), pages.clone(), period.clone())),
            ),
            None => mentions.push(row(None, pages_of(tree, &e.source_node_ids), None)),
        }
    }
    DocumentFacts {
        outline: outline_md,
        issuer,
        mentions,
    }
}

/// Words that may stand between a metric and its value in a sentence that states the
/// metric's level for a period ("Revenue for the first quarter of 2024 was $1,204
/// million", "net income in fiscal 2023 totaled $2.1 billion") or follow the value in the
/// same clause ("… $1,284 million in 2024"); besides them only years, month names and day
/// numbers may.
const LINKING_WORDS: &[&str] = &[
    "was",
    "were",
    "is",
    "are",
    "of",
    "for",
    "in",
    "the",
    "to",
    "at",
    "during",
    "ended",
    "ending",
    "fiscal",
    "year",
    "years",
    "quarter",
    "first",
    "second",
    "third",
    "fourth",
    "three",
    "six",
    "nine",
    "twelve",
    "months",
    "month",
    "totaled",
    "totalled",
    "amounted",
    "reached",
    "approximately",
    "about",
    "fy",
    "q1",
    "q2",
    "q3",
    "q4",
    "full",
    "as",
    "on",
    "a",
    "an",
    "period",
    "half",
];

/// Words that may stand right before a metric that names the whole issuer's figure ("total
/// revenue", "our net sales"); any other word names a part ("services revenue").
const WHOLE_QUALIFIERS: &[&str] = &[
    "total",
    "consolidated",
    "net",
    "our",
    "its",
    "the",
    "group",
    "reported",
    "annual",
    "quarterly",
    "fiscal",
    "fy",
];

/// Words that name a part of a year without saying which.
const PART_OF_YEAR: &[&str] = &["quarter", "months", "period", "half"];

/// Whether `w` may stand between a metric and its stated value ([`LINKING_WORDS`], years,
/// months and day numbers).
fn links(w: &str) -> bool {
    LINKING_WORDS.contains(&w)
        || nanoindex_core::figures::MONTHS.contains(&w)
        || (w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit()))
        || year_of(w).is_some()
}

/// The year a word names: `2024`, or `fy2024` as "FY2024" is split into words.
fn year_of(w: &str) -> Option<&str> {
    let year = w.strip_prefix("fy").unwrap_or(w);
    nanoindex_core::years::is_year_word(year).then_some(year)
}

/// The period for which `sentence` states `value` as the level of the whole issuer's
/// `metric`, or `None` when it states something else or does not say which period:
/// - the metric is a part ("services revenue": a word not in [`WHOLE_QUALIFIERS`], a year
///   or a possessive right before it);
/// - a word other than [`LINKING_WORDS`], years, months and day numbers stands between the
///   metric and the value (a change: "revenue increased $83 million"; another measure:
///   "gross profit rate of 23.9%"; two figures: "revenue and income were");
/// - the clause (from the metric to the first word after the value that does not link:
///   "compared", "up", "mainly") names no year or several years, or a part of a year
///   without saying which ("for the quarter").
///
/// The period is [`period_at`] the value within that clause, so "$187 million, compared
/// with $162 million in 2023" does not date $187 million 2023.
pub(crate) fn level_period(sentence: &str, metric: &str, value: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let metric = metric.to_lowercase();
    let metric_at = lower.find(&metric)?;
    let before = &lower[..metric_at];
    if before.chars().last().is_some_and(char::is_alphanumeric) {
        return None;
    }
    let previous = before
        .trim_end()
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .next()
        .unwrap_or("");
    // Empty at the start of the text or after punctuation.
    let whole = previous.is_empty()
        || WHOLE_QUALIFIERS.contains(&previous)
        || year_of(previous).is_some()
        || previous.ends_with("'s")
        || previous.ends_with("’s");
    if !whole {
        return None;
    }
    let after_metric = metric_at + metric.len();
    let value_at = after_metric + lower.get(after_metric..)?.find(&value.to_lowercase())?;
    if !words(&lower[after_metric..value_at])
        .iter()
        .all(|(_, w)| links(w))
    {
        return None;
    }
    let value_end = value_at + value.to_lowercase().len();
    let rest = &lower[value_end..];
    let clause_end = value_end
        + words(rest)
            .into_iter()
            .find(|(_, w)| !links(w))
            .map_or(rest.len(), |(at, _)| at);
    let clause = &lower[metric_at..clause_end];
    let clause_words = words(clause);
    let years = clause_words
        .iter()
        .filter_map(|&(_, w)| year_of(w))
        .collect::<BTreeSet<_>>();
    if years.len() != 1 {
        return None;
    }
    let period = period_at(clause, value_at - metric_at)?;
    let unnamed_part = clause_words.iter().any(|(_, w)| PART_OF_YEAR.contains(w))
        && nanoindex_core::years::is_year_word(&period);
    (!unnamed_part).then_some(period)
}

/// The words of `text` (runs of letters and digits) with their byte offsets.
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            out.push((s, &text[s..i]));
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// Pages of the nodes `ids` in `tree`.
fn pages_of(tree: &DocumentTree, ids: &[nanoindex_core::NodeId]) -> Vec<u32> {
    let mut pages: Vec<u32> = ids
        .iter()
        .filter_map(|id| tree.find_node(id.as_str()))
        .map(|n| n.start_index)
        .collect();
    pages.sort_unstable();
    pages.dedup();
    pages
}

fn outline(nodes: &[TreeNode], depth: usize, out: &mut String) {
    for n in nodes {
        let pages = if n.start_index == n.end_index {
            format!("p. {}", n.start_index)
        } else {
            format!("pp. {}–{}", n.start_index, n.end_index)
        };
        out.push_str(&format!(
            "{}- {} ({pages})\n",
            "  ".repeat(depth),
            cell(&n.title)
        ));
        outline(&n.nodes, depth + 1, out);
    }
}

/// Renders the wiki of `store` into `<root>/wiki/`, replacing the previous one, and records
/// the log entry it shows; holds the store's write lock meanwhile.
///
/// # Errors
/// [`KbError::Sql`] reading the store ([`KbError::NoDocument`] when a document lost its
/// facts); [`KbError::CreateDir`] when a file cannot be written.
pub fn render(store: &mut Store) -> Result<WikiReport, KbError> {
    // Renderers take the store's write lock in turn, so two processes never swap folders at
    // once and the last to render shows the latest state.
    store.conn.execute_batch("BEGIN IMMEDIATE")?;
    match render_locked(store) {
        Ok(report) => {
            store.conn.execute_batch("COMMIT")?;
            Ok(report)
        }
        Err(e) => {
            let _ = store.conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

fn render_locked(store: &mut Store) -> Result<WikiReport, KbError> {
    let head = store.log_head()?;
    let pages = pages(store)?;
    let root = store.root();
    let staging = root.join(".nanoindex").join("wiki-new");
    let old = root.join(".nanoindex").join("wiki-old");
    let io = |path: &Path, source: std::io::Error| KbError::CreateDir {
        path: path.to_path_buf(),
        source,
    };
    for dir in [&staging, &old] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| io(dir, e))?;
        }
    }
    for (rel, text) in &pages {
        let path = staging.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
    }
    std::fs::create_dir_all(&staging).map_err(|e| io(&staging, e))?;
    let wiki = root.join(WIKI_DIR);
    if wiki.exists() {
        std::fs::rename(&wiki, &old).map_err(|e| io(&wiki, e))?;
    }
    std::fs::rename(&staging, &wiki).map_err(|e| io(&wiki, e))?;
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(|e| io(&old, e))?;
    }
    store.set_meta(WIKI_LOG_ID, &head.to_string())?;
    Ok(WikiReport {
        dir: wiki,
        pages: pages.len(),
    })
}

/// The wiki's pages (path relative to the wiki → text), rendered from the store.
fn pages(store: &Store) -> Result<BTreeMap<String, String>, KbError> {
    let docs = store.documents()?;
    let questions = store.questions()?;
    let log = store.log()?;
    let updated = log.last().map_or(0, |l| l.0);
    let mut doc_slugs = Slugs::default();
    let mut concept_slugs = Slugs::default();
    let mut query_slugs = Slugs::default();

    // Concepts across documents: key → (display name, type, mentions), the name and type of
    // the first mention (documents by name, each in graph order).
    let mut concepts: BTreeMap<String, (String, String, Vec<Mention>)> = BTreeMap::new();
    // Each document's concepts: key → the name it writes (its last spelling of the key).
    let mut doc_entities: HashMap<String, BTreeMap<String, String>> = HashMap::new();
    for DocMention { doc, row, .. } in store.mentions()? {
        let entry = concepts
            .entry(row.key.clone())
            .or_insert_with(|| (row.name.clone(), row.kind.clone(), Vec::new()));
        entry.2.push(Mention {
            doc: doc.clone(),
            pages: row.pages,
            value: row.value,
            period: row.period,
        });
        doc_entities
            .entry(doc)
            .or_default()
            .insert(row.key, row.name);
    }
    // A concept matters across documents: named in two or more, or given a value.
    concepts.retain(|_, (_, _, mentions)| {
        let docs: BTreeSet<&str> = mentions.iter().map(|m| m.doc.as_str()).collect();
        docs.len() >= 2 || mentions.iter().any(|m| m.value.is_some())
    });
    let concept_page: BTreeMap<String, String> = concepts
        .iter()
        .map(|(key, (name, _, _))| (key.clone(), concept_slugs.of(name)))
        .collect();
    let doc_page: BTreeMap<String, String> = docs
        .iter()
        .map(|d| (d.name.clone(), doc_slugs.of(&d.name)))
        .collect();

    // Questions: their answers and the documents they cite.
    struct Asked {
        slug: String,
        question: String,
        answer: Option<Answer>,
        mode: String,
        asked_at: u64,
    }
    let asked: Vec<Asked> = questions
        .iter()
        .map(|q| Asked {
            slug: query_slugs.of(&format!("{}-{}", q.id, q.question)),
            question: q.question.clone(),
            answer: serde_json::from_str(&q.answer_json).ok(),
            mode: q.mode.clone(),
            asked_at: q.asked_at,
        })
        .collect();
    let cites = |a: &Asked, doc: &str| {
        a.answer.as_ref().is_some_and(|ans| {
            ans.citations
                .iter()
                .any(|c| c.doc_name.as_deref() == Some(doc))
        })
    };

    let mut out = BTreeMap::new();
    for d in &docs {
        let source = d
            .source_path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let mut page = front_matter(
            "document",
            &d.name,
            std::slice::from_ref(&source),
            d.added_at,
        );
        page.push_str(&format!("# {}\n\n", cell(&d.name)));
        page.push_str(&format!(
            "- Source: `{}`\n- SHA-256: `{}`\n- Pages: {}\n",
            source, d.sha256, d.pages
        ));
        if let Some(domain) = &d.domain {
            page.push_str(&format!("- Domain: {domain}\n"));
        }
        if let Some(desc) = &d.description {
            page.push_str(&format!("\n{}\n", desc.trim()));
        }
        page.push_str("\n## Outline\n\n");
        page.push_str(&store.outline(&d.name)?);
        let linked: BTreeMap<&String, &String> = doc_entities
            .get(&d.name)
            .into_iter()
            .flatten()
            .filter(|(key, _)| concept_page.contains_key(*key))
            .collect();
        if !linked.is_empty() {
            page.push_str("\n## Concepts\n\n");
            for key in linked.keys() {
                page.push_str(&format!(
                    "- [[concepts/{}|{}]]\n",
                    concept_page[*key],
                    cell(&concepts[*key].0)
                ));
            }
        }
        let citing: Vec<&Asked> = asked.iter().filter(|a| cites(a, &d.name)).collect();
        if !citing.is_empty() {
            page.push_str("\n## Questions that cite it\n\n");
            for a in citing {
                page.push_str(&format!("- [[queries/{}|{}]]\n", a.slug, cell(&a.question)));
            }
        }
        out.insert(format!("documents/{}.md", doc_page[&d.name]), page);
    }

    for (key, (name, kind, mentions)) in &concepts {
        let sources: Vec<String> = mentions
            .iter()
            .map(|m| m.doc.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut page = front_matter("concept", name, &sources, updated);
        page.push_str(&format!("# {}\n\nType: {kind}\n\n", cell(name)));
        page.push_str("| Document | Period | Pages | Value |\n|---|---|---|---|\n");
        for m in mentions.iter().take(CONCEPT_ROWS) {
            let pages: Vec<String> = m.pages.iter().map(u32::to_string).collect();
            page.push_str(&format!(
                "| [[documents/{}\\|{}]] | {} | {} | {} |\n",
                doc_page[&m.doc],
                cell(&m.doc),
                m.period.as_deref().map(cell).unwrap_or_default(),
                pages.join(", "),
                m.value.as_deref().map(cell).unwrap_or_default()
            ));
        }
        if mentions.len() > CONCEPT_ROWS {
            page.push_str(&format!(
                "\n{} more mentions; see each document: {}\n",
                mentions.len() - CONCEPT_ROWS,
                sources
                    .iter()
                    .map(|s| format!("[[documents/{}|{}]]", doc_page[s], cell(s)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let touching: Vec<&Asked> = asked
            .iter()
            .filter(|a| a.question.to_lowercase().contains(key.as_str()))
            .collect();
        if !touching.is_empty() {
            page.push_str("\n## Questions\n\n");
            for a in touching {
                page.push_str(&format!("- [[queries/{}|{}]]\n", a.slug, cell(&a.question)));
            }
        }
        out.insert(format!("concepts/{}.md", concept_page[key]), page);
    }

    for a in &asked {
        let cited_docs: Vec<String> = a
            .answer
            .as_ref()
            .map(|ans| {
                ans.citations
                    .iter()
                    .filter_map(|c| c.doc_name.clone())
                    .filter(|d| doc_page.contains_key(d))
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect()
            })
            .unwrap_or_default();
        let mut page = front_matter("query", &a.question, &cited_docs, a.asked_at);
        page.push_str(&format!("# {}\n\nMode: {}\n\n", cell(&a.question), a.mode));
        match &a.answer {
            Some(ans) => {
                let status = ans.status.map_or("unknown", |s| s.as_str());
                page.push_str(&format!("Status: {status}\n\n{}\n", ans.content.trim()));
                if !ans.citations.is_empty() {
                    page.push_str("\n## Citations\n\n");
                    for c in &ans.citations {
                        let doc = c
                            .doc_name
                            .as_ref()
                            .and_then(|d| doc_page.get(d).map(|s| (d, s)))
                            .map(|(d, s)| format!("[[documents/{s}|{}]]", cell(d)))
                            .unwrap_or_else(|| cell(c.doc_name.as_deref().unwrap_or("(removed)")));
                        let pages: Vec<String> = c.pages.iter().map(u32::to_string).collect();
                        page.push_str(&format!(
                            "- {doc}, page {}: \"{}\"\n",
                            pages.join(", "),
                            cell(c.quote.as_deref().unwrap_or(""))
                        ));
                    }
                }
            }
            None => page.push_str("(The stored answer could not be read.)\n"),
        }
        let touched: Vec<(&String, &String)> = concept_page
            .iter()
            .filter(|(key, _)| a.question.to_lowercase().contains(key.as_str()))
            .collect();
        if !touched.is_empty() {
            page.push_str("\n## Concepts\n\n");
            for (key, s) in touched {
                page.push_str(&format!("- [[concepts/{s}|{}]]\n", cell(&concepts[key].0)));
            }
        }
        out.insert(format!("queries/{}.md", a.slug), page);
    }

    let mut index = front_matter("index", "Knowledge base", &[], updated);
    index.push_str(&format!(
        "# Knowledge base\n\n{}, {}, {}. See [[log]].\n\n## Documents\n\n",
        counted(docs.len(), "document"),
        counted(concepts.len(), "concept"),
        counted(asked.len(), "question")
    ));
    for d in &docs {
        let desc = d
            .description
            .as_deref()
            .map(|t| format!(" — {}", cell(t)))
            .unwrap_or_default();
        index.push_str(&format!(
            "- [[documents/{}|{}]] ({}){desc}\n",
            doc_page[&d.name],
            cell(&d.name),
            counted(d.pages, "page")
        ));
    }
    index.push_str("\n## Concepts\n\n");
    for (key, (name, kind, _)) in &concepts {
        index.push_str(&format!(
            "- [[concepts/{}|{}]] ({kind})\n",
            concept_page[key],
            cell(name)
        ));
    }
    index.push_str("\n## Questions\n\n");
    for a in asked.iter().rev() {
        index.push_str(&format!("- [[queries/{}|{}]]\n", a.slug, cell(&a.question)));
    }
    out.insert("_index.md".to_string(), index);

    let mut log_page = front_matter("log", "Log", &[], updated);
    log_page.push_str("# Log\n\nBack to [[_index]].\n\n");
    for (at, kind, subject) in &log {
        log_page.push_str(&format!("- {} {kind}: {}\n", iso_time(*at), cell(subject)));
    }
    out.insert("log.md".to_string(), log_page);
    Ok(out)
}

/// Broken links and orphan pages of the wiki in `<root>/wiki/` (`_index.md` and `log.md`
/// are never orphans).
///
/// # Errors
/// [`KbError::CreateDir`] when the wiki cannot be read.
pub fn check(root: &Path) -> Result<Vec<WikiProblem>, KbError> {
    let wiki = root.join(WIKI_DIR);
    let mut pages: BTreeMap<String, String> = BTreeMap::new();
    let mut stack = vec![wiki.clone()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|source| KbError::CreateDir {
            path: dir.clone(),
            source,
        })?;
        for e in entries.filter_map(Result::ok) {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                let rel = path
                    .strip_prefix(&wiki)
                    .map(|p| p.with_extension("").to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                pages.insert(rel, text);
            }
        }
    }
    let mut problems = Vec::new();
    let mut linked: BTreeSet<String> = BTreeSet::new();
    for (page, text) in &pages {
        let mut rest = text.as_str();
        while let Some(start) = rest.find("[[") {
            let after = &rest[start + 2..];
            let Some(end) = after.find("]]") else { break };
            let target = after[..end]
                .split('|')
                .next()
                .unwrap_or("")
                .trim_end_matches('\\')
                .to_string();
            if pages.contains_key(&target) {
                if target != *page {
                    linked.insert(target);
                }
            } else {
                problems.push(WikiProblem::BrokenLink {
                    page: format!("{page}.md"),
                    target,
                });
            }
            rest = &after[end + 2..];
        }
    }
    for page in pages.keys() {
        if page != "_index" && page != "log" && !linked.contains(page) {
            problems.push(WikiProblem::Orphan {
                page: format!("{page}.md"),
            });
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_unique_and_stable() {
        assert_eq!(slug("3M_2018_10K"), "3m-2018-10k");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("Société Générale"), "soci-t-g-n-rale");
        assert_eq!(slug("日本"), "page");
        let mut s = Slugs::default();
        let a = s.of("Acme Corp");
        let b = s.of("acme corp.");
        assert_eq!(a, "acme-corp");
        assert_ne!(a, b);
        assert!(b.starts_with("acme-corp-") && b.len() == "acme-corp-".len() + 8);
        assert_eq!(s.of("Acme Corp"), a);
    }

    #[test]
    fn times_are_iso_8601_utc() {
        assert_eq!(iso_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_time(1_764_668_400), "2025-12-02T09:40:00Z");
        assert_eq!(iso_time(951_782_400), "2000-02-29T00:00:00Z");
    }
}
