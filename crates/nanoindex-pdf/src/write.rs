//! A small writer of text-only PDFs in the standard 14 fonts (Helvetica, Helvetica-Bold),
//! with an optional outline. Tests build their own documents with it, and the sample
//! documents in `scripts/` are generated with it, so nothing depends on outside files.
//!
//! Coordinates are PDF points with the origin at the top-left of the page (converted to PDF's
//! bottom-left origin when written). Text is encoded as WinAnsi; characters outside Latin-1
//! are written as `?`. The output follows ISO 32000-1 §7.5 (file structure: header, objects,
//! cross-reference table, trailer).

use std::fmt::Write as _;

use crate::PdfError;

/// One run of text on a page.
#[derive(Debug, Clone, PartialEq)]
pub struct TextRun {
    /// Left edge of the baseline, in points from the page's left edge.
    pub x_pt: f32,
    /// Baseline, in points from the page's top edge.
    pub y_pt: f32,
    /// Font size in points.
    pub size_pt: f32,
    /// Helvetica-Bold instead of Helvetica.
    pub bold: bool,
    /// The text.
    pub text: String,
    /// Position adjustments inside the run, as a `TJ` array writes them (ISO 32000-1
    /// §9.4.3): `(i, a)` moves the glyph of the `i`-th character (0-based, in characters)
    /// left by `a` thousandths of an em. Empty for plain `Tj` text.
    pub kerning: Vec<(usize, f32)>,
}

/// A page under construction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageSpec {
    /// Text runs in drawing order.
    pub runs: Vec<TextRun>,
}

impl PageSpec {
    /// Adds a run of text; `y_pt` is the baseline from the top of the page.
    pub fn text(
        &mut self,
        x_pt: f32,
        y_pt: f32,
        size_pt: f32,
        bold: bool,
        text: &str,
    ) -> &mut Self {
        self.runs.push(TextRun {
            x_pt,
            y_pt,
            size_pt,
            bold,
            text: text.to_string(),
            kerning: Vec::new(),
        });
        self
    }

    /// Adds a run of text set with `TJ` position adjustments (see [`TextRun::kerning`]),
    /// as typesetters kern pairs or pull a letter over the space before it.
    pub fn kerned_text(
        &mut self,
        x_pt: f32,
        y_pt: f32,
        size_pt: f32,
        text: &str,
        kerning: &[(usize, f32)],
    ) -> &mut Self {
        self.text(x_pt, y_pt, size_pt, false, text);
        if let Some(run) = self.runs.last_mut() {
            run.kerning = kerning.to_vec();
        }
        self
    }
}

/// The run's text as a `Tj` string, or as a `TJ` array when it has adjustments.
fn show_text(run: &TextRun) -> String {
    if run.kerning.is_empty() {
        return format!("({}) Tj", escape(&run.text));
    }
    let chars: Vec<char> = run.text.chars().collect();
    let mut array = String::from("[");
    let mut from = 0;
    for &(at, adjust) in &run.kerning {
        let at = at.min(chars.len());
        let piece: String = chars[from.min(at)..at].iter().collect();
        let _ = write!(array, "({}) {adjust} ", escape(&piece));
        from = at;
    }
    let rest: String = chars[from.min(chars.len())..].iter().collect();
    let _ = write!(array, "({})] TJ", escape(&rest));
    array
}

/// A whole document under construction: US Letter pages (612 × 792 pt) unless changed.
///
/// ```
/// use nanoindex_pdf::write::PdfBuilder;
/// let mut pdf = PdfBuilder::new();
/// pdf.page().text(72.0, 72.0, 18.0, true, "1. Introduction");
/// pdf.outline(1, "1. Introduction", 0);
/// let bytes = pdf.to_bytes();
/// assert!(bytes.starts_with(b"%PDF-1.7"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PdfBuilder {
    /// Page width in points.
    pub width_pt: f32,
    /// Page height in points.
    pub height_pt: f32,
    pages: Vec<PageSpec>,
    outline: Vec<(u32, String, usize)>,
}

impl Default for PdfBuilder {
    fn default() -> Self {
        Self::new()
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '(' | ')' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\u{20}'..='\u{7e}' => out.push(c),
            '\u{a0}'..='\u{ff}' => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            '\u{2014}' => out.push_str("\\227"),
            '\u{2013}' => out.push_str("\\226"),
            '\u{2019}' => out.push_str("\\222"),
            '\u{201c}' => out.push_str("\\223"),
            '\u{201d}' => out.push_str("\\224"),
            '\u{2022}' => out.push_str("\\225"),
            _ => out.push('?'),
        }
    }
    out
}

impl PdfBuilder {
    /// An empty document.
    pub fn new() -> Self {
        PdfBuilder {
            width_pt: 612.0,
            height_pt: 792.0,
            pages: Vec::new(),
            outline: Vec::new(),
        }
    }

