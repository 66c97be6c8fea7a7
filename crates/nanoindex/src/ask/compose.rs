//! From the reader's parts and the model's draft to the answer: the value stated in a
//! sentence, yes/no from polarity, a free-text draft only when the cited sentences support it,
//! a computation the draft made only when its inputs are in the evidence, and "not found".

use std::collections::{BTreeSet, HashSet};
use std::sync::LazyLock;

use nanoindex_core::{Answer, AnswerStatus};
use nanoindex_retrieve::analysis::{numbers_in, tokenize, NumberMention};
use nanoindex_retrieve::Snippet;

use super::answer_type::{self, AnswerType};
use super::hygiene::{is_degenerate, is_refusal, looks_like_instruction, strip_echo};
use super::reader::{self, PartReading, ReaderInput};
use super::session::Session;
use super::{named, phrase, verify, AskError};

impl Session<'_> {
    /// (6) The reader finds the answer's value in the pages read; verification and
    /// citations; builds the answer.
    pub(super) fn finish(
        mut self,
        draft: String,
        reasoning: Option<String>,
    ) -> Result<Answer, AskError> {
        self.trace.verification.draft = draft.clone();
        let mut draft = strip_echo(&draft);
        if is_degenerate(&draft) || is_refusal(&draft) {
            draft.clear();
        }
        let (draft, corrections) = verify::correct_computations(&draft);
        self.trace.verification.corrections = corrections;
        let mut parts = self.read_parts();
        // In `fast` the reader's ranking of span candidates stands (see
        // [`Session::draft_can_change`]).
        if self.options.mode != super::Mode::Fast {
            for part in &mut parts {
                prefer_drafted(part, &draft);
            }
        }
        let (content, status, cited) = self.compose(&parts, &draft);
        self.trace.reader = parts;
        self.trace.status = status.as_str().to_string();
        let mut cited = cited;
        let mut seen_lines = HashSet::new();
        cited.retain(|s| seen_lines.insert(s.lines));
        let citations = self.citations(&cited)?;
        let mut content = content;
        if citations.is_empty() && status != AnswerStatus::NotFound {
            content.push_str(
                "\n(No citation could be verified on the PDF's pages; treat this answer as unsupported.)",
            );
        }
        self.trace.evidence_lines = self
            .evidence
            .iter()
            .map(|s| {
                format!(
                    "p.{}: {}",
                    s.page_no,
                    s.text.chars().take(160).collect::<String>()
                )
            })
            .collect();
        self.step("verify");
        let mode = self.trace.mode.clone();
        let trace = serde_json::to_value(&self.trace).unwrap_or(serde_json::Value::Null);
        let status = if citations.is_empty() && status == AnswerStatus::Answered {
            AnswerStatus::Partial
        } else {
            status
        };
        Ok(Answer {
            content,
            status: Some(status),
            reasoning,
            citations,
            mode,
            trace: Some(trace),
        })
    }

    /// The answer's text, status and the snippets to cite, from the reader's parts: each
    /// answered part states its value in a sentence (with the computation for a computed
    /// value); a yes/no or free-text part gives the model's draft when the cited sentences
    /// support it, else quotes the best sentence; a part not found says so.
    pub(super) fn compose(
        &mut self,
        parts: &[PartReading],
        draft: &str,
    ) -> (String, AnswerStatus, Vec<Snippet>) {
        if let Some(cited) = self.verified_computation(parts, draft) {
            return (draft.trim().to_string(), AnswerStatus::Answered, cited);
        }
        let mut sentences: Vec<String> = Vec::new();
        let mut cited: Vec<Snippet> = Vec::new();
        let (mut answered, mut quoted) = (0, 0);
        for part in parts {
            let Some(best) = part.answer() else {
                sentences.push(phrase::not_stated(&part.question));
                continue;
            };
            answered += 1;
            let name = (part.kind == AnswerType::Text)
                .then(|| named_answer(part))
                .flatten();
            // A "which <noun>" question whose sentence names it beside that noun: the name,
            // with the sentence that says it.
            if let Some((name, said)) = name {
                sentences.push(format!(
                    "{name} — page {} says: \"{}\"",
                    said.page_no, said.quote
                ));
                cited.extend(said.cite.iter().cloned());
                continue;
            }
            // Whether a policy covers what one of its exclusions names: no (yes, asked
            // whether it is excluded), whatever the exclusion's own wording negates.
            let excluded = (part.kind == AnswerType::YesNo && best.coverage >= YES_NO_COVERAGE)
                .then(|| coverage_asked(&part.question))
                .flatten()
                .filter(|_| self.among_exclusions(best));
            if let Some(asks_excluded) = excluded {
                let lower = best.quote.to_lowercase();
                if EXCLUSION_CONDITIONS.iter().any(|w| lower.contains(w)) {
                    quoted += 1;
                }
                sentences.push(format!(
                    "{} — page {}, among the exclusions, says: \"{}\"",
                    if asks_excluded { "Yes" } else { "No" },
                    best.page_no,
                    best.quote
                ));
                cited.extend(best.cite.iter().cloned());
                continue;
            }
            match part.kind {
                AnswerType::YesNo => {
                    // Yes or no from the polarity of a matching sentence against the
                    // question's, shown with its quote. A verdict from a strongly matching
                    // sentence (coverage at least YES_NO_COVERAGE) that reverses nothing by
                    // other words ("excluded", "except") is an answer; one from a weaker
                    // sentence that says what the question asks "any" of stays partial; a
                    // weaker match is quoted without a yes or no.
                    let mut terms: BTreeSet<String> =
                        tokenize(&part.question).into_iter().collect();
                    widen_with_synonyms(&mut terms);
                    // A sentence that says what the question asks "any" of ("There are no
                    // financial incentives for participation") decides it at the reader's
                    // own threshold.
                    let focus = reader::any_focus(&part.question);
                    let said = reader::stems(&best.quote);
                    let needed = if !focus.is_empty() && focus.iter().all(|t| said.contains(t)) {
                        reader::MIN_COVERAGE
                    } else {
                        YES_NO_COVERAGE
                    };
                    let verdict = best.coverage >= needed
                        && states(&best.quote)
                        && !offers_alternatives(&part.question)
                        && !requests_terms(&best.quote, &part.question, &terms);
                    // The clause and negation that decide are read with all the question's
                    // terms and with its predicate's ("does not maintain an inventory", not
                    // the subject's "Gift Surplus operates an e-commerce website, …, but
                    // does not maintain …"): where the two readings disagree, no verdict.
                    let predicate = predicate_terms(&part.question);
                    let polarity = |terms: &BTreeSet<String>| {
                        negates_terms(&best.quote, terms) == negates_terms(&part.question, terms)
                    };
                    let yes = polarity(&terms);
                    let verdict = verdict && (predicate.is_empty() || polarity(&predicate) == yes);
                    let sentence = if verdict {
                        if best.coverage < YES_NO_COVERAGE || reverses(&best.quote) {
                            quoted += 1;
                        }
                        format!(
                            "{} — page {} says: \"{}\"",
                            if yes { "Yes" } else { "No" },
                            best.page_no,
                            best.quote
                        )
                    } else {
                        quoted += 1;
                        format!(
                            "The most relevant passage (page {}) says: \"{}\"",
                            best.page_no, best.quote
                        )
                    };
                    sentences.push(sentence);
                    cited.extend(best.cite.iter().cloned());
                }
                // A court's disposition read from its own words ("MODIFIED AND AFFIRMED."):
                // stated, with the line that states it.
                AnswerType::Text
                    if answer_type::asks_disposition(&part.question)
                        && best.value != best.quote =>
                {
                    sentences.push(format!(
                        "{} — page {} says: \"{}\"",
                        best.value, best.page_no, best.quote
                    ));
                    cited.extend(best.cite.iter().cloned());
                }
                AnswerType::Text => {
                    // A cause is quoted from the sentence that gives it: a draft's paraphrase
                    // of a cause ("driven by a change in operating margin") is not checkable.
                    let support = supporting(draft, &part.candidates)
                        .filter(|_| !sentences.iter().any(|s| s == draft.trim()))
                        .filter(|_| !answer_type::asks_cause(&part.question));
                    if let Some(c) = support {
                        sentences.push(draft.trim().to_string());
                        cited.extend(c.cite.iter().cloned());
                    } else {
                        if !draft.is_empty() {
                            self.trace
                                .verification
                                .unsupported_figures
                                .push(format!("draft not supported by the cited text: {draft}"));
                        }
                        sentences.push(format!(
                            "The most relevant passage (page {}) says: \"{}\"",
                            best.page_no, best.quote
                        ));
                        cited.extend(best.cite.iter().cloned());
                        quoted += 1;
                    }
                }
                AnswerType::Change | AnswerType::Choice => {
                    // The reader's sentence states the change or the choice it computed from
                    // cited cells.
                    let mut sentence = format!("{}.", best.value.trim_end_matches('.'));
                    if let Some(computation) = &best.computation {
                        sentence
                            .push_str(&format!(" Computed from the statements: {computation}."));
                    }
                    sentences.push(sentence);
                    cited.extend(best.cite.iter().cloned());
                }
                AnswerType::Definition => {
                    sentences.push(format!("Page {}: \"{}\"", best.page_no, best.quote));
                    cited.extend(best.cite.iter().cloned());
                }
                _ => {
                    let mut sentence = phrase::sentence(&part.question, &best.value);
                    if let Some(written) = best
                        .written
                        .as_deref()
                        .filter(|w| w.starts_with(['(', '-']))
                    {
                        sentence.push_str(&format!(" (shown as {written} in the table)"));
                    }
                    if let Some(computation) = &best.computation {
                        sentence
                            .push_str(&format!(" Computed from the statements: {computation}."));
                    }
                    sentences.push(sentence);
                    cited.extend(best.cite.iter().cloned());
                }
            }
        }
        if answered == 0 {
            let mut closest: Vec<Snippet> = parts
                .iter()
                .filter_map(|p| p.candidates.first())
                .flat_map(|c| c.cite.first().cloned())
                .collect();
            if closest.is_empty() {
                closest.extend(self.best_evidence());
            }
            let mut content = String::from("No answer found in the pages read");
            if closest.is_empty() {
                content.push('.');
            } else {
                content.push_str("; the closest passages are:");
                for s in closest.iter().take(2) {
                    content.push_str(&format!("\n  page {}: \"{}\"", s.page_no, s.text.trim()));
                }
            }
            return (content, AnswerStatus::NotFound, Vec::new());
        }
        let status = if answered == parts.len() && quoted == 0 {
            AnswerStatus::Answered
        } else {
            AnswerStatus::Partial
        };
        (sentences.join(" "), status, cited)
    }

    /// Whether `candidate`'s sentence is one of the policy's exclusions ([`is_exclusion`]),
    /// read with the titles of the sections that hold it (its passage's title path).
    fn among_exclusions(&self, candidate: &reader::Candidate) -> bool {
        let titles: Vec<&str> = candidate
            .cite
            .first()
            .and_then(|s| {
                self.doc
                    .index
                    .passages()
                    .iter()
                    .find(|p| p.node_id == s.node_id)
            })
            .map(|p| p.titles().collect())
            .unwrap_or_default();
        is_exclusion(&candidate.quote, &titles)
    }

    /// The reader's parts for the question over the pages read so far (the pages and the
    /// ranking decide them; the model's draft does not).
    pub(super) fn read_parts(&self) -> Vec<PartReading> {
        let addressed_to_model = |text: &str| looks_like_instruction(text);
        let input = ReaderInput {
            index: &self.doc.index,
            ranking: &self.ranking,
            pages: &self.trace.pages_read,
            addressed_to_model: &addressed_to_model,
        };
        reader::read(&input, &self.query.question)
    }

    /// Whether a `fast` draft could change the answer composed from `parts`: the places
    /// [`Session::compose`] reads a draft in `fast` — a change question the reader did not
    /// compute ([`Session::verified_computation`]) and an answered free-text part (a
    /// supported draft is the answer). When it could not, the `fast` pipeline does not call
    /// the model: its answer would be the same.
    ///
    /// Unlike the agentic modes, `fast` does not let the draft promote a runner-up span
    /// candidate ([`prefer_drafted`]). Measured with the default model once its fast replies
    /// were compact JSON (before, they were cut mid-string at the token budget and never
    /// parsed): on the FinanceBench dev and real sets, the 2 answers a draft's choice
    /// changed both went from the right figure to a wrong one (AMCOR's adjusted EBITDA
    /// became its adjusted tax expense; Apple's quarterly iPhone sales became another
    /// figure), and no answer improved.
    pub(super) fn draft_can_change(&self, parts: &[PartReading]) -> bool {
        self.draft_may_compute(parts)
            || parts.iter().any(|part| {
                part.kind == AnswerType::Text
                    && part.answer().is_some_and(|best| {
                        !(answer_type::asks_disposition(&part.question) && best.value != best.quote)
                            && named_answer(part).is_none()
                    })
            })
    }

    /// A change question ("how much did … grow") whose change the reader did not compute
    /// from statement cells: a draft's verified computation may answer it.
    fn draft_may_compute(&self, parts: &[PartReading]) -> bool {
        let lower = self.query.question.to_lowercase();
        let asks_change = lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| CHANGE_WORDS.contains(&w));
        let reader_computed = parts
            .iter()
            .any(|p| p.answer().is_some_and(|c| c.computation.is_some()));
        asks_change && !reader_computed
    }

    /// For a question about a change ("how much did … grow"), a draft that computes it
    /// (arithmetic already re-computed) from figures that all occur in the evidence is the
    /// answer, unless the reader computed it from statement cells itself. Returns the
    /// snippets that hold the draft's input figures.
    pub(super) fn verified_computation(
        &self,
        parts: &[PartReading],
        draft: &str,
    ) -> Option<Vec<Snippet>> {
        if !self.draft_may_compute(parts) {
            return None;
        }
        let computations = verify::computations(draft);
        if computations.is_empty() {
            return None;
        }
        let results: Vec<std::ops::Range<usize>> = computations
            .iter()
            .map(|c| c.result_range.clone())
            .collect();
        let inputs: Vec<NumberMention> = numbers_in(draft)
            .into_iter()
            .filter(|n| !is_year_figure(n) && !results.contains(&n.range))
            .collect();
        let mut cited: Vec<Snippet> = Vec::new();
        for figure in &inputs {
            let holder = self
                .evidence
                .iter()
                .find(|s| verify::supported_by(figure, &numbers_in(&s.text)))?;
            if !cited.iter().any(|c| c.line == holder.line) {
                cited.push(holder.clone());
            }
        }
        (!cited.is_empty()).then_some(cited)
    }

    /// How well a snippet answers the question: retrieval's one evidence score
    /// ([`RetrievalIndex::evidence_score`](nanoindex_retrieve::RetrievalIndex::evidence_score))
    /// of its line under this question's page ranking.
    pub(super) fn evidence_rank(&self, s: &Snippet) -> f32 {
        self.doc
            .index
            .evidence_score(&self.query, &self.ranking, s.line)
    }

    /// The evidence snippet that best matches the question.
    pub(super) fn best_evidence(&self) -> Option<Snippet> {
        self.evidence
            .iter()
            .max_by(|a, b| {
                self.evidence_rank(a)
                    .total_cmp(&self.evidence_rank(b))
                    .then(b.line.cmp(&a.line))
            })
            .cloned()
    }
}

