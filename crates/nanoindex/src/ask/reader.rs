//! The reader: between the pages read and the answer, finds the span that answers the
//! question, without a generative model's judgement.
//!
//! For each part of the question ([`answer_type::parts`]) it takes the answer type
//! ([`answer_type::classify`]) and reads every sentence and table row of the pages read:
//! - spans of that type ([`spans::find`]) in sentences, scored by how well the sentence
//!   matches the question's terms (IDF-weighted coverage), how near the matched terms stand to
//!   the span, the page's retrieval rank and the question's years;
//! - for figures, table cells: the row whose label matches the question's metric, in the
//!   column of the question's year, with the statement's scale ("in millions") and currency;
//! - for ratios and margins, inputs read from statement rows and computed here (the formula
//!   shown, each input cited);
//! - for definitions, the sentence that defines the term; for yes/no and free text, the best
//!   sentence (quoted, never restated).
//!
//! A part is answered when its best candidate's sentence covers enough of the question
//! ([`MIN_COVERAGE`]); else it is not found, and the answer says so.

use std::collections::HashSet;
use std::sync::LazyLock;

use nanoindex_core::NodeId;
use nanoindex_retrieve::analysis::{is_year, numbers_in, tokenize, MONTHS};
use nanoindex_retrieve::table::read_cell_in;
use nanoindex_retrieve::{PageHit, QueryAnalysis, RetrievalIndex, Snippet, Statement};
use regex::Regex;
use serde::{Deserialize, Serialize};

use super::answer_type::{self, AnswerType};
use super::choice;
use super::compare;
use super::spans;
use crate::text::{sentences, Cuts};

/// A term as the reader compares it: the index term ([`tokenize`]) reduced to its Porter2
/// (Snowball English) stem, so that "filed" matches "file" and "incentives" "incentive".
/// Retrieval keeps its own terms; stems are only compared within the reader.
#[must_use]
pub fn stem(term: &str) -> String {
    static STEMMER: LazyLock<rust_stemmers::Stemmer> =
        LazyLock::new(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English));
    if term.starts_with(|c: char| c.is_ascii_digit()) {
        return term.to_string();
    }
    STEMMER.stem(term).into_owned()
}

/// The stems of `text`'s index terms, in order.
#[must_use]
pub fn stems(text: &str) -> Vec<String> {
    tokenize(text).iter().map(|t| stem(t)).collect()
}

/// Least IDF-weighted share of a part's question terms that the answering sentence (or table
/// row label) must hold; below it the part is not found.
pub const MIN_COVERAGE: f32 = 0.34;

/// Candidates kept per part (for the model's choice and the trace).
const KEPT: usize = 5;

/// Characters of a quoted sentence at most; longer ones are cut around the value.
const MAX_QUOTE: usize = 220;

/// One candidate answer to a part.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Candidate {
    /// The value as the answer states it (`March 1, 2021`, `$1,577 million`, `0.69`).
    pub value: String,
    /// The value as written in the document (`(1,577)`), when it differs from `value`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// The quoted sentence or table row that holds it.
    pub quote: String,
    /// 1-based page of the quote.
    pub page_no: u32,
    /// Score in `[0, ~1.2]`: coverage, proximity, page rank, period.
    pub score: f32,
    /// IDF-weighted share of the question's terms in the quote (or the row label).
    pub coverage: f32,
    /// For a table cell: the row label and the column's year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<(String, u32)>,
    /// For a computed value: the formula with its inputs (`4,366 / 7,244 = 0.60`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computation: Option<String>,
    /// The snippets to cite (the quote's lines; each input row for a computation).
    #[serde(skip)]
    pub cite: Vec<Snippet>,
}

/// Score of a value computed from cited rows (a ratio, a change, a choice): above any
/// read span, for the question named what to compute.
const COMPUTED_SCORE: f32 = 1.2;

impl Candidate {
    /// A value computed here from cited rows (a ratio, a change, a choice): `value` is what
    /// the answer states, `computation` the formula with its inputs; quoted and paged by the
    /// first of `cite`.
    pub(super) fn computed(value: String, computation: String, cite: Vec<Snippet>) -> Candidate {
        Candidate {
            quote: cite.first().map(|s| s.text.clone()).unwrap_or_default(),
            page_no: cite.first().map_or(0, |s| s.page_no),
            value,
            written: None,
            score: COMPUTED_SCORE,
            coverage: 1.0,
            cell: None,
            computation: Some(computation),
            cite,
        }
    }

    /// A passage as its own answer (yes/no, free text, a cause): `quote` (of `unit`) is the
    /// value, the quote and the cited text.
    fn quoted(unit: &Unit, quote: String, score: f32, coverage: f32) -> Candidate {
        let mut snippet = snippet_of(unit, score, None);
        snippet.text.clone_from(&quote);
        Candidate {
            value: quote.clone(),
            written: None,
            quote,
            page_no: unit.page_no,
            score,
            coverage,
            cell: None,
            computation: None,
            cite: vec![snippet],
        }
    }
}

/// The reading of one part of a question.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PartReading {
    /// The part's question text.
    pub question: String,
    /// Its answer type.
    pub kind: AnswerType,
    /// Best candidates, best first (empty when nothing of the type was found).
    pub candidates: Vec<Candidate>,
    /// Whether the best candidate answers the part (coverage at least [`MIN_COVERAGE`]).
    pub answered: bool,
}

impl PartReading {
    /// The chosen candidate, when the part is answered.
    #[must_use]
    pub fn answer(&self) -> Option<&Candidate> {
        self.candidates.first().filter(|_| self.answered)
    }
}

/// A unit of reading: one sentence of prose or one table row, on one page.
pub(super) struct Unit {
    text: String,
    first: usize,
    last: usize,
    page_no: u32,
    node_id: NodeId,
    row: bool,
    terms: Vec<String>,
    /// The stems of the sentence before it in the same paragraph (empty for first
    /// sentences): the topic a sentence continues ("We evaluated … using SunSpider, the
    /// benchmark suite. SunSpider consists of 26 … programs."). For a table row, the stems of
    /// the group label above it, a line ending in a colon ("Net sales by category:" over
    /// "iPhone 39,669 …"), empty when there is none.
    context: Vec<String>,
}

/// Stems a sentence stands for without writing them, by the conventions of legal documents:
/// a signature block ("By: /s/ Jane Roe") is where a party signed or executed on its behalf;
/// "a unanimous Court" or "7-2" is a vote; an opinion's byline ("HUDSON, Justice.") or
/// "delivered the opinion" names who wrote it; a definition (`“Applicable Rate” means …`)
/// defines. And of papers: an author block (names separated by commas, with affiliation
/// marks: "Andreas Gal∗+, Brendan Eich∗, …") names the authors; a venue line ("PLDI’09, June
/// 15–20, 2009, Dublin, Ireland.") where the conference was held.
fn implied_terms(sentence: &str) -> Vec<String> {
    static AUTHORS: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?:\s*[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][A-Za-z'-]+[∗*†‡+#$\d]+\s*,){2,}",
        )
        .expect("pattern")
    });
    static VENUE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"^[A-Z]{2,}\s?[’']\d{2},\s+[A-Z][a-z]+\.?\s+\d{1,2}\s*[–-]\s*\d{1,2},\s+\d{4},",
        )
        .expect("pattern")
    });
    static BYLINE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(&format!("^{}|delivered the opinion", spans::BYLINE)).expect("pattern")
    });
    static VOTE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bunanimous|\b\d\s*[-–]\s*\d\s+(?:vote|decision|majority)")
            .expect("pattern")
    });
    static DEFINITION: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"^\s*[“"][^”"]{2,60}[”"]\s*,?\s*(?:shall\s+)?means?\b"#)
            .expect("pattern")
    });
    let mut out: Vec<&str> = Vec::new();
    if AUTHORS.is_match(sentence) {
        out.extend(["author", "wrote", "first"]);
    }
    if VENUE.is_match(sentence.trim()) {
        out.extend(["confer", "held", "venu"]);
    }
    if DEFINITION.is_match(sentence) {
        out.extend(["defin", "mean"]);
    }
    if spans::is_signature_line(sentence) {
        out.extend(["sign", "signatori", "execut", "behalf"]);
    }
    if VOTE.is_match(sentence) {
        out.push("vote");
    }
    if BYLINE.is_match(sentence.trim()) {
        out.extend(["wrote", "author", "opinion"]);
    }
    out.into_iter().map(String::from).collect()
}

/// Share of a sentence's coverage that the sentence before it can lend.
const CONTEXT_WEIGHT: f32 = 0.8;

/// Coverage of `unit`: its own terms' share, or (at [`CONTEXT_WEIGHT`]) that of its terms
/// with the preceding sentence's, whichever is higher.
fn unit_coverage(weights: &[(String, f32)], unit: &Unit) -> f32 {
    let own = coverage(weights, &unit.terms);
    if unit.context.is_empty() {
        return own;
    }
    let with_context = coverage_by(weights, |t| {
        unit.terms.contains(t) || unit.context.contains(t)
    });
    own.max(CONTEXT_WEIGHT * with_context)
}

/// What the reader needs of the document and the retrieval run.
pub struct ReaderInput<'a> {
    /// The retrieval index.
    pub index: &'a RetrievalIndex,
    /// The page ranking of the question (for page rank).
    pub ranking: &'a [PageHit],
    /// Pages read, in order.
    pub pages: &'a [u32],
    /// Whether text reads as addressed to a model: such a candidate is read as data at
    /// [`INSTRUCTION_FACTOR`] of its score, so that a true answer beside it wins.
    pub addressed_to_model: &'a dyn Fn(&str) -> bool,
}