    /// Starts a new page and returns it.
    pub fn page(&mut self) -> &mut PageSpec {
        self.pages.push(PageSpec::default());
        self.pages.last_mut().expect("just pushed")
    }

    /// The newest page (a new one when there is none yet).
    pub fn last_page(&mut self) -> &mut PageSpec {
        if self.pages.is_empty() {
            self.pages.push(PageSpec::default());
        }
        self.pages.last_mut().expect("non-empty")
    }

    /// Number of pages so far.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Adds an outline entry at `level` (1 = top) pointing at 0-based `page_idx`. Entries are
    /// nested by level in the order they are added.
    pub fn outline(&mut self, level: u32, title: &str, page_idx: usize) -> &mut Self {
        self.outline
            .push((level.max(1), title.to_string(), page_idx));
        self
    }

    /// Serialises the document.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Object numbers: 1 catalog, 2 page tree, 3 Helvetica, 4 Helvetica-Bold,
        // then (page, contents) pairs, then the outline root and its items.
        let n_pages = self.pages.len().max(1);
        let page_obj = |i: usize| 5 + 2 * i;
        let outline_root = 5 + 2 * n_pages;
        let item_obj = |i: usize| outline_root + 1 + i;
        let mut objects: Vec<String> = Vec::new();

        let outlines_ref = if self.outline.is_empty() {
            String::new()
        } else {
            format!(" /Outlines {outline_root} 0 R /PageMode /UseOutlines")
        };
        objects.push(format!("<< /Type /Catalog /Pages 2 0 R{outlines_ref} >>"));
        let kids: Vec<String> = (0..n_pages)
            .map(|i| format!("{} 0 R", page_obj(i)))
            .collect();
        objects.push(format!(
            "<< /Type /Pages /Kids [{}] /Count {n_pages} >>",
            kids.join(" ")
        ));
        for name in ["Helvetica", "Helvetica-Bold"] {
            objects.push(format!(
                "<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding >>"
            ));
        }
        let empty = PageSpec::default();
        for i in 0..n_pages {
            let page = self.pages.get(i).unwrap_or(&empty);
            objects.push(format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {} 0 R >>",
                self.width_pt,
                self.height_pt,
                page_obj(i) + 1
            ));
            let mut content = String::new();
            for run in &page.runs {
                let font = if run.bold { "F2" } else { "F1" };
                let _ = writeln!(
                    content,
                    "BT /{font} {} Tf 1 0 0 1 {:.2} {:.2} Tm {} ET",
                    run.size_pt,
                    run.x_pt,
                    self.height_pt - run.y_pt,
                    show_text(run)
                );
            }
            objects.push(format!(
                "<< /Length {} >>\nstream\n{content}endstream",
                content.len()
            ));
        }
        if !self.outline.is_empty() {
            objects.extend(self.outline_objects(outline_root, &item_obj, &page_obj));
        }

        let mut out: Vec<u8> = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
        let mut offsets = Vec::with_capacity(objects.len());
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
        }
        let xref_at = out.len();
        let mut xref = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
        for off in offsets {
            let _ = writeln!(xref, "{off:010} 00000 n ");
        }
        let _ = write!(
            xref,
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n",
            objects.len() + 1
        );
        out.extend_from_slice(xref.as_bytes());
        out
    }

    fn outline_objects(
        &self,
        root: usize,
        item_obj: &dyn Fn(usize) -> usize,
        page_obj: &dyn Fn(usize) -> usize,
    ) -> Vec<String> {
        let n = self.outline.len();
        let mut parent = vec![root; n];
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut top: Vec<usize> = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        for (i, (level, _, _)) in self.outline.iter().enumerate() {
            while stack.last().is_some_and(|&j| self.outline[j].0 >= *level) {
                stack.pop();
            }
            match stack.last() {
                Some(&p) => {
                    parent[i] = item_obj(p);
                    children[p].push(i);
                }
                None => top.push(i),
            }
            stack.push(i);
        }
        let siblings_of = |i: usize| -> &Vec<usize> {
            self.outline
                .iter()
                .enumerate()
                .find_map(|(p, _)| children[p].contains(&i).then_some(&children[p]))
                .unwrap_or(&top)
        };
        let mut objects = vec![format!(
            "<< /Type /Outlines /First {} 0 R /Last {} 0 R /Count {} >>",
            item_obj(top[0]),
            item_obj(*top.last().expect("non-empty")),
            top.len()
        )];
        for (i, (_, title, page_idx)) in self.outline.iter().enumerate() {
            let sibs = siblings_of(i);
            let at = sibs.iter().position(|&s| s == i).expect("listed");
            let mut dict = format!(
                "<< /Title ({}) /Parent {} 0 R /Dest [{} 0 R /Fit]",
                escape(title),
                parent[i],
                page_obj((*page_idx).min(self.pages.len().saturating_sub(1)))
            );
            if at > 0 {
                let _ = write!(dict, " /Prev {} 0 R", item_obj(sibs[at - 1]));
            }
            if let Some(&next) = sibs.get(at + 1) {
                let _ = write!(dict, " /Next {} 0 R", item_obj(next));
            }
            if let (Some(&first), Some(&last)) = (children[i].first(), children[i].last()) {
                let _ = write!(
                    dict,
                    " /First {} 0 R /Last {} 0 R /Count {}",
                    item_obj(first),
                    item_obj(last),
                    children[i].len()
                );
            }
            dict.push_str(" >>");
            objects.push(dict);
        }
        objects
    }
}

