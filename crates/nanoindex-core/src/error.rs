//! Errors of the data-model crate: reading and writing tree and graph JSON.

use std::path::PathBuf;

/// Failure to read or write a tree or graph file.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// The file could not be read or written.
    #[error("cannot access `{path}`: {source}")]
    Io {
        /// File that failed.
        path: PathBuf,
        /// Underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid tree or graph JSON.
    #[error("`{path}` is not a valid {what} file: {source}")]
    Json {
        /// File that failed.
        path: PathBuf,
        /// `tree` or `graph`.
        what: &'static str,
        /// Underlying error, with line and column.
        #[source]
        source: serde_json::Error,
    },
}
