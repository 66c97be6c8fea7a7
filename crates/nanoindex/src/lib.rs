//! The nanoindex-local engine and public library API.
//!
//! [`NanoIndex::index`] turns a PDF into a [`DocumentTree`](nanoindex_core::DocumentTree) and a [`DocumentGraph`](nanoindex_core::DocumentGraph): MuPDF
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
//!
//! Questions go through the same engine: [`NanoIndex::prepare`] (a PDF or a saved tree,
//! structure only, cached) then [`NanoIndex::ask`] with the model [`Config::llm`] names
//! (`""` is the default local model):
//!
//! ```no_run
//! use nanoindex::{cache_root, AskOptions, Config, NanoIndex};
//! let engine = NanoIndex::new(Config {
//!     llm: Some(String::new()),
//!     dense: true,
//!     cache: cache_root(),
//!     ..Config::default()
//! });
//! let doc = engine.prepare("contract.pdf".as_ref(), &mut |m| eprintln!("{m}")).unwrap();
//! let answer = engine
//!     .ask(&doc, "What is the liability cap?", &AskOptions::default(), &mut |_| {})
//!     .unwrap();
//! println!("{}", answer.content);
//! ```

pub mod ask;
mod error;
pub mod fields;
mod index;
pub mod inputs;
pub mod kb;
pub mod llm;
mod prepare;
pub(crate) mod text;
mod vectors;

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use nanoindex_llm::{Embedder, TextGenerator};

pub use ask::{ask, highlight_pdf, AskDocument, AskError, AskOptions, Mode};
pub use error::IndexError;
pub use index::batch::{
    BatchEvent, BatchItem, BatchOptions, Outcome, Shard, WrittenDocument, CHECKPOINT_SUFFIX,
    MANIFEST_FILE,
};
pub use index::enrich::{self, EnrichOptions, EnrichReport, Progress, Stage};
pub use index::IndexedDocument;
pub use kb::{AddReport, KbAnswer, KbHit, KnowledgeBase};
pub use nanoindex_core as core;
pub use nanoindex_kb::sha256_hex;
pub use nanoindex_pdf::ocr::{self, OcrWorkers};
pub use nanoindex_pdf::{OcrMode, OcrOptions, OcrProgress};
pub use prepare::{cache_root, Prepared, CACHE_DIR_ENV};
pub use vectors::PassageVectors;

/// Engine settings.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Password for encrypted PDFs (applies to every file of a batch).
    pub password: Option<String>,
    /// When and in which languages pages without a usable text layer are recognised
    /// (Tesseract through MuPDF; see `nanoindex_pdf::ocr`).
    pub ocr: OcrOptions,
    /// Hears each page OCR recognises (for a progress bar).
    pub ocr_progress: Option<OcrProgress>,
    /// Worker processes that recognise pages, and read shares of large documents' pages, in
    /// parallel (`None`: this process alone).
    pub ocr_workers: Option<OcrWorkers>,
    /// The text model for enrichment, as a spec string (`""` = the default model on
    /// llama.cpp; see [`llm::load_generator`]). `None`: no model — structure, paragraph
    /// splits and the rule-based graph, zero model calls. The model is loaded on first use
    /// and shared by every document of the engine.
    pub llm: Option<String>,
    /// How to load the model (threads, context length).
    pub llm_options: llm::LlmOptions,
    /// Split cascade, summaries, description, domain and entity types.
    pub enrich: EnrichOptions,
    /// Dense retrieval for [`NanoIndex::ask`] and [`NanoIndex::search`]:
    /// [`NanoIndex::prepare`] loads the embedding model (all-MiniLM-L6-v2, from the models
    /// directory) on first use, and each question embeds the passages its ranking needs
    /// (see [`PassageVectors`]); when the model cannot be loaded, retrieval is lexical and
    /// `prepare` says why.
    pub dense: bool,
    /// Where [`NanoIndex::prepare`] caches trees and embeddings (`None`: no cache; the CLI
    /// uses [`cache_root`]).
    pub cache: Option<std::path::PathBuf>,
}

type SharedModel = Arc<OnceLock<Result<Mutex<Box<dyn TextGenerator>>, String>>>;
type SharedEmbedder = Arc<OnceLock<Result<Box<dyn Embedder>, String>>>;

/// The engine.
#[derive(Clone, Default)]
pub struct NanoIndex {
    config: Config,
    model: SharedModel,
    embedder: SharedEmbedder,
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

/// One section found by [`NanoIndex::search`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SearchHit {
    /// 1-based page.
    pub page_no: u32,
    /// The node's id.
    pub node_id: String,
    /// The node's title.
    pub title: String,
    /// The page's line that best matches the query.
    pub line: String,
    /// Retrieval's fused score (higher is better).
    pub score: f32,
}

impl NanoIndex {
    /// Whether OCR can run with the engine's settings: not `never`, and the language data
    /// is installed.
    pub(crate) fn ocr_ready(&self) -> bool {
        self.config.ocr.mode != OcrMode::Never
            && nanoindex_pdf::ocr::find_tessdata(
                &self.config.ocr.languages,
                self.config.ocr.data_dir.as_deref(),
            )
            .is_ok()
    }
}

impl NanoIndex {
    /// An engine with `config`. Nothing is loaded until the first document.
    pub fn new(config: Config) -> Self {
        NanoIndex {
            config,
            model: SharedModel::default(),
            embedder: SharedEmbedder::default(),
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
            embedder: SharedEmbedder::default(),
        }
    }

