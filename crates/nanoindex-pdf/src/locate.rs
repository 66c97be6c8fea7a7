//! Quote verification and highlighting: finds a quoted text on a given page with MuPDF's
//! text search and returns its boxes, and writes a copy of a PDF with highlight annotations.
//!
//! Boxes are [`BoundingBox`]es: 1-based page, fractions 0–1 of the page as displayed (after
//! rotation), origin top-left. A quote that MuPDF cannot find as one phrase (a table row
//! whose cells are separate text runs, a word hyphenated at a line end) is searched piece by
//! piece — runs of words, split further when not found, and each figure — and is found when
//! every figure, at least four fifths of the words' letters, and half of them in phrases of two
//! or more words are found on the page, each piece taken nearest to the previous one.

use mupdf::color::AnnotationColor;
use mupdf::pdf::{PdfAnnotationType, PdfDocument};
use mupdf::{Point, Quad, Rect};
use nanoindex_core::BoundingBox;

use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::ocr::{OcrMode, OcrOptions, ResolvedOcr};
use crate::{mupdf_message, open, PdfError};

/// A PDF opened for quote search. Not `Send` (MuPDF handles stay on their thread).
///
/// Pages without text, and the pages named by [`QuoteFinder::with_ocr`], are searched in
/// their OCR text ([`crate::ocr`]), recognised once per finder, so quotes from scanned pages
/// get boxes too.
pub struct QuoteFinder {
    doc: PdfDocument,
    page_count: u32,
    ocr: OcrOptions,
    ocr_pages: HashSet<u32>,
    ocr_engine: OnceCell<Option<ResolvedOcr>>,
    recognised: RefCell<HashMap<u32, Option<Rc<mupdf::TextPage>>>>,
}

impl std::fmt::Debug for QuoteFinder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QuoteFinder")
            .field("page_count", &self.page_count)
            .finish()
    }
}

/// One search hit: its quads in page coordinates.
type Hit = Vec<Quad>;

fn hit_rect(hit: &Hit) -> Rect {
    let mut r = Rect {
        x0: f32::MAX,
        y0: f32::MAX,
        x1: f32::MIN,
        y1: f32::MIN,
    };
    for q in hit {
        for p in [q.ul, q.ur, q.ll, q.lr] {
            r.x0 = r.x0.min(p.x);
            r.y0 = r.y0.min(p.y);
            r.x1 = r.x1.max(p.x);
            r.y1 = r.y1.max(p.y);
        }
    }
    r
}

/// Splits a quote into searchable pieces: runs of words, and each figure on its own.
fn pieces(quote: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    for word in quote.split_whitespace() {
        let is_figure = word.chars().any(|c| c.is_ascii_digit())
            && word
                .chars()
                .all(|c| c.is_ascii_digit() || ",.()$%-–—".contains(c));
        if is_figure {
            if !words.is_empty() {
                out.push(words.join(" "));
                words.clear();
            }
            let core = word.trim_matches(|c: char| !c.is_ascii_digit());
            out.push(core.to_string());
        } else if word.chars().any(char::is_alphanumeric) {
            words.push(word);
        } else if !words.is_empty() {
            out.push(words.join(" "));
            words.clear();
        }
    }
    if !words.is_empty() {
        out.push(words.join(" "));
    }
    out.retain(|p| p.chars().filter(|c| c.is_alphanumeric()).count() >= 1);
    out
}

impl QuoteFinder {
    /// Opens `bytes` (`name` is used in errors) with an optional password.
    ///
    /// # Errors
    /// As [`crate::extract_bytes`]: empty, not a PDF, password required or wrong, damaged.
    pub fn open(bytes: &[u8], name: &str, password: Option<&str>) -> Result<Self, PdfError> {
        let doc = open(bytes, name, password)?;
        let page_count = doc
            .page_count()
            .map_err(|e| PdfError::Damaged {
                path: name.to_string(),
                reason: mupdf_message(&e),
            })?
            .max(0) as u32;
        Ok(QuoteFinder {
            doc,
            page_count,
            ocr: OcrOptions::default(),
            ocr_pages: HashSet::new(),
            ocr_engine: OnceCell::new(),
            recognised: RefCell::new(HashMap::new()),
        })
    }

    /// Searches with the OCR settings the document was indexed with: `pages` (1-based) are
    /// the pages whose text came from OCR; pages without text are recognised too unless
    /// `options.mode` is [`OcrMode::Never`].
    #[must_use]
    pub fn with_ocr(mut self, options: OcrOptions, pages: impl IntoIterator<Item = u32>) -> Self {
        self.ocr = options;
        self.ocr_pages = pages.into_iter().collect();
        self
    }

