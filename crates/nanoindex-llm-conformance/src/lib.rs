//! The conformance suite every text-generation backend runs (dev-only; not published).
//!
//! A backend's test file calls [`conformance_tests!`] with a loader (model path, context
//! length → a one-thread generator): the macro writes one `#[test]` per check, so each
//! backend runs the same checks with the real default model (SmolLM2-135M-Instruct Q4_1) and
//! the second test model (Gemma 3 270M). The checks test mechanisms — determinism, the prefix
//! cache, schemas, stop strings given from the model's own first output, token limits,
//! callbacks, seeds, over-long prompts — never a guess about what a model will write beyond
//! "Paris" for the capital of France. Models are found in the models directory
//! (`NANOINDEX_MODELS`, else the user cache; `scripts/fetch-models.sh` installs them). With
//! `CI=true` a missing model fails the check; elsewhere it is skipped with a printed reason.
//!
//! It is also the workspace's test-utilities crate: [`skip`] is the one rule for a test whose
//! model, data or system facility is missing.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use nanoindex_llm::{GenerateRequest, LlmError, StopReason, TextGenerator, TokenControl};
pub use nanoindex_models::DEFAULT_TEXT_MODEL;
use nanoindex_models::{default_models_dir, ModelManifest};

/// Skips the calling test for `reason` (the caller returns right after): prints
/// `skipped: REASON` on the process's stderr, where the test output shows it even when the
/// test passes (libtest captures only `eprintln!`, not writes to the stderr handle).
///
/// # Panics
/// With `CI=true`: CI has the models, the shared data and root, so every test must run there.
pub fn skip(reason: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "required in CI: {reason}"
    );
    let _ = writeln!(std::io::stderr().lock(), "skipped: {reason}");
}

/// The manifest name of the second test model (a base model without a chat template).
pub const GEMMA: &str = "gemma-3-270m-q4_k_m";

/// Loads a GGUF file (path, context length in tokens) into a one-thread generator.
pub type Loader = fn(&Path, u32) -> Result<Box<dyn TextGenerator>, LlmError>;

/// The installed file of manifest model `name`, or `None` (check skipped, reason printed)
/// outside CI.
///
/// # Panics
/// With `CI=true`, when the model is not installed.
#[must_use]
pub fn model_path(name: &str) -> Option<PathBuf> {
    let manifest = ModelManifest::builtin();
    let entry = manifest.get(name).expect("model is in the manifest");
    let path = default_models_dir().map(|dir| entry.primary_path(&dir));
    match path {
        Some(path) if path.is_file() => Some(path),
        _ => {
            let reason = format!(
                "model `{name}` is not installed in the models directory `{}`; run \
                 `scripts/fetch-models.sh`",
                default_models_dir().unwrap_or_default().display()
            );
            skip(&reason);
            None
        }
    }
}

/// A token callback that lets generation continue.
pub fn quiet(_: &str) -> TokenControl {
    TokenControl::Continue
}

/// The checks, run on generators from one loader.
#[derive(Debug, Clone, Copy)]
pub struct Suite {
    load: Loader,
}

impl Suite {
    /// A suite for the backend whose generators `load` makes.
    #[must_use]
    pub fn new(load: Loader) -> Self {
        Suite { load }
    }

    /// Manifest model `name` with a 2,048-token context, or `None` when not installed.
    ///
    /// # Panics
    /// When the installed model does not load.
    #[must_use]
    pub fn load(&self, name: &str) -> Option<Box<dyn TextGenerator>> {
        let path = model_path(name)?;
        Some((self.load)(&path, 2048).expect("the model loads"))
    }

    /// SmolLM2's architecture, vocabulary and context come from the GGUF; `backend` is the
    /// name the backend gives itself.
    pub fn model_info_comes_from_the_gguf(&self, backend: &str) {
        let Some(generator) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let info = generator.info();
        assert_eq!(info.architecture, "llama");
        assert_eq!(info.vocab_size, 49152);
        assert_eq!(info.context_length, 8192);
        assert_eq!(info.context_length_used, 2048);
        assert_eq!(info.backend, backend);
    }

