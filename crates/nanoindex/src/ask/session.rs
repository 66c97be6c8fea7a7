//! One question's state: the ranking, the pages read within the budget, the evidence lines,
//! the trace, and the model calls made for it.

use std::sync::LazyLock;
use std::time::Instant;

use nanoindex_llm::{GenerateRequest, TextGenerator, TokenControl};
use nanoindex_retrieve::{PageHit, QueryAnalysis, RetrievalIndex, Snippet};
use regex::Regex;

use super::hygiene::without_instructions;
use super::trace::{LlmCall, Round, Trace};
use super::{spans, AskDocument, AskError, AskOptions};

/// The state of one question, from retrieval to the answer.
pub(super) struct Session<'a> {
    /// The document asked about.
    pub doc: &'a AskDocument,
    /// The model.
    pub llm: &'a mut dyn TextGenerator,
    /// Receives the answer's draft as the model writes it.
    pub on_draft: &'a mut dyn FnMut(&str),
    /// The question's settings.
    pub options: AskOptions,
    /// The question, analysed.
    pub query: QueryAnalysis,
    /// Pages by retrieval score, best first.
    pub ranking: Vec<PageHit>,
    /// Evidence lines from the pages read.
    pub evidence: Vec<Snippet>,
    /// The trace being written.
    pub trace: Trace,
    /// When the question was asked.
    pub started: Instant,
}

/// Whether two snippets share a line.
pub(super) fn overlaps(a: &Snippet, b: &Snippet) -> bool {
    a.lines.0 <= b.lines.1 && b.lines.0 <= a.lines.1
}

