//! The llama.cpp text generator: model loading, prompt rendering, decoding loops.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;
use llama_cpp_2::token::LlamaToken;
mod serve;

use nanoindex_llm::{
    check_prompt, decode, elapsed_ms, reusable_prefix, DecodeSteps, GenerateRequest, Generation,
    LlmError, ModelInfo, Result, SequenceStops, TextGenerator, TokenControl,
};

/// Settings for loading a model with llama.cpp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlamaCppConfig {
    /// CPU threads for prompt and generation; `None` means `NANOINDEX_THREADS`, else every
    /// core ([`nanoindex_llm::thread_count`]).
    pub n_threads: Option<usize>,
    /// Context length to allocate, in tokens; capped at the model's training context.
    pub n_ctx: u32,
    /// Most tokens evaluated in one forward pass (prompt chunk size); raised to
    /// `n_seq_max` when smaller.
    pub n_batch: u32,
    /// Most sequences [`LlamaCppGenerator::generate_batch`] decodes together.
    pub n_seq_max: u32,
    /// Conversations [`TextGenerator::serve`] keeps in flight (continuous batching; capped
    /// at `n_seq_max`). Default: `n_seq_max` in builds that offload to a GPU, else 1, so
    /// that on a CPU `serve` runs each conversation as [`TextGenerator::generate`] would.
    /// On this project's 2-core machine, serving the windows of a 9-page 8-K with 8 in
    /// flight made its reading stage no faster (58–64 s against 48 s one at a time): a
    /// CPU's prefill is bound by compute, batched decoding gained at most 1.4×, and one
    /// cache shared by eight long sequences makes each token attend over all of them
    /// (`scripts/bench-llm.sh` measures it on the machine at hand).
    pub serve_sequences: u32,
    /// Layers offloaded to the GPU (0 on CPU-only builds).
    pub n_gpu_layers: u32,
}

impl Default for LlamaCppConfig {
    fn default() -> Self {
        Self {
            n_threads: None,
            n_ctx: 4096,
            n_batch: 512,
            n_seq_max: 8,
            serve_sequences: if cfg!(any(feature = "cuda", feature = "metal")) {
                8
            } else {
                1
            },
            n_gpu_layers: if cfg!(any(feature = "cuda", feature = "metal")) {
                999
            } else {
                0
            },
        }
    }
}

/// The llama.cpp backend, initialised once per process (llama.cpp allows only one).
fn backend() -> Result<&'static LlamaBackend> {
    static BACKEND: OnceLock<std::result::Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            let mut backend = LlamaBackend::init().map_err(|error| error.to_string())?;
            if std::env::var_os(nanoindex_llm::LLAMA_LOG_ENV).is_none() {
                backend.void_logs();
            }
            Ok(backend)
        })
        .as_ref()
        .map_err(|reason| LlmError::Inference(format!("cannot initialise llama.cpp: {reason}")))
}

/// A GGUF model loaded by llama.cpp, with one context (key/value cache) for generation.
///
/// Not shareable between threads (`Send`, not `Sync`); load one generator per thread.
pub struct LlamaCppGenerator {
    // Field order matters: the context borrows the model and must be dropped first.
    context: LlamaContext<'static>,
    /// Tokens whose keys/values are in the cache for sequence 0, in order.
    cached_tokens: Vec<LlamaToken>,
    template: Option<LlamaChatTemplate>,
    info: ModelInfo,
    config: LlamaCppConfig,
    n_threads: usize,
    path: PathBuf,
    model: Arc<LlamaModel>,
}

impl std::fmt::Debug for LlamaCppGenerator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlamaCppGenerator")
            .field("path", &self.path)
            .field("info", &self.info)
            .field("n_threads", &self.n_threads)
            .finish_non_exhaustive()
    }
}