    /// Greedy decoding gives the same tokens twice, from the prefix cache (all of the
    /// prompt but its last token cached) and from a fresh generator.
    pub fn greedy_output_is_deterministic_and_prefix_cache_changes_nothing(&self) {
        let Some(mut first) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let request = GenerateRequest::chat(
            "You are a helpful assistant.",
            "What is the capital of France?",
        )
        .with_max_tokens(32);
        let a = first.generate(&request, &mut quiet).unwrap();
        // Same generator: the whole prompt but its last token comes from the cache.
        let b = first.generate(&request, &mut quiet).unwrap();
        assert_eq!(b.n_cached_prompt_tokens, b.n_prompt_tokens - 1);
        // A fresh generator computes everything again; the result equals a cold run's.
        let mut second = self.load(DEFAULT_TEXT_MODEL).unwrap();
        let c = second.generate(&request, &mut quiet).unwrap();
        assert_eq!(c.n_cached_prompt_tokens, 0);
        assert!(!a.tokens.is_empty());
        assert_eq!(a.tokens, b.tokens);
        assert_eq!(a.tokens, c.tokens);
        assert_eq!(a.text, c.text);
        assert!(a.text.contains("Paris"), "{}", a.text);
        assert_eq!(a.n_completion_tokens as usize, a.tokens.len());
        assert!(a.prefill_ms > 0.0 && a.decode_ms > 0.0);
    }

    /// A second request with the same system prompt reuses it from the cache, and its
    /// tokens equal a cold generator's.
    pub fn shared_system_prompt_is_reused_from_the_cache(&self) {
        let Some(mut generator) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let system = "You answer questions about annual reports in one short sentence.";
        let first = GenerateRequest::chat(system, "What is revenue?").with_max_tokens(4);
        let second = GenerateRequest::chat(system, "What is a balance sheet?").with_max_tokens(4);
        generator.generate(&first, &mut quiet).unwrap();
        let reused = generator.generate(&second, &mut quiet).unwrap();
        assert!(reused.n_cached_prompt_tokens >= 15, "{reused:?}");
        assert!(reused.n_cached_prompt_tokens < reused.n_prompt_tokens);
        let mut cold = self.load(DEFAULT_TEXT_MODEL).unwrap();
        assert_eq!(
            cold.generate(&second, &mut quiet).unwrap().tokens,
            reused.tokens
        );
    }