/// The model may choose among the reader's verified candidates: the first candidate whose
/// value the draft states, scoring at least 3/4 of the best, is moved first.
pub(super) fn prefer_drafted(part: &mut PartReading, draft: &str) {
    if draft.is_empty() {
        return;
    }
    let stated = reader::normalise_value(draft);
    let chosen = promotable(part).find(|&i| {
        let v = reader::normalise_value(&part.candidates[i].value);
        !v.is_empty() && stated.contains(&v)
    });
    if let Some(i) = chosen.filter(|&i| i > 0) {
        let chosen = part.candidates.remove(i);
        part.candidates.insert(0, chosen);
    }
}

/// Share of the reader's best score a candidate needs for the model's draft to choose it
/// over the best ([`prefer_drafted`], [`supporting`]).
pub(super) const DRAFT_CHOICE: f32 = 0.75;

/// Indices of a span part's candidates that a draft may choose, best first: scoring at least
/// [`DRAFT_CHOICE`] of the best, with enough coverage or computed from cited cells. Empty for other
/// answer types.
fn promotable(part: &PartReading) -> impl Iterator<Item = usize> + '_ {
    let best = part.candidates.first().map_or(0.0, |c| c.score);
    let span = part.kind.is_span();
    part.candidates
        .iter()
        .enumerate()
        .filter(move |(_, c)| {
            span && c.score >= DRAFT_CHOICE * best
                && (c.coverage >= reader::MIN_COVERAGE || c.computation.is_some())
        })
        .map(|(i, _)| i)
}