/// Reads the pages for `question`: one [`PartReading`] per part.
#[must_use]
pub fn read(input: &ReaderInput<'_>, question: &str) -> Vec<PartReading> {
    let units = units(input);
    let whole = QueryAnalysis::new(question);
    let naming = naming_terms(input);
    answer_type::parts(question)
        .into_iter()
        .map(|part| {
            let mut query = QueryAnalysis::new(&part);
            if query.years.is_empty() {
                query.years.clone_from(&whole.years);
            }
            if query.statement.is_none() {
                query.statement = whole.statement;
            }
            // Instructions after the question ("Answer in USD billions") decide the unit.
            query.question = question.to_string();
            read_part(input, &units, &part, &query, &naming)
        })
        .collect()
}

/// Share of its score that a candidate quoting text addressed to a model keeps.
pub const INSTRUCTION_FACTOR: f32 = 0.5;

/// Weight of a question term that names the document rather than the fact asked for.
const NAMING_WEIGHT: f32 = nanoindex_retrieve::index::NAMING_WEIGHT;

/// Stems of the terms that name the document (see
/// [`RetrievalIndex::naming_text`](nanoindex_retrieve::RetrievalIndex::naming_text)):
/// questions name the document ("under the Reynolds transition services agreement",
/// "Apple's"), while the sentence that answers rarely repeats it.
fn naming_terms(input: &ReaderInput<'_>) -> HashSet<String> {
    stems(input.index.naming_text()).into_iter().collect()
}

fn read_part(
    input: &ReaderInput<'_>,
    units: &[Unit],
    part: &str,
    query: &QueryAnalysis,
    naming: &HashSet<String>,
) -> PartReading {
    let weights = term_weights(input.index, query, naming);
    let mut kind = answer_type::classify(part);
    let mut candidates = Vec::new();
    if kind == AnswerType::Change {
        if let Some(asked) = compare::asked(part, &query.years) {
            candidates = compare::candidates(input, units, query, &weights, part, asked);
        }
        if candidates.is_empty() {
            // No metric read for two periods: the question is read as it is worded.
            kind = answer_type::classify_wording(part);
        }
    }
    if kind == AnswerType::Choice {
        if let Some(asked) = choice::asked(part) {
            candidates = choice::candidates(input, units, query, naming, &asked);
        }
        if candidates.is_empty() {
            // An option without a row: the question is read as it is worded.
            kind = answer_type::classify_wording(part);
        }
    }
    candidates.extend(match kind {
        AnswerType::Change | AnswerType::Choice => Vec::new(),
        AnswerType::Ratio => ratio_candidates(input, query, part)
            .into_iter()
            .chain(cell_candidates(input, units, query, &weights, kind))
            .collect(),
        AnswerType::Amount | AnswerType::Percentage if !query.years.is_empty() => {
            let mut c = cell_candidates(input, units, query, &weights, kind);
            c.extend(span_candidates(
                input, units, part, query, &weights, naming, kind,
            ));
            c
        }
        AnswerType::Amount | AnswerType::Percentage | AnswerType::Count => {
            let mut c = span_candidates(input, units, part, query, &weights, naming, kind);
            if kind != AnswerType::Count {
                c.extend(cell_candidates(input, units, query, &weights, kind));
            }
            c
        }
        AnswerType::Definition => definition_candidates(input, units, part, &weights),
        AnswerType::Text if answer_type::asks_cause(part) => {
            let mut c = cause_candidates(input, units, &weights);
            c.extend(sentence_candidates(input, units, &weights));
            c
        }
        AnswerType::YesNo | AnswerType::Text => sentence_candidates(input, units, &weights),
        _ => span_candidates(input, units, part, query, &weights, naming, kind),
    });
    for c in &mut candidates {
        if (input.addressed_to_model)(&c.quote) {
            c.score *= INSTRUCTION_FACTOR;
        }
    }
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.page_no.cmp(&b.page_no)));
    // One candidate per value (the best-scored place that states it).
    let mut seen = HashSet::new();
    candidates.retain(|c| seen.insert(normalise_value(&c.value)));
    candidates.truncate(KEPT);
    let answered = candidates
        .first()
        .is_some_and(|c| c.coverage >= MIN_COVERAGE || c.computation.is_some());
    PartReading {
        question: part.to_string(),
        kind,
        candidates,
        answered,
    }
}

/// A value compared across places: lowercase, letters and digits only.
#[must_use]
pub fn normalise_value(value: &str) -> String {
    value
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Sentences and table rows of the pages read, in page order.
fn units(input: &ReaderInput<'_>) -> Vec<Unit> {
    let lines = input.index.lines();
    let mut out = Vec::new();
    for &page in input.pages {
        let ids = input.index.page_line_ids(page);
        // A line of figures that the next line of its passage continues in lower case is
        // prose wrapped at a number (the one rule, `RetrievalIndex::is_row`).
        let is_row = |k: usize| input.index.is_row(ids[k]);
        let mut i = 0;
        // The stems of the last line ending in a colon, while only rows have followed it.
        let mut group: Vec<String> = Vec::new();
        while i < ids.len() {
            let id = ids[i];
            let line = &lines[id];
            if is_contents_line(&line.text) {
                i += 1;
                continue;
            }
            let node_id = input.index.passages()[line.passage].node_id.clone();
            if is_row(i) {
                out.push(Unit {
                    text: line.text.trim().to_string(),
                    first: id,
                    last: id,
                    page_no: page,
                    node_id,
                    row: true,
                    terms: input.index.line_terms(id).iter().map(|t| stem(t)).collect(),
                    context: group.clone(),
                });
                i += 1;
                continue;
            }
            // A paragraph: the run of prose lines of one passage; then its sentences.
            let mut j = i;
            let mut text = String::new();
            let mut starts: Vec<(usize, usize)> = Vec::new();
            while j < ids.len() {
                let l = &lines[ids[j]];
                if l.passage != line.passage || is_row(j) || is_contents_line(&l.text) {
                    break;
                }
                // A word broken at the line end ("termi-" / "nation") is joined.
                if !(text.is_empty()
                    || text.ends_with('-') && l.text.starts_with(char::is_lowercase))
                {
                    text.push(' ');
                }
                starts.push((text.len(), ids[j]));
                text.push_str(l.text.trim());
                j += 1;
            }
            let line_at = |offset: usize| {
                starts
                    .iter()
                    .rev()
                    .find(|(s, _)| *s <= offset)
                    .map_or(ids[i], |(_, id)| *id)
            };
            group = if text.trim_end().ends_with(':') {
                sentences(&text, 0..text.len(), Cuts::Clauses)
                    .last()
                    .map(|r| stems(&text[r.clone()]))
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            let mut previous: Vec<String> = Vec::new();
            for range in sentences(&text, 0..text.len(), Cuts::Clauses) {
                let sentence = text[range.clone()].trim();
                if sentence.len() < 3 {
                    continue;
                }
                let mut terms = stems(sentence);
                terms.extend(implied_terms(sentence));
                out.push(Unit {
                    text: sentence.to_string(),
                    first: line_at(range.start),
                    last: line_at(range.end.saturating_sub(1)),
                    page_no: page,
                    node_id: node_id.clone(),
                    row: false,
                    terms: terms.clone(),
                    context: std::mem::replace(&mut previous, terms),
                });
            }
            i = j.max(i + 1);
        }
    }
    out
}

/// A table-of-contents line: dot leaders, or a short title ending in a page number.
fn is_contents_line(text: &str) -> bool {
    text.contains("....") || text.contains(". . .") || text.contains("……")
}

/// IDF weights of the question's terms (1× its own terms, ½× the metric expansions that
/// occur in the document, [`NAMING_WEIGHT`]× a term that names the document).
pub(super) fn term_weights(
    index: &RetrievalIndex,
    query: &QueryAnalysis,
    naming: &HashSet<String>,
) -> Vec<(String, f32)> {
    let asks: HashSet<&str> = ["date", "when", "much", "many", "name", "long"]
        .into_iter()
        .collect();
    let mut out: Vec<(String, f32)> = Vec::new();
    for t in &query.terms {
        // Years are the period, scored apart; type words ("date") are what the span is.
        if t.parse::<u32>().is_ok_and(is_year) || asks.contains(t.as_str()) {
            continue;
        }
        let s = stem(t);
        let naming_factor = if naming.contains(&s) {
            NAMING_WEIGHT
        } else {
            1.0
        };
        let w = naming_factor * index.idf(t).max(0.1);
        match out.iter_mut().find(|(o, _)| *o == s) {
            Some(existing) => existing.1 = existing.1.max(w),
            None => out.push((s, w)),
        }
    }
    // A metric's other names that this document never uses cannot be in any of its
    // sentences: weighing them would only lower every sentence's coverage.
    for t in query.expansions.iter().filter(|t| index.doc_freq(t) > 0) {
        let s = stem(t);
        if !out.iter().any(|(o, _)| *o == s) {
            out.push((s, 0.5 * index.idf(t).max(0.1)));
        }
    }
    out
}

/// Words that name a reporting period ("the three months ended July 1", "fiscal quarter"),
/// besides the month names:
/// they choose a column or a sentence's period, never a row label or the metric.
const PERIOD_WORDS: &[&str] = &[
    "three", "six", "nine", "twelve", "months", "weeks", "quarter", "ended", "ending", "period",
    "fiscal", "year", "annual", "first", "second", "third", "fourth", "q1", "q2", "q3", "q4",
    "ytd",
];

/// Whether `term` (a stem) names a period (a [`PERIOD_WORDS`] stem, `fy2023`) or is a number.
fn is_period_term(term: &str) -> bool {
    static STEMS: LazyLock<HashSet<String>> = LazyLock::new(|| {
        PERIOD_WORDS
            .iter()
            .chain(&MONTHS)
            .map(|w| stem(w))
            .collect()
    });
    STEMS.contains(term) || term.parse::<f64>().is_ok() || term.starts_with("fy")
}

/// IDF-weighted share of the weighted terms present in `terms`.
fn coverage(weights: &[(String, f32)], terms: &[String]) -> f32 {
    coverage_by(weights, |t| terms.contains(t))
}

/// IDF-weighted share of the weighted terms for which `present` holds.
fn coverage_by(weights: &[(String, f32)], present: impl Fn(&String) -> bool) -> f32 {
    let total: f32 = weights.iter().map(|(_, w)| w).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let found: f32 = weights
        .iter()
        .filter(|(t, _)| present(t))
        .map(|(_, w)| w)
        .sum();
    found / total
}

/// Words a clause boundary counts as, between a term and the span.
const CLAUSE_WORDS: usize = 8;

/// How near the question's terms stand to the span (byte range) in the sentence: for each
/// matched term, 1 / (1 + words between / 4), IDF-weighted; 0 when none matches. A term in
/// another clause (after a semicolon, or ", and" / ", but" / ", while") counts
/// [`CLAUSE_WORDS`] farther per boundary: in "briefing will conclude on August 17, and oral
/// argument has been scheduled for September 15" the argument's date is the second.
fn proximity(weights: &[(String, f32)], sentence: &str, span: &std::ops::Range<usize>) -> f32 {
    // (byte offset, stems, clause number) of each word.
    let mut words: Vec<(usize, Vec<String>, usize)> = Vec::new();
    let mut pos = 0;
    let mut clause = 0;
    let mut previous = "";
    for word in sentence.split_whitespace() {
        let at = sentence[pos..].find(word).map_or(pos, |i| pos + i);
        let lower = word.to_lowercase();
        if previous.ends_with(';')
            || (previous.ends_with(',')
                && ["and", "but", "while", "whereas"].contains(&lower.as_str()))
        {
            clause += 1;
        }
        words.push((at, stems(word), clause));
        pos = at + word.len();
        previous = word;
    }
    let span_word = words
        .iter()
        .position(|(at, _, _)| *at >= span.start)
        .unwrap_or(words.len());
    let span_clause = words.get(span_word).map_or(clause, |w| w.2);
    let (mut got, mut total) = (0.0, 0.0);
    for (term, w) in weights {
        let nearest = words
            .iter()
            .enumerate()
            .filter(|(_, (_, ts, _))| ts.contains(term))
            .map(|(i, (_, _, c))| i.abs_diff(span_word) + CLAUSE_WORDS * c.abs_diff(span_clause))
            .min();
        if let Some(d) = nearest {
            got += w / (1.0 + d as f32 / 4.0);
            total += w;
        }
    }
    if total > 0.0 {
        got / total
    } else {
        0.0
    }
}

/// The page's retrieval score relative to the best page, in `[0, 1]`.
fn page_rank(input: &ReaderInput<'_>, page: u32) -> f32 {
    let top = input.ranking.first().map_or(1.0, |h| h.score.max(1e-6));
    input
        .ranking
        .iter()
        .find(|h| h.page_no == page)
        .map_or(0.0, |h| (h.score / top).clamp(0.0, 1.0))
}

/// Years ([`YEARS`](nanoindex_retrieve::analysis::YEARS)) written in `text`.
fn years_of(text: &str) -> Vec<u32> {
    tokenize(text)
        .iter()
        .filter_map(|t| t.parse::<u32>().ok())
        .filter(|&y| is_year(y))
        .collect()
}

/// Whether the text before a date ends by naming it as a document's date: "…, dated" or
/// "dated as of".
fn dates_a_document(before: &str) -> bool {
    let words: Vec<String> = before
        .split_whitespace()
        .rev()
        .take(3)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    match words.as_slice() {
        [last, ..] if last == "dated" => true,
        [of, as_, dated, ..] => of == "of" && as_ == "as" && dated == "dated",
        _ => false,
    }
}

/// A list of two or three years in a sentence ("2022 and 2021", "2022, 2021 and 2020").
static YEAR_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b((?:19|20)\d{2})(?:,\s*((?:19|20)\d{2}))?,?\s+and\s+((?:19|20)\d{2})\b")
        .expect("valid regex")
});

