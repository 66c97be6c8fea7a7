//! Headings from typography and numbering: lines set larger than the body text, bold or
//! all-caps short lines that open a block, and numbered lines (`1.2`, `ARTICLE IV`,
//! `Section 3.1`, `Note 5`, …). Levels come from font size first, then numbering depth.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;
use std::sync::LazyLock;

use nanoindex_core::numbering::{
    is_section_keyword, parse_heading_numbering, roman_to_int, Numbering, NumberingKind,
};
use nanoindex_core::script::is_cjk;
use regex::Regex;

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
/// (1–3 digits, `F-12`, `SA-1` style, or `iv`) with no other figures after the line's opening numbering.
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
    // Most lines end in a word: they are turned away before their words are collected.
    let last = text.split_whitespace().next_back()?;
    if !(last.len() <= 3 && last.bytes().all(|b| b.is_ascii_digit())
        || last.contains('-')
        || ROMAN_PAGES.contains(&last))
    {
        return None;
    }
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let (&last, rest) = tokens.split_last()?;
    let number = if last.len() <= 3 && last.chars().all(|c| c.is_ascii_digit()) {
        last.parse().ok()?
    } else if let Some((_, n)) = last.split_once('-').filter(|(p, n)| {
        (1..=3).contains(&p.len())
            && p.chars().all(|c| c.is_ascii_uppercase())
            && (1..=3).contains(&n.len())
            // "EXHIBIT B-1" is a heading: a keyword alone is no entry's title.
            && !rest
                .iter()
                .all(|w| is_section_keyword(w))
    }) {
        // Pages of financial statements and attachments: `F-12`, `A-1`, `SA-1`, `EB-1`.
        n.parse().ok()?
    } else if let Some(n) = ROMAN_PAGES.iter().position(|&r| r == last) {
        // Front matter numbered in lower-case Roman numerals: `iv`.
        n as u32 + 1
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

/// Page numbers of front matter, `i` to `xxx`, as written.
const ROMAN_PAGES: &[&str] = &[
    "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv",
    "xvi", "xvii", "xviii", "xix", "xx", "xxi", "xxii", "xxiii", "xxiv", "xxv", "xxvi", "xxvii",
    "xxviii", "xxix", "xxx",
];

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

/// Whether a line is set in capitals: at least 4 upper-case letters and no lower-case one.
/// Scripts without case (Chinese) are never capitals.
fn is_all_caps(text: &str) -> bool {
    let upper = text.chars().filter(|c| c.is_uppercase()).count();
    upper >= 4 && !text.chars().any(char::is_lowercase)
}

/// Size key of the headings that open an opinion ("Syllabus", "JUSTICE SOTOMAYOR delivered
/// the opinion of the Court.", "HUDSON, Justice."): above every font size, so parts I, II and
/// their sub-parts nest under the opinion they belong to.
const OPINION_KEY: i32 = 10_000;

/// Finds heading lines in `lines[range]`: lines set larger than the body, bold or all-caps
/// lines that open a block, numbered clauses with their run-in titles (`Section 2.2
/// Performance by Affiliates.`, `1.12 “Effective Date” means …`, `(a) No Impairment.`),
/// keyword headings with their title on the next lines (`EXHIBIT A` over `Transition
/// Services`), the parts of an opinion (centred `II`, `B`, `1`) and the lines that open one
/// (`Syllabus`, `JUSTICE X delivered the opinion of the Court.`).
pub fn detect(
    lines: &[FlatLine],
    range: Range<usize>,
    body: i32,
    toc: &BTreeSet<u32>,
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    // The last line whose text is in the last candidate's title.
    let mut tail = usize::MAX;
    // The letter of the last "(h)" clause, so that "(i)" after it is a letter, not a numeral.
    let mut last_letter: Option<char> = None;
    let mut syllabus_seen = false;
    for pos in range {
        let l = &lines[pos];
        let text = title_text(l);
        // A slip opinion's syllabus, whose title also runs at the head of its pages.
        let syllabus = text == "Syllabus" && centred(l) && !toc.contains(&l.page_no);
        if syllabus {
            // Only its first line in the document: the rest are its running heads.
            let earlier = || {
                lines[..pos]
                    .iter()
                    .any(|p| p.line.text.trim() == "Syllabus")
            };
            if std::mem::replace(&mut syllabus_seen, true) || earlier() {
                continue;
            }
        } else if l.furniture || toc.contains(&l.page_no) {
            continue;
        }
        if syllabus || (l.block_start && opens_opinion(text)) {
            out.push(Candidate {
                pos,
                title: text.to_string(),
                size_key: OPINION_KEY,
                numbering: None,
            });
            tail = pos;
            continue;
        }
        // Parts of an opinion: a centred line that is only "II" or "B".
        // "I" over "A" in one block: both open parts.
        let after_marker = pos > 0
            && out.last().is_some_and(|c| c.pos + 1 == pos)
            && part_marker(lines[pos - 1].line.text.trim()).is_some();
        let numbered_part = || {
            numbered_part_marker(text).filter(|_| {
                // Only under the parts of an opinion: a centred "II" or "B", or an opinion's
                // opening line (not a 10-K's "PART I" or a contract's "(a)").
                let opinion_parts = out
                    .iter()
                    .any(|c| c.size_key == OPINION_KEY || part_marker(&c.title).is_some());
                opinion_parts && inside_text_column(lines, pos)
            })
        };
        if let Some(numbering) = part_marker(text)
            .filter(|_| (l.block_start || after_marker) && centred(l))
            .or_else(|| numbered_part().filter(|_| centred(l)))
        {
            out.push(Candidate {
                pos,
                title: text.to_string(),
                size_key: half_points(l.line.max_size_pt()),
                numbering: Some(numbering),
            });
            tail = pos;
            continue;
        }
        let n_chars = text.chars().count();
        let letters = text.chars().filter(|c| c.is_alphabetic()).count();
        let digits = text.chars().filter(|c| c.is_ascii_digit()).count();
        // "1.52 [***]": a clause redacted whole is still a clause of the agreement.
        let redacted = text.contains("[*");
        // A clause's number and run-in title open a line of any length.
        let max_chars = if parse_heading_numbering(text).is_some() || text.starts_with('(') {
            400
        } else {
            160
        };
        if !(2..=max_chars).contains(&n_chars)
            || (!redacted && (letters < 2 || digits > letters))
            || (looks_like_toc_line(text) && !is_bare_keyword_number(text))
        {
            continue;
        }
        let size = half_points(l.line.max_size_pt());
        let big = size >= body + 3 && (size as f32) >= body as f32 * 1.12;
        let bold = l.line.is_bold();
        let caps = is_all_caps(text);
        let paren = paren_clause(text, last_letter);
        if let Some((n, _)) = paren.as_ref().filter(|(n, _)| n.depth == PAREN_LETTER) {
            last_letter = n.label.chars().nth(1);
        }
        let parsed = parse_heading_numbering(text).or_else(|| paren.clone());
        let numbering = parsed.as_ref().map(|(n, _)| n.clone());
        let words = text.split_whitespace().count();
        let ends_sentence =
            text.ends_with(['.', ',', ';', '。', '，', '；']) && !text.ends_with("..");
        // Chinese and Japanese set no spaces between words: a line of a paragraph is one
        // "word", so their headings are told by length alone.
        let ideographs = text.chars().filter(|&c| is_cjk(c)).count();
        let short = if ideographs * 2 > n_chars {
            n_chars <= 24
        } else {
            n_chars <= 100 && words <= 16
        };
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
                // Date” means …`, "(a) No Impairment. The Servicer …": the clause's number
                // and its title or defined term.
                title = format!("{} {run_in}", text[..rest].trim_end());
                true
            } else {
                // A lettered clause is a heading only with a run-in title: "(a) the Closing
                // Date" is an item of a list.
                let keyword = n.kind != NumberingKind::Decimal && paren.is_none();
                // "3.1.2 e-MERLIN detection …" set in italics, as journals do.
                let italic_subsection = paren.is_none() && n.depth >= 2 && l.line.is_italic();
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
            // "Aim:" set a point above the body: a protocol's sub-heading.
            let labelled = size > body
                && words <= 8
                && text.ends_with(':')
                && text.chars().next().is_some_and(char::is_uppercase);
            // "Definitions" centred alone between paragraphs of an appendix.
            // Not on a title page (authors, affiliations, a cover's state of incorporation),
            // at least body size, with a blank line above.
            let height = (l.line.bbox.y1 - l.line.bbox.y0).max(1.0);
            let space_above = pos == 0
                || lines[pos - 1].page_no != l.page_no
                || l.line.bbox.y0 - lines[pos - 1].line.bbox.y1 >= 0.8 * height;
            let centred_title = centred(l)
                && l.page_no > 1
                && size >= body
                && space_above
                && words <= 6
                && digits == 0
                && !ends_sentence
                && reads_as_title(text)
                && lines
                    .get(pos + 1)
                    .is_none_or(|n| n.page_no != l.page_no || n.block_idx != l.block_idx);
            (caps && n_chars <= 70 && words <= 10 && !ends_sentence) || labelled || centred_title
        };
        // "ARTICLE IV" over "SECURITY; SYSTEMS", "EXHIBIT A" over "Transition Services": a
        // keyword heading's title on the next lines.
        if let Some(prev) = out.last_mut() {
            let next_line = tail.checked_add(1) == Some(pos)
                && lines[tail].page_no == l.page_no
                && numbering.is_none()
                && words <= 14
                && !text.ends_with(['.', ','])
                && (size - prev.size_key).abs() <= 3;
            // "Exhibit 10.22" over a contract's name is the filing's exhibit number, not a
            // heading of the contract.
            let bare = parse_heading_numbering(&prev.title).is_some_and(|(n, r)| {
                !(n.kind == NumberingKind::Exhibit && n.label.contains('.'))
                    && matches!(
                        n.kind,
                        NumberingKind::Article
                            | NumberingKind::Part
                            | NumberingKind::Schedule
                            | NumberingKind::Exhibit
                            | NumberingKind::Appendix
                    )
                    && prev.title[r..].trim().is_empty()
            });
            let styled = caps || (bold && lines[prev.pos].line.is_bold()) || reads_as_title(text);
            // A title over two lines: the first ends in ";" or both are capitals of one block.
            let above = &lines[tail.min(pos)];
            let continued = tail != prev.pos
                && caps
                && (above.line.text.trim_end().ends_with([';', ','])
                    || (above.block_idx == l.block_idx && is_all_caps(&above.line.text)));
            if next_line && ((bare && styled) || continued) {
                prev.title = format!("{} {}", prev.title, text);
                tail = pos;
                continue;
            }
        }
        if !is_heading || (!big && words <= 1 && leads_table(lines, pos)) {
            continue;
        }
        // A heading wrapped over two or more lines of the same style is one heading.
        if let Some(prev) = out.last_mut() {
            let pl = &lines[tail.min(pos)];
            let same_block = tail.checked_add(1) == Some(pos)
                && pl.page_no == l.page_no
                && pl.block_idx == l.block_idx;
            if same_block
                && prev.size_key == size
                && numbering.is_none()
                && pl.line.is_bold() == bold
            {
                prev.title = format!("{} {}", prev.title, title);
                tail = pos;
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
        tail = pos;
    }
    out
}

/// A line's text as a heading reads it: trimmed, without a footnote mark set small after
/// its last word (`Section G1: IT Services¹²` reads `Section G1: IT Services`).
fn title_text<'a>(l: &FlatLine<'a>) -> &'a str {
    let text = l.line.text.trim();
    let mut spans = l
        .line
        .spans
        .iter()
        .filter(|s| !s.text.trim().is_empty())
        .rev();
    let (Some(last), Some(before)) = (spans.next(), spans.next()) else {
        return text;
    };
    let mark = last.text.trim();
    let small = last.size_pt < 0.85 * before.size_pt;
    let footnote = (1..=2).contains(&mark.len()) && mark.chars().all(|c| c.is_ascii_digit());
    match text.strip_suffix(mark) {
        Some(head) if small && footnote && head.ends_with(char::is_alphabetic) => head,
        _ => text,
    }
}

