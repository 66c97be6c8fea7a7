//! Turns heading anchors (positions in the flat line sequence with a title and a level) into
//! nested [`TreeNode`]s whose text is exactly the span from their heading to the next one.

use std::collections::BTreeSet;

use nanoindex_core::extract::RectPt;
use nanoindex_core::{BoundingBox, Table, TextPageSpan, TreeNode};

use crate::flat::FlatLine;

/// Where a node starts and what it is called.
#[derive(Debug, Clone, PartialEq)]
pub struct Anchor {
    /// Title of the node.
    pub title: String,
    /// Depth, 1 for top-level.
    pub level: u32,
    /// Index in the flat line sequence where the node's span starts (`lines.len()` for a
    /// node with no text after it).
    pub pos: usize,
    /// 1-based page the node starts on (for anchors on pages without text).
    pub page_no: u32,
    /// Whether the line at `pos` is the heading itself.
    pub heading_line: bool,
    /// How sure the builder is (1 = from the file's outline or an exact heading).
    pub confidence: f32,
}

/// Converts a box in points to fractions of its page.
pub fn to_fraction(rect: RectPt, page_no: u32, size: (f32, f32), region_type: &str) -> BoundingBox {
    let (w, h) = (size.0.max(1e-3), size.1.max(1e-3));
    let clamp = |v: f32| v.clamp(0.0, 1.0);
    let x = clamp(rect.x0 / w);
    let y = clamp(rect.y0 / h);
    BoundingBox {
        page: page_no,
        x,
        y,
        width: clamp(rect.x1 / w) - x,
        height: clamp(rect.y1 / h) - y,
        confidence: 1.0,
        region_type: region_type.to_string(),
        text: None,
    }
}

/// Text of `lines[range]` without furniture: lines joined by newlines, a blank line between
/// blocks.
pub fn span_text(lines: &[FlatLine], range: std::ops::Range<usize>) -> (String, Vec<TextPageSpan>) {
    let mut out = String::new();
    let mut pages: Vec<TextPageSpan> = Vec::new();
    let mut prev: Option<(u32, usize)> = None;
    for l in &lines[range] {
        if l.furniture {
            continue;
        }
        let key = (l.page_no, l.block_idx);
        if let Some(p) = prev {
            out.push('\n');
            if p != key {
                out.push('\n');
            }
        }
        if pages.last().is_none_or(|p| p.page != l.page_no) {
            pages.push(TextPageSpan {
                page: l.page_no,
                offset: out.len(),
            });
        }
        out.push_str(&l.line.text);
        prev = Some(key);
    }
    (out, pages)
}

/// Boxes of the span: the heading line, then one box per block (per page) of body text.
fn span_boxes(
    lines: &[FlatLine],
    range: std::ops::Range<usize>,
    heading: bool,
) -> Vec<BoundingBox> {
    let mut boxes = Vec::new();
    let mut start = range.start;
    if heading && start < range.end {
        let l = &lines[start];
        boxes.push(to_fraction(l.bbox(), l.page_no, l.page_size, "heading"));
        start += 1;
    }
    let mut current: Option<(u32, usize, RectPt, (f32, f32))> = None;
    for l in &lines[start..range.end] {
        if l.furniture {
            continue;
        }
        match &mut current {
            Some((p, b, rect, _)) if *p == l.page_no && *b == l.block_idx => {
                *rect = rect.union(&l.bbox());
            }
            _ => {
                if let Some((p, _, rect, size)) = current.take() {
                    boxes.push(to_fraction(rect, p, size, "paragraph"));
                }
                current = Some((l.page_no, l.block_idx, l.bbox(), l.page_size));
            }
        }
    }
    if let Some((p, _, rect, size)) = current {
        boxes.push(to_fraction(rect, p, size, "paragraph"));
    }
    boxes
}

/// Builds the nested nodes. Nesting follows the order of `anchors` (a node is the child of
/// the nearest earlier anchor with a smaller level), so an outline keeps its own order; text
/// spans follow positions: each node's own text runs from its position to the next larger
/// position of any anchor (ties keep the given order). Each of `tables` (found over the
/// whole document, with the flat index of its first row) goes to the node whose own span
/// holds that row.
pub fn assemble(
    anchors: Vec<Anchor>,
    lines: &[FlatLine],
    tables: &[(usize, Table)],
) -> Vec<TreeNode> {
    let mut by_pos: Vec<usize> = (0..anchors.len()).collect();
    by_pos.sort_by_key(|&i| anchors[i].pos);
    let mut span_end = vec![lines.len(); anchors.len()];
    for (k, &i) in by_pos.iter().enumerate() {
        if let Some(&next) = by_pos.get(k + 1) {
            span_end[i] = anchors[next].pos.min(lines.len());
        }
    }
    let mut flat_nodes: Vec<(u32, TreeNode)> = Vec::with_capacity(anchors.len());
    for (i, anchor) in anchors.iter().enumerate() {
        let end = span_end[i];
        let start = anchor.pos.min(end);
        let pages: BTreeSet<u32> = lines[start..end]
            .iter()
            .filter(|l| !l.furniture)
            .map(|l| l.page_no)
            .collect();
        let start_page = if anchor.heading_line {
            lines.get(start).map_or(anchor.page_no, |l| l.page_no)
        } else {
            anchor.page_no
        };
        let end_page = pages.last().copied().unwrap_or(start_page).max(start_page);
        let mut node = TreeNode::new(anchor.title.clone(), start_page, end_page);
        let (text, text_pages) = span_text(lines, start..end);
        node.text = (!text.is_empty()).then_some(text);
        node.text_pages = text_pages;
        node.confidence = anchor.confidence;
        node.bounding_boxes = span_boxes(lines, start..end, anchor.heading_line);
        node.tables = tables
            .iter()
            .filter(|(pos, _)| (start..end).contains(pos))
            .map(|(_, t)| t.clone())
            .collect();
        flat_nodes.push((anchor.level.max(1), node));
    }
    nest(flat_nodes)
}

/// Nests `(level, node)` pairs given in document order.
fn nest(flat_nodes: Vec<(u32, TreeNode)>) -> Vec<TreeNode> {
    let mut roots: Vec<TreeNode> = Vec::new();
    let mut stack: Vec<(u32, TreeNode)> = Vec::new();
    fn pop_into(stack: &mut Vec<(u32, TreeNode)>, roots: &mut Vec<TreeNode>) {
        let (_, node) = stack.pop().expect("non-empty stack");
        match stack.last_mut() {
            Some((_, parent)) => parent.nodes.push(node),
            None => roots.push(node),
        }
    }
    for (level, node) in flat_nodes {
        while stack.last().is_some_and(|(l, _)| *l >= level) {
            pop_into(&mut stack, &mut roots);
        }
        stack.push((level, node));
    }
    while !stack.is_empty() {
        pop_into(&mut stack, &mut roots);
    }
    fix_ranges(&mut roots);
    roots
}

/// Widens each parent's page range to cover its children.
fn fix_ranges(nodes: &mut [TreeNode]) {
    for node in nodes {
        fix_ranges(&mut node.nodes);
        for child in &node.nodes {
            node.end_index = node.end_index.max(child.end_index);
        }
    }
}
