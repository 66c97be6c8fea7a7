//! The text-generation and embedding traits with their request and result types.

use serde::{Deserialize, Serialize};

use crate::Result;

/// Static facts about a loaded text model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// Human-readable model name (from the model metadata, else the file name).
    pub name: String,
    /// Architecture as the model file names it (`llama`, `gemma3`, `qwen2`, …).
    pub architecture: String,
    /// Context length the model was trained with, in tokens.
    pub context_length: u32,
    /// Context length the backend actually allocated, in tokens.
    pub context_length_used: u32,
    /// Number of entries in the vocabulary.
    pub vocab_size: u32,
    /// Backend that runs the model (`llama-cpp`, `candle`, …).
    pub backend: String,
}

/// Who wrote a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatRole {
    /// Instructions that frame the conversation.
    System,
    /// The user's turn.
    User,
    /// An earlier model turn (for few-shot prompts).
    Assistant,
}

impl ChatRole {
    /// The role name chat templates expect (`system`, `user`, `assistant`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ChatRole::System => "system",
            ChatRole::User => "user",
            ChatRole::Assistant => "assistant",
        }
    }
}

/// One message of a chat prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// Who wrote it.
    pub role: ChatRole,
    /// The text.
    pub content: String,
}

impl ChatMessage {
    /// A system message.
    #[must_use]
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: ChatRole::System,
            content: content.into(),
        }
    }

    /// A user message.
    #[must_use]
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: ChatRole::User,
            content: content.into(),
        }
    }

    /// An assistant message.
    #[must_use]
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: ChatRole::Assistant,
            content: content.into(),
        }
    }
}

/// What to generate and how.
///
/// The default decodes greedily (temperature 0) with seed 0, so the same request on the
/// same model gives the same text.
///
/// ```
/// use nanoindex_llm::GenerateRequest;
/// let request = GenerateRequest::chat("You are terse.", "Name a colour.")
///     .with_max_tokens(8)
///     .with_stop(["\n"]);
/// assert_eq!(request.max_tokens, 8);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateRequest {
    /// The conversation, rendered with the model's own chat template.
    pub messages: Vec<ChatMessage>,
    /// Upper bound on generated tokens.
    pub max_tokens: u32,
    /// Sampling temperature; `0.0` means greedy decoding.
    pub temperature: f32,
    /// Nucleus sampling mass in `(0, 1]`; ignored when greedy.
    pub top_p: f32,
    /// Seed of the sampler's random numbers; ignored when greedy.
    pub seed: u32,
    /// Generation ends before the first occurrence of any of these strings (which is not
    /// part of the returned text).
    pub stop: Vec<String>,
    /// A JSON Schema that the whole output must satisfy.
    pub json_schema: Option<serde_json::Value>,
}

impl Default for GenerateRequest {
    fn default() -> Self {
        Self {
            messages: Vec::new(),
            max_tokens: 256,
            temperature: 0.0,
            top_p: 1.0,
            seed: 0,
            stop: Vec::new(),
            json_schema: None,
        }
    }
}

impl GenerateRequest {
    /// A request with an optional system message (skipped when empty) and one user message.
    #[must_use]
    pub fn chat(system: &str, user: &str) -> Self {
        let mut messages = Vec::with_capacity(2);
        if !system.is_empty() {
            messages.push(ChatMessage::system(system));
        }
        messages.push(ChatMessage::user(user));
        Self {
            messages,
            ..Self::default()
        }
    }

    /// Sets the token budget.
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// Sets temperature, nucleus mass and seed for sampled decoding.
    #[must_use]
    pub fn with_sampling(mut self, temperature: f32, top_p: f32, seed: u32) -> Self {
        self.temperature = temperature;
        self.top_p = top_p;
        self.seed = seed;
        self
    }

    /// Sets the stop strings.
    #[must_use]
    pub fn with_stop<I, S>(mut self, stop: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.stop = stop.into_iter().map(Into::into).collect();
        self
    }

    /// Constrains the output to JSON that satisfies `schema`.
    #[must_use]
    pub fn with_json_schema(mut self, schema: serde_json::Value) -> Self {
        self.json_schema = Some(schema);
        self
    }

    /// Whether decoding is greedy (temperature at or below zero).
    #[must_use]
    pub fn is_greedy(&self) -> bool {
        self.temperature <= 0.0
    }
}

/// Why generation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model produced its end-of-generation token.
    EndOfGeneration,
    /// `max_tokens` tokens were generated.
    MaxTokens,
    /// One of the request's stop strings appeared.
    StopString,
    /// The per-token callback asked to stop.
    Callback,
    /// The context window is full.
    ContextFull,
}

/// The answer of the per-token callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenControl {
    /// Keep generating.
    Continue,
    /// Stop now; the text so far is returned with [`StopReason::Callback`].
    Stop,
}

/// The result of one generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// Generated text, without the stop string that ended it.
    pub text: String,
    /// Ids of the generated tokens, in the model's own vocabulary.
    pub tokens: Vec<u32>,
    /// Tokens in the rendered prompt.
    pub n_prompt_tokens: u32,
    /// Prompt tokens whose key/value cache was reused, not computed for this request: from
    /// an earlier request, or (in a batch) the prompt prefix shared with the batch's first
    /// sequence, evaluated once for all of them.
    pub n_cached_prompt_tokens: u32,
    /// Tokens generated (the length of `tokens`).
    pub n_completion_tokens: u32,
    /// Wall time spent evaluating the prompt, in milliseconds.
    pub prefill_ms: f64,
    /// Wall time spent generating after the prompt, in milliseconds.
    pub decode_ms: f64,
    /// Why generation ended.
    pub stop_reason: StopReason,
}

