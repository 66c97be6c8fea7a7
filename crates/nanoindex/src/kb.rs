//! A knowledge base: many documents in one store ([`nanoindex_kb::Store`]), added by the
//! engine (structure-only trees and passage embeddings, prepared before the store's
//! transaction opens) and asked across.
//!
//! A question is answered in three steps: the documents that may answer it are chosen by
//! retrieval over all of them ([`nanoindex_kb::Store::select_documents`]: full-text BM25
//! over every passage and the documents' names, never "the first N"); each chosen document
//! is read as for one document ([`crate::ask::ask`], the same reader and verification);
//! the answers are merged, every citation naming its document. A question that compares
//! ("Compare Q1 and Q2 revenue") is put to each close candidate; any other to the best
//! one, then the next while none answers. The trace lists the documents considered, their
//! scores and why. After every change and question the wiki is rendered again
//! ([`nanoindex_kb::wiki`]).

use std::path::{Path, PathBuf};

use nanoindex_core::{Answer, AnswerStatus};
use nanoindex_kb::lint::Problem;
use nanoindex_kb::{Added, NewDocument, Selected, Status, Store, StoredPassage};
use nanoindex_retrieve::analysis::{tokenize, MONTHS};
use nanoindex_retrieve::Passage;

use crate::ask::{AskDocument, AskOptions};
use crate::{doc_name, sha256_hex, IndexError, NanoIndex, Prepared};

pub use nanoindex_kb::STORE_FILE;

/// Documents considered per question.
const CONSIDERED: usize = 5;

/// Documents read per question at most.
const READ: usize = 3;

/// A candidate is read only when its score is at least this share of the best one's.
const CLOSE: f64 = 0.6;

/// A knowledge base directory opened with an engine.
pub struct KnowledgeBase {
    store: Store,
    engine: NanoIndex,
}

impl std::fmt::Debug for KnowledgeBase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KnowledgeBase")
            .field("store", &self.store)
            .finish()
    }
}

/// What adding one file did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AddReport {
    /// The file added.
    pub path: PathBuf,
    /// The document's name in the knowledge base.
    pub name: String,
    /// New, unchanged (same content already there, under this name) or replaced.
    pub outcome: String,
    /// Pages of the document.
    pub pages: usize,
    /// Whether passage embeddings were stored.
    pub vectors: bool,
}

/// One passage found by [`KnowledgeBase::search`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct KbHit {
    /// The document's name.
    pub doc_name: String,
    /// The node's id in the document's tree.
    pub node_id: String,
    /// Titles from the root to the node, joined with ` > `.
    pub title_path: String,
    /// 1-based page.
    pub page_no: u32,
    /// The passage's line that holds the most of the query's terms.
    pub line: String,
    /// BM25 score (higher is better).
    pub score: f64,
}

/// The line of `text` holding the most of `terms` (the first on a tie).
fn best_line(text: &str, terms: &[String]) -> String {
    let mut best = (0, text.lines().next().unwrap_or(""));
    for line in text.lines() {
        let have = tokenize(line);
        let n = terms.iter().filter(|t| have.contains(t)).count();
        if n > best.0 {
            best = (n, line);
        }
    }
    best.1.trim().to_string()
}

/// An answer across documents, with the documents considered.
#[derive(Debug, Clone, serde::Serialize)]
pub struct KbAnswer {
    /// The answer; each citation names its document (`doc_name`).
    pub answer: Answer,
    /// The documents considered, best first, with their scores and why.
    pub considered: Vec<Selected>,
    /// The documents read, in order.
    pub read: Vec<String>,
}

