//! Section numbering as written in headings and in references to them: `PART II`,
//! `Item 7A.`, `ARTICLE IV`, `Section 3.1`, `2.5(b)`, `Note 5`, `Schedule A`, `Exhibit 4.6`.
//!
//! The tree builder uses it to find and nest headings; the graph builder uses the same
//! parser to resolve "see Section 2.5(b)" to the node numbered `2.5(b)`.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// The word that introduces a number, or `Decimal` for a bare `1.2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum NumberingKind {
    /// `PART II`
    Part,
    /// `Item 7A`
    Item,
    /// `ARTICLE IV`, `Article 4`
    Article,
    /// `Section 3.1`, `§ 3.1`
    Section,
    /// `Clause 5`
    Clause,
    /// `Note 5`
    Note,
    /// `Schedule A`
    Schedule,
    /// `Exhibit 4.6`
    Exhibit,
    /// `Appendix B`, `Annex 1`, `Attachment C`
    Appendix,
    /// `1.2`, `2.5(b)`, `3.`
    Decimal,
}

impl NumberingKind {
    /// Kinds that number the same sequence of sections in contracts: a heading `15.2 …`
    /// is what "Section 15.2" and "Clause 15.2" point at.
    pub fn is_section_like(self) -> bool {
        matches!(
            self,
            NumberingKind::Section
                | NumberingKind::Clause
                | NumberingKind::Article
                | NumberingKind::Decimal
        )
    }
}

/// A parsed number: its kind, normalised label (`7A`, `2.5(b)`, `4` for `IV`, `A`) and depth
/// (number of dotted components plus parenthesised parts; 1 for `Item 7`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Numbering {
    /// What introduces the number.
    pub kind: NumberingKind,
    /// Normalised label.
    pub label: String,
    /// Nesting depth implied by the label.
    pub depth: u32,
}

/// Value of a Roman numeral (`IV` → 4), case-insensitive; `None` if not a valid numeral.
pub fn roman_to_int(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 8 {
        return None;
    }
    let value = |c: char| match c.to_ascii_uppercase() {
        'I' => Some(1),
        'V' => Some(5),
        'X' => Some(10),
        'L' => Some(50),
        'C' => Some(100),
        _ => None,
    };
    let digits: Option<Vec<u32>> = s.chars().map(value).collect();
    let digits = digits?;
    let mut total = 0;
    for (i, &d) in digits.iter().enumerate() {
        if digits.get(i + 1).is_some_and(|&next| next > d) {
            total -= d as i64;
        } else {
            total += d as i64;
        }
    }
    u32::try_from(total).ok().filter(|&t| t > 0)
}

fn kind_of(word: &str) -> Option<NumberingKind> {
    let w = word.to_ascii_lowercase();
    let w = w.trim_end_matches('s');
    Some(match w {
        "part" => NumberingKind::Part,
        "item" => NumberingKind::Item,
        "article" => NumberingKind::Article,
        "section" | "§" | "§§" => NumberingKind::Section,
        "clause" => NumberingKind::Clause,
        "note" => NumberingKind::Note,
        "schedule" => NumberingKind::Schedule,
        "exhibit" => NumberingKind::Exhibit,
        "appendix" | "appendice" | "annex" | "attachment" => NumberingKind::Appendix,
        _ => return None,
    })
}

/// Whether `word` is a word that introduces a section's number (`Part`, `ITEM`, `Sections`,
/// `Exhibit`, `Attachment`, `§`, …), any case, singular or plural.
///
/// ```
/// use nanoindex_core::numbering::is_section_keyword;
/// assert!(is_section_keyword("EXHIBIT") && is_section_keyword("Sections"));
/// assert!(!is_section_keyword("Revenue"));
/// ```
#[must_use]
pub fn is_section_keyword(word: &str) -> bool {
    kind_of(word).is_some()
}