impl LlamaCppGenerator {
    /// Loads the GGUF file at `path`.
    ///
    /// # Errors
    ///
    /// [`LlmError::ModelNotFound`] for a missing file, [`LlmError::InvalidModelFile`] when the
    /// file is not GGUF, [`LlmError::Load`] when llama.cpp rejects it (truncated, corrupt or
    /// of an architecture it does not know), [`LlmError::InvalidRequest`] for a bad thread
    /// count.
    pub fn load(path: &Path, config: LlamaCppConfig) -> Result<Self> {
        nanoindex_llm::gguf::check_header(path)?;
        let n_threads = nanoindex_llm::thread_count(config.n_threads)?;
        let backend = backend()?;
        let load_error = |reason: String| LlmError::Load {
            path: path.to_path_buf(),
            reason,
        };
        let model_params = LlamaModelParams::default().with_n_gpu_layers(config.n_gpu_layers);
        let model = LlamaModel::load_from_file(backend, path, &model_params).map_err(|error| {
            load_error(format!(
                "llama.cpp could not read the model ({error}); the file may be truncated, \
                 corrupt, or of an architecture this llama.cpp does not support (set \
                 `NANOINDEX_LLAMA_LOG=1` to see llama.cpp's log)"
            ))
        })?;
        let model = Arc::new(model);
        let context_length = model.n_ctx_train();
        let n_ctx = config.n_ctx.min(context_length).max(64);
        let threads = i32::try_from(n_threads).unwrap_or(i32::MAX);
        let n_seq_max = config.n_seq_max.max(1);
        // llama.cpp aborts when a batch can hold fewer outputs than there are sequences.
        let n_batch = config.n_batch.max(n_seq_max);
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(n_ctx))
            .with_n_batch(n_batch)
            .with_n_ubatch(n_batch)
            .with_n_seq_max(n_seq_max)
            .with_kv_unified(true)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        // SAFETY: the context borrows the model. The model lives in an `Arc` whose heap
        // allocation never moves; this struct holds that `Arc` and declares `context` before
        // `model`, so the context is dropped first. The `'static` reference never escapes.
        let model_ref: &'static LlamaModel = unsafe { &*Arc::as_ptr(&model) };
        let context = model_ref
            .new_context(backend, params)
            .map_err(|error| load_error(format!("cannot create a llama.cpp context: {error}")))?;
        let architecture = model
            .meta_val_str("general.architecture")
            .unwrap_or_default();
        let name = model
            .meta_val_str("general.name")
            .ok()
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| {
                path.file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
            });
        let info = ModelInfo {
            name,
            architecture,
            context_length,
            context_length_used: context.n_ctx(),
            vocab_size: u32::try_from(model.n_vocab()).unwrap_or(0),
            backend: "llama-cpp".into(),
        };
        let template = model.chat_template(None).ok();
        Ok(Self {
            context,
            cached_tokens: Vec::new(),
            template,
            info,
            config,
            n_threads,
            path: path.to_path_buf(),
            model,
        })
    }

    /// The file the model was loaded from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Threads used for prompt evaluation and generation.
    #[must_use]
    pub fn n_threads(&self) -> usize {
        self.n_threads
    }

    /// Whether the GGUF carries a chat template (without one, messages are joined as plain
    /// text, which suits base models).
    #[must_use]
    pub fn has_chat_template(&self) -> bool {
        self.template.is_some()
    }

    /// Renders the request's messages into the prompt text the model sees: the GGUF's chat
    /// template with the assistant turn opened, or without a template the message contents
    /// separated by blank lines.
    ///
    /// # Errors
    ///
    /// [`LlmError::InvalidRequest`] when there are no messages or the template cannot be
    /// applied (for example, a message contains a NUL byte).
    pub fn render_prompt(&self, request: &GenerateRequest) -> Result<String> {
        if request.messages.is_empty() {
            return Err(LlmError::InvalidRequest(
                "the request has no messages".into(),
            ));
        }
        let Some(template) = &self.template else {
            let parts: Vec<&str> = request
                .messages
                .iter()
                .map(|m| m.content.as_str())
                .collect();
            return Ok(parts.join("\n\n"));
        };
        let messages = request
            .messages
            .iter()
            .map(|m| LlamaChatMessage::new(m.role.as_str().into(), m.content.clone()))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|error| LlmError::InvalidRequest(format!("invalid message: {error}")))?;
        self.model
            .apply_chat_template(template, &messages, true)
            .map_err(|error| {
                LlmError::InvalidRequest(format!("cannot apply the chat template: {error}"))
            })
    }

    /// Token ids of `text` as the model tokenises it (special tokens written in the text
    /// are parsed; no beginning-of-sequence token is added).
    #[must_use]
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        self.model
            .vocab()
            .tokenize(text.as_bytes(), false, true)
            .into_iter()
            .map(|token| u32::try_from(token.0).unwrap_or(0))
            .collect()
    }

    /// Tokens of a rendered prompt, with a beginning-of-sequence token when the model wants
    /// one and the template did not write it.
    fn prompt_tokens(&self, prompt: &str) -> Vec<LlamaToken> {
        let vocab = self.model.vocab();
        let bos = vocab.bos();
        let mut tokens = vocab.tokenize(prompt.as_bytes(), false, true);
        if vocab.should_add_bos() && tokens.first() != Some(&bos) {
            tokens.insert(0, bos);
        }
        tokens
    }

    fn piece(&self, token: LlamaToken) -> Vec<u8> {
        self.model.vocab().token_to_piece(token, false, None)
    }

    fn is_end_of_generation(&self, token: LlamaToken) -> bool {
        self.model.vocab().is_eog(token)
    }

    fn check_fits(&self, n_prompt: usize, what: &str) -> Result<()> {
        check_prompt(n_prompt, self.context.n_ctx() as usize, what)
    }

    /// Evaluates `tokens` at positions starting at `start` for sequence 0, in chunks of
    /// `n_batch`, with logits for the last token only.
    fn prefill(&mut self, tokens: &[LlamaToken], start: usize) -> Result<()> {
        let n_batch = self.context.n_batch().max(1) as usize;
        let mut batch = LlamaBatch::new(n_batch, 1);
        for (chunk_idx, chunk) in tokens.chunks(n_batch).enumerate() {
            batch.clear();
            let chunk_start = start + chunk_idx * n_batch;
            let last_chunk = (chunk_idx + 1) * n_batch >= tokens.len();
            for (i, token) in chunk.iter().enumerate() {
                let logits = last_chunk && i + 1 == chunk.len();
                batch
                    .add(*token, position(chunk_start + i)?, &[0], logits)
                    .map_err(inference_error)?;
            }
            self.context.decode(&mut batch).map_err(inference_error)?;
        }
        Ok(())
    }

    /// Drops cached keys/values from `keep` on and returns how many cached tokens remain
    /// usable (0 when the cache cannot be cut there, as with sliding-window caches).
    fn trim_cache(&mut self, keep: usize) -> usize {
        if keep == 0 {
            self.context.clear_kv_cache();
            self.cached_tokens.clear();
            return 0;
        }
        let cut = u32::try_from(keep)
            .ok()
            .and_then(|p0| {
                self.context
                    .clear_kv_cache_seq(Some(0), Some(p0), None)
                    .ok()
            })
            .unwrap_or(false);
        if cut {
            self.cached_tokens.truncate(keep);
            keep
        } else {
            self.context.clear_kv_cache();
            self.cached_tokens.clear();
            0
        }
    }

    fn build_grammar(&self, schema: &serde_json::Value) -> Result<LlamaSampler> {
        let grammar = llama_cpp_2::json_schema_to_grammar(&schema.to_string())
            .map_err(|error| LlmError::Schema(error.to_string()))?;
        let compact = schema
            .pointer("/x-guidance/whitespace_flexible")
            .and_then(serde_json::Value::as_bool)
            == Some(false);
        let grammar = if compact {
            compact_json(&grammar)
        } else {
            grammar
        };
        LlamaSampler::grammar(&self.model, &grammar, "root")
            .map_err(|error| LlmError::Schema(format!("llama.cpp rejected the grammar: {error}")))
    }
}