    /// The engine's settings.
    pub fn config(&self) -> &Config {
        &self.config
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

    /// Documents a batch indexes at once when [`BatchOptions::jobs`] is 0: one thread budget,
    /// so the cores the model's threads leave free (all cores without a model), at least 1.
    ///
    /// # Errors
    /// [`IndexError::ModelLoad`] when the thread count is invalid (0, or a bad
    /// `NANOINDEX_THREADS`).
    pub fn default_jobs(&self) -> Result<usize, IndexError> {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let model_threads = match &self.config.llm {
            None => 0,
            Some(spec) => llm::thread_count(self.config.llm_options.threads).map_err(|e| {
                IndexError::ModelLoad {
                    spec: spec.clone(),
                    reason: e.to_string(),
                }
            })?,
        };
        Ok(cores.saturating_sub(model_threads).max(1))
    }

    /// Prepares the PDF or tree JSON at `path` for questions: a file that starts with `{`
    /// is a tree written by `index` ([`NanoIndex::prepare_tree`]), anything else a PDF
    /// ([`NanoIndex::prepare_pdf`]). With [`Config::dense`] retrieval adds the similarity
    /// of passages by the engine's embedding model (loaded once), computed as questions
    /// need it; [`Config::cache`] is the cache.
    /// `progress` receives one-line status messages, including why dense retrieval is off.
    ///
    /// # Errors
    /// As [`NanoIndex::prepare_pdf`] and [`NanoIndex::prepare_tree`].
    pub fn prepare(
        &self,
        path: &Path,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Prepared, IndexError> {
        let embedder = self.embedder(progress);
        let cache = self.config.cache.as_deref();
        let mut head = [0_u8; 64];
        let read = std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .map_err(|source| IndexError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        let is_tree = head[..read]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'{');
        if is_tree {
            self.prepare_tree(path, None, embedder, cache)
        } else {
            self.prepare_pdf(path, embedder, cache, progress)
        }
    }

    /// Answers `question` about a document from [`NanoIndex::prepare`] with the engine's
    /// model ([`Config::llm`], loaded once and shared with indexing) and, for dense
    /// retrieval, its embedding model. `on_draft` receives the draft as the model writes it
    /// (what is returned is the verified answer; see [`ask::ask`]).
    ///
    /// # Errors
    /// [`IndexError::ModelLoad`] when [`Config::llm`] is `None` or the model cannot be
    /// loaded; [`IndexError::Ask`] when the question is empty, the model fails or the PDF
    /// cannot be opened to verify quotes.
    pub fn ask(
        &self,
        prepared: &Prepared,
        question: &str,
        options: &AskOptions,
        on_draft: &mut dyn FnMut(&str),
    ) -> Result<nanoindex_core::Answer, IndexError> {
        let Some(model) = self.model()? else {
            return Err(IndexError::ModelLoad {
                spec: String::new(),
                reason: "the engine has no model (`Config::llm` is `None`)".into(),
            });
        };
        let mut model = model.lock().unwrap_or_else(|p| p.into_inner());
        let embedder = match self.embedder.get() {
            Some(Ok(e)) if prepared.document.vectors().is_some() => Some(e.as_ref()),
            _ => None,
        };
        Ok(ask::ask(
            &prepared.document,
            question,
            model.as_mut(),
            embedder,
            options,
            on_draft,
        )?)
    }

    /// The `k` best sections of a prepared document for `query`, best first: each ranked
    /// page's node (title, 1-based page) and its line that best matches the query; the
    /// ranking is retrieval's own (BM25, titles, graph, and dense similarity when the
    /// document has vectors and [`Config::dense`] is set), no generative model.
    ///
    /// # Errors
    /// [`IndexError::Embed`] when the query cannot be embedded.
    pub fn search(
        &self,
        prepared: &Prepared,
        query: &str,
        k: usize,
    ) -> Result<Vec<SearchHit>, IndexError> {
        let index = prepared.document.index();
        let analysis = nanoindex_retrieve::QueryAnalysis::new(query);
        let dense = match (self.embedder.get(), prepared.document.vectors()) {
            (Some(Ok(e)), Some(vectors)) => {
                vectors::similarities(index, vectors, e.as_ref(), query, &analysis)
                    .map_err(|e| IndexError::Embed {
                        document: prepared.document.tree.doc_name.clone(),
                        source: e,
                    })?
                    .0
            }
            _ => Vec::new(),
        };
        let ranking = index.rank_pages(&analysis, &dense);
        Ok(ranking
            .iter()
            .take(k)
            .map(|hit| {
                let line = index
                    .snippets(&analysis, std::slice::from_ref(hit), 1, 1)
                    .into_iter()
                    .next()
                    .map(|s| s.text)
                    .unwrap_or_default();
                let title = prepared
                    .document
                    .tree
                    .find_node(hit.node_id.as_str())
                    .map(|n| n.title.clone())
                    .unwrap_or_default();
                SearchHit {
                    page_no: hit.page_no,
                    node_id: hit.node_id.to_string(),
                    title,
                    line,
                    score: hit.score,
                }
            })
            .collect())
    }

    /// The embedding model when [`Config::dense`] is set, loaded on first use; when it
    /// cannot be loaded, `None` and one warning through `progress`.
    fn embedder(&self, progress: &mut dyn FnMut(&str)) -> Option<&dyn Embedder> {
        if !self.config.dense {
            return None;
        }
        let mut fresh = false;
        let loaded = self.embedder.get_or_init(|| {
            fresh = true;
            llm::load_embedder(None).map_err(|e| e.to_string())
        });
        match loaded {
            Ok(e) => Some(e.as_ref()),
            Err(reason) => {
                if fresh {
                    progress(&format!("warning: dense retrieval is off: {reason}"));
                }
                None
            }
        }
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
}
