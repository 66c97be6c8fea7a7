//! Getting a document ready for questions: index a PDF (or load a tree JSON and find its
//! PDF), compute passage embeddings, and cache both in the user cache directory so the
//! next question on the same file is instant.
//!
//! Cache layout, under [`cache_root`]:
//! - `documents/<sha256 of the PDF, 32 hex>-f<FORMAT_VERSION>t<TREE_REVISION>/tree.json` and
//!   `graph-r<GRAPH_REVISION>.json` (structure-only index of a PDF; a graph written by an
//!   older graph builder is rebuilt from the cached tree);
//! - `<that dir or trees/<sha256 of the tree JSON, 32 hex>>/dense-<model>.f32` with
//!   `dense-<model>.json` (count, dimension, SHA-256 of the embedded texts): little-endian
//!   f32 vectors, one per passage, row-major.
//!
//! The cache is never written beside the PDF (it may be read-only). Writes are atomic
//! (temporary file + rename); an unreadable or stale entry is rebuilt.

use std::path::{Path, PathBuf};

use nanoindex_core::{load_graph, load_tree, save_graph, save_tree, DocumentTree, FORMAT_VERSION};
use nanoindex_llm::Embedder;
use serde::{Deserialize, Serialize};

use crate::ask::AskDocument;
use crate::{sha256_hex, IndexError, NanoIndex};

/// Revision of the graph builder's output; cached graphs of other revisions are rebuilt.
pub const GRAPH_REVISION: u32 = 2;

/// Revision of the tree builder's output (2: the split cascade; 3: a statement's unit line
/// such as "(In millions)" is kept as text, not dropped as a running header; 4: a page whose
/// every line looked like furniture keeps them as its text; 5: run-in clause headings —
/// `Section 2.2 Title.`, `1.12 “Term” means` — and two-line ARTICLE titles); it is part of
/// the cache directory name, so trees of other revisions are rebuilt.
pub const TREE_REVISION: u32 = 5;

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
    /// Whether the embeddings came from the cache.
    pub dense_cached: bool,
    /// Passages embedded now (0 when cached or without an embedder).
    pub embedded_passages: usize,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct DenseMeta {
    count: usize,
    dimension: usize,
    texts_sha256: String,
}

/// Locks the cache entry `dir` (creating it) for this process until the returned file is
/// dropped; `None` when the lock cannot be taken (a read-only cache): the caller then works
/// unlocked, at worst indexing a document twice, never corrupting it (writes are atomic).
fn lock_entry(dir: &Path) -> Option<std::fs::File> {
    std::fs::create_dir_all(dir).ok()?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("lock"))
        .ok()?;
    file.lock().ok()?;
    Some(file)
}

fn io_error(path: &Path, source: std::io::Error) -> IndexError {
    IndexError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), IndexError> {
    nanoindex_core::io::write_atomic(path, bytes).map_err(|e| io_error(path, e))
}