/// A scan of `bytes`: every page rendered in grey at `dpi` dots per inch and written into a
/// new PDF as that image alone, on a page of the same displayed size (PDF points), with no
/// text layer and no outline. Tests make scanned documents with it; `name` is used in errors.
///
/// # Errors
/// As [`crate::extract_bytes`] for a file that cannot be opened; [`PdfError::Damaged`] when a
/// page cannot be rendered; [`PdfError::Io`] when the temporary output cannot be written.
pub fn image_only_copy(bytes: &[u8], name: &str, dpi: f32) -> Result<Vec<u8>, PdfError> {
    image_only_copy_pages(bytes, name, dpi, None)
}

/// As [`image_only_copy`], of the pages `first..=last` (1-based) only when `pages` is given
/// (pages past the end are ignored).
///
/// # Errors
/// As [`image_only_copy`].
pub fn image_only_copy_pages(
    bytes: &[u8],
    name: &str,
    dpi: f32,
    pages: Option<(u32, u32)>,
) -> Result<Vec<u8>, PdfError> {
    let doc = crate::open(bytes, name, None)?;
    let damaged = |e: mupdf::Error| PdfError::Damaged {
        path: name.to_string(),
        reason: crate::mupdf_message(&e),
    };
    let io = |source: std::io::Error| PdfError::Io {
        path: name.to_string(),
        source,
    };
    let out = tempfile::Builder::new()
        .prefix("nanoindex-scan-")
        .suffix(".pdf")
        .tempfile()
        .map_err(io)?;
    {
        let mut writer =
            mupdf::DocumentWriter::new(out.path(), "pdf", "compress").map_err(damaged)?;
        let count = doc.page_count().map_err(damaged)?;
        let scale = dpi / 72.0;
        let (first, last) = pages.map_or((0, count), |(a, b)| {
            ((a as i32 - 1).min(count), (b as i32).min(count))
        });
        for i in first..last {
            let page = doc.load_page(i).map_err(damaged)?;
            let bounds = page.bounds().map_err(damaged)?;
            let pixmap = page
                .to_pixmap(
                    &mupdf::Matrix::new_scale(scale, scale),
                    &mupdf::Colorspace::device_gray(),
                    false,
                    false,
                )
                .map_err(damaged)?;
            let image = mupdf::Image::from_pixmap(&pixmap).map_err(damaged)?;
            let media = mupdf::Rect {
                x0: 0.0,
                y0: 0.0,
                x1: bounds.x1 - bounds.x0,
                y1: bounds.y1 - bounds.y0,
            };
            let device = writer.begin_page(media).map_err(damaged)?;
            // An image fills the unit square; the matrix stretches it over the page.
            let ctm = mupdf::Matrix::new(media.x1, 0.0, 0.0, media.y1, 0.0, 0.0);
            device
                .fill_image(&image, &ctm, 1.0, mupdf::ColorParams::default())
                .map_err(damaged)?;
            writer.end_page(device).map_err(damaged)?;
        }
    }
    std::fs::read(out.path()).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{extract_bytes, ExtractOptions};

    #[test]
    fn written_pdf_reads_back_with_outline_and_text() {
        let mut pdf = PdfBuilder::new();
        pdf.page()
            .text(72.0, 80.0, 20.0, true, "Chapter One (draft)");
        pdf.page()
            .text(72.0, 80.0, 11.0, false, "Caf\u{e9} and \u{2014} dash");
        pdf.outline(1, "Chapter One", 0).outline(2, "Section", 1);
        let doc = extract_bytes(&pdf.to_bytes(), "built.pdf", &ExtractOptions::default()).unwrap();
        assert_eq!(doc.page_count, 2);
        assert_eq!(doc.pages[0].plain_text().trim(), "Chapter One (draft)");
        assert_eq!(
            doc.pages[1].plain_text().trim(),
            "Caf\u{e9} and \u{2014} dash"
        );
        let line = doc.pages[0].lines().next().unwrap();
        assert!(line.is_bold());
        assert!((line.max_size_pt() - 20.0).abs() < 0.5);
        let outline: Vec<(u32, &str, Option<u32>)> = doc
            .outline
            .iter()
            .map(|e| (e.level, e.title.as_str(), e.page_no))
            .collect();
        assert_eq!(
            outline,
            [(1, "Chapter One", Some(1)), (2, "Section", Some(2))]
        );
    }
}
