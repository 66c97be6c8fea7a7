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
//! ([`MIN_COVERAGE`]; an amount read from prose [`MIN_PROSE_AMOUNT_COVERAGE`]); else it is
//! not found, and the answer says so.
//!
//! This module holds the entry point ([`read`]), the reading units and their scoring; the
//! candidates come from `sentence` (spans, definitions, sentences, causes), `cells` (table
//! cells) and `formulas` (computed ratios and margins).

use std::collections::HashSet;
use std::sync::LazyLock;

pub(super) use nanoindex_core::metrics::{formula_named, Formula};
use nanoindex_core::NodeId;
use nanoindex_retrieve::analysis::{is_year, numbers_in, tokenize, MONTHS};
use nanoindex_retrieve::{PageHit, QueryAnalysis, RetrievalIndex, Snippet, Statement};
use regex::Regex;
use serde::{Deserialize, Serialize};

use super::answer_type::{self, AnswerType};
use super::choice;
use super::compare;
use super::phrase;
use super::spans;
use crate::text::{sentences, Cuts};

mod cells;
mod formulas;
mod sentence;

use cells::*;
pub(super) use cells::{
    cell_candidates, format_figure, group_thousands, period_occurrence, scale_of,
};
use formulas::*;
pub(super) use formulas::{formula_value, FormulaValue};
pub(super) use sentence::counted_noun;
use sentence::*;

/// A term as the reader compares it: the index term ([`tokenize`]) reduced to its Porter2
/// (Snowball English) stem, so that "filed" matches "file" and "incentives" "incentive",
/// British spellings first written as American ones (`american`: "hospitalisation" is
/// "hospitalization"). Retrieval keeps its own terms; stems are only compared within the
/// reader.
#[must_use]
pub fn stem(term: &str) -> String {
    static STEMMER: LazyLock<rust_stemmers::Stemmer> =
        LazyLock::new(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English));
    if term.starts_with(|c: char| c.is_ascii_digit()) {
        return term.to_string();
    }
    STEMMER.stem(&american(term)).into_owned()
}

/// A lowercase word's British "-ise" spelling written as the American "-ize": "-isation"
/// always ("hospitalisation"), and "-ise", "-ised", "-ises", "-ising" after the letters
/// that end the stems of such verbs ("hospitalised", "authorised", "recognised",
/// "organised", "prioritised", "criticised", "summarised", "minimised", "utilised",
/// "characterised", "emphasised"), so that "raise", "exercise" or "enterprise" stay as they
/// are (a word changed on both sides alike, "premise", matches as before).
fn american(word: &str) -> std::borrow::Cow<'_, str> {
    if let Some(i) = word.find("isation") {
        return format!("{}ization{}", &word[..i], &word[i + "isation".len()..]).into();
    }
    for ending in ["ise", "ised", "ises", "ising"] {
        if let Some(base) = word.strip_suffix(ending) {
            if [
                "al", "or", "gn", "an", "ar", "it", "ic", "ym", "im", "il", "er", "as",
            ]
            .iter()
            .any(|b| base.ends_with(b))
            {
                return format!("{base}iz{}", &ending[2..]).into();
            }
        }
    }
    word.into()
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
    /// Score in `[0, ~1.25]`: coverage, proximity, page rank, period; computed values and a
    /// court's disposition score from about 1.2.
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
        Candidate::in_sentence(quote.clone(), unit, quote, score, coverage)
    }

    /// A value read in a sentence: `value` as the answer states it, `quote` the part of
    /// `unit`'s text that holds it (also the cited text).
    fn in_sentence(
        value: String,
        unit: &Unit,
        quote: String,
        score: f32,
        coverage: f32,
    ) -> Candidate {
        let mut snippet = snippet_of(unit, score, None);
        snippet.text.clone_from(&quote);
        Candidate {
            value,
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

/// Least coverage for an amount read from a sentence to answer its part (above
/// [`MIN_COVERAGE`], which other spans need). On the real-document questions (306 and a
/// blind 30, at 637c154) every amount answered from prose below 0.40 was wrong (four: three
/// questions the document does not answer, one another rate's), and every one from 0.43 up
/// but one was right.
pub const MIN_PROSE_AMOUNT_COVERAGE: f32 = 0.40;

impl Candidate {
    /// Whether the candidate answers its part: coverage at least [`MIN_COVERAGE`], or a
    /// computation from cited figures.
    fn answers(&self) -> bool {
        self.coverage >= MIN_COVERAGE || self.computation.is_some()
    }

    /// Whether the candidate, the best of a part asking for `kind`, answers it: it
    /// [`answers`](Self::answers), and an amount of money read from prose (not a table
    /// cell, not computed, not a share such as "a jump of over 23 percent") covers at least
    /// [`MIN_PROSE_AMOUNT_COVERAGE`] of the question.
    fn answers_as(&self, kind: AnswerType) -> bool {
        self.answers()
            && !(kind == AnswerType::Amount
                && self.cell.is_none()
                && self.computation.is_none()
                && !is_share(&self.value)
                && self.coverage < MIN_PROSE_AMOUNT_COVERAGE)
    }
}

/// Whether a value is a share ("23 percent", "2.5%"), not an amount of money.
fn is_share(value: &str) -> bool {
    value.contains('%') || value.to_lowercase().contains("percent")
}

/// Orders `candidates` best first and keeps the best place of each value, at most [`KEPT`].
/// A candidate that answers a part of `kind` ([`Candidate::answers_as`]) ranks above any
/// that does not,
/// whatever their scores: a statement row that shares one word with the question ("Revenue
/// $ 13,507" for "What was Automotive revenue …?") is not chosen over the sentence that
/// states the asked figure, only to be found wanting. Then by score, then by page.
fn rank(candidates: &mut Vec<Candidate>, kind: AnswerType) {
    candidates.sort_by(|a, b| {
        b.answers_as(kind)
            .cmp(&a.answers_as(kind))
            .then(b.score.total_cmp(&a.score))
            .then(a.page_no.cmp(&b.page_no))
    });
    let mut seen = HashSet::new();
    candidates.retain(|c| seen.insert(normalise_value(&c.value)));
    candidates.truncate(KEPT);
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
    /// Whether the best candidate answers the part: its coverage reaches `MIN_COVERAGE` (an
    /// amount read from prose, `MIN_PROSE_AMOUNT_COVERAGE`), or it is computed.
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
    /// Whether `context` is a field label: the sentence before is a short line ending in a
    /// colon ([`is_field_label`]: "Chief Investigator:" over "• Mr John McGrath - …"), which
    /// names what this one states rather than a topic it continues.
    labelled: bool,
    /// The stems of the title of the section that holds it (the tree node's own title):
    /// the topic of a list's items and of a section's sentences ("Inclusion criteria" over
    /// "• Experienced day-case TURBT, TURP or TUEP within the past 6 weeks"; "Adverse event
    /// recording and reporting" over "The study sponsor will be notified within 24 hours").
    section: Vec<String>,
}

/// Most words of a field label ([`is_field_label`]).
const LABEL_WORDS: usize = 4;

/// A field label: a line of at most [`LABEL_WORDS`] words that begins with a capital, ends
/// in a colon and holds no digit ("Chief Investigator:", "Sponsor:"), as on a protocol's or
/// a policy's cover page where each value is set under its label.
fn is_field_label(line: &str) -> bool {
    let line = line.trim();
    line.ends_with(':')
        && line.starts_with(|c: char| c.is_uppercase())
        && !line.contains(|c: char| c.is_ascii_digit())
        && line.split_whitespace().count() <= LABEL_WORDS
}

/// Whether `line` runs on into the next one: it ends in a lower-case word, a comma or a
/// hyphen ("… pay the Licensor the", "co-"), so the next line continues its sentence.
fn runs_on(line: &str) -> bool {
    let line = line.trim_end();
    line.ends_with([',', '-'])
        || line
            .split_whitespace()
            .last()
            .is_some_and(|w| w.starts_with(|c: char| c.is_lowercase()) && !w.ends_with('.'))
}

/// Stems a sentence stands for without writing them, by the conventions of legal documents:
/// a signature block ("By: /s/ Jane Roe") is where a party signed or executed on its behalf;
/// "a unanimous Court" or "7-2" is a vote; an opinion's byline ("HUDSON, Justice.") or
/// "delivered the opinion" names who wrote it; a definition (`“Applicable Rate” means …`)
/// defines. And of papers: an author block (names separated by commas, with affiliation
/// marks: "Andreas Gal∗+, Brendan Eich∗, …") names the authors; a venue line ("PLDI’09, June
/// 15–20, 2009, Dublin, Ireland.") where the conference was held. And of filings: the cover
/// line "For the quarterly period ended July 30, 2023" is the fiscal period the report covers;
/// a case number ("No. 11–889.") is the case's docket number. And of criteria: "Adults
/// aged >18" states a minimum age ("aged under 65" a maximum); of notices, "48 hours prior
/// to admission" how far in advance, and a "notice" how one is notified.
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
    // A filing's cover line: "For the quarterly period ended July 30, 2023", alone or after
    // the report's title ("… EXCHANGE ACT OF 1934"), then "OR" or nothing; in prose the date
    // is followed by more ("For the year ended December 31, 2022, revenue …").
    static COVER_PERIOD: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?:^|\b1934\s+)For the (?:quarterly |fiscal |transition )?(?:period|year) ended [A-Z][a-z]+ \d{1,2}, \d{4}(?:\s+OR\b|$)",
        )
        .expect("pattern")
    });
    // A case number ("No. 11–889. Argued April 23, 2013", "No. 20-16276") is the docket
    // number of the case.
    static CASE_NUMBER: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"\bNo\.\s*\d{1,2}[-–]\d{2,}").expect("pattern"));
    // A caption's "Hon. Vince Chhabria" names the judge who presides.
    static HONORABLE: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"\bHon(?:\.|orable)\s+[A-Z]").expect("pattern"));
    let mut out: Vec<&str> = Vec::new();
    static ADVANCE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(?:days?|hours?|weeks?|months?)\b[^.;]{0,20}\b(?:prior\s+to|before)\b",
        )
        .expect("pattern")
    });
    static NOTICE: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"(?i)\bnotice\b").expect("pattern"));
    if CASE_NUMBER.is_match(sentence) {
        out.extend(["docket", "number", "case"]);
    }
    if HONORABLE.is_match(sentence) {
        out.extend(["judg", "presid"]);
    }
    if COVER_PERIOD.is_match(sentence.trim()) {
        out.extend(["cover", "fiscal", "period", "report"]);
    }
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
    let mut out: Vec<String> = out.into_iter().map(String::from).collect();
    // "At least 48 hours prior to admission" says how far in advance; a notice is how one
    // is notified ("Notice … shall be sent" for "must the insurer be notified").
    if ADVANCE.is_match(sentence) {
        out.push(stem("advance"));
    }
    if NOTICE.is_match(sentence) {
        out.push(stem("notified"));
    }
    // "Adults aged >18" states a minimum age, "aged under 65" a maximum.
    if let Some((_, minimum)) = spans::age_bounds(sentence).next() {
        let bound = if minimum { "minimum" } else { "maximum" };
        out.extend([stem("age"), stem(bound)]);
    }
    out
}

