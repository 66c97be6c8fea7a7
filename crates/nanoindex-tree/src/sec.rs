//! SEC filings (Form 10-K and 10-Q), recognised from their content and normalised to
//! PART → Item → sub-sections with the items' canonical titles (Regulation S-K; Form 10-K
//! and Form 10-Q general instructions).
//!
//! Item headings are chosen so that the table of contents is never taken for the items:
//! lines on contents pages or ending in a page number are dropped, and of the remaining
//! item lines the longest run in canonical order is kept (a longest increasing subsequence),
//! which skips stray mentions at the start of a line.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::assemble::Anchor;
use crate::flat::FlatLine;
use crate::headings;

/// Which form a filing is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Annual report.
    TenK,
    /// Quarterly report.
    TenQ,
}

impl Form {
    /// The form's extraction domain (`sec_10k`, `sec_10q`).
    pub fn domain(self) -> nanoindex_core::DomainName {
        match self {
            Form::TenK => nanoindex_core::DomainName::Sec10k,
            Form::TenQ => nanoindex_core::DomainName::Sec10q,
        }
    }
}

/// (part, item code, canonical title) of Form 10-K, in order.
const TEN_K: &[(u32, &str, &str)] = &[
    (1, "1", "Business"),
    (1, "1A", "Risk Factors"),
    (1, "1B", "Unresolved Staff Comments"),
    (1, "1C", "Cybersecurity"),
    (1, "2", "Properties"),
    (1, "3", "Legal Proceedings"),
    (1, "4", "Mine Safety Disclosures"),
    (2, "5", "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities"),
    (2, "6", "Selected Financial Data"),
    (2, "7", "Management's Discussion and Analysis of Financial Condition and Results of Operations"),
    (2, "7A", "Quantitative and Qualitative Disclosures About Market Risk"),
    (2, "8", "Financial Statements and Supplementary Data"),
    (2, "9", "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure"),
    (2, "9A", "Controls and Procedures"),
    (2, "9B", "Other Information"),
    (2, "9C", "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections"),
    (3, "10", "Directors, Executive Officers and Corporate Governance"),
    (3, "11", "Executive Compensation"),
    (3, "12", "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters"),
    (3, "13", "Certain Relationships and Related Transactions, and Director Independence"),
    (3, "14", "Principal Accountant Fees and Services"),
    (4, "15", "Exhibits and Financial Statement Schedules"),
    (4, "16", "Form 10-K Summary"),
];

/// (part, item code, canonical title) of Form 10-Q, in order.
const TEN_Q: &[(u32, &str, &str)] = &[
    (1, "1", "Financial Statements"),
    (
        1,
        "2",
        "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    ),
    (
        1,
        "3",
        "Quantitative and Qualitative Disclosures About Market Risk",
    ),
    (1, "4", "Controls and Procedures"),
    (2, "1", "Legal Proceedings"),
    (2, "1A", "Risk Factors"),
    (
        2,
        "2",
        "Unregistered Sales of Equity Securities and Use of Proceeds",
    ),
    (2, "3", "Defaults Upon Senior Securities"),
    (2, "4", "Mine Safety Disclosures"),
    (2, "5", "Other Information"),
    (2, "6", "Exhibits"),
];

const PART_TITLES_10K: [&str; 4] = ["PART I", "PART II", "PART III", "PART IV"];

static FORM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\bFORM\s*10\s*-?\s*(K|Q)\b").expect("valid regex"));
static ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*items?\s+(\d{1,2})\s*([abc])?\b\s*(?:(?:and|&)\s*\d{1,2}[abc]?\s*)?[.:\-–—]?\s*(.*)$")
        .expect("valid regex")
});
static PART: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*part\s+(iv|i{1,3})\b\.?\s*[.:\-–—]?\s*(.*)$").expect("valid regex")
});

/// Recognises a 10-K or 10-Q from the text of its first three pages.
pub fn detect_form(lines: &[FlatLine]) -> Option<Form> {
    let mut text = String::new();
    for l in lines.iter().take_while(|l| l.page_no <= 3) {
        text.push_str(&l.line.text);
        text.push('\n');
    }
    let caps = FORM.captures(&text)?;
    match caps.get(1)?.as_str().to_ascii_uppercase().as_str() {
        "K" => Some(Form::TenK),
        _ => Some(Form::TenQ),
    }
}

