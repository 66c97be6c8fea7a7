//! The section tree: [`DocumentTree`], [`TreeNode`], [`BoundingBox`] and walking helpers.
//!
//! Field names and types follow NanoIndex 0.4.0's pydantic models (`nanoindex/models.py`) so
//! that NanoIndex's `load_tree` reads our files; every field we add is optional there.

use serde::{Deserialize, Serialize};

use crate::id::NodeId;

/// A region on a page, as fractions (0–1) of the displayed page, origin top-left.
///
/// `page` is 1-based. `region_type` is `heading`, `paragraph`, `table`, `line`, … as in
/// NanoIndex; `text` optionally carries the text inside the region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoundingBox {
    /// 1-based page number.
    pub page: u32,
    /// Left edge, fraction of page width.
    pub x: f32,
    /// Top edge, fraction of page height.
    pub y: f32,
    /// Width, fraction of page width.
    pub width: f32,
    /// Height, fraction of page height.
    pub height: f32,
    /// Detection confidence in 0–1 (1 for text read from the PDF itself).
    #[serde(default = "one")]
    pub confidence: f32,
    /// Kind of region (`heading`, `paragraph`, `table`, …).
    #[serde(default = "unknown")]
    pub region_type: String,
    /// Text inside the region, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

fn one() -> f32 {
    1.0
}

fn unknown() -> String {
    "unknown".to_string()
}

impl BoundingBox {
    /// Smallest box covering `self` and `other` (both must be on the same page; the page of
    /// `self` is kept).
    pub fn union(&self, other: &BoundingBox) -> BoundingBox {
        let x0 = self.x.min(other.x);
        let y0 = self.y.min(other.y);
        let x1 = (self.x + self.width).max(other.x + other.width);
        let y1 = (self.y + self.height).max(other.y + other.height);
        BoundingBox {
            page: self.page,
            x: x0,
            y: y0,
            width: x1 - x0,
            height: y1 - y0,
            confidence: self.confidence.min(other.confidence),
            region_type: self.region_type.clone(),
            text: None,
        }
    }
}

/// Size of one page as displayed (after rotation), in whole PDF points (1/72 inch).
///
/// Integers because NanoIndex declares them so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageDimensions {
    /// 1-based page number.
    pub page: u32,
    /// Width in PDF points, rounded.
    pub width: i64,
    /// Height in PDF points, rounded.
    pub height: i64,
}

/// A table attached to a node: NanoIndex's `HierarchyTable` shape (`id`, `title`,
/// `headers`, `rows`, `page`, `section_id`, `bounding_box`) plus ours (`header_rows`,
/// `cells` with boxes, `markdown`). Trees written by NanoIndex load and save without loss.
/// The node's `text` still holds the table's lines (one row per line), so retrieval reads
/// them as before; `rows[i]` and `cells[i]` are the same row.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Table {
    /// Table id.
    #[serde(default)]
    pub id: String,
    /// Caption or title.
    #[serde(default)]
    pub title: String,
    /// Column headers.
    #[serde(default)]
    pub headers: Vec<String>,
    /// Rows of cell text.
    #[serde(default)]
    pub rows: Vec<Vec<String>>,
    /// 1-based page (0 when unknown).
    #[serde(default)]
    pub page: u32,
    /// Id of the section holding the table.
    #[serde(default)]
    pub section_id: String,
    /// Free-form box as NanoIndex stores it; ours write a [`BoundingBox`] of the table's
    /// first page (headers and rows, page fractions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounding_box: Option<serde_json::Value>,
    /// Header rows above the body, top first, each with a label cell and one cell per figure
    /// column, as body rows have (ours).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub header_rows: Vec<Vec<TableCell>>,
    /// Body rows as cells with their boxes, label cell first (ours); `rows` holds their text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<Vec<TableCell>>,
    /// The table in GitHub-flavoured markdown: last header row, a rule, the rows (ours).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub markdown: String,
}