    /// The text page to search on page `page_no` (1-based) and the rectangle its
    /// coordinates are relative to: the file's own text, or its OCR text when the page was
    /// recognised at indexing or has no text (see [`QuoteFinder::with_ocr`]).
    fn text_page(
        &self,
        page: &mupdf::Page,
        page_no: u32,
        bounds: Rect,
    ) -> Option<(Rc<mupdf::TextPage>, Rect)> {
        let own = page.to_text_page(crate::text_flags()).ok()?;
        let has_text = || {
            own.blocks().any(|b| {
                b.lines().any(|l| {
                    l.chars()
                        .any(|c| c.char().is_some_and(char::is_alphanumeric))
                })
            })
        };
        let wanted =
            self.ocr_pages.contains(&page_no) || (self.ocr.mode != OcrMode::Never && !has_text());
        if !wanted {
            return Some((Rc::new(own), bounds));
        }
        let engine = self
            .ocr_engine
            .get_or_init(|| ResolvedOcr::new(&self.ocr).ok())
            .as_ref();
        let recognised = self
            .recognised
            .borrow_mut()
            .entry(page_no)
            .or_insert_with(|| {
                engine.and_then(|e| crate::ocr::recognise(page, bounds, e).ok().map(Rc::new))
            })
            .clone();
        match recognised {
            // OCR text is in the displayed page's coordinates from its top-left corner.
            Some(text_page) => Some((
                text_page,
                Rect {
                    x0: 0.0,
                    y0: 0.0,
                    x1: bounds.x1 - bounds.x0,
                    y1: bounds.y1 - bounds.y0,
                },
            )),
            None => Some((Rc::new(own), bounds)),
        }
    }

    fn search(&self, text_page: &mupdf::TextPage, needle: &str) -> Vec<Hit> {
        let mut hits: Vec<Hit> = Vec::new();
        let _ = text_page.search_cb(needle, &mut hits, |hits, quads| {
            hits.push(quads.to_vec());
            if hits.len() >= 500 {
                mupdf::text_page::SearchHitResponse::AbortSearch
            } else {
                mupdf::text_page::SearchHitResponse::ContinueSearch
            }
        });
        hits
    }