/// Share of a sentence's coverage that the sentence before it can lend.
const CONTEXT_WEIGHT: f32 = 0.8;

/// Whether `unit` is set under a field label (`labelled`) every term of which is among the
/// weighted terms: the label names the value right below it ("Sponsor:" over "Royal Devon
/// University Healthcare NHS Foundation Trust" for "Who sponsors the study?"). An agent
/// noun of the label counts as its verb ([`agent_verbs`]: "Funder:" for "Who funds …?").
fn under_asked_label(weights: &[(String, f32)], unit: &Unit) -> bool {
    let asked = |t: &str| weights.iter().any(|(w, _)| w == t);
    unit.labelled
        && unit.context.iter().all(|t| {
            asked(t)
                || agent_verb(t).is_some_and(|verb| asked(&verb))
                // The verb a label's noun was given ([`agent_verbs`]).
                || unit.context.iter().any(|u| agent_verb(u).as_deref() == Some(t.as_str()))
        })
}

/// The stem of the verb an agent noun names ("funder" → "fund", "reviewer" → "review",
/// "investigator" → "investig"): a word of five letters or more ending in "er" or "or",
/// without that ending and with a final "e" for the stemmer to take off; `None` for any
/// other word.
fn agent_verb(word: &str) -> Option<String> {
    (word.chars().count() >= 5)
        .then(|| word.strip_suffix("er").or_else(|| word.strip_suffix("or")))
        .flatten()
        .map(|base| stem(&format!("{base}e")))
}

/// The value a field holds when it is the whole sentence under its label: "Getting It Right
/// First Time (GIRFT)" under "Funder:", past a list bullet; `None` for a value of more than
/// [`FIELD_VALUE_WORDS`] words or one that does not start with a capital (prose, not a name).
pub(super) fn field_value(text: &str) -> Option<std::ops::Range<usize>> {
    let start = text.len()
        - text
            .trim_start_matches(|c: char| {
                c.is_whitespace() || crate::text::is_bullet(c) || c == '-' || c == '–'
            })
            .len();
    let value = text[start..].trim_end_matches(|c: char| c.is_whitespace() || c == '.' || c == ',');
    (value.starts_with(|c: char| c.is_uppercase())
        && value.split_whitespace().count() <= FIELD_VALUE_WORDS)
        .then(|| start..start + value.len())
}

/// The most words of a field's value read whole as a name ([`field_value`]).
const FIELD_VALUE_WORDS: usize = 10;

