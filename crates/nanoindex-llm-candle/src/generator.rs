//! The candle text generator: loading, prompt rendering and tokenising, the decoding loop
//! with sampling, stop strings, JSON-Schema constraints and prompt-prefix reuse.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Once};
use std::time::Instant;

use candle_core::Device;
use llguidance::Matcher;
use nanoindex_llm::{
    check_prompt, decode, elapsed_ms, reusable_prefix, DecodeSteps, GenerateRequest, Generation,
    LlmError, ModelInfo, Result, TextGenerator, TokenControl,
};

use crate::constraint::Constraints;
use crate::gguf::ModelFile;
use crate::model::{Arch, Hyper, Model};
use crate::template::ChatTemplate;
use crate::tokenizer::GgufTokenizer;

/// Settings for loading a model with candle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandleConfig {
    /// CPU threads; `None` means `NANOINDEX_THREADS`, else every core (at most 8). See the crate docs for how
    /// this maps onto candle's process-wide thread pool.
    pub n_threads: Option<usize>,
    /// Context length to allocate, in tokens; capped at the model's training context. RoPE
    /// tables hold this many positions; the key/value cache grows up to it.
    pub n_ctx: u32,
    /// Most prompt tokens evaluated in one forward pass.
    pub n_batch: u32,
    /// Run on the GPU (CUDA device 0 or Metal) when built with the `cuda` or `metal` feature.
    pub use_gpu: bool,
    /// Convert weight matrices stored as Q4_1, Q5_0 or Q5_1 to Q8_0 when loading. candle
    /// multiplies those three formats with scalar code only (measured on one thread: Q4_1
    /// 0.8–1.3 GMAC/s, Q8_0 3.8–4.0 GMAC/s); Q8_0 has SIMD kernels. The conversion costs
    /// about 1.4× the memory of those matrices and moves each weight by at most 1/254 of the
    /// largest magnitude in its block of 32 (several times less than the 4- or 5-bit
    /// quantization error already there), so greedy outputs can differ slightly from the
    /// unconverted model's. Default `true`.
    pub requantize_to_q8_0: bool,
}

impl Default for CandleConfig {
    fn default() -> Self {
        Self {
            n_threads: None,
            n_ctx: 4096,
            n_batch: 512,
            use_gpu: cfg!(any(feature = "cuda", feature = "metal")),
            requantize_to_q8_0: true,
        }
    }
}

/// Bytes held by the parts of a loaded model that depend on the context length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextMemory {
    /// RoPE cosine and sine tables (all layers together), in bytes.
    pub rope_table_bytes: usize,
    /// Key/value cache currently allocated, in bytes.
    pub kv_cache_bytes: usize,
}

/// A GGUF model run by our quantized forward pass on candle.
///
/// Not shareable between threads (`Send`, not `Sync`); load one generator per thread.
pub struct CandleGenerator {
    model: Model,
    tokenizer: Arc<GgufTokenizer>,
    template: Option<ChatTemplate>,
    /// Built on the first request with a JSON Schema.
    constraints: Option<Constraints>,
    /// Tokens whose keys/values are in the cache, in order.
    cached_tokens: Vec<u32>,
    info: ModelInfo,
    n_batch: usize,
    n_threads: usize,
    pool: rayon::ThreadPool,
    path: PathBuf,
}

impl std::fmt::Debug for CandleGenerator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CandleGenerator")
            .field("path", &self.path)
            .field("info", &self.info)
            .field("n_threads", &self.n_threads)
            .finish_non_exhaustive()
    }
}

/// candle's quantized matrix products run on a process-wide pool sized once from
/// `CANDLE_NUM_THREADS`; unless the user set it, the first load sets it to its thread count.
fn configure_candle_threads(n_threads: usize) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("CANDLE_NUM_THREADS").is_none() {
            std::env::set_var("CANDLE_NUM_THREADS", n_threads.to_string());
        }
    });
}

