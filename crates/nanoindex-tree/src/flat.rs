//! The document as one sequence of lines in reading order, with page furniture (running
//! headers, footers, page numbers) marked so it is neither a heading nor node text.

use std::collections::HashMap;

use nanoindex_core::extract::{ExtractedDocument, RectPt, TextLine};

/// One line of the document with where it sits.
#[derive(Debug, Clone)]
pub struct FlatLine<'a> {
    /// The line as extracted.
    pub line: &'a TextLine,
    /// 1-based page number.
    pub page_no: u32,
    /// Index of the block on its page (lines of a block are consecutive).
    pub block_idx: usize,
    /// True for the first line of its block.
    pub block_start: bool,
    /// Page size in points, for converting boxes to fractions.
    pub page_size: (f32, f32),
    /// Running header/footer or page number.
    pub furniture: bool,
}

impl FlatLine<'_> {
    /// Box of the line in points.
    pub fn bbox(&self) -> RectPt {
        self.line.bbox
    }
}

/// Replaces digits with `#` and folds case, so "Page 3 of 40" and "Page 4 of 40" match.
fn furniture_key(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_digit() {
                '#'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a (folded) line states the unit of a table's figures: "(In millions)", "($ in
/// thousands, except per share data)". Statements put it at the same place on every page,
/// so it repeats like a running header, yet it gives every figure below it its scale.
pub(crate) fn states_unit(key: &str) -> bool {
    key.len() <= 80
        && [
            "in millions",
            "in thousands",
            "in billions",
            "millions of",
            "thousands of",
        ]
        .iter()
        .any(|w| key.contains(w))
}

/// Lines from the top of a page that may be its running head even below the top margin (when
/// short and without figures).
const HEAD_LINES: usize = 3;

/// Flattens the pages and marks furniture: lines in the top 12 % or bottom 10 % of the page,
/// or among its first [`HEAD_LINES`] lines, whose digit-folded text recurs there on at least
/// 3 pages (and 4 % of pages) — below the margin, except on the first of those pages —
/// plus bare page numbers in the margins; a line that states a table's unit ("(In millions)") is
/// never furniture, and neither is any line of a page that would otherwise keep no text.
pub fn flatten(doc: &ExtractedDocument) -> Vec<FlatLine<'_>> {
    let mut out = Vec::new();
    for page in &doc.pages {
        for (bi, block) in page.blocks.iter().enumerate() {
            for (li, line) in block.lines.iter().enumerate() {
                out.push(FlatLine {
                    line,
                    page_no: page.page_no,
                    block_idx: bi,
                    block_start: li == 0,
                    page_size: (page.width_pt, page.height_pt),
                    furniture: false,
                });
            }
        }
    }
    let in_margin = |l: &FlatLine| {
        let h = l.page_size.1.max(1.0);
        l.line.bbox.y1 <= 0.12 * h || l.line.bbox.y0 >= 0.9 * h
    };
    // Running heads set lower than the margin ("Cite as: 569 U. S. (2013)" over "Opinion of
    // the Court" in a slip opinion) are still among the first lines of their page.
    let mut head = vec![false; out.len()];
    for (i, l) in out.iter().enumerate() {
        let rank = out[..i]
            .iter()
            .rev()
            .take_while(|p| p.page_no == l.page_no)
            .take(HEAD_LINES)
            .count();
        // Only short lines without figures: a table's first row may repeat from page to
        // page ("Revenue 1,000 900") and is never furniture.
        let text = l.line.text.trim();
        head[i] = rank < HEAD_LINES
            && text.chars().count() <= 60
            && !text.chars().any(|c| c.is_ascii_digit());
    }
    let in_head_or_margin = |i: usize, l: &FlatLine| head[i] || in_margin(l);
    let mut pages_with: HashMap<String, std::collections::HashSet<u32>> = HashMap::new();
    for (_, l) in out
        .iter()
        .enumerate()
        .filter(|&(i, l)| in_head_or_margin(i, l))
    {
        pages_with
            .entry(furniture_key(&l.line.text))
            .or_default()
            .insert(l.page_no);
    }
    let n_pages = doc.pages.len();
    let threshold = ((n_pages as f32) * 0.04).ceil().max(3.0) as usize;
    for (i, l) in out.iter_mut().enumerate() {
        let margin = in_margin(l);
        if !(margin || head[i]) {
            continue;
        }
        let key = furniture_key(&l.line.text);
        let bare_number = margin
            && (key.chars().all(|c| c == '#' || c == ' ' || c == '-')
                || key.starts_with("page #")
                || key.len() <= 6 && key.chars().any(|c| c == '#'));
        let pages = pages_with.get(&key);
        let repeats = pages.map_or(0, |p| p.len()) >= threshold;
        // Below the margin, the first page a line stands on is its own (a section's title
        // that then runs as the head of its pages, a table's first header).
        let first = !margin && pages.and_then(|p| p.iter().min()) == Some(&l.page_no);
        l.furniture = (repeats || bare_number) && !states_unit(&key) && !first;
    }
    // A page is never emptied: when every line of a page would be furniture (pages that hold
    // one repeated line at the top, such as "Chapter 3" on each page of an outline file),
    // those lines are its text.
    let mut text_pages = std::collections::HashSet::new();
    for l in out.iter().filter(|l| !l.furniture) {
        text_pages.insert(l.page_no);
    }
    for l in &mut out {
        if !text_pages.contains(&l.page_no) && !l.line.text.trim().is_empty() {
            l.furniture = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use nanoindex_core::extract::{PageText, TextBlock};

    fn line(text: &str, y: f32) -> TextLine {
        let bbox = RectPt {
            x0: 40.0,
            y0: y,
            x1: 300.0,
            y1: y + 8.0,
        };
        TextLine {
            text: text.to_string(),
            spans: Vec::new(),
            bbox,
        }
    }

    /// Statement pages under one running header, each with its unit line in the top margin.
    fn statements(pages: u32) -> ExtractedDocument {
        document(pages, |page_no| {
            vec![
                line("ACME CORP ANNUAL REPORT", 20.0),
                line("(In millions, except per share amounts)", 60.0),
                line(&format!("Revenue {page_no},000 900"), 300.0),
            ]
        })
    }

    fn document(pages: u32, lines: impl Fn(u32) -> Vec<TextLine>) -> ExtractedDocument {
        let pages: Vec<PageText> = (1..=pages)
            .map(|page_no| PageText {
                page_no,
                width_pt: 612.0,
                height_pt: 792.0,
                rotation: 0,
                label: None,
                blocks: vec![TextBlock {
                    lines: lines(page_no),
                    bbox: RectPt {
                        x0: 40.0,
                        y0: 20.0,
                        x1: 300.0,
                        y1: 308.0,
                    },
                }],
                needs_ocr: false,
                ocr_confidence: None,
            })
            .collect();
        ExtractedDocument {
            page_count: pages.len() as u32,
            pages,
            outline: Vec::new(),
            page_errors: Vec::new(),
            warnings: Vec::new(),
            copy_forbidden: false,
            ocr_unavailable: None,
            blank_pages: Vec::new(),
        }
    }

    #[test]
    fn running_headers_are_furniture_but_a_statements_unit_line_is_not() {
        let doc = statements(5);
        let flat = flatten(&doc);
        let furniture = |text: &str| -> Vec<bool> {
            flat.iter()
                .filter(|l| l.line.text.starts_with(text))
                .map(|l| l.furniture)
                .collect()
        };
        assert_eq!(furniture("ACME CORP"), vec![true; 5]);
        assert_eq!(furniture("(In millions"), vec![false; 5]);
        assert_eq!(furniture("Revenue"), vec![false; 5]);
    }

    #[test]
    fn a_running_head_below_the_margin_is_furniture() {
        // A slip opinion: "Cite as" in the top margin, "Opinion of the Court" under it at
        // 17 % of the page, the text below.
        let doc = document(5, |page_no| {
            vec![
                line(&format!("Cite as: 569 U. S. ____ (2013) {page_no}"), 80.0),
                line("Opinion of the Court", 137.0),
                line(
                    [
                        "The Compact",
                        "allocates water",
                        "among the States",
                        "of the",
                        "Red River",
                    ][page_no as usize - 1],
                    160.0,
                ),
            ]
        });
        let flat = flatten(&doc);
        let furniture: Vec<bool> = flat.iter().map(|l| l.furniture).collect();
        // On its first page the line is the text's own (a title that then runs as a head).
        let mut expected = [true, true, false].repeat(5);
        expected[1] = false;
        assert_eq!(furniture, expected);
    }

    #[test]
    fn a_page_is_never_emptied_by_furniture_removal() {
        // One line per page, at the top, the same but for its number: a chapter title, not
        // a running header, for there is nothing else on the page.
        let doc = document(30, |page_no| {
            vec![line(&format!("Chapter {page_no}"), 30.0)]
        });
        assert!(flatten(&doc).iter().all(|l| !l.furniture));
    }
}