/// Coverage of `unit`: its own terms' share, or (at [`CONTEXT_WEIGHT`]) that of its terms
/// with the preceding sentence's and its section title's, whichever is higher. Under a
/// field label (`labelled`) every term of which is among the weighted terms ("Chief
/// Investigator:" for "Who is the Chief Investigator of …?") the label counts in full: it
/// names the value below it as a clause of the same sentence would.
fn unit_coverage(weights: &[(String, f32)], unit: &Unit) -> f32 {
    let own = coverage(weights, &unit.terms);
    if unit.context.is_empty() && unit.section.is_empty() {
        return own;
    }
    let with_context = coverage_by(weights, |t| {
        unit.terms.contains(t) || unit.context.contains(t) || unit.section.contains(t)
    });
    let weight = if under_asked_label(weights, unit) {
        1.0
    } else {
        CONTEXT_WEIGHT
    };
    own.max(weight * with_context)
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
    let naming = naming_terms(input, question);
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
/// [`RetrievalIndex::naming_text`](nanoindex_retrieve::RetrievalIndex::naming_text)), and
/// those of the phrase with which `question` ends by naming it ([`DOCUMENT_PHRASE`]: "… on
/// the proposed 737 MAX airworthiness directive?"): questions name the document ("under
/// the Reynolds transition services agreement", "Apple's"), while the sentence that answers
/// rarely repeats it.
///
/// A question that names its document in such a phrase asks with its other words: those are
/// no naming terms, unless the file's name has them too. (A Federal Register notice's first
/// page heads a paragraph "FOR FURTHER INFORMATION CONTACT:", yet "Who is the contact for
/// further information on the proposed … directive?" asks for exactly that.)
fn naming_terms(input: &ReaderInput<'_>, question: &str) -> HashSet<String> {
    let naming_text = input.index.naming_text();
    let mut naming: HashSet<String> = stems(naming_text).into_iter().collect();
    let question = question.trim_end();
    let Some((whole, phrase)) = DOCUMENT_PHRASE
        .captures(question)
        .and_then(|c| Some((c.get(1)?, c.get(2)?)))
    else {
        return naming;
    };
    // The phrase names this document only if the document's name or caption has one of its
    // words ("under the First Amendment" names a law, not a court's opinion).
    let phrase_stems = stems(phrase.as_str());
    if !phrase_stems.iter().any(|s| naming.contains(s)) {
        return naming;
    }
    let file_name: HashSet<String> = stems(naming_text.lines().next().unwrap_or(""))
        .into_iter()
        .collect();
    // Lowercase words only: a capitalised one ("FAA", "Boeing's") names a party.
    for word in question[..whole.start()]
        .split_whitespace()
        .filter(|w| w.starts_with(|c: char| c.is_lowercase()))
    {
        for asked in stems(word) {
            if !file_name.contains(&asked) {
                naming.remove(&asked);
            }
        }
    }
    naming.extend(stems(&question[whole.start()..]));
    naming
}

/// A question's closing phrase that names the document by its kind: "under the Verizon
/// transfer and servicing agreement?", "on the proposed 737 MAX airworthiness directive?",
/// "in Boeing's 2022 10-K?" (group 1: from the preposition on; group 2: the words from the
/// name to the kind). The last such phrase is taken ("the royalty rate for the licensed
/// products under the agreement?": "under the agreement"). Kinds that are also what a
/// question asks about (a court's decision or order, a statement of the financial
/// statements) are not in it.
static DOCUMENT_PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^.*\b((?:in|on|of|under|for|to|from|by)\s+(?:the|this|that|its|[\w.&-]+['’]s)\s+((?:[\w.&'’-]+\s+){0,6}?(?:agreement|contract|directive|regulation|rule|protocol|policy|prospectus|filing|10-k|10-q|8-k|paper|amendment|report)))\s*[?.]?$",
    )
    .expect("document phrase pattern")
});

/// Score factor of a yes/no candidate that lacks what the question asks "any" of.
const ANY_FOCUS_FACTOR: f32 = 0.8;

/// The stems of the noun phrase a yes/no question asks "any" of ("Are participants offered
/// any *financial incentive* for taking part?"): at most three words after "any", up to a
/// preposition or auxiliary ([`NOUN_PHRASE_ENDS`]), "and", "or" or "other" ("at any time",
/// "in any event" and "any other" are set phrases, no focus). That is what the question
/// turns on, so a sentence without it ("numbers of participants … taking part will be
/// recorded") answers it less than one that says it ("There are no financial incentives for
/// participation"). Empty when the question says no "any".
pub(in crate::ask) fn any_focus(question: &str) -> Vec<String> {
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let Some(at) = words.iter().position(|w| *w == "any") else {
        return Vec::new();
    };
    if at > 0 && ["at", "in"].contains(&words[at - 1]) {
        return Vec::new();
    }
    let phrase: Vec<&str> = words[at + 1..]
        .iter()
        .take_while(|w| !NOUN_PHRASE_ENDS.contains(w) && !["and", "or", "other"].contains(w))
        .take(3)
        .copied()
        .collect();
    stems(&phrase.join(" "))
}

/// Whether the court a disposition question asks about ("What did *the Supreme Court of
/// North Carolina* do with …") is the document's own: it is a court, every word of its name
/// but "the", "court" and "of" names the document ([`naming_terms`]: "IN THE SUPREME COURT
/// OF NORTH CAROLINA"), and it is no lower court of a supreme court's document. A question
/// naming no actor ("What was the outcome of the appeal?") asks about the document's. A
/// lower court's ruling ("What did the Court of Appeals do with the order?") is told in the
/// opinion's history, not in its disposition.
fn asks_document_court(question: &str, naming: &HashSet<String>) -> bool {
    let lower = question.to_lowercase();
    let Some(at) = lower.find("did the ") else {
        return true;
    };
    let rest = &lower[at + "did the ".len()..];
    let end = [" do ", " do?", " rule", " dispose", " decide"]
        .iter()
        .filter_map(|w| rest.find(w))
        .min()
        .unwrap_or(rest.len());
    let court = &rest[..end];
    // "What did the company do with …" asks of no court.
    if !["court", "circuit", "justices", "panel", "tribunal"]
        .iter()
        .any(|w| court.contains(w))
    {
        return false;
    }
    // A supreme court's caption names the court below ("CERTIORARI TO THE UNITED STATES
    // COURT OF APPEALS"): a lower court asked about is not the document's.
    let lower_court = [
        "appeals",
        "district",
        "trial",
        "superior",
        "circuit court",
        "lower",
    ]
    .iter()
    .any(|w| court.contains(w));
    if lower_court && naming.contains(&stem("supreme")) {
        return false;
    }
    stems(court)
        .iter()
        .filter(|t| !["the", "court", "of"].contains(&t.as_str()))
        .all(|t| naming.contains(t))
}