#[derive(Debug, Clone)]
struct ItemLine {
    pos: usize,
    /// Index into the form's item table.
    rank: usize,
    rest: String,
}

fn words(s: &str) -> BTreeSet<String> {
    const STOP: &[&str] = &[
        "and", "of", "the", "for", "in", "on", "to", "with", "about", "that", "a",
    ];
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1)
        .map(|w| w.to_lowercase())
        .filter(|w| !STOP.contains(&w.as_str()))
        .collect()
}

fn plausible_title(rest: &str, canonical: &str, bold: bool) -> bool {
    let rest = rest.trim();
    if rest.is_empty() || bold {
        return true;
    }
    if rest.chars().next().is_some_and(|c| c.is_lowercase()) {
        return false;
    }
    let lower = rest.to_lowercase();
    if lower.contains("reserved")
        || lower.starts_with("none")
        || lower.starts_with("not applicable")
    {
        return true;
    }
    let canon = words(canonical);
    let first: Vec<String> = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1)
        .take(3)
        .map(|w| w.to_lowercase())
        .collect();
    first.iter().any(|w| canon.contains(w))
}

/// Longest strictly increasing subsequence of `keys`, as indices; ties keep later elements.
fn lis(keys: &[(u32, usize)]) -> Vec<usize> {
    let mut tails: Vec<usize> = Vec::new();
    let mut prev: Vec<Option<usize>> = vec![None; keys.len()];
    for (i, key) in keys.iter().enumerate() {
        let at = tails.partition_point(|&t| keys[t] < *key);
        prev[i] = at.checked_sub(1).map(|p| tails[p]);
        if at == tails.len() {
            tails.push(i);
        } else {
            tails[at] = i;
        }
    }
    let mut out = Vec::new();
    let mut cur = tails.last().copied();
    while let Some(i) = cur {
        out.push(i);
        cur = prev[i];
    }
    out.reverse();
    out
}

