//! Checks of a knowledge base: a source that is gone, a source whose content changed since
//! it was added (its SHA-256 differs from the stored one), and the wiki's broken links and
//! orphan pages ([`crate::wiki::check`]).

use std::path::PathBuf;

use sha2::{Digest, Sha256};

use crate::{KbError, Store};

/// One problem `lint` finds.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Problem {
    /// The document's PDF is no longer at its source path.
    MissingSource {
        /// The document.
        doc: String,
        /// Where it was.
        path: PathBuf,
    },
    /// The PDF at the source path is not the one added (the file changed on disk).
    StaleSource {
        /// The document.
        doc: String,
        /// Where it is.
        path: PathBuf,
        /// SHA-256 stored when it was added.
        stored: String,
        /// SHA-256 of the file now.
        found: String,
    },
    /// A problem of the rendered wiki.
    Wiki {
        /// What is wrong.
        problem: crate::wiki::WikiProblem,
    },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::MissingSource { doc, path } => {
                write!(f, "`{doc}`: source `{}` is missing", path.display())
            }
            Problem::StaleSource {
                doc,
                path,
                stored,
                found,
            } => write!(
                f,
                "`{doc}`: source `{}` changed since it was added (sha256 {} now, {} stored); add it again",
                path.display(),
                &found[..12.min(found.len())],
                &stored[..12.min(stored.len())]
            ),
            Problem::Wiki { problem } => write!(f, "{problem}"),
        }
    }
}

/// SHA-256 of `bytes`, lowercase hex.
#[must_use]
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The problems of `store`'s documents against their sources, by document name (documents
/// added without a PDF are not checked), then the wiki's, when it has been rendered.
///
/// # Errors
/// [`KbError::Sql`].
pub fn lint(store: &Store) -> Result<Vec<Problem>, KbError> {
    let mut out = Vec::new();
    for doc in store.documents()? {
        let Some(path) = doc.source_path else {
            continue;
        };
        match std::fs::read(&path) {
            Err(_) => out.push(Problem::MissingSource {
                doc: doc.name,
                path,
            }),
            Ok(bytes) => {
                let found = sha256_hex(&bytes);
                if found != doc.sha256 {
                    out.push(Problem::StaleSource {
                        doc: doc.name,
                        path,
                        stored: doc.sha256,
                        found,
                    });
                }
            }
        }
    }
    if store.root().join(crate::wiki::WIKI_DIR).is_dir() {
        out.extend(
            crate::wiki::check(store.root())?
                .into_iter()
                .map(|problem| Problem::Wiki { problem }),
        );
    }
    Ok(out)
}