/// Whether a line opens an opinion or a separate writing in it: "JUSTICE SOTOMAYOR
/// delivered the opinion of the Court.", "JUSTICE SCALIA, dissenting.", "Justice BERGER
/// concurring.", "HUDSON, Justice.", "PER CURIAM." (the forms of the U.S. Supreme Court's
/// and state supreme courts' slip opinions), a whole line ending in a period. A syllabus's
/// "SOTOMAYOR, J., delivered …" and a sentence that goes on are text.
fn opens_opinion(text: &str) -> bool {
    static OPENING: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?:(?:(?:CHIEF|Chief) )?(?:JUSTICE|Justice) [A-Z][A-Za-z’'-]+,? (?:delivered the opinion|announced the judgment|concurring|dissenting|with whom)|[A-Z][A-Za-z’'-]+, (?:Chief )?Justice\.$|PER CURIAM\.?$)",
        )
        .expect("valid regex")
    });
    text.chars().count() <= 160 && text.ends_with('.') && OPENING.is_match(text)
}

/// Depth of a lettered clause `(a)`; `(iv)` is one deeper, `(A)` two deeper.
const PAREN_LETTER: u32 = 10;

/// The numbering of a clause that opens with a letter or numeral in parentheses: `(a)`,
/// `(iv)`, `(B)`, with the byte offset of the text after it. `(i)` is a numeral unless it
/// follows a clause `(h)` (`last_letter`). Numbers (`(1)`) are left to footnotes and lists.
fn paren_clause(text: &str, last_letter: Option<char>) -> Option<(Numbering, usize)> {
    let inner = text.strip_prefix('(')?;
    let close = inner.find(')')?;
    let label = &inner[..close];
    let after = 1 + close + 1;
    if !text[after..].starts_with(' ') || label.is_empty() || label.len() > 4 {
        return None;
    }
    let first = label.chars().next()?;
    let one_lower = label.len() == 1 && first.is_ascii_lowercase();
    let follows_letter = one_lower && last_letter.is_some_and(|p| (p as u8 + 1) as char == first);
    let numeral = label.chars().all(|c| "ivxl".contains(c)) && roman_to_int(label).is_some();
    let depth = if numeral && !follows_letter {
        PAREN_LETTER + 1
    } else if one_lower {
        PAREN_LETTER
    } else if label.len() == 1 && first.is_ascii_uppercase() {
        PAREN_LETTER + 2
    } else {
        return None;
    };
    let rest = after + text[after..].len() - text[after..].trim_start().len();
    Some((
        Numbering {
            kind: NumberingKind::Clause,
            label: format!("({label})"),
            depth,
        },
        rest,
    ))
}

