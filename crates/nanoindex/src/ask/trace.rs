//! The trace of one question: what was read, what the model was asked, what the reader found
//! and what verification changed. A typed, versioned record; [`Answer::trace`] carries it as
//! JSON and [`Trace::from_answer`] reads it back.

use nanoindex_core::Answer;
use serde::{Deserialize, Serialize};

use super::reader::PartReading;

/// Version of the trace's JSON shape; raised when a field changes meaning or is removed.
pub const TRACE_FORMAT_VERSION: u32 = 1;

/// One round of reading.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based round number.
    pub round: usize,
    /// What chose the pages: `retrieval`, `retrieval+outline`, `retrieval+graph`, `model`,
    /// `sufficiency` or `keyword`.
    pub source: String,
    /// 1-based pages read in this round, in reading order.
    pub pages: Vec<u32>,
    /// Nodes whose lines became evidence.
    pub nodes: Vec<String>,
}

/// One call to the language model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmCall {
    /// The step that made it (`pick`, `answer`, `decompose`, `outline`, `round_N`).
    pub step: String,
    /// Prompt tokens, including those served from the prefix cache.
    pub prompt_tokens: u32,
    /// Prompt tokens served from the prefix cache (not evaluated again).
    pub cached_prompt_tokens: u32,
    /// Generated tokens.
    pub completion_tokens: u32,
    /// Wall time of the call in milliseconds.
    pub ms: f64,
}

/// Time spent in one step of the pipeline.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StepTime {
    /// The step (`retrieval`, `read`, `pick`, `answer`, `verify`, …).
    pub step: String,
    /// Milliseconds since the previous step ended.
    pub ms: f64,
}

/// What verification did to the model's draft.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Verification {
    /// The model's draft as written.
    pub draft: String,
    /// Whether the answer is the reader's rather than the draft.
    pub replaced_draft: bool,
    /// Arithmetic in the draft that was re-computed (`"1,200 / 4,000 = 0.35 → 0.30"`).
    pub corrections: Vec<String>,
    /// Figures or drafts the cited text does not support.
    pub unsupported_figures: Vec<String>,
    /// Quotes not found on their page (`p.N: quote`).
    pub dropped_citations: Vec<String>,
    /// Whether a refusal triggered the keyword-search retry.
    pub refusal_retry: bool,
}

/// The trace of one question.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Trace {
    /// [`TRACE_FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// The mode (`fast`, `agentic`, `agentic_graph`).
    pub mode: String,
    /// The model's name.
    pub model: String,
    /// Whether dense retrieval ranked the pages (else lexical only).
    pub dense_retrieval: bool,
    /// Passages embedded for this question (their vectors were not cached yet).
    #[serde(default)]
    pub embedded_passages: usize,
    /// The facts the question was decomposed into (agentic modes).
    pub data_points: Vec<String>,
    /// Rounds of reading, in order.
    pub rounds: Vec<Round>,
    /// 1-based pages read, in reading order.
    pub pages_read: Vec<u32>,
    /// Nodes read, in reading order.
    pub nodes_read: Vec<String>,
    /// Evidence lines, best first (`p.N: text`, cut at 160 characters).
    pub evidence_lines: Vec<String>,
    /// Lines withheld from the model because they address a model (`p.N: text`).
    pub withheld_lines: Vec<String>,
    /// Evidence lines left out of prompts to fit the context (`p.N: text`).
    pub left_out: Vec<String>,
    /// Model calls, in order.
    pub llm_calls: Vec<LlmCall>,
    /// Why the model was not called (`fast`: the reader's answer is decided and no draft
    /// could change it); `None` when it was.
    #[serde(default)]
    pub model_skipped: Option<String>,
    /// The reader's parts: answer type and candidates (best first).
    pub reader: Vec<PartReading>,
    /// `answered`, `partial` or `not_found`.
    pub status: String,
    /// Prompt tokens over all calls.
    pub prompt_tokens: u32,
    /// Generated tokens over all calls.
    pub completion_tokens: u32,
    /// Time per step, in order.
    pub steps: Vec<StepTime>,
    /// What verification changed.
    pub verification: Verification,
}

impl Trace {
    /// The trace an answer of [`super::ask`] carries.
    ///
    /// # Errors
    /// A message when the answer has no trace, the trace is of another format version, or
    /// its JSON does not have this shape.
    pub fn from_answer(answer: &Answer) -> Result<Trace, String> {
        let value = answer.trace.as_ref().ok_or("the answer carries no trace")?;
        let version = value["format_version"].as_u64().unwrap_or(0);
        if version != u64::from(TRACE_FORMAT_VERSION) {
            return Err(format!(
                "trace format version {version}, this build reads {TRACE_FORMAT_VERSION}"
            ));
        }
        serde_json::from_value(value.clone()).map_err(|e| format!("trace: {e}"))
    }

    /// Records that `name` ended `elapsed_ms` after the question started.
    pub(super) fn step(&mut self, name: &str, elapsed_ms: f64) {
        let before: f64 = self.steps.iter().map(|s| s.ms).sum();
        self.steps.push(StepTime {
            step: name.to_string(),
            ms: ((elapsed_ms - before) * 10.0).round() / 10.0,
        });
    }
}