    /// Boxes of `quote` on page `page_no` (1-based), one per line of text it covers; `None`
    /// when the page does not exist or the quote is not on it.
    #[must_use]
    pub fn locate(&self, page_no: u32, quote: &str) -> Option<Vec<BoundingBox>> {
        if page_no == 0 || page_no > self.page_count {
            return None;
        }
        let page = self.doc.load_page(page_no as i32 - 1).ok()?;
        let (text_page, bounds) = self.text_page(&page, page_no, page.bounds().ok()?)?;
        let needle = quote.split_whitespace().collect::<Vec<_>>().join(" ");
        if needle.is_empty() {
            return None;
        }
        let mut chosen: Vec<Hit> = Vec::new();
        if let Some(hit) = self.search(&text_page, &needle).into_iter().next() {
            chosen.push(hit);
        } else {
            let parts = pieces(&needle);
            if parts.is_empty() {
                return None;
            }
            // A run of words not found as one phrase (cells joined across columns, a word
            // hyphenated at a line end) is searched in halves, down to single words. A figure
            // must be found; of the words, at most a fifth of the letters may be missing.
            let mut candidates: Vec<Vec<Hit>> = Vec::new();
            let (mut missed, mut total, mut in_phrases) = (0usize, 0usize, 0usize);
            let mut stack: Vec<String> = parts.into_iter().rev().collect();
            while let Some(piece) = stack.pop() {
                let letters = piece.chars().filter(|c| c.is_alphanumeric()).count();
                let hits = self.search(&text_page, &piece);
                if !hits.is_empty() {
                    total += letters;
                    if piece.contains(' ') {
                        in_phrases += letters;
                    }
                    candidates.push(hits);
                    continue;
                }
                let words: Vec<&str> = piece.split(' ').collect();
                if words.len() > 1 {
                    let (a, b) = words.split_at(words.len() / 2);
                    stack.push(b.join(" "));
                    stack.push(a.join(" "));
                } else if piece
                    .chars()
                    .all(|c| c.is_ascii_digit() || ",.".contains(c))
                {
                    return None;
                } else {
                    total += letters;
                    missed += letters;
                }
            }
            // Most of the quote must be found as phrases, not as words scattered on the page.
            if candidates.is_empty() || missed * 5 > total || in_phrases * 2 < total {
                return None;
            }
            // Start from each hit of the first piece; take each next piece nearest to the
            // previous one (same line first); keep the start with the smallest total distance.
            let mut best: Option<(f32, Vec<Hit>)> = None;
            for start in candidates[0].iter().take(50) {
                let mut path = vec![start.clone()];
                let mut cost = 0.0;
                for next in &candidates[1..] {
                    let prev = hit_rect(path.last().expect("non-empty"));
                    let (d, hit) = next
                        .iter()
                        .map(|h| {
                            let r = hit_rect(h);
                            let dy = ((r.y0 + r.y1) - (prev.y0 + prev.y1)).abs() / 2.0;
                            let dx = if r.x0 + 0.5 >= prev.x1 {
                                r.x0 - prev.x1
                            } else {
                                (prev.x0 - r.x0).abs() + 200.0
                            };
                            (dy * 10.0 + dx, h)
                        })
                        .min_by(|a, b| a.0.total_cmp(&b.0))
                        .expect("non-empty candidates");
                    cost += d;
                    path.push(hit.clone());
                }
                if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                    best = Some((cost, path));
                }
            }
            chosen = best?.1;
        }
        let width = bounds.x1 - bounds.x0;
        let height = bounds.y1 - bounds.y0;
        if width <= 0.0 || height <= 0.0 {
            return None;
        }
        // One box per line: merge hits whose vertical extents overlap.
        let mut lines: Vec<Rect> = Vec::new();
        for r in chosen.iter().flatten().map(|q| hit_rect(&vec![q.clone()])) {
            match lines
                .iter_mut()
                .find(|l| r.y0 < l.y1 - 0.3 * (l.y1 - l.y0) && r.y1 > l.y0 + 0.3 * (l.y1 - l.y0))
            {
                Some(l) => {
                    l.x0 = l.x0.min(r.x0);
                    l.y0 = l.y0.min(r.y0);
                    l.x1 = l.x1.max(r.x1);
                    l.y1 = l.y1.max(r.y1);
                }
                None => lines.push(r),
            }
        }
        let frac = |v: f32, lo: f32, span: f32| ((v - lo) / span).clamp(0.0, 1.0);
        Some(
            lines
                .into_iter()
                .map(|r| BoundingBox {
                    page: page_no,
                    x: frac(r.x0, bounds.x0, width),
                    y: frac(r.y0, bounds.y0, height),
                    width: frac(r.x1, bounds.x0, width) - frac(r.x0, bounds.x0, width),
                    height: frac(r.y1, bounds.y0, height) - frac(r.y0, bounds.y0, height),
                    confidence: 1.0,
                    region_type: "quote".to_string(),
                    text: None,
                })
                .collect(),
        )
    }

    /// The exact box of a short text expected at `near` (a table cell whose box the tree
    /// estimated: page fractions, `near.page` 1-based): of the occurrences of `near.text` on
    /// its page, the one on the same line (its vertical centre within `near`'s height) whose
    /// centre is nearest `near`'s, as a box with `near`'s `region_type` and text. `None` when
    /// `near` has no text, or the text is not on that line of the page.
    #[must_use]
    pub fn locate_near(&self, near: &BoundingBox) -> Option<BoundingBox> {
        let page_no = near.page;
        if page_no == 0 || page_no > self.page_count {
            return None;
        }
        let text = near.text.as_deref()?;
        let needle = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if needle.is_empty() {
            return None;
        }
        let page = self.doc.load_page(page_no as i32 - 1).ok()?;
        let (text_page, bounds) = self.text_page(&page, page_no, page.bounds().ok()?)?;
        let width = bounds.x1 - bounds.x0;
        let height = bounds.y1 - bounds.y0;
        if width <= 0.0 || height <= 0.0 {
            return None;
        }
        let (cx, cy) = (near.x + near.width / 2.0, near.y + near.height / 2.0);
        let best = self
            .search(&text_page, &needle)
            .into_iter()
            .map(|hit| {
                let r = hit_rect(&hit);
                let x = ((r.x0 + r.x1) / 2.0 - bounds.x0) / width;
                let y = ((r.y0 + r.y1) / 2.0 - bounds.y0) / height;
                (r, (x - cx).abs(), (y - cy).abs())
            })
            .filter(|&(_, _, dy)| dy <= near.height.max(0.005))
            .min_by(|a, b| a.1.total_cmp(&b.1))?
            .0;
        let frac = |v: f32, lo: f32, span: f32| ((v - lo) / span).clamp(0.0, 1.0);
        Some(BoundingBox {
            page: page_no,
            x: frac(best.x0, bounds.x0, width),
            y: frac(best.y0, bounds.y0, height),
            width: frac(best.x1, bounds.x0, width) - frac(best.x0, bounds.x0, width),
            height: frac(best.y1, bounds.y0, height) - frac(best.y0, bounds.y0, height),
            confidence: 1.0,
            region_type: near.region_type.clone(),
            text: Some(text.to_string()),
        })
    }
}