/// The year a figure of `text` is stated for when the sentence pairs lists: its figures of
/// one kind (`spans`, in order) stand in a list ("156,000 and 142,000") as long as the
/// sentence's one list of years ("As of December 31, 2022 and 2021"), and `span` is the
/// k-th of that list, so its year is the k-th year (the convention of "…, respectively").
/// `None` when the sentence does not pair them so.
fn paired_year(
    text: &str,
    spans: &[std::ops::Range<usize>],
    span: &std::ops::Range<usize>,
) -> Option<u32> {
    let mut lists = YEAR_LIST.captures_iter(text);
    let years: Vec<u32> = lists
        .next()?
        .iter()
        .skip(1)
        .flatten()
        .filter_map(|m| m.as_str().parse().ok())
        .collect();
    if lists.next().is_some() {
        return None;
    }
    // The figures' lists: neighbours joined only by commas and "and".
    let joined = |a: &std::ops::Range<usize>, b: &std::ops::Range<usize>| {
        text.get(a.end..b.start).is_some_and(|between| {
            let rest = between.trim().trim_start_matches(',').trim();
            rest.is_empty() || rest == "and"
        })
    };
    let at = spans.iter().position(|s| s == span)?;
    let mut first = at;
    while first > 0 && joined(&spans[first - 1], &spans[first]) {
        first -= 1;
    }
    let mut last = at;
    while last + 1 < spans.len() && joined(&spans[last], &spans[last + 1]) {
        last += 1;
    }
    (last - first + 1 == years.len() && years.len() >= 2).then(|| years[at - first])
}

/// Words that end the noun phrase after "how many": auxiliaries, verbs and prepositions.
const NOUN_PHRASE_ENDS: &[&str] = &[
    "did", "does", "do", "was", "were", "is", "are", "has", "have", "had", "will", "would", "can",
    "could", "shall", "should", "may", "might", "must", "in", "at", "of", "for", "on", "by",
    "during", "under", "to", "from", "with", "that", "which", "who", "as", "after", "before",
    "since", "until", "between", "than", "per", "within", "into", "over", "across", "when",
    "where", "if", "the", "a", "an",
];

/// The counted noun of "how many …" / "number of …", as written and lowercased: the last word
/// of the noun phrase ("How many paid memberships did …" → `memberships`, "How many Boeing
/// employees were …" → `employees`).
pub(super) fn counted_noun(part: &str) -> Option<String> {
    let lower = part.to_lowercase();
    let at = lower
        .find("how many ")
        .map(|i| i + "how many ".len())
        .or_else(|| lower.find("number of ").map(|i| i + "number of ".len()))?;
    let words: Vec<String> = lower
        .get(at..)
        .unwrap_or_default()
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string())
        .take_while(|w| !w.is_empty() && !NOUN_PHRASE_ENDS.contains(&w.as_str()))
        .collect();
    words.last().cloned()
}

/// The singular stem of the counted noun ([`counted_noun`]: `stores` → `store`), or `vote`
/// for a question about a vote.
fn count_noun(part: &str) -> Option<String> {
    let lower = part.to_lowercase();
    if lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "vote" || w == "votes")
    {
        return Some("vote".to_string());
    }
    let noun = counted_noun(part)?;
    let noun = noun.as_str();
    let stem = noun.strip_suffix("ies").map_or_else(
        || noun.strip_suffix('s').unwrap_or(noun).to_string(),
        |s| format!("{s}y"),
    );
    (stem.len() >= 3).then_some(stem)
}

/// A quote of `unit` short enough to show: the sentence, or a window of it around `span`
/// cut at word boundaries.
fn quote(text: &str, span: Option<&std::ops::Range<usize>>) -> String {
    if text.len() <= MAX_QUOTE {
        return text.to_string();
    }
    let span = span.cloned().unwrap_or(0..0);
    let mut start = span.start.saturating_sub(MAX_QUOTE / 2);
    let mut end = (start + MAX_QUOTE).min(text.len()).max(span.end);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    if start > 0 {
        start = text[start..]
            .find(' ')
            .map_or(start, |i| start + i + 1)
            .min(span.start.max(start));
    }
    end = end.max(start);
    if end < text.len() {
        end = text[..end]
            .rfind(' ')
            .filter(|&e| e >= span.end)
            .unwrap_or(end);
    }
    text.get(start..end).unwrap_or(text).trim().to_string()
}

fn snippet_of(unit: &Unit, score: f32, header: Option<String>) -> Snippet {
    Snippet {
        line: unit.first,
        lines: (unit.first, unit.last),
        page_no: unit.page_no,
        node_id: unit.node_id.clone(),
        text: unit.text.clone(),
        header,
        score,
    }
}

