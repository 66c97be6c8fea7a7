//! Continuous batching: many conversations served by one model at once.
//!
//! A caller with many independent pieces of work (the windows of a document, the documents
//! of a batch) hands them to [`crate::TextGenerator::serve`] as [`Conversations`]: a source
//! the backend pulls a new conversation from whenever it has room, and tells of every reply.
//! A conversation is one or more requests, each sent after the previous one's reply and
//! continuing it (a second turn that repeats the first turn's messages and adds one), so a
//! backend that keeps each conversation in its own sequence evaluates only the new tokens
//! of each turn. The schedule is the one of vLLM and llama.cpp's server ("continuous" or
//! "in-flight" batching, Yu et al., *Orca*, OSDI 2022): every forward pass decodes one token
//! for each conversation that is generating and fills the rest of the batch with the prompts
//! of conversations just started, and a finished conversation's place goes to the next one
//! at once, without waiting for the rest of the batch.

use crate::generate::{GenerateRequest, Generation, TokenControl};
use crate::{LlmError, Result};

/// Where the conversations of [`crate::TextGenerator::serve`] come from, and where their
/// replies go. Conversation ids are the source's own (any `usize`, unique among the
/// conversations in flight).
pub trait Conversations {
    /// The next conversation to start: its id and first request; `None` when none is
    /// waiting. `idle` says the backend has nothing else in flight: a `None` then ends
    /// [`crate::TextGenerator::serve`], so a source fed by other threads blocks until work
    /// comes or its producers are done; with `idle` false it answers at once.
    fn start(&mut self, idle: bool) -> Option<(usize, GenerateRequest)>;

    /// The reply of conversation `id`'s current request as written so far (the whole text,
    /// after every piece of final text); [`TokenControl::Stop`] ends the request there.
    fn watch(&mut self, id: usize, written: &str) -> TokenControl {
        let _ = (id, written);
        TokenControl::Continue
    }

    /// Conversation `id`'s current request ended: its reply, or the error that rejected it
    /// alone ([`LlmError::InvalidRequest`]: the prompt does not fit the context or is
    /// malformed; [`LlmError::Schema`]: its JSON Schema cannot be used). Returns the
    /// conversation's next request, sent in the same sequence so that the backend reuses the
    /// keys and values of the prompt prefix it repeats, or `None` when the conversation is
    /// over.
    fn reply(&mut self, id: usize, reply: Result<Generation>) -> Option<GenerateRequest>;

    /// Requests the source has decided to make, since it was last asked, beyond those it
    /// had counted on (a turn asked again after an unusable reply), for progress totals; 0
    /// by default.
    fn planned(&mut self) -> usize {
        0
    }
}

/// Whether `error` rejects one request only (it goes to [`Conversations::reply`]) rather
/// than the engine (it ends [`crate::TextGenerator::serve`]).
#[must_use]
pub fn rejects_request_only(error: &LlmError) -> bool {
    matches!(error, LlmError::InvalidRequest(_) | LlmError::Schema(_))
}

/// [`crate::TextGenerator::serve`] one request at a time: each conversation is run to its
/// end with [`crate::TextGenerator::generate`] before the next starts (the default for
/// backends that decode one sequence at a time; a backend's cache of the previous prompt
/// still serves a conversation's next turn).
///
/// # Errors
///
/// The first error of `generate` that is not the request's own
/// ([`rejects_request_only`]).
pub fn serve_one_at_a_time<G: crate::TextGenerator + ?Sized>(
    generator: &mut G,
    work: &mut dyn Conversations,
) -> Result<()> {
    while let Some((id, first)) = work.start(true) {
        let mut request = Some(first);
        while let Some(current) = request.take() {
            let mut written = String::new();
            let outcome = generator.generate(&current, &mut |piece| {
                written.push_str(piece);
                work.watch(id, &written)
            });
            match outcome {
                Err(error) if !rejects_request_only(&error) => return Err(error),
                outcome => request = work.reply(id, outcome),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ChatMessage, ScriptedGenerator, TextGenerator};

    /// Conversations of two turns: the second repeats the first with its reply; conversation
    /// 1's watcher stops its first reply at the word "stop".
    #[derive(Default)]
    struct Log {
        started: usize,
        heard: Vec<(usize, std::result::Result<String, String>)>,
    }

    impl Conversations for Log {
        fn start(&mut self, idle: bool) -> Option<(usize, GenerateRequest)> {
            assert!(idle, "one at a time: nothing else is in flight");
            (self.started < 3).then(|| {
                self.started += 1;
                let id = self.started - 1;
                (id, GenerateRequest::chat("", &format!("first of {id}")))
            })
        }

        fn watch(&mut self, id: usize, written: &str) -> TokenControl {
            if id == 1 && written.contains("stop") {
                TokenControl::Stop
            } else {
                TokenControl::Continue
            }
        }

        fn reply(&mut self, id: usize, reply: Result<Generation>) -> Option<GenerateRequest> {
            let turn = self.heard.iter().filter(|(i, _)| *i == id).count();
            let next = match (&reply, turn) {
                (Ok(r), 0) => {
                    let mut next = GenerateRequest::chat("", &format!("first of {id}"));
                    next.messages.push(ChatMessage::assistant(r.text.clone()));
                    next.messages.push(ChatMessage::user("second"));
                    Some(next)
                }
                _ => None,
            };
            self.heard
                .push((id, reply.map(|r| r.text).map_err(|e| e.to_string())));
            next
        }
    }

    #[test]
    fn one_at_a_time_runs_each_conversation_to_its_end_and_hands_on_a_request_error() {
        // Conversation 2's second turn finds the script empty: a request error, not the end.
        let mut model = ScriptedGenerator::new([
            "zero one",
            "zero two",
            "one stop here",
            "one two",
            "two one",
        ]);
        let mut log = Log::default();
        model.serve(&mut log).unwrap();
        let heard: Vec<(usize, std::result::Result<&str, bool>)> = log
            .heard
            .iter()
            .map(|(id, r)| (*id, r.as_deref().map_err(|e| e.contains("no reply left"))))
            .collect();
        assert_eq!(
            heard,
            [
                (0, Ok("zero one")),
                (0, Ok("zero two")),
                (1, Ok("one stop ")),
                (1, Ok("one two")),
                (2, Ok("two one")),
                (2, Err(true)),
            ]
        );
        // The second turn carries the first turn's reply as the watcher cut it (after the
        // piece that made it stop).
        let second_of_1 = &model.requests()[3];
        assert_eq!(second_of_1.messages[1].content, "one stop ");
    }
}
