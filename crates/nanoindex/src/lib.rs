//! The nanoindex-local engine and public library API.
//!
//! [`NanoIndex::index`] turns a PDF into a [`DocumentTree`] and a [`DocumentGraph`] with zero
//! model calls: MuPDF extraction (`nanoindex-pdf`), the section tree (`nanoindex-tree`) and
//! cross-references (`nanoindex-graph`). [`NanoIndex::index_batch`] indexes many files in
//! parallel, writes `<doc>.tree.json` and `<doc>.graph.json`, and reports per-file failures
//! without stopping.
//!
//! ```no_run
//! use nanoindex::{Config, NanoIndex};
//! let engine = NanoIndex::new(Config::default());
//! let doc = engine.index("annual-report.pdf").unwrap();
//! for node in doc.tree.iter_nodes() {
//!     println!("{} {} pp. {}-{}", node.node_id, node.title, node.start_index, node.end_index);
//! }
//! ```

pub mod ask;
mod error;
pub mod llm;
mod prepare;

use std::path::{Path, PathBuf};

use nanoindex_core::{
    save_graph, save_tree, DocumentGraph, DocumentTree, ExtractionMetadata, FORMAT_VERSION,
};
use nanoindex_pdf::ExtractOptions;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

pub use ask::{ask, highlight_pdf, AskDocument, AskError, AskOptions, Mode};
pub use error::IndexError;
pub use nanoindex_core as core;
pub use prepare::{cache_root, Prepared, CACHE_DIR_ENV};

/// Engine settings.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Password for encrypted PDFs (applies to every file of a batch).
    pub password: Option<String>,
}

/// A document indexed in memory.
#[derive(Debug, Clone)]
pub struct IndexedDocument {
    /// The section tree.
    pub tree: DocumentTree,
    /// Cross-references and entities.
    pub graph: DocumentGraph,
}

/// Outcome of one file of a batch.
#[derive(Debug)]
pub struct BatchItem {
    /// The input file.
    pub path: PathBuf,
    /// Written tree and graph paths with the document, or why the file failed.
    pub result: Result<WrittenDocument, IndexError>,
}

/// A document indexed and written to disk.
#[derive(Debug)]
pub struct WrittenDocument {
    /// Path of `<doc>.tree.json`.
    pub tree_path: PathBuf,
    /// Path of `<doc>.graph.json`.
    pub graph_path: PathBuf,
    /// The indexed document.
    pub document: IndexedDocument,
}

/// The engine.
#[derive(Debug, Clone, Default)]
pub struct NanoIndex {
    config: Config,
}

/// Document name used for output files: the file stem.
pub fn doc_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "document".to_string())
}

/// Hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

impl NanoIndex {
    /// An engine with `config`.
    pub fn new(config: Config) -> Self {
        NanoIndex { config }
    }

    /// Indexes one PDF with zero model calls.
    ///
    /// # Errors
    /// [`IndexError::Io`] when the file cannot be read, [`IndexError::Pdf`] for encrypted,
    /// damaged, empty or page-less files, [`IndexError::NoTextLayer`] when no page has text
    /// and the file has no outline (OCR would be needed).
    pub fn index(&self, path: impl AsRef<Path>) -> Result<IndexedDocument, IndexError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| IndexError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        self.index_bytes(&bytes, path)
    }

    /// Indexes a PDF already in memory; `path` names it in the tree and in errors.
    ///
    /// # Errors
    /// As [`NanoIndex::index`], without the I/O error.
    pub fn index_bytes(&self, bytes: &[u8], path: &Path) -> Result<IndexedDocument, IndexError> {
        let display = path.display().to_string();
        let options = ExtractOptions {
            password: self.config.password.clone(),
        };
        let extracted = nanoindex_pdf::extract_bytes(bytes, &display, &options)?;
        let has_text = extracted.pages.iter().any(|p| !p.needs_ocr);
        if !has_text && extracted.outline.is_empty() {
            return Err(IndexError::NoTextLayer {
                path: path.to_path_buf(),
                pages: extracted.page_count,
            });
        }
        let built = nanoindex_tree::build_tree(&extracted);
        let mut warnings = extracted.warnings.clone();
        if !has_text {
            warnings
                .push("no page has a text layer; the tree comes from the outline only".to_string());
        }
        let blank: Vec<u32> = extracted
            .pages
            .iter()
            .filter(|p| p.needs_ocr)
            .map(|p| p.page_no)
            .collect();
        if has_text && !blank.is_empty() {
            let list: Vec<String> = blank.iter().take(20).map(u32::to_string).collect();
            warnings.push(format!(
                "{} of {} pages have no text layer (OCR would be needed): {}{}",
                blank.len(),
                extracted.page_count,
                list.join(", "),
                if blank.len() > 20 { ", …" } else { "" }
            ));
        }
        let page_labels: Vec<String> = extracted
            .pages
            .iter()
            .map(|p| p.label.clone().unwrap_or_default())
            .collect();
        let labels_differ = extracted.pages.iter().any(|p| {
            p.label
                .as_ref()
                .is_some_and(|l| *l != p.page_no.to_string())
        });
        let metadata = ExtractionMetadata {
            format_version: FORMAT_VERSION,
            source_path: Some(display),
            source_sha256: Some(sha256_hex(bytes)),
            page_count: extracted.page_count,
            tree_method: built.method.as_str().to_string(),
            page_labels: if labels_differ {
                page_labels
            } else {
                Vec::new()
            },
            pages_without_text: blank,
            page_errors: extracted.page_errors.clone(),
            warnings,
            copy_forbidden: extracted.copy_forbidden,
            extra: Default::default(),
        };
        let tree = DocumentTree {
            doc_name: doc_name(path),
            doc_description: None,
            domain: Some(built.domain),
            extraction_metadata: metadata,
            structure: built.structure,
            all_bounding_boxes: built.all_bounding_boxes,
            page_dimensions: built.page_dimensions,
        };
        let graph = nanoindex_graph::build_graph(&tree);
        Ok(IndexedDocument { tree, graph })
    }

    /// Indexes `paths` on `jobs` worker threads (0 = one per available core) and writes
    /// `<doc>.tree.json` and `<doc>.graph.json` into `out_dir`. A failing file is reported in
    /// its [`BatchItem`] and the others go on. Results come back in input order.
    pub fn index_batch(&self, paths: &[PathBuf], out_dir: &Path, jobs: usize) -> Vec<BatchItem> {
        let run = || {
            paths
                .par_iter()
                .map(|path| BatchItem {
                    path: path.clone(),
                    result: std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.index_and_write(path, out_dir)
                    }))
                    .unwrap_or_else(|_| Err(IndexError::Internal { path: path.clone() })),
                })
                .collect()
        };
        match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        }
    }

    fn index_and_write(&self, path: &Path, out_dir: &Path) -> Result<WrittenDocument, IndexError> {
        let document = self.index(path)?;
        let name = &document.tree.doc_name;
        let tree_path = out_dir.join(format!("{name}.tree.json"));
        let graph_path = out_dir.join(format!("{name}.graph.json"));
        save_tree(&document.tree, &tree_path)?;
        save_graph(&document.graph, &graph_path)?;
        Ok(WrittenDocument {
            tree_path,
            graph_path,
            document,
        })
    }
}