/// Typed spans in the sentences of the pages read.
fn span_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    part: &str,
    query: &QueryAnalysis,
    weights: &[(String, f32)],
    naming: &HashSet<String>,
    kind: AnswerType,
) -> Vec<Candidate> {
    let noun = (kind == AnswerType::Count)
        .then(|| count_noun(part))
        .flatten();
    let asked: HashSet<String> = part
        .split(|c: char| c.is_whitespace() || c == '?')
        .map(normalise_value)
        .filter(|w| !w.is_empty())
        .collect();
    let asked_whole = normalise_value(part);
    let mut out = Vec::new();
    let figures = matches!(
        kind,
        AnswerType::Amount | AnswerType::Percentage | AnswerType::Count
    );
    // A governing-law question is answered by a sentence about law, not by any place named.
    let lower_part = part.to_lowercase();
    // A figure's sentence must name the metric, not only the period: the question's terms
    // without its period words ("total net sales" of "… for the three months ended July 1").
    let metric_weights: Vec<(String, f32)> = weights
        .iter()
        .filter(|(t, _)| !is_period_term(t))
        .cloned()
        .collect();
    let specific: Option<String> = metric_weights
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t.clone());
    // A date the question names ("on August 21, 2023", "as of June 30") constrains which
    // sentence answers: one that states it gains, one that states only other dates loses.
    let asked_dates: Vec<String> = if kind == AnswerType::Date {
        Vec::new()
    } else {
        spans::find(AnswerType::Date, part, None)
            .into_iter()
            .map(|r| normalise_value(&part[r]))
            .filter(|d| d.chars().any(char::is_alphabetic) || d.len() >= 6)
            .collect()
    };
    // "By how much does the bonus increase": a change may be a percentage.
    let change_by_percent = kind == AnswerType::Amount
        && [
            "increase", "decrease", "grow", "rise", "fall", "reduce", "change",
        ]
        .iter()
        .any(|w| lower_part.contains(w));
    let needs_law =
        kind == AnswerType::Place && (lower_part.contains("law") || lower_part.contains("govern"));
    // The question's own word stems (not the lexicon's expansions of its metric).
    let own_terms = stems(part);
    let noun_stems: Vec<String> = noun.as_deref().map(stems).unwrap_or_default();
    // An effective, due or expiry date is stated as such; "Service Bulletin 737–31–1860,
    // dated June 12, 2020" dates another document.
    let event_date = kind == AnswerType::Date
        && ["effect", "due", "expir"]
            .iter()
            .any(|w| lower_part.contains(w));
    for unit in units {
        // Table rows give figures through their cells; a "row" with a date or a name (a
        // line ending in a year) is read as a sentence, and so is a form's field for a count
        // of a named thing ("Number of participants 15, with plans to expand …").
        if unit.row && figures && noun.is_none() {
            continue;
        }
        // A sentence that counts the noun's group ("total workforce was approximately
        // 156,000") names the noun ("employees") for coverage.
        let names_group = noun.as_deref().is_some_and(|n| {
            let lower = unit.text.to_lowercase();
            spans::group_words(n).iter().any(|g| lower.contains(g))
        });
        let present =
            |t: &String| unit.terms.contains(t) || (names_group && noun_stems.contains(t));
        let cov = if names_group {
            unit_coverage(weights, unit).max(coverage_by(weights, present))
        } else {
            unit_coverage(weights, unit)
        };
        if cov <= 0.0 {
            continue;
        }
        // A governing-law clause governs or construes ("governed by", "construed in
        // accordance with the laws of"); "organised under the laws of" names no governing law.
        if needs_law
            && !unit
                .terms
                .iter()
                .any(|t| t.starts_with("govern") || t.starts_with("constru"))
        {
            continue;
        }
        let rank = page_rank(input, unit.page_no);
        let mut found = spans::find(kind, &unit.text, noun.as_deref());
        if change_by_percent {
            found.extend(spans::find(AnswerType::Percentage, &unit.text, None));
        }
        let date_fit = if asked_dates.is_empty() {
            0.0
        } else {
            let dates: Vec<String> = spans::find(AnswerType::Date, &unit.text, None)
                .into_iter()
                .map(|r| normalise_value(&unit.text[r]))
                .collect();
            if dates.iter().any(|d| asked_dates.contains(d)) {
                0.1
            } else if dates.is_empty() {
                0.0
            } else {
                -0.05
            }
        };
        // For a figure, half the sentence's coverage is the metric's own, in the figure's own
        // sentence; a figure whose sentence names none of the metric's words is another
        // metric's ("total deferred revenue of $12.2 billion" after a sentence about iPhone
        // net sales).
        let own_metric = coverage_by(&metric_weights, present);
        if figures && !metric_weights.is_empty() && own_metric <= 0.0 {
            continue;
        }
        let mut matched = if figures && !metric_weights.is_empty() {
            0.5 * cov + 0.5 * own_metric
        } else {
            cov
        };
        // The metric's most specific word ("iPhone" of "iPhone net sales") missing from the
        // figure's sentence: the figure is likely a broader one's ("Total net sales include
        // $3.3 billion …").
        if figures && specific.as_ref().is_some_and(|t| !unit.terms.contains(t)) {
            matched *= MISSING_SPECIFIC;
        }
        // "Who are the parties": every party the sentence names, as one value.
        if kind == AnswerType::Party && found.len() >= 2 && part.to_lowercase().contains("parties")
        {
            let names: Vec<&str> = found.iter().map(|r| unit.text[r.clone()].trim()).collect();
            let value = names.join(" and ");
            let span = found[0].start..found[found.len() - 1].end;
            let prox = proximity(weights, &unit.text, &span);
            let score = 0.6 * cov + 0.25 * prox + 0.15 * rank + 0.05;
            let q = quote(&unit.text, Some(&span));
            let mut snippet = snippet_of(unit, score, None);
            snippet.text.clone_from(&q);
            out.push(Candidate {
                value,
                written: None,
                quote: q,
                page_no: unit.page_no,
                score,
                coverage: cov,
                cell: None,
                computation: None,
                cite: vec![snippet],
            });
            found.clear();
        }
        if needs_law {
            // The place the law is of ("the laws of the State of New York"), not an address
            // beside a "Governing Law" heading.
            found.retain(|r| {
                let before = &unit.text[..r.start];
                let from = before.char_indices().rev().nth(60).map_or(0, |(i, _)| i);
                let window = before[from..].to_lowercase();
                window.contains("law") || window.contains("govern")
            });
        }
        if event_date {
            found.retain(|r| !dates_a_document(&unit.text[..r.start]));
        }
        // A count stated as a share of a whole ("Approximately 50,000 employees, which
        // constitute 32% of our total workforce, were union represented") counts a part: it
        // answers a question that names the part ("union"), never one about the whole.
        let part_of_whole = kind == AnswerType::Count
            && SHARE_OF_WHOLE.is_match(&unit.text)
            && !own_terms.iter().any(|t| {
                !is_period_term(t)
                    && !naming.contains(t)
                    && noun
                        .as_deref()
                        .is_none_or(|n| !t.starts_with(n) && !n.starts_with(t.as_str()))
                    && unit.terms.contains(t)
            });
        if part_of_whole {
            continue;
        }
        let found_all = found.clone();
        for span in found {
            let value = unit.text[span.clone()].trim().to_string();
            let norm = normalise_value(&value);
            // What the question itself names is not its answer.
            // A value the question itself states (a year, "Section 3") is not its answer.
            let stated = asked.contains(&norm)
                || (value.split_whitespace().count() > 1 && asked_whole.contains(&norm));
            if norm.is_empty() || stated {
                continue;
            }
            let prox = proximity(weights, &unit.text, &span);
            let defines = names_defined_term(weights, &unit.text, &span);
            let (cov, matched) = if defines {
                (cov.max(MIN_COVERAGE), matched.max(MIN_COVERAGE))
            } else {
                (cov, matched)
            };
            let mut score = 0.6 * matched
                + 0.25 * prox
                + 0.15 * rank
                + date_fit
                + if defines { 0.25 } else { 0.0 };
            // A figure the question asks to read from a statement is a cell, not prose.
            if figures && query.statement.is_some() {
                score -= 0.2;
            }
            // "156,000 and 142,000" of "As of December 31, 2022 and 2021": each figure of a
            // list is the year in the same place of the sentence's list of years.
            if figures
                && paired_year(&unit.text, &found_all, &span)
                    .is_some_and(|y| !query.years.is_empty() && !query.years.contains(&y))
            {
                continue;
            }
            if !query.years.is_empty()
                && matches!(
                    kind,
                    AnswerType::Amount | AnswerType::Percentage | AnswerType::Count
                )
            {
                // A sentence that dates its figures to other years only states another
                // period's figure ("$5,662 million … at December 31, 2022 and 2021" for FY2018).
                let years = years_of(&unit.text);
                if years.iter().any(|y| query.years.contains(y)) {
                    score += 0.1;
                } else if !years.is_empty() {
                    continue;
                }
            }
            let mut q = quote(&unit.text, Some(&span));
            if !q.contains(&value) {
                q = unit.text.clone();
            }
            let mut snippet = snippet_of(unit, score, None);
            snippet.text.clone_from(&q);
            out.push(Candidate {
                value,
                written: None,
                quote: q,
                page_no: unit.page_no,
                score,
                coverage: cov,
                cell: None,
                computation: None,
                cite: vec![snippet],
            });
        }
    }
    out
}

/// Characters between a span and a quoted defined term that labels it.
const DEFINED_TERM_REACH: usize = 80;

/// Whether a quoted term near the span (`February 4, 2020 (the “Commencement Date”)`,
/// `“Servicing Fee Rate” means 0.75%`) holds a question term: a contract's own label for the
/// value, the strongest sign that the span is what the question names. A definition that
/// opens its sentence (`“Applicable Rate” means …`) labels every value of the sentence.
fn names_defined_term(
    weights: &[(String, f32)],
    sentence: &str,
    span: &std::ops::Range<usize>,
) -> bool {
    static QUOTED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"[“"]([^”"]{2,60})[”"]"#).expect("pattern")
    });
    QUOTED.captures_iter(sentence).any(|c| {
        let Some(m) = c.get(1) else { return false };
        // A definition ("“Applicable Rate” means … plus two percent (2%)") labels every
        // value of its sentence.
        let defines_sentence = sentence[..m.start()]
            .trim_start_matches([' ', '“', '"'])
            .is_empty()
            && sentence[m.end()..]
                .trim_start_matches(['”', '"', ' ', ','])
                .to_lowercase()
                .starts_with("mean");
        let near = defines_sentence
            || (m.start() <= span.end + DEFINED_TERM_REACH
                && span.start <= m.end() + DEFINED_TERM_REACH);
        let terms = stems(m.as_str());
        // A full-weight question term (not one naming the document, not an expansion); for a
        // definition, any question term in the defined term.
        let strongest = weights.iter().map(|(_, w)| *w).fold(0.0_f32, f32::max);
        let least = if defines_sentence { 0.2 } else { 0.5 };
        near && weights
            .iter()
            .any(|(t, w)| terms.contains(t) && *w >= least * strongest)
    })
}

/// Sentences that define the term the question asks about.
fn definition_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    part: &str,
    weights: &[(String, f32)],
) -> Vec<Candidate> {
    let term = defined_term(part);
    let mut out = Vec::new();
    for unit in units.iter().filter(|u| !u.row) {
        let cov = coverage(weights, &unit.terms);
        let Some(span) = term
            .as_deref()
            .and_then(|t| spans::definition(&unit.text, t))
        else {
            continue;
        };
        let rank = page_rank(input, unit.page_no);
        let score = 0.6 * cov.max(MIN_COVERAGE) + 0.25 + 0.15 * rank;
        let q = quote(&unit.text[span.clone()], None);
        let mut snippet = snippet_of(unit, score, None);
        snippet.text.clone_from(&q);
        out.push(Candidate {
            value: q.clone(),
            written: None,
            quote: q,
            page_no: unit.page_no,
            score,
            coverage: cov.max(MIN_COVERAGE),
            cell: None,
            computation: None,
            cite: vec![snippet],
        });
    }
    out
}

