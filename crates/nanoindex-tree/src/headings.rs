//! Headings from typography and numbering: lines set larger than the body text, bold or
//! all-caps short lines that open a block, and numbered lines (`1.2`, `ARTICLE IV`,
//! `Section 3.1`, `Note 5`, …). Levels come from font size first, then numbering depth.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;

use nanoindex_core::numbering::{parse_heading_numbering, roman_to_int, Numbering, NumberingKind};

use crate::assemble::Anchor;
use crate::flat::FlatLine;

/// A line judged to be a heading.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Flat line index.
    pub pos: usize,
    /// Heading text.
    pub title: String,
    /// Font size in points, rounded to 0.5.
    pub size_key: i32,
    /// Numbering at the start of the heading, if any.
    pub numbering: Option<Numbering>,
}

/// Body font size: the size carrying the most characters, in half points.
pub fn body_size_key(lines: &[FlatLine]) -> i32 {
    let mut weight: HashMap<i32, usize> = HashMap::new();
    for l in lines.iter().filter(|l| !l.furniture) {
        for span in &l.line.spans {
            *weight.entry(half_points(span.size_pt)).or_default() += span.text.len();
        }
    }
    weight
        .into_iter()
        .max_by_key(|&(size, n)| (n, -size))
        .map_or(20, |(size, _)| size)
}

fn half_points(size: f32) -> i32 {
    (size * 2.0).round() as i32
}

/// True for table-of-contents lines: dot leaders, or words followed by one page number
/// (1–3 digits, or `F-12` style) with no other figures after the line's opening numbering.
pub fn looks_like_toc_line(text: &str) -> bool {
    if text.contains("....") || text.contains('…') || text.contains(". . .") {
        return true;
    }
    toc_page_number(text).is_some()
}

/// A line that is only a keyword and its number (`ARTICLE 2`, `Part 4`, `Section 12`): a
/// heading, not a contents entry ending in a page number.
fn is_bare_keyword_number(text: &str) -> bool {
    parse_heading_numbering(text).is_some_and(|(n, rest)| {
        n.kind != NumberingKind::Decimal && text[rest.min(text.len())..].trim().is_empty()
    })
}

/// The trailing page number of a contents entry, if `text` looks like one.
fn toc_page_number(text: &str) -> Option<u32> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let (&last, rest) = tokens.split_last()?;
    let number = if last.len() <= 3 && last.chars().all(|c| c.is_ascii_digit()) {
        last.parse().ok()?
    } else if let Some(n) = last.strip_prefix("F-").or_else(|| last.strip_prefix("A-")) {
        n.parse().ok()?
    } else {
        return None;
    };
    let wordy = rest
        .iter()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 3)
        .count();
    // Figures other than the entry's own numbering ("Item 7A", "Note 5", "2.1") mean a
    // table row, not a contents entry.
    let other_figures = rest
        .iter()
        .skip(2)
        .any(|w| w.chars().any(|c| c.is_ascii_digit()));
    (wordy >= 1 && !other_figures).then_some(number)
}

/// Pages (1-based) that are tables of contents: five or more entry lines whose page numbers
/// mostly increase down the page.
pub fn toc_pages(lines: &[FlatLine]) -> BTreeSet<u32> {
    let mut numbers: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for l in lines {
        if let Some(n) = toc_page_number(&l.line.text) {
            numbers.entry(l.page_no).or_default().push(n);
        } else if l.line.text.contains("....") {
            numbers.entry(l.page_no).or_default().push(u32::MAX);
        }
    }
    numbers
        .into_iter()
        .filter(|(_, ns)| {
            let rising = ns.windows(2).filter(|w| w[1] >= w[0]).count();
            ns.len() >= 5 && rising * 10 >= (ns.len() - 1) * 7
        })
        .map(|(p, _)| p)
        .collect()
}

fn is_all_caps(text: &str) -> bool {
    let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
    letters.len() >= 4 && letters.iter().all(|c| !c.is_lowercase())
}

