//! Checks of a knowledge base: a source that is gone, a source whose content changed since
//! it was added (its SHA-256 differs from the stored one), values that contradict each other
//! across documents ([`contradictions`]), and the wiki's broken links and orphan pages
//! ([`crate::wiki::check`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use nanoindex_core::figures::{numbers_in, NumberMention};
use nanoindex_core::EntityType;

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
    /// One issuer's concept (a metric such as revenue) for one period has values in two or
    /// more documents that state no common figure: a restatement, an error, or a misread
    /// sentence, to be checked on the pages given.
    Contradiction {
        /// The concept, as the first document names it.
        concept: String,
        /// The period (`2024`, `Q1 2024`, `six months 2024`).
        period: String,
        /// The issuer both documents are about, as the first names it.
        issuer: String,
        /// Each document's values, by document name.
        values: Vec<StatedValue>,
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
            Problem::Contradiction {
                concept,
                period,
                issuer,
                values,
            } => {
                let stated: Vec<String> = values
                    .iter()
                    .map(|v| {
                        let pages: Vec<String> = v.pages.iter().map(u32::to_string).collect();
                        format!("{} in `{}` (p. {})", v.value, v.doc, pages.join(", "))
                    })
                    .collect();
                write!(
                    f,
                    "{concept} of {issuer} for {period} differs between documents: {}",
                    stated.join(" against ")
                )
            }
            Problem::Wiki { problem } => write!(f, "{problem}"),
        }
    }
}

/// A value one document states for a concept and period.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StatedValue {
    /// The document.
    pub doc: String,
    /// The value as written (`$1,204 million`).
    pub value: String,
    /// 1-based pages of the nodes that state it.
    pub pages: Vec<u32>,
}

/// Values stated for one issuer's concept and period that differ between documents. Each
/// document's value is the one figure it states for the concept and period as a level (see
/// the wiki's facts: "revenue for 2024 was $1,250 million", not "revenue increased $83
/// million"); a document that states several (a total and a segment's) is not compared,
/// nor are figures of different kinds (money against a percentage). Figures are compared
/// as figures ([`NumberMention::states_same_figure`]: written scale and rounding), so
/// `$1.2 billion` and `$1,204 million` agree. Documents without a known issuer and values
/// without a period or a figure are never compared.
///
/// # Errors
/// [`KbError::Sql`].
pub fn contradictions(store: &Store) -> Result<Vec<Problem>, KbError> {
    // (issuer key, concept key, period, is a percentage) → document → (concept name,
    // issuer name, distinct figures with the value that first states each).
    type Stated = (String, String, Vec<(StatedValue, NumberMention)>);
    let mut groups: BTreeMap<(String, String, String, bool), BTreeMap<String, Stated>> =
        BTreeMap::new();
    for m in store.mentions()? {
        let (Some(issuer), Some(value), Some(period)) = (
            m.issuer.as_ref(),
            m.row.value.as_ref(),
            m.row.period.as_ref(),
        ) else {
            continue;
        };
        let Some(figure) = numbers_in(value).into_iter().next() else {
            continue;
        };
        let issuer_key = crate::wiki::concept_key(issuer, &EntityType::Organization);
        let entry = groups
            .entry((
                issuer_key,
                m.row.key.clone(),
                period.clone(),
                figure.percent,
            ))
            .or_default()
            .entry(m.doc.clone())
            .or_insert_with(|| (m.row.name.clone(), issuer.clone(), Vec::new()));
        match entry
            .2
            .iter_mut()
            .find(|(_, f)| f.states_same_figure(&figure))
        {
            Some((stated, _)) => {
                stated.pages.extend(m.row.pages);
                stated.pages.sort_unstable();
                stated.pages.dedup();
            }
            None => entry.2.push((
                StatedValue {
                    doc: m.doc,
                    value: value.clone(),
                    pages: m.row.pages,
                },
                figure,
            )),
        }
    }
    let mut out = Vec::new();
    for ((_, _, period, _), docs) in groups {
        let single: Vec<&Stated> = docs.values().filter(|d| d.2.len() == 1).collect();
        let differ = single.iter().enumerate().any(|(i, a)| {
            single[i + 1..]
                .iter()
                .any(|b| !a.2[0].1.states_same_figure(&b.2[0].1))
        });
        if !differ {
            continue;
        }
        out.push(Problem::Contradiction {
            concept: single[0].0.clone(),
            period,
            issuer: single[0].1.clone(),
            values: single.iter().map(|d| d.2[0].0.clone()).collect(),
        });
    }
    Ok(out)
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
/// added without a PDF are not checked), then the contradictions between documents
/// ([`contradictions`]), then the wiki's, when it has been rendered.
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
    out.extend(contradictions(store)?);
    if store.root().join(crate::wiki::WIKI_DIR).is_dir() {
        out.extend(
            crate::wiki::check(store.root())?
                .into_iter()
                .map(|problem| Problem::Wiki { problem }),
        );
    }
    Ok(out)
}
