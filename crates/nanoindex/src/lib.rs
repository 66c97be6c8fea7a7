//! The nanoindex-local engine and public library API.
//!
//! [`NanoIndex::index`] turns a PDF into a [`DocumentTree`] and a [`DocumentGraph`]: MuPDF
//! extraction (`nanoindex-pdf`), the section tree (`nanoindex-tree`), the split cascade,
//! cross-references and rule-based entities (`nanoindex-graph`) — zero model calls — and,
//! when [`Config::llm`] names a model, summaries, a description and entities found by the
//! model ([`enrich`]). [`NanoIndex::index_batch`] indexes many files in parallel, writes
//! `<doc>.tree.json` and `<doc>.graph.json`, skips unchanged ones, and reports per-file
//! failures without stopping.
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
mod batch;
pub mod enrich;
mod error;
pub mod llm;
mod prepare;

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use nanoindex_core::{DocumentGraph, DocumentTree, ExtractionMetadata, FORMAT_VERSION};
use nanoindex_llm::TextGenerator;
use nanoindex_pdf::ExtractOptions;
use sha2::{Digest, Sha256};

pub use ask::{ask, highlight_pdf, AskDocument, AskError, AskOptions, Mode};
pub use batch::{
    BatchEvent, BatchItem, BatchOptions, Outcome, Shard, WrittenDocument, MANIFEST_FILE,
};
pub use enrich::{EnrichOptions, EnrichReport, Progress, Stage};
pub use error::IndexError;
pub use nanoindex_core as core;
pub use prepare::{cache_root, Prepared, CACHE_DIR_ENV};

/// Engine settings.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Password for encrypted PDFs (applies to every file of a batch).
    pub password: Option<String>,
    /// The text model for enrichment, as a spec string (`""` = the default model on
    /// llama.cpp; see [`llm::load_generator`]). `None`: no model — structure, paragraph
    /// splits and the rule-based graph, zero model calls. The model is loaded on first use
    /// and shared by every document of the engine.
    pub llm: Option<String>,
    /// How to load the model (threads, context length).
    pub llm_options: llm::LlmOptions,
    /// Split cascade, summaries, description, domain and entity types.
    pub enrich: EnrichOptions,
}

/// A document indexed in memory.
#[derive(Debug, Clone)]
pub struct IndexedDocument {
    /// The section tree.
    pub tree: DocumentTree,
    /// Cross-references and entities.
    pub graph: DocumentGraph,
    /// What enrichment did (all zero without a model).
    pub report: EnrichReport,
}

type SharedModel = Arc<OnceLock<Result<Mutex<Box<dyn TextGenerator>>, String>>>;

/// The engine.
#[derive(Clone, Default)]
pub struct NanoIndex {
    config: Config,
    model: SharedModel,
}

impl std::fmt::Debug for NanoIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NanoIndex")
            .field("config", &self.config)
            .field("model_loaded", &self.model.get().is_some())
            .finish()
    }
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
    /// An engine with `config`. Nothing is loaded until the first document.
    pub fn new(config: Config) -> Self {
        NanoIndex {
            config,
            model: SharedModel::default(),
        }
    }

    /// An engine that enriches with an already loaded `model` (for example a scripted one
    /// in tests, or a model shared with `ask`); `config.llm` is ignored.
    pub fn with_generator(config: Config, model: Box<dyn TextGenerator>) -> Self {
        let cell = OnceLock::new();
        let _ = cell.set(Ok(Mutex::new(model)));
        NanoIndex {
            config,
            model: Arc::new(cell),
        }
    }

    /// The engine's settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Indexes one PDF: structure, split cascade and graph, and — when the engine has a
    /// model — summaries, the description and model-found entities.
    ///
    /// # Errors
    /// [`IndexError::Io`] when the file cannot be read, [`IndexError::Pdf`] for encrypted,
    /// damaged, empty or page-less files, [`IndexError::NoTextLayer`] when no page has text
    /// and the file has no outline (OCR would be needed), [`IndexError::Model`] when the
    /// model cannot be loaded or fails.
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
        let tree = self.structure(bytes, path)?;
        self.enrich(tree, path, None)
    }

    /// Runs the model-dependent part of indexing on a structure-only `tree`
    /// ([`NanoIndex::structure`]); `progress` hears about every batch of model requests.
    ///
    /// # Errors
    /// [`IndexError::Model`] when the model cannot be loaded or fails.
    pub fn enrich(
        &self,
        mut tree: DocumentTree,
        path: &Path,
        progress: Option<&mut dyn FnMut(&Progress)>,
    ) -> Result<IndexedDocument, IndexError> {
        let model_error = |source: llm::LlmError| IndexError::Model {
            path: path.to_path_buf(),
            reason: source.to_string(),
        };
        let (graph, report) = match self.model()? {
            Some(model) => {
                let mut guard = model.lock().unwrap_or_else(|p| p.into_inner());
                enrich::enrich(
                    &mut tree,
                    Some(guard.as_mut()),
                    &self.config.enrich,
                    progress,
                )
                .map_err(model_error)?
            }
            None => enrich::enrich(&mut tree, None, &self.config.enrich, progress)
                .map_err(model_error)?,
        };
        Ok(IndexedDocument {
            tree,
            graph,
            report,
        })
    }

    /// Loads the engine's model now (it is otherwise loaded by the first document), so that
    /// a missing or broken model is one error before a batch rather than one per document.
    /// `Ok(false)` when the engine has no model.
    ///
    /// # Errors
    /// [`IndexError::ModelLoad`] when the model cannot be loaded.
    pub fn preload_model(&self) -> Result<bool, IndexError> {
        Ok(self.model()?.is_some())
    }

    /// The shared model, loaded on first use; `None` when the engine has none.
    fn model(&self) -> Result<Option<&Mutex<Box<dyn TextGenerator>>>, IndexError> {
        let Some(spec) = self.config.llm.as_deref() else {
            if let Some(Ok(model)) = self.model.get() {
                return Ok(Some(model));
            }
            return Ok(None);
        };
        let loaded = self.model.get_or_init(|| {
            llm::load_generator(spec, &self.config.llm_options)
                .map(Mutex::new)
                .map_err(|e| e.to_string())
        });
        match loaded {
            Ok(model) => Ok(Some(model)),
            Err(reason) => Err(IndexError::ModelLoad {
                spec: spec.to_string(),
                reason: reason.clone(),
            }),
        }
    }

    /// Extraction and the structure-only tree (with tier (a) of the split cascade), zero
    /// model calls.
    ///
    /// # Errors
    /// As [`NanoIndex::index`], without the I/O and model errors.
    pub fn structure(&self, bytes: &[u8], path: &Path) -> Result<DocumentTree, IndexError> {
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
        let built = nanoindex_tree::build_tree_with(
            &extracted,
            &nanoindex_tree::TreeOptions {
                split_tokens: self.config.enrich.split_tokens,
            },
        );
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
        Ok(tree)
    }
}