fn read_part(
    input: &ReaderInput<'_>,
    units: &[Unit],
    part: &str,
    query: &QueryAnalysis,
    naming: &HashSet<String>,
) -> PartReading {
    let weights = term_weights(input.index, query, naming);
    // The statements' columns are read with the question's fiscal years as they date them;
    // sentences keep the years as written ("the second quarter of fiscal year 2024").
    let fiscal = fiscal_column_years(input.index, units, query).map(|years| QueryAnalysis {
        years,
        ..query.clone()
    });
    let tables = fiscal.as_ref().unwrap_or(query);
    let mut kind = answer_type::classify(part);
    let asks_change = kind == AnswerType::Change;
    let mut candidates = Vec::new();
    if kind == AnswerType::Change {
        if let Some(asked) = compare::asked(part, &tables.years) {
            candidates = compare::candidates(input, units, tables, &weights, part, asked);
        }
        if candidates.is_empty() {
            // No metric read for two periods: the question is read as it is worded.
            kind = answer_type::classify_wording(part);
        }
    }
    if kind == AnswerType::Choice {
        if let Some(asked) = choice::asked(part) {
            candidates = choice::candidates(input, units, tables, naming, &asked);
        }
        if candidates.is_empty() {
            // An option without a row: the question is read as it is worded.
            kind = answer_type::classify_wording(part);
        }
    }
    let defined = (kind == AnswerType::Text)
        .then(|| capitalised_defined_term(part, units))
        .flatten();
    // "What is the Field under the agreement?" asks for the document's definition of its
    // term: answered as a definition is, by the sentence that gives it.
    if defined.is_some() {
        kind = AnswerType::Definition;
    }
    candidates.extend(match kind {
        AnswerType::Change | AnswerType::Choice => Vec::new(),
        AnswerType::Ratio => {
            let mut c: Vec<Candidate> = ratio_candidates(input, tables, part)
                .into_iter()
                .chain(cell_candidates(input, units, tables, &weights, kind))
                .collect();
            // A margin the document states ("Our overall gross margin increased to 70.1%")
            // answers when neither its inputs nor its own row were read for the asked period.
            if c.iter()
                .all(|read| read.computation.is_none() && read.cell.is_none())
                && formula_named(part).is_some_and(|f| f.percent)
            {
                c.extend(span_candidates(
                    input,
                    units,
                    part,
                    query,
                    &weights,
                    naming,
                    AnswerType::Percentage,
                ));
            }
            c
        }
        // A growth rate the statements could not compute ("By what percentage did Data
        // Center revenue grow?") is stated in a sentence; a percentage cell of a period is a
        // level ("Revenue 100.0 %" of a common-size table), not a change.
        AnswerType::Percentage if asks_change => {
            span_candidates(input, units, part, query, &weights, naming, kind)
        }
        AnswerType::Amount | AnswerType::Percentage if !query.years.is_empty() => {
            let mut c = cell_candidates(input, units, tables, &weights, kind);
            c.extend(span_candidates(
                input, units, part, query, &weights, naming, kind,
            ));
            c
        }
        AnswerType::Amount | AnswerType::Percentage | AnswerType::Count => {
            let mut c = span_candidates(input, units, part, query, &weights, naming, kind);
            if kind != AnswerType::Count {
                c.extend(cell_candidates(input, units, tables, &weights, kind));
            }
            c
        }
        AnswerType::Definition => {
            let term = defined
                .clone()
                .or_else(|| defined_term(part))
                .or_else(|| capitalised_defined_term(part, units));
            let c = definition_candidates(input, units, term.as_deref(), &weights);
            // "We define Adjusted EBITDA as …" has no "means": the sentence that says it.
            if c.is_empty() {
                sentence_candidates(input, units, &weights)
            } else {
                c
            }
        }
        // "What did the Supreme Court do with the Court of Appeals decision?": the court's own
        // disposition, in a court's document (its caption names a court), when the court
        // asked about is the one whose document this is.
        AnswerType::Text
            if answer_type::asks_disposition(part)
                && naming.contains(&stem("court"))
                && asks_document_court(part, naming) =>
        {
            let mut c = disposition_candidates(input, units, &weights);
            c.extend(sentence_candidates(input, units, &weights));
            c
        }
        AnswerType::Text if answer_type::asks_cause(part) => {
            let mut c = cause_candidates(input, units, &weights);
            c.extend(sentence_candidates(input, units, &weights));
            c
        }
        AnswerType::YesNo | AnswerType::Text => sentence_candidates(input, units, &weights),
        _ => span_candidates(input, units, part, query, &weights, naming, kind),
    });
    // A percentage change ("By what percentage did iPad net sales change …?") is also
    // stated in a table's change column ("iPad 5,791 7,224 (20)%").
    if kind == AnswerType::Percentage && sentence::asks_for_change(part) {
        candidates.extend(change_cell_candidates(input, units, tables, &weights));
    }
    for c in &mut candidates {
        if (input.addressed_to_model)(&c.quote) {
            // Read as data: it may answer only as a sentence half as close would.
            c.score *= INSTRUCTION_FACTOR;
            c.coverage *= INSTRUCTION_FACTOR;
        }
    }
    if kind == AnswerType::YesNo {
        let focus = any_focus(part);
        for c in &mut candidates {
            let quoted: HashSet<String> = stems(&c.quote).into_iter().collect();
            if !focus.iter().all(|t| quoted.contains(t)) {
                c.score *= ANY_FOCUS_FACTOR;
                c.coverage *= ANY_FOCUS_FACTOR;
            }
        }
    }
    rank(&mut candidates, kind);
    // A free-text question whose best sentence states a value right after the noun the
    // question asks for ("What were Apple's manufacturing purchase obligations …?" — "… had
    // manufacturing purchase obligations of $38.4 billion") asks for that value: it is read
    // as a question of the value's type.
    if kind == AnswerType::Text
        && !answer_type::asks_cause(part)
        && !answer_type::asks_disposition(part)
    {
        let stated = candidates
            .first()
            .filter(|c| c.coverage >= ADJACENT_VALUE_COVERAGE)
            .zip(answer_type::asked_head(part))
            .and_then(|(c, head)| value_after_head(&c.quote, &head));
        if let Some(value_kind) = stated {
            let mut typed =
                span_candidates(input, units, part, query, &weights, naming, value_kind);
            rank(&mut typed, value_kind);
            if typed.first().is_some_and(|t| t.answers_as(value_kind)) {
                kind = value_kind;
                candidates = typed;
            }
        }
    }
    // An amount read from prose needs more of the question than other spans: contracts and
    // policies state many amounts, so one sentence shares a few of the question's words by
    // chance ("an equity investment of $4,000,000" for a warrant's exercise price).
    let answered = candidates.first().is_some_and(|c| c.answers_as(kind));
    PartReading {
        question: part.to_string(),
        kind,
        candidates,
        answered,
    }
}

/// Least coverage of the best sentence for a free-text question to be read for the value it
/// states right after the asked noun ([`value_after_head`]).
const ADJACENT_VALUE_COVERAGE: f32 = 0.5;

