//! Getting a document ready for questions: index a PDF (or load a tree JSON and find its
//! PDF) and cache the index in the user cache directory so the next question on the same
//! file is instant. Passage vectors are not computed here: each question embeds the
//! passages its ranking needs ([`crate::PassageVectors`]).
//!
//! Cache layout, under [`cache_root`]:
//! - `documents/<sha256 of the PDF, 32 hex>-f<FORMAT_VERSION>t<TREE_REVISION>/tree.json` and
//!   `graph-r<GRAPH_REVISION>.json` (structure-only index of a PDF; a graph written by an
//!   older graph builder is rebuilt from the cached tree);
//! - `vectors/<sha256 of the PDF, 32 hex>/<model>.vectors`: passage vectors keyed by the
//!   text they embed, shared by the PDF and its tree JSON (format in [`crate::PassageVectors`]).
//!
//! The cache is never written beside the PDF (it may be read-only). Writes are atomic
//! (temporary file + rename); an unreadable or stale entry is rebuilt.

use std::path::{Path, PathBuf};

use nanoindex_core::{load_graph, load_tree, save_graph, save_tree, DocumentTree, FORMAT_VERSION};
use nanoindex_llm::Embedder;

use crate::ask::AskDocument;
use crate::{sha256_hex, IndexError, NanoIndex};

/// Revision of the graph builder's output (3: table rows told from prose by the one rule of
/// `nanoindex_core::figures`, a sentence ending in a date is prose); cached graphs of other
/// revisions are rebuilt.
pub const GRAPH_REVISION: u32 = 3;

/// Revision of the tree builder's output (2: the split cascade; 3: a statement's unit line
/// such as "(In millions)" is kept as text, not dropped as a running header; 4: a page whose
/// every line looked like furniture keeps them as its text; 5: run-in clause headings —
/// `Section 2.2 Title.`, `1.12 “Term” means` — and two-line ARTICLE titles; 6: characters
/// outside the page's media box are not read, lying page trees are recovered, repaired files
/// report per-page losses, one sentence rule for the split cascade; 7: words split by a space
/// the next letter is set over, "SEG MENT", are joined; 8: lettered clauses `(a) Title.`,
/// defined terms with their alternatives, keyword headings titled by the next lines, opinion
/// openings and numbered parts, running heads below the margin, headings under outline
/// leaves merged, tables of figures in `TreeNode.tables`; 9: pages without a usable text
/// layer recognised by OCR; 10: column heads right above a table's first row are its
/// header lines, a column only some rows fill is a column, and a figure after a wide gap
/// starts its own span); it is part of the cache directory name, so trees of other
/// revisions are rebuilt.
pub const TREE_REVISION: u32 = 10;

/// Environment variable that overrides the cache directory.
pub const CACHE_DIR_ENV: &str = nanoindex_core::dirs::CACHE_ENV;

/// The cache directory: `NANOINDEX_CACHE`, else `$XDG_CACHE_HOME/nanoindex`, else
/// `$HOME/.cache/nanoindex`; `None` when none is set.
#[must_use]
pub fn cache_root() -> Option<PathBuf> {
    nanoindex_core::dirs::cache_dir_or(CACHE_DIR_ENV, None)
}

/// A document ready for questions and where it came from.
#[derive(Debug)]
pub struct Prepared {
    /// The document.
    pub document: AskDocument,
    /// Whether the tree came from the cache (no indexing was needed).
    pub tree_cached: bool,
}

/// Locks the cache entry `dir` (creating it) for this process until the returned file is
/// dropped; `None` when the lock cannot be taken (a read-only cache): the caller then works
/// unlocked, at worst indexing a document twice, never corrupting it (writes are atomic).
fn lock_entry(dir: &Path) -> Option<std::fs::File> {
    std::fs::create_dir_all(dir).ok()?;
    lock_file(&dir.join("lock")).ok()
}

