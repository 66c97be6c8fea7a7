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
    /// No page has a text layer and there is no outline to build a tree from.
    #[error("cannot index `{path}`: no text layer on any of its {pages} pages (OCR needed)")]
    NoTextLayer {
        /// The file.
        path: PathBuf,
        /// Its page count.
        pages: u32,
    },
    /// A bug met while indexing this file; the rest of the batch went on.
    #[error("cannot index `{path}`: internal error (please report it with the file)")]
    Internal {
        /// The file.
        path: PathBuf,
    },
    /// Writing the tree or graph failed.
    #[error(transparent)]
    Save(#[from] nanoindex_core::CoreError),
}