impl Session<'_> {
    /// Records the time since the last step under `name`.
    pub(super) fn step(&mut self, name: &str) {
        let ms = self.started.elapsed().as_secs_f64() * 1000.0;
        self.trace.step(name, ms);
    }

    pub(super) fn budget_left(&self) -> usize {
        self.options
            .max_pages
            .saturating_sub(self.trace.pages_read.len())
    }

    /// Reads `pages` (as far as the page budget allows) for the question and `extra`
    /// queries; records the round.
    pub(super) fn read(
        &mut self,
        source: &str,
        pages: &[u32],
        extra: &[QueryAnalysis],
    ) -> Vec<u32> {
        let mut read = Vec::new();
        for &p in pages {
            if self.trace.pages_read.contains(&p) || read.contains(&p) {
                continue;
            }
            if self.budget_left() == read.len() {
                break;
            }
            read.push(p);
        }
        if read.is_empty() {
            return read;
        }
        self.trace.pages_read.extend(&read);
        let hits: Vec<PageHit> = read
            .iter()
            .map(|&p| {
                self.ranking
                    .iter()
                    .find(|h| h.page_no == p)
                    .cloned()
                    .unwrap_or(PageHit {
                        page_no: p,
                        ..PageHit::default()
                    })
            })
            .collect();
        let mut nodes = Vec::new();
        for q in std::iter::once(&self.query).chain(extra) {
            for s in self.doc.index.snippets(q, &hits, 8, 2) {
                if !nodes.contains(&s.node_id.to_string()) {
                    nodes.push(s.node_id.to_string());
                }
                if !self.evidence.iter().any(|e| overlaps(e, &s)) {
                    self.evidence.push(s);
                }
            }
        }
        for n in &nodes {
            if !self.trace.nodes_read.contains(n) {
                self.trace.nodes_read.push(n.clone());
            }
        }
        let round = self.trace.rounds.len() + 1;
        self.trace.rounds.push(Round {
            round,
            source: source.to_string(),
            pages: read.clone(),
            nodes,
        });
        read
    }

    /// Orders the evidence: lines chosen by the model first, then by score.
    pub(super) fn rank_evidence(&mut self, preferred: &[usize]) {
        let mut ordered: Vec<Snippet> = Vec::new();
        for &i in preferred {
            if let Some(s) = self.evidence.get(i) {
                if !ordered.iter().any(|o| o.line == s.line) {
                    ordered.push(s.clone());
                }
            }
        }
        let mut rest: Vec<Snippet> = self
            .evidence
            .iter()
            .filter(|s| !ordered.iter().any(|o| o.line == s.line))
            .cloned()
            .collect();
        rest.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.line.cmp(&b.line)));
        ordered.extend(rest);
        self.evidence = ordered;
    }

    /// The evidence block given to the model: at most `max_lines` lines, packed to fit
    /// `budget_chars`; sentences addressed to a model left out (the trace lists them). Returns the block and the indices
    /// (into `self.evidence`) it shows, in order.
    pub(super) fn evidence_block(
        &mut self,
        max_lines: usize,
        budget_chars: usize,
    ) -> (String, Vec<usize>) {
        let mut block = String::new();
        let mut shown = Vec::new();
        let year = self.query.years.first().copied();
        for (i, s) in self.evidence.iter().enumerate() {
            // A sentence addressed to a model is left out; the rest of the line is shown.
            let (kept, dropped) = without_instructions(&s.text);
            for sentence in dropped {
                let line = format!("p.{}: {}", s.page_no, sentence);
                if !self.trace.withheld_lines.contains(&line) {
                    self.trace.withheld_lines.push(line);
                }
            }
            let Some(kept) = kept else {
                continue;
            };
            let mut text: String = kept.chars().take(300).collect();
            if text.len() < kept.len() {
                text.push('…');
            }
            let mut entry = format!("[{}] (page {}) {}\n", shown.len() + 1, s.page_no, text);
            if let Some(header) = &s.header {
                let cell = year
                    .and_then(|y| {
                        self.doc
                            .index
                            .read_figure(s.line, y, 0, None, &self.query.question)
                    })
                    .map(|f| f.cell);
                match cell {
                    Some(c) => entry.push_str(&format!(
                        "    columns: {} — {} column: {}\n",
                        header.trim(),
                        c.year,
                        c.text
                    )),
                    None => entry.push_str(&format!("    columns: {}\n", header.trim())),
                }
            }
            if shown.len() >= max_lines || block.len() + entry.len() > budget_chars {
                self.trace.left_out.push(format!(
                    "p.{}: {}",
                    s.page_no,
                    s.text.chars().take(80).collect::<String>()
                ));
                continue;
            }
            block.push_str(&entry);
            shown.push(i);
        }
        (block, shown)
    }

    /// Characters of evidence that fit the model's context next to the instructions and
    /// the reply (about 3.5 characters per token).
    pub(super) fn budget_chars(&self, reply_tokens: u32) -> usize {
        let n_ctx = self.llm.info().context_length_used.max(512);
        let free = n_ctx.saturating_sub(reply_tokens + 350);
        (free as usize * 7 / 2).clamp(400, 6000)
    }

    pub(super) fn generate(
        &mut self,
        step: &str,
        request: &GenerateRequest,
        stream: bool,
    ) -> Result<String, AskError> {
        let t = Instant::now();
        let on_draft = &mut *self.on_draft;
        let generation = self.llm.generate(request, &mut |piece| {
            if stream {
                on_draft(piece);
            }
            TokenControl::Continue
        })?;
        self.trace.prompt_tokens += generation.n_prompt_tokens;
        self.trace.completion_tokens += generation.n_completion_tokens;
        self.trace.llm_calls.push(LlmCall {
            step: step.to_string(),
            prompt_tokens: generation.n_prompt_tokens,
            cached_prompt_tokens: generation.n_cached_prompt_tokens,
            completion_tokens: generation.n_completion_tokens,
            ms: (t.elapsed().as_secs_f64() * 10_000.0).round() / 10.0,
        });
        self.step(step);
        Ok(generation.text)
    }

    /// The `n` best-ranked pages; for a question about who signed, the best-ranked
    /// signature page comes second (its words, "By: /s/ …", rarely match the question's).
    pub(super) fn top_pages(&self, n: usize) -> Vec<u32> {
        let mut pages: Vec<u32> = self.ranking.iter().take(n).map(|h| h.page_no).collect();
        if n > 1 && asks_for_signatory(&self.query.question) {
            let signed = signature_pages(&self.doc.index);
            let best = self
                .ranking
                .iter()
                .map(|h| h.page_no)
                .find(|p| signed.contains(p))
                .or_else(|| signed.last().copied());
            if let Some(p) = best.filter(|p| !pages.contains(p)) {
                pages.truncate(n - 1);
                pages.insert(1.min(pages.len()), p);
            }
        }
        // The parties are named in the preamble, near the start, whose words ("among",
        // "as issuer") rarely match the question's: its page comes second.
        if n > 1 && asks_for_parties(&self.query.question) {
            if let Some(p) = preamble_page(&self.doc.index).filter(|p| !pages.contains(p)) {
                pages.truncate(n - 1);
                pages.insert(1.min(pages.len()), p);
            }
        }
        // A capitalised term the question names ("the Closing Date") is defined once, in a
        // definitions article or appendix whose page rarely ranks: its definition page
        // comes second.
        if n > 1 {
            let defining = defining_pages(&self.doc.index, &self.query.question);
            if let Some(&p) = defining.iter().find(|p| !pages.contains(p)) {
                pages.truncate(n - 1);
                pages.insert(1.min(pages.len()), p);
            }
        }
        // Front matter (authors, the venue, the filing date, the caption) stands on the first
        // page, whose words rarely match the question's.
        let first = self.doc.index.lines().first().map(|l| l.page_no);
        if n > 2 && asks_front_matter(&self.query.question) {
            if let Some(p) = first.filter(|p| !pages.contains(p)) {
                pages.truncate(n - 1);
                pages.insert(2.min(pages.len()), p);
            }
        }
        pages
    }
}