/// Candidates of an answered part, best first, in which a "which NOUN" question's name is
/// looked for.
const NAMED_CANDIDATES: usize = 3;

/// The name a "which NOUN" part asks for ([`named::name`]) and the candidate sentence that
/// gives it: the first of the part's best [`NAMED_CANDIDATES`] that names it beside the
/// noun, the best one whatever its coverage, a later one only when it matches strongly
/// (coverage at least [`YES_NO_COVERAGE`]) and scores at least [`DRAFT_CHOICE`] of the best: "Which systems of medicine are covered under
/// the AYUSH Treatment benefit?" from "AYUSH Treatment The Company shall indemnify …
/// treatment under Ayurveda, Yoga and Naturopathy, Unani, Sidha and Homeopathy systems",
/// where the best sentence names no system. `None` for a part not answered.
fn named_answer(part: &PartReading) -> Option<(String, reader::Candidate)> {
    let best = part.answer()?.score;
    part.candidates
        .iter()
        .take(NAMED_CANDIDATES)
        .enumerate()
        .filter(|(i, c)| {
            *i == 0 || (c.coverage >= YES_NO_COVERAGE && c.score >= DRAFT_CHOICE * best)
        })
        .find_map(|(_, c)| named::name(&part.question, &c.quote).map(|n| (n, c.clone())))
}