fn select_device(use_gpu: bool) -> Result<Device> {
    let gpu_error =
        |e: candle_core::Error| LlmError::Inference(format!("cannot open the GPU: {e}"));
    #[cfg(feature = "cuda")]
    if use_gpu {
        return Device::new_cuda(0).map_err(gpu_error);
    }
    #[cfg(feature = "metal")]
    if use_gpu {
        return Device::new_metal(0).map_err(gpu_error);
    }
    let _ = (use_gpu, gpu_error);
    Ok(Device::Cpu)
}

impl CandleGenerator {
    /// Loads the GGUF file at `path` (architectures `llama`, `gemma3`, `qwen2`, `qwen3`).
    ///
    /// # Errors
    ///
    /// [`LlmError::ModelNotFound`] for a missing file; [`LlmError::InvalidModelFile`] when
    /// the file is not GGUF, is truncated or its directory is corrupt;
    /// [`LlmError::UnsupportedArchitecture`] for other architectures; [`LlmError::Load`]
    /// when the tokenizer is missing or unsupported, a tensor is missing or misshapen, or the
    /// chat template does not compile; [`LlmError::InvalidRequest`] for a bad thread count.
    pub fn load(path: &Path, config: CandleConfig) -> Result<Self> {
        let mut file = ModelFile::open(path)?;
        let load_error = |reason: String| LlmError::Load {
            path: path.to_path_buf(),
            reason,
        };
        let architecture = file
            .string("general.architecture")
            .ok_or_else(|| LlmError::InvalidModelFile {
                path: path.to_path_buf(),
                expected: "GGUF model".into(),
                reason: "metadata `general.architecture` is missing".into(),
            })?
            .to_string();
        let arch =
            Arch::from_name(&architecture).ok_or_else(|| LlmError::UnsupportedArchitecture {
                architecture: architecture.clone(),
                backend: "candle".into(),
            })?;
        let tokenizer = Arc::new(GgufTokenizer::from_file(&file)?);
        let hyper = Hyper::read(arch, &architecture, &file.content).map_err(load_error)?;
        let n_threads = nanoindex_llm::thread_count(config.n_threads)?;
        configure_candle_threads(n_threads);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n_threads)
            .thread_name(|i| format!("candle-{i}"))
            .build()
            .map_err(|e| load_error(format!("cannot start {n_threads} threads: {e}")))?;
        let device = select_device(config.use_gpu)?;
        let context_length = hyper.context_length;
        let n_ctx = (config.n_ctx as usize).min(context_length).max(64);
        let model = Model::load(&mut file, hyper, n_ctx, &device, config.requantize_to_q8_0)
            .map_err(load_error)?;
        if model.n_vocab() < tokenizer.vocab_size() {
            return Err(load_error(format!(
                "the output layer has `{}` rows but the vocabulary `{}` tokens",
                model.n_vocab(),
                tokenizer.vocab_size()
            )));
        }
        let template = match file.string("tokenizer.chat_template") {
            Some(source) => {
                let text = |t: Option<u32>| {
                    t.and_then(|t| tokenizer.token_text(t))
                        .unwrap_or_default()
                        .to_string()
                };
                Some(
                    ChatTemplate::new(source, &text(tokenizer.bos()), &text(tokenizer.eos()))
                        .map_err(|e| {
                            load_error(format!("the chat template does not compile: {e}"))
                        })?,
                )
            }
            None => None,
        };
        let name = file
            .string("general.name")
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| {
                path.file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
            });
        let info = ModelInfo {
            name,
            architecture,
            context_length: u32::try_from(context_length).unwrap_or(u32::MAX),
            context_length_used: u32::try_from(n_ctx).unwrap_or(u32::MAX),
            vocab_size: u32::try_from(tokenizer.vocab_size()).unwrap_or(u32::MAX),
            backend: "candle".into(),
        };
        Ok(Self {
            model,
            tokenizer,
            template,
            constraints: None,
            cached_tokens: Vec::new(),
            info,
            n_batch: config.n_batch.max(1) as usize,
            n_threads,
            pool,
            path: path.to_path_buf(),
        })
    }

    /// The file the model was loaded from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Threads used for the forward pass.
    #[must_use]
    pub fn n_threads(&self) -> usize {
        self.n_threads
    }

    /// The tokenizer built from the GGUF vocabulary.
    #[must_use]
    pub fn tokenizer(&self) -> &GgufTokenizer {
        &self.tokenizer
    }

    /// Whether the GGUF carries a chat template (without one, messages are joined as plain
    /// text, which suits base models).
    #[must_use]
    pub fn has_chat_template(&self) -> bool {
        self.template.is_some()
    }

    /// Memory that depends on the context length: RoPE tables and the key/value cache.
    #[must_use]
    pub fn context_memory(&self) -> ContextMemory {
        ContextMemory {
            rope_table_bytes: self.model.rope_bytes(),
            kv_cache_bytes: self.model.cache_bytes(),
        }
    }

    /// Renders the request's messages into the prompt text the model sees: the GGUF's chat
    /// template (rendered with minijinja) with the assistant turn opened, or without a
    /// template the message contents separated by blank lines.
    ///
    /// # Errors
    ///
    /// [`LlmError::InvalidRequest`] when there are no messages or the template fails.
    pub fn render_prompt(&self, request: &GenerateRequest) -> Result<String> {
        if request.messages.is_empty() {
            return Err(LlmError::InvalidRequest(
                "the request has no messages".into(),
            ));
        }
        match &self.template {
            Some(template) => template.render(request),
            None => Ok(request
                .messages
                .iter()
                .map(|m| m.content.as_str())
                .collect::<Vec<_>>()
                .join("\n\n")),
        }
    }

    /// Token ids of `text` (control tokens written in the text are parsed; no
    /// beginning-of-sequence token is added), as llama.cpp's backend tokenises.
    ///
    /// # Errors
    ///
    /// [`LlmError::Inference`] when the tokenizer fails.
    pub fn tokenize(&self, text: &str) -> Result<Vec<u32>> {
        self.tokenizer.encode(text)
    }

    /// Evaluates `tokens` from an empty cache and returns the logits of the last one
    /// (`vocab_size` or more f32 values, unnormalised). The cache keeps these tokens.
    ///
    /// # Errors
    ///
    /// [`LlmError::InvalidRequest`] when `tokens` is empty or longer than the context,
    /// [`LlmError::Inference`] when the forward pass fails.
    pub fn next_token_logits(&mut self, tokens: &[u32]) -> Result<Vec<f32>> {
        if tokens.is_empty() {
            return Err(LlmError::InvalidRequest("no tokens to evaluate".into()));
        }
        self.check_fits(tokens.len(), "the token sequence")?;
        self.reset_cache();
        self.prefill(tokens)
    }

    fn reset_cache(&mut self) {
        self.model.truncate_cache(0);
        self.cached_tokens.clear();
    }

    fn prompt_tokens(&self, prompt: &str) -> Result<Vec<u32>> {
        let mut tokens = self.tokenizer.encode(prompt)?;
        if let Some(bos) = self.tokenizer.bos() {
            if self.tokenizer.adds_bos() && tokens.first() != Some(&bos) {
                tokens.insert(0, bos);
            }
        }
        Ok(tokens)
    }

    fn check_fits(&self, n_prompt: usize, what: &str) -> Result<()> {
        check_prompt(n_prompt, self.info.context_length_used as usize, what)
    }

    /// Evaluates `tokens` after the cached ones, in chunks of `n_batch`; returns the last
    /// token's logits. On failure the cache is emptied.
    fn prefill(&mut self, tokens: &[u32]) -> Result<Vec<f32>> {
        let mut logits = Vec::new();
        for chunk in tokens.chunks(self.n_batch) {
            let model = &mut self.model;
            match self.pool.install(|| model.forward(chunk)) {
                Ok(out) => logits = out,
                Err(error) => {
                    self.reset_cache();
                    return Err(LlmError::Inference(format!("candle: {error}")));
                }
            }
            self.cached_tokens.extend_from_slice(chunk);
        }
        Ok(logits)
    }

    fn constraints(&mut self) -> Result<&Constraints> {
        if self.constraints.is_none() {
            self.constraints = Some(Constraints::new(
                self.tokenizer.clone(),
                self.model.n_vocab(),
            )?);
        }
        self.constraints
            .as_ref()
            .ok_or_else(|| LlmError::Schema("constraints unavailable".into()))
    }
}

