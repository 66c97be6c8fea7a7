//! Builds the section tree of a document from its extracted pages — pure, no I/O, no model.
//!
//! Order of preference ([`TreeMethod`]):
//! 1. the PDF outline, when it has at least two entries (titles, levels and pages from
//!    the bookmarks);
//! 2. SEC filings (10-K, 10-Q) recognised from their content, normalised to
//!    PART → Item → sub-sections with canonical item titles;
//! 3. headings from typography and numbering;
//! 4. one node per page.
//!
//! Every node's `text` is the text from its heading to the next heading (children hold
//! their own text), its pages are where that span lies, and its `bounding_boxes` cover the
//! heading and body blocks as 0–1 fractions of the page. Repeated titles are disambiguated.

mod assemble;
mod flat;
mod headings;
mod outline;
mod sec;
mod tables;

use std::collections::HashMap;

use nanoindex_core::extract::ExtractedDocument;
use nanoindex_core::numbering::parse_heading_numbering;
use nanoindex_core::{
    assign_node_ids, BoundingBox, DomainName, PageDimensions, SplitMethod, TreeNode,
};

pub use assemble::Anchor;
pub use sec::Form;

/// How a tree was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeMethod {
    /// From the PDF outline.
    Outline,
    /// From SEC Form 10-K / 10-Q item structure.
    SecFiling,
    /// From font sizes, weights and numbering.
    Typography,
    /// One node per page.
    Pages,
}

impl TreeMethod {
    /// Name stored in `extraction_metadata.tree_method`.
    pub fn as_str(self) -> &'static str {
        match self {
            TreeMethod::Outline => "outline",
            TreeMethod::SecFiling => "sec_filing",
            TreeMethod::Typography => "typography",
            TreeMethod::Pages => "pages",
        }
    }
}

/// The structure of a document, ready to be put into a [`nanoindex_core::DocumentTree`].
#[derive(Debug, Clone)]
pub struct BuiltTree {
    /// Top-level nodes with ids assigned.
    pub structure: Vec<TreeNode>,
    /// How the tree was built.
    pub method: TreeMethod,
    /// Domain detected from content (`sec_10k`, `sec_10q`, `earnings`, `legal_contract`,
    /// `insurance`, `medical`, `legal`, `financial`, `generic`; see [`domain_of_text`]).
    pub domain: String,
    /// Box of every text block, as page fractions.
    pub all_bounding_boxes: Vec<BoundingBox>,
    /// Size of every page that loaded, in whole points.
    pub page_dimensions: Vec<PageDimensions>,
}

/// Options of [`build_tree_with`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeOptions {
    /// A leaf whose text is estimated ([`nanoindex_core::estimate_tokens`]) above this many
    /// tokens is searched for headings inside its text (tier (a) of the split cascade:
    /// typographic and markdown-style headings, zero model calls); the headings found
    /// become its children and it records `split_method = "headings"`. A leaf of the PDF's
    /// outline whose heading line was found is searched whatever its size: the outline's
    /// titles are kept verbatim and the headings set under them are merged in, unless they
    /// are more than half its lines. `None` keeps leaves as the structure gives them.
    pub split_tokens: Option<usize>,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            split_tokens: Some(DEFAULT_SPLIT_TOKENS),
        }
    }
}

/// Default leaf size limit of the split cascade, in estimated tokens (about three pages of
/// dense prose): small enough that a node is one topic, large enough that statements and
/// notes stay whole.
pub const DEFAULT_SPLIT_TOKENS: usize = 2000;

/// Builds the tree of `doc` with zero model calls and the default [`TreeOptions`].
///
/// ```
/// use nanoindex_core::extract::ExtractedDocument;
/// let built = nanoindex_tree::build_tree(&ExtractedDocument::default());
/// assert!(built.structure.is_empty());
/// ```
pub fn build_tree(doc: &ExtractedDocument) -> BuiltTree {
    build_tree_with(doc, &TreeOptions::default())
}