/// Normalises the label that follows a keyword: Roman numerals of parts and articles become
/// decimal, letters are upper-cased (`7a` → `7A`), a trailing dot is dropped.
fn normalise_label(kind: NumberingKind, raw: &str) -> Option<String> {
    let raw = raw.trim_end_matches('.');
    if raw.is_empty() {
        return None;
    }
    if matches!(kind, NumberingKind::Part | NumberingKind::Article)
        && raw.chars().all(|c| c.is_ascii_alphabetic())
    {
        return roman_to_int(raw).map(|n| n.to_string());
    }
    let mut label = String::new();
    let mut in_paren = false;
    for c in raw.chars() {
        match c {
            '(' => in_paren = true,
            ')' => in_paren = false,
            _ => {}
        }
        if in_paren {
            label.push(c.to_ascii_lowercase());
        } else {
            label.push(c.to_ascii_uppercase());
        }
    }
    Some(label)
}

fn depth_of(label: &str) -> u32 {
    let dots = label.split('(').next().unwrap_or("").split('.').count() as u32;
    let parens = label.matches('(').count() as u32;
    dots + parens
}

static KEYWORD_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*(part|item|article|section|§|clause|note|schedule|exhibit|appendix|annex|attachment)\s+([0-9]{1,3}[a-z]?(?:\.[0-9]{1,3})*(?:\([a-z0-9]{1,4}\))*|[ivxlc]{1,7}|[a-z])\b[.:)]?",
    )
    .expect("valid regex")
});

static DECIMAL_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*([0-9]{1,2}(?:\.[0-9]{1,3}){0,4}(?:\([a-z0-9]{1,3}\))*)(\.?)\s+\S")
        .expect("valid regex")
});

/// Parses the numbering at the start of a heading line. Returns it with the byte offset where
/// the rest of the title begins.
///
/// ```
/// use nanoindex_core::numbering::{parse_heading_numbering, NumberingKind};
/// let (n, _) = parse_heading_numbering("ARTICLE IV  Indemnification").unwrap();
/// assert_eq!((n.kind, n.label.as_str()), (NumberingKind::Article, "4"));
/// let (n, rest) = parse_heading_numbering("2.5(b) Late payment").unwrap();
/// assert_eq!((n.label.as_str(), n.depth, &"2.5(b) Late payment"[rest..]), ("2.5(b)", 3, "Late payment"));
/// assert!(parse_heading_numbering("2018 was a good year").is_none());
/// ```
pub fn parse_heading_numbering(text: &str) -> Option<(Numbering, usize)> {
    if let Some(caps) = KEYWORD_HEADING.captures(text) {
        let kind = kind_of(caps.get(1)?.as_str())?;
        let label = normalise_label(kind, caps.get(2)?.as_str())?;
        let end = caps.get(0)?.end();
        let rest = end + text[end..].len()
            - text[end..]
                .trim_start_matches([' ', '.', ':', '-', '—', '–', '\t'])
                .len();
        let depth = if kind == NumberingKind::Section {
            depth_of(&label)
        } else {
            1
        };
        return Some((Numbering { kind, label, depth }, rest));
    }
    let caps = DECIMAL_HEADING.captures(text)?;
    let raw = caps.get(1)?.as_str();
    let has_dot = !caps.get(2)?.as_str().is_empty();
    // A bare integer must be followed by a dot ("3. Term"), otherwise "2018 Annual" or
    // "12 months" would count; dotted forms ("1.2 Scope") stand on their own. Years never do.
    let first: u32 = raw.split(['.', '(']).next()?.parse().ok()?;
    if first == 0 || first > 99 {
        return None;
    }
    if !raw.contains('.') && !raw.contains('(') && !has_dot {
        return None;
    }
    let label = normalise_label(NumberingKind::Decimal, raw)?;
    let rest_start = caps.get(2)?.end();
    let rest = rest_start + text[rest_start..].len() - text[rest_start..].trim_start().len();
    let depth = depth_of(&label);
    Some((
        Numbering {
            kind: NumberingKind::Decimal,
            label,
            depth,
        },
        rest,
    ))
}

