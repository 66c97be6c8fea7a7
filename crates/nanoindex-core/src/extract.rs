//! What the PDF extractor hands to the tree builder: pages of blocks, lines and spans in
//! reading order, the outline, and facts about the file.
//!
//! Coordinates are PDF points (1/72 inch) in the page as displayed (after `/Rotate` and
//! `/UserUnit`), origin top-left, y growing downwards. Pages are 1-based (`page_no`).

use serde::{Deserialize, Serialize};

/// An axis-aligned rectangle in PDF points, origin top-left of the displayed page.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct RectPt {
    /// Left edge.
    pub x0: f32,
    /// Top edge.
    pub y0: f32,
    /// Right edge.
    pub x1: f32,
    /// Bottom edge.
    pub y1: f32,
}

impl RectPt {
    /// Width in points (never negative).
    pub fn width(&self) -> f32 {
        (self.x1 - self.x0).max(0.0)
    }

    /// Height in points (never negative).
    pub fn height(&self) -> f32 {
        (self.y1 - self.y0).max(0.0)
    }

    /// Vertical centre.
    pub fn center_y(&self) -> f32 {
        (self.y0 + self.y1) / 2.0
    }

    /// Smallest rectangle covering both.
    pub fn union(&self, other: &RectPt) -> RectPt {
        RectPt {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }
}

/// A run of characters on one line sharing font, size and style.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextSpan {
    /// Normalised text (ligatures expanded, soft hyphens removed).
    pub text: String,
    /// Font name as stored in the PDF, subset prefix removed (`Helvetica-Bold`).
    pub font: String,
    /// Font size in points.
    pub size_pt: f32,
    /// Bold, from the font or MuPDF's synthetic-bold detection.
    pub bold: bool,
    /// Italic, from the font.
    pub italic: bool,
    /// Box of the span.
    pub bbox: RectPt,
}

/// One visual line (or table row): spans left to right.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextLine {
    /// Text of all spans joined, in reading order.
    pub text: String,
    /// Spans of the line.
    pub spans: Vec<TextSpan>,
    /// Box of the line.
    pub bbox: RectPt,
}

impl TextLine {
    /// Largest font size on the line, in points.
    pub fn max_size_pt(&self) -> f32 {
        self.spans.iter().map(|s| s.size_pt).fold(0.0, f32::max)
    }

    /// True when every non-blank span is italic.
    pub fn is_italic(&self) -> bool {
        let mut spans = self
            .spans
            .iter()
            .filter(|s| !s.text.trim().is_empty())
            .peekable();
        spans.peek().is_some() && spans.all(|s| s.italic)
    }

    /// True when every non-blank span is bold.
    pub fn is_bold(&self) -> bool {
        let mut any = false;
        for span in &self.spans {
            if span.text.trim().is_empty() {
                continue;
            }
            if !span.bold {
                return false;
            }
            any = true;
        }
        any
    }
}

/// A paragraph-like group of lines, in reading order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextBlock {
    /// Lines of the block.
    pub lines: Vec<TextLine>,
    /// Box of the block.
    pub bbox: RectPt,
}

/// Everything read from one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageText {
    /// 1-based page number.
    pub page_no: u32,
    /// Displayed width in points.
    pub width_pt: f32,
    /// Displayed height in points.
    pub height_pt: f32,
    /// Effective `/Rotate` in degrees (0, 90, 180, 270), inherited values included.
    pub rotation: i32,
    /// Printed page label, when the PDF defines labels.
    pub label: Option<String>,
    /// Blocks in reading order (columns kept together).
    pub blocks: Vec<TextBlock>,
    /// No usable text layer (no text, or only control characters) and none recognised:
    /// OCR would be needed.
    pub needs_ocr: bool,
    /// The page's text was recognised by OCR; the value is the share (0–1) of its words
    /// that are clean (`nanoindex_pdf::ocr::text_quality`). `None` for a text layer read
    /// as the file has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ocr_confidence: Option<f32>,
}

impl PageText {
    /// Lines of the page in reading order.
    pub fn lines(&self) -> impl Iterator<Item = &TextLine> {
        self.blocks.iter().flat_map(|b| b.lines.iter())
    }

    /// Plain text of the page: lines joined by newlines, blocks by blank lines.
    pub fn plain_text(&self) -> String {
        let mut out = String::new();
        for (i, block) in self.blocks.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            for line in &block.lines {
                out.push_str(&line.text);
                out.push('\n');
            }
        }
        out
    }
}

/// One entry of the PDF outline (bookmarks), flattened in document order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutlineEntry {
    /// Title as stored.
    pub title: String,
    /// Depth, 1 for top-level entries.
    pub level: u32,
    /// Target page, 1-based; `None` when the destination did not resolve.
    pub page_no: Option<u32>,
}

/// A whole document as extracted, before any tree is built.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ExtractedDocument {
    /// Pages that loaded, in order (pages that failed are listed in `page_errors`).
    pub pages: Vec<PageText>,
    /// Total page count of the file.
    pub page_count: u32,
    /// Outline entries in document order (cycle-free).
    pub outline: Vec<OutlineEntry>,
    /// Pages that failed to load, with the reason.
    pub page_errors: Vec<crate::tree::PageError>,
    /// Non-fatal notes about the file (repaired, permissions, …).
    pub warnings: Vec<String>,
    /// The file's permissions forbid copying text.
    pub copy_forbidden: bool,
    /// Why pages without a usable text layer were not recognised by OCR (missing language
    /// data, naming the package to install); `None` when OCR ran or was not needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ocr_unavailable: Option<String>,
    /// Pages (1-based) without text that draw nothing visible: OCR was not run on them (it
    /// could find no text, and starting it for one blank page cost as much as reading a
    /// whole 116-page 10-K). They keep `needs_ocr`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blank_pages: Vec<u32>,
}