/// Builds the PART → Item → sub-section anchors of a filing, or `None` when fewer than three
/// items are found (the caller then falls back to typography).
pub fn anchors(form: Form, lines: &[FlatLine], body: i32) -> Option<Vec<Anchor>> {
    let table = match form {
        Form::TenK => TEN_K,
        Form::TenQ => TEN_Q,
    };
    let toc = headings::toc_pages(lines);
    // Pages with many item lines are contents pages even without page numbers.
    let mut per_page: std::collections::BTreeMap<u32, usize> = Default::default();
    for l in lines {
        if ITEM.is_match(&l.line.text) {
            *per_page.entry(l.page_no).or_default() += 1;
        }
    }
    let dense: BTreeSet<u32> = per_page
        .into_iter()
        .filter(|&(_, n)| n >= 9)
        .map(|(p, _)| p)
        .collect();

    let mut part_lines: Vec<(usize, u32)> = Vec::new();
    let mut items: Vec<(ItemLine, u32)> = Vec::new();
    let mut current_part = 1;
    let mut last_code_rank: Option<usize> = None;
    for (pos, l) in lines.iter().enumerate() {
        if l.furniture || toc.contains(&l.page_no) || dense.contains(&l.page_no) {
            continue;
        }
        let text = l.line.text.trim();
        if text.chars().count() > 200 || headings::looks_like_toc_line(text) {
            continue;
        }
        if let Some(c) = PART.captures(text) {
            let rest = c.get(2).map_or("", |m| m.as_str());
            if rest.chars().count() <= 90 && !rest.chars().next().is_some_and(|c| c.is_lowercase())
            {
                let n =
                    nanoindex_core::numbering::roman_to_int(c.get(1).map_or("", |m| m.as_str()))
                        .unwrap_or(1);
                part_lines.push((pos, n));
                current_part = n;
                continue;
            }
        }
        let Some(c) = ITEM.captures(text) else {
            continue;
        };
        let code = format!(
            "{}{}",
            c.get(1).map_or("", |m| m.as_str()).trim_start_matches('0'),
            c.get(2)
                .map_or(String::new(), |m| m.as_str().to_ascii_uppercase())
        );
        let rest = c.get(3).map_or("", |m| m.as_str()).to_string();
        let part_of = |rank: usize| table[rank].0;
        let candidates: Vec<usize> = (0..table.len()).filter(|&r| table[r].1 == code).collect();
        let rank = match form {
            Form::TenK => candidates.first().copied(),
            Form::TenQ => {
                // The part comes from the last PART heading; when there are none, an item
                // number going backwards starts Part II.
                let part = if !part_lines.is_empty() {
                    current_part
                } else {
                    match last_code_rank {
                        Some(last) if part_of(last) == 2 => 2,
                        Some(last) if candidates.iter().any(|&r| part_of(r) == 1 && r <= last) => 2,
                        _ => 1,
                    }
                };
                candidates
                    .iter()
                    .copied()
                    .find(|&r| part_of(r) == part)
                    .or(candidates.first().copied())
            }
        };
        let Some(rank) = rank else { continue };
        if !plausible_title(&rest, table[rank].2, l.line.is_bold()) {
            continue;
        }
        last_code_rank = Some(rank);
        items.push((ItemLine { pos, rank, rest }, table[rank].0));
    }
    let keys: Vec<(u32, usize)> = items.iter().map(|(it, part)| (*part, it.rank)).collect();
    let chosen: Vec<&ItemLine> = lis(&keys).into_iter().map(|i| &items[i].0).collect();
    if chosen.len() < 3 {
        return None;
    }

    let mut anchors = Vec::new();
    let first_pos = chosen[0].pos;
    // Part anchors: at the PART heading just before the part's first item, else at the item.
    let mut seen_parts = BTreeSet::new();
    let mut prev_item_pos = 0usize;
    let mut item_anchors = Vec::new();
    for item in &chosen {
        let (part, code, canonical) = table[item.rank];
        if seen_parts.insert(part) {
            let heading = part_lines
                .iter()
                .rev()
                .find(|&&(pos, n)| n == part && pos < item.pos && pos >= prev_item_pos);
            let (pos, heading_line) = match heading {
                Some(&(pos, _)) => (pos, true),
                None => (item.pos, false),
            };
            let part_title = PART_TITLES_10K[(part as usize - 1).min(3)];
            anchors.push(Anchor {
                title: part_title.to_string(),
                level: 1,
                pos,
                page_no: lines[pos].page_no,
                heading_line,
                confidence: if heading_line { 1.0 } else { 0.7 },
            });
        }
        let title_text = if item.rest.to_lowercase().contains("reserved") {
            "[Reserved]"
        } else {
            canonical
        };
        item_anchors.push(Anchor {
            title: format!("Item {code}. {title_text}"),
            level: 2,
            pos: item.pos,
            page_no: lines[item.pos].page_no,
            heading_line: true,
            confidence: 1.0,
        });
        prev_item_pos = item.pos;
    }
    // Sub-sections inside each item.
    let boundaries: Vec<usize> = item_anchors
        .iter()
        .map(|a| a.pos)
        .chain([lines.len()])
        .collect();
    let part_positions: BTreeSet<usize> = anchors.iter().map(|a| a.pos).collect();
    for (i, item) in item_anchors.iter().enumerate() {
        let mut end = boundaries[i + 1];
        if let Some(&p) = part_positions.range(item.pos + 1..end).next() {
            end = p;
        }
        let candidates = headings::detect(lines, item.pos + 1..end, body, &toc);
        anchors.extend(headings::to_anchors(candidates, lines, 3));
    }
    anchors.extend(item_anchors);
    if first_pos > 0 {
        let cover_end = anchors.iter().map(|a| a.pos).min().unwrap_or(first_pos);
        if cover_end > 0 {
            anchors.push(Anchor {
                title: "Cover Page and Table of Contents".to_string(),
                level: 1,
                pos: 0,
                page_no: lines[0].page_no,
                heading_line: false,
                confidence: 0.9,
            });
        }
    }
    // Document order; a part before its item at the same position.
    anchors.sort_by_key(|a| (a.pos, a.level));
    Some(anchors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lis_prefers_the_body_over_the_contents() {
        // contents lists items 0..3, then the body repeats them
        let keys = [
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
        ];
        assert_eq!(lis(&keys), vec![4, 5, 6, 7]);
    }

    #[test]
    fn item_line_forms() {
        for (text, code) in [
            ("Item 7A. Quantitative", "7"),
            ("ITEM 1A.RISK FACTORS", "1"),
            ("Items 1 and 2. Business and Properties", "1"),
        ] {
            let c = ITEM.captures(text).unwrap();
            assert_eq!(c.get(1).unwrap().as_str(), code, "{text}");
        }
        assert!(plausible_title("Risk Factors", "Risk Factors", false));
        assert!(!plausible_title(
            "of this report describes",
            "Risk Factors",
            false
        ));
    }
}
