//! Continuous batching on llama.cpp ([`nanoindex_llm::TextGenerator::serve`]): up to
//! `serve_sequences` conversations in flight ([`crate::LlamaCppConfig`]), one sequence of the
//! key/value cache each.
//!
//! Every forward pass holds one token for each sequence that is generating and, in the room
//! left of `n_batch`, the prompt tokens of sequences being filled (a conversation's next turn
//! evaluates only what its prompt adds to the tokens its sequence holds; a new one starts
//! from the longest prompt prefix any sequence holds, copied with `llama_memory_seq_cp`, so
//! fixed instructions are evaluated once). A request is let into the cache only when the
//! cells it can use (its prompt and `max_tokens`) fit beside those of the requests already
//! in: cached prefixes of idle sequences are dropped first (the least recently used first),
//! and a conversation's next turn waits for room while nothing else is let in. With one
//! sequence the passes are exactly those of [`nanoindex_llm::TextGenerator::generate`].

use std::time::Instant;

use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::token::LlamaToken;
use nanoindex_llm::{
    elapsed_ms, rejects_request_only, reusable_prefix, Conversations, GenerateRequest, LlmError,
    Result, SequenceStops, TokenControl,
};

use super::{inference_error, position, token_id, Chooser, LlamaCppGenerator};

/// A prefix held by another sequence is copied rather than evaluated again when it is at
/// least this many tokens longer than what the sequence itself holds.
const MIN_COPIED_PREFIX: usize = 16;

/// One sequence of the cache.
struct Slot {
    seq: i32,
    /// Tokens whose keys and values this sequence holds, from position 0.
    cached: Vec<LlamaToken>,
    /// The loop step it last served at (idle caches are dropped least recently used first).
    used_at: u64,
    job: Option<Job>,
}

/// The request a sequence is serving.
struct Job {
    /// The conversation's id (the source's).
    id: usize,
    /// When its conversation started (earlier conversations get room first).
    order: u64,
    prompt: Vec<LlamaToken>,
    /// Most tokens it may generate, within the context.
    max_tokens: usize,
    chooser: Chooser,
    stops: SequenceStops,
    /// The reply's final text so far.
    written: String,
    /// Prompt tokens the cache held when it was let in.
    reused: usize,
    /// Whether it has its room in the cache.
    admitted: bool,
    /// Output row of its logits in the batch just decoded.
    logits: Option<i32>,
    /// The token chosen last, to be evaluated in the next pass.
    pending: Option<LlamaToken>,
    placed: Instant,
    prefill_ms: f64,
    decode_started: Option<Instant>,
}

impl Job {
    /// Cells the job can fill: its prompt and its generated tokens.
    fn cells(&self) -> usize {
        self.prompt.len() + self.max_tokens
    }
}

impl Slot {
    /// Cells this sequence holds or may fill.
    fn cells(&self) -> usize {
        match &self.job {
            Some(job) if job.admitted => self.cached.len().max(job.cells()),
            _ => self.cached.len(),
        }
    }

    fn seq_id(&self) -> u32 {
        u32::try_from(self.seq).unwrap_or(0)
    }
}

impl LlamaCppGenerator {
    /// [`nanoindex_llm::TextGenerator::serve`] for llama.cpp (see the module docs).
    pub(super) fn serve_slots(&mut self, work: &mut dyn Conversations) -> Result<()> {
        let n_slots = self
            .config
            .serve_sequences
            .clamp(1, self.config.n_seq_max.max(1)) as usize;
        // Sequence 0 keeps what `generate` left in it; the others start empty.
        for seq in 1..n_slots {
            let _ = self
                .context
                .clear_kv_cache_seq(u32::try_from(seq).ok(), None, None);
        }
        let mut slots: Vec<Slot> = (0..n_slots)
            .map(|seq| Slot {
                seq: i32::try_from(seq).unwrap_or(0),
                cached: if seq == 0 {
                    std::mem::take(&mut self.cached_tokens)
                } else {
                    Vec::new()
                },
                used_at: 0,
                job: None,
            })
            .collect();
        let outcome = self.run_slots(&mut slots, work);
        match outcome {
            Ok(()) => {
                for slot in &slots[1..] {
                    let _ = self
                        .context
                        .clear_kv_cache_seq(Some(slot.seq_id()), None, None);
                }
                self.cached_tokens = std::mem::take(&mut slots[0].cached);
            }
            Err(_) => {
                self.cached_tokens.clear();
                self.trim_cache(0);
            }
        }
        outcome
    }

