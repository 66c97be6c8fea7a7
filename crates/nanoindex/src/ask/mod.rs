//! Cited question answering over one indexed document.
//!
//! Retrieval is deterministic ([`nanoindex_retrieve`]: BM25 + dense + tree + graph) and
//! decides which pages are read; the language model picks among the retrieved evidence,
//! decomposes the question, asks for more sections and writes a draft, always under a
//! JSON schema where its output is parsed. The answer comes from the [`reader`], not the
//! draft: per part of the question ([`answer_type`]) it finds the span of the asked type
//! (date, amount, party, …) or the table cell in the pages read, computes ratios from cited
//! cells, and [`phrase`] states the value in a sentence. The model may choose among the
//! reader's candidates (the one its draft states); a free-text draft is shown only when the
//! cited sentences support it. When nothing answers, the answer says so first
//! (`AnswerStatus::NotFound`). Every citation's quote is found on its page with MuPDF text
//! search (boxes as 0–1 fractions); a quote that is not found is dropped.
//!
//! Modes ([`Mode`]):
//! - `fast`: retrieval shortlist → the reader; when no draft could change its answer
//!   (`Trace::model_skipped`), no model call; else one constrained call picks evidence lines
//!   → one call answers (the second reuses the first's prompt prefix).
//! - `agentic`: decompose into data points → the model picks outline sections (alongside
//!   retrieval) → 2–5 rounds of reading and asking for more → sufficiency check per data
//!   point with targeted retrieval → answer with reasoning → arithmetic check → a refusal
//!   triggers one retry with keyword search.
//! - `agentic_graph`: as `agentic`, with the graph's entities and cross-references seeding
//!   round one instead of the outline pick.
//!
//! Document text is data: it is quoted to the model inside an evidence block under a
//! system message that says so, and a sentence that reads as an instruction to an assistant
//! is left out of prompts — only that sentence, never its passage or page (the trace lists
//! it). It stays searchable, and the reader reads it as data at half its score, so a true
//! answer beside it is still found and cited.

//! Where to start reading: [`ask`] below runs one question; `session.rs` holds its state
//! (pages read within the budget, evidence, trace); `fast.rs` and `agentic.rs` are the
//! pipelines, with every prompt and schema in `prompts.rs`; `compose.rs` turns the
//! [`reader`]'s parts and the draft into the answer; `cite.rs` verifies quotes on the page;
//! [`trace`] is the record the answer carries; [`hygiene`] recognises instructions,
//! refusals and degenerate drafts.

mod agentic;
pub mod answer_type;
mod choice;
mod cite;
mod compare;
mod compose;
mod document;
mod fast;
pub mod hygiene;
mod named;
pub mod phrase;
mod prompts;
pub mod reader;
mod session;
pub mod spans;
pub mod trace;
pub mod verify;

use std::time::Instant;

use nanoindex_core::Answer;
use nanoindex_llm::{Embedder, LlmError, TextGenerator};
use nanoindex_retrieve::QueryAnalysis;

pub use document::{highlight_pdf, AskDocument};
pub use hygiene::{is_refusal, looks_like_instruction};
use session::Session;
pub use trace::{Trace, TRACE_FORMAT_VERSION};

/// Pages read per question unless configured otherwise.
pub const DEFAULT_MAX_PAGES: usize = 8;

/// How a question is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Retrieval shortlist and the reader; a pick call and an answer call only when a draft
    /// could change the reader's answer.
    Fast,
    /// Decompose, outline pick, rounds of reading, sufficiency check, verified answer.
    #[default]
    Agentic,
    /// As `Agentic`, seeded by the graph.
    AgenticGraph,
}

impl Mode {
    /// The mode's name on the command line and in answers.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Fast => "fast",
            Mode::Agentic => "agentic",
            Mode::AgenticGraph => "agentic_graph",
        }
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fast" => Ok(Mode::Fast),
            "agentic" => Ok(Mode::Agentic),
            "agentic_graph" => Ok(Mode::AgenticGraph),
            other => Err(format!(
                "unknown mode `{other}` (expected `fast`, `agentic` or `agentic_graph`)"
            )),
        }
    }
}

/// Why a question could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// The language model failed (the prompt is always packed to fit, so this is an engine
    /// or model error).
    #[error("the language model failed: {0}")]
    Llm(#[from] LlmError),
    /// The PDF could not be opened to verify quotes.
    #[error(transparent)]
    Pdf(#[from] nanoindex_pdf::PdfError),
    /// The question is empty.
    #[error("the question is empty")]
    EmptyQuestion,
}

/// Settings of one question.
#[derive(Debug, Clone)]
pub struct AskOptions {
    /// The mode.
    pub mode: Mode,
    /// Most pages whose text is read (looked at to choose evidence).
    pub max_pages: usize,
}

impl Default for AskOptions {
    fn default() -> Self {
        AskOptions {
            mode: Mode::default(),
            max_pages: DEFAULT_MAX_PAGES,
        }
    }
}

/// Answers `question` about `doc`.
///
/// `embedder` (the model of the document's [`AskDocument::with_vectors`]) adds dense
/// retrieval, embedding the passages the question's ranking needs that are not cached yet;
/// `on_draft` receives the answer's text as the model writes it (a draft: what is returned
/// is the verified answer). The returned [`Answer`] carries the [`Trace`] as JSON (read it back with
/// [`Trace::from_answer`]): rounds, pages and nodes read in order, evidence lines, model calls
/// with prompt/completion tokens, time per step, the reader's candidates, and what
/// verification changed.
///
/// # Errors
/// [`AskError::EmptyQuestion`], [`AskError::Llm`] when the model fails, [`AskError::Pdf`]
/// when the PDF cannot be opened for quote verification.
pub fn ask(
    doc: &AskDocument,
    question: &str,
    llm: &mut dyn TextGenerator,
    embedder: Option<&dyn Embedder>,
    options: &AskOptions,
    on_draft: &mut dyn FnMut(&str),
) -> Result<Answer, AskError> {
    let question = question.trim();
    if question.is_empty() {
        return Err(AskError::EmptyQuestion);
    }
    let started = Instant::now();
    let query = QueryAnalysis::new(question);
    let (dense, embedded_passages) = match (embedder, &doc.vectors) {
        (Some(e), Some(vectors)) => {
            crate::vectors::similarities(&doc.index, vectors, e, question, &query)?
        }
        _ => (Vec::new(), 0),
    };
    let ranking = doc.index.rank_pages(&query, &dense);
    let mut session = Session {
        doc,
        llm,
        on_draft,
        options: options.clone(),
        query,
        ranking,
        evidence: Vec::new(),
        trace: Trace {
            format_version: TRACE_FORMAT_VERSION,
            mode: options.mode.as_str().to_string(),
            dense_retrieval: !dense.is_empty(),
            embedded_passages,
            ..Trace::default()
        },
        started,
    };
    session.trace.model = session.llm.info().name.clone();
    session.step("retrieval");
    let (draft, reasoning) = match options.mode {
        Mode::Fast => session.fast()?,
        Mode::Agentic | Mode::AgenticGraph => session.agentic()?,
    };
    session.finish(draft, reasoning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_print() {
        for m in [Mode::Fast, Mode::Agentic, Mode::AgenticGraph] {
            assert_eq!(m.as_str().parse::<Mode>().unwrap(), m);
        }
        assert!("global"
            .parse::<Mode>()
            .unwrap_err()
            .contains("unknown mode"));
    }
}