/// What a yes/no question asks of a policy's cover: `Some(false)` when it asks whether
/// something is covered or paid for ("Does the policy pay for childbirth expenses?"),
/// `Some(true)` when it asks whether it is excluded, `None` for anything else or a negated
/// question ("Is dental treatment not covered?").
pub(super) fn coverage_asked(question: &str) -> Option<bool> {
    let words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.iter().any(|w| NEGATIONS.contains(&w.as_str())) {
        return None;
    }
    if words.iter().any(|w| w.starts_with("exclud")) {
        return Some(true);
    }
    const COVER: &[&str] = &[
        "cover",
        "covers",
        "covered",
        "pay",
        "pays",
        "paid",
        "payable",
        "reimburse",
        "reimburses",
        "reimbursed",
        "indemnify",
        "indemnifies",
        "admissible",
    ];
    words
        .iter()
        .any(|w| COVER.contains(&w.as_str()))
        .then_some(false)
}

/// An exclusion's code as insurance policies number them ("Maternity Expenses (Code – Excl
/// 18)", "Code- Excl11: Excluded Providers").
static EXCLUSION_CODE: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?i)\bcode\s*[-–—:]?\s*excl\s*\d").expect("valid regex"));

/// Words by which a passage under exclusions lifts one ("This exclusion shall not, however,
/// apply if …"): it does not say that what it names is excluded.
const EXCLUSION_LIFTED: &[&str] = &[
    "not apply",
    "not, however, apply",
    "not be applicable",
    "not applicable",
];

/// Whether `quote`, read in the sections titled `titles` (from the top-level section down),
/// is one of a policy's exclusions: it carries an exclusion's code, or a section that holds
/// it (below the document's own title, when there are several) is titled as exclusions and
/// none as inclusions ("Inclusion and Exclusion Criteria"), and it does not lift the
/// exclusion.
pub(super) fn is_exclusion(quote: &str, titles: &[&str]) -> bool {
    let lower = quote.to_lowercase();
    let sections: Vec<String> = titles
        .iter()
        .skip(usize::from(titles.len() > 1))
        .map(|t| t.to_lowercase())
        .collect();
    let listed = EXCLUSION_CODE.is_match(quote)
        || (sections.iter().any(|t| t.contains("exclusion"))
            && !sections.iter().any(|t| t.contains("inclusion")));
    listed && !EXCLUSION_LIFTED.iter().any(|w| lower.contains(w))
}

/// Words by which an exclusion holds only for a time or a case ("excluded until the expiry
/// of 36 months", "unless arising from an accident"): its "no" is shown, not asserted.
const EXCLUSION_CONDITIONS: &[&str] = &["until", "unless", "expiry", "waiting period"];

/// Least coverage of the best sentence for a yes/no verdict to be given beside its quote.
pub(super) const YES_NO_COVERAGE: f32 = 0.55;

/// Words of a question about a change between two figures.
pub(super) const CHANGE_WORDS: &[&str] = &[
    "grow",
    "grew",
    "growth",
    "increase",
    "increased",
    "decrease",
    "decreased",
    "change",
    "changed",
    "decline",
    "declined",
    "difference",
    "compare",
    "compared",
    "drop",
    "dropped",
    "rise",
    "rose",
    "fell",
    "fall",
];