/// The term a definition question asks about: a quoted term, else the words after "define",
/// "definition of", "meaning of", "what does … mean", "how is … defined".
fn defined_term(part: &str) -> Option<String> {
    for (open, close) in [('"', '"'), ('“', '”'), ('\'', '\'')] {
        if let Some(a) = part.find(open) {
            let rest = &part[a + open.len_utf8()..];
            if let Some(b) = rest.find(close) {
                return Some(rest[..b].trim().to_string());
            }
        }
    }
    let lower = part.to_ascii_lowercase();
    let strip = |s: &str| -> String {
        s.trim()
            .trim_start_matches("the ")
            .trim_start_matches("a ")
            .trim_end_matches(" mean")
            .trim_end_matches(" defined")
            .trim_end_matches(" refer to")
            .trim()
            .to_string()
    };
    for lead in [
        "definition of ",
        "meaning of ",
        "define ",
        "what does ",
        "how is ",
        "how are ",
        "what is meant by ",
    ] {
        if let Some(i) = lower.find(lead) {
            let term = strip(&part[i + lead.len()..]);
            let term = term
                .split(" in the ")
                .next()
                .unwrap_or(&term)
                .trim()
                .to_string();
            if !term.is_empty() {
                return Some(term);
            }
        }
    }
    None
}

/// The best sentences themselves (yes/no and free-text questions): quoted, never restated.
fn sentence_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    weights: &[(String, f32)],
) -> Vec<Candidate> {
    units
        .iter()
        .filter(|u| u.text.split_whitespace().count() >= 5)
        .map(|u| {
            let cov = coverage(weights, &u.terms);
            let score = 0.75 * cov + 0.25 * page_rank(input, u.page_no);
            let q = quote(&u.text, None);
            Candidate::quoted(u, q, score, cov)
        })
        .filter(|c| c.coverage > 0.0)
        .collect()
}

/// Words that introduce the cause of a change in filings' analysis: "The increase was
/// primarily due to …", "driven by", "as a result of".
const CAUSE_MARKERS: &[&str] = &[
    "due to",
    "driven by",
    "primarily",
    "as a result of",
    "attributable to",
    "reflecting",
    "reflects",
    "because",
    "resulted from",
    "result of",
    "owing to",
    "led by",
    "caused by",
];

/// Stems of the words that ask for a cause ("what drove", "what caused"); they are not
/// words the answering sentence repeats.
const CAUSE_QUESTION_WORDS: &[&str] = &[
    "drove",
    "driven",
    "drive",
    "drivers",
    "cause",
    "caused",
    "factor",
    "factors",
    "led",
    "reason",
    "reasons",
    "why",
    "contributed",
];

/// Sentences that give a cause ([`CAUSE_MARKERS`]) of what the question names: the
/// sentence's terms with the preceding sentence's (which often names the metric: "Inventories
/// totaled $1.6 billion. The increase was primarily due to …"), quoted with that sentence
/// when it names the metric and the cause sentence does not.
fn cause_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    weights: &[(String, f32)],
) -> Vec<Candidate> {
    let asking: HashSet<String> = CAUSE_QUESTION_WORDS.iter().map(|w| stem(w)).collect();
    let weights: Vec<(String, f32)> = weights
        .iter()
        .filter(|(t, _)| !asking.contains(t))
        .cloned()
        .collect();
    let mut out = Vec::new();
    for (i, u) in units.iter().enumerate() {
        let lower = u.text.to_lowercase();
        if u.row || !CAUSE_MARKERS.iter().any(|m| lower.contains(m)) {
            continue;
        }
        let own = coverage(&weights, &u.terms);
        let cov = unit_coverage(&weights, u);
        let previous = i
            .checked_sub(1)
            .map(|p| &units[p])
            .filter(|p| !p.row && p.page_no == u.page_no && p.terms == u.context);
        // The quoted unit: the cause sentence, with the one before when that names the metric.
        let merged;
        let quoted = match previous {
            Some(p) if cov > own && p.text.len() + u.text.len() < 2 * MAX_QUOTE => {
                merged = Unit {
                    text: format!("{} {}", p.text, u.text),
                    first: p.first,
                    last: u.last,
                    page_no: u.page_no,
                    node_id: u.node_id.clone(),
                    row: false,
                    terms: Vec::new(),
                    context: Vec::new(),
                };
                &merged
            }
            _ => u,
        };
        let score = 0.75 * cov + 0.25 * page_rank(input, u.page_no) + 0.1;
        let q = if quoted.text.len() <= 2 * MAX_QUOTE {
            quoted.text.clone()
        } else {
            quote(&quoted.text, None)
        };
        out.push(Candidate::quoted(quoted, q, score, cov));
    }
    out
}

/// The scale a statement page states for its figures ("in millions", "(thousands)"),
/// searched in the lines above `line` on its page, nearest first, then in the whole page,
/// then in the titles of the page's sections.
pub(super) fn scale_of(index: &RetrievalIndex, page: u32, line: usize) -> Option<&'static str> {
    let ids = index.page_line_ids(page);
    let pos = ids.iter().position(|&i| i == line).unwrap_or(ids.len());
    let lines = index.lines();
    let find = |text: &str| -> Option<&'static str> {
        let lower = text.to_lowercase();
        for (words, scale) in [
            (
                [
                    "in millions",
                    "(millions",
                    "millions of",
                    "in $ millions",
                    "$ in millions",
                ],
                "million",
            ),
            (
                [
                    "in thousands",
                    "(thousands",
                    "thousands of",
                    "in $ thousands",
                    "$ in thousands",
                ],
                "thousand",
            ),
            (
                [
                    "in billions",
                    "(billions",
                    "billions of",
                    "in $ billions",
                    "$ in billions",
                ],
                "billion",
            ),
        ] {
            if words.iter().any(|w| lower.contains(w)) {
                return Some(scale);
            }
        }
        None
    };
    // A statement's "(In millions)" under its title can be part of the title (a heading
    // node), so the titles of the page's passages are read last.
    ids[..pos]
        .iter()
        .rev()
        .find_map(|&i| find(&lines[i].text))
        .or_else(|| ids[pos..].iter().find_map(|&i| find(&lines[i].text)))
        .or_else(|| {
            ids.iter()
                .find_map(|&i| find(&index.passages()[lines[i].passage].title_path))
        })
}

/// A table row's label: its text before the first figure, without a trailing `$`, `(`,
/// dash or colon.
fn row_label(before_first_figure: &str) -> &str {
    before_first_figure
        .trim_end_matches(['(', '$', ' ', '-', ':', '—', '€', '£', '₹'])
        .trim()
}

/// Money signs and words: dollars, and the other currencies filings use.
fn states_dollars(t: &str) -> bool {
    t.contains('$') || t.to_lowercase().contains("dollars") || t.contains("USD")
}

fn states_other_currency(t: &str) -> bool {
    ["€", "£", "₹", "INR", "Rs.", "EUR", "GBP", "rupees", "euros"]
        .iter()
        .any(|c| t.contains(c))
}

/// Whether `page` states dollars (`Some(true)`), only another currency (`Some(false)`), or
/// no currency at all (`None`).
fn page_dollars(index: &RetrievalIndex, page: u32) -> Option<bool> {
    let (mut dollars, mut other) = (false, false);
    for &i in index.page_line_ids(page) {
        let t = index.lines()[i].text.as_str();
        dollars |= states_dollars(t);
        other |= states_other_currency(t);
    }
    (dollars || other).then_some(dollars)
}

/// Whether the document's dollar lines outnumber its lines in other currencies: the
/// currency of a statement page that names none (rows without `$` in a filing that has them
/// elsewhere).
fn document_dollars(index: &RetrievalIndex) -> bool {
    let (mut d, mut o) = (0usize, 0usize);
    for l in index.lines() {
        d += usize::from(states_dollars(&l.text));
        o += usize::from(states_other_currency(&l.text));
    }
    d > o
}

/// A figure with its currency and scale: `$1,577 million`; the written cell's sign is kept
/// apart (the caller says "shown as (1,577)").
#[must_use]
pub fn format_figure(written: &str, dollars: bool, scale: Option<&str>, percent: bool) -> String {
    let digits = written
        .trim()
        .trim_start_matches(['(', '-', '$', ' '])
        .trim_end_matches([')', ' ']);
    if percent || digits.ends_with('%') {
        return digits.to_string();
    }
    let mut out = String::new();
    if dollars {
        out.push('$');
    }
    out.push_str(digits);
    if let Some(s) = scale {
        out.push(' ');
        out.push_str(s);
    }
    out
}