static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(Parts?|PART|Items?|ITEM|Articles?|ARTICLE|Sections?|SECTION|Clauses?|Notes?|NOTE|Schedules?|Exhibits?|Appendix|Annex|Attachments?)\s+([0-9]{1,3}[A-Za-z]?(?:\.[0-9]{1,3})*(?:\([a-z0-9]{1,4}\))*|[IVX]{1,6}\b|[A-Z]\b)|(§)\s*([0-9]{1,3}(?:\.[0-9]{1,3})*(?:\([a-z0-9]{1,4}\))*)",
    )
    .expect("valid regex")
});

/// A reference to a numbered section found in running text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The numbering referred to.
    pub numbering: Numbering,
    /// Byte range of the reference in the text.
    pub span: std::ops::Range<usize>,
}

/// Finds references such as "Section 15.2", "Item 1A", "Note 5", "Exhibit 4.6", "Part I",
/// "Schedule A" in `text`.
///
/// ```
/// use nanoindex_core::numbering::{find_references, NumberingKind};
/// let refs = find_references("as set out in Section 2.5(b) and Item 7A of Part II");
/// let labels: Vec<_> = refs.iter().map(|r| (r.numbering.kind, r.numbering.label.as_str())).collect();
/// assert_eq!(labels, [(NumberingKind::Section, "2.5(b)"), (NumberingKind::Item, "7A"), (NumberingKind::Part, "2")]);
/// ```
pub fn find_references(text: &str) -> Vec<Reference> {
    let mut out = Vec::new();
    for caps in REFERENCE.captures_iter(text) {
        let whole = caps.get(0).expect("match");
        let (word, raw) = match (caps.get(1), caps.get(2), caps.get(4)) {
            (Some(w), Some(r), _) => (w.as_str(), r.as_str()),
            (_, _, Some(r)) => ("section", r.as_str()),
            _ => continue,
        };
        let Some(kind) = kind_of(word) else { continue };
        // A single capital letter only names parts of schedules, exhibits and appendices.
        if raw.len() == 1
            && raw.chars().all(|c| c.is_ascii_uppercase())
            && !matches!(
                kind,
                NumberingKind::Schedule | NumberingKind::Exhibit | NumberingKind::Appendix
            )
            && roman_to_int(raw).is_none()
        {
            continue;
        }
        let Some(label) = normalise_label(kind, raw) else {
            continue;
        };
        let depth = depth_of(&label);
        out.push(Reference {
            numbering: Numbering { kind, label, depth },
            span: whole.start()..whole.end(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_forms() {
        let cases = [
            ("PART II — OTHER INFORMATION", NumberingKind::Part, "2"),
            (
                "Item 7A. Quantitative and Qualitative",
                NumberingKind::Item,
                "7A",
            ),
            ("ITEM 1A. RISK FACTORS", NumberingKind::Item, "1A"),
            ("Section 3.1 Definitions", NumberingKind::Section, "3.1"),
            ("Note 5 — Income Taxes", NumberingKind::Note, "5"),
            ("Schedule A", NumberingKind::Schedule, "A"),
            ("Exhibit 4.6", NumberingKind::Exhibit, "4.6"),
            ("1. Definitions", NumberingKind::Decimal, "1"),
            ("12.3 Governing Law", NumberingKind::Decimal, "12.3"),
        ];
        for (text, kind, label) in cases {
            let (n, _) = parse_heading_numbering(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!((n.kind, n.label.as_str()), (kind, label), "{text}");
        }
        assert!(parse_heading_numbering("3 months ended").is_none());
        assert!(parse_heading_numbering("100. Hundred").is_none());
    }

    #[test]
    fn roman_numerals() {
        assert_eq!(roman_to_int("IV"), Some(4));
        assert_eq!(roman_to_int("xii"), Some(12));
        assert_eq!(roman_to_int("ABC"), None);
    }

    #[test]
    fn references_ignore_plain_capital_words() {
        assert!(find_references("Section A of the plan").is_empty());
        let refs = find_references("Exhibit 4.6 and Clause 5 and § 12.1");
        let labels: Vec<_> = refs.iter().map(|r| r.numbering.label.as_str()).collect();
        assert_eq!(labels, ["4.6", "5", "12.1"]);
    }
}