    fn run_slots(&mut self, slots: &mut [Slot], work: &mut dyn Conversations) -> Result<()> {
        let n_batch = self.context.n_batch().max(1) as usize;
        let n_ctx = self.context.n_ctx() as usize;
        let mut batch = LlamaBatch::new(n_batch.max(slots.len()), 1);
        let mut started: u64 = 0;
        let mut step: u64 = 0;
        loop {
            step += 1;
            // Next turns first, then new conversations into free sequences while the cache
            // has room for each.
            self.admit(slots, n_ctx)?;
            while !slots
                .iter()
                .any(|s| s.job.as_ref().is_some_and(|j| !j.admitted))
            {
                if slots.iter().all(|s| s.job.is_some()) {
                    break;
                }
                let idle = slots.iter().all(|s| s.job.is_none());
                let Some((id, request)) = work.start(idle) else {
                    break;
                };
                started += 1;
                self.place(slots, None, id, started, request, work)?;
                self.admit(slots, n_ctx)?;
            }
            if slots.iter().all(|s| s.job.is_none()) {
                return Ok(());
            }

            // One pass: a token for every generating sequence, prompt tokens in the rest.
            batch.clear();
            let mut rows: Vec<(usize, usize)> = Vec::new(); // (slot, tokens added)
            for (i, slot) in slots.iter_mut().enumerate() {
                let Some(job) = slot.job.as_mut() else {
                    continue;
                };
                if let Some(token) = job.pending {
                    batch
                        .add(token, position(slot.cached.len())?, &[slot.seq], true)
                        .map_err(inference_error)?;
                    job.logits = Some(batch.n_tokens() - 1);
                    rows.push((i, 1));
                }
            }
            let mut room = n_batch.saturating_sub(batch.n_tokens().max(0) as usize);
            let mut order: Vec<usize> = (0..slots.len())
                .filter(|&i| {
                    slots[i].job.as_ref().is_some_and(|j| {
                        j.admitted && j.pending.is_none() && slots[i].cached.len() < j.prompt.len()
                    })
                })
                .collect();
            order.sort_by_key(|&i| slots[i].job.as_ref().map_or(0, |j| j.order));
            for i in order {
                if room == 0 {
                    break;
                }
                if self.share_prefix(slots, i)? {
                    continue;
                }
                let slot = &mut slots[i];
                let Some(job) = slot.job.as_mut() else {
                    continue;
                };
                let from = slot.cached.len();
                let to = job.prompt.len().min(from + room);
                for (pos, token) in job.prompt.iter().enumerate().take(to).skip(from) {
                    let last = pos + 1 == job.prompt.len();
                    batch
                        .add(*token, position(pos)?, &[slot.seq], last)
                        .map_err(inference_error)?;
                    if last {
                        job.logits = Some(batch.n_tokens() - 1);
                    }
                }
                rows.push((i, to - from));
                room -= to - from;
            }
            if batch.n_tokens() == 0 {
                return Err(LlmError::Inference(
                    "continuous batching made no progress (no request could be let into the \
                     cache)"
                        .into(),
                ));
            }
            self.context.decode(&mut batch).map_err(inference_error)?;
            for (i, added) in rows {
                let slot = &mut slots[i];
                slot.used_at = step;
                let Some(job) = slot.job.as_mut() else {
                    continue;
                };
                match job.pending.take() {
                    Some(token) => slot.cached.push(token),
                    None => {
                        let from = slot.cached.len();
                        slot.cached
                            .extend_from_slice(&job.prompt[from..from + added]);
                    }
                }
            }
            // Choose each sequence's next token from its row.
            for i in 0..slots.len() {
                let chosen = match slots[i].job.as_mut() {
                    Some(job) => job.logits.take(),
                    None => None,
                };
                if let Some(row) = chosen {
                    self.next_token(slots, i, row, n_ctx, work)?;
                }
            }
        }
    }

