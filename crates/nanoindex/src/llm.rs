//! Model backends for the engine: turns a spec string (`--llm`) into a loaded
//! [`TextGenerator`], and loads the default embedder. This is the only place in the
//! workspace that names concrete backends; each sits behind a cargo feature (`llamacpp`,
//! `candle`, `embeddings` and `http` (Ollama, OpenAI-compatible servers), all on by
//! default). A spec for a backend that is not compiled in gives
//! [`LlmError::BackendNotCompiled`] naming the feature to build with.

use std::path::{Path, PathBuf};

pub use nanoindex_llm::{
    thread_count, BackendSpec, ChatMessage, ChatRole, Embedder, GenerateRequest, Generation,
    LlmError, ModelInfo, StopReason, TextGenerator, TokenControl, THREADS_ENV,
};
pub use nanoindex_models::hf::offline as hf_offline;
#[cfg(feature = "pull")]
pub use nanoindex_models::hf::{cached as hf_cached, pull as hf_pull};
pub use nanoindex_models::{
    default_models_dir, ModelEntry, ModelFileStatus, ModelManifest, ModelsError,
    DEFAULT_EMBEDDING_MODEL, DEFAULT_TEXT_MODEL, MODELS_DIR_ENV,
};

/// How to load a text model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LlmOptions {
    /// CPU threads; `None` means `NANOINDEX_THREADS`, else every core (never more than
    /// asked for; [`nanoindex_llm::thread_count`]).
    pub threads: Option<usize>,
    /// Context length to allocate in tokens; `None` means the backend's default (4096,
    /// capped at the model's training context).
    pub context_length: Option<u32>,
}

/// The models directory (`NANOINDEX_MODELS`, else the user cache).
///
/// # Errors
///
/// [`LlmError::InvalidRequest`] when neither `NANOINDEX_MODELS`, `XDG_CACHE_HOME` nor
/// `HOME` is set.
pub fn models_dir() -> Result<PathBuf, LlmError> {
    default_models_dir().ok_or_else(|| {
        LlmError::InvalidRequest(format!(
            "cannot find the models directory: set `{MODELS_DIR_ENV}` (or `HOME`)"
        ))
    })
}

/// Path of an installed manifest model's first file (the GGUF of a text model, or a file
/// inside an embedding model's directory).
///
/// # Errors
///
/// [`LlmError::ModelNotFound`] when the file is not installed (its message names the
/// expected path; install with `scripts/fetch-models.sh`).
pub fn installed_model_path(name: &str) -> Result<PathBuf, LlmError> {
    let manifest = ModelManifest::builtin();
    let entry = manifest.get(name).ok_or_else(|| {
        LlmError::InvalidRequest(format!("model `{name}` is not in the models manifest"))
    })?;
    let path = entry.primary_path(&models_dir()?);
    if path.is_file() {
        Ok(path)
    } else {
        Err(LlmError::ModelNotFound { path })
    }
}

/// Loads the text model named by `spec` (see [`BackendSpec`]; empty = the default model,
/// SmolLM2-135M-Instruct, on llama.cpp).
///
/// # Errors
///
/// [`LlmError::InvalidSpec`] for a malformed spec, [`LlmError::BackendNotCompiled`] for a
/// backend this build lacks, [`LlmError::ModelNotFound`] when the model file is missing, and
/// the backend's own load errors (not a GGUF file, truncated, unsupported architecture).
///
/// ```no_run
/// use nanoindex::llm::{load_generator, GenerateRequest, LlmOptions, TokenControl};
/// let mut model = load_generator("", &LlmOptions::default()).unwrap();
/// let request = GenerateRequest::chat("Be brief.", "Name a colour.").with_max_tokens(8);
/// let reply = model.generate(&request, &mut |_| TokenControl::Continue).unwrap();
/// println!("{}", reply.text);
/// ```
pub fn load_generator(
    spec: &str,
    options: &LlmOptions,
) -> Result<Box<dyn TextGenerator>, LlmError> {
    let spec: BackendSpec = spec.parse()?;
    let compiled = match spec {
        BackendSpec::Default | BackendSpec::LlamaCpp { .. } => cfg!(feature = "llamacpp"),
        BackendSpec::Ollama { .. } | BackendSpec::OpenAi { .. } => cfg!(feature = "http"),
        BackendSpec::Candle { .. } => cfg!(feature = "candle"),
    };
    if !compiled {
        return Err(not_compiled(&spec));
    }
    if matches!(
        spec,
        BackendSpec::Ollama { .. } | BackendSpec::OpenAi { .. }
    ) {
        return load_http(&spec);
    }
    let path = match &spec {
        BackendSpec::Default => installed_model_path(DEFAULT_TEXT_MODEL)?,
        other => other
            .resolve_model_path(default_models_dir().as_deref())?
            .ok_or_else(|| not_compiled(other))?,
    };
    if matches!(spec, BackendSpec::Candle { .. }) {
        return load_candle(&path, options);
    }
    load_llamacpp(&path, options)
}

