//! The knowledge base store: many documents in one SQLite database
//! (`<dir>/.nanoindex/kb.sqlite`, bundled SQLite through `rusqlite`).
//!
//! It holds each document (name, source path, SHA-256 of the PDF, pages, description,
//! domain, time added), its tree and graph as NanoIndex JSON, its passages (one per node and
//! page, as retrieval cuts them) with their embedding vectors, a full-text index of the
//! passages (FTS5 over the retrieval terms the caller gives, so numbers such as `1,577` and
//! CJK bigrams are found as in one document), each document's wiki facts (its outline as
//! markdown and its concept mentions, computed once when it is stored, so that the wiki
//! renders without loading trees), and the questions asked. The store does no
//! text analysis of its own: terms come tokenized from the caller (the engine uses
//! retrieval's tokenizer), which keeps this crate on the data model alone.
//!
//! Adding a document is one `IMMEDIATE` transaction: a process killed at any moment leaves
//! the store as it was or with the whole document. Processes that write at once are
//! serialised by SQLite's lock, waited for up to [`BUSY_TIMEOUT`]. The model work (indexing,
//! embedding) is done by the caller before [`Store::put`] opens the transaction.
//!
//! Format: [`FORMAT_VERSION`] in the `meta` table; a store of a newer version is refused
//! with [`KbError::NewerFormat`], an older one is migrated when opened.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use nanoindex_core::years::is_year_word;
use nanoindex_core::{DocumentGraph, DocumentTree};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

pub mod lint;
pub mod wiki;

pub use lint::sha256_hex;

/// Version of the store's schema. 1: documents, passages with vectors, FTS5 over passage
/// tokens, questions. 2: each document's wiki facts (outline, concept mentions), so that the
/// wiki renders without loading trees. 3: the facts also give each document's issuer and
/// each stated value's period, and concepts merge by entity name as the graph merges names
/// (`Acme Corp.` and `ACME Corp` are one). A store of version 1 or 2 gains the version-3
/// facts, computed again from its stored trees and graphs, when opened.
pub const FORMAT_VERSION: u32 = 3;

/// The store's path inside a knowledge base directory.
pub const STORE_FILE: &str = ".nanoindex/kb.sqlite";

/// How long a writer waits for another process's transaction before failing.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum KbError {
    /// The database could not be opened or created.
    #[error("cannot open knowledge base `{path}`: {source}")]
    Open {
        /// The store's path.
        path: PathBuf,
        /// Why.
        source: rusqlite::Error,
    },
    /// The directory could not be created.
    #[error("cannot create knowledge base directory `{path}`: {source}")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The store was written by a newer version of this tool.
    #[error(
        "knowledge base `{path}` has format version {found}; this build reads up to {supported}"
    )]
    NewerFormat {
        /// The store's path.
        path: PathBuf,
        /// The version found.
        found: u32,
        /// The newest version this build reads.
        supported: u32,
    },
    /// No document of that name.
    #[error("no document `{0}` in the knowledge base")]
    NoDocument(String),
    /// A stored tree or graph does not parse.
    #[error("stored {what} of `{doc}` is damaged: {source}")]
    Damaged {
        /// `tree` or `graph`.
        what: &'static str,
        /// The document.
        doc: String,
        /// The parse error.
        source: serde_json::Error,
    },
    /// A SQLite error.
    #[error("knowledge base store: {0}")]
    Sql(#[from] rusqlite::Error),
}

/// A document to add: what the engine prepared, before the transaction.
pub struct NewDocument<'a> {
    /// Unique name in the knowledge base (the file stem by default).
    pub name: &'a str,
    /// Where the PDF is (kept as given; the store never copies or changes it), if known.
    pub source_path: Option<&'a Path>,
    /// SHA-256 of the PDF (hex), or of the tree JSON when there is no PDF.
    pub sha256: &'a str,
    /// The tree.
    pub tree: &'a DocumentTree,
    /// The graph.
    pub graph: &'a DocumentGraph,
    /// The passages, in retrieval order, each with its embedding when there is one.
    pub passages: &'a [StoredPassage],
    /// The retrieval terms of the document's name (matched against a question's terms when
    /// documents are chosen).
    pub name_terms: &'a [String],
}