/// Builds the tree of `doc` with zero model calls.
pub fn build_tree_with(doc: &ExtractedDocument, options: &TreeOptions) -> BuiltTree {
    let lines = flat::flatten(doc);
    let body = headings::body_size_key(&lines);
    let form = sec::detect_form(&lines);
    let toc = headings::toc_pages(&lines);

    let (method, anchors) = if doc.outline.len() >= 2 {
        (TreeMethod::Outline, outline::anchors(&doc.outline, &lines))
    } else if let Some(anchors) = form.and_then(|f| sec::anchors(f, &lines, body)) {
        (TreeMethod::SecFiling, anchors)
    } else {
        let candidates = headings::detect(&lines, 0..lines.len(), body, &toc);
        if candidates.len() >= 2 {
            (
                TreeMethod::Typography,
                headings::to_anchors(candidates, &lines, 1),
            )
        } else if doc.outline.len() == 1 {
            (TreeMethod::Outline, outline::anchors(&doc.outline, &lines))
        } else {
            (TreeMethod::Pages, page_anchors(doc, &lines))
        }
    };
    let mut anchors = with_front_matter(anchors, &lines);
    if method != TreeMethod::Outline {
        anchors.sort_by_key(|a| a.pos);
    }
    let split_parents = match options.split_tokens {
        // The outline's own titles stay as they are; the headings set in the text under an
        // outline leaf become its children, whatever the leaf's size.
        Some(limit) => split_on_inner_headings(
            &mut anchors,
            &lines,
            body,
            limit,
            method == TreeMethod::Outline,
            &toc,
        ),
        None => Vec::new(),
    };
    let tables = tables::find(&lines, 0..lines.len(), &toc);
    let mut structure = assemble::assemble(anchors, &lines, &tables);
    mark_split(&mut structure, &split_parents);
    disambiguate_titles(&mut structure);
    assign_node_ids(&mut structure);
    name_tables(&mut structure);

    let all_bounding_boxes = doc
        .pages
        .iter()
        .flat_map(|p| {
            p.blocks.iter().map(move |b| {
                assemble::to_fraction(b.bbox, p.page_no, (p.width_pt, p.height_pt), "paragraph")
            })
        })
        .collect();
    let page_dimensions = doc
        .pages
        .iter()
        .map(|p| PageDimensions {
            page: p.page_no,
            width: p.width_pt.round() as i64,
            height: p.height_pt.round() as i64,
        })
        .collect();
    let domain = match form {
        Some(f) => f.domain().as_str().to_string(),
        _ => detect_domain(&lines).as_str().to_string(),
    };
    BuiltTree {
        structure,
        method,
        domain,
        all_bounding_boxes,
        page_dimensions,
    }
}

/// Tier (a) of the split cascade. For every leaf anchor whose own span is estimated above
/// `limit` tokens, finds typographic headings ([`headings::detect`]) and markdown-style
/// `#` headings inside the span and inserts them as child anchors right after it. Returns
/// the positions, in the final anchor order, of the leaves that were split. With
/// `merge_small` (leaves of the PDF's outline) a smaller leaf whose heading line was found
/// is searched too, and keeps the
/// headings found when they are at most half of its lines: a leaf whose lines are mostly
/// "headings" holds a contents list or a paragraph set in a heading's style. `toc` holds the
/// contents pages (1-based), which give no headings.
fn split_on_inner_headings(
    anchors: &mut Vec<Anchor>,
    lines: &[flat::FlatLine],
    body: i32,
    limit: usize,
    merge_small: bool,
    toc: &std::collections::BTreeSet<u32>,
) -> Vec<usize> {
    let mut span_end = vec![lines.len(); anchors.len()];
    let mut by_pos: Vec<usize> = (0..anchors.len()).collect();
    by_pos.sort_by_key(|&i| anchors[i].pos);
    for (k, &i) in by_pos.iter().enumerate() {
        if let Some(&next) = by_pos.get(k + 1) {
            span_end[i] = anchors[next].pos.min(lines.len());
        }
    }
    let mut out: Vec<Anchor> = Vec::with_capacity(anchors.len());
    let mut split = Vec::new();
    for (i, anchor) in anchors.iter().enumerate() {
        let is_leaf = anchors
            .get(i + 1)
            .is_none_or(|next| next.level <= anchor.level);
        let start = if anchor.heading_line {
            anchor.pos + 1
        } else {
            anchor.pos
        };
        let end = span_end[i];
        out.push(anchor.clone());
        if !is_leaf || start >= end {
            continue;
        }
        let (text, _) = assemble::span_text(lines, start..end);
        let oversized = nanoindex_core::estimate_tokens(&text) > limit;
        // A leaf whose heading line was not found starts at the top of its page, above
        // headings that may belong to the section before it: only size splits it.
        if !(oversized || merge_small && anchor.heading_line) {
            continue;
        }
        let mut candidates = headings::detect(lines, start..end, body, toc);
        candidates.extend(headings::markdown(lines, start..end));
        candidates.sort_by_key(|c| c.pos);
        candidates.dedup_by_key(|c| c.pos);
        // The leaf's own heading ("1 First section" under the outline's "First section"),
        // when the outline's title did not find its line, is no child.
        candidates.retain(|c| {
            let unnumbered = match parse_heading_numbering(&c.title) {
                Some((_, r)) => &c.title[r..],
                // "3 Third section": a bare number before the title.
                None => c
                    .title
                    .trim_start_matches(|ch: char| ch.is_ascii_digit() || ch == ' '),
            };
            !outline::matches_title(&c.title, &anchor.title)
                && !outline::matches_title(unnumbered, &anchor.title)
        });
        let text_lines = lines[start..end].iter().filter(|l| !l.furniture).count();
        if candidates.is_empty() || (!oversized && candidates.len() * 2 > text_lines) {
            continue;
        }
        split.push(out.len() - 1);
        out.extend(headings::to_anchors(candidates, lines, anchor.level + 1));
    }
    *anchors = out;
    split
}