/// Finds heading lines in `lines[range]`.
pub fn detect(
    lines: &[FlatLine],
    range: Range<usize>,
    body: i32,
    toc: &BTreeSet<u32>,
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for pos in range {
        let l = &lines[pos];
        if l.furniture || toc.contains(&l.page_no) {
            continue;
        }
        let text = l.line.text.trim();
        // Parts of an opinion: a centred line that is only "II" or "B".
        // "I" over "A" in one block: both open parts.
        let after_marker = pos > 0
            && out.last().is_some_and(|c| c.pos + 1 == pos)
            && part_marker(lines[pos - 1].line.text.trim()).is_some();
        if let Some(numbering) =
            part_marker(text).filter(|_| (l.block_start || after_marker) && centred(l))
        {
            out.push(Candidate {
                pos,
                title: text.to_string(),
                size_key: half_points(l.line.max_size_pt()),
                numbering: Some(numbering),
            });
            continue;
        }
        let n_chars = text.chars().count();
        let letters = text.chars().filter(|c| c.is_alphabetic()).count();
        let digits = text.chars().filter(|c| c.is_ascii_digit()).count();
        if !(2..=160).contains(&n_chars)
            || letters < 2
            || digits > letters
            || (looks_like_toc_line(text) && !is_bare_keyword_number(text))
        {
            continue;
        }
        let size = half_points(l.line.max_size_pt());
        let big = size >= body + 3 && (size as f32) >= body as f32 * 1.12;
        let bold = l.line.is_bold();
        let caps = is_all_caps(text);
        let parsed = parse_heading_numbering(text);
        let numbering = parsed.as_ref().map(|(n, _)| n.clone());
        let words = text.split_whitespace().count();
        let ends_sentence = text.ends_with(['.', ',', ';']) && !text.ends_with("..");
        let short = n_chars <= 100 && words <= 16;
        let mut title = text.to_string();
        let is_heading = if big {
            short && !text.ends_with(',')
        } else if !(l.block_start || opens_clause(lines, pos, numbering.as_ref())) {
            false
        } else if bold {
            short && (!ends_sentence || numbering.is_some())
        } else if let Some(n) = &numbering {
            // Run-in heading: "2.5 Payment Terms. Customer shall …" with the title in bold.
            let first = l.line.spans.iter().find(|s| !s.text.trim().is_empty());
            let rest = parsed
                .as_ref()
                .map_or(text.len(), |(_, r)| *r)
                .min(text.len());
            let bold_title = first.filter(|s| {
                let t = s.text.trim();
                s.bold && t.chars().count() >= 3 && t.len() > rest.min(t.len())
            });
            if let Some(span) = bold_title {
                title = span.text.trim().trim_end_matches(['.', ':']).to_string();
                true
            } else if let Some(run_in) = (n.kind != NumberingKind::Decimal || n.depth >= 2)
                .then(|| run_in_title(&text[rest..]))
                .flatten()
            {
                // "Section 2.2 Performance by Affiliates. Either Party …", `1.12 “Effective
                // Date” means …`: the clause's number and its title or defined term.
                title = format!("{} {run_in}", text[..rest].trim_end());
                true
            } else {
                let keyword = n.kind != NumberingKind::Decimal;
                // "3.1.2 e-MERLIN detection …" set in italics, as journals do.
                let italic_subsection = n.depth >= 2 && l.line.is_italic();
                // A sentence that starts with a citation ("§ 14-306.4. In other words, the
                // majority erred …") is text: after the number, a title reads as one.
                let titled = caps || italic_subsection || reads_as_title(&text[rest..]);
                (caps || keyword || italic_subsection)
                    && titled
                    && short
                    && n_chars <= 80
                    && !ends_sentence
            }
        } else {
            caps && n_chars <= 70 && words <= 10 && !ends_sentence
        };
        // "ARTICLE IV" over "SECURITY; SYSTEMS": the article's title on the next line.
        if let Some(prev) = out.last_mut() {
            if prev.pos + 1 == pos && lines[prev.pos].page_no == l.page_no && caps {
                let bare = parse_heading_numbering(&prev.title).is_some_and(|(n, r)| {
                    matches!(n.kind, NumberingKind::Article | NumberingKind::Part)
                        && prev.title[r..].trim().is_empty()
                });
                if bare && !ends_sentence && words <= 12 && numbering.is_none() {
                    prev.title = format!("{} {}", prev.title, text);
                    continue;
                }
            }
        }
        if !is_heading || (!big && words <= 1 && leads_table(lines, pos)) {
            continue;
        }
        // A heading wrapped over two lines of the same style is one heading.
        if let Some(prev) = out.last_mut() {
            let pl = &lines[prev.pos];
            let same_block =
                prev.pos + 1 == pos && pl.page_no == l.page_no && pl.block_idx == l.block_idx;
            if same_block
                && prev.size_key == size
                && numbering.is_none()
                && pl.line.is_bold() == bold
            {
                prev.title = format!("{} {}", prev.title, title);
                continue;
            }
        }
        // "II. Analysis" over "A. The Predominant-Factor Test": parts rank above sub-parts.
        let numbering = numbering.or_else(|| {
            let (marker, after) = text.split_once(". ")?;
            part_marker(marker).filter(|_| !after.trim().is_empty())
        });
        out.push(Candidate {
            pos,
            title,
            size_key: size,
            numbering,
        });
    }
    out
}