fn model_key(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Loads cached vectors for `texts` from `dir`, or computes and caches them.
fn dense_vectors(
    dir: Option<&Path>,
    tree: &DocumentTree,
    embedder: &dyn Embedder,
    progress: &mut dyn FnMut(&str),
) -> Result<(Vec<Vec<f32>>, bool), IndexError> {
    let passages = nanoindex_retrieve::passages(tree);
    let texts = nanoindex_retrieve::dense_texts(&passages);
    let texts_sha256 = sha256_hex(texts.join("\u{1e}").as_bytes());
    let key = model_key(embedder.model_name());
    let paths = dir.map(|d| {
        (
            d.join(format!("dense-{key}.json")),
            d.join(format!("dense-{key}.f32")),
        )
    });
    if let Some((meta_path, data_path)) = &paths {
        let meta: Option<DenseMeta> = std::fs::read(meta_path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        if let (Some(meta), Ok(data)) = (meta, std::fs::read(data_path)) {
            if meta.count == texts.len()
                && meta.texts_sha256 == texts_sha256
                && meta.dimension > 0
                && data.len() == meta.count * meta.dimension * 4
            {
                let floats: Vec<f32> = data
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                let vectors = floats.chunks(meta.dimension).map(<[f32]>::to_vec).collect();
                return Ok((vectors, true));
            }
        }
    }
    progress(&format!(
        "embedding {} passages with {}",
        texts.len(),
        embedder.model_name()
    ));
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let vectors = embedder.embed(&refs).map_err(|source| IndexError::Embed {
        document: tree.doc_name.clone(),
        source,
    })?;
    if let Some((meta_path, data_path)) = &paths {
        let dimension = vectors.first().map_or(0, Vec::len);
        let mut data = Vec::with_capacity(vectors.len() * dimension * 4);
        for v in &vectors {
            for x in v {
                data.extend_from_slice(&x.to_le_bytes());
            }
        }
        let meta = DenseMeta {
            count: vectors.len(),
            dimension,
            texts_sha256,
        };
        // A cache that cannot be written only costs time next run.
        if write_atomic(data_path, &data).is_ok() {
            let _ = write_atomic(meta_path, &serde_json::to_vec(&meta).unwrap_or_default());
        }
    }
    Ok((vectors, false))
}

/// Passage vectors of one document: one per passage, or none without an embedder.
struct Dense {
    vectors: Option<Vec<Vec<f32>>>,
    /// Whether they came from the cache.
    cached: bool,
    /// Passages embedded now.
    embedded: usize,
}

/// Vectors for `tree`'s passages when an embedder is given.
fn embed(
    dir: Option<&Path>,
    tree: &DocumentTree,
    embedder: Option<&dyn Embedder>,
    progress: &mut dyn FnMut(&str),
) -> Result<Dense, IndexError> {
    let Some(e) = embedder else {
        return Ok(Dense {
            vectors: None,
            cached: false,
            embedded: 0,
        });
    };
    let (vectors, cached) = dense_vectors(dir, tree, e, progress)?;
    Ok(Dense {
        embedded: if cached { 0 } else { vectors.len() },
        vectors: Some(vectors),
        cached,
    })
}

impl NanoIndex {
    /// Prepares the PDF at `path` for questions: the structure-only tree and graph (from the
    /// cache when this PDF, by content, was indexed before by this format version), and
    /// passage embeddings when `embedder` is given. `cache` is the cache directory (`None`:
    /// no caching). `progress` receives one-line status messages.
    ///
    /// A password-protected PDF is checked against the configured password first, every
    /// time, and its text is never cached: the cache is plain files, and a tree or its
    /// passages there would be readable without the password.
    ///
    /// # Errors
    /// As [`NanoIndex::index`] (a missing or wrong password before any cache is read);
    /// [`IndexError::Embed`] when embedding fails.
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
        let dir = cache.map(|c| {
            c.join("documents")
                .join(format!("{}-f{FORMAT_VERSION}t{TREE_REVISION}", &sha[..32]))
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
                let (graph, _) = crate::enrich::enrich(&mut tree, None, &self.config.enrich, None)
                    .map_err(|e| IndexError::Model {
                        path: path.to_path_buf(),
                        reason: e.to_string(),
                    })?;
                if let Some(d) = &dir {
                    // A cache that cannot be written only costs time next run.
                    let _ = save_tree(&tree, d.join("tree.json"))
                        .and_then(|()| save_graph(&graph, d.join(&graph_file)));
                }
                (tree, graph)
            }
        };
        tree.extraction_metadata.source_path = Some(path.display().to_string());
        let Dense {
            vectors: dense,
            cached: dense_cached,
            embedded,
        } = embed(dir.as_deref(), &tree, embedder, progress)?;
        let name = path.display().to_string();
        Ok(Prepared {
            document: AskDocument::new(
                tree,
                graph,
                bytes,
                name,
                self.config.password.clone(),
                dense,
            ),
            tree_cached,
            dense_cached,
            embedded_passages: embedded,
        })
    }

    /// Prepares a saved tree (`<doc>.tree.json`) for questions: the graph beside it
    /// (`<doc>.graph.json`, else rebuilt from the tree), the source PDF named in its
    /// `extraction_metadata.source_path` (as written, else the same file name beside the
    /// tree), which must still have the recorded SHA-256; embeddings as in
    /// [`NanoIndex::prepare_pdf`].
    ///
    /// # Errors
    /// [`IndexError::TreeLoad`] for an unreadable tree, [`IndexError::SourceMissing`] when
    /// the PDF is not found, [`IndexError::SourceChanged`] when its content differs.
    pub fn prepare_tree(
        &self,
        tree_path: &Path,
        embedder: Option<&dyn Embedder>,
        cache: Option<&Path>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Prepared, IndexError> {
        let tree_bytes = std::fs::read(tree_path).map_err(|e| io_error(tree_path, e))?;
        let tree: DocumentTree = load_tree(tree_path).map_err(|source| IndexError::TreeLoad {
            path: tree_path.to_path_buf(),
            source,
        })?;
        let stem = tree_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = stem.strip_suffix(".tree.json").unwrap_or(&stem).to_string();
        let graph_path = tree_path.with_file_name(format!("{stem}.graph.json"));
        let graph = load_graph(&graph_path).unwrap_or_else(|_| nanoindex_graph::build_graph(&tree));
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
        if let Some(expected) = &tree.extraction_metadata.source_sha256 {
            if *expected != sha256_hex(&pdf) {
                return Err(IndexError::SourceChanged {
                    tree: tree_path.to_path_buf(),
                    pdf: pdf_path,
                });
            }
        }
        let dir = cache.map(|c| c.join("trees").join(&sha256_hex(&tree_bytes)[..32]));
        let Dense {
            vectors: dense,
            cached: dense_cached,
            embedded,
        } = embed(dir.as_deref(), &tree, embedder, progress)?;
        let name = pdf_path.display().to_string();
        Ok(Prepared {
            document: AskDocument::new(tree, graph, pdf, name, self.config.password.clone(), dense),
            tree_cached: true,
            dense_cached,
            embedded_passages: embedded,
        })
    }
}