impl KnowledgeBase {
    /// Opens (creating on first use) the knowledge base in `dir`, answering and adding with
    /// `engine` (its model, embedder, password and cache); renders the wiki when it is
    /// behind the store.
    ///
    /// # Errors
    /// [`IndexError::Kb`] when the store cannot be opened (including one of a newer format).
    pub fn open(dir: &Path, engine: NanoIndex) -> Result<KnowledgeBase, IndexError> {
        let mut store = Store::open(dir)?;
        // A process killed between a change and its rendering left the wiki behind.
        if store.log_head()? > 0 && !nanoindex_kb::wiki::is_current(&store)? {
            nanoindex_kb::wiki::render(&mut store)?;
        }
        Ok(KnowledgeBase { store, engine })
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Adds one PDF or tree file (see [`NanoIndex::prepare`]): the tree, graph and
    /// embeddings are prepared first, then stored in one transaction. Adding the same
    /// content again changes nothing; a file whose content changed replaces the document of
    /// its name.
    ///
    /// # Errors
    /// As [`NanoIndex::prepare`]; [`IndexError::Kb`] when the store fails (it is unchanged
    /// then).
    pub fn add(
        &mut self,
        path: &Path,
        progress: &mut dyn FnMut(&str),
    ) -> Result<AddReport, IndexError> {
        let (report, changed) = self.store_file(path, progress)?;
        if changed {
            nanoindex_kb::wiki::render(&mut self.store)?;
        }
        Ok(report)
    }

    /// Adds every file of `paths` in order, as [`Self::add`] does, but renders the wiki once
    /// at the end (when anything changed) instead of after each file, so that adding N
    /// files costs one rendering, not N. A file that fails is reported and the others still
    /// land; a process killed midway leaves the wiki behind the store, and the next
    /// [`Self::open`] renders it. `progress(i, message)` reports the stages of file `i`
    /// (0-based), `done(i, outcome)` its outcome.
    ///
    /// # Errors
    /// [`IndexError::Kb`] when the wiki cannot be rendered at the end (the documents are
    /// stored).
    pub fn add_each(
        &mut self,
        paths: &[PathBuf],
        progress: &mut dyn FnMut(usize, &str),
        done: &mut dyn FnMut(usize, Result<AddReport, IndexError>),
    ) -> Result<(), IndexError> {
        let mut changed = false;
        for (i, path) in paths.iter().enumerate() {
            progress(i, &format!("adding `{}`", path.display()));
            let outcome = self.store_file(path, &mut |m: &str| progress(i, m));
            changed |= outcome.as_ref().is_ok_and(|(_, c)| *c);
            done(i, outcome.map(|(report, _)| report));
        }
        if changed {
            nanoindex_kb::wiki::render(&mut self.store)?;
        }
        Ok(())
    }

    /// Adds a saved tree (`<doc>.tree.json`, as `index` writes it) with the graph file
    /// `graph` (when `None`, the `<doc>.graph.json` beside the tree, else a graph rebuilt from
    /// the tree), then renders the wiki. The tree's source PDF must be where the tree says
    /// (or beside it) with the recorded SHA-256, as for [`NanoIndex::prepare_tree`]; the
    /// document is named after the tree's file. Otherwise as [`Self::add`].
    ///
    /// # Errors
    /// As [`NanoIndex::prepare_tree`]; [`IndexError::Embed`] when a passage cannot be
    /// embedded; [`IndexError::Kb`] when the store fails.
    pub fn add_tree(
        &mut self,
        tree: &Path,
        graph: Option<&Path>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<AddReport, IndexError> {
        let embedder = self.engine.embedder(progress);
        let cache = self.engine.config.cache.as_deref();
        let prepared = self.engine.prepare_tree(tree, graph, embedder, cache)?;
        let (report, changed) = self.store_prepared(tree, &prepared, progress)?;
        if changed {
            nanoindex_kb::wiki::render(&mut self.store)?;
        }
        Ok(report)
    }

    /// Prepares and stores one file (the store's one transaction) without rendering the
    /// wiki; also says whether the store changed.
    fn store_file(
        &mut self,
        path: &Path,
        progress: &mut dyn FnMut(&str),
    ) -> Result<(AddReport, bool), IndexError> {
        let prepared = self.engine.prepare(path, progress)?;
        self.store_prepared(path, &prepared, progress)
    }

    /// Stores the document prepared from `path` (the store's one transaction), named after
    /// the file, after computing its passages' vectors; also says whether the store changed.
    fn store_prepared(
        &mut self,
        path: &Path,
        prepared: &crate::Prepared,
        progress: &mut dyn FnMut(&str),
    ) -> Result<(AddReport, bool), IndexError> {
        let doc = &prepared.document;
        let name = {
            let stem = doc_name(path);
            stem.strip_suffix(".tree").unwrap_or(&stem).to_string()
        };
        let pdf_path = PathBuf::from(&doc.pdf_name);
        let source = std::fs::canonicalize(&pdf_path).unwrap_or(pdf_path);
        let sha = sha256_hex(&doc.pdf);
        // The model work happens before the store's transaction opens.
        let vectors = match (self.engine.embedder(progress), doc.vectors()) {
            (Some(e), Some(v)) => Some(v.all(e).map_err(|source| IndexError::Embed {
                document: name.clone(),
                source,
            })?),
            _ => None,
        };
        // `all` gives one vector per passage of this very index, in its order.
        let passages: Vec<StoredPassage> = doc
            .index()
            .passages()
            .iter()
            .enumerate()
            .map(|(i, p)| StoredPassage {
                node_id: p.node_id.to_string(),
                title_path: p.title_path.clone(),
                page_no: p.page_no,
                terms: tokenize(&format!("{}\n{}", p.title_path, p.text)),
                text: p.text.clone(),
                vector: vectors.as_ref().and_then(|v| v.get(i).cloned()),
            })
            .collect();
        let name_terms = tokenize(&name.replace(['_', '-', '.'], " "));
        let added = self.store.put(&NewDocument {
            name: &name,
            source_path: Some(&source),
            sha256: &sha,
            tree: &doc.tree,
            graph: &doc.graph,
            passages: &passages,
            name_terms: &name_terms,
        })?;
        let changed = !matches!(added, Added::Unchanged(_));
        let (name, outcome) = match added {
            Added::New => (name, "added".to_string()),
            Added::Replaced => (name, "replaced".to_string()),
            Added::Unchanged(existing) => {
                let outcome = if existing == name {
                    "unchanged".to_string()
                } else {
                    format!("unchanged (the same content is already there as `{existing}`)")
                };
                (existing, outcome)
            }
        };
        let report = AddReport {
            path: path.to_path_buf(),
            name,
            outcome,
            pages: doc.tree.page_dimensions.len(),
            vectors: vectors.is_some(),
        };
        Ok((report, changed))
    }

    /// Removes the document `name`; `false` when there is none.
    ///
    /// # Errors
    /// [`IndexError::Kb`].
    pub fn remove(&mut self, name: &str) -> Result<bool, IndexError> {
        let removed = self.store.remove(name)?;
        if removed {
            nanoindex_kb::wiki::render(&mut self.store)?;
        }
        Ok(removed)
    }

    /// Renders the wiki again from the store (`<dir>/wiki/`; every change does this).
    ///
    /// # Errors
    /// [`IndexError::Kb`].
    pub fn render_wiki(&mut self) -> Result<nanoindex_kb::wiki::WikiReport, IndexError> {
        Ok(nanoindex_kb::wiki::render(&mut self.store)?)
    }

    /// The `k` passages across all documents that best match `query` (BM25 over retrieval
    /// terms), each with the line that holds the most of the query's terms.
    ///
    /// # Errors
    /// [`IndexError::Kb`].
    pub fn search(&self, query: &str, k: usize) -> Result<Vec<KbHit>, IndexError> {
        let terms = tokenize(query);
        Ok(self
            .store
            .search(&terms, k)?
            .into_iter()
            .map(|h| KbHit {
                line: best_line(&h.text, &terms),
                doc_name: h.doc_name,
                node_id: h.node_id,
                title_path: h.title_path,
                page_no: h.page_no,
                score: h.score,
            })
            .collect())
    }

    /// What the store holds.
    ///
    /// # Errors
    /// [`IndexError::Kb`].
    pub fn status(&self) -> Result<Status, IndexError> {
        Ok(self.store.status()?)
    }

    /// Sources that are missing or changed since they were added.
    ///
    /// # Errors
    /// [`IndexError::Kb`].
    pub fn lint(&self) -> Result<Vec<Problem>, IndexError> {
        Ok(nanoindex_kb::lint::lint(&self.store)?)
    }

    /// Answers `question` across the documents (see the module's documentation) with the
    /// engine's model, and records it in the store.
    ///
    /// # Errors
    /// [`IndexError::KbSource`] when a chosen document's PDF is missing or changed; as
    /// [`NanoIndex::ask`]; [`IndexError::Kb`].
    pub fn ask(
        &mut self,
        question: &str,
        options: &AskOptions,
        on_draft: &mut dyn FnMut(&str),
    ) -> Result<KbAnswer, IndexError> {
        let considered = self
            .store
            .select_documents(&tokenize(question), CONSIDERED)?;
        let best = considered.first().map_or(0.0, |s| s.score);
        let close: Vec<&Selected> = considered
            .iter()
            .filter(|s| s.score >= CLOSE * best)
            .take(READ)
            .collect();
        let across = compares(question) && close.len() >= 2;
        let mut answers: Vec<(String, Answer)> = Vec::new();
        let names: Vec<String> = close.iter().map(|s| s.name.clone()).collect();
        for s in &close {
            let others: Vec<&str> = names
                .iter()
                .filter(|n| **n != s.name)
                .map(String::as_str)
                .collect();
            let put = across.then_some(others.as_slice());
            let answer = self.ask_one(&s.name, question, put, options, on_draft)?;
            let found = answer.status != Some(AnswerStatus::NotFound);
            answers.push((s.name.clone(), answer));
            if found && !across {
                break;
            }
        }
        let answer = merge(options, answers.clone(), across);
        let read: Vec<String> = answers.into_iter().map(|(n, _)| n).collect();
        let mut answer = answer;
        answer.trace = Some(serde_json::json!({
            "documents_considered": considered,
            "documents_read": read,
            "across": across,
            "answers": answer.trace.take().unwrap_or(serde_json::Value::Null),
        }));
        let json = serde_json::to_string(&answer).unwrap_or_default();
        self.store
            .record_question(question, options.mode.as_str(), &json)?;
        nanoindex_kb::wiki::render(&mut self.store)?;
        Ok(KbAnswer {
            answer,
            considered,
            read,
        })
    }

    /// Asks one stored document, its PDF read from the recorded source path; for a
    /// comparison (`across`: the other documents read), the question as [`per_document`]
    /// puts it to this document.
    fn ask_one(
        &self,
        name: &str,
        question: &str,
        across: Option<&[&str]>,
        options: &AskOptions,
        on_draft: &mut dyn FnMut(&str),
    ) -> Result<Answer, IndexError> {
        let info = self.store.document(name)?;
        let path = info.source_path.clone().unwrap_or_default();
        let pdf = std::fs::read(&path).map_err(|_| IndexError::KbSource {
            doc: name.to_string(),
            path: path.clone(),
            reason: "it is missing",
        })?;
        if sha256_hex(&pdf) != info.sha256 {
            return Err(IndexError::KbSource {
                doc: name.to_string(),
                path,
                reason: "it changed since it was added",
            });
        }
        let (tree, graph, vectors) = self.store.load(name)?;
        let question = match across {
            Some(others) => {
                let text: String = tree
                    .iter_nodes()
                    .filter_map(|n| n.text.as_deref())
                    .collect::<Vec<_>>()
                    .join("\n")
                    .to_lowercase();
                let own = name_terms(name);
                let others: Vec<String> = others.iter().flat_map(|o| name_terms(o)).collect();
                per_document(question, &text, &own, &others)
            }
            None => question.to_string(),
        };
        let question = question.as_str();
        let mut document = AskDocument::new(
            tree,
            graph,
            pdf,
            path.display().to_string(),
            self.engine.config().password.clone(),
        )
        .with_ocr(self.engine.config().ocr.clone());
        if let Some(e) = self.engine.embedder(&mut |_| {}) {
            document = document.with_vectors(e.model_name(), None);
            if let Some(v) = document.vectors() {
                v.remember(vectors.into_iter().map(|s| {
                    let passage = Passage {
                        node_id: s.node_id.as_str().into(),
                        title_path: s.title_path,
                        page_no: s.page_no,
                        text: s.text,
                    };
                    (passage, s.vector)
                }));
            }
        }
        let prepared = Prepared {
            document,
            tree_cached: true,
        };
        let mut answer = self.engine.ask(&prepared, question, options, on_draft)?;
        for c in &mut answer.citations {
            c.doc_name = Some(name.to_string());
        }
        Ok(answer)
    }
}

/// Whether a question compares or gathers across documents ("compare", "both", "each",
/// "versus", "across", "between").
fn compares(question: &str) -> bool {
    let lower = question.to_lowercase();
    lower.split(|c: char| !c.is_alphanumeric()).any(|w| {
        [
            "compare",
            "compared",
            "comparison",
            "both",
            "each",
            "versus",
            "vs",
            "across",
            "between",
            "difference",
        ]
        .contains(&w)
    })
}

/// The retrieval terms of a document's name (`3M_2018_10K` → `3m`, `2018`, `10k`).
fn name_terms(name: &str) -> Vec<String> {
    tokenize(&name.replace(['_', '-', '.'], " "))
}

/// Words that name a period besides the months ("second" quarter, "H1"): one that a
/// document never uses names another document's period.
const PERIOD_WORDS: &[&str] = &[
    "first", "second", "third", "fourth", "q1", "q2", "q3", "q4", "h1", "h2", "half", "interim",
    "annual",
];

/// What a comparison asks of one document: the question without its comparison words,
/// without the words that name another document read and not this one ("Boeing" for 3M's
/// filing), and without the period words its text never uses ("second" for the first
/// quarter's report); years and the metric's words stay.
/// `text` is the document's text, lowercase; `own` and `others` the name terms of this
/// document and of the others read.
fn per_document(question: &str, text: &str, own: &[String], others: &[String]) -> String {
    const FRAME: &[&str] = &[
        "compare",
        "compared",
        "comparison",
        "and",
        "between",
        "vs",
        "versus",
        "both",
        "each",
        "difference",
        "what",
        "was",
        "were",
        "is",
        "are",
        "how",
        "did",
        "does",
        "the",
        "across",
    ];
    /// Nouns a period word qualifies ("first *quarter*"): they go with a dropped qualifier.
    const PERIOD_NOUNS: &[&str] = &["quarter", "quarters", "half", "months", "month", "year"];
    let mut rest: Vec<&str> = Vec::new();
    let mut qualifier_dropped = false;
    for w in question
        .split(|c: char| c.is_whitespace() || c == '?' || c == ',')
        .filter(|w| !w.is_empty())
    {
        let lower = w.to_lowercase();
        let key = lower
            .trim_end_matches("'s")
            .trim_matches(|c: char| !c.is_alphanumeric());
        let names_other = others.iter().any(|o| o == key) && !own.iter().any(|o| o == key);
        // A period word this document never uses names another document's period.
        let period = PERIOD_WORDS.contains(&key) || MONTHS.contains(&key);
        let used = !period || text.contains(key);
        let qualified = std::mem::replace(&mut qualifier_dropped, period && !used);
        if qualified && PERIOD_NOUNS.contains(&key) {
            // "the first quarter of 2025" asked of the annual report: "quarter" goes too.
            continue;
        }
        if names_other || !used {
            // "of Boeing" goes whole.
            if rest.last().is_some_and(|p| {
                ["of", "for", "in", "at", "by"].contains(&p.to_lowercase().as_str())
            }) {
                rest.pop();
            }
            continue;
        }
        if !FRAME.contains(&lower.as_str()) && !rest.contains(&w) {
            rest.push(w);
        }
    }
    if rest.is_empty() {
        return question.to_string();
    }
    // The verb agrees with the head noun: the last word before a preposition ("net
    // *sales* in 2024" → "were"; "*revenue* in the first quarter" → "was").
    const PREPOSITIONS: &[&str] = &[
        "in", "of", "for", "at", "during", "by", "under", "per", "to",
    ];
    let head = rest
        .iter()
        .take_while(|w| !PREPOSITIONS.contains(&w.to_lowercase().as_str()))
        .last()
        .map(|w| w.to_lowercase())
        .unwrap_or_default();
    let plural = head.ends_with('s')
        && !["ss", "us", "is"].iter().any(|end| head.ends_with(end))
        && head.len() > 3;
    let verb = if plural { "were" } else { "was" };
    format!("What {verb} the {}?", rest.join(" "))
}

/// One answer from the documents' answers: a comparison states each document's answer
/// under its name; otherwise the first that answers (or the best document's "not found").
fn merge(options: &AskOptions, answers: Vec<(String, Answer)>, across: bool) -> Answer {
    let traces: Vec<serde_json::Value> = answers
        .iter()
        .map(|(n, a)| serde_json::json!({"document": n, "status": a.status, "trace": a.trace}))
        .collect();
    // Not a comparison: the first answer that answers, else the best document's; no
    // document at all: not found.
    let pick = answers
        .iter()
        .position(|(_, a)| a.status != Some(AnswerStatus::NotFound))
        .unwrap_or(0);
    if !across || answers.is_empty() {
        if let Some((_, mut answer)) = answers.into_iter().nth(pick) {
            answer.trace = Some(serde_json::Value::Array(traces));
            return answer;
        }
        return Answer {
            content: "No document in the knowledge base matches the question.".to_string(),
            status: Some(AnswerStatus::NotFound),
            reasoning: None,
            citations: Vec::new(),
            mode: options.mode.as_str().to_string(),
            trace: Some(serde_json::Value::Array(traces)),
        };
    }
    let statuses: Vec<Option<AnswerStatus>> = answers.iter().map(|(_, a)| a.status).collect();
    let status = if statuses.iter().all(|s| *s == Some(AnswerStatus::Answered)) {
        AnswerStatus::Answered
    } else if statuses.iter().all(|s| *s == Some(AnswerStatus::NotFound)) {
        AnswerStatus::NotFound
    } else {
        AnswerStatus::Partial
    };
    let mut content = Vec::new();
    let mut citations = Vec::new();
    let mut reasoning = Vec::new();
    for (name, a) in answers {
        content.push(format!("{name}: {}", a.content));
        if let Some(r) = a.reasoning {
            reasoning.push(format!("{name}: {r}"));
        }
        citations.extend(a.citations);
    }
    Answer {
        content: content.join("\n"),
        status: Some(status),
        reasoning: (!reasoning.is_empty()).then(|| reasoning.join("\n")),
        citations,
        mode: options.mode.as_str().to_string(),
        trace: Some(serde_json::Value::Array(traces)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparison_asks_each_document_for_the_metric() {
        let q1 = "revenue for the first quarter of 2024 was $1,204 million.";
        let none: [String; 0] = [];
        assert_eq!(
            per_document(
                "Compare revenue in the first quarter and the second quarter",
                q1,
                &none,
                &none
            ),
            "What was the revenue in first quarter?"
        );
        assert_eq!(
            per_document("Compare both", q1, &none, &none),
            "Compare both"
        );
        // Another document's name goes; this one's and the periods stay.
        let boeing = name_terms("BOEING_2018_10K");
        let three_m = name_terms("3M_2018_10K");
        assert_eq!(
            per_document(
                "Compare the net PP&E of Boeing at year end FY2018 and of 3M at year end FY2018",
                "property, plant and equipment, net 2018 boeing at year end",
                &boeing,
                &three_m
            ),
            "What was the net PP&E of Boeing at year end FY2018?"
        );
        // Each document keeps its own period, whole.
        let (annual, quarter) = (
            name_terms("northwind-2024-10k"),
            name_terms("northwind-2025-q1-10q"),
        );
        let question = "Compare net sales in 2024 and in the first quarter of 2025";
        assert_eq!(
            per_document(
                question,
                "net sales were $1,284 million in 2024",
                &annual,
                &quarter
            ),
            "What were the net sales in 2024?"
        );
        assert_eq!(
            per_document(
                question,
                "net sales were $318 million in the first quarter of 2025",
                &quarter,
                &annual
            ),
            "What were the net sales in first quarter of 2025?"
        );
        assert!(compares("Compare Q1 and Q2 revenue"));
        assert!(!compares("What was revenue in Q1?"));
    }
}