/// What the sampler picked.
enum Choice {
    Token(u32),
    End,
}

/// Chooses tokens: greedy or seeded temperature/top-p sampling, under an optional
/// llguidance matcher.
struct Sampler {
    greedy: bool,
    temperature: f32,
    top_p: f32,
    rng: SplitMix64,
    matcher: Option<Matcher>,
}

impl Sampler {
    fn new(request: &GenerateRequest, matcher: Option<Matcher>) -> Result<Self> {
        let top_p_valid = request.top_p > 0.0 && request.top_p <= 1.0;
        if !request.is_greedy() && !top_p_valid {
            return Err(LlmError::InvalidRequest(format!(
                "top_p must be in (0, 1], got `{}`",
                request.top_p
            )));
        }
        Ok(Self {
            greedy: request.is_greedy(),
            temperature: request.temperature,
            top_p: request.top_p,
            rng: SplitMix64(u64::from(request.seed)),
            matcher,
        })
    }

    /// Whether the constraint is complete (only the end may follow).
    fn finished(&self) -> bool {
        self.matcher.as_ref().is_some_and(Matcher::is_stopped)
    }

    /// Chooses the next token. `digits_capped` forbids tokens that start with a digit (a
    /// JSON number already has [`MAX_NUMBER_DIGITS`] digits in a row).
    fn choose(
        &mut self,
        logits: &mut [f32],
        tokenizer: &GgufTokenizer,
        digits_capped: bool,
    ) -> Result<Choice> {
        let starts_with_digit = |t: u32| tokenizer.piece(t).first().is_some_and(u8::is_ascii_digit);
        if self.greedy && !digits_capped {
            let best =
                argmax(logits, |_| true).ok_or_else(|| LlmError::Inference("no logits".into()))?;
            let Some(matcher) = self.matcher.as_mut() else {
                return Ok(if tokenizer.is_end_of_generation(best) {
                    Choice::End
                } else {
                    Choice::Token(best)
                });
            };
            // The best token is checked first; the full mask only when it is rejected
            // (same result, much cheaper on large vocabularies).
            if tokenizer.is_end_of_generation(best) {
                if matcher.is_accepting().map_err(schema_error)? {
                    return Ok(Choice::End);
                }
            } else if matcher.try_consume_tokens(&[best]).map_err(schema_error)? == 1 {
                return Ok(Choice::Token(best));
            }
        }
        let allowed = match self.matcher.as_mut() {
            Some(matcher) => {
                let mask = matcher.compute_mask().map_err(schema_error)?;
                let accepting = matcher.is_accepting().map_err(schema_error)?;
                Some((mask, accepting))
            }
            None => None,
        };
        let is_allowed = |token: u32| match &allowed {
            _ if digits_capped && starts_with_digit(token) => false,
            None => true,
            Some((mask, accepting)) => {
                if tokenizer.is_end_of_generation(token) {
                    *accepting
                } else {
                    mask.is_allowed(token)
                }
            }
        };
        let token = if self.greedy {
            argmax(logits, is_allowed)
        } else {
            self.sample(logits, is_allowed)
        }
        .ok_or_else(|| LlmError::Inference("the JSON schema allows no next token".into()))?;
        if tokenizer.is_end_of_generation(token) {
            return Ok(Choice::End);
        }
        if let Some(matcher) = self.matcher.as_mut() {
            matcher.consume_token(token).map_err(schema_error)?;
        }
        Ok(Choice::Token(token))
    }