/// Gives each node's tables their ids (`<node id>-t<k>`, k from 1) and section id.
fn name_tables(nodes: &mut [TreeNode]) {
    for node in nodes {
        let id = node.node_id.to_string();
        for (k, table) in node.tables.iter_mut().enumerate() {
            table.id = format!("{id}-t{}", k + 1);
            table.section_id.clone_from(&id);
        }
        name_tables(&mut node.nodes);
    }
}

/// Sets `split_method = "headings"` on the nodes at the given depth-first positions.
fn mark_split(structure: &mut [TreeNode], positions: &[usize]) {
    fn walk(nodes: &mut [TreeNode], counter: &mut usize, positions: &[usize]) {
        for node in nodes {
            if positions.binary_search(counter).is_ok() {
                node.split_method = Some(SplitMethod::Headings);
            }
            *counter += 1;
            walk(&mut node.nodes, counter, positions);
        }
    }
    walk(structure, &mut 0, positions);
}

fn page_anchors(doc: &ExtractedDocument, lines: &[flat::FlatLine]) -> Vec<Anchor> {
    doc.pages
        .iter()
        .map(|p| Anchor {
            title: match &p.label {
                Some(label) if *label != p.page_no.to_string() && !label.is_empty() => {
                    format!("Page {} ({label})", p.page_no)
                }
                _ => format!("Page {}", p.page_no),
            },
            level: 1,
            pos: lines.partition_point(|l| l.page_no < p.page_no),
            page_no: p.page_no,
            heading_line: false,
            confidence: 1.0,
        })
        .collect()
}

/// Adds a node for text before the first heading (a title page, a preamble), titled by its
/// first line.
fn with_front_matter(mut anchors: Vec<Anchor>, lines: &[flat::FlatLine]) -> Vec<Anchor> {
    let first = anchors.iter().map(|a| a.pos).min().unwrap_or(lines.len());
    let has_text = lines[..first.min(lines.len())].iter().any(|l| !l.furniture);
    if first > 0 && has_text {
        let title_line = lines
            .iter()
            .find(|l| !l.furniture)
            .map(|l| l.line.text.clone());
        let mut title: String = title_line.unwrap_or_default().chars().take(80).collect();
        if title.is_empty() {
            title = "Front matter".to_string();
        }
        anchors.insert(
            0,
            Anchor {
                title,
                level: 1,
                pos: 0,
                page_no: lines[0].page_no,
                heading_line: false,
                confidence: 0.5,
            },
        );
    }
    anchors
}

fn detect_domain(lines: &[flat::FlatLine]) -> DomainName {
    let head: String = lines
        .iter()
        .take_while(|l| l.page_no <= 3)
        .map(|l| l.line.text.to_lowercase())
        .collect::<Vec<_>>()
        .join(" ");
    domain_of_text(&head)
}