/// Opens (creating) the file at `path` and takes an exclusive advisory lock on it, held until
/// the returned file is dropped (also released when the process dies).
pub(crate) fn lock_file(path: &Path) -> std::io::Result<std::fs::File> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    file.lock()?;
    Ok(file)
}

fn io_error(path: &Path, source: std::io::Error) -> IndexError {
    IndexError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The passage-vector cache of a PDF with this SHA-256 (hex): keyed by the PDF, not by the
/// tree revision or the path it was prepared from, since each vector is keyed by its text.
fn vectors_dir(cache: &Path, pdf_sha256: &str) -> PathBuf {
    cache
        .join("vectors")
        .join(&pdf_sha256[..32.min(pdf_sha256.len())])
}

impl NanoIndex {
    /// Prepares the PDF at `path` for questions: the structure-only tree and graph (from the
    /// cache when this PDF, by content, was indexed before by this format version), and
    /// dense retrieval with `embedder`'s model when it is given (its passage vectors are
    /// computed by the questions that need them; see [`crate::PassageVectors`]). `cache` is
    /// the cache directory (`None`: no caching). `progress` receives one-line status
    /// messages.
    ///
    /// A password-protected PDF is checked against the configured password first, every
    /// time, and its text is never cached: the cache is plain files, and a tree or its
    /// passages there would be readable without the password.
    ///
    /// # Errors
    /// As [`NanoIndex::index`] (a missing or wrong password before any cache is read).
    pub fn prepare_pdf(
        &self,
        path: &Path,
        embedder: Option<&dyn Embedder>,
        cache: Option<&Path>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Prepared, IndexError> {
        let bytes = std::fs::read(path).map_err(|e| io_error(path, e))?;
        let sha = sha256_hex(&bytes);
        let protected = nanoindex_pdf::password_protected(
            &bytes,
            &path.display().to_string(),
            self.config.password.as_deref(),
        )?;
        let cache = cache.filter(|_| !protected);
        // OCR settings other than the default read scanned pages differently: their own entry.
        let ocr_key = match self.config.ocr.cache_key() {
            k if k.is_empty() => k,
            k => format!("-{k}"),
        };
        let dir = cache.map(|c| {
            c.join("documents").join(format!(
                "{}-f{FORMAT_VERSION}t{TREE_REVISION}{ocr_key}",
                &sha[..32]
            ))
        });
        let graph_file = format!("graph-r{GRAPH_REVISION}.json");
        // One process indexes a document at a time: others wait for it, then read its cache
        // (an advisory lock on the entry, released when `_entry` drops, also on a crash).
        let _entry = dir.as_deref().and_then(lock_entry);
        let cached = dir.as_ref().and_then(|d| {
            let tree = load_tree(d.join("tree.json")).ok()?;
            if tree.extraction_metadata.source_sha256.as_deref() != Some(sha.as_str()) {
                return None;
            }
            // A graph from an older graph builder is rebuilt from the cached tree.
            let graph = load_graph(d.join(&graph_file)).unwrap_or_else(|_| {
                let graph = nanoindex_graph::build_graph(&tree);
                let _ = save_graph(&graph, d.join(&graph_file));
                graph
            });
            Some((tree, graph))
        });
        let tree_cached = cached.is_some();
        let (mut tree, graph) = match cached {
            Some(found) => found,
            None => {
                progress(&format!("indexing `{}`", path.display()));
                // Structure only: questions never wait for summaries or model entities.
                let mut tree = self.structure(&bytes, path)?;
                let graph = self.enrich_without_model(&mut tree, path)?;
                // Pages left unread because OCR's language data is missing are read once it is
                // installed: such a tree is not cached.
                let unread =
                    !tree.extraction_metadata.pages_without_text.is_empty() && !self.ocr_ready();
                if let Some(d) = dir.as_ref().filter(|_| !unread) {
                    // A cache that cannot be written only costs time next run.
                    let _ = save_tree(&tree, d.join("tree.json"))
                        .and_then(|()| save_graph(&graph, d.join(&graph_file)));
                }
                (tree, graph)
            }
        };
        tree.extraction_metadata.source_path = Some(path.display().to_string());
        let name = path.display().to_string();
        let mut document = AskDocument::new(tree, graph, bytes, name, self.config.password.clone())
            .with_ocr(self.config.ocr.clone());
        if let Some(e) = embedder {
            let dir = cache.map(|c| vectors_dir(c, &sha));
            document = document.with_vectors(e.model_name(), dir.as_deref());
        }
        Ok(Prepared {
            document,
            tree_cached,
        })
    }

    /// Prepares a saved tree (`<doc>.tree.json`) for questions: the graph `graph_path`, when
    /// given, else the one beside it (`<doc>.graph.json`, else rebuilt from the tree), the
    /// source PDF named in its
    /// `extraction_metadata.source_path` (as written, else the same file name beside the
    /// tree), which must still have the recorded SHA-256; dense retrieval as in
    /// [`NanoIndex::prepare_pdf`], sharing the PDF's passage vectors.
    ///
    /// # Errors
    /// [`IndexError::TreeLoad`] for an unreadable tree, [`IndexError::GraphLoad`] for an
    /// unreadable `graph_path`, [`IndexError::SourceMissing`] when
    /// the PDF is not found, [`IndexError::SourceChanged`] when its content differs, a
    /// password error when the PDF is protected and the password is missing or wrong.
    pub fn prepare_tree(
        &self,
        tree_path: &Path,
        graph_path: Option<&Path>,
        embedder: Option<&dyn Embedder>,
        cache: Option<&Path>,
    ) -> Result<Prepared, IndexError> {
        let tree: DocumentTree = load_tree(tree_path).map_err(|source| IndexError::TreeLoad {
            path: tree_path.to_path_buf(),
            source,
        })?;
        let stem = tree_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = stem.strip_suffix(".tree.json").unwrap_or(&stem).to_string();
        let graph = match graph_path {
            Some(path) => load_graph(path).map_err(|source| IndexError::GraphLoad {
                path: path.to_path_buf(),
                source,
            })?,
            None => load_graph(tree_path.with_file_name(format!("{stem}.graph.json")))
                .unwrap_or_else(|_| nanoindex_graph::build_graph(&tree)),
        };
        let recorded = tree
            .extraction_metadata
            .source_path
            .clone()
            .unwrap_or_default();
        let mut candidates = vec![PathBuf::from(&recorded)];
        if let (Some(dir), Some(name)) = (tree_path.parent(), Path::new(&recorded).file_name()) {
            candidates.push(dir.join(name));
        }
        let pdf_path = candidates
            .into_iter()
            .find(|p| !p.as_os_str().is_empty() && p.is_file())
            .ok_or_else(|| IndexError::SourceMissing {
                tree: tree_path.to_path_buf(),
                source_path: recorded.clone(),
            })?;
        let pdf = std::fs::read(&pdf_path).map_err(|e| io_error(&pdf_path, e))?;
        let pdf_sha256 = sha256_hex(&pdf);
        if let Some(expected) = &tree.extraction_metadata.source_sha256 {
            if *expected != pdf_sha256 {
                return Err(IndexError::SourceChanged {
                    tree: tree_path.to_path_buf(),
                    pdf: pdf_path,
                });
            }
        }
        let protected = nanoindex_pdf::password_protected(
            &pdf,
            &pdf_path.display().to_string(),
            self.config.password.as_deref(),
        )?;
        let name = pdf_path.display().to_string();
        let mut document = AskDocument::new(tree, graph, pdf, name, self.config.password.clone())
            .with_ocr(self.config.ocr.clone());
        if let Some(e) = embedder {
            let dir = cache
                .filter(|_| !protected)
                .map(|c| vectors_dir(c, &pdf_sha256));
            document = document.with_vectors(e.model_name(), dir.as_deref());
        }
        Ok(Prepared {
            document,
            tree_cached: true,
        })
    }
}