/// Table cells: rows whose label matches the question, in the column of the question's
/// first year (else the first column).
pub(super) fn cell_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    query: &QueryAnalysis,
    weights: &[(String, f32)],
    kind: AnswerType,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    // Words that name the statement or the source are not words of a row label.
    const NOT_LABEL: &[&str] = &[
        "according",
        "balance",
        "sheet",
        "statement",
        "statements",
        "report",
        "reported",
        "year",
        "end",
        "fiscal",
    ];
    let not_label: HashSet<String> = NOT_LABEL.iter().map(|w| stem(w)).collect();
    let own_terms: HashSet<String> = query.terms.iter().map(|t| stem(t)).collect();
    let label_weights: Vec<(String, f32)> = weights
        .iter()
        .filter(|(t, _)| !not_label.contains(t) && !is_period_term(t) && own_terms.contains(t))
        .cloned()
        .collect();
    // The metric's line-item words ("purchases of property, plant and equipment" for capital
    // expenditure) are alternatives to the question's words, not words it must all have;
    // words of every line item ("net", "total", "other") say nothing of which one.
    const GENERIC: &[&str] = &["net", "total", "other", "and", "of", "less", "gross"];
    let expansions: HashSet<String> = query
        .alternatives
        .iter()
        .map(|t| stem(t))
        .filter(|t| !GENERIC.contains(&t.as_str()))
        .collect();
    let wants_total = query
        .question
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "total");
    // The document's currency, counted once and only when a page names none.
    let doc_dollars = std::cell::OnceCell::new();
    for unit in units.iter().filter(|u| u.row) {
        let Some(first_figure) = numbers_in(&unit.text).first().map(|n| n.range.start) else {
            continue;
        };
        let label = row_label(&unit.text[..first_figure]).to_string();
        if !label.chars().any(char::is_alphabetic) {
            continue;
        }
        let label_terms = stems(&label);
        // The share of the label's specific words that spell the metric ("property, plant
        // and equipment" of "Property, plant and equipment — net"), and the question's own
        // words in it ("net"), which tell two such rows apart.
        let specific = label_terms
            .iter()
            .filter(|t| !GENERIC.contains(&t.as_str()))
            .count();
        let expansion_share = label_terms
            .iter()
            .filter(|t| expansions.contains(*t))
            .count() as f32
            / specific.max(1) as f32;
        // The label's words, or (at the context weight) with its group label's.
        let own = coverage(&label_weights, &label_terms).max(
            CONTEXT_WEIGHT
                * coverage_by(&label_weights, |t| {
                    label_terms.contains(t) || unit.context.contains(t)
                }),
        );
        let cov = if expansion_share > 0.0 {
            own.max(0.8 * expansion_share + 0.2 * own)
        } else {
            own
        };
        if cov <= 0.0 {
            continue;
        }
        // A label that says more than the question asks names another line item ("Other
        // income (expense), net" for "net income").
        // "Total" is no index term (a stop word), yet it tells "Total current liabilities"
        // from "Current content liabilities": it counts when the question says it.
        let is_total = |t: &String| t == "total";
        let precision = label_terms
            .iter()
            .filter(|t| {
                label_weights.iter().any(|(w, _)| w == *t)
                    || expansions.contains(*t)
                    || (wants_total && is_total(t))
            })
            .count() as f32
            / label_terms.len().max(1) as f32;
        let cov = match (wants_total, label_terms.iter().any(is_total)) {
            (true, false) => 0.85 * cov,
            (false, true) => 0.95 * cov,
            _ => cov,
        };
        let header = input.index.snippet(unit.first, 0.0).header;
        let Some(header) = header else { continue };
        let years = nanoindex_retrieve::index::years_in(&header).unwrap_or_default();
        let year = query
            .years
            .iter()
            .copied()
            .find(|y| years.contains(y))
            .or_else(|| {
                query
                    .years
                    .is_empty()
                    .then(|| years.first().copied())
                    .flatten()
            });
        let Some(year) = year else { continue };
        let Some(cell) = read_cell_in(
            &unit.text,
            &header,
            year,
            period_occurrence(&query.question),
        ) else {
            continue;
        };
        let percent_cell = cell.text.contains('%')
            || unit.text[unit
                .text
                .find(&cell.text)
                .map_or(0, |i| i + cell.text.len())..]
                .trim_start()
                .starts_with('%');
        // A percentage question reads percentage cells only; an amount question, no percentage.
        if (kind == AnswerType::Percentage) != percent_cell {
            continue;
        }
        let percent = percent_cell;
        let per_share = label.to_lowercase().contains("per share")
            || label.to_lowercase().contains("per diluted");
        let scale = if percent || per_share {
            None
        } else {
            scale_of(input.index, unit.page_no, unit.first)
        };
        let dollars = !percent
            && page_dollars(input.index, unit.page_no)
                .unwrap_or_else(|| *doc_dollars.get_or_init(|| document_dollars(input.index)));
        let mut value = format_figure(&cell.text, dollars, scale, percent);
        if percent && !value.ends_with('%') {
            value.push('%');
        }
        if let Some(converted) = converted(&query.question, cell.value.abs(), scale) {
            value.push_str(&format!(" ({converted})"));
        }
        // The statement the question names; else any primary statement, where a line item's
        // authoritative figure stands (not a note's or a segment's breakdown).
        let statement = match query.statement {
            Some(st) => {
                if input.index.is_statement_page(unit.page_no, st) {
                    0.2
                } else {
                    0.0
                }
            }
            None => {
                let primary = [
                    Statement::Income,
                    Statement::BalanceSheet,
                    Statement::CashFlows,
                ]
                .into_iter()
                .any(|st| input.index.is_statement_page(unit.page_no, st));
                if primary {
                    0.1
                } else {
                    0.0
                }
            }
        };
        // Of two labels that both spell the metric, the one with fewer words the question
        // does not say ("Long-term debt" over "Current portion of long-term debt").
        let own_share = label_terms
            .iter()
            .filter(|t| label_weights.iter().any(|(w, _)| w == *t))
            .count() as f32
            / label_terms.len().max(1) as f32;
        // A primary statement's line item whose label spells the metric asked and nothing
        // else ("Total net sales" for "total net sales for the three months …") is the
        // authoritative figure, above prose that mentions the metric beside another figure
        // ("Total net sales include $3.3 billion of revenue recognized …").
        let authoritative = if statement > 0.0 && precision >= 1.0 && cov >= EXACT_LABEL {
            0.15
        } else {
            0.0
        };
        let score = 0.6 * cov * (0.5 + 0.5 * precision)
            + authoritative
            + 0.05 * own_share
            + 0.15 * page_rank(input, unit.page_no)
            + statement
            + if query.years.contains(&year) {
                0.1
            } else {
                0.0
            };
        let score = score + header_period_fit(&query.question, input.index, unit.first);
        let written = (cell.text.trim() != value).then(|| cell.text.clone());
        out.push(Candidate {
            value,
            written,
            quote: unit.text.clone(),
            page_no: unit.page_no,
            score,
            coverage: cov,
            cell: Some((label, year)),
            computation: None,
            cite: vec![snippet_of(unit, score, Some(header))],
        });
    }
    out
}

/// The length of period a text names: a quarter, six or nine months, or a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PeriodLength {
    Quarter,
    Interim,
    Year,
}

/// The one length of period `text` names (`Three Months Ended June 30`, `Twelve Months
/// Ended`, `Years Ended`, `52 weeks`), or `None` when it names none or several.
fn period_length(text: &str) -> Option<PeriodLength> {
    let lower = text.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let found = [
        (
            PeriodLength::Quarter,
            has(&[
                "three months",
                "3 months",
                "thirteen weeks",
                "13 weeks",
                "quarter",
            ]),
        ),
        (
            PeriodLength::Interim,
            has(&[
                "six months",
                "nine months",
                "26 weeks",
                "39 weeks",
                "year to date",
            ]),
        ),
        (
            PeriodLength::Year,
            has(&[
                "twelve months",
                "12 months",
                "year ended",
                "years ended",
                "52 weeks",
                "53 weeks",
            ]),
        ),
    ];
    let mut named = found.iter().filter(|(_, f)| *f).map(|(p, _)| *p);
    let first = named.next()?;
    named.next().is_none().then_some(first)
}

/// The length of period a question asks for: a quarter ("Q2", "second quarter", "three
/// months"), six or nine months, else a year when it names a fiscal or full year ("FY2023",
/// "fiscal 2023", "annual") — `None` when it says nothing of it.
fn asked_period_length(question: &str) -> Option<PeriodLength> {
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let quarter = words
        .iter()
        .any(|w| matches!(*w, "q1" | "q2" | "q3" | "q4" | "quarter" | "quarterly"))
        || lower.contains("three months");
    if quarter {
        return Some(PeriodLength::Quarter);
    }
    if period_occurrence(question) == 1 {
        return Some(PeriodLength::Interim);
    }
    let year = words
        .iter()
        .any(|w| w.starts_with("fy") || matches!(*w, "fiscal" | "annual" | "annually" | "yearly"))
        || lower.contains("full year");
    year.then_some(PeriodLength::Year)
}

/// The length of period of the table a row (line `row`) belongs to: named by its column
/// header (the nearest line above on the page that names two or more years) or by one of
/// the three lines above that header ("Twelve Months Ended June 30," over "2022 2023").
fn column_period(index: &RetrievalIndex, row: usize) -> Option<PeriodLength> {
    let lines = index.lines();
    let ids = index.page_line_ids(lines[row].page_no);
    let at = ids.iter().position(|&i| i == row)?;
    let header = ids[..at].iter().rposition(|&i| {
        nanoindex_retrieve::index::years_in(&lines[i].text).is_some_and(|y| y.len() >= 2)
    })?;
    ids[header.saturating_sub(3)..=header]
        .iter()
        .rev()
        .find_map(|&i| period_length(&lines[i].text))
}

/// Score adjustment of a table cell by its table's period against the question's: +0.05
/// when they agree, −0.1 when a question about a fiscal year reads a quarter's table (an
/// earnings release prints both, on different pages), 0 when either says nothing.
fn header_period_fit(question: &str, index: &RetrievalIndex, row: usize) -> f32 {
    match (asked_period_length(question), column_period(index, row)) {
        (Some(asked), Some(read)) if asked == read => 0.05,
        (Some(_), Some(_)) => -0.1,
        _ => 0.0,
    }
}

/// Factor on a figure sentence's match when it lacks the metric's most specific word.
const MISSING_SPECIFIC: f32 = 0.75;

/// "32% of our total workforce", "40 percent of the employees": a figure stated as a share of
/// a whole.
static SHARE_OF_WHOLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b\d+(?:\.\d+)?\s?(?:%|percent)\s+of\s+(?:our|the|its|their)\s+(?:total\s+)?[a-z]+",
    )
    .expect("valid regex")
});

/// Coverage at which a row label spells the question's metric (see `cell_candidates`).
const EXACT_LABEL: f32 = 0.9;