    /// Schema-constrained output parses and validates for all 20 [`FACTS`], and ends by
    /// itself.
    pub fn json_schema_output_parses_and_validates_for_20_of_20_prompts(&self) {
        let Some(mut generator) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let system = "Extract the company, the amount in dollars and whether it is revenue, \
                      expense or asset. Reply with JSON only.";
        let mut failures = Vec::new();
        for fact in FACTS {
            let request = GenerateRequest::chat(system, fact)
                .with_max_tokens(128)
                .with_json_schema(schema());
            let generation = generator.generate(&request, &mut quiet).unwrap();
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(&generation.text);
            let outcome = match parsed {
                Ok(value) => validate(&value),
                Err(error) => Err(format!("not JSON: {error}")),
            };
            if let Err(reason) = outcome {
                failures.push(format!("{fact} -> {:?}: {reason}", generation.text));
            }
            assert_eq!(
                generation.stop_reason,
                StopReason::EndOfGeneration,
                "{}",
                generation.text
            );
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// Sampled output under a schema is valid and the same for the same seed.
    pub fn sampled_json_schema_output_is_valid_and_seeded(&self) {
        let Some(mut generator) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let request = GenerateRequest::chat("Reply with JSON only.", FACTS[0])
            .with_max_tokens(128)
            .with_sampling(0.8, 0.95, 11)
            .with_json_schema(schema());
        let a = generator.generate(&request, &mut quiet).unwrap();
        let b = generator.generate(&request, &mut quiet).unwrap();
        assert_eq!(a.tokens, b.tokens);
        let value: serde_json::Value =
            serde_json::from_str(&a.text).unwrap_or_else(|e| panic!("{:?}: {e}", a.text));
        validate(&value).unwrap();
    }

    /// A stop string taken from the model's own unconstrained output of a first run ends the
    /// second run before it, and is never streamed.
    pub fn stop_string_ends_generation_before_it(&self) {
        let Some(mut generator) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let base = GenerateRequest::chat("", "List the days of the week, separated by commas.")
            .with_max_tokens(40);
        let full = generator.generate(&base, &mut quiet).unwrap();
        // The four characters from the first space after the first word (whatever the
        // model wrote), cut at their first occurrence.
        let text = full.text.as_str();
        let first_word = text
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(text.len());
        let Some(space) = text[first_word..].find(' ').map(|i| first_word + i) else {
            panic!("a 40-token answer has two words: {text:?}");
        };
        let stop = text[space..].chars().take(4).collect::<String>();
        let cut = text.find(&stop).expect("the stop string is in the text");
        let mut streamed = String::new();
        let stopped = generator
            .generate(&base.clone().with_stop([stop.clone()]), &mut |piece| {
                streamed.push_str(piece);
                TokenControl::Continue
            })
            .unwrap();
        assert_eq!(stopped.stop_reason, StopReason::StopString);
        assert_eq!(stopped.text, full.text[..cut]);
        assert_eq!(streamed, stopped.text, "the stop string is never streamed");
        assert!(stopped.n_completion_tokens < full.n_completion_tokens);
    }

    /// `max_tokens` of 0, 1 and 7 give exactly that many tokens.
    pub fn max_tokens_is_respected(&self) {
        let Some(mut generator) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let request =
            GenerateRequest::chat("", "Write a long essay about the history of accounting.");
        for max_tokens in [0, 1, 7] {
            let generation = generator
                .generate(&request.clone().with_max_tokens(max_tokens), &mut quiet)
                .unwrap();
            assert_eq!(generation.n_completion_tokens, max_tokens);
            assert_eq!(generation.stop_reason, StopReason::MaxTokens);
        }
    }

    /// The token callback stops generation after three pieces; the text is those pieces.
    pub fn callback_can_stop_generation_early(&self) {
        let Some(mut generator) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let request =
            GenerateRequest::chat("", "Write a long essay about the history of accounting.")
                .with_max_tokens(64);
        let mut pieces = Vec::new();
        let generation = generator
            .generate(&request, &mut |piece| {
                pieces.push(piece.to_string());
                if pieces.len() == 3 {
                    TokenControl::Stop
                } else {
                    TokenControl::Continue
                }
            })
            .unwrap();
        assert_eq!(generation.stop_reason, StopReason::Callback);
        assert_eq!(pieces.len(), 3);
        assert_eq!(generation.text, pieces.concat());
        assert!(generation.n_completion_tokens < 10);
    }

    /// The same seed gives the same tokens; an invalid top-p is a request error.
    pub fn seeded_sampling_is_reproducible(&self) {
        let Some(mut generator) = self.load(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let request = GenerateRequest::chat("", "Invent a name for a bank.")
            .with_max_tokens(16)
            .with_sampling(0.9, 0.95, 42);
        let a = generator.generate(&request, &mut quiet).unwrap();
        let b = generator.generate(&request, &mut quiet).unwrap();
        assert_eq!(a.tokens, b.tokens);
        let invalid = request.clone().with_sampling(0.9, 0.0, 42);
        assert!(matches!(
            generator.generate(&invalid, &mut quiet),
            Err(LlmError::InvalidRequest(_))
        ));
    }

    /// A prompt longer than a 256-token context is a request error naming the context, and
    /// the generator still works afterwards.
    pub fn prompt_longer_than_the_context_is_an_error_not_a_crash(&self) {
        let Some(path) = model_path(DEFAULT_TEXT_MODEL) else {
            return;
        };
        let mut generator = (self.load)(&path, 256).unwrap();
        let long = "word ".repeat(400);
        let error = generator
            .generate(&GenerateRequest::chat("", &long), &mut quiet)
            .unwrap_err();
        assert!(matches!(error, LlmError::InvalidRequest(_)), "{error}");
        assert!(
            error.to_string().contains("the context holds `256`"),
            "{error}"
        );
        let ok = generator.generate(
            &GenerateRequest::chat("", "Hi").with_max_tokens(2),
            &mut quiet,
        );
        assert!(ok.is_ok());
    }

    /// Gemma 3 270M (a base model) loads, decodes deterministically and follows a schema.
    pub fn gemma3_base_model_generates_and_follows_a_schema(&self) {
        let Some(mut generator) = self.load(GEMMA) else {
            return;
        };
        assert_eq!(generator.info().architecture, "gemma3");
        assert_eq!(generator.info().vocab_size, 262_144);
        let request = GenerateRequest::chat("", "The capital of France is").with_max_tokens(8);
        let a = generator.generate(&request, &mut quiet).unwrap();
        let b = generator.generate(&request, &mut quiet).unwrap();
        assert_eq!(a.tokens, b.tokens);
        assert!(!a.tokens.is_empty());
        for fact in &FACTS[..3] {
            let request = GenerateRequest::chat("Extract as JSON.", fact)
                .with_max_tokens(128)
                .with_json_schema(schema());
            let generation = generator.generate(&request, &mut quiet).unwrap();
            let value: serde_json::Value = serde_json::from_str(&generation.text)
                .unwrap_or_else(|e| panic!("{:?}: {e}", generation.text));
            validate(&value).unwrap();
        }
    }
}

/// Writes one `#[test]` per check of [`Suite`] for the backend whose loader is given
/// (a [`Loader`]); `backend` is the name the backend reports in `ModelInfo::backend`.
#[macro_export]
macro_rules! conformance_tests {
    (backend: $backend:expr, load: $load:expr) => {
        fn suite() -> $crate::Suite {
            $crate::Suite::new($load)
        }
        #[test]
        fn model_info_comes_from_the_gguf() {
            suite().model_info_comes_from_the_gguf($backend);
        }
        #[test]
        fn greedy_output_is_deterministic_and_prefix_cache_changes_nothing() {
            suite().greedy_output_is_deterministic_and_prefix_cache_changes_nothing();
        }
        #[test]
        fn shared_system_prompt_is_reused_from_the_cache() {
            suite().shared_system_prompt_is_reused_from_the_cache();
        }
        #[test]
        fn json_schema_output_parses_and_validates_for_20_of_20_prompts() {
            suite().json_schema_output_parses_and_validates_for_20_of_20_prompts();
        }
        #[test]
        fn sampled_json_schema_output_is_valid_and_seeded() {
            suite().sampled_json_schema_output_is_valid_and_seeded();
        }
        #[test]
        fn stop_string_ends_generation_before_it() {
            suite().stop_string_ends_generation_before_it();
        }
        #[test]
        fn max_tokens_is_respected() {
            suite().max_tokens_is_respected();
        }
        #[test]
        fn callback_can_stop_generation_early() {
            suite().callback_can_stop_generation_early();
        }
        #[test]
        fn seeded_sampling_is_reproducible() {
            suite().seeded_sampling_is_reproducible();
        }
        #[test]
        fn prompt_longer_than_the_context_is_an_error_not_a_crash() {
            suite().prompt_longer_than_the_context_is_an_error_not_a_crash();
        }
        #[test]
        fn gemma3_base_model_generates_and_follows_a_schema() {
            suite().gemma3_base_model_generates_and_follows_a_schema();
        }
    };
}

/// The JSON Schema of the extraction checks: company, amount and kind of one fact.
#[must_use]
pub fn schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "company": { "type": "string", "maxLength": 40 },
            "amount": { "type": "number" },
            "kind": { "type": "string", "enum": ["revenue", "expense", "asset"] }
        },
        "required": ["company", "amount", "kind"],
        "additionalProperties": false
    })
}

