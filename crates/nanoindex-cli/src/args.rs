//! Arguments several commands share (how documents are opened, which model answers) and
//! the engine they configure.

use clap::Args;
use nanoindex::llm::LlmOptions;
use nanoindex::{cache_root, Config, NanoIndex};

/// How documents are opened: their password and whether passages are embedded.
#[derive(Debug, Args)]
pub struct OpenArgs {
    /// Password of encrypted PDFs.
    #[arg(long)]
    pub password: Option<String>,
    /// Lexical retrieval only: do not load the embedding model.
    #[arg(long)]
    pub no_dense: bool,
}

/// Which text model runs and on how many threads: the one definition of `--llm` and
/// `--threads` for every command that runs a model (`ask`, `index`, `generate`, `kb`).
#[derive(Debug, Args)]
pub struct LlmArgs {
    /// Model: a `PATH.gguf` (llama.cpp), `llama-cpp:PATH`, `candle:PATH`, `ollama:NAME` or
    /// `openai:MODEL@URL`; empty means the default model (SmolLM2-135M-Instruct on
    /// llama.cpp, installed by `scripts/fetch-models.sh`).
    #[arg(long, default_value = "", env = nanoindex::core::dirs::LLM_ENV)]
    pub llm: String,
    /// CPU threads for the model (default: `NANOINDEX_THREADS`, else 1).
    #[arg(long)]
    pub threads: Option<usize>,
}

impl LlmArgs {
    /// The backend options these arguments give (the context length is the model's own).
    pub fn options(&self) -> LlmOptions {
        LlmOptions {
            threads: self.threads,
            ..LlmOptions::default()
        }
    }
}

/// The model that answers, and how much it reads.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// The text model.
    #[command(flatten)]
    pub llm: LlmArgs,
    /// Most pages read per question (per document in a knowledge base).
    #[arg(long, default_value_t = nanoindex::ask::DEFAULT_MAX_PAGES)]
    pub max_pages: usize,
}

/// The engine for `open` (and `model`, when the command answers questions), with the
/// user's cache.
pub fn engine(open: &OpenArgs, model: Option<&ModelArgs>) -> NanoIndex {
    NanoIndex::new(Config {
        password: open.password.clone(),
        llm: model.map(|m| m.llm.llm.clone()),
        llm_options: model.map(|m| m.llm.options()).unwrap_or_default(),
        dense: !open.no_dense,
        cache: cache_root(),
        ..Config::default()
    })
}