    /// Renders `request` and gives it to a sequence, where it waits for room: slot `turn_of`
    /// for a conversation's next turn, else the free sequence whose cache serves it best. A
    /// request's own error goes to the source (and the conversation's next request, if any,
    /// is placed instead).
    fn place(
        &mut self,
        slots: &mut [Slot],
        turn_of: Option<usize>,
        id: usize,
        order: u64,
        request: GenerateRequest,
        work: &mut dyn Conversations,
    ) -> Result<()> {
        let mut request = Some(request);
        while let Some(current) = request.take() {
            match self.job_for(&current, id, order) {
                Ok(job) => {
                    let free = turn_of.or_else(|| {
                        (0..slots.len())
                            .filter(|&k| slots[k].job.is_none())
                            .max_by_key(|&k| {
                                (
                                    reusable_prefix(&slots[k].cached, &job.prompt),
                                    std::cmp::Reverse(slots[k].used_at),
                                )
                            })
                    });
                    let Some(k) = free else {
                        return Err(LlmError::Inference(
                            "continuous batching: no free sequence for a new conversation".into(),
                        ));
                    };
                    slots[k].job = Some(job);
                    return Ok(());
                }
                Err(error) if rejects_request_only(&error) => {
                    request = work.reply(id, Err(error));
                }
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    fn job_for(&self, request: &GenerateRequest, id: usize, order: u64) -> Result<Job> {
        let prompt = self.prompt_tokens(&self.render_prompt(request)?);
        self.check_fits(prompt.len(), "the prompt")?;
        let n_ctx = self.context.n_ctx() as usize;
        Ok(Job {
            id,
            order,
            max_tokens: (request.max_tokens as usize).min(n_ctx - prompt.len()),
            prompt,
            chooser: Chooser::new(self, request)?,
            stops: SequenceStops::new(request),
            written: String::new(),
            reused: 0,
            admitted: false,
            logits: None,
            pending: None,
            placed: Instant::now(),
            prefill_ms: 0.0,
            decode_started: None,
        })
    }

    /// Lets waiting requests into the cache, earliest conversation first, while their cells
    /// fit (see the module docs); stops at the first that does not, so a conversation's next
    /// turn is not overtaken.
    fn admit(&mut self, slots: &mut [Slot], n_ctx: usize) -> Result<()> {
        let mut waiting: Vec<usize> = (0..slots.len())
            .filter(|&i| slots[i].job.as_ref().is_some_and(|j| !j.admitted))
            .collect();
        waiting.sort_by_key(|&i| slots[i].job.as_ref().map_or(0, |j| j.order));
        for i in waiting {
            let (prompt_len, cells) = match &slots[i].job {
                Some(job) => (job.prompt.len(), job.cells()),
                None => continue,
            };
            let need = |slots: &[Slot]| -> usize {
                let others: usize = (0..slots.len())
                    .filter(|&k| k != i)
                    .map(|k| slots[k].cells())
                    .sum();
                others + cells
            };
            let reuse = |slots: &[Slot]| {
                slots[i]
                    .job
                    .as_ref()
                    .map_or(0, |j| reusable_prefix(&slots[i].cached, &j.prompt))
            };
            // Idle caches go first, least recently used first; with nothing running, the
            // caches of other waiting sequences too (then the request fits alone).
            while need(slots) > n_ctx {
                let running = slots
                    .iter()
                    .any(|s| s.job.as_ref().is_some_and(|j| j.admitted));
                let victim = (0..slots.len())
                    .filter(|&k| k != i && !slots[k].cached.is_empty())
                    .filter(|&k| match &slots[k].job {
                        None => true,
                        Some(job) => !job.admitted && !running,
                    })
                    .min_by_key(|&k| slots[k].used_at);
                let Some(k) = victim else { break };
                let _ = self
                    .context
                    .clear_kv_cache_seq(Some(slots[k].seq_id()), None, None);
                slots[k].cached.clear();
            }
            if need(slots) > n_ctx {
                return Ok(());
            }
            // The sequence keeps its own reusable prefix (a longer one held by another
            // sequence is copied when its prompt is evaluated, `share_prefix`).
            let own = reuse(slots);
            let seq = slots[i].seq_id();
            let cut = u32::try_from(own)
                .ok()
                .and_then(|p0| {
                    self.context
                        .clear_kv_cache_seq(Some(seq), Some(p0), None)
                        .ok()
                })
                .unwrap_or(false);
            let kept = if cut {
                slots[i].cached.truncate(own);
                own
            } else {
                let _ = self.context.clear_kv_cache_seq(Some(seq), None, None);
                slots[i].cached.clear();
                0
            };
            if let Some(job) = slots[i].job.as_mut() {
                debug_assert!(kept < prompt_len);
                job.reused = kept;
                job.admitted = true;
                job.placed = Instant::now();
            }
        }
        Ok(())
    }

    /// Before slot `i` evaluates more of its prompt: copies the longest prefix of it another
    /// sequence holds when that is at least [`MIN_COPIED_PREFIX`] tokens more than its own,
    /// and returns `true` (wait) when a sequence started earlier is still evaluating such a
    /// prefix, which it copies once it is there.
    fn share_prefix(&mut self, slots: &mut [Slot], i: usize) -> Result<bool> {
        let Some(job) = slots[i].job.as_ref() else {
            return Ok(false);
        };
        let own = slots[i].cached.len();
        let donor = (0..slots.len())
            .filter(|&k| k != i)
            .map(|k| (k, reusable_prefix(&slots[k].cached, &job.prompt)))
            .filter(|&(_, n)| n >= own + MIN_COPIED_PREFIX)
            .max_by_key(|&(_, n)| n);
        if let Some((k, n)) = donor {
            let seq = slots[i].seq_id();
            let _ = self.context.clear_kv_cache_seq(Some(seq), None, None);
            self.context
                .copy_kv_cache_seq(slots[k].seq, slots[i].seq, None, u32::try_from(n).ok())
                .map_err(inference_error)?;
            slots[i].cached = slots[k].cached[..n].to_vec();
            if let Some(job) = slots[i].job.as_mut() {
                job.reused = n;
            }
        }
        let Some(job) = slots[i].job.as_ref() else {
            return Ok(false);
        };
        let own = slots[i].cached.len();
        let coming = (0..slots.len())
            .filter(|&k| k != i)
            .filter_map(|k| {
                let other = slots[k].job.as_ref()?;
                (other.admitted
                    && other.order < job.order
                    && slots[k].cached.len() < other.prompt.len())
                .then(|| reusable_prefix(&other.prompt, &job.prompt))
            })
            .max()
            .unwrap_or(0);
        Ok(coming >= own + MIN_COPIED_PREFIX)
    }

    /// Chooses slot `i`'s next token from output `row` and applies the stop rules (the
    /// order of [`nanoindex_llm::decode`]); a finished request goes to the source, and the
    /// conversation's next request, if any, takes the same sequence.
    fn next_token(
        &mut self,
        slots: &mut [Slot],
        i: usize,
        row: i32,
        n_ctx: usize,
        work: &mut dyn Conversations,
    ) -> Result<()> {
        let context_full = slots[i].cached.len() + 1 >= n_ctx;
        let Some(job) = slots[i].job.as_mut() else {
            return Ok(());
        };
        if job.decode_started.is_none() {
            job.prefill_ms = elapsed_ms(job.placed);
            job.decode_started = Some(Instant::now());
        }
        let mut go_on = false;
        if job.stops.may_choose() {
            let token = job.chooser.choose(&self.context, row)?;
            if self.is_end_of_generation(token) {
                job.stops.push(None, &[]);
            } else {
                let text = job.stops.push(Some(token_id(token)), &self.piece(token));
                if !text.is_empty() {
                    job.written.push_str(&text);
                    if work.watch(job.id, &job.written) == TokenControl::Stop {
                        job.stops.stop(nanoindex_llm::StopReason::Callback);
                    }
                }
                if job.stops.go_on(false, context_full) {
                    job.pending = Some(token);
                    go_on = true;
                }
            }
        }
        if go_on {
            return Ok(());
        }
        let Some(job) = slots[i].job.take() else {
            return Ok(());
        };
        let (rest, decoded) = job.stops.finish();
        if !rest.is_empty() {
            let mut written = job.written;
            written.push_str(&rest);
            work.watch(job.id, &written);
        }
        let decode_ms = job.decode_started.map_or(0.0, elapsed_ms);
        let generation =
            decoded.into_generation(job.prompt.len(), job.reused, job.prefill_ms, decode_ms);
        if let Some(next) = work.reply(job.id, Ok(generation)) {
            // The conversation goes on in this sequence, in its place in the order.
            self.place(slots, Some(i), job.id, job.order, next, work)?;
        }
        Ok(())
    }
}