impl Table {
    /// The table in GitHub-flavoured markdown: its last header row (`headers`; blank when it
    /// has none), a rule, then its `rows`, as wide as its widest row; `|` in a cell is
    /// escaped. Empty for a table without rows or headers.
    ///
    /// ```
    /// let t = nanoindex_core::Table {
    ///     headers: vec!["".into(), "2018".into()],
    ///     rows: vec![vec!["Net sales".into(), "1,200".into()]],
    ///     ..Default::default()
    /// };
    /// assert_eq!(t.to_markdown(), "|  | 2018 |\n| --- | --- |\n| Net sales | 1,200 |\n");
    /// ```
    #[must_use]
    pub fn to_markdown(&self) -> String {
        let width = self
            .rows
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
            .max(self.headers.len());
        if width == 0 {
            return String::new();
        }
        let line = |cells: &[String]| {
            let mut out = String::from("|");
            for j in 0..width {
                let c = cells.get(j).map_or("", String::as_str).replace('|', "\\|");
                out.push(' ');
                out.push_str(&c);
                out.push_str(" |");
            }
            out.push('\n');
            out
        };
        let mut out = line(&self.headers);
        out.push('|');
        out.push_str(&" --- |".repeat(width));
        out.push('\n');
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

/// One cell of a [`Table`]: its text (empty for a blank cell) and, when it holds text, its box
/// (page fractions, `region_type` `table_cell`; a figure's box is estimated within its span).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TableCell {
    /// Text of the cell as printed (`$(1,577)`, `Net sales`).
    #[serde(default)]
    pub text: String,
    /// Box of the cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bbox: Option<BoundingBox>,
}

/// The tier of the split cascade (SPEC "Indexing pipeline", step 3) that split an oversized
/// leaf, as written in `split_method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SplitMethod {
    /// (a) Headings found inside its text (`headings`): an oversized leaf, or a leaf of the
    /// PDF's outline of any size whose headings were merged under it.
    Headings,
    /// (b) Subsection starts proposed by the model and found verbatim (`llm_boundaries`).
    LlmBoundaries,
    /// (c) One child per claim the model extracted, each holding the verbatim source text
    /// (`propositions`).
    Propositions,
    /// (d) Paragraph chunks, the last resort (`paragraphs`).
    Paragraphs,
}

impl SplitMethod {
    /// The name written in JSON (`llm_boundaries`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            SplitMethod::Headings => "headings",
            SplitMethod::LlmBoundaries => "llm_boundaries",
            SplitMethod::Propositions => "propositions",
            SplitMethod::Paragraphs => "paragraphs",
        }
    }
}

/// One node of the section tree: a heading and the text up to the next heading.
///
/// `start_index`/`end_index` are 1-based inclusive page numbers of where the node's own span
/// (heading and body) and its children's spans lie.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeNode {
    /// Section title (disambiguated when the same title occurs more than once).
    pub title: String,
    /// Dotted 4-digit depth-first id.
    #[serde(default)]
    pub node_id: NodeId,
    /// First page, 1-based.
    #[serde(default)]
    pub start_index: u32,
    /// Last page, 1-based, inclusive.
    #[serde(default)]
    pub end_index: u32,
    /// Depth in the tree, 1 for top-level nodes.
    #[serde(default = "level_one")]
    pub level: u32,
    /// Model-written summary, when enrichment ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The node's own text: from its heading to the next heading (children excluded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// How sure the builder is of this node (1 for outline entries that resolved, lower for
    /// headings guessed from typography or outline targets that did not resolve).
    #[serde(default = "one")]
    pub confidence: f32,
    /// Boxes of the heading and of the body regions.
    #[serde(default)]
    pub bounding_boxes: Vec<BoundingBox>,
    /// Tables attached to the node.
    #[serde(default)]
    pub tables: Vec<Table>,
    /// Child nodes.
    #[serde(default)]
    pub nodes: Vec<TreeNode>,
    /// Where each page's part of `text` starts (our addition): lets a quote found in the text
    /// be attributed to its exact page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub text_pages: Vec<TextPageSpan>,
    /// How an oversized leaf was split into the children it now has (our addition; see
    /// [`SplitMethod`]). `None` for nodes that were not split. An unknown method in a file is
    /// an error when the file is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split_method: Option<SplitMethod>,
    /// Where this node's text lies in the text of the leaf it was split from (our
    /// addition): UTF-8 byte offsets `[start, end)` into the parent's text as it was before
    /// the split. Set on children made by the split cascade, so a citation of the child
    /// quotes the document verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_span: Option<SourceSpan>,
    /// The self-contained claim a `propositions` child stands for, as the model phrased it
    /// (our addition). The node's `text` is the verbatim source; this paraphrase is only a
    /// retrieval aid and is never quoted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposition: Option<String>,
}

