//! A document ready for questions: tree, graph, PDF bytes for quote search, retrieval index.

use nanoindex_core::{Answer, BoundingBox, DocumentGraph, DocumentTree};
use nanoindex_retrieve::RetrievalIndex;

use super::AskError;
use crate::vectors::PassageVectors;

/// A document ready for questions: its tree, graph, PDF bytes (for quote search) and
/// retrieval index.
pub struct AskDocument {
    /// The section tree.
    pub tree: DocumentTree,
    /// The graph.
    pub graph: DocumentGraph,
    pub(crate) pdf: Vec<u8>,
    pub(crate) pdf_name: String,
    pub(super) password: Option<String>,
    pub(super) ocr: nanoindex_pdf::OcrOptions,
    pub(super) index: RetrievalIndex,
    pub(crate) vectors: Option<PassageVectors>,
}

impl std::fmt::Debug for AskDocument {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AskDocument")
            .field("doc_name", &self.tree.doc_name)
            .field("index", &self.index)
            .field("vectors", &self.vectors)
            .finish()
    }
}

impl AskDocument {
    /// Prepares `tree` and `graph` for questions. `pdf` is the source PDF (`pdf_name` names
    /// it in errors); retrieval is lexical until [`AskDocument::with_vectors`] adds dense
    /// similarity.
    #[must_use]
    pub fn new(
        tree: DocumentTree,
        graph: DocumentGraph,
        pdf: Vec<u8>,
        pdf_name: String,
        password: Option<String>,
    ) -> Self {
        let index = RetrievalIndex::build(&tree, &graph);
        AskDocument {
            tree,
            graph,
            pdf,
            pdf_name,
            password,
            ocr: nanoindex_pdf::OcrOptions::default(),
            index,
            vectors: None,
        }
    }

    /// Quotes are searched on scanned pages with these OCR settings: the mode decides
    /// whether pages without text are recognised, and the languages are those the tree
    /// records (`extraction_metadata.ocr_languages`) when it has any.
    #[must_use]
    pub fn with_ocr(mut self, mut ocr: nanoindex_pdf::OcrOptions) -> Self {
        if let Some(languages) = &self.tree.extraction_metadata.ocr_languages {
            ocr.languages.clone_from(languages);
        }
        self.ocr = ocr;
        self
    }

    /// Adds dense retrieval with the embedding model `model`, whose passage vectors are
    /// computed as questions need them and cached in `dir` (`None`: in memory only).
    #[must_use]
    pub fn with_vectors(mut self, model: &str, dir: Option<&std::path::Path>) -> Self {
        self.vectors = Some(PassageVectors::open(&self.index, model, dir));
        self
    }

    /// The passage vectors, when dense retrieval was added.
    #[must_use]
    pub fn vectors(&self) -> Option<&PassageVectors> {
        self.vectors.as_ref()
    }

    /// The retrieval index.
    #[must_use]
    pub fn index(&self) -> &RetrievalIndex {
        &self.index
    }
}

/// A copy of the document's PDF with a highlight annotation on every box of `answer`'s
/// citations (each annotation's note is the citation's quote).
///
/// # Errors
/// [`AskError::Pdf`] when the PDF cannot be opened or written.
pub fn highlight_pdf(doc: &AskDocument, answer: &Answer) -> Result<Vec<u8>, AskError> {
    let boxes: Vec<(BoundingBox, String)> = answer
        .citations
        .iter()
        .flat_map(|c| {
            let note = c.quote.clone().unwrap_or_else(|| c.title.clone());
            c.bounding_boxes
                .iter()
                .map(move |b| (b.clone(), note.clone()))
        })
        .collect();
    Ok(nanoindex_pdf::locate::highlight(
        &doc.pdf,
        &doc.pdf_name,
        doc.password.as_deref(),
        &boxes,
    )?)
}