/// The extraction domain of a document from the lowercase text of its first pages:
/// `legal_contract`, `earnings`, `insurance`, `medical`, `legal`, `financial` or `generic`
/// (SEC filings are recognised before this, from their cover page).
pub fn domain_of_text(head: &str) -> DomainName {
    let any = |words: &[&str]| words.iter().any(|w| head.contains(w));
    if head.contains("whereas")
        || (head.contains("agreement") && head.contains("hereby"))
        || head.contains("this agreement")
    {
        DomainName::LegalContract
    } else if head.contains("results for the")
        && (head.contains("quarter") || head.contains("fiscal"))
        || head.contains("earnings release")
        || head.contains("reports fourth quarter")
        || head.contains("financial results")
    {
        DomainName::Earnings
    } else if head.contains("policy")
        && any(&[
            "insured",
            "policyholder",
            "premium",
            "deductible",
            "coverage",
        ])
    {
        DomainName::Insurance
    } else if any(&[
        "clinical",
        "patients",
        "investigator",
        "adverse event",
        "trial",
    ]) && any(&["protocol", "study", "trial"])
    {
        DomainName::Medical
    } else if any(&[
        "district court",
        "court of appeals",
        "plaintiff",
        "defendant",
        "petitioner",
        "regulation (eu)",
        "official journal",
        "hereinafter",
    ]) {
        DomainName::Legal
    } else if any(&[
        "balance sheet",
        "statement of cash flows",
        "statements of operations",
        "consolidated statements",
    ]) {
        DomainName::Financial
    } else {
        DomainName::Generic
    }
}

/// Appends context to titles that occur more than once: the parent's title when that tells
/// them apart, else the first line of the node's text, else the page.
fn disambiguate_titles(structure: &mut [TreeNode]) {
    fn collect(nodes: &[TreeNode], parent: &str, counts: &mut HashMap<String, Vec<String>>) {
        for n in nodes {
            counts
                .entry(n.title.to_lowercase())
                .or_default()
                .push(parent.to_string());
            collect(&n.nodes, &n.title, counts);
        }
    }
    let mut parents_of: HashMap<String, Vec<String>> = HashMap::new();
    collect(structure, "", &mut parents_of);
    fn first_body_line(node: &TreeNode) -> Option<String> {
        let text = node.text.as_deref()?;
        let line = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .filter(|l| !l.eq_ignore_ascii_case(node.title.trim()))
            .find(|l| {
                let letters = l.chars().filter(|c| c.is_alphabetic()).count();
                letters * 10 >= l.chars().count() * 6
            })?;
        Some(line.chars().take(50).collect())
    }
    fn apply(nodes: &mut [TreeNode], parent: &str, parents_of: &HashMap<String, Vec<String>>) {
        for n in nodes.iter_mut() {
            let parent_title_for_children = n.title.clone();
            if let Some(parents) = parents_of
                .get(&n.title.to_lowercase())
                .filter(|p| p.len() > 1)
            {
                let distinct_parents = parents
                    .iter()
                    .collect::<std::collections::HashSet<_>>()
                    .len()
                    == parents.len();
                let context = if distinct_parents && !parent.is_empty() {
                    Some(parent.to_string())
                } else {
                    first_body_line(n)
                };
                let context = context.unwrap_or_else(|| format!("page {}", n.start_index));
                n.title = format!("{} — {}", n.title, context);
            }
            apply(&mut n.nodes, &parent_title_for_children, parents_of);
        }
    }
    apply(structure, "", &parents_of);
}

#[cfg(test)]
mod tests {
    use super::domain_of_text;
    use nanoindex_core::DomainName;

    #[test]
    fn domains_from_the_first_pages() {
        assert_eq!(
            domain_of_text("this agreement is made between acme and beta"),
            DomainName::LegalContract
        );
        assert_eq!(
            domain_of_text("homeowners policy. the insured must pay the premium"),
            DomainName::Insurance
        );
        assert_eq!(
            domain_of_text("clinical study protocol for patients with asthma"),
            DomainName::Medical
        );
        assert_eq!(
            domain_of_text("united states district court. plaintiff v. defendant"),
            DomainName::Legal
        );
        assert_eq!(
            domain_of_text("consolidated statements of operations for 2023"),
            DomainName::Financial
        );
        assert_eq!(
            domain_of_text("lecture notes on physics"),
            DomainName::Generic
        );
    }
}