/// Words that may stand between a noun and the value stated for it ("obligations *of*
/// $38.4 billion", "term *was approximately* 6.5 years").
const VALUE_LINKS: &[&str] = &[
    "of",
    "is",
    "was",
    "were",
    "are",
    "be",
    "been",
    "to",
    "at",
    "approximately",
    "about",
    "roughly",
    "nearly",
    "around",
    "some",
    "totaled",
    "totalled",
    "totaling",
    "amounted",
    "equal",
    "equaled",
    "stood",
    "a",
    "an",
    "the",
];

/// The type of the value `sentence` states right after a word with the stem of `head`
/// (the asked noun, [`answer_type::asked_head`]): the first span of an amount, percentage,
/// duration or measure ([`spans::find`]; no date, which qualifies a value more often than it
/// is one: "backlog at June 30, 2024 was $4.1 billion") that follows it with at most three linking
/// words between ([`VALUE_LINKS`]). `None` when no span follows the noun so. A bare number
/// is no value for it: "a game of “ten pins”" states no count of games.
fn value_after_head(sentence: &str, head: &str) -> Option<AnswerType> {
    static WORD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[A-Za-z][A-Za-z'’-]*").expect("pattern"));
    let head = stem(head);
    let ends: Vec<usize> = WORD
        .find_iter(sentence)
        .filter(|w| stem(&w.as_str().to_lowercase()) == head)
        .map(|w| w.end())
        .collect();
    if ends.is_empty() {
        return None;
    }
    let linked = |end: usize, start: usize| {
        start >= end && {
            let between: Vec<String> = sentence[end..start]
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            between.len() <= 3 && between.iter().all(|w| VALUE_LINKS.contains(&w.as_str()))
        }
    };
    [
        AnswerType::Amount,
        AnswerType::Percentage,
        AnswerType::Duration,
        AnswerType::Measure,
    ]
    .into_iter()
    .filter_map(|kind| {
        spans::find(kind, sentence, None)
            .into_iter()
            .filter(|r| ends.iter().any(|&end| linked(end, r.start)))
            .map(|r| r.start)
            .min()
            .map(|start| (start, kind))
    })
    .min_by_key(|(start, _)| *start)
    .map(|(_, kind)| kind)
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
            let passage = &input.index.passages()[line.passage];
            let node_id = passage.node_id.clone();
            let section = stems(passage.leaf_title());
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
                    labelled: false,
                    section: section.clone(),
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
            // A line that is a field label starts a sentence even where the line above
            // ends in none ("… IRAS no – 327246" over "Chief Investigator:"), unless the line
            // above runs on into it ("… pay the Licensor the" over "Following amounts:").
            let label_starts: Vec<usize> = starts
                .iter()
                .enumerate()
                .filter(|&(k, &(_, id))| {
                    is_field_label(&lines[id].text)
                        && (k == 0 || !runs_on(&lines[starts[k - 1].1].text))
                })
                .map(|(_, &(offset, _))| offset)
                .collect();
            let mut previous: Vec<String> = Vec::new();
            let mut previous_label = false;
            for range in sentences(&text, 0..text.len(), Cuts::Clauses)
                .into_iter()
                .flat_map(|r| cut_at(r, &label_starts))
            {
                // Where the sentence begins, past its leading spaces.
                let begins = range.end - text[range.clone()].trim_start().len();
                let sentence = text[range.clone()].trim();
                if sentence.len() < 3 {
                    continue;
                }
                let mut terms = stems(sentence);
                terms.extend(implied_terms(sentence));
                if is_field_label(sentence) {
                    terms.extend(agent_verbs(sentence));
                }
                out.push(Unit {
                    text: sentence.to_string(),
                    first: line_at(range.start),
                    last: line_at(range.end.saturating_sub(1)),
                    page_no: page,
                    node_id: node_id.clone(),
                    row: false,
                    terms: terms.clone(),
                    context: std::mem::replace(&mut previous, terms),
                    labelled: std::mem::replace(
                        &mut previous_label,
                        label_starts.contains(&begins) && is_field_label(sentence),
                    ),
                    section: section.clone(),
                });
            }
            i = j.max(i + 1);
        }
    }
    join_across_pages(&mut out);
    out
}

/// Words below which a unit at a page's top is a running head ("Cite as: 569 U. S. ____
/// (2013) Opinion of the Court"), read past when a sentence goes on from the page before.
const RUNNING_HEAD_WORDS: usize = 15;

/// A sentence that a page break cuts ("On April 23, 2020, the district court certified a
/// class of current and" / "future Adelanto immigration detainees, …"): each half reads
/// with the other's terms, as one sentence, and the second takes the first's as its
/// context, while each keeps its own text, page and lines for the citation. The first half
/// is its page's last unit and ends in no sentence punctuation; the second is the first
/// prose unit of the next page, if read, that starts in lower case (after a page number and
/// short running heads). A half that starts with a capital is not joined: it may as well
/// start a sentence.
fn join_across_pages(units: &mut [Unit]) {
    let ends_sentence = |text: &str| {
        text.trim_end()
            .trim_end_matches(['"', '”', '’', '\'', ')', ']'])
            .ends_with(['.', '!', '?', ':', ';'])
    };
    for a in 0..units.len() {
        let page = units[a].page_no;
        let last_of_page = units.get(a + 1).is_none_or(|n| n.page_no != page);
        if !last_of_page || units[a].row || ends_sentence(&units[a].text) {
            continue;
        }
        // The next page's first prose units, past short running heads (pages are read in
        // rank order, so the next page's units may stand anywhere).
        let Some(next) = units.iter().position(|u| u.page_no == page + 1) else {
            continue;
        };
        let Some(b) = units[next..]
            .iter()
            .take_while(|u| u.page_no == page + 1)
            .take(3)
            .position(|u| {
                let text = u
                    .text
                    .trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
                !u.row && text.starts_with(char::is_lowercase)
            })
            .map(|k| next + k)
            .filter(|&b| {
                units[next..b]
                    .iter()
                    .all(|u| u.text.split_whitespace().count() < RUNNING_HEAD_WORDS)
            })
        else {
            continue;
        };
        let (first, second) = (units[a].terms.clone(), units[b].terms.clone());
        units[a].terms.extend(second);
        units[b].context = first.clone();
        units[b].terms.extend(first);
    }
}

/// The stems of the verbs a field label's agent nouns name ("Funder:" funds, "Reviewer:"
/// reviews, "Investigator:" investigates): "Who funds the study?" asks for the value under
/// "Funder:" ([`agent_verb`] of each word).
fn agent_verbs(label: &str) -> Vec<String> {
    label
        .split(|c: char| !c.is_alphabetic())
        .filter_map(|w| agent_verb(&w.to_lowercase()))
        .collect()
}

/// `range` cut at each offset of `cuts` strictly inside it, in order.
fn cut_at(range: std::ops::Range<usize>, cuts: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = range.start;
    for &cut in cuts.iter().filter(|&&c| c > range.start && c < range.end) {
        out.push(start..cut);
        start = cut;
    }
    out.push(start..range.end);
    out
}