/// One passage as stored: a node's text on one page, with its retrieval terms.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPassage {
    /// The node's id.
    pub node_id: String,
    /// Titles from the root to the node, joined with ` > `.
    pub title_path: String,
    /// 1-based page.
    pub page_no: u32,
    /// The text.
    pub text: String,
    /// Retrieval terms of the title path and text (what full-text search matches).
    pub terms: Vec<String>,
    /// The passage's embedding, stored in the passage's own row (so a vector can only ever
    /// be read back with the text it was computed from).
    pub vector: Option<Vec<f32>>,
}

/// A stored passage's embedding with the passage it belongs to, as [`Store::load`] gives
/// them back: the engine keys the vector by this text, never by the passage's position.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredVector {
    /// The node's id.
    pub node_id: String,
    /// Titles from the root to the node, joined with ` > `.
    pub title_path: String,
    /// 1-based page.
    pub page_no: u32,
    /// The passage's text.
    pub text: String,
    /// Its embedding.
    pub vector: Vec<f32>,
}

/// What [`Store::put`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// A new document.
    New,
    /// The same content was already there (under this name, or under the one given).
    Unchanged(String),
    /// A document with other content (of that name, or of the same PDF with another tree or
    /// graph) was replaced.
    Replaced,
}

/// A stored document's record.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DocumentInfo {
    /// Its name.
    pub name: String,
    /// The PDF's path when added.
    pub source_path: Option<PathBuf>,
    /// SHA-256 (hex) of the PDF.
    pub sha256: String,
    /// Page count.
    pub pages: u32,
    /// The tree's description, if any.
    pub description: Option<String>,
    /// The tree's domain, if any.
    pub domain: Option<String>,
    /// When it was added, in seconds since the Unix epoch.
    pub added_at: u64,
    /// Passages stored.
    pub passages: u32,
}

/// One passage found by [`Store::search`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SearchHit {
    /// The document's name.
    pub doc_name: String,
    /// The node's id in the document's tree.
    pub node_id: String,
    /// Titles from the root to the node, joined with ` > `.
    pub title_path: String,
    /// 1-based page.
    pub page_no: u32,
    /// The passage's text.
    pub text: String,
    /// BM25 score (higher is better; SQLite's `bm25()` negated).
    pub score: f64,
}

/// A document chosen for a question by [`Store::select_documents`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Selected {
    /// The document's name.
    pub name: String,
    /// Score in `[0, 1]`: half its passages' BM25 (relative to the best document's), half
    /// the share of its name's terms that the question says.
    pub score: f64,
    /// Why, in words (for the trace).
    pub reason: String,
}

/// A question asked, with its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// Its id (order of asking).
    pub id: u64,
    /// When, in seconds since the Unix epoch.
    pub asked_at: u64,
    /// The question.
    pub question: String,
    /// The mode (`fast`, `agentic`, …).
    pub mode: String,
    /// The answer, as `nanoindex_core::Answer` JSON.
    pub answer_json: String,
}

/// Factor on the score of a document whose name is dated to a year the question does not
/// ask, when it asks one.
const OTHER_YEAR: f64 = 0.5;

/// Counts for `kb status`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Status {
    /// The store's path.
    pub path: PathBuf,
    /// Its format version.
    pub format_version: u32,
    /// Documents stored.
    pub documents: u32,
    /// Their pages.
    pub pages: u64,
    /// Their passages.
    pub passages: u64,
    /// Passages with a vector.
    pub vectors: u64,
    /// Questions asked.
    pub questions: u64,
}

/// Whether SQLite answered "busy" or "locked".
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e,
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// Runs `f` again, every 20 ms, while SQLite answers "busy" without having waited itself,
/// for up to [`BUSY_TIMEOUT`].
fn retry_busy<T>(mut f: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let started = std::time::Instant::now();
    loop {
        match f() {
            Err(e) if is_busy(&e) && started.elapsed() < BUSY_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            done => return done,
        }
    }
}

/// An open knowledge base store.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    root: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    source_path TEXT,
    sha256 TEXT NOT NULL,
    name_terms TEXT NOT NULL,
    pages INTEGER NOT NULL,
    description TEXT,
    domain TEXT,
    added_at INTEGER NOT NULL,
    tree_json TEXT NOT NULL,
    graph_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_sha256 ON documents(sha256);