/// Writes a copy of the PDF in `bytes` with one yellow highlight annotation per box (boxes
/// as returned by [`QuoteFinder::locate`]; `note` becomes each annotation's contents).
///
/// # Errors
/// As [`QuoteFinder::open`]; [`PdfError::Damaged`] when MuPDF cannot add an annotation or
/// write the file.
pub fn highlight(
    bytes: &[u8],
    name: &str,
    password: Option<&str>,
    boxes: &[(BoundingBox, String)],
) -> Result<Vec<u8>, PdfError> {
    let doc = open(bytes, name, password)?;
    let fail = |e: mupdf::Error| PdfError::Damaged {
        path: name.to_string(),
        reason: mupdf_message(&e),
    };
    let page_count = doc.page_count().map_err(fail)?.max(0) as u32;
    for (b, note) in boxes {
        if b.page == 0 || b.page > page_count {
            continue;
        }
        let mut page = doc.load_pdf_page(b.page as i32 - 1).map_err(fail)?;
        let bounds = page.bounds().map_err(fail)?;
        let (w, h) = (bounds.x1 - bounds.x0, bounds.y1 - bounds.y0);
        let x0 = bounds.x0 + b.x * w;
        let y0 = bounds.y0 + b.y * h;
        let x1 = x0 + b.width * w;
        let y1 = y0 + b.height * h;
        let quad = Quad {
            ul: Point { x: x0, y: y0 },
            ur: Point { x: x1, y: y0 },
            ll: Point { x: x0, y: y1 },
            lr: Point { x: x1, y: y1 },
        };
        let mut annot = page.add_highlight_annotation(quad).map_err(fail)?;
        annot
            .set_color(AnnotationColor::Rgb {
                red: 1.0,
                green: 0.9,
                blue: 0.0,
            })
            .map_err(fail)?;
        annot.set_contents(note).map_err(fail)?;
        page.update().map_err(fail)?;
    }
    let mut out = Vec::new();
    doc.write_to(&mut out).map_err(fail)?;
    Ok(out)
}