/// A byte range `[start, end)` of UTF-8 text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceSpan {
    /// First byte, inclusive.
    pub start: usize,
    /// Last byte, exclusive.
    pub end: usize,
}

/// Start of one page's text inside a node's `text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextPageSpan {
    /// 1-based page number.
    pub page: u32,
    /// Byte offset in the node's `text` where that page's text begins.
    pub offset: usize,
}

fn level_one() -> u32 {
    1
}

impl TreeNode {
    /// A node with a title and page range and nothing else.
    pub fn new(title: impl Into<String>, start_page_no: u32, end_page_no: u32) -> Self {
        TreeNode {
            title: title.into(),
            node_id: NodeId::default(),
            start_index: start_page_no,
            end_index: end_page_no,
            level: 1,
            summary: None,
            text: None,
            confidence: 1.0,
            bounding_boxes: Vec::new(),
            tables: Vec::new(),
            nodes: Vec::new(),
            text_pages: Vec::new(),
            split_method: None,
            source_span: None,
            proposition: None,
        }
    }

    /// 1-based page on which byte `offset` of the node's `text` lies (the start page when
    /// the node records no page spans).
    pub fn page_of_offset(&self, offset: usize) -> u32 {
        self.text_pages
            .iter()
            .take_while(|span| span.offset <= offset)
            .last()
            .map_or(self.start_index, |span| span.page)
    }

    /// True when the node has no children.
    pub fn is_leaf(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// A page that could not be read, recorded in [`ExtractionMetadata::page_errors`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageError {
    /// 1-based page number.
    pub page: u32,
    /// What went wrong, one line.
    pub message: String,
}

/// A page whose text was recognised by OCR, recorded in [`ExtractionMetadata::ocr_pages`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OcrPage {
    /// 1-based page number.
    pub page: u32,
    /// Share (0–1) of the recognised words that are clean words or figures
    /// ([`crate::extract::PageText::ocr_confidence`]).
    pub confidence: f32,
}

/// What the extractor and tree builder recorded about a document.
///
/// NanoIndex declares this field as a free dict; unknown keys from other writers are kept in
/// `extra` and written back.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ExtractionMetadata {
    /// [`crate::FORMAT_VERSION`] of the writer; 0 for files written by NanoIndex.
    #[serde(default)]
    pub format_version: u32,
    /// Path of the source PDF as given when indexing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_path: Option<String>,
    /// SHA-256 (hex) of the source PDF's bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_sha256: Option<String>,
    /// Number of pages in the document.
    #[serde(default)]
    pub page_count: u32,
    /// How the tree was built: `outline`, `sec_filing`, `typography` or `pages`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tree_method: String,
    /// Printed page label of each page (index 0 is page 1), when the PDF defines labels.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub page_labels: Vec<String>,
    /// 1-based pages with no usable text layer (OCR would be needed); pages that draw
    /// nothing at all are not listed (OCR could find nothing on them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages_without_text: Vec<u32>,
    /// Pages whose text was recognised by OCR, with the share of clean words of each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ocr_pages: Vec<OcrPage>,
    /// Tesseract languages OCR used (`eng`, `eng+deu`), when a page was recognised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ocr_languages: Option<String>,
    /// Pages that failed to load; the rest of the document was indexed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub page_errors: Vec<PageError>,
    /// Non-fatal notes (file repaired, copying forbidden by the file's permissions, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The file's permissions forbid copying text; it was extracted anyway for indexing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub copy_forbidden: bool,
    /// Keys written by other tools, kept as they were.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// A whole indexed document.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DocumentTree {
    /// Document name (file stem of the source).
    pub doc_name: String,
    /// One-paragraph description, when enrichment ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc_description: Option<String>,
    /// Detected domain: `sec_10k`, `sec_10q`, `earnings`, `legal_contract`, `generic`, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// Extraction facts: source, hash, page labels, page errors, warnings.
    #[serde(default)]
    pub extraction_metadata: ExtractionMetadata,
    /// Top-level nodes.
    #[serde(default)]
    pub structure: Vec<TreeNode>,
    /// Boxes of every text block in the document.
    #[serde(default)]
    pub all_bounding_boxes: Vec<BoundingBox>,
    /// Size of each page.
    #[serde(default)]
    pub page_dimensions: Vec<PageDimensions>,
}