/// The numbering of a centred line that is only an Arabic number up to 30 (`1`, `2.`): the
/// third level of an opinion's parts (I → A → 1).
fn numbered_part_marker(text: &str) -> Option<Numbering> {
    let bare = text.trim().trim_end_matches('.');
    let n: u32 = bare.parse().ok().filter(|n| (1..=30).contains(n))?;
    (bare.len() <= 2).then(|| Numbering {
        kind: NumberingKind::Clause,
        label: n.to_string(),
        depth: 2,
    })
}

/// Whether a line sits among the text of its page, not where page numbers go: away from the
/// top and bottom tenth of the page, and followed by more text of its own block.
fn inside_text_column(lines: &[FlatLine], pos: usize) -> bool {
    let l = &lines[pos];
    let height = l.page_size.1.max(1.0);
    let y = l.line.bbox.y0 / height;
    let followed = lines
        .get(pos + 1)
        .is_some_and(|n| n.page_no == l.page_no && n.block_idx == l.block_idx);
    (0.1..=0.9).contains(&y) && followed
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
    "under", "upon", "with", "without", "not", "its", "their", "other", "etc", "is", "all", "any",
    "per", "between", "after", "before", "during", "within", "through",
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
/// quotes, with its alternatives, followed by "means", "has the meaning" or a redaction
/// (`“Effective Date” means …` gives `“Effective Date”`, `“Control” or “Controlled” means …`
/// gives `“Control” or “Controlled”`, `“Cost of Manufacture” [***].` gives `“Cost of
/// Manufacture”`), a clause redacted whole (`[***].` gives `[***]`), or a phrase of 1 to 12
/// words in title case ended by a period (`Performance by Affiliates or Subcontractors.
/// Either Party …`). `None` for a sentence.
fn run_in_title(rest: &str) -> Option<String> {
    let rest = rest.trim_start();
    if rest.starts_with(['“', '"']) {
        return defined_terms(rest);
    }
    let end = rest
        .char_indices()
        .find(|&(i, c)| c == '.' && rest[i + 1..].chars().next().is_none_or(char::is_whitespace))
        .map(|(i, _)| i)?;
    let phrase = rest[..end].trim();
    if is_redaction(phrase) {
        return Some(phrase.to_string());
    }
    let words = phrase.split_whitespace().count();
    ((1..=12).contains(&words)
        && !phrase.chars().any(|c| c.is_ascii_digit())
        && reads_as_title(phrase))
    .then(|| phrase.to_string())
}

/// A redaction mark as filed agreements print it: `[***]`, `[*]`, `[* * *]`.
fn is_redaction(text: &str) -> bool {
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'));
    inner.is_some_and(|i| !i.is_empty() && i.chars().all(|c| c == '*' || c == ' '))
}

/// The defined terms that open a definition clause (`“Cover”, “Covering” or “Covered” means
/// …` gives `“Cover”, “Covering” or “Covered”`): one to four quoted terms of 1 to 8 words,
/// joined by commas, "or" or "and", then a defining verb or a redaction. Straight quotes
/// are written as curly ones.
fn defined_terms(text: &str) -> Option<String> {
    let mut terms: Vec<(&str, &str)> = Vec::new(); // (joiner before, term)
    let mut rest = text;
    let mut joiner = "";
    loop {
        let quoted = rest.strip_prefix(['“', '"'])?;
        let close = quoted.find(['”', '"'])?;
        let term = quoted[..close].trim();
        let words = term.split_whitespace().count();
        if !(1..=8).contains(&words) || terms.len() == 4 {
            return None;
        }
        terms.push((joiner, term));
        let after = quoted[close..].trim_start_matches(['”', '"']);
        let next = after.trim_start_matches([',', ' ']);
        let lower = next.to_lowercase();
        let connector = ["or ", "and "].into_iter().find(|w| lower.starts_with(w));
        let comma = after.trim_start().starts_with(',');
        match connector {
            Some(w) if next[w.len()..].trim_start().starts_with(['“', '"']) => {
                joiner = if comma {
                    ", or "
                } else if w == "or " {
                    " or "
                } else {
                    " and "
                };
                if comma && w == "and " {
                    joiner = ", and ";
                }
                rest = next[w.len()..].trim_start();
            }
            _ if comma && next.starts_with(['“', '"']) => {
                joiner = ", ";
                rest = next;
            }
            _ => {
                let defines = [
                    "means",
                    "shall mean",
                    "has the meaning",
                    "shall have the meaning",
                ]
                .iter()
                .any(|w| lower.starts_with(w))
                    || next
                        .split_once(']')
                        .is_some_and(|(mark, _)| is_redaction(&format!("{mark}]")));
                if !defines {
                    return None;
                }
                break;
            }
        }
    }
    Some(
        terms
            .iter()
            .map(|(joiner, term)| format!("{joiner}“{term}”"))
            .collect(),
    )
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

/// Rank of a numbering among headings of one size: PART, then ARTICLE and the attachments of
/// a contract, Item, sections by depth, notes, unnumbered headings. A filing's exhibit number
/// (`Exhibit 10.22` over a contract's name) labels the document and ranks as unnumbered, so
/// the contract's own title is not nested under it.
fn kind_rank(n: &Option<Numbering>) -> (u32, u32) {
    match n {
        None => (5, 0),
        Some(n) => match n.kind {
            NumberingKind::Part => (0, 0),
            NumberingKind::Article => (1, 0),
            NumberingKind::Exhibit if n.label.contains('.') => (5, 0),
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