/// Lowercase words of `text` (apostrophes kept, `’` as `'`), with whether each is a
/// negation (`not`, `no`, `never`, …, `n't`; `No.` before a number is a numero).
pub(super) fn negation_words(text: &str) -> Vec<(String, bool)> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('’', "'"))
        .collect();
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let numero = w == "no"
                && words
                    .get(i + 1)
                    .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()));
            let negation = (NEGATIONS.contains(&w.as_str()) && !numero) || w.ends_with("n't");
            (w.clone(), negation)
        })
        .collect()
}

/// Whether `text` negates: a negation word among its words.
pub(super) fn is_negated(text: &str) -> bool {
    negation_words(text).iter().any(|(_, negation)| *negation)
}

/// Words after a negation in which one of the question's terms makes it negate them.
const NEGATION_REACH: usize = 4;

/// Whether `text` negates what it says about `terms`: in its clause that holds most of them
/// (clauses end at `;`, `.`, ", and", ", but"), an odd number of negation words stand within
/// [`NEGATION_REACH`] words before one of them ("does not pre-empt", "no financial
/// incentives"), so that the statement about the question's own words is negated, not some
/// other clause. Two negations cancel: "No Party may assign … without the prior written
/// consent" says assigning without consent is not allowed, against the question "Can a party
/// assign … without consent?", which negates once.
pub(super) fn negates_terms(text: &str, terms: &BTreeSet<String>) -> bool {
    let clause = clause_of(text, terms);
    let words = negation_words(clause);
    let negations = words
        .iter()
        .enumerate()
        .filter(|(i, (_, negation))| {
            *negation
                && words[i + 1..]
                    .iter()
                    .take(NEGATION_REACH)
                    .any(|(next, _)| tokenize(next).iter().any(|t| terms.contains(t)))
        })
        .count();
    negations % 2 == 1
}

/// The clause of `text` that holds most of `terms` (clauses end at `;`, `.`, ", and",
/// ", but"): it speaks for the sentence — "does not pre-empt the statutes, and no statutes
/// were invalidated" negates pre-empting once. A proviso ("provided …", "except …",
/// "notwithstanding …") speaks only when no other clause holds a term: "No Party may assign
/// … without the prior written consent of the other Party; provided, that … any Party may
/// assign … to its Affiliates" says no.
fn clause_of<'t>(text: &'t str, terms: &BTreeSet<String>) -> &'t str {
    let term_count = |clause: &str| {
        tokenize(clause)
            .iter()
            .filter(|t| terms.contains(*t))
            .count()
    };
    // A proviso ("; provided, that notwithstanding the foregoing, any Party may assign …")
    // states the exception, not the rule: it decides only when no other clause holds a term.
    // "Notwithstanding the foregoing, no Party shall assign …" opening the sentence is the
    // rule itself.
    let proviso = |i: usize, c: &str| {
        let lower = c.trim_start().to_lowercase();
        lower.starts_with("provided")
            || (i > 0
                && ["except", "notwithstanding"]
                    .iter()
                    .any(|w| lower.starts_with(w)))
    };
    // U+037E, the Greek question mark, is how some PDFs' fonts set a semicolon.
    let clauses: Vec<&str> = text
        .split([';', '.', '\u{37e}'])
        .flat_map(|c| c.split(", and ").flat_map(|c| c.split(", but ")))
        .collect();
    let ruling = clauses
        .iter()
        .enumerate()
        .filter(|(i, c)| !proviso(*i, c))
        .map(|(_, c)| c)
        .max_by_key(|c| term_count(c))
        .filter(|c| term_count(c) > 0);
    ruling
        .or_else(|| clauses.iter().max_by_key(|c| term_count(c)))
        .copied()
        .unwrap_or(text)
}

/// Words that ask for or propose what follows instead of stating it: a motion's "the court
/// should grant …", "urges the Court to".
const REQUEST_WORDS: &[&str] = &["should", "would", "could", "might", "urge", "urges"];

/// Words a request word may stand before one of the question's terms.
const REQUEST_REACH: usize = 2;

/// Whether `text` only asks for or proposes what it says about `terms` while `question`
/// asks whether it happened ("Did the court grant the motion?"): in the clause holding most
/// of the terms ([`clause_of`]), a request word ([`REQUEST_WORDS`]) stands within
/// [`REQUEST_REACH`] words before one of them. A motion's "the court should grant Appellees
/// a 30-day briefing extension" says nothing of whether the court granted it, so it gives
/// no yes or no.
pub(super) fn requests_terms(text: &str, question: &str, terms: &BTreeSet<String>) -> bool {
    // "In Zepeda Rivas, did the court …": the question proper after a leading clause.
    let first = answer_type::after_leading_clause(question)
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase();
    if !["did", "was", "were", "has", "have", "had"].contains(&first.as_str()) {
        return false;
    }
    let words = negation_words(clause_of(text, terms));
    words.iter().enumerate().any(|(i, (w, _))| {
        REQUEST_WORDS.contains(&w.as_str())
            && words[i + 1..]
                .iter()
                .take(REQUEST_REACH)
                .any(|(next, _)| tokenize(next).iter().any(|t| terms.contains(t)))
    })
}

/// Words that say the same of a yes/no question's subject, each group read as one term
/// when a verdict's negation is placed: "Will operators need a special flight permit?"
/// against "A special flight permit is not required".
const SYNONYMS: &[&[&str]] = &[
    &[
        "need",
        "needs",
        "needed",
        "require",
        "required",
        "requires",
        "necessary",
        "mandatory",
    ],
    &[
        "allow",
        "allowed",
        "allows",
        "permit",
        "permitted",
        "permits",
    ],
];

