//! The decode loop every local backend runs, written once: choose a token, stream its text
//! (holding back what could start a stop string), stop on the end of generation, a stop
//! string, the caller's callback, `max_tokens`, a finished grammar or a full context, else
//! evaluate the token and go on. A backend supplies the steps ([`DecodeSteps`]); the loop
//! decides when to stop and what text was generated.

use std::time::Instant;

use crate::generate::{GenerateRequest, Generation, StopReason, TokenControl};
use crate::stream::{StreamEvent, TextStream};
use crate::{LlmError, Result};

/// Checks that a prompt of `n_prompt` tokens (`what`: "the prompt", "prompt 3 of the batch")
/// is not empty and leaves room for at least one generated token in a context of `n_ctx`.
///
/// # Errors
/// [`LlmError::InvalidRequest`] naming both sizes.
pub fn check_prompt(n_prompt: usize, n_ctx: usize, what: &str) -> Result<()> {
    if n_prompt == 0 {
        return Err(LlmError::InvalidRequest(format!("{what} is empty")));
    }
    if n_prompt + 1 > n_ctx {
        return Err(LlmError::InvalidRequest(format!(
            "{what} has `{n_prompt}` tokens but the context holds `{n_ctx}`; shorten it or \
             load the model with a larger context"
        )));
    }
    Ok(())
}

/// How many leading tokens of `prompt` a key/value cache holding `cached` can keep: their
/// common prefix, less at least the last prompt token, which is evaluated again so that its
/// logits exist.
#[must_use]
pub fn reusable_prefix<T: PartialEq>(cached: &[T], prompt: &[T]) -> usize {
    cached
        .iter()
        .zip(prompt)
        .take_while(|(a, b)| a == b)
        .count()
        .min(prompt.len().saturating_sub(1))
}

/// Milliseconds since `since`.
#[must_use]
pub fn elapsed_ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// A count as the `u32` the [`Generation`] fields hold (saturating).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// What a backend does at each step of decoding one sequence.
pub trait DecodeSteps {
    /// The next token from the current logits, or `None` at the end of generation. `text` is
    /// what has been generated so far (for constraints that look at it).
    ///
    /// # Errors
    /// A sampling or grammar failure.
    fn choose(&mut self, text: &str) -> Result<Option<u32>>;

    /// The bytes `token` writes (control tokens write none).
    fn piece(&self, token: u32) -> Vec<u8>;

    /// Whether the output is complete after the tokens chosen so far (a JSON grammar that
    /// accepts nothing more); `false` for unconstrained decoding.
    fn finished(&self) -> bool {
        false
    }

    /// Whether the context has no room for one more token.
    fn context_full(&self) -> bool;

    /// Evaluates `token` so that the next [`DecodeSteps::choose`] sees its logits.
    ///
    /// # Errors
    /// An inference failure (the backend leaves its cache consistent).
    fn advance(&mut self, token: u32) -> Result<()>;
}

/// What the loop produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The generated text (without a stop string and what follows it).
    pub text: String,
    /// The generated tokens.
    pub tokens: Vec<u32>,
    /// Why decoding stopped.
    pub stop_reason: StopReason,
}

impl Decoded {
    /// The [`Generation`] of this decoded sequence, for a prompt of `n_prompt` tokens of
    /// which `n_cached` came from the cache, with the prefill and decode times.
    #[must_use]
    pub fn into_generation(
        self,
        n_prompt: usize,
        n_cached: usize,
        prefill_ms: f64,
        decode_ms: f64,
    ) -> Generation {
        Generation {
            n_completion_tokens: count(self.tokens.len()),
            text: self.text,
            tokens: self.tokens,
            n_prompt_tokens: count(n_prompt),
            n_cached_prompt_tokens: count(n_cached),
            prefill_ms,
            decode_ms,
            stop_reason: self.stop_reason,
        }
    }
}

/// The stop rules of one sequence, written once for every decode loop: [`decode`] runs one
/// sequence with them, and a backend that decodes several sequences at once (llama.cpp's
/// batch) keeps one per sequence. Per token, in this order: [`Self::may_choose`] (stops at
/// `max_tokens` before choosing), [`Self::push`] (the chosen token, or `None` at the end of
/// generation; stops at a stop string), the caller's callback ([`Self::stop`]), then
/// [`Self::go_on`] (stops when the output is complete, at `max_tokens` or on a full context);
/// [`Self::finish`] gives the [`Decoded`] result.
#[derive(Debug)]
pub struct SequenceStops {
    stream: TextStream,
    tokens: Vec<u32>,
    max_tokens: usize,
    reason: Option<StopReason>,
}