    /// Draws a token: temperature, then the smallest set of most likely tokens whose mass
    /// reaches `top_p`, then a seeded draw.
    fn sample(&mut self, logits: &[f32], is_allowed: impl Fn(u32) -> bool) -> Option<u32> {
        let mut candidates: Vec<(u32, f32)> = logits
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                let id = u32::try_from(i).ok()?;
                (l.is_finite() && is_allowed(id)).then_some((id, *l))
            })
            .collect();
        if candidates.is_empty() {
            return None;
        }
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let max = candidates[0].1;
        let temperature = self.temperature.max(1e-6);
        let weights: Vec<f64> = candidates
            .iter()
            .map(|(_, l)| f64::from((l - max) / temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut kept = 0;
        let mut mass = 0.0;
        for w in &weights {
            kept += 1;
            mass += w / total;
            if mass >= f64::from(self.top_p) {
                break;
            }
        }
        let kept_total: f64 = weights[..kept].iter().sum();
        let mut draw = self.rng.next_f64() * kept_total;
        for (i, w) in weights[..kept].iter().enumerate() {
            if draw < *w {
                return Some(candidates[i].0);
            }
            draw -= w;
        }
        Some(candidates[kept - 1].0)
    }
}

/// Most digits in a row of a JSON number written under a schema (llama.cpp's JSON grammar
/// allows 16 integral and 16 fractional digits). llguidance's number lexeme is unbounded,
/// and small models greedily repeat digits (`12.5000000…`) until the token budget ends.
const MAX_NUMBER_DIGITS: usize = 16;