/// The terms of a yes/no question's predicate: its words after the first that are not
/// capitalised (names are its subject: "Does Gift Surplus keep an inventory of the products
/// it advertises?" asks about keeping an inventory), widened with [`SYNONYMS`].
pub(super) fn predicate_terms(question: &str) -> BTreeSet<String> {
    let lower_words: Vec<&str> = question
        .split_whitespace()
        .skip(1)
        .filter(|w| !w.starts_with(|c: char| c.is_uppercase()))
        .collect();
    let mut terms: BTreeSet<String> = tokenize(&lower_words.join(" ")).into_iter().collect();
    widen_with_synonyms(&mut terms);
    terms
}

/// Adds to `terms` (index terms, as [`tokenize`] gives them) the terms of every word of a
/// [`SYNONYMS`] group one of them belongs to.
pub(super) fn widen_with_synonyms(terms: &mut BTreeSet<String>) {
    for group in SYNONYMS {
        let tokens: Vec<String> = group.iter().flat_map(|w| tokenize(w)).collect();
        if tokens.iter().any(|t| terms.contains(t)) {
            terms.extend(tokens);
        }
    }
}

/// Whether a question opening as a yes/no question asks which of two alternatives holds
/// ("Did wages as a percent of net sales increase or decrease in FY2023?", "… in cash or in
/// stock?"): "or" between two words of change, or before the question's last word or its
/// last preposition or article and word. Neither yes nor no answers it ("Does the policy
/// exclude cosmetic or plastic surgery?" is a yes/no question).
pub(super) fn offers_alternatives(question: &str) -> bool {
    let words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        w == "or"
            && i > 0
            && words.get(i + 1).is_some_and(|next| next != "not")
            && (words.len() - i == 2
                || (words.len() - i == 3
                    && ["in", "on", "by", "a", "an", "the", "at"].contains(&words[i + 1].as_str()))
                || CHANGE_WORDS.contains(&words[i - 1].as_str())
                    && words
                        .get(i + 1)
                        .is_some_and(|n| CHANGE_WORDS.contains(&n.as_str())))
    })
}

/// Word beginnings that reverse a statement without a negation word ("Cosmetic surgery is
/// excluded from coverage", "except as", "unless", "failed to", "void").
const REVERSING: &[&str] = &["exclud", "except", "unless", "prohibit", "fail", "void"];

/// Whether `quote` holds a word that reverses what it says without a negation word
/// ([`REVERSING`]): a yes or no read from it by its negations alone stays partial.
pub(super) fn reverses(quote: &str) -> bool {
    quote
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .any(|w| REVERSING.iter().any(|r| w.starts_with(r)))
}

/// Words below which a quote without a sentence's end is a heading or a list item.
const FRAGMENT_WORDS: usize = 12;

/// Whether `quote` states something, so that a yes or no may be read from it: it ends as a
/// sentence or a clause does (`.`, `;`, `:`, `!`, before any closing quotes or brackets), or
/// it is a long sentence the reader cut (at least [`FRAGMENT_WORDS`] words). A heading or a
/// list item without its lead-in ("Treatment taken outside the geographical limits of
/// India", an item of an exclusions list) says neither yes nor no.
pub(super) fn states(quote: &str) -> bool {
    quote.split_whitespace().count() >= FRAGMENT_WORDS
        || quote
            .trim_end()
            .trim_end_matches(['"', '”', '’', '\'', ')', ']'])
            .ends_with(['.', ';', ':', '!'])
}

/// Words that reverse a statement.
pub(super) const NEGATIONS: &[&str] = &[
    "not", "no", "never", "neither", "nor", "none", "cannot", "without",
];

/// The candidate sentence that supports a free-text draft, if any: the draft is not empty,
/// its figures occur in the candidates' quotes, at least 60 % of its content terms occur in
/// one of the three best quotes, and it negates what that quote negates (a holding stated
/// backwards — "unconstitutional" for "constitutional", a dropped "not" — is unsupported).
/// Only candidates scoring at least 3/4 of the reader's best may support it, as for span
/// answers ([`prefer_drafted`]): the model chooses among sentences the reader finds about
/// equally good, never one it ranked far below (a running header drafted for "Where did
/// the company open a service center?" when the reader's best sentence names the city).
/// A draft of figures alone ("2023 2022", a table header echoed) is never supported: it
/// states no words a sentence could support.
pub(super) fn supporting<'c>(
    draft: &str,
    candidates: &'c [reader::Candidate],
) -> Option<&'c reader::Candidate> {
    if draft.trim().is_empty() {
        return None;
    }
    let best = candidates.first().map_or(0.0, |c| c.score);
    let close = || {
        candidates
            .iter()
            .take(3)
            .enumerate()
            .filter(move |(i, c)| *i == 0 || c.score >= DRAFT_CHOICE * best)
            .map(|(_, c)| c)
    };
    let quotes_numbers: Vec<NumberMention> = close().flat_map(|c| numbers_in(&c.quote)).collect();
    let figures_ok = numbers_in(draft)
        .iter()
        .filter(|n| !is_year_figure(n))
        .all(|f| verify::supported_by(f, &quotes_numbers));
    if !figures_ok {
        return None;
    }
    let draft_terms: BTreeSet<String> = tokenize(draft).into_iter().collect();
    // A draft of figures alone ("2023 2022 2023 2022", a table's header echoed) says nothing
    // a sentence could support, though its years are in the quote.
    if !draft_terms
        .iter()
        .any(|t| t.chars().any(char::is_alphabetic))
    {
        return None;
    }
    let polarity = |text: &str| -> (bool, BTreeSet<String>) {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let negated = is_negated(text);
        let prefixed = words
            .iter()
            .filter(|w| {
                w.len() > 4 && (w.starts_with("un") || w.starts_with("in") || w.starts_with("non"))
            })
            .cloned()
            .collect();
        (negated, prefixed)
    };
    let (draft_negated, draft_prefixed) = polarity(draft);
    close().find(|c| {
        let quote_terms: BTreeSet<String> = tokenize(&c.quote).into_iter().collect();
        let shared = draft_terms.intersection(&quote_terms).count();
        let (quote_negated, quote_prefixed) = polarity(&c.quote);
        // A word negated by prefix in one and plain in the other ("unconstitutional").
        let flipped = draft_prefixed.iter().any(|w| {
            let plain = w
                .trim_start_matches("non")
                .trim_start_matches("un")
                .trim_start_matches("in");
            !quote_prefixed.contains(w) && c.quote.to_lowercase().contains(plain)
        }) || quote_prefixed.iter().any(|w| {
            let plain = w
                .trim_start_matches("non")
                .trim_start_matches("un")
                .trim_start_matches("in");
            !draft_prefixed.contains(w) && draft.to_lowercase().contains(plain)
        });
        shared * 10 >= draft_terms.len() * 6 && draft_negated == quote_negated && !flipped
    })
}