fn not_compiled(spec: &BackendSpec) -> LlmError {
    LlmError::BackendNotCompiled {
        backend: spec.backend_name().to_string(),
        feature: spec.cargo_feature().to_string(),
    }
}

#[cfg(feature = "llamacpp")]
fn load_llamacpp(path: &Path, options: &LlmOptions) -> Result<Box<dyn TextGenerator>, LlmError> {
    use nanoindex_llm_llamacpp::{LlamaCppConfig, LlamaCppGenerator};
    let mut config = LlamaCppConfig {
        n_threads: options.threads,
        ..LlamaCppConfig::default()
    };
    if let Some(n_ctx) = options.context_length {
        config.n_ctx = n_ctx;
    }
    Ok(Box::new(LlamaCppGenerator::load(path, config)?))
}

#[cfg(not(feature = "llamacpp"))]
fn load_llamacpp(path: &Path, _options: &LlmOptions) -> Result<Box<dyn TextGenerator>, LlmError> {
    Err(not_compiled(&BackendSpec::LlamaCpp {
        path: path.to_path_buf(),
    }))
}

#[cfg(feature = "candle")]
fn load_candle(path: &Path, options: &LlmOptions) -> Result<Box<dyn TextGenerator>, LlmError> {
    use nanoindex_llm_candle::{CandleConfig, CandleGenerator};
    let mut config = CandleConfig {
        n_threads: options.threads,
        ..CandleConfig::default()
    };
    if let Some(n_ctx) = options.context_length {
        config.n_ctx = n_ctx;
    }
    Ok(Box::new(CandleGenerator::load(path, config)?))
}

#[cfg(not(feature = "candle"))]
fn load_candle(path: &Path, _options: &LlmOptions) -> Result<Box<dyn TextGenerator>, LlmError> {
    Err(not_compiled(&BackendSpec::Candle {
        path: path.to_path_buf(),
    }))
}

/// Connects to an HTTP backend: Ollama at `OLLAMA_HOST` (checking that it serves the
/// model), or an OpenAI-compatible server (API key from `OPENAI_API_KEY` when set).
#[cfg(feature = "http")]
fn load_http(spec: &BackendSpec) -> Result<Box<dyn TextGenerator>, LlmError> {
    use nanoindex_llm_http::{ollama_host, OllamaGenerator, OpenAiGenerator};
    match spec {
        BackendSpec::Ollama { model } => {
            Ok(Box::new(OllamaGenerator::connect(&ollama_host(), model)?))
        }
        BackendSpec::OpenAi { model, base_url } => {
            let key = std::env::var("OPENAI_API_KEY")
                .ok()
                .filter(|k| !k.is_empty());
            Ok(Box::new(OpenAiGenerator::new(base_url, model, key)))
        }
        other => Err(not_compiled(other)),
    }
}

#[cfg(not(feature = "http"))]
fn load_http(spec: &BackendSpec) -> Result<Box<dyn TextGenerator>, LlmError> {
    Err(not_compiled(spec))
}

/// Loads the sentence-embedding model in `dir`, or the default one (all-MiniLM-L6-v2 from
/// the models directory) when `dir` is `None`.
///
/// # Errors
///
/// [`LlmError::ModelNotFound`] when a model file is missing, the embedder's load errors
/// otherwise, [`LlmError::BackendNotCompiled`] without the `embeddings` feature.
pub fn load_embedder(dir: Option<&Path>) -> Result<Box<dyn Embedder>, LlmError> {
    let dir = match dir {
        Some(dir) => dir.to_path_buf(),
        None => {
            let manifest = ModelManifest::builtin();
            let entry = manifest.get(DEFAULT_EMBEDDING_MODEL).ok_or_else(|| {
                LlmError::InvalidRequest(
                    "the default embedding model is not in the manifest".into(),
                )
            })?;
            entry.directory(&models_dir()?)
        }
    };
    load_bert(&dir)
}