/// A line's text without whitespace: the key by which a table's body row (its cells' texts
/// concatenated) is matched to the line of node text it was read from.
///
/// ```
/// assert_eq!(nanoindex_core::tree::row_key("Net sales  $ 1,200"), "Netsales$1,200");
/// ```
#[must_use]
pub fn row_key(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

impl Table {
    /// Keys ([`row_key`]) of the body rows that hold a figure (a digit in a cell after the
    /// label), in order; label lines ("Current assets:") are no rows.
    pub fn figure_row_keys(&self) -> impl Iterator<Item = String> + '_ {
        self.cells
            .iter()
            .filter(|r| {
                r.iter()
                    .skip(1)
                    .any(|c| c.text.chars().any(|ch| ch.is_ascii_digit()))
            })
            .map(|r| r.iter().map(|c| row_key(&c.text)).collect())
    }
}

impl DocumentTree {
    /// Keys ([`row_key`]) of the figure rows of every table of the tree
    /// ([`Table::figure_row_keys`]): the lines that the tree read as table rows, whichever
    /// node's text holds them.
    #[must_use]
    pub fn figure_row_keys(&self) -> std::collections::HashSet<String> {
        self.iter_nodes()
            .flat_map(|n| n.tables.iter())
            .flat_map(Table::figure_row_keys)
            .collect()
    }

    /// Every node, depth-first, parents before children.
    pub fn iter_nodes(&self) -> impl Iterator<Item = &TreeNode> {
        iter_nodes(&self.structure)
    }

    /// The node with this id, if any.
    pub fn find_node(&self, id: &str) -> Option<&TreeNode> {
        self.iter_nodes().find(|n| n.node_id.as_str() == id)
    }

    /// Printed label of a 1-based page, when the PDF defines one.
    pub fn page_label(&self, page_no: u32) -> Option<&str> {
        let idx = page_no.checked_sub(1)? as usize;
        self.extraction_metadata
            .page_labels
            .get(idx)
            .map(String::as_str)
    }
}

/// Depth-first pre-order walk over `nodes` and all their descendants.
///
/// ```
/// use nanoindex_core::{iter_nodes, TreeNode};
/// let mut root = TreeNode::new("Root", 1, 2);
/// root.nodes.push(TreeNode::new("Child", 2, 2));
/// let titles: Vec<&str> = iter_nodes(std::slice::from_ref(&root)).map(|n| n.title.as_str()).collect();
/// assert_eq!(titles, ["Root", "Child"]);
/// ```
pub fn iter_nodes(nodes: &[TreeNode]) -> impl Iterator<Item = &TreeNode> {
    let mut stack: Vec<&TreeNode> = nodes.iter().rev().collect();
    std::iter::from_fn(move || {
        let node = stack.pop()?;
        stack.extend(node.nodes.iter().rev());
        Some(node)
    })
}

/// Gives every node its dotted depth-first id and its `level` (1 for top-level nodes).
pub fn assign_node_ids(nodes: &mut [TreeNode]) {
    fn walk(nodes: &mut [TreeNode], path: &mut Vec<usize>) {
        for (i, node) in nodes.iter_mut().enumerate() {
            path.push(i);
            node.node_id = NodeId::from_path(path);
            node.level = path.len() as u32;
            walk(&mut node.nodes, path);
            path.pop();
        }
    }
    walk(nodes, &mut Vec::new());
}

/// Rough token count of `text` for sizing decisions (split limits, prompt budgets): one
/// token per four characters, the usual rule of thumb for English BPE vocabularies
/// (OpenAI's tokenizer guide). Exact counts need the model's own tokenizer.
///
/// ```
/// assert_eq!(nanoindex_core::estimate_tokens("abcdefgh"), 2);
/// ```
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}