/// The highlight annotations of a PDF as boxes (1-based page, 0–1 fractions), in page order;
/// for checking [`highlight`]'s output.
///
/// # Errors
/// As [`QuoteFinder::open`].
pub fn highlight_boxes(bytes: &[u8], name: &str) -> Result<Vec<BoundingBox>, PdfError> {
    let doc = open(bytes, name, None)?;
    let fail = |e: mupdf::Error| PdfError::Damaged {
        path: name.to_string(),
        reason: mupdf_message(&e),
    };
    let page_count = doc.page_count().map_err(fail)?.max(0) as u32;
    let mut out = Vec::new();
    for idx in 0..page_count {
        let page = doc.load_pdf_page(idx as i32).map_err(fail)?;
        let bounds = page.bounds().map_err(fail)?;
        let (w, h) = (bounds.x1 - bounds.x0, bounds.y1 - bounds.y0);
        for annot in page.annotations() {
            if !matches!(annot.r#type(), Ok(PdfAnnotationType::Highlight)) {
                continue;
            }
            let r = annot.rect().map_err(fail)?;
            out.push(BoundingBox {
                page: idx + 1,
                x: (r.x0 - bounds.x0) / w,
                y: (r.y0 - bounds.y0) / h,
                width: (r.x1 - r.x0) / w,
                height: (r.y1 - r.y0) / h,
                confidence: 1.0,
                region_type: "highlight".to_string(),
                text: None,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::PdfBuilder;

    fn table_pdf() -> Vec<u8> {
        let mut pdf = PdfBuilder::new();
        pdf.page();
        let page = pdf.last_page();
        page.text(72.0, 100.0, 10.0, false, "Intro text that is not a table.");
        page.text(
            72.0,
            140.0,
            10.0,
            false,
            "Purchases of property, plant and equipment",
        );
        page.text(400.0, 140.0, 10.0, false, "(1,577)");
        page.text(470.0, 140.0, 10.0, false, "(1,373)");
        page.text(72.0, 160.0, 10.0, false, "Proceeds from sale of businesses");
        page.text(400.0, 160.0, 10.0, false, "1,373");
        pdf.to_bytes()
    }

    #[test]
    fn pieces_split_words_from_figures() {
        assert_eq!(
            pieces("Purchases of PP&E (1,577) $ (1,373) 22.4%"),
            ["Purchases of PP&E", "1,577", "1,373", "22.4"]
        );
    }

    #[test]
    fn a_table_row_is_found_cell_by_cell_on_one_line() {
        let bytes = table_pdf();
        let finder = QuoteFinder::open(&bytes, "t.pdf", None).unwrap();
        let boxes = finder
            .locate(
                1,
                "Purchases of property, plant and equipment (1,577) (1,373)",
            )
            .unwrap();
        assert_eq!(boxes.len(), 1, "{boxes:?}");
        let b = &boxes[0];
        // Row baseline at 140 pt of 792: the box sits there, not on the 160 pt line whose
        // `1,373` is a decoy.
        assert!(
            b.y < 140.0 / 792.0 && b.y + b.height > 132.0 / 792.0,
            "{b:?}"
        );
        // The row starts at 72 pt of 612 and its last cell ends near 500 pt.
        assert!(b.x < 0.13 && b.x + b.width > 0.65, "{b:?}");
        assert_eq!(finder.locate(1, "Purchases of equipment by aliens"), None);
        assert_eq!(finder.locate(2, "Intro text"), None);
    }

    #[test]
    fn a_word_hyphenated_at_a_line_end_does_not_hide_the_quote() {
        let mut pdf = PdfBuilder::new();
        pdf.page();
        let page = pdf.last_page();
        page.text(
            72.0,
            100.0,
            10.0,
            false,
            "Therefore, the FAA estimates the average",
        );
        page.text(
            72.0,
            112.0,
            10.0,
            false,
            "total cost per operator to be $7,650 (90",
        );
        page.text(72.0, 124.0, 10.0, false, "work-hours at $85 per work-");
        page.text(
            72.0,
            136.0,
            10.0,
            false,
            "hour). According to the manufacturer, some",
        );
        let bytes = pdf.to_bytes();
        let finder = QuoteFinder::open(&bytes, "h.pdf", None).unwrap();
        let quote = "Therefore, the FAA estimates the average total cost per operator to be \
                     $7,650 (90 work-hours at $85 per workhour).";
        let boxes = finder.locate(1, quote).expect("quote located");
        // The three lines that hold the found pieces (the joined "workhour" is the part not
        // found, and stays unboxed).
        assert_eq!(boxes.len(), 3, "{boxes:?}");
        assert!(
            boxes[0].y < 100.0 / 792.0 && boxes[2].y > 112.0 / 792.0,
            "{boxes:?}"
        );
        // A figure that is not on the page is never verified, whatever the words.
        let wrong = "Therefore, the FAA estimates the average total cost per operator to be \
                     $7,560 (90 work-hours at $85 per workhour).";
        assert_eq!(finder.locate(1, wrong), None);
        // Words scattered over the page are not a quote.
        assert_eq!(
            finder.locate(1, "the manufacturer estimates hours per cost"),
            None
        );
    }

    #[test]
    fn highlights_land_on_the_boxes() {
        let bytes = table_pdf();
        let finder = QuoteFinder::open(&bytes, "t.pdf", None).unwrap();
        let boxes = finder.locate(1, "Intro text that is not a table.").unwrap();
        let marked: Vec<(BoundingBox, String)> = boxes
            .iter()
            .map(|b| (b.clone(), "cited".to_string()))
            .collect();
        let out = highlight(&bytes, "t.pdf", None, &marked).unwrap();
        let found = highlight_boxes(&out, "out.pdf").unwrap();
        assert_eq!(found.len(), 1);
        let (a, b) = (&found[0], &boxes[0]);
        assert_eq!(a.page, 1);
        assert!(
            (a.x - b.x).abs() < 0.02 && (a.y - b.y).abs() < 0.02,
            "{a:?} vs {b:?}"
        );
    }
}