/// Whether the question asks what a document's front matter states: its authors, the
/// conference or journal it appeared in, when it was filed or dated, its docket number.
pub(super) fn asks_front_matter(question: &str) -> bool {
    let q = question.to_lowercase();
    [
        "author",
        "who wrote the paper",
        "conference",
        "journal",
        "appeared",
        "published in",
        "filed",
        "file its",
        "docket",
        "case number",
        "dated",
    ]
    .iter()
    .any(|w| q.contains(w))
}

/// Whether the question asks who signed or executed the document.
pub(super) fn asks_for_signatory(question: &str) -> bool {
    let q = question.to_lowercase();
    [
        "signed",
        "signatory",
        "signatories",
        "signature",
        "who signs",
        "executed",
        "on behalf of",
    ]
    .iter()
    .any(|w| q.contains(w))
}

/// Whether the question asks who the parties to the document are ("parties", "party to",
/// "between whom", "entered into by"), not about third or related parties.
pub(crate) fn asks_for_parties(question: &str) -> bool {
    let q = question.to_lowercase();
    ["parties", "party to", "between whom", "entered into by"]
        .iter()
        .any(|w| q.contains(w))
        && !["third part", "third-part", "related part", "related-part"]
            .iter()
            .any(|w| q.contains(w))
}

/// Pages of a contract's opening searched for its preamble.
const PREAMBLE_PAGES: u32 = 10;

/// A contract's preamble: "… AGREEMENT, dated as of … (this “Agreement”), among A, as issuer,
/// B …" or "… is entered into by and between A and B": after "agreement", the contract
/// names itself (`(this “Agreement”)`) or says it is made, entered into or dated, and then
/// "between" or "among" names the parties. "This Agreement supersedes the prior agreement
/// between A and B" is no preamble. Case-insensitive.
pub(super) static PREAMBLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?is)\bagreement\b.{0,200}?(?:\(\s*(?:this|the)\s+[“"]?agreement[”"]?\s*\)|\b(?:made|entered\s+into|dated)\b).{0,200}?\b(?:by and between|between|among|by and among)\b"#,
    )
    .expect("valid regex")
});