/// Which of a year's columns a question asks for when a table names the year twice: 1 for
/// the longer period ("nine months", "six months", "year to date"), else 0 (the quarter).
pub(super) fn period_occurrence(question: &str) -> usize {
    let lower = question.to_lowercase();
    let longer = [
        "nine months",
        "six months",
        "nine-month",
        "six-month",
        "year to date",
        "year-to-date",
        "ytd",
        "first half",
        "first nine",
    ];
    usize::from(longer.iter().any(|w| lower.contains(w)))
}

/// The figure in the unit the question asks for ("in USD billions", "in millions"), when it
/// differs from the statement's: `$8.74 billion` for 8,738 in millions.
fn converted(question: &str, value: f64, scale: Option<&str>) -> Option<String> {
    let lower = question.to_lowercase();
    let factor = |s: &str| -> f64 {
        match s {
            "thousand" => 1e3,
            "million" => 1e6,
            "billion" => 1e9,
            _ => 1.0,
        }
    };
    let from = factor(scale?);
    let wanted = ["billion", "million", "thousand"].into_iter().find(|w| {
        lower.contains(&format!("in usd {w}"))
            || lower.contains(&format!("in {w}"))
            || lower.contains(&format!("usd {w}"))
    })?;
    let to = factor(wanted);
    if (to - from).abs() < 1.0 {
        return None;
    }
    let v = value * from / to;
    Some(format!("${} {wanted}", group_thousands(&format!("{v:.2}"))))
}

pub(super) fn group_thousands(number: &str) -> String {
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// Ratios the reader computes: name in the question, numerator and denominator row labels
/// (each a list of label beginnings, lowercase), the numerator's subtrahend when it is a
/// difference, its addends when it is a sum (EBITDA), and whether the result is a percentage.
pub(super) struct Formula {
    /// The names a question uses for it, lowercase.
    pub names: &'static [&'static str],
    numerator: &'static [&'static str],
    minus: &'static [&'static str],
    plus: &'static [&'static str],
    denominator: &'static [&'static str],
    percent: bool,
}

impl Formula {
    /// A result as the answer states it: `5.4%` for a percentage, `0.69` for a ratio.
    pub fn show(&self, value: f64) -> String {
        if self.percent {
            format!("{value:.1}%")
        } else {
            format!("{value:.2}")
        }
    }

    /// Whether the result is a percentage (a margin).
    pub fn is_percent(&self) -> bool {
        self.percent
    }
}

const REVENUE: &[&str] = &[
    "total net revenue",
    "total revenues",
    "total revenue",
    "net revenues",
    "net revenue",
    "revenues",
    "revenue",
    "total net sales",
    "net sales",
    "sales",
];

const OPERATING_INCOME: &[&str] = &[
    "operating income",
    "income from operations",
    "operating profit",
    "earnings from operations",
    "total operating income",
];

const FORMULAS: &[Formula] = &[
    Formula {
        // EBITDA (unadjusted) = operating income + depreciation and amortization (the cash
        // flow statement's add-back), as a share of revenue.
        names: &["ebitda margin", "ebitda % margin"],
        numerator: OPERATING_INCOME,
        minus: &[],
        plus: &[
            "depreciation and amortization",
            "depreciation, depletion and amortization",
            "depreciation, amortization",
            "depreciation",
        ],
        denominator: REVENUE,
        percent: true,
    },
    Formula {
        names: &["current ratio"],
        numerator: &["total current assets"],
        minus: &[],
        plus: &[],
        denominator: &["total current liabilities"],
        percent: false,
    },
    Formula {
        names: &["quick ratio", "acid-test", "acid test"],
        numerator: &["total current assets"],
        minus: &[
            "total inventories",
            "inventories",
            "merchandise inventories",
            "inventory",
        ],
        plus: &[],
        denominator: &["total current liabilities"],
        percent: false,
    },
    Formula {
        names: &["gross margin", "gross profit margin"],
        numerator: &["gross profit", "gross margin"],
        // (a "gross margin %" row is skipped: rows with a percentage are not inputs)
        minus: &[],
        plus: &[],
        denominator: REVENUE,
        percent: true,
    },
    Formula {
        names: &["operating margin", "operating profit margin"],
        numerator: OPERATING_INCOME,
        minus: &[],
        plus: &[],
        denominator: REVENUE,
        percent: true,
    },
    Formula {
        names: &[
            "net profit margin",
            "net margin",
            "profit margin",
            "net income margin",
        ],
        numerator: &[
            "net income",
            "net earnings",
            "net income attributable",
            "net earnings attributable",
            "net income from continuing",
            "net earnings from continuing",
        ],
        minus: &[],
        plus: &[],
        denominator: REVENUE,
        percent: true,
    },
    Formula {
        names: &["debt to equity", "debt-to-equity"],
        numerator: &["total liabilities"],
        minus: &[],
        plus: &[],
        denominator: &["total equity", "total shareholders", "total stockholders"],
        percent: false,
    },
];

/// A statement row read for a computation: its snippet, label and cell value.
struct Input {
    snippet: Snippet,
    label: String,
    written: String,
    value: f64,
}

/// Whether the table of a row with column header `header` is a segment's ("International
/// Segment Performance Summary 2023 2022 2021") that `question` does not name: a question
/// about the company reads its consolidated rows; "What was the International segment's
/// gross margin" and "international gross margin" name theirs (by a word of the segment's
/// name, the header's words before "segment").
fn other_segment(header: &str, question: &str) -> bool {
    let lower = header.to_lowercase();
    let Some(at) = lower.find("segment") else {
        return false;
    };
    let asked: HashSet<String> = tokenize(question).into_iter().collect();
    !tokenize(&lower[..at]).iter().any(|w| asked.contains(w))
}

/// Finds the row whose label begins with one of `labels` (in that order of preference) and
/// reads its cell for `year` (the column `occurrence`, see [`read_cell_in`]): rows of the
/// pages read first, then of the whole document — and rows of a segment's table that
/// `question` does not name only when no other row is found; only rows of `page` when
/// given.
fn find_row(
    input: &ReaderInput<'_>,
    question: &str,
    labels: &[&str],
    year: u32,
    occurrence: usize,
    page: Option<u32>,
) -> Option<Input> {
    let lines = input.index.lines();
    let read: Vec<usize> = input
        .pages
        .iter()
        .flat_map(|&p| input.index.page_line_ids(p).iter().copied())
        .collect();
    let all: Vec<usize> = (0..lines.len()).collect();
    // The pages read before the rest of the document; in each, the label itself first ("Net
    // earnings"), then labels that begin with it; a line item "from continuing operations"
    // only when asked for.
    let tries = [(&read, false), (&all, false), (&read, true), (&all, true)]
        .into_iter()
        .flat_map(|(scope, segments)| {
            labels
                .iter()
                .map(move |w| (scope, segments, w, true))
                .chain(labels.iter().map(move |w| (scope, segments, w, false)))
        });
    for (scope, segments, wanted, exact) in tries {
        for id in scope.iter().copied() {
            let text = lines[id].text.trim();
            if page.is_some_and(|p| lines[id].page_no != p) || !input.index.is_row(id) {
                continue;
            }
            let label_end = numbers_in(text).first().map_or(0, |n| n.range.start);
            let label = row_label(&text[..label_end]).to_lowercase();
            // Rows that are not the input itself: a percentage row, equity and
            // noncontrolling-interest lines.
            if text.contains('%')
                || [
                    "noncontrolling",
                    "minority",
                    "and stockholders",
                    "and shareholders",
                    "change in",
                    "changes in",
                    "(increase)",
                    "increase)",
                ]
                .iter()
                .any(|w| label.contains(w))
            {
                continue;
            }
            let fits = if exact {
                label.trim_end_matches([':', ' ']) == *wanted
            } else {
                label.starts_with(wanted)
                    && label.len() <= wanted.len() + 40
                    && (!label.contains("continuing operations") || wanted.contains("continuing"))
            };
            if !fits {
                continue;
            }
            let snippet = input.index.snippet(id, 0.0);
            let Some(header) = snippet.header.clone() else {
                continue;
            };
            if other_segment(&header, question) != segments {
                continue;
            }
            let Some(cell) = read_cell_in(text, &header, year, occurrence) else {
                continue;
            };
            return Some(Input {
                snippet,
                label: row_label(&text[..label_end]).to_string(),
                written: cell.text,
                value: cell.value,
            });
        }
    }
    None
}

/// A formula computed for one year: the value, the formula with its inputs, and the rows
/// to cite.
pub(super) struct FormulaValue {
    /// The result (a percentage for a margin: `5.4` for 5.4%).
    pub value: f64,
    /// `2015: (Operating income 305,826 + …) / Revenues 6,779,511 × 100 = 5.4%`.
    pub formula: String,
    /// The input rows, numerator first.
    pub cite: Vec<Snippet>,
}

/// The formula named by `question` ("quick ratio", "gross margin"), if any.
pub(super) fn formula_named(question: &str) -> Option<&'static Formula> {
    let lower = question.to_lowercase();
    FORMULAS
        .iter()
        .find(|f| f.names.iter().any(|n| lower.contains(n)))
}