/// Checks `value` against [`schema`] (the suite's own validator for this one schema).
///
/// # Errors
/// What does not conform.
pub fn validate(value: &serde_json::Value) -> Result<(), String> {
    let object = value.as_object().ok_or("not an object")?;
    if object.len() != 3 {
        return Err(format!("expected 3 keys, found {}", object.len()));
    }
    let company = object
        .get("company")
        .and_then(|v| v.as_str())
        .ok_or("company not a string")?;
    if company.chars().count() > 40 {
        return Err("company longer than 40 characters".into());
    }
    object
        .get("amount")
        .and_then(serde_json::Value::as_f64)
        .ok_or("amount not a number")?;
    let kind = object
        .get("kind")
        .and_then(|v| v.as_str())
        .ok_or("kind not a string")?;
    if !["revenue", "expense", "asset"].contains(&kind) {
        return Err(format!("kind `{kind}` not in the enum"));
    }
    Ok(())
}

/// Twenty one-sentence facts, each with a company, an amount and a kind.
pub const FACTS: [&str; 20] = [
    "Acme Corp reported revenue of 12.5 million dollars.",
    "Globex spent 3,400 dollars on office rent.",
    "Initech owns a building worth 2 million.",
    "Umbrella earned 870 thousand from sales.",
    "Hooli paid 45,000 in salaries.",
    "Stark Industries holds patents valued at 9.9 billion.",
    "Wayne Enterprises sold goods for 1.2 billion.",
    "Cyberdyne spent 500 dollars on electricity.",
    "Soylent has cash of 33 million.",
    "Tyrell Corp booked revenue of 77 million.",
    "Wonka Industries bought sugar for 12,000.",
    "Oscorp has equipment worth 4.5 million.",
    "Vandelay Industries earned 150,000 from imports.",
    "Pied Piper paid 80,000 for servers.",
    "Massive Dynamic holds land worth 60 million.",
    "Aperture Science reported sales of 5 million.",
    "Black Mesa spent 2.3 million on research.",
    "Monsters Inc owns a factory worth 18 million.",
    "Dunder Mifflin sold paper for 900,000.",
    "Prestige Worldwide paid 1,500 in fees.",
];