/// A table-of-contents line: dot leaders followed by nothing but a page number (digits or
/// roman numerals), or a run of eight dots or more. An ellipsis in prose ("not dependent on
/// skill or dexterity . . . .” The canon of construction …") is no leader.
fn is_contents_line(text: &str) -> bool {
    let text = text.trim_end();
    ["....", ". . .", "……", "…"].iter().any(|leader| {
        text.rfind(leader).is_some_and(|i| {
            let after = text[i + leader.len()..]
                .trim_start_matches(['.', ' ', '…'])
                .trim();
            // The dots of the leader run that ends at `leader`.
            let run = text[..i + leader.len()].trim_end_matches(['.', ' ', '…']);
            let dots = text[run.len()..i + leader.len()]
                .chars()
                .filter(|&c| c == '.')
                .count();
            let page_number = !after.is_empty()
                && after.len() <= 6
                && after
                    .chars()
                    .all(|c| c.is_ascii_digit() || "ivxlcIVXLC-".contains(c));
            page_number || (after.is_empty() && dots >= 8)
        })
    })
}

/// Question words that say what type of value is asked ("date", "how much"), not what it
/// is about: they carry no weight ([`term_weights`]).
pub(super) const TYPE_WORDS: &[&str] = &[
    "date", "when", "much", "many", "name", "long", "far", "soon",
];