impl Generation {
    /// Prompt tokens evaluated per second (cached tokens not counted); 0 when nothing was
    /// evaluated.
    #[must_use]
    pub fn prefill_tokens_per_s(&self) -> f64 {
        let evaluated = self
            .n_prompt_tokens
            .saturating_sub(self.n_cached_prompt_tokens);
        rate(evaluated, self.prefill_ms)
    }

    /// Generated tokens per second of decode time; 0 when nothing was generated.
    ///
    /// The first generated token comes from the prompt's logits, so the decode time covers
    /// `n_completion_tokens - 1` forward passes; the rate uses that count.
    #[must_use]
    pub fn decode_tokens_per_s(&self) -> f64 {
        rate(self.n_completion_tokens.saturating_sub(1), self.decode_ms)
    }
}

fn rate(n_tokens: u32, ms: f64) -> f64 {
    if n_tokens == 0 || ms <= 0.0 {
        0.0
    } else {
        f64::from(n_tokens) * 1000.0 / ms
    }
}

/// A loaded text model that generates from chat prompts.
///
/// Synchronous and object-safe: callers hold a `Box<dyn TextGenerator>`. Generation takes
/// `&mut self` because backends keep per-model state (the key/value cache of the previous
/// prompt, reused when the next prompt shares its prefix).
pub trait TextGenerator: Send {
    /// Facts about the loaded model.
    fn info(&self) -> &ModelInfo;

    /// Generates a reply to `request`, calling `on_token` with each new piece of text as
    /// soon as it is final (complete UTF-8, not part of a possible stop string). The
    /// returned text is exactly the concatenation of those pieces.
    ///
    /// # Errors
    ///
    /// [`crate::LlmError::InvalidRequest`] when the prompt does not fit the context or the
    /// request is malformed, [`crate::LlmError::Schema`] when the JSON Schema cannot be
    /// used, [`crate::LlmError::Inference`] when the engine fails.
    fn generate(
        &mut self,
        request: &GenerateRequest,
        on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> Result<Generation>;

    /// Tokens of `text` in the model's own vocabulary, without special tokens; `None` for a
    /// backend that cannot count them (a remote server).
    fn count_tokens(&self, text: &str) -> Option<usize> {
        let _ = text;
        None
    }

    /// Generates replies to several independent requests. Backends that can decode several
    /// sequences together override this; the default runs them one after another.
    ///
    /// # Errors
    ///
    /// As [`TextGenerator::generate`]; the first failure ends the batch.
    fn generate_batch(&mut self, requests: &[GenerateRequest]) -> Result<Vec<Generation>> {
        requests
            .iter()
            .map(|request| self.generate(request, &mut |_| TokenControl::Continue))
            .collect()
    }

    /// Serves conversations from `work` until it has no more (continuous batching, see
    /// [`crate::Conversations`]): backends that decode several sequences together override
    /// this to keep many conversations in flight; the default runs them one at a time
    /// ([`crate::serve_one_at_a_time`]). Greedy replies are the ones
    /// [`TextGenerator::generate`] gives up to the rounding of batched arithmetic.
    ///
    /// # Errors
    ///
    /// Engine failures ([`crate::LlmError::Inference`]); a request's own error goes to
    /// [`crate::Conversations::reply`] and the others go on.
    fn serve(&mut self, work: &mut dyn crate::Conversations) -> Result<()> {
        crate::serve_one_at_a_time(self, work)
    }
}

/// A loaded sentence-embedding model.
pub trait Embedder: Send + Sync {
    /// Model name (for caches keyed by model).
    fn model_name(&self) -> &str;

    /// Length of every returned vector.
    fn dimension(&self) -> usize;

    /// Embeds each text into one unit-length vector of [`Embedder::dimension`] floats, in
    /// input order.
    ///
    /// # Errors
    ///
    /// [`crate::LlmError::Inference`] when tokenising or the forward pass fails.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_skips_empty_system_message() {
        let request = GenerateRequest::chat("", "hi");
        assert_eq!(request.messages, vec![ChatMessage::user("hi")]);
        let request = GenerateRequest::chat("be brief", "hi");
        assert_eq!(request.messages[0].role, ChatRole::System);
        assert!(request.is_greedy());
    }

    #[test]
    fn rates_ignore_cached_tokens_and_first_token() {
        let generation = Generation {
            text: String::new(),
            tokens: vec![1, 2, 3, 4, 5],
            n_prompt_tokens: 110,
            n_cached_prompt_tokens: 10,
            n_completion_tokens: 5,
            prefill_ms: 500.0,
            decode_ms: 200.0,
            stop_reason: StopReason::MaxTokens,
        };
        assert!((generation.prefill_tokens_per_s() - 200.0).abs() < 1e-9);
        assert!((generation.decode_tokens_per_s() - 20.0).abs() < 1e-9);
        let empty = Generation {
            n_completion_tokens: 0,
            decode_ms: 0.0,
            ..generation
        };
        assert_eq!(empty.decode_tokens_per_s(), 0.0);
    }
}