/// The numbering of a line that is only a part marker of an opinion or a report: a Roman
/// numeral up to XXX (`II`, `IV.`) is a part, one capital letter A–H (`B`) a sub-part.
fn part_marker(text: &str) -> Option<Numbering> {
    let bare = text.trim().trim_end_matches('.');
    if bare.is_empty() || !bare.chars().all(|c| c.is_ascii_uppercase()) {
        return None;
    }
    if let Some(n) = roman_to_int(bare).filter(|&n| n <= 30) {
        return Some(Numbering {
            kind: NumberingKind::Part,
            label: n.to_string(),
            depth: 1,
        });
    }
    (bare.len() == 1 && ('A'..='H').contains(&bare.chars().next()?)).then(|| Numbering {
        kind: NumberingKind::Clause,
        label: bare.to_string(),
        depth: 1,
    })
}

/// Whether a line is centred on its page (its middle within 8 % of the page's width of the
/// page's middle).
fn centred(l: &FlatLine) -> bool {
    let width = l.page_size.0.max(1.0);
    let middle = (l.line.bbox.x0 + l.line.bbox.x1) / 2.0;
    (middle - width / 2.0).abs() <= 0.08 * width
}

/// Whether the words after a heading's number read as a title: every word capitalised but
/// [`TITLE_SMALL_WORDS`], the first capitalised (`Governing Law`, `Quality of Services`), or
/// nothing at all.
fn reads_as_title(rest: &str) -> bool {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let capitalised = |w: &str| {
        w.trim_start_matches(['(', '“', '"', '‘', '§'])
            .chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
    };
    words.first().is_none_or(|w| capitalised(w))
        && words.iter().all(|w| {
            capitalised(w)
                || TITLE_SMALL_WORDS.contains(
                    &w.trim_end_matches([',', ';', ':', '.'])
                        .to_lowercase()
                        .as_str(),
                )
        })
}

/// Small words a title in title case leaves in lower case.
const TITLE_SMALL_WORDS: &[&str] = &[
    "a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to",
    "under", "upon", "with", "without", "not", "its", "their", "other", "etc",
];

/// Whether a line inside a block opens a clause: it starts with a keyword number (`Section
/// 8.2`, `ARTICLE V`) or a two-level one (`1.12`), and the line before it on the page ends a
/// sentence. Contracts often set consecutive clauses in one text block.
fn opens_clause(lines: &[FlatLine], pos: usize, numbering: Option<&Numbering>) -> bool {
    let clause = numbering.is_some_and(|n| n.kind != NumberingKind::Decimal || n.depth >= 2);
    clause
        && pos > 0
        && lines[pos - 1].page_no == lines[pos].page_no
        && lines[pos - 1]
            .line
            .text
            .trim_end()
            .ends_with(['.', ':', ';'])
}

/// The title of a run-in clause heading, from the text after its number: a defined term in
/// quotes followed by "means" or "has the meaning" (`“Effective Date” means …` gives
/// `“Effective Date”`), or a phrase of 1 to 12 words in title case ended by a period
/// (`Performance by Affiliates or Subcontractors. Either Party …`). `None` for a sentence.
fn run_in_title(rest: &str) -> Option<String> {
    let rest = rest.trim_start();
    if let Some(quoted) = rest.strip_prefix(['“', '"']) {
        let close = quoted.find(['”', '"'])?;
        let term = &quoted[..close];
        let after = quoted[close..]
            .trim_start_matches(['”', '"'])
            .trim_start_matches([',', ' '])
            .to_lowercase();
        let defines = [
            "means",
            "shall mean",
            "has the meaning",
            "or “",
            "or \"",
            "and “",
        ]
        .iter()
        .any(|w| after.starts_with(w));
        let words = term.split_whitespace().count();
        return (defines && (1..=8).contains(&words)).then(|| format!("“{}”", term.trim()));
    }
    let end = rest
        .char_indices()
        .find(|&(i, c)| c == '.' && rest[i + 1..].chars().next().is_none_or(char::is_whitespace))
        .map(|(i, _)| i)?;
    let phrase = rest[..end].trim();
    let words = phrase.split_whitespace().count();
    ((1..=12).contains(&words)
        && !phrase.chars().any(|c| c.is_ascii_digit())
        && reads_as_title(phrase))
    .then(|| phrase.to_string())
}

