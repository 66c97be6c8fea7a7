//! Anchors from the PDF outline (bookmarks): titles and levels from the file, start pages
//! from resolved destinations, and the exact heading line found on that page when it is
//! there. Entries whose destination does not resolve are placed where their title occurs in
//! the text, else right after their parent, with lower confidence.

use nanoindex_core::extract::OutlineEntry;

use crate::assemble::Anchor;
use crate::flat::FlatLine;

fn simplify(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

pub(crate) fn matches_title(line: &str, title: &str) -> bool {
    let (l, t) = (simplify(line), simplify(title));
    if l.is_empty() || t.is_empty() {
        return false;
    }
    l == t
        || (l.starts_with(&t) && t.len() >= 4)
        || (t.starts_with(&l) && l.len() * 10 >= t.len() * 6)
}

/// First flat line index on or after 1-based `page_no` (`lines.len()` when none).
fn first_line_of_page(lines: &[FlatLine], page_no: u32) -> usize {
    lines.partition_point(|l| l.page_no < page_no)
}

/// Converts outline entries to anchors.
pub fn anchors(outline: &[OutlineEntry], lines: &[FlatLine]) -> Vec<Anchor> {
    let mut out: Vec<Anchor> = Vec::with_capacity(outline.len());
    let mut parents: Vec<(u32, usize, u32)> = Vec::new(); // (level, pos, page)
    for entry in outline {
        while parents
            .last()
            .is_some_and(|&(lvl, _, _)| lvl >= entry.level)
        {
            parents.pop();
        }
        let title = if entry.title.is_empty() {
            "(untitled)".to_string()
        } else {
            entry.title.clone()
        };
        let anchor = match entry.page_no {
            Some(page_no) => {
                let page_start = first_line_of_page(lines, page_no);
                let heading = lines[page_start..]
                    .iter()
                    .take_while(|l| l.page_no == page_no)
                    .position(|l| !l.furniture && matches_title(&l.line.text, &title))
                    .map(|i| page_start + i);
                Anchor {
                    title,
                    level: entry.level,
                    pos: heading.unwrap_or(page_start),
                    page_no,
                    heading_line: heading.is_some(),
                    confidence: 1.0,
                }
            }
            None => {
                let after = out.last().map_or(0, |a| a.pos);
                let found = lines[after..]
                    .iter()
                    .position(|l| !l.furniture && matches_title(&l.line.text, &title))
                    .map(|i| after + i);
                match found {
                    Some(pos) => Anchor {
                        title,
                        level: entry.level,
                        pos,
                        page_no: lines[pos].page_no,
                        heading_line: true,
                        confidence: 0.6,
                    },
                    None => {
                        let (pos, page_no) = parents
                            .last()
                            .map(|&(_, pos, page)| (pos, page))
                            .or_else(|| out.last().map(|a| (a.pos, a.page_no)))
                            .unwrap_or((0, lines.first().map_or(1, |l| l.page_no)));
                        Anchor {
                            title,
                            level: entry.level,
                            pos,
                            page_no,
                            heading_line: false,
                            confidence: 0.3,
                        }
                    }
                }
            }
        };
        parents.push((entry.level, anchor.pos, anchor.page_no));
        out.push(anchor);
    }
    out
}
