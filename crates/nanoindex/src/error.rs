//! Errors of the engine: the PDF crate's, plus file access, no text layer and saving.

use std::path::PathBuf;

/// Why a document could not be indexed.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The file could not be read.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Opening or reading the PDF failed (password, damage, no pages, …).
    #[error(transparent)]
    Pdf(#[from] nanoindex_pdf::PdfError),
    /// No page has a text layer, OCR found none either, and there is no outline to build a
    /// tree from.
    #[error(
        "cannot index `{path}`: no text layer on any of its pages ({}; {ocr})",
        nanoindex_core::english::counted(*.pages, "page")
    )]
    NoTextLayer {
        /// The file.
        path: PathBuf,
        /// Its page count.
        pages: u32,
        /// What OCR did: `OCR needed` (with `--ocr never`, or why it could not run: the
        /// language package to install), or `OCR found no text`.
        ocr: String,
    },
    /// A bug met while indexing this file; the rest of the batch went on.
    #[error("cannot index `{path}`: internal error (please report it with the file)")]
    Internal {
        /// The file.
        path: PathBuf,
    },
    /// A JSON Schema whose fields cannot be filled (`extract --schema`).
    #[error("cannot fill the schema: {0}")]
    Schema(String),
    /// A saved tree could not be read.
    #[error("cannot load the tree `{path}`")]
    TreeLoad {
        /// The tree file.
        path: PathBuf,
        /// Underlying error.
        #[source]
        source: nanoindex_core::CoreError,
    },
    /// A graph file given with a tree could not be read.
    #[error("cannot load the graph `{path}`")]
    GraphLoad {
        /// The graph file.
        path: PathBuf,
        /// Underlying error.
        #[source]
        source: nanoindex_core::CoreError,
    },
    /// The PDF a tree was built from is not where the tree says.
    #[error("cannot find the PDF of `{tree}`: `{source_path}` does not exist (move it back or index the PDF again)")]
    SourceMissing {
        /// The tree file.
        tree: PathBuf,
        /// `extraction_metadata.source_path` of the tree.
        source_path: String,
    },
    /// The PDF a tree was built from has changed since.
    #[error(
        "the PDF `{pdf}` changed since `{tree}` was built (its SHA-256 differs); index it again"
    )]
    SourceChanged {
        /// The tree file.
        tree: PathBuf,
        /// The PDF found.
        pdf: PathBuf,
    },
    /// Computing passage embeddings failed.
    #[error("cannot embed the passages of `{document}`")]
    Embed {
        /// The document name.
        document: String,
        /// Underlying error.
        #[source]
        source: nanoindex_llm::LlmError,
    },
    /// Two inputs of a batch would write the same `<doc>.tree.json`.
    #[error(
        "cannot index `{path}`: its output name is taken by `{other}` in the same batch (index \
         them into different folders, or rename one)"
    )]
    NameClash {
        /// The later input.
        path: PathBuf,
        /// The input that keeps the name.
        other: PathBuf,
    },
    /// The text model could not be loaded.
    #[error("cannot load the model {}: {reason}", if spec.is_empty() { "(the default model)".to_string() } else { format!("`{spec}`") })]
    ModelLoad {
        /// The spec string (`""` is the default model).
        spec: String,
        /// Why.
        reason: String,
    },
    /// The text model failed while enriching this file.
    #[error("cannot enrich `{path}`: the model failed: {reason}")]
    Model {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Writing the tree or graph failed.
    #[error(transparent)]
    Save(#[from] nanoindex_core::CoreError),
    /// A question could not be answered (empty question, model failure, PDF unreadable for
    /// quote verification).
    #[error(transparent)]
    Ask(#[from] crate::ask::AskError),
    /// The knowledge base store failed.
    #[error(transparent)]
    Kb(#[from] nanoindex_kb::KbError),
    /// A knowledge base document's PDF is not where it was added from, or changed since.
    #[error("cannot read the PDF of `{doc}` at `{path}`: {reason} (move it back, or add it again with `kb add`)")]
    KbSource {
        /// The document.
        doc: String,
        /// Its recorded source path.
        path: PathBuf,
        /// `it is missing` or `it changed since it was added`.
        reason: &'static str,
    },
    /// A folder given as input holds no file of the kinds it stands for.
    #[error("no {what} found in `{path}` (looked for {pattern})")]
    EmptyFolder {
        /// The folder.
        path: PathBuf,
        /// What was looked for, in words (`PDF`).
        what: &'static str,
        /// The file name patterns looked for (`*.pdf`).
        pattern: &'static str,
    },
}