/// IDF weights of the question's terms (1× its own terms, ½× the metric expansions that
/// occur in the document, [`NAMING_WEIGHT`]× a term that names the document).
pub(super) fn term_weights(
    index: &RetrievalIndex,
    query: &QueryAnalysis,
    naming: &HashSet<String>,
) -> Vec<(String, f32)> {
    let asks: HashSet<&str> = TYPE_WORDS.iter().copied().collect();
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
/// matched term, 1 / (1 + words between / 4), IDF-weighted; 0 when none matches. The word
/// just before the span counts as no word away ("average 26ms", "maximum $5 million"): it
/// qualifies the value, nearer than the word just after. A term in
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
            || is_enumerator(word)
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
            // The word just before the value qualifies it ("average 26ms", "maximum $5
            // million"): nearer than the word just after.
            .map(|(i, (_, _, c))| {
                let d = if i + 1 == span_word {
                    0
                } else {
                    i.abs_diff(span_word)
                };
                d + CLAUSE_WORDS * c.abs_diff(span_clause)
            })
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

/// Whether a word opens an enumerated clause: "(ii)", "(b)". In "(i) general liability
/// insurance … of $5,000,000 …, (ii) workers compensation … of $1,000,000" each item is its
/// own clause. Digits in parentheses are not: "thirty (30) days" restates a number.
fn is_enumerator(word: &str) -> bool {
    word.strip_prefix('(')
        .and_then(|w| w.strip_suffix(')'))
        .is_some_and(|inner| {
            (1..=4).contains(&inner.len())
                && (inner.chars().all(|c| matches!(c, 'i' | 'v' | 'x'))
                    || (inner.len() == 1 && inner.chars().all(|c| c.is_ascii_lowercase())))
        })
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

/// A quote of a sentence read as a whole (a yes/no or free-text answer, with no span to
/// center on): the sentence when it has at most `2 * MAX_QUOTE` bytes, else the window of
/// that length, cut at word boundaries, that holds the most of the question's weight
/// (`weights`: stems and their IDF weights), starting a few words before its first
/// question term so that the words after the terms, where such a sentence says its answer
/// ("… disagree by more than 5 knots for more than 5 seconds"), are kept.
fn passage_quote(text: &str, weights: &[(String, f32)]) -> String {
    let limit = 2 * MAX_QUOTE;
    if text.len() <= limit {
        return text.to_string();
    }
    // Each word's byte offset and, when the question asks it, its stem.
    let mut words: Vec<(usize, Option<&str>)> = Vec::new();
    let mut at = 0;
    for word in text.split_whitespace() {
        let start = at + text[at..].find(word).unwrap_or(0);
        at = start + word.len();
        let bare: String = word
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        let asked = (!bare.is_empty())
            .then(|| stem(&bare))
            .and_then(|s| weights.iter().find(|(t, _)| *t == s))
            .map(|(t, _)| t.as_str());
        words.push((start, asked));
    }
    let weight_of = |t: &str| {
        weights
            .iter()
            .find(|(w, _)| w == t)
            .map_or(0.0, |(_, w)| *w)
    };
    // The window starting at each word: the weight of the distinct terms it holds.
    let mut best: Option<(f32, usize)> = None;
    for (i, &(start, _)) in words.iter().enumerate() {
        let mut seen: Vec<&str> = Vec::new();
        for &(offset, asked) in &words[i..] {
            if offset >= start + limit {
                break;
            }
            if let Some(t) = asked.filter(|t| !seen.contains(t)) {
                seen.push(t);
            }
        }
        let weight: f32 = seen.iter().map(|t| weight_of(t)).sum();
        if best.is_none_or(|(w, _)| weight > w + 1e-6) {
            best = Some((weight, i));
        }
    }
    let Some((_, first)) = best else {
        return quote(text, None);
    };
    // Three words of lead before the window's first question term.
    let lead = words[first..]
        .iter()
        .position(|(_, asked)| asked.is_some())
        .map_or(first, |p| (first + p).saturating_sub(3));
    let mut start = words[lead.max(first)].0;
    // A yes or no is read from the quote: the clause's opening, where its negation stands
    // ("in no event shall the Borrower … assign"), is kept when it is near; else the
    // nearest negation before the window.
    let clause = text[..start].rfind([';', ':']).map_or(0, |i| i + 1);
    if start - clause <= MAX_QUOTE {
        start = words
            .iter()
            .map(|(offset, _)| *offset)
            .find(|&o| o >= clause)
            .unwrap_or(start);
    } else if let Some(&(negation, _)) = words.iter().rev().find(|(o, _)| {
        *o < start && start - *o <= MAX_QUOTE && {
            let w = text[*o..]
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            crate::ask::compose::NEGATIONS.contains(&w.as_str())
        }
    }) {
        start = negation;
    }
    let mut end = (start + limit).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if end < text.len() {
        end = text[..end].rfind(' ').filter(|&e| e > start).unwrap_or(end);
    }
    text[start..end].trim().to_string()
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
        cells: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Question terms of weight 1, as the reader stems them.
    fn weights_of(words: &[&str]) -> Vec<(String, f32)> {
        words.iter().map(|w| (stem(w), 1.0)).collect()
    }

    #[test]
    fn contents_lines_have_leaders_to_a_page_number_and_ellipses_are_prose() {
        assert!(is_contents_line("Governing Law .................. 19"));
        assert!(is_contents_line(
            "Article IV. Definitions . . . . . . . . iv"
        ));
        assert!(is_contents_line("Exhibits ........................"));
        assert!(!is_contents_line(
            "not dependent on skill or dexterity . . . .” The canon"
        ));
        assert!(!is_contents_line(
            "the Court said . . . that the Compact controls"
        ));
        assert!(!is_contents_line("U.S. Const. art. I, § 8, cl. 3 . . . ."));
    }

    #[test]
    fn a_long_sentence_is_quoted_from_the_question_terms_with_what_follows_them() {
        let short = "The garbage collector is an exact, non-generational mark-and-sweep collector.";
        assert_eq!(passage_quote(short, &weights_of(&["garbage"])), short);
        let long = format!(
            "{} An airspeed disagree alert is a visual alert that the airspeed displayed on \
             the captain's and first officer's displays, as sensed by the pitot tubes on either \
             side of the airplane, disagree by more than 5 knots for more than 5 seconds.",
            "Background words that the question does not ask about at all. ".repeat(6)
        );
        let quoted = passage_quote(&long, &weights_of(&["airspeed", "disagree", "alert"]));
        assert!(quoted.len() <= 2 * MAX_QUOTE, "{quoted}");
        assert!(quoted.ends_with("for more than 5 seconds."), "{quoted}");
        assert!(quoted.contains("An airspeed disagree alert"), "{quoted}");
        assert!(long.contains(&quoted));
        // The negation that opens the clause stays in the quote.
        let negated = format!(
            "{}; in no event shall the Borrower, without the prior written consent of the \
             Lender, assign or transfer this Agreement or any of its rights or obligations \
             under it, whether by operation of law or otherwise, to any person.",
            "Background words that the question does not ask about at all, ".repeat(6)
        );
        let quoted = passage_quote(&negated, &weights_of(&["borrower", "assign", "agreement"]));
        assert!(quoted.starts_with("in no event"), "{quoted}");
    }

    /// The byte range of `part` in `sentence`.
    fn range_in(sentence: &str, part: &str) -> std::ops::Range<usize> {
        let i = sentence.find(part).unwrap();
        i..i + part.len()
    }

    #[test]
    fn an_amount_from_prose_needs_more_of_the_question_than_other_spans() {
        let candidate = |coverage: f32, cell: bool| Candidate {
            value: "$4,000,000".to_string(),
            written: None,
            quote: "Vyera shall make an equity investment of $4,000,000 in CytoDyn.".to_string(),
            page_no: 23,
            score: 0.42,
            coverage,
            cell: cell.then(|| ("Equity investment".to_string(), 2020)),
            computation: None,
            cite: Vec::new(),
        };
        // A warrant's exercise price, from a sentence about an equity investment.
        assert!(!candidate(0.36, false).answers_as(AnswerType::Amount));
        // A share an amount question is answered with ("grew … over 23 percent") is no
        // amount of money.
        let share = Candidate {
            value: "23 percent".to_string(),
            ..candidate(0.37, false)
        };
        assert!(share.answers_as(AnswerType::Amount));
        assert!(candidate(0.43, false).answers_as(AnswerType::Amount));
        // A statement cell is read by its row label; other spans keep the reader's threshold.
        assert!(candidate(0.36, true).answers_as(AnswerType::Amount));
        assert!(candidate(0.36, false).answers_as(AnswerType::Date));
        assert!(!candidate(0.30, false).answers_as(AnswerType::Date));
    }

    #[test]
    fn a_candidate_that_answers_ranks_above_a_better_scored_one_that_does_not() {
        let candidate = |value: &str, page_no: u32, score: f32, coverage: f32| Candidate {
            value: value.to_string(),
            written: None,
            quote: value.to_string(),
            page_no,
            score,
            coverage,
            cell: None,
            computation: None,
            cite: Vec::new(),
        };
        // NVIDIA's 10-Q: the statement's "Revenue" row scored above the sentence that
        // states Automotive revenue, but shares one word with the question.
        let mut candidates = vec![
            candidate("$13,507 million", 3, 0.66, 0.25),
            candidate("$4,045 million", 3, 0.60, 0.25),
            candidate("$253 million", 28, 0.57, 0.79),
            candidate("$253 million", 27, 0.50, 0.70),
        ];
        rank(&mut candidates, AnswerType::Amount);
        let order: Vec<(&str, u32)> = candidates
            .iter()
            .map(|c| (c.value.as_str(), c.page_no))
            .collect();
        assert_eq!(
            order,
            [
                ("$253 million", 28),
                ("$13,507 million", 3),
                ("$4,045 million", 3)
            ]
        );
    }

    #[test]
    fn a_yes_no_question_turns_on_what_it_asks_any_of() {
        assert_eq!(
            any_focus("Are participants offered any financial incentive for taking part?"),
            stems("financial incentive")
        );
        assert_eq!(
            any_focus("Is there any limit on room rent?"),
            stems("limit")
        );
        assert!(any_focus("Did the court grant the motion?").is_empty());
        assert!(any_focus("Can either party terminate at any time?").is_empty());
        assert!(any_focus("Are there any other fees?").is_empty());
    }

    #[test]
    fn the_word_just_before_a_value_qualifies_it() {
        let sentence = "SunSpider consists of 26 short-running (less than 250ms, average 26ms) \
                        JavaScript programs.";
        let weights = weights_of(&["average"]);
        let average = proximity(&weights, sentence, &range_in(sentence, "26ms"));
        let limit = proximity(&weights, sentence, &range_in(sentence, "250ms"));
        assert!(average > limit, "{average} vs {limit}");
    }

    #[test]
    fn terms_in_another_clause_are_farther() {
        let sentence = "The briefing will conclude on August 17, 2020, and oral argument has been \
                        scheduled for September 15, 2020.";
        let weights = weights_of(&["oral", "argument", "scheduled"]);
        let august = proximity(&weights, sentence, &range_in(sentence, "August 17, 2020"));
        let september = proximity(
            &weights,
            sentence,
            &range_in(sentence, "September 15, 2020"),
        );
        assert!(september > august + 0.2, "{september} vs {august}");
    }

    /// The Reynolds TSA's insurance clause: the workers compensation limit is item (ii)'s
    /// $1,000,000, not item (i)'s $5,000,000 that stands nearer the words "workers
    /// compensation".
    #[test]
    fn each_enumerated_item_is_a_clause() {
        let sentence = "Each Party shall maintain (i) general liability insurance with a limit \
                        of at least $5,000,000 per occurrence, (ii) workers compensation \
                        insurance with a limit of at least $1,000,000 per occurrence.";
        let weights = weights_of(&["workers", "compensation", "limit", "occurrence"]);
        let general = proximity(&weights, sentence, &range_in(sentence, "$5,000,000"));
        let workers = proximity(&weights, sentence, &range_in(sentence, "$1,000,000"));
        assert!(workers > general, "{workers} vs {general}");
        assert!(is_enumerator("(ii)") && is_enumerator("(b)"));
        assert!(!is_enumerator("(30)") && !is_enumerator("(ICU)"));
    }

    #[test]
    fn a_field_label_is_a_short_line_ending_in_a_colon_and_cuts_the_sentence_it_runs_into() {
        assert!(is_field_label("Chief Investigator:"));
        assert_eq!(agent_verbs("Funder:"), [stem("funds")]);
        assert_eq!(agent_verbs("Chief Investigator:"), [stem("investigates")]);
        let text = "• Getting It Right First Time (GIRFT) ";
        assert_eq!(
            field_value(text).map(|r| &text[r]),
            Some("Getting It Right First Time (GIRFT)")
        );
        assert_eq!(
            field_value("• the patients who took part in the study"),
            None
        );
        assert_eq!(
            agent_verbs("Independent Scientific Reviewer:"),
            [stem("review")]
        );
        assert!(is_field_label(" Sponsor: "));
        assert!(!is_field_label("Current Protocol Number: V3 16.10.23"));
        assert!(!is_field_label(
            "The Licensee shall pay the following amounts:"
        ));
        assert!(!is_field_label("Chief Investigator"));
        assert!(!is_field_label("following amounts:"));
        assert!(runs_on("The Licensee shall pay the Licensor the"));
        assert!(runs_on("as set out below and in Schedule A,"));
        assert!(!runs_on(
            "Current Protocol Number: V3 16.10.23 IRAS no – 327246"
        ));
        assert!(!runs_on("The fee is payable in advance."));
        let text = "IRAS no - 327246 Chief Investigator: Mr John McGrath.";
        let label = text.find("Chief").unwrap();
        let got: Vec<&str> = cut_at(0..text.len(), &[0, label, text.len()])
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            got,
            ["IRAS no - 327246 ", "Chief Investigator: Mr John McGrath."]
        );
        let name = text.find("Mr").unwrap();
        let got: Vec<&str> = cut_at(4..text.len(), &[label, name])
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            got,
            [" no - 327246 ", "Chief Investigator: ", "Mr John McGrath."]
        );
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
    fn figures_of_a_paired_list_take_the_date_or_period_in_their_place() {
        let text = "As of July 1, 2023 and September 24, 2022, the Company had $4.0 billion and \
                    $10.0 billion of Commercial Paper outstanding, respectively.";
        let amounts = spans::find(AnswerType::Amount, text, None);
        assert_eq!(
            sentence::paired_date_and_period(text, &amounts, &amounts[1]),
            (Some("september242022".to_string()), None)
        );
        let text = "an expense of 11.4% and 10.4% for the second quarter and first half of \
                    fiscal year 2024, respectively, and 38.0% for the second quarter of 2023.";
        let rates = spans::find(AnswerType::Percentage, text, None);
        assert_eq!(
            sentence::paired_date_and_period(text, &rates, &rates[0]),
            (None, Some("second quarter".to_string()))
        );
        assert_eq!(
            sentence::paired_date_and_period(text, &rates, &rates[1]),
            (None, Some("first half".to_string()))
        );
        // A figure alone in its list pairs with nothing.
        assert_eq!(
            sentence::paired_date_and_period(text, &rates, &rates[2]),
            (None, None)
        );
        // A list of three periods, the last noun standing for all.
        let text = "$5, $7 and $9 for the three, six and nine months ended September 30, 2024";
        let amounts = spans::find(AnswerType::Amount, text, None);
        assert_eq!(
            sentence::paired_date_and_period(text, &amounts, &amounts[0]).1,
            Some("three months".to_string())
        );
        let text = "$5 and $7 for the three and six months ended June 30, 2024";
        let amounts = spans::find(AnswerType::Amount, text, None);
        assert_eq!(
            sentence::paired_date_and_period(text, &amounts, &amounts[1]).1,
            Some("six months".to_string())
        );
    }

    #[test]
    fn a_numbered_definition_defines_only_the_term_asked() {
        let weights = weights_of(&["soon", "end", "calendar", "quarter", "royalty", "report"]);
        let year = "1.18 “Calendar Year” means the twelve-month period ending on December 31.";
        assert!(!names_defined_term(
            &weights,
            year,
            &range_in(year, "twelve-month")
        ));
        let quarter = "1.19 “Calendar Quarter” means each period of three months.";
        assert!(names_defined_term(
            &weights,
            quarter,
            &range_in(quarter, "three months")
        ));
    }

    #[test]
    fn british_spellings_stem_as_american_ones() {
        for (british, american) in [
            ("hospitalisation", "hospitalization"),
            ("hospitalised", "hospitalized"),
            ("authorised", "authorized"),
            ("recognising", "recognizing"),
            ("organises", "organizes"),
        ] {
            assert_eq!(stem(british), stem(american), "{british}");
        }
        for word in [
            "raise",
            "advertise",
            "exercise",
            "enterprise",
            "otherwise",
            "promised",
        ] {
            assert_eq!(american(word), word);
        }
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
        // A past-tense verb ends it; a participle before the noun does not.
        assert_eq!(
            counted_noun("How many people died in the accident?").as_deref(),
            Some("people")
        );
        assert_eq!(
            counted_noun("How many registered users logged in?").as_deref(),
            Some("users")
        );
        assert_eq!(
            counted_noun("How many newly issued shares were sold?").as_deref(),
            Some("shares")
        );
        assert_eq!(
            counted_noun("How many members make up the Joint Committee?").as_deref(),
            Some("members")
        );
        assert_eq!(
            counted_noun("How many people work at the plant?").as_deref(),
            Some("people")
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
    fn a_question_names_its_document_in_its_closing_phrase() {
        let phrase = |q: &str| {
            DOCUMENT_PHRASE
                .captures(q)
                .and_then(|c| c.get(2))
                .map(|m| m.as_str().to_string())
        };
        assert_eq!(
            phrase("Who is the FAA contact for further information on the proposed 737 MAX airworthiness directive?").as_deref(),
            Some("proposed 737 MAX airworthiness directive")
        );
        assert_eq!(
            phrase("Under the laws of which state is the Servicer organized under the Verizon transfer and servicing agreement?").as_deref(),
            Some("Verizon transfer and servicing agreement")
        );
        assert_eq!(
            phrase("What was Boeing's revenue in Boeing's 2022 10-K?").as_deref(),
            Some("2022 10-K")
        );
        // Statements and a court's decisions are what questions ask about.
        assert_eq!(
            phrase("What is the capital expenditure shown in the cash flow statement?"),
            None
        );
        assert_eq!(
            phrase("What did the court do with the Court of Appeals decision?"),
            None
        );
        assert_eq!(
            phrase("What is the royalty rate for the licensed products?"),
            None
        );
        // The last phrase, not one that starts earlier and takes the asked words with it.
        assert_eq!(
            phrase("What is the royalty rate for the licensed products under the agreement?")
                .as_deref(),
            Some("agreement")
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
        assert_eq!(
            implied_terms("No. 3:20-cv-02731 Hon. Vince Chhabria"),
            [stem("judge"), stem("presided")]
        );
        let cover = "QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE \
                     ACT OF 1934 For the quarterly period ended July 30, 2023 OR";
        assert!(implied_terms(cover).contains(&"cover".to_string()));
        assert!(implied_terms("For the fiscal year ended January 28, 2024")
            .contains(&"fiscal".to_string()));
        assert!(implied_terms("For the year ended December 31, 2022, revenue rose 4%.").is_empty());
    }
}