/// The first page (1-based) within [`PREAMBLE_PAGES`] of the document's start whose text
/// holds a preamble ([`PREAMBLE`]) and is no table of contents (it does not say "table of
/// contents", in any case).
pub(super) fn preamble_page(index: &RetrievalIndex) -> Option<u32> {
    let first = index.lines().first()?.page_no;
    let mut pages: std::collections::BTreeMap<u32, String> = std::collections::BTreeMap::new();
    for line in index
        .lines()
        .iter()
        .filter(|l| l.page_no < first + PREAMBLE_PAGES)
    {
        let text = pages.entry(line.page_no).or_default();
        text.push_str(&line.text);
        text.push(' ');
    }
    pages
        .into_iter()
        .find(|(_, text)| {
            PREAMBLE.is_match(text) && !text.to_uppercase().contains("TABLE OF CONTENTS")
        })
        .map(|(page, _)| page)
}

/// Pages (1-based, in order) with a signature block ([`spans::is_signature_line`]).
pub(super) fn signature_pages(index: &RetrievalIndex) -> Vec<u32> {
    let mut pages: Vec<u32> = index
        .lines()
        .iter()
        .filter(|l| spans::is_signature_line(&l.text))
        .map(|l| l.page_no)
        .collect();
    pages.dedup();
    pages
}

/// A definition line: a quoted term followed by "means", "shall mean" or "refers to"
/// (`“Closing Date” means January 29, 2020.`).
static DEFINITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\(?[a-z0-9.]{0,6}\)?\s*[“"]([^”"]{2,80})[”"]\s*(?:\([^)]*\)\s*)?(?:means|shall mean|refers to)\b"#)
        .expect("valid regex")
});

/// The capitalised terms a question names that are no sentence openers: runs of
/// capitalised words ("Closing Date", "Effective Date", "Licensed Product").
fn capitalised_terms(question: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for (i, word) in question.split_whitespace().enumerate() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        let capital = w.chars().next().is_some_and(char::is_uppercase) && i > 0;
        if capital {
            run.push(w);
        }
        if (!capital || word.ends_with([',', '?', '.', ';', ':'])) && !run.is_empty() {
            out.push(run.join(" "));
            run.clear();
        }
    }
    if !run.is_empty() {
        out.push(run.join(" "));
    }
    out
}

/// Pages (1-based, in order) that define a capitalised term the question names, matched
/// without regard to case: a term is defined by a line that opens with it in quotes and
/// "means" (a definition that only points elsewhere, "has the meaning set forth in", is
/// not its value).
pub(super) fn defining_pages(index: &RetrievalIndex, question: &str) -> Vec<u32> {
    let terms: Vec<String> = capitalised_terms(question)
        .into_iter()
        .map(|t| t.to_lowercase())
        .collect();
    if terms.is_empty() {
        return Vec::new();
    }
    let mut pages: Vec<u32> = index
        .lines()
        .iter()
        .filter(|l| {
            DEFINITION
                .captures(l.text.trim())
                .and_then(|c| c.get(1))
                .is_some_and(|m| terms.contains(&m.as_str().trim().to_lowercase()))
        })
        .map(|l| l.page_no)
        .collect();
    pages.dedup();
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preamble_names_the_contract_before_its_parties_and_a_supersession_clause_does_not() {
        for text in [
            "This Exclusive License Agreement (this \"Agreement\") is made as of May 4, 2022 by and between Vyrell Therapeutics, LLC and Cytomark Inc.",
            "TRANSITION SERVICES AGREEMENT, dated as of May 1, 2020, among Reynolds Inc. and Pactiv LLC",
            "This Agreement is entered into by and between Northwind Traders Inc. and Contoso Limited.",
        ] {
            assert!(PREAMBLE.is_match(text), "{text}");
        }
        let text = "This Agreement supersedes the prior agreement between Acme Corp. and Beta LLC.";
        assert!(!PREAMBLE.is_match(text));
    }

    #[test]
    fn a_question_about_third_or_related_parties_is_no_question_about_the_parties() {
        assert!(asks_for_parties("Who are the parties to this Agreement?"));
        assert!(asks_for_parties("Which company is a party to the license?"));
        assert!(!asks_for_parties(
            "May the Licensee assign its rights to third parties?"
        ));
        assert!(!asks_for_parties(
            "What related-party transactions are disclosed?"
        ));
    }
}
