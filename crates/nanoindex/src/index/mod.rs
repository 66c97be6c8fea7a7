//! The `index` verb, step by step: extraction (`nanoindex-pdf`) → the structure-only tree
//! with tier (a) of the split cascade (`nanoindex-tree`) — [`NanoIndex::structure`] — then
//! [`enrich`]: tiers (b)–(d) of the split cascade, the graph (cross-references and
//! rule-based entities, `nanoindex-graph`), and with a model the summaries, description and
//! model entities — [`NanoIndex::enrich`] — then writing (`batch`: `<doc>.tree.json`,
//! `<doc>.graph.json` and the manifest, for many documents at once).

pub(crate) mod batch;
pub mod enrich;

use std::path::Path;

use nanoindex_core::{DocumentGraph, DocumentTree, ExtractionMetadata, FORMAT_VERSION};
use nanoindex_pdf::ExtractOptions;

use crate::{doc_name, llm, sha256_hex, IndexError, NanoIndex};
use enrich::{EnrichReport, Progress};

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

impl NanoIndex {
    /// Indexes one PDF: structure, split cascade and graph, and — when the engine has a
    /// model — summaries, the description and model-found entities.
    ///
    /// # Errors
    /// [`IndexError::Io`] when the file cannot be read, [`IndexError::Pdf`] for encrypted,
    /// damaged, empty or page-less files, [`IndexError::NoTextLayer`] when no page has text
    /// (none read by OCR either) and the file has no outline, [`IndexError::Model`] when the
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
        self.enrich(tree, path, None, None)
    }

    /// Runs the model-dependent part of indexing on a structure-only `tree`
    /// ([`NanoIndex::structure`]); `progress` hears about every batch of model requests.
    /// With a `checkpoint`, the model's replies are saved as they come and replies an
    /// earlier, interrupted run saved are used instead of asking again
    /// ([`enrich::Checkpoint`]).
    ///
    /// # Errors
    /// [`IndexError::Model`] when the model cannot be loaded or fails.
    pub fn enrich<'p>(
        &self,
        mut tree: DocumentTree,
        path: &Path,
        progress: Option<&'p mut dyn FnMut(&Progress)>,
        checkpoint: Option<&'p mut enrich::Checkpoint>,
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
                    checkpoint,
                )
                .map_err(model_error)?
            }
            None => enrich::enrich(&mut tree, None, &self.config.enrich, progress, None)
                .map_err(model_error)?,
        };
        Ok(IndexedDocument {
            tree,
            graph,
            report,
        })
    }

    /// The enrichment that needs no model (paragraph splits of oversized leaves,
    /// cross-references, rule-based entities) on a structure-only `tree`: the index `ask`
    /// prepares, and the one a batch writes before the model's work.
    pub(crate) fn enrich_without_model(
        &self,
        tree: &mut DocumentTree,
        path: &Path,
    ) -> Result<DocumentGraph, IndexError> {
        enrich::enrich(tree, None, &self.config.enrich, None, None)
            .map(|(graph, _)| graph)
            .map_err(|e| IndexError::Model {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })
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
            ocr: self.config.ocr.clone(),
            ocr_progress: self.config.ocr_progress.clone(),
            ocr_workers: self.config.ocr_workers.clone(),
            ..ExtractOptions::default()
        };
        let extracted = nanoindex_pdf::extract_bytes(bytes, &display, &options)?;
        let has_text = extracted.pages.iter().any(|p| !p.needs_ocr);
        if !has_text && extracted.outline.is_empty() {
            // A file MuPDF had to repair that yields no text is damaged, not a scan: OCR would
            // not bring back what truncation or corruption lost.
            if !nanoindex_pdf::xref_looks_intact(bytes) {
                return Err(nanoindex_pdf::PdfError::Damaged {
                    path: display,
                    reason: format!(
                        "repaired, but none of its {} page(s) has readable text; the file \
                         is truncated or corrupted, not a scan",
                        extracted.page_count
                    ),
                }
                .into());
            }
            let all_blank = extracted.blank_pages.len() == extracted.pages.len();
            let ocr = match (self.config.ocr.mode, &extracted.ocr_unavailable) {
                _ if all_blank && !extracted.pages.is_empty() => {
                    "no page draws anything (blank, or its content could not be drawn)".to_string()
                }
                (nanoindex_pdf::OcrMode::Never, _) => {
                    "OCR needed: run without `--ocr never` to recognise the pages".to_string()
                }
                (_, Some(why)) => format!("OCR needed, but {why}"),
                _ => "OCR found no text either".to_string(),
            };
            return Err(IndexError::NoTextLayer {
                path: path.to_path_buf(),
                pages: extracted.page_count,
                ocr,
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
        let pages_list = |pages: &[u32]| {
            let list: Vec<String> = pages.iter().take(20).map(u32::to_string).collect();
            format!(
                "{}{}",
                list.join(", "),
                if pages.len() > 20 { ", …" } else { "" }
            )
        };
        if has_text && !extracted.blank_pages.is_empty() {
            warnings.push(format!(
                "{} of {} pages are blank (they draw nothing; OCR was not run on them): {}",
                extracted.blank_pages.len(),
                extracted.page_count,
                pages_list(&extracted.blank_pages)
            ));
        }
        let unread: Vec<u32> = extracted
            .pages
            .iter()
            .filter(|p| p.needs_ocr && !extracted.blank_pages.contains(&p.page_no))
            .map(|p| p.page_no)
            .collect();
        if has_text && !unread.is_empty() {
            let why = match (self.config.ocr.mode, &extracted.ocr_unavailable) {
                (nanoindex_pdf::OcrMode::Never, _) => "not read with `--ocr never`".to_string(),
                (_, Some(reason)) => format!("OCR could not run: {reason}"),
                _ => "OCR found no text on them either".to_string(),
            };
            warnings.push(format!(
                "{} of {} pages have no text layer ({why}): {}",
                unread.len(),
                extracted.page_count,
                pages_list(&unread)
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
            pages_without_text: unread,
            ocr_pages: extracted
                .pages
                .iter()
                .filter_map(|p| {
                    p.ocr_confidence.map(|confidence| nanoindex_core::OcrPage {
                        page: p.page_no,
                        confidence,
                    })
                })
                .collect(),
            ocr_languages: extracted
                .pages
                .iter()
                .any(|p| p.ocr_confidence.is_some())
                .then(|| self.config.ocr.languages.clone()),
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