#[cfg(feature = "embeddings")]
fn load_bert(dir: &Path) -> Result<Box<dyn Embedder>, LlmError> {
    Ok(Box::new(nanoindex_embed::BertEmbedder::load(dir)?))
}

#[cfg(not(feature = "embeddings"))]
fn load_bert(_dir: &Path) -> Result<Box<dyn Embedder>, LlmError> {
    Err(LlmError::BackendNotCompiled {
        backend: "embeddings".into(),
        feature: "embeddings".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_for_backends_not_built_name_their_feature() {
        let mut not_built = Vec::new();
        if !cfg!(feature = "candle") {
            not_built.push(("candle:model.gguf", "candle"));
        }
        if !cfg!(feature = "http") {
            not_built.push(("ollama:llama3.2", "http"));
            not_built.push(("openai:gpt@http://127.0.0.1:1", "http"));
        }
        for (spec, feature) in not_built {
            let error = load_generator(spec, &LlmOptions::default())
                .err()
                .expect("must fail");
            assert!(
                error
                    .to_string()
                    .contains(&format!("rebuild with `--features {feature}`")),
                "{spec}: {error}"
            );
        }
    }

    #[cfg(feature = "http")]
    #[test]
    fn openai_specs_load_the_http_backend_without_connecting() {
        let model = load_generator("openai:local@http://127.0.0.1:1/v1", &LlmOptions::default())
            .expect("no connection is made before the first request");
        assert_eq!(model.info().backend, "openai");
        assert_eq!(model.info().name, "local");
    }

    #[test]
    fn malformed_spec_and_missing_file_are_errors() {
        let error = load_generator("gpt-4", &LlmOptions::default())
            .err()
            .unwrap();
        assert!(matches!(error, LlmError::InvalidSpec { .. }), "{error}");
        let error = load_generator("llama-cpp:/nonexistent/x.gguf", &LlmOptions::default())
            .err()
            .unwrap();
        assert!(matches!(error, LlmError::ModelNotFound { .. }), "{error}");
    }

    #[cfg(feature = "llamacpp")]
    #[test]
    fn llamacpp_spec_reaches_the_backend() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.gguf");
        std::fs::write(&path, b"plain text, not a model").unwrap();
        let error = load_generator(
            &format!("llama-cpp:{}", path.display()),
            &LlmOptions::default(),
        )
        .err()
        .unwrap();
        assert!(
            matches!(error, LlmError::InvalidModelFile { .. }),
            "{error}"
        );
    }

    #[cfg(feature = "candle")]
    #[test]
    fn candle_spec_reaches_the_backend() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.gguf");
        std::fs::write(&path, b"plain text, not a model").unwrap();
        let error = load_generator(
            &format!("candle:{}", path.display()),
            &LlmOptions::default(),
        )
        .err()
        .unwrap();
        assert!(
            matches!(error, LlmError::InvalidModelFile { .. }),
            "{error}"
        );
        match installed_model_path(DEFAULT_TEXT_MODEL) {
            Ok(model) => {
                let options = LlmOptions {
                    threads: Some(1),
                    context_length: Some(512),
                };
                let generator =
                    load_generator(&format!("candle:{}", model.display()), &options).unwrap();
                assert_eq!(generator.info().backend, "candle");
                assert_eq!(generator.info().context_length_used, 512);
            }
            Err(error) => {
                nanoindex_llm_conformance::skip(&format!("{error}; run `scripts/fetch-models.sh`"));
            }
        }
    }

    #[cfg(feature = "llamacpp")]
    #[test]
    fn empty_spec_loads_the_installed_default_model() {
        match installed_model_path(DEFAULT_TEXT_MODEL) {
            Ok(_) => {
                let options = LlmOptions {
                    threads: Some(1),
                    context_length: Some(512),
                };
                let model = load_generator("", &options).unwrap();
                assert_eq!(model.info().architecture, "llama");
                assert_eq!(model.info().context_length_used, 512);
            }
            Err(error) => {
                nanoindex_llm_conformance::skip(&format!("{error}; run `scripts/fetch-models.sh`"));
            }
        }
    }

    #[cfg(feature = "embeddings")]
    #[test]
    fn default_embedder_loads_when_installed() {
        match load_embedder(None) {
            Ok(embedder) => assert_eq!(embedder.dimension(), 384),
            Err(LlmError::ModelNotFound { path }) => {
                nanoindex_llm_conformance::skip(&format!(
                    "`{}` not installed; run `scripts/fetch-models.sh`",
                    path.display()
                ));
            }
            Err(error) => panic!("{error}"),
        }
    }
}