/// `grammar` (from llama.cpp's `json_schema_to_grammar`) with JSON written compactly: its
/// `space` rule, which lets the model put up to two newlines and twenty spaces or tabs
/// between any two JSON tokens, allows one space at most. Used when the schema asks for it
/// as llguidance does (`"x-guidance": {"whitespace_flexible": false}`, which the candle
/// backend applies to every schema): whitespace carries nothing in a JSON reply, and on
/// small models the indentation of long lists was a fifth of the generated tokens. Not
/// the default here, because it changes which tokens a short reply is made of, and with
/// them the choices of `ask`'s calls that were measured with free whitespace.
fn compact_json(grammar: &str) -> String {
    grammar
        .lines()
        .map(|line| {
            if line.trim_start().starts_with("space ::=") {
                "space ::= | \" \""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// llama.cpp's steps of the shared decode loop: the chooser over the logits of the last
/// decode, one single-token batch per token.
struct Steps<'g, 'm> {
    generator: &'g mut LlamaCppGenerator,
    chooser: Chooser,
    batch: LlamaBatch<'m>,
    /// Output index of the last token's logits in the previous batch (`-1`: the last).
    logits_idx: i32,
}

impl DecodeSteps for Steps<'_, '_> {
    fn choose(&mut self, _text: &str) -> Result<Option<u32>> {
        let token = self
            .chooser
            .choose(&self.generator.context, self.logits_idx)?;
        Ok((!self.generator.is_end_of_generation(token)).then(|| token_id(token)))
    }

    fn piece(&self, token: u32) -> Vec<u8> {
        self.generator.piece(LlamaToken(token_i32(token)))
    }

    fn context_full(&self) -> bool {
        self.generator.cached_tokens.len() + 1 >= self.generator.context.n_ctx() as usize
    }

    fn advance(&mut self, token: u32) -> Result<()> {
        let token = LlamaToken(token_i32(token));
        let at = position(self.generator.cached_tokens.len())?;
        self.batch.clear();
        self.batch
            .add(token, at, &[0], true)
            .map_err(inference_error)?;
        if let Err(error) = self.generator.context.decode(&mut self.batch) {
            self.generator.trim_cache(0);
            return Err(inference_error(error));
        }
        self.generator.cached_tokens.push(token);
        self.logits_idx = 0;
        Ok(())
    }
}

/// How the next token is chosen.
enum Chooser {
    /// Greedy without constraint.
    Greedy,
    /// Greedy under a grammar: the best token is checked against the grammar first, the
    /// whole vocabulary only when the grammar rejects it (same result, much cheaper on
    /// large vocabularies).
    GreedyGrammar(LlamaSampler),
    /// A sampler chain (temperature, top-p, seeded draw, optionally a grammar first).
    Chain(LlamaSampler),
}

impl Chooser {
    fn new(generator: &LlamaCppGenerator, request: &GenerateRequest) -> Result<Self> {
        let grammar = request
            .json_schema
            .as_ref()
            .map(|schema| generator.build_grammar(schema))
            .transpose()?;
        if request.is_greedy() {
            return Ok(match grammar {
                Some(grammar) => Chooser::GreedyGrammar(grammar),
                None => Chooser::Greedy,
            });
        }
        if !(request.top_p > 0.0 && request.top_p <= 1.0) {
            return Err(LlmError::InvalidRequest(format!(
                "top_p must be in (0, 1], got `{}`",
                request.top_p
            )));
        }
        let mut samplers = Vec::with_capacity(4);
        samplers.extend(grammar);
        samplers.push(LlamaSampler::top_p(request.top_p, 1));
        samplers.push(LlamaSampler::temp(request.temperature));
        samplers.push(LlamaSampler::dist(request.seed));
        Ok(Chooser::Chain(LlamaSampler::chain_simple(samplers)))
    }

    /// Chooses (and, for stateful samplers, accepts) the token for output `idx` of the last
    /// decode.
    fn choose(&mut self, context: &LlamaContext<'_>, idx: i32) -> Result<LlamaToken> {
        match self {
            Chooser::Greedy => Ok(argmax(context.get_logits_ith(idx))),
            Chooser::Chain(sampler) => Ok(sampler.sample(context, idx)),
            Chooser::GreedyGrammar(grammar) => {
                let logits = context.get_logits_ith(idx);
                let best = argmax(logits);
                let mut single = LlamaTokenDataArray::new(
                    vec![LlamaTokenData::new(best, logits[token_index(best)], 0.0)],
                    false,
                );
                single.apply_sampler(grammar);
                let token = if single.data[0].logit().is_finite() {
                    best
                } else {
                    let mut all = LlamaTokenDataArray::from_iter(
                        logits.iter().enumerate().map(|(i, logit)| {
                            LlamaTokenData::new(
                                LlamaToken(i32::try_from(i).unwrap_or(0)),
                                *logit,
                                0.0,
                            )
                        }),
                        false,
                    );
                    all.apply_sampler(grammar);
                    all.data
                        .iter()
                        .filter(|data| data.logit().is_finite())
                        .max_by(|a, b| a.logit().total_cmp(&b.logit()))
                        .map(LlamaTokenData::id)
                        .ok_or_else(|| {
                            LlmError::Inference("the grammar allows no next token".into())
                        })?
                };
                grammar.try_accept(token).map_err(|error| {
                    LlmError::Inference(format!("grammar rejected a token: {error}"))
                })?;
                Ok(token)
            }
        }
    }
}

fn argmax(logits: &[f32]) -> LlamaToken {
    let mut best = 0;
    for (i, logit) in logits.iter().enumerate() {
        if *logit > logits[best] {
            best = i;
        }
    }
    LlamaToken(i32::try_from(best).unwrap_or(0))
}

fn token_index(token: LlamaToken) -> usize {
    usize::try_from(token.0).unwrap_or(0)
}

fn token_id(token: LlamaToken) -> u32 {
    u32::try_from(token.0).unwrap_or(0)
}

/// The llama.cpp token of an id from [`token_id`] (ids come from the vocabulary, which
/// fits `i32`).
fn token_i32(id: u32) -> i32 {
    i32::try_from(id).unwrap_or(i32::MAX)
}

fn position(index: usize) -> Result<i32> {
    i32::try_from(index)
        .map_err(|_| LlmError::Inference(format!("position `{index}` out of range")))
}

fn inference_error(error: impl std::fmt::Display) -> LlmError {
    LlmError::Inference(format!("llama.cpp: {error}"))
}

impl TextGenerator for LlamaCppGenerator {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn generate(
        &mut self,
        request: &GenerateRequest,
        on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> Result<Generation> {
        let prompt = self.render_prompt(request)?;
        let tokens = self.prompt_tokens(&prompt);
        self.check_fits(tokens.len(), "the prompt")?;
        let chooser = Chooser::new(self, request)?;
        let reused = self.trim_cache(reusable_prefix(&self.cached_tokens, &tokens));

        let prefill_start = Instant::now();
        self.cached_tokens.truncate(reused);
        if let Err(error) = self.prefill(&tokens[reused..], reused) {
            self.trim_cache(0);
            return Err(error);
        }
        self.cached_tokens.extend_from_slice(&tokens[reused..]);
        let prefill_ms = elapsed_ms(prefill_start);

        let decode_start = Instant::now();
        let decoded = decode(
            request,
            &mut Steps {
                generator: self,
                chooser,
                batch: LlamaBatch::new(1, 1),
                logits_idx: -1,
            },
            on_token,
        )?;
        Ok(decoded.into_generation(tokens.len(), reused, prefill_ms, elapsed_ms(decode_start)))
    }

    fn count_tokens(&self, text: &str) -> Option<usize> {
        Some(
            self.model
                .vocab()
                .tokenize(text.as_bytes(), false, false)
                .len(),
        )
    }

    fn serve(&mut self, work: &mut dyn nanoindex_llm::Conversations) -> Result<()> {
        self.serve_slots(work)
    }

    fn generate_batch(&mut self, requests: &[GenerateRequest]) -> Result<Vec<Generation>> {
        let mut results = Vec::with_capacity(requests.len());
        let n_seq_max = self.config.n_seq_max.max(1) as usize;
        let mut rest = requests;
        while !rest.is_empty() {
            // As many requests as fit the sequence limit and the context together.
            let prompts = rest
                .iter()
                .take(n_seq_max)
                .map(|request| self.render_prompt(request).map(|p| self.prompt_tokens(&p)))
                .collect::<Result<Vec<_>>>()?;
            let n_ctx = self.context.n_ctx() as usize;
            let mut take = 0;
            let mut needed = 0;
            for (prompt, request) in prompts.iter().zip(rest) {
                let more = prompt.len() + request.max_tokens as usize + 1;
                if take > 0 && needed + more > n_ctx {
                    break;
                }
                needed += more;
                take += 1;
            }
            let group = self.decode_group(&rest[..take], &prompts[..take])?;
            results.extend(group);
            rest = &rest[take..];
        }
        Ok(results)
    }
}

/// Progress of one sequence in a batch.
struct Sequence {
    chooser: Chooser,
    /// The stop rules (the same as a single request's) and the text and tokens so far.
    stops: SequenceStops,
    /// Next position to write.
    n_past: usize,
    /// Index of this sequence's logits in the last decoded batch.
    logits_idx: i32,
    /// The token chosen from the prompt's logits, not yet emitted.
    first_token: Option<LlamaToken>,
    prefill_ms: f64,
}

impl LlamaCppGenerator {
    /// Decodes requests together, one sequence id each, sharing the common prompt prefix in
    /// the cache (evaluated once, tagged with every sequence id).
    fn decode_group(
        &mut self,
        requests: &[GenerateRequest],
        prompts: &[Vec<LlamaToken>],
    ) -> Result<Vec<Generation>> {
        for prompt in prompts {
            self.check_fits(prompt.len(), "a prompt of the batch")?;
        }
        let shortest = prompts.iter().map(Vec::len).min().unwrap_or(0);
        let shared = (0..shortest.saturating_sub(1))
            .take_while(|&i| prompts.iter().all(|p| p[i] == prompts[0][i]))
            .count();
        let mut sequences = requests
            .iter()
            .map(|request| {
                Ok(Sequence {
                    chooser: Chooser::new(self, request)?,
                    stops: SequenceStops::new(request),
                    n_past: 0,
                    logits_idx: -1,
                    first_token: None,
                    prefill_ms: 0.0,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        self.trim_cache(0);
        let outcome = self.run_group(prompts, shared, &mut sequences);
        // The cache now holds several sequences; start the next request from scratch.
        self.trim_cache(0);
        let decode_ms = outcome?;
        // The shared prefix was evaluated once, for the first sequence: the others count it
        // as cached.
        Ok(sequences
            .into_iter()
            .zip(prompts)
            .enumerate()
            .map(|(seq, (sequence, prompt))| {
                let (_, decoded) = sequence.stops.finish();
                let cached = if seq == 0 { 0 } else { shared };
                decoded.into_generation(prompt.len(), cached, sequence.prefill_ms, decode_ms)
            })
            .collect())
    }

    /// The decoding loop of [`Self::decode_group`]; returns the decode wall time in ms.
    fn run_group(
        &mut self,
        prompts: &[Vec<LlamaToken>],
        shared: usize,
        sequences: &mut [Sequence],
    ) -> Result<f64> {
        let n_batch = self.context.n_batch().max(1) as usize;
        let n_seq = sequences.len();
        let all_ids: Vec<i32> = (0..n_seq).map(|i| i32::try_from(i).unwrap_or(0)).collect();
        let mut batch = LlamaBatch::new(n_batch.max(n_seq), i32::try_from(n_seq).unwrap_or(1));
        let prefill_start = Instant::now();

        // Shared prefix: once, tagged with every sequence id.
        for (chunk_idx, chunk) in prompts[0][..shared].chunks(n_batch).enumerate() {
            batch.clear();
            for (i, token) in chunk.iter().enumerate() {
                batch
                    .add(*token, position(chunk_idx * n_batch + i)?, &all_ids, false)
                    .map_err(inference_error)?;
            }
            self.context.decode(&mut batch).map_err(inference_error)?;
        }
        // Per-sequence suffixes, each evaluated on its own like a single request's prompt
        // (packing several suffixes into one batch changes the rounding of the keys and
        // values enough to flip near-tied greedy choices); the first token is chosen right
        // away, before the next decode overwrites the logits.
        for (seq, sequence) in sequences.iter_mut().enumerate() {
            let prompt = &prompts[seq];
            for (chunk_idx, chunk) in prompt[shared..].chunks(n_batch).enumerate() {
                batch.clear();
                let chunk_start = shared + chunk_idx * n_batch;
                for (i, token) in chunk.iter().enumerate() {
                    let pos = chunk_start + i;
                    batch
                        .add(
                            *token,
                            position(pos)?,
                            &all_ids[seq..=seq],
                            pos + 1 == prompt.len(),
                        )
                        .map_err(inference_error)?;
                }
                self.context.decode(&mut batch).map_err(inference_error)?;
            }
            sequence.n_past = prompt.len();
            sequence.first_token = Some(
                sequence
                    .chooser
                    .choose(&self.context, batch.n_tokens() - 1)?,
            );
            sequence.prefill_ms = elapsed_ms(prefill_start);
        }

        let decode_start = Instant::now();
        let n_ctx = self.context.n_ctx() as usize;
        let mut used = shared + prompts.iter().map(|p| p.len() - shared).sum::<usize>();
        loop {
            batch.clear();
            for (seq, sequence) in sequences.iter_mut().enumerate() {
                if !sequence.stops.may_choose() {
                    continue;
                }
                // The first token was chosen from the prompt's own logits right after its
                // prefill; later ones from this sequence's row of the last decode.
                let token = match sequence.first_token.take() {
                    Some(token) => token,
                    None => sequence
                        .chooser
                        .choose(&self.context, sequence.logits_idx)?,
                };
                if self.is_end_of_generation(token) {
                    sequence.stops.push(None, &[]);
                    continue;
                }
                sequence
                    .stops
                    .push(Some(token_id(token)), &self.piece(token));
                if !sequence.stops.go_on(false, used + 1 >= n_ctx) {
                    continue;
                }
                batch
                    .add(token, position(sequence.n_past)?, &all_ids[seq..=seq], true)
                    .map_err(inference_error)?;
                sequence.n_past += 1;
                sequence.logits_idx = batch.n_tokens() - 1;
                used += 1;
            }
            if batch.n_tokens() == 0 {
                break;
            }
            self.context.decode(&mut batch).map_err(inference_error)?;
        }
        Ok(elapsed_ms(decode_start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_grammars_allow_one_space_between_tokens_and_no_newlines() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "names": {"type": "array", "items": {"type": "string"}},
                "note": {"type": "string"}
            },
            "required": ["names", "note"]
        });
        let grammar = llama_cpp_2::json_schema_to_grammar(&schema.to_string()).unwrap();
        assert!(grammar.contains("\"\\n\"{1,2}"), "{grammar}");
        let compact = compact_json(&grammar);
        let spaces: Vec<&str> = compact
            .lines()
            .filter(|l| l.trim_start().starts_with("space ::="))
            .collect();
        assert_eq!(spaces, ["space ::= | \" \""], "{compact}");
        assert!(!compact.contains("\"\\n\"{1,2}"), "{compact}");
        // Every other rule is kept as it was.
        assert_eq!(compact.lines().count(), grammar.lines().count());
    }
}