impl SequenceStops {
    /// The rules of `request` (its `max_tokens` and `stop` strings).
    #[must_use]
    pub fn new(request: &GenerateRequest) -> Self {
        SequenceStops {
            stream: TextStream::new(request.stop.clone()),
            tokens: Vec::new(),
            max_tokens: request.max_tokens as usize,
            reason: None,
        }
    }

    /// Why the sequence stopped, or `None` while it goes on.
    #[must_use]
    pub fn reason(&self) -> Option<StopReason> {
        self.reason
    }

    /// The text released so far (a stop string and what could start one held back).
    #[must_use]
    pub fn text(&self) -> &str {
        self.stream.text()
    }

    /// Whether another token may be chosen: `false` once stopped, or at `max_tokens` (then
    /// stopped with [`StopReason::MaxTokens`]).
    pub fn may_choose(&mut self) -> bool {
        if self.reason.is_none() && self.tokens.len() >= self.max_tokens {
            self.reason = Some(StopReason::MaxTokens);
        }
        self.reason.is_none()
    }

    /// Takes the chosen token and the bytes it writes; `None` is the end of generation.
    /// Returns the text that became final with it (possibly empty); at a stop string the
    /// sequence stops with [`StopReason::StopString`] and the text before it is returned.
    pub fn push(&mut self, token: Option<u32>, piece: &[u8]) -> String {
        let Some(token) = token else {
            self.reason = Some(StopReason::EndOfGeneration);
            return String::new();
        };
        self.tokens.push(token);
        match self.stream.push(piece) {
            StreamEvent::Stopped(text) => {
                self.reason = Some(StopReason::StopString);
                text
            }
            StreamEvent::Text(text) => text,
        }
    }

    /// Stops the sequence for `reason` unless it has already stopped.
    pub fn stop(&mut self, reason: StopReason) {
        self.reason.get_or_insert(reason);
    }

    /// After a token was pushed: whether it is to be evaluated so that decoding goes on.
    /// Stops with [`StopReason::EndOfGeneration`] when the output is `complete` (a finished
    /// grammar), [`StopReason::MaxTokens`] at the limit, [`StopReason::ContextFull`] when the
    /// `context_full`.
    pub fn go_on(&mut self, complete: bool, context_full: bool) -> bool {
        if self.reason.is_none() {
            if complete {
                self.reason = Some(StopReason::EndOfGeneration);
            } else if self.tokens.len() >= self.max_tokens {
                self.reason = Some(StopReason::MaxTokens);
            } else if context_full {
                self.reason = Some(StopReason::ContextFull);
            }
        }
        self.reason.is_none()
    }

    /// Ends the sequence: the held-back tail (none when the callback stopped it, so that the
    /// text equals what was streamed) and the result.
    #[must_use]
    pub fn finish(mut self) -> (String, Decoded) {
        let reason = self.reason.unwrap_or(StopReason::MaxTokens);
        let rest = if reason == StopReason::Callback {
            String::new()
        } else {
            self.stream.finish()
        };
        let decoded = Decoded {
            text: self.stream.text().to_string(),
            tokens: self.tokens,
            stop_reason: reason,
        };
        (rest, decoded)
    }
}