/// Computes `formula` for `year` (the column `occurrence`, see [`read_cell_in`]) from the
/// statement rows it names (a segment's rows only when `question` names the segment, or no
/// other row is found); `None` when a row or its cell is missing or the denominator is 0.
pub(super) fn formula_value(
    input: &ReaderInput<'_>,
    question: &str,
    formula: &Formula,
    year: u32,
    occurrence: usize,
) -> Option<FormulaValue> {
    let num = find_row(input, question, formula.numerator, year, occurrence, None)?;
    let den = find_row(input, question, formula.denominator, year, occurrence, None)?;
    if den.value == 0.0 {
        return None;
    }
    // The numerator's subtrahend or addend, when the formula has one: (row, sign).
    let adjust = if !formula.minus.is_empty() {
        // A subtrahend is a line of the same statement (inventories on the balance sheet, not
        // a note's held-for-sale inventories).
        let page = Some(num.snippet.page_no);
        Some((
            find_row(input, question, formula.minus, year, occurrence, page)?,
            -1.0,
        ))
    } else if !formula.plus.is_empty() {
        Some((
            find_row(input, question, formula.plus, year, occurrence, None)?,
            1.0,
        ))
    } else {
        None
    };
    let top = num.value
        + adjust
            .as_ref()
            .map_or(0.0, |(a, sign)| sign * a.value.abs());
    let mut ratio = top / den.value;
    if formula.percent {
        ratio *= 100.0;
    }
    let numerator_text = match &adjust {
        Some((a, sign)) => format!(
            "({} {} {} {} {})",
            num.label,
            num.written,
            if *sign < 0.0 { "−" } else { "+" },
            a.label,
            a.written
        ),
        None => format!("{} {}", num.label, num.written),
    };
    let formula_text = format!(
        "{year}: {numerator_text} / {} {}{} = {}",
        den.label,
        den.written,
        if formula.percent { " × 100" } else { "" },
        formula.show(ratio)
    );
    let mut cite = vec![num.snippet];
    cite.extend(adjust.map(|(a, _)| a.snippet));
    cite.push(den.snippet);
    Some(FormulaValue {
        value: ratio,
        formula: formula_text,
        cite,
    })
}

/// Ratios named by the question, computed for each of its years (or the first column's).
fn ratio_candidates(input: &ReaderInput<'_>, query: &QueryAnalysis, part: &str) -> Vec<Candidate> {
    let lower = part.to_lowercase();
    let Some(formula) = formula_named(part) else {
        return Vec::new();
    };
    let mut years = query.years.clone();
    // "FY2015 - FY2017 3 year average": every year of the range.
    if lower.contains("average") && years.len() == 2 {
        let (a, b) = (years[0].min(years[1]), years[0].max(years[1]));
        years = (a..=b).collect();
    }
    let occurrence = period_occurrence(&query.question);
    let results: Vec<(u32, f64, String, Vec<Snippet>)> = years
        .iter()
        .filter_map(|&year| {
            let v = formula_value(input, &query.question, formula, year, occurrence)?;
            Some((year, v.value, v.formula, v.cite))
        })
        .collect();
    if results.is_empty() {
        return Vec::new();
    }
    let unit = |v: f64| formula.show(v);
    let (value, computation) = if lower.contains("average") && results.len() > 1 {
        let mean = results.iter().map(|r| r.1).sum::<f64>() / results.len() as f64;
        let parts: Vec<String> = results.iter().map(|r| unit(r.1)).collect();
        (
            unit(mean),
            format!(
                "{}; average ({}) / {} = {}",
                results
                    .iter()
                    .map(|r| r.2.clone())
                    .collect::<Vec<_>>()
                    .join("; "),
                parts.join(" + "),
                results.len(),
                unit(mean)
            ),
        )
    } else {
        let values: Vec<String> = if results.len() == 1 {
            vec![unit(results[0].1)]
        } else {
            results
                .iter()
                .map(|r| format!("{} in {}", unit(r.1), r.0))
                .collect()
        };
        (
            values.join(" and "),
            results
                .iter()
                .map(|r| r.2.clone())
                .collect::<Vec<_>>()
                .join("; "),
        )
    };
    let cite: Vec<Snippet> = results.into_iter().flat_map(|r| r.3).collect();
    vec![Candidate::computed(value, computation, cite)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_in_another_clause_are_farther() {
        let sentence = "The briefing will conclude on August 17, 2020, and oral argument has been \
                        scheduled for September 15, 2020.";
        let weights: Vec<(String, f32)> = ["oral", "argument", "scheduled"]
            .iter()
            .map(|w| (stem(w), 1.0))
            .collect();
        let at = |s: &str| {
            let i = sentence.find(s).unwrap();
            i..i + s.len()
        };
        let august = proximity(&weights, sentence, &at("August 17, 2020"));
        let september = proximity(&weights, sentence, &at("September 15, 2020"));
        assert!(september > august + 0.2, "{september} vs {august}");
    }

    #[test]
    fn sentences_are_cut_at_sentence_ends_not_abbreviations() {
        let text = "Reynolds Group Holdings Inc. is a party. See Sec. 3.1 of the U.S. Code; the fee is $5. Done";
        let got: Vec<&str> = sentences(text, 0..text.len(), Cuts::Clauses)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            got,
            [
                "Reynolds Group Holdings Inc. is a party.",
                "See Sec. 3.1 of the U.S. Code; the fee is $5.",
                "Done"
            ]
        );
    }

    #[test]
    fn figures_carry_currency_and_scale() {
        assert_eq!(
            format_figure("(1,577)", true, Some("million"), false),
            "$1,577 million"
        );
        assert_eq!(
            format_figure("558,929", true, Some("thousand"), false),
            "$558,929 thousand"
        );
        assert_eq!(format_figure("22.4%", false, None, true), "22.4%");
        assert_eq!(
            converted("Answer in USD billions.", 8738.0, Some("million")).unwrap(),
            "$8.74 billion"
        );
        assert_eq!(converted("in USD millions", 1577.0, Some("million")), None);
    }

    #[test]
    fn a_date_that_dates_a_document_is_no_effective_date() {
        assert!(dates_a_document(
            "identified in Service Bulletin 737–31–1860, dated "
        ));
        assert!(dates_a_document("This Agreement, dated as of "));
        assert!(!dates_a_document("This AD is effective "));
        assert!(!dates_a_document("The rule was updated "));
        assert!(!dates_a_document("consolidated as of "));
    }

    #[test]
    fn a_segment_table_answers_only_questions_that_name_its_segment() {
        let header = "International Segment Performance Summary 2023 2022 2021";
        assert!(other_segment(
            header,
            "Are Best Buy's gross margins consistent?"
        ));
        assert!(!other_segment(
            header,
            "What was the international gross margin?"
        ));
        // Only the segment's name counts: "operating" is no segment.
        assert!(other_segment(
            "Domestic Segment Operating Results 2023 2022",
            "What was the operating margin?"
        ));
        assert!(!other_segment(
            "Consolidated Performance Summary 2023 2022 2021",
            "Are Best Buy's gross margins consistent?"
        ));
    }

    #[test]
    fn figures_listed_with_years_are_paired_in_order() {
        let text = "As of December 31, 2022 and 2021, the total workforce was approximately \
                    156,000 and 142,000 with 13% and 12% located outside of the U.S.";
        let counts = crate::ask::spans::find(AnswerType::Count, text, Some("employee"));
        let values: Vec<&str> = counts.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(values, ["156,000", "142,000"]);
        assert_eq!(paired_year(text, &counts, &counts[0]), Some(2022));
        assert_eq!(paired_year(text, &counts, &counts[1]), Some(2021));
        let text = "Costs were $129, $126 and $129 during 2022, 2021 and 2020, respectively.";
        let amounts = crate::ask::spans::find(AnswerType::Amount, text, None);
        assert_eq!(paired_year(text, &amounts, &amounts[1]), Some(2021));
        // One figure, or lists of other lengths, pair nothing.
        let text = "In 2022 and 2021 we hired 23,000 people.";
        let one = crate::ask::spans::find(AnswerType::Count, text, None);
        assert_eq!(paired_year(text, &one, &one[0]), None);
    }

    #[test]
    fn the_counted_noun_ends_its_noun_phrase() {
        assert_eq!(
            counted_noun("How many days after the class was certified did it appeal?").as_deref(),
            Some("days")
        );
        assert_eq!(
            counted_noun("How many paid memberships did Netflix have?").as_deref(),
            Some("memberships")
        );
        assert_eq!(
            counted_noun("How many participants does the protocol plan to interview?").as_deref(),
            Some("participants")
        );
    }

    #[test]
    fn a_count_noun_is_not_a_name() {
        assert_eq!(
            count_noun("How many Boeing employees were union represented?").as_deref(),
            Some("employee")
        );
        assert_eq!(
            count_noun("How many stores did it open?").as_deref(),
            Some("store")
        );
    }

    #[test]
    fn count_nouns_are_stemmed() {
        assert_eq!(
            count_noun("How many stores did it operate").as_deref(),
            Some("store")
        );
        assert_eq!(
            count_noun("number of subsidiaries").as_deref(),
            Some("subsidiary")
        );
    }

    #[test]
    fn defined_terms_are_read_from_the_question() {
        assert_eq!(
            defined_term("How is \"Affiliate\" defined").as_deref(),
            Some("Affiliate")
        );
        assert_eq!(
            defined_term("What is the definition of Confidential Information").as_deref(),
            Some("Confidential Information")
        );
        assert_eq!(
            defined_term("What does Hospital mean").as_deref(),
            Some("Hospital")
        );
    }

    #[test]
    fn stems_match_inflections_and_conventions_imply_terms() {
        assert_eq!(stems("Filed incentives"), stems("file incentive"));
        // Any script goes through the English stemmer without harm.
        let odd = stems("现金流量 الأرباح naïve İstanbul ﬁnance ÉTATS-UNIS 1,577 fy2023");
        assert!(
            odd.len() >= 8 && odd.contains(&"1577".to_string()),
            "{odd:?}"
        );
        assert!(is_period_term(&stem("months")) && is_period_term("2023"));
        assert!(!is_period_term(&stem("sales")));
        assert!(implied_terms("By: /s/ Helena Marsh").contains(&"sign".to_string()));
        assert_eq!(
            implied_terms("SOTOMAYOR, J., delivered the opinion for a unanimous Court."),
            ["vote", "wrote", "author", "opinion"]
        );
        assert_eq!(
            implied_terms("HUDSON, Justice."),
            ["wrote", "author", "opinion"]
        );
        assert_eq!(
            implied_terms("HUDSON, Justice. ¶ 1 Gift Surplus sued")[0],
            "wrote"
        );
        assert!(implied_terms("The Justice Department filed a brief.").is_empty());
    }
}
