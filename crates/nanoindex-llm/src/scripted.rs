//! A scripted text generator that returns fixed replies, for engine tests about control
//! flow (prompt packing, retries, parsing). It proves nothing about a model.

use std::collections::VecDeque;

use crate::{
    GenerateRequest, Generation, LlmError, ModelInfo, Result, StopReason, StreamEvent,
    TextGenerator, TextStream, TokenControl,
};

/// Replies with the scripted texts in order, one per request, and records the requests.
///
/// Each reply is streamed in whitespace-separated pieces (one "token" each), honouring
/// `max_tokens`, stop strings and the callback like a real backend.
///
/// ```
/// use nanoindex_llm::{GenerateRequest, ScriptedGenerator, TextGenerator, TokenControl};
/// let mut model = ScriptedGenerator::new(["{\"answer\": 42}"]);
/// let reply = model.generate(&GenerateRequest::chat("", "q"), &mut |_| TokenControl::Continue).unwrap();
/// assert_eq!(reply.text, "{\"answer\": 42}");
/// assert_eq!(model.requests().len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct ScriptedGenerator {
    replies: VecDeque<String>,
    requests: Vec<GenerateRequest>,
    info: ModelInfo,
}

impl ScriptedGenerator {
    /// A generator that will answer with `replies`, in order.
    #[must_use]
    pub fn new<I, S>(replies: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            replies: replies.into_iter().map(Into::into).collect(),
            requests: Vec::new(),
            info: ModelInfo {
                name: "scripted".into(),
                architecture: "scripted".into(),
                context_length: 8192,
                context_length_used: 8192,
                vocab_size: 0,
                backend: "scripted".into(),
            },
        }
    }

    /// The requests received so far, in order.
    #[must_use]
    pub fn requests(&self) -> &[GenerateRequest] {
        &self.requests
    }
}

impl TextGenerator for ScriptedGenerator {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// # Errors
    ///
    /// [`LlmError::InvalidRequest`] when the script has no reply left.
    fn generate(
        &mut self,
        request: &GenerateRequest,
        on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> Result<Generation> {
        self.requests.push(request.clone());
        let reply = self.replies.pop_front().ok_or_else(|| {
            LlmError::InvalidRequest(format!(
                "the scripted generator has no reply left for request `{}`",
                self.requests.len()
            ))
        })?;
        let mut stream = TextStream::new(request.stop.clone());
        let mut n_tokens = 0_u32;
        let mut stop_reason = StopReason::EndOfGeneration;
        for piece in reply.split_inclusive(char::is_whitespace) {
            if n_tokens >= request.max_tokens {
                stop_reason = StopReason::MaxTokens;
                break;
            }
            n_tokens += 1;
            match stream.push(piece.as_bytes()) {
                StreamEvent::Stopped(text) => {
                    if !text.is_empty() {
                        on_token(&text);
                    }
                    stop_reason = StopReason::StopString;
                    break;
                }
                StreamEvent::Text(text) => {
                    if !text.is_empty() && on_token(&text) == TokenControl::Stop {
                        stop_reason = StopReason::Callback;
                        break;
                    }
                }
            }
        }
        if stop_reason != StopReason::Callback {
            let rest = stream.finish();
            if !rest.is_empty() {
                on_token(&rest);
            }
        }
        Ok(Generation {
            text: stream.text().to_string(),
            tokens: Vec::new(),
            n_prompt_tokens: 0,
            n_cached_prompt_tokens: 0,
            n_completion_tokens: n_tokens,
            prefill_ms: 0.0,
            decode_ms: 0.0,
            stop_reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(_: &str) -> TokenControl {
        TokenControl::Continue
    }

    #[test]
    fn replies_in_order_then_errors() {
        let mut model = ScriptedGenerator::new(["one", "two"]);
        let request = GenerateRequest::chat("", "q");
        assert_eq!(model.generate(&request, &mut quiet).unwrap().text, "one");
        assert_eq!(model.generate(&request, &mut quiet).unwrap().text, "two");
        assert!(matches!(
            model.generate(&request, &mut quiet),
            Err(LlmError::InvalidRequest(_))
        ));
        assert_eq!(model.requests().len(), 3);
    }

    #[test]
    fn honours_max_tokens_and_stop_strings() {
        let mut model = ScriptedGenerator::new(["a b c d", "x y END z"]);
        let short = GenerateRequest::chat("", "q").with_max_tokens(2);
        let reply = model.generate(&short, &mut quiet).unwrap();
        assert_eq!(
            (reply.text.as_str(), reply.stop_reason),
            ("a b ", StopReason::MaxTokens)
        );
        let stopped = GenerateRequest::chat("", "q").with_stop(["END"]);
        let reply = model.generate(&stopped, &mut quiet).unwrap();
        assert_eq!(
            (reply.text.as_str(), reply.stop_reason),
            ("x y ", StopReason::StopString)
        );
    }
}
