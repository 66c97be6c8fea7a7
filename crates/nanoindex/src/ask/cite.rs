//! Citations: each quote searched on its page with MuPDF (boxes as 0–1 fractions of the
//! displayed page; on pages read by OCR, in their recognised text); a quote not found is
//! dropped and listed in the trace. A figure read from a table cell adds the cell's box and
//! its column header's (from the tree's table) to its row's.

use nanoindex_core::{BoundingBox, Citation};
use nanoindex_pdf::locate::QuoteFinder;
use nanoindex_retrieve::Snippet;

use super::session::Session;
use super::AskError;

impl Session<'_> {
    /// Verified citations of `snippets`: each quote searched on its page; not found →
    /// dropped (and listed in the trace).
    pub(super) fn citations(&mut self, snippets: &[Snippet]) -> Result<Vec<Citation>, AskError> {
        let recognised = self
            .doc
            .tree
            .extraction_metadata
            .ocr_pages
            .iter()
            .map(|p| p.page);
        let finder = QuoteFinder::open(
            &self.doc.pdf,
            &self.doc.pdf_name,
            self.doc.password.as_deref(),
        )?
        .with_ocr(self.doc.ocr.clone(), recognised);
        let mut out: Vec<Citation> = Vec::new();
        for s in snippets {
            let quote = s.text.trim().to_string();
            let Some(boxes) = finder.locate(s.page_no, &quote) else {
                self.trace
                    .verification
                    .dropped_citations
                    .push(format!("p.{}: {}", s.page_no, quote));
                continue;
            };
            let title = self
                .doc
                .tree
                .find_node(s.node_id.as_str())
                .map_or_else(String::new, |n| n.title.clone());
            let label = self.doc.tree.page_label(s.page_no).map(str::to_string);
            let page_labels = label
                .filter(|lab| !lab.is_empty() && *lab != s.page_no.to_string())
                .map(|lab| vec![lab]);
            // The line's boxes, then those of the table cells read on it (the figure's cell and
            // its column's header): each found on the page at the place the tree put it, a
            // cell not found there is not cited.
            let mut boxes: Vec<BoundingBox> = boxes
                .into_iter()
                .map(|mut b| {
                    b.text = Some(quote.clone());
                    b
                })
                .collect();
            boxes.extend(s.cells.iter().filter_map(|c| finder.locate_near(c)));
            out.push(Citation {
                node_id: s.node_id.clone(),
                title,
                doc_name: Some(self.doc.tree.doc_name.clone()),
                pages: vec![s.page_no],
                bounding_boxes: boxes,
                quote: Some(quote),
                page_labels,
            });
        }
        Ok(out)
    }
}