/// Whether `text` ends in a JSON number (in compact JSON it follows `:`, `,` or `[`) whose
/// last run of digits has reached [`MAX_NUMBER_DIGITS`].
fn number_digits_capped(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits < MAX_NUMBER_DIGITS {
        return false;
    }
    let number = bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
        .count();
    number == bytes.len() || matches!(bytes[bytes.len() - number - 1], b':' | b',' | b'[')
}

/// An llguidance failure as an inference error.
fn schema_error(error: impl std::fmt::Display) -> LlmError {
    LlmError::Inference(format!("llguidance: {error}"))
}

/// The index of the largest finite logit among allowed tokens (the lowest index on ties).
fn argmax(logits: &[f32], is_allowed: impl Fn(u32) -> bool) -> Option<u32> {
    let mut best: Option<(u32, f32)> = None;
    for (i, logit) in logits.iter().enumerate() {
        let Ok(id) = u32::try_from(i) else { break };
        if !logit.is_nan() && is_allowed(id) && best.is_none_or(|(_, b)| *logit > b) {
            best = Some((id, *logit));
        }
    }
    best.map(|(id, _)| id)
}

/// A small seeded random number generator (SplitMix64): reproducible draws for a seed.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1_u64 << 53) as f64
    }
}

impl TextGenerator for CandleGenerator {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn count_tokens(&self, text: &str) -> Option<usize> {
        self.tokenizer.encode(text).ok().map(|t| t.len())
    }