CREATE TABLE IF NOT EXISTS passages (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    node_id TEXT NOT NULL,
    title_path TEXT NOT NULL,
    page_no INTEGER NOT NULL,
    text TEXT NOT NULL,
    vector BLOB
);
CREATE INDEX IF NOT EXISTS passages_doc ON passages(doc_id, ordinal);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(terms, tokenize = 'unicode61');
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS questions (
    id INTEGER PRIMARY KEY,
    asked_at INTEGER NOT NULL,
    question TEXT NOT NULL,
    mode TEXT NOT NULL,
    answer_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outlines (
    doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    markdown TEXT NOT NULL,
    issuer TEXT
);
CREATE TABLE IF NOT EXISTS mentions (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    value TEXT,
    pages TEXT NOT NULL,
    period TEXT
);
CREATE INDEX IF NOT EXISTS mentions_doc ON mentions(doc_id);
";

/// Stores the wiki facts of document `doc_id` (inside the caller's transaction).
fn put_facts(
    tx: &rusqlite::Transaction<'_>,
    doc_id: i64,
    facts: &wiki::DocumentFacts,
) -> Result<(), rusqlite::Error> {
    tx.execute(
        "INSERT INTO outlines (doc_id, markdown, issuer) VALUES (?1, ?2, ?3)",
        params![doc_id, facts.outline, facts.issuer],
    )?;
    let mut insert = tx.prepare(
        "INSERT INTO mentions (doc_id, key, name, kind, value, pages, period) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for m in &facts.mentions {
        let pages: Vec<String> = m.pages.iter().map(u32::to_string).collect();
        insert.execute(params![
            doc_id,
            m.key,
            m.name,
            m.kind,
            m.value,
            pages.join(","),
            m.period
        ])?;
    }
    Ok(())
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// An FTS5 query matching any of `terms` (each a quoted string, so no term is read as FTS5
/// syntax); `None` when there are none.
fn fts_query(terms: &[String]) -> Option<String> {
    let mut terms = terms.to_vec();
    terms.sort();
    terms.dedup();
    (!terms.is_empty()).then(|| {
        terms
            .iter()
            .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
            .collect::<Vec<_>>()
            .join(" OR ")
    })
}

fn vector_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn blob_vector(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

impl Store {
    /// Opens the store of the knowledge base in `dir`, creating the directory and the store
    /// on first use.
    ///
    /// # Errors
    /// [`KbError::CreateDir`], [`KbError::Open`], [`KbError::NewerFormat`] for a store of a
    /// newer version, [`KbError::Sql`].
    pub fn open(dir: &Path) -> Result<Store, KbError> {
        let path = dir.join(STORE_FILE);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| KbError::CreateDir {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        let conn = Connection::open(&path).map_err(|source| KbError::Open {
            path: path.clone(),
            source,
        })?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // WAL: readers never wait for a writer; a killed writer's transaction is rolled back
        // when the store is next opened. Two processes that create the store at once can
        // get "busy" here without SQLite's wait (the journal mode of a file still being
        // made): they try again.
        retry_busy(|| conn.pragma_update(None, "journal_mode", "WAL"))?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        let mut store = Store {
            conn,
            path,
            root: dir.to_path_buf(),
        };
        let started = std::time::Instant::now();
        loop {
            match store.migrate() {
                Err(KbError::Sql(e)) if is_busy(&e) && started.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                done => return done.map(|()| store),
            }
        }
    }

    /// Creates the schema, or checks and migrates an existing one.
    fn migrate(&mut self) -> Result<(), KbError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
        )?;
        let found: Option<u32> = tx
            .query_row(
                "SELECT value FROM meta WHERE key = 'format_version'",
                [],
                |r| r.get::<_, String>(0),
            )
            .optional()?
            .and_then(|v| v.parse().ok());
        match found {
            Some(v) if v > FORMAT_VERSION => {
                return Err(KbError::NewerFormat {
                    path: self.path.clone(),
                    found: v,
                    supported: FORMAT_VERSION,
                })
            }
            Some(v) if v == FORMAT_VERSION => {}
            // Versions 1 and 2: the tables and columns of the facts, and each document's
            // facts computed again from its stored tree and graph (one document in memory
            // at a time).
            Some(v @ (1 | 2)) => {
                tx.execute_batch(SCHEMA)?;
                if v == 2 {
                    tx.execute_batch(
                        "ALTER TABLE outlines ADD COLUMN issuer TEXT; \
                         ALTER TABLE mentions ADD COLUMN period TEXT; \
                         DELETE FROM outlines; DELETE FROM mentions;",
                    )?;
                }
                let ids: Vec<i64> = {
                    let mut stmt = tx.prepare("SELECT id FROM documents ORDER BY id")?;
                    let rows = stmt.query_map([], |r| r.get(0))?;
                    rows.collect::<Result<_, _>>()?
                };
                for id in ids {
                    let (tree_json, graph_json): (String, String) = tx.query_row(
                        "SELECT tree_json, graph_json FROM documents WHERE id = ?1",
                        params![id],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )?;
                    // A document whose JSON no longer parses gets empty facts: the store
                    // still opens (so it can be removed or added again), and reading it
                    // reports the damage.
                    let parsed = serde_json::from_str::<DocumentTree>(&tree_json).and_then(|t| {
                        serde_json::from_str::<DocumentGraph>(&graph_json).map(|g| (t, g))
                    });
                    let facts = match parsed {
                        Ok((tree, graph)) => wiki::facts(&tree, &graph),
                        Err(_) => wiki::DocumentFacts::default(),
                    };
                    put_facts(&tx, id, &facts)?;
                }
                tx.execute(
                    "UPDATE meta SET value = ?1 WHERE key = 'format_version'",
                    params![FORMAT_VERSION.to_string()],
                )?;
            }
            // A new store.
            _ => {
                tx.execute_batch(SCHEMA)?;
                tx.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('format_version', ?1)",
                    params![FORMAT_VERSION.to_string()],
                )?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The store's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The knowledge base directory.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Adds `doc` in one transaction. The same content already stored (the PDF's SHA-256,
    /// the tree's sections and description, the graph) is left as it is, under its name
    /// ([`Added::Unchanged`]); the same PDF with another tree or graph, or a document of the
    /// same name with another PDF, is replaced ([`Added::Replaced`]).
    ///
    /// # Errors
    /// [`KbError::Sql`] (the store is unchanged then).
    pub fn put(&mut self, doc: &NewDocument<'_>) -> Result<Added, KbError> {
        let tree_json = serde_json::to_string(doc.tree).map_err(|source| KbError::Damaged {
            what: "tree",
            doc: doc.name.to_string(),
            source,
        })?;
        let graph_json = serde_json::to_string(doc.graph).map_err(|source| KbError::Damaged {
            what: "graph",
            doc: doc.name.to_string(),
            source,
        })?;
        let passages = doc.passages;
        let facts = wiki::facts(doc.tree, doc.graph);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        // The same PDF with the same sections and graph is the same document, under
        // whatever name; the same PDF with another tree or graph (a reviewed graph given to
        // `add_tree`, a tree enriched by the model) replaces it.
        let same: Option<(i64, String, String, String)> = tx
            .query_row(
                "SELECT id, name, tree_json, graph_json FROM documents WHERE sha256 = ?1",
                params![doc.sha256],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let mut replaced = false;
        if let Some((id, name, stored_tree, stored_graph)) = same {
            let same_tree = serde_json::from_str::<DocumentTree>(&stored_tree).is_ok_and(|t| {
                t.structure == doc.tree.structure && t.doc_description == doc.tree.doc_description
            });
            if same_tree && stored_graph == graph_json {
                return Ok(Added::Unchanged(name));
            }
            delete_document(&tx, id)?;
            replaced = true;
        }
        let old: Option<i64> = tx
            .query_row(
                "SELECT id FROM documents WHERE name = ?1",
                params![doc.name],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(id) = old {
            delete_document(&tx, id)?;
        }
        let replaced = replaced || old.is_some();
        tx.execute(
            "INSERT INTO documents (name, source_path, sha256, name_terms, pages, description, \
             domain, added_at, tree_json, graph_json) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                doc.name,
                doc.source_path.map(|p| p.to_string_lossy().into_owned()),
                doc.sha256,
                doc.name_terms.join(" "),
                doc.tree.page_dimensions.len() as i64,
                doc.tree.doc_description,
                doc.tree.domain,
                now() as i64,
                tree_json,
                graph_json
            ],
        )?;
        let doc_id = tx.last_insert_rowid();
        put_facts(&tx, doc_id, &facts)?;
        log(&tx, if replaced { "replace" } else { "add" }, doc.name)?;
        {
            let mut insert = tx.prepare(
                "INSERT INTO passages (doc_id, ordinal, node_id, title_path, page_no, text, \
                 vector) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut fts = tx.prepare("INSERT INTO passages_fts (rowid, terms) VALUES (?1, ?2)")?;
            for (i, p) in passages.iter().enumerate() {
                insert.execute(params![
                    doc_id,
                    i as i64,
                    p.node_id,
                    p.title_path,
                    p.page_no,
                    p.text,
                    p.vector.as_deref().map(vector_blob)
                ])?;
                let id = tx.last_insert_rowid();
                fts.execute(params![id, p.terms.join(" ")])?;
            }
        }
        tx.commit()?;
        Ok(if replaced {
            Added::Replaced
        } else {
            Added::New
        })
    }

    /// Removes the document `name`; `false` when there is none.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn remove(&mut self, name: &str) -> Result<bool, KbError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let id: Option<i64> = tx
            .query_row(
                "SELECT id FROM documents WHERE name = ?1",
                params![name],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(id) = id {
            delete_document(&tx, id)?;
            log(&tx, "remove", name)?;
        }
        tx.commit()?;
        Ok(id.is_some())
    }

    /// Every stored document, by name.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn documents(&self) -> Result<Vec<DocumentInfo>, KbError> {
        self.document_rows("", [])
    }

    /// The stored document `name`'s record.
    ///
    /// # Errors
    /// [`KbError::NoDocument`], [`KbError::Sql`].
    pub fn document(&self, name: &str) -> Result<DocumentInfo, KbError> {
        self.document_rows("WHERE d.name = ?1", [name])?
            .pop()
            .ok_or_else(|| KbError::NoDocument(name.to_string()))
    }

    /// Document records matching `filter` (an SQL `WHERE` clause over `d`), by name.
    fn document_rows<P: rusqlite::Params>(
        &self,
        filter: &str,
        params: P,
    ) -> Result<Vec<DocumentInfo>, KbError> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT d.name, d.source_path, d.sha256, d.pages, d.description, d.domain, \
             d.added_at, (SELECT COUNT(*) FROM passages p WHERE p.doc_id = d.id) \
             FROM documents d {filter} ORDER BY d.name"
        ))?;
        let rows = stmt.query_map(params, |r| {
            Ok(DocumentInfo {
                name: r.get(0)?,
                source_path: r.get::<_, Option<String>>(1)?.map(PathBuf::from),
                sha256: r.get(2)?,
                pages: r.get(3)?,
                description: r.get(4)?,
                domain: r.get(5)?,
                added_at: r.get::<_, i64>(6)?.max(0) as u64,
                passages: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The stored tree, graph and passage embeddings of `name`: every passage stored with a
    /// vector, with its text, in passage order.
    ///
    /// # Errors
    /// [`KbError::NoDocument`], [`KbError::Damaged`], [`KbError::Sql`].
    pub fn load(
        &self,
        name: &str,
    ) -> Result<(DocumentTree, DocumentGraph, Vec<StoredVector>), KbError> {
        let (id, tree_json, graph_json): (i64, String, String) = self
            .conn
            .query_row(
                "SELECT id, tree_json, graph_json FROM documents WHERE name = ?1",
                params![name],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?
            .ok_or_else(|| KbError::NoDocument(name.to_string()))?;
        let tree = serde_json::from_str(&tree_json).map_err(|source| KbError::Damaged {
            what: "tree",
            doc: name.to_string(),
            source,
        })?;
        let graph = serde_json::from_str(&graph_json).map_err(|source| KbError::Damaged {
            what: "graph",
            doc: name.to_string(),
            source,
        })?;
        let mut stmt = self.conn.prepare(
            "SELECT node_id, title_path, page_no, text, vector FROM passages \
             WHERE doc_id = ?1 AND vector IS NOT NULL ORDER BY ordinal",
        )?;
        let vectors = stmt
            .query_map(params![id], |r| {
                Ok(StoredVector {
                    node_id: r.get(0)?,
                    title_path: r.get(1)?,
                    page_no: r.get(2)?,
                    text: r.get(3)?,
                    vector: blob_vector(&r.get::<_, Vec<u8>>(4)?),
                })
            })?
            .collect::<Result<_, _>>()?;
        Ok((tree, graph, vectors))
    }

    /// Every concept mention of every document, with the document's name and issuer:
    /// documents by name, each document's mentions in its graph's order.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub(crate) fn mentions(&self) -> Result<Vec<wiki::DocMention>, KbError> {
        let mut stmt = self.conn.prepare(
            "SELECT d.name, o.issuer, m.key, m.name, m.kind, m.value, m.pages, m.period \
             FROM mentions m JOIN documents d ON d.id = m.doc_id \
             LEFT JOIN outlines o ON o.doc_id = m.doc_id ORDER BY d.name, m.id",
        )?;
        let rows = stmt.query_map([], |r| {
            let pages: String = r.get(6)?;
            Ok(wiki::DocMention {
                doc: r.get(0)?,
                issuer: r.get(1)?,
                row: wiki::MentionRow {
                    key: r.get(2)?,
                    name: r.get(3)?,
                    kind: r.get(4)?,
                    value: r.get(5)?,
                    pages: pages.split(',').filter_map(|p| p.parse().ok()).collect(),
                    period: r.get(7)?,
                },
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The outline of document `name` as the wiki shows it (markdown, one line per node).
    ///
    /// # Errors
    /// [`KbError::NoDocument`], [`KbError::Sql`].
    pub(crate) fn outline(&self, name: &str) -> Result<String, KbError> {
        self.conn
            .query_row(
                "SELECT o.markdown FROM outlines o JOIN documents d ON d.id = o.doc_id \
                 WHERE d.name = ?1",
                params![name],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| KbError::NoDocument(name.to_string()))
    }

    /// The `k` passages across all documents that best match the query's retrieval `terms`
    /// (BM25 over the passages' terms), best first.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn search(&self, terms: &[String], k: usize) -> Result<Vec<SearchHit>, KbError> {
        let Some(fts) = fts_query(terms) else {
            return Ok(Vec::new());
        };
        let mut stmt = self.conn.prepare(
            "SELECT d.name, p.node_id, p.title_path, p.page_no, p.text, \
             bm25(passages_fts) AS rank \
             FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid \
             JOIN documents d ON d.id = p.doc_id \
             WHERE passages_fts MATCH ?1 ORDER BY rank LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![fts, k as i64], |r| {
            Ok(SearchHit {
                doc_name: r.get(0)?,
                node_id: r.get(1)?,
                title_path: r.get(2)?,
                page_no: r.get(3)?,
                text: r.get(4)?,
                score: -r.get::<_, f64>(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The documents that may answer a question (its retrieval `terms`), best first, at most
    /// `k` (halved when its name is dated to a year the question does not ask, while it asks
    /// one): each scored by its
    /// best passages' BM25 (the sum of its three best among the 200 best overall, relative
    /// to the best document's) and by the share of its name's terms the question says (a
    /// question about "3M's FY2018 capex" prefers `3M_2018_10K` to `3M_2022_10K`). The whole
    /// store is never read: only the full-text index and the document names.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn select_documents(&self, terms: &[String], k: usize) -> Result<Vec<Selected>, KbError> {
        let hits = self.search(terms, 200)?;
        let asked: std::collections::HashSet<&String> = terms.iter().collect();
        let mut by_doc: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
        for h in &hits {
            by_doc.entry(h.doc_name.clone()).or_default().push(h.score);
        }
        let lexical: Vec<(String, f64)> = by_doc
            .into_iter()
            .map(|(name, mut scores)| {
                scores.sort_by(|a, b| b.total_cmp(a));
                (name, scores.iter().take(3).sum::<f64>())
            })
            .collect();
        let best = lexical.iter().map(|x| x.1).fold(0.0, f64::max);
        let mut out = Vec::new();
        let mut stmt = self
            .conn
            .prepare("SELECT name, name_terms FROM documents")?;
        let names: Vec<(String, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        for (name, name_terms) in names {
            let name_terms: Vec<String> =
                name_terms.split_whitespace().map(str::to_string).collect();
            let said = name_terms.iter().filter(|t| asked.contains(t)).count();
            let name_share = said as f64 / name_terms.len().max(1) as f64;
            // A name dated to a year the question does not ask, when it asks one
            // ("3M_2022_10K" for a FY2018 question): another period's document.
            let other_year = asked.iter().any(|t| is_year_word(t))
                && name_terms
                    .iter()
                    .any(|t| is_year_word(t) && !asked.contains(t))
                && !name_terms
                    .iter()
                    .any(|t| is_year_word(t) && asked.contains(t));
            let passages = lexical.iter().find(|(n, _)| *n == name).map_or(0.0, |x| {
                if best > 0.0 {
                    x.1 / best
                } else {
                    0.0
                }
            });
            if passages == 0.0 && said == 0 {
                continue;
            }
            out.push(Selected {
                score: (0.5 * passages + 0.5 * name_share)
                    * if other_year { OTHER_YEAR } else { 1.0 },
                reason: format!(
                    "passages {:.2} of the best document's BM25; {said} of {} name terms in the question{}",
                    passages,
                    name_terms.len(),
                    if other_year { "; its name is dated to another year" } else { "" }
                ),
                name,
            });
        }
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.name.cmp(&b.name)));
        out.truncate(k);
        Ok(out)
    }

    /// Records a question and its answer (JSON) for the wiki's query pages and the log.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn record_question(
        &mut self,
        question: &str,
        mode: &str,
        answer_json: &str,
    ) -> Result<(), KbError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "INSERT INTO questions (asked_at, question, mode, answer_json) VALUES (?1, ?2, ?3, ?4)",
            params![now() as i64, question, mode, answer_json],
        )?;
        log(&tx, "question", question)?;
        tx.commit()?;
        Ok(())
    }

    /// The id of the latest log entry (0 for none): every change and question adds one.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn log_head(&self) -> Result<u64, KbError> {
        Ok(self
            .conn
            .query_row("SELECT COALESCE(MAX(id), 0) FROM log", [], |r| {
                r.get::<_, i64>(0)
            })?
            .max(0) as u64)
    }

    /// A value of the `meta` table.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn meta(&self, key: &str) -> Result<Option<String>, KbError> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", params![key], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// Sets a value of the `meta` table.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn set_meta(&mut self, key: &str, value: &str) -> Result<(), KbError> {
        self.conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            params![key, value],
        )?;
        Ok(())
    }

    /// The questions asked, oldest first.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn questions(&self) -> Result<Vec<Question>, KbError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, asked_at, question, mode, answer_json FROM questions ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(Question {
                id: r.get::<_, i64>(0)?.max(0) as u64,
                asked_at: r.get::<_, i64>(1)?.max(0) as u64,
                question: r.get(2)?,
                mode: r.get(3)?,
                answer_json: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The log of changes and questions, oldest first: (seconds since the epoch, kind
    /// (`add`, `replace`, `remove`, `question`), subject).
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn log(&self) -> Result<Vec<(u64, String, String)>, KbError> {
        let mut stmt = self
            .conn
            .prepare("SELECT at, kind, subject FROM log ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?.max(0) as u64, r.get(1)?, r.get(2)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Counts of what the store holds.
    ///
    /// # Errors
    /// [`KbError::Sql`].
    pub fn status(&self) -> Result<Status, KbError> {
        let count = |sql: &str| -> Result<u64, rusqlite::Error> {
            self.conn
                .query_row(sql, [], |r| r.get::<_, i64>(0))
                .map(|v| v.max(0) as u64)
        };
        Ok(Status {
            path: self.path.clone(),
            format_version: FORMAT_VERSION,
            documents: count("SELECT COUNT(*) FROM documents")? as u32,
            pages: count("SELECT COALESCE(SUM(pages), 0) FROM documents")?,
            passages: count("SELECT COUNT(*) FROM passages")?,
            vectors: count("SELECT COUNT(*) FROM passages WHERE vector IS NOT NULL")?,
            questions: count("SELECT COUNT(*) FROM questions")?,
        })
    }
}

/// Appends to the log.
fn log(tx: &rusqlite::Transaction<'_>, kind: &str, subject: &str) -> Result<(), rusqlite::Error> {
    tx.execute(
        "INSERT INTO log (at, kind, subject) VALUES (?1, ?2, ?3)",
        params![now() as i64, kind, subject],
    )?;
    Ok(())
}

/// Deletes a document with its passages and their full-text rows.
fn delete_document(tx: &rusqlite::Transaction<'_>, id: i64) -> Result<(), rusqlite::Error> {
    tx.execute(
        "DELETE FROM passages_fts WHERE rowid IN (SELECT id FROM passages WHERE doc_id = ?1)",
        params![id],
    )?;
    tx.execute("DELETE FROM passages WHERE doc_id = ?1", params![id])?;
    tx.execute("DELETE FROM documents WHERE id = ?1", params![id])?;
    Ok(())
}

#[cfg(test)]
mod tests;