/// Years and small counts are not figures that need support (`2018`, `Q2`'s `2`).
pub(super) fn is_year_figure(n: &NumberMention) -> bool {
    n.is_year() || (n.decimals == 0 && !n.percent && n.value.abs() < 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(quote: &str, score: f32) -> reader::Candidate {
        reader::Candidate {
            value: quote.into(),
            written: None,
            quote: quote.into(),
            page_no: 2,
            score,
            coverage: 0.5,
            cell: None,
            computation: None,
            cite: Vec::new(),
        }
    }

    #[test]
    fn a_question_between_two_alternatives_is_not_answered_yes_or_no() {
        for question in [
            "Did Ulta Beauty's wages expense as a percent of net sales increase or decrease in FY2023?",
            "Is the purchase price paid in cash or in stock?",
        ] {
            assert!(offers_alternatives(question), "{question}");
        }
        for question in [
            "Does the policy cover hospitalization or day care treatment in India?",
            "Did the court decide whether the game is gambling or not?",
            "Was there any drop in cash and cash equivalents?",
            "Does the policy exclude cosmetic or plastic surgery?",
        ] {
            assert!(!offers_alternatives(question), "{question}");
        }
    }

    #[test]
    fn words_that_reverse_without_a_negation_keep_a_verdict_partial() {
        assert!(reverses(
            "Cosmetic surgery is excluded from coverage under this policy."
        ));
        assert!(reverses(
            "No Party may assign this Agreement, except to an Affiliate."
        ));
        assert!(!reverses(
            "There are no financial incentives for participation."
        ));
    }

    #[test]
    fn headings_and_list_items_state_nothing_a_verdict_could_be_read_from() {
        assert!(states(
            "There are no financial incentives for participation."
        ));
        assert!(states("the accrued cumulative bonus shall not be reduced;"));
        assert!(states("“No Party may assign this Agreement.”"));
        // A long sentence the reader cut still states what it says.
        assert!(states(
            "The Red River Compact does not pre-empt Oklahoma's water statutes because the Compact creates no cross-border rights in its signatories for these"
        ));
        assert!(!states(
            "Treatment taken outside the geographical limits of India"
        ));
        assert!(!states("Excluded transfers"));
    }

    #[test]
    fn the_predicates_clause_decides_a_verdict_not_the_subjects() {
        let question = "Does Gift Surplus keep an inventory of the products it advertises on its e-commerce website?";
        let quote = "Gift Surplus operates an e-commerce website, www.giftsurplus.com, but does not maintain an inventory of the products it advertises and instead buys products as necessary.";
        let predicate = predicate_terms(question);
        assert!(!predicate.contains("gift"));
        assert!(negates_terms(quote, &predicate));
        assert!(!negates_terms(question, &predicate));
        // All of the question's terms pick the subject's clause, which negates nothing.
        let all: BTreeSet<String> = tokenize(question).into_iter().collect();
        assert!(!negates_terms(quote, &all));
    }

    #[test]
    fn synonyms_join_the_terms_whose_negation_decides_a_verdict() {
        let mut terms: BTreeSet<String> = tokenize("Will operators need a special flight permit?")
            .into_iter()
            .collect();
        widen_with_synonyms(&mut terms);
        let quote = "A special flight permit is not required to accomplish the flight.";
        assert!(negates_terms(quote, &terms));
        let bare: BTreeSet<String> = tokenize("Will operators need a special flight permit?")
            .into_iter()
            .collect();
        assert!(!negates_terms(quote, &bare));
    }

    #[test]
    fn a_statement_negates_the_question_terms_an_odd_number_of_times() {
        let question = "Can a party assign the agreement without the other party's consent?";
        let terms: BTreeSet<String> = tokenize(question).into_iter().collect();
        assert!(negates_terms(question, &terms));
        let clause = "No Party may assign this Agreement without the prior written consent of \
                      the other Party.";
        assert!(!negates_terms(clause, &terms));
        let question = "Did the court hold that the Compact pre-empts the statutes?";
        let terms: BTreeSet<String> = tokenize(question).into_iter().collect();
        assert!(!negates_terms(question, &terms));
        assert!(negates_terms(
            "The Compact does not pre-empt the statutes.",
            &terms
        ));
        // Another clause's negation does not cancel it.
        assert!(negates_terms(
            "The Compact does not pre-empt the statutes, and no statutes were invalidated.",
            &terms
        ));
    }

    #[test]
    fn exclusions_are_read_by_their_code_or_their_section_unless_lifted() {
        assert_eq!(
            coverage_asked("Does the policy pay for childbirth expenses?"),
            Some(false)
        );
        assert_eq!(
            coverage_asked("Are maternity expenses excluded?"),
            Some(true)
        );
        assert_eq!(coverage_asked("Is dental treatment not covered?"), None);
        assert_eq!(coverage_asked("Did the court grant the motion?"), None);
        let item = "Maternity Expenses (Code – Excl 18) i. Medical treatment expenses traceable to childbirth";
        assert!(is_exclusion(item, &[]));
        assert!(is_exclusion(
            "Rest Cure, rehabilitation and respite care",
            &["Permanent Exclusions"]
        ));
        assert!(!is_exclusion(
            "Rest Cure, rehabilitation and respite care",
            &["Benefits"]
        ));
        // Only the section that holds it, and not one that lists inclusions as well.
        assert!(!is_exclusion(
            "Adults aged 18 or over",
            &["Policy Exclusions", "Inclusion and Exclusion Criteria"]
        ));
        // The document's own title ("Benefits, Exclusions and Conditions") is no section.
        assert!(!is_exclusion(
            "Hospitalisation expenses",
            &["Benefits, Exclusions and Conditions", "Benefits"]
        ));
        assert!(is_exclusion(
            "Treatment taken outside the geographical limits of India",
            &[
                "National Insurance",
                "7. EXCLUSIONS",
                "7.15. Maternity Expenses"
            ]
        ));
        assert!(!is_exclusion(
            "This exclusion shall not, however, apply if the Insured Person has Continuous Coverage.",
            &["7. EXCLUSIONS"]
        ));
    }

    #[test]
    fn a_proviso_states_the_exception_and_the_clause_before_it_the_rule() {
        let question = "Can a party assign the agreement without the other party's consent?";
        let terms: BTreeSet<String> = tokenize(question).into_iter().collect();
        // The semicolon as some fonts set it (U+037E), and a proviso with more of the terms.
        let quote = "No Party may assign this Agreement without the prior written consent of \
                     the other Party\u{37e} provided, that notwithstanding the foregoing, any \
                     Party may assign this Agreement without the consent of the other Party \
                     to its Affiliates or a purchaser of the other party's business.";
        assert!(!negates_terms(quote, &terms));
        assert_ne!(
            negates_terms(quote, &terms),
            negates_terms(question, &terms)
        );
        // A sentence that opens with "Notwithstanding" states its rule there.
        let opening = "Notwithstanding the foregoing, no Party may assign this Agreement; any \
                       assignment in violation of this is void.";
        assert!(clause_of(opening, &terms).starts_with("Notwithstanding"));
        // A proviso alone still speaks.
        let proviso = "Provided that any Party may assign this Agreement without consent.";
        assert!(negates_terms(proviso, &terms));
    }

    #[test]
    fn a_request_says_nothing_of_whether_what_it_asks_for_happened() {
        let question = "Did the Ninth Circuit grant the appellees' motion to stay briefing?";
        let terms: BTreeSet<String> = tokenize(question).into_iter().collect();
        let motion = "In the alternative, the court should grant Appellees a 30-day briefing \
                      extension.";
        assert!(requests_terms(motion, question, &terms));
        assert!(!requests_terms(
            "On July 8, 2020, this Court granted the motion to stay briefing.",
            question,
            &terms
        ));
        // A question of what may or must be done is answered by what the text says should be.
        let question = "Should the Servicer notify the Issuer of a termination event?";
        let terms: BTreeSet<String> = tokenize(question).into_iter().collect();
        assert!(!requests_terms(
            "The Servicer should notify the Issuer of any termination event.",
            question,
            &terms
        ));
    }

    #[test]
    fn a_free_text_draft_is_supported_only_by_a_sentence_close_to_the_readers_best() {
        let best = "Northwind Tools opened a service center in Boise, Idaho in February 2025.";
        let header = "Northwind Tools, Inc. | Quarterly Report on Form 10-Q, First Quarter 2025";
        let far = [candidate(best, 1.0), candidate(header, 0.27)];
        assert!(supporting(header, &far).is_none());
        let paraphrase = "Northwind Tools opened a service center in Boise, Idaho.";
        assert_eq!(
            supporting(paraphrase, &far).map(|c| c.quote.as_str()),
            Some(best)
        );
        // A runner-up the reader finds about as good may be the one drafted.
        let close = [candidate(best, 1.0), candidate(header, 0.8)];
        assert_eq!(
            supporting(header, &close).map(|c| c.quote.as_str()),
            Some(header)
        );
        // Years alone, though the quote has them, are no answer.
        let availability = "As of July 1, 2023, remaining availability under the April 2022 \
                            authorization was $4.6 billion.";
        let one = [candidate(availability, 1.0)];
        assert!(supporting("2023 2022 2023 2022", &one).is_none());
    }
}
