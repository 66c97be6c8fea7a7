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

/// A [`Conversations`] of single requests known up front, each watched by one closure: the
/// plain batch, served with continuous batching. Replies come back in request order.
pub struct Requests<'r, 'w> {
    requests: &'r [GenerateRequest],
    next: usize,
    replies: Vec<Option<Result<Generation>>>,
    watch: Option<&'w mut dyn FnMut(usize, &str) -> TokenControl>,
}

impl<'r, 'w> Requests<'r, 'w> {
    /// The requests, none answered yet; `watch` (optional) sees every reply as it is
    /// written, with the request's index.
    #[must_use]
    pub fn new(
        requests: &'r [GenerateRequest],
        watch: Option<&'w mut dyn FnMut(usize, &str) -> TokenControl>,
    ) -> Self {
        Requests {
            requests,
            next: 0,
            replies: requests.iter().map(|_| None).collect(),
            watch,
        }
    }

    /// The replies in request order (an error for a request that was rejected or, when
    /// `serve` failed before reaching it, not answered).
    #[must_use]
    pub fn into_replies(self) -> Vec<Result<Generation>> {
        self.replies
            .into_iter()
            .map(|reply| {
                reply.unwrap_or_else(|| {
                    Err(LlmError::Inference("the request was not answered".into()))
                })
            })
            .collect()
    }
}

impl Conversations for Requests<'_, '_> {
    fn start(&mut self, _idle: bool) -> Option<(usize, GenerateRequest)> {
        let request = self.requests.get(self.next)?;
        self.next += 1;
        Some((self.next - 1, request.clone()))
    }

    fn watch(&mut self, id: usize, written: &str) -> TokenControl {
        match self.watch.as_deref_mut() {
            Some(watch) => watch(id, written),
            None => TokenControl::Continue,
        }
    }

    fn reply(&mut self, id: usize, reply: Result<Generation>) -> Option<GenerateRequest> {
        if let Some(slot) = self.replies.get_mut(id) {
            *slot = Some(reply);
        }
        None
    }
}