    fn generate(
        &mut self,
        request: &GenerateRequest,
        on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> Result<Generation> {
        let prompt = self.render_prompt(request)?;
        let tokens = self.prompt_tokens(&prompt)?;
        self.check_fits(tokens.len(), "the prompt")?;
        let matcher = match &request.json_schema {
            Some(schema) => Some(self.constraints()?.json_matcher(schema)?),
            None => None,
        };
        let sampler = Sampler::new(request, matcher)?;

        let reused = reusable_prefix(&self.cached_tokens, &tokens);
        self.model.truncate_cache(reused);
        self.cached_tokens.truncate(reused);

        let prefill_start = Instant::now();
        let logits = self.prefill(&tokens[reused..])?;
        let prefill_ms = elapsed_ms(prefill_start);

        let decode_start = Instant::now();
        let decoded = decode(
            request,
            &mut Steps {
                generator: self,
                sampler,
                logits,
            },
            on_token,
        )?;
        Ok(decoded.into_generation(tokens.len(), reused, prefill_ms, elapsed_ms(decode_start)))
    }
}

/// candle's steps of the shared decode loop: the sampler (with its JSON matcher) over the
/// current logits, one forward pass per token.
struct Steps<'g> {
    generator: &'g mut CandleGenerator,
    sampler: Sampler,
    logits: Vec<f32>,
}

impl DecodeSteps for Steps<'_> {
    fn choose(&mut self, text: &str) -> Result<Option<u32>> {
        let digits_capped = self.sampler.matcher.is_some() && number_digits_capped(text);
        Ok(
            match self
                .sampler
                .choose(&mut self.logits, &self.generator.tokenizer, digits_capped)?
            {
                Choice::End => None,
                Choice::Token(token) => Some(token),
            },
        )
    }

    fn piece(&self, token: u32) -> Vec<u8> {
        self.generator.tokenizer.piece(token).to_vec()
    }

    fn finished(&self) -> bool {
        self.sampler.finished()
    }

    fn context_full(&self) -> bool {
        self.generator.cached_tokens.len() + 1 >= self.generator.info.context_length_used as usize
    }

    fn advance(&mut self, token: u32) -> Result<()> {
        self.logits = self.generator.prefill(&[token])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_digit_runs_are_capped_only_inside_numbers() {
        let sixteen = "1234567890123456";
        assert!(number_digits_capped(&format!("{{\"a\":{sixteen}")));
        assert!(number_digits_capped(&format!("{{\"a\":12.{sixteen}")));
        assert!(number_digits_capped(&format!("[1,-{sixteen}")));
        assert!(number_digits_capped(sixteen));
        assert!(!number_digits_capped(&format!("{{\"a\":{}", &sixteen[1..])));
        // Digits inside a string are not a number.
        assert!(!number_digits_capped(&format!("{{\"a\":\"x{sixteen}")));
    }

    #[test]
    fn argmax_skips_disallowed_and_nan_and_prefers_lowest_on_ties() {
        let logits = [1.0, 3.0, f32::NAN, 3.0, 2.0];
        assert_eq!(argmax(&logits, |_| true), Some(1));
        assert_eq!(argmax(&logits, |t| t != 1), Some(3));
        assert_eq!(argmax(&logits, |_| false), None);
    }

    #[test]
    fn seeded_sampling_is_reproducible_and_respects_top_p() {
        let request = GenerateRequest::chat("", "x").with_sampling(1.0, 0.5, 7);
        let logits = [0.0_f32, 5.0, 4.9, -3.0];
        let draw = |seed| {
            let mut sampler =
                Sampler::new(&request.clone().with_sampling(1.0, 0.5, seed), None).unwrap();
            (0..50)
                .map(|_| sampler.sample(&logits, |_| true).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        // top_p 0.5 keeps only the most likely token here (5.0 holds just over half the mass).
        assert!(draw(7).iter().all(|t| *t == 1), "{:?}", draw(7));
        let mut wide = Sampler::new(&request.clone().with_sampling(1.0, 1.0, 3), None).unwrap();
        let draws: Vec<u32> = (0..200)
            .map(|_| wide.sample(&logits, |_| true).unwrap())
            .collect();
        assert!(draws.contains(&1) && draws.contains(&2), "{draws:?}");
        assert!(Sampler::new(&request.with_sampling(1.0, 0.0, 1), None).is_err());
    }
}