/// Decodes one sequence for `request` (its `max_tokens` and `stop` strings, by
/// [`SequenceStops`]) with `steps`; `on_token` receives each piece of final text as it is
/// written and may stop generation. After the callback says stop, the held-back tail is
/// dropped, so that the text equals what was streamed.
///
/// # Errors
/// The first error of [`DecodeSteps::choose`] or [`DecodeSteps::advance`].
pub fn decode(
    request: &GenerateRequest,
    steps: &mut dyn DecodeSteps,
    on_token: &mut dyn FnMut(&str) -> TokenControl,
) -> Result<Decoded> {
    let mut stops = SequenceStops::new(request);
    while stops.may_choose() {
        let token = steps.choose(stops.text())?;
        let piece = token.map(|t| steps.piece(t)).unwrap_or_default();
        let text = stops.push(token, &piece);
        if !text.is_empty() && on_token(&text) == TokenControl::Stop {
            stops.stop(StopReason::Callback);
        }
        let Some(token) = token else { break };
        if !stops.go_on(steps.finished(), steps.context_full()) {
            break;
        }
        steps.advance(token)?;
    }
    let (rest, decoded) = stops.finish();
    if !rest.is_empty() {
        on_token(&rest);
    }
    Ok(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scripted backend: writes `script` token by token (token `i` writes `script[i]`),
    /// then ends; its context holds `room` tokens.
    struct Script {
        pieces: Vec<&'static str>,
        next: usize,
        room: usize,
        advanced: usize,
    }

    impl DecodeSteps for Script {
        fn choose(&mut self, _text: &str) -> Result<Option<u32>> {
            let t = self.next;
            self.next += 1;
            Ok((t < self.pieces.len()).then_some(t as u32))
        }
        fn piece(&self, token: u32) -> Vec<u8> {
            self.pieces[token as usize].as_bytes().to_vec()
        }
        fn context_full(&self) -> bool {
            self.advanced + 1 >= self.room
        }
        fn advance(&mut self, _token: u32) -> Result<()> {
            self.advanced += 1;
            Ok(())
        }
    }

    fn script(room: usize) -> Script {
        Script {
            pieces: vec!["Mon", "day", ", Tue", "sday", ", Wed"],
            next: 0,
            room,
            advanced: 0,
        }
    }

    fn run(request: &GenerateRequest, steps: &mut Script, stop_after: usize) -> (Decoded, String) {
        let mut streamed = String::new();
        let mut calls = 0;
        let decoded = decode(request, steps, &mut |piece| {
            streamed.push_str(piece);
            calls += 1;
            if calls == stop_after {
                TokenControl::Stop
            } else {
                TokenControl::Continue
            }
        })
        .unwrap();
        (decoded, streamed)
    }

    #[test]
    fn every_stop_reason_and_the_streamed_text_equals_the_text() {
        let base = GenerateRequest::chat("", "days").with_max_tokens(10);
        let (d, s) = run(&base, &mut script(100), 0);
        assert_eq!(d.stop_reason, StopReason::EndOfGeneration);
        assert_eq!(
            (d.text.as_str(), s.as_str()),
            ("Monday, Tuesday, Wed", "Monday, Tuesday, Wed")
        );
        let (d, _) = run(&base.clone().with_max_tokens(2), &mut script(100), 0);
        assert_eq!(
            (d.stop_reason, d.text.as_str()),
            (StopReason::MaxTokens, "Monday")
        );
        let (d, s) = run(&base.clone().with_stop(["Tue"]), &mut script(100), 0);
        assert_eq!(
            (d.stop_reason, d.text.as_str()),
            (StopReason::StopString, "Monday, ")
        );
        assert_eq!(s, d.text, "the stop string is never streamed");
        let (d, s) = run(&base, &mut script(100), 1);
        assert_eq!(d.stop_reason, StopReason::Callback);
        assert_eq!(d.text, s);
        let (d, _) = run(&base, &mut script(3), 0);
        assert_eq!(
            (d.stop_reason, d.tokens.len()),
            (StopReason::ContextFull, 3)
        );
        let (d, _) = run(&base.clone().with_max_tokens(0), &mut script(100), 0);
        assert_eq!((d.stop_reason, d.tokens.len()), (StopReason::MaxTokens, 0));
    }

    #[test]
    fn prompts_are_checked_and_the_cache_keeps_all_but_the_last_shared_token() {
        assert!(check_prompt(3, 4, "the prompt").is_ok());
        let full = check_prompt(4, 4, "the prompt").unwrap_err().to_string();
        assert!(
            full.contains("`4` tokens but the context holds `4`"),
            "{full}"
        );
        let empty = check_prompt(0, 4, "a prompt of the batch").unwrap_err();
        assert!(empty.to_string().contains("a prompt of the batch is empty"));
        assert_eq!(reusable_prefix(&[1, 2, 3, 9], &[1, 2, 3, 4, 5]), 3);
        assert_eq!(reusable_prefix(&[1, 2, 3], &[1, 2, 3]), 2);
        assert_eq!(reusable_prefix::<u32>(&[], &[7]), 0);
        assert_eq!(reusable_prefix::<u32>(&[7], &[]), 0);
        let generation = Decoded {
            text: "Paris".into(),
            tokens: vec![5, 6],
            stop_reason: StopReason::EndOfGeneration,
        }
        .into_generation(10, 4, 2.0, 3.0);
        assert_eq!(
            (
                generation.n_prompt_tokens,
                generation.n_cached_prompt_tokens,
                generation.n_completion_tokens
            ),
            (10, 4, 2)
        );
    }
}