/// Markdown-style headings in `lines[range]`: a line that opens a block with one to six `#`
/// and a space (`## Payment terms`). The number of `#` becomes a font-size key one step
/// larger per level, so [`to_anchors`] nests `##` under `#`.
pub fn markdown(lines: &[FlatLine], range: Range<usize>) -> Vec<Candidate> {
    let mut out = Vec::new();
    for pos in range {
        let l = &lines[pos];
        if l.furniture || !l.block_start {
            continue;
        }
        let text = l.line.text.trim();
        let hashes = text.chars().take_while(|&c| c == '#').count();
        let title = text[hashes..].trim();
        if (1..=6).contains(&hashes)
            && text[hashes..].starts_with(' ')
            && title.chars().any(char::is_alphabetic)
            && title.chars().count() <= 120
        {
            out.push(Candidate {
                pos,
                title: title.to_string(),
                size_key: 100 - hashes as i32,
                numbering: parse_heading_numbering(title).map(|(n, _)| n),
            });
        }
    }
    out
}

/// True when most of the next five lines on the page are rows of figures: a bold "Assets"
/// or "Liabilities" above them labels part of a table, it does not open a section.
fn leads_table(lines: &[FlatLine], pos: usize) -> bool {
    let page = lines[pos].page_no;
    let next: Vec<&FlatLine> = lines[pos + 1..]
        .iter()
        .filter(|l| !l.furniture)
        .take_while(|l| l.page_no == page)
        .take(5)
        .collect();
    let rows = next
        .iter()
        .filter(|l| {
            l.line
                .text
                .split_whitespace()
                .filter(|w| {
                    w.chars().any(|c| c.is_ascii_digit()) && !w.chars().any(char::is_alphabetic)
                })
                .count()
                >= 2
        })
        .count();
    next.len() >= 3 && rows * 2 > next.len()
}

fn kind_rank(n: &Option<Numbering>) -> (u32, u32) {
    match n {
        None => (5, 0),
        Some(n) => match n.kind {
            NumberingKind::Part => (0, 0),
            NumberingKind::Article => (1, 0),
            NumberingKind::Schedule | NumberingKind::Exhibit | NumberingKind::Appendix => (1, 0),
            NumberingKind::Item => (2, 0),
            NumberingKind::Section | NumberingKind::Clause | NumberingKind::Decimal => (3, n.depth),
            NumberingKind::Note => (4, 0),
        },
    }
}

/// Gives candidates levels (starting at `base_level`): larger fonts rank higher; within a
/// size, PART above ARTICLE above Item above decimal sections by depth, above notes, above
/// unnumbered headings.
pub fn to_anchors(candidates: Vec<Candidate>, lines: &[FlatLine], base_level: u32) -> Vec<Anchor> {
    let mut sizes: Vec<i32> = candidates.iter().map(|c| c.size_key).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes.dedup();
    let keys: Vec<(usize, u32, u32)> = candidates
        .iter()
        .map(|c| {
            let size_rank = sizes.iter().position(|&s| s == c.size_key).unwrap_or(0);
            let (kind, depth) = kind_rank(&c.numbering);
            (size_rank, kind, depth)
        })
        .collect();
    let mut distinct = keys.clone();
    distinct.sort_unstable();
    distinct.dedup();
    candidates
        .into_iter()
        .zip(keys)
        .map(|(c, key)| {
            let rank = distinct.iter().position(|&k| k == key).unwrap_or(0) as u32;
            Anchor {
                title: c.title,
                level: base_level + rank.min(5),
                pos: c.pos,
                page_no: lines[c.pos].page_no,
                heading_line: true,
                confidence: 0.8,
            }
        })
        .collect()
}
