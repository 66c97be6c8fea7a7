//! Arguments several commands share (how documents are opened, which model answers) and
//! the engine they configure.

use clap::Args;
use nanoindex::llm::LlmOptions;
use nanoindex::{cache_root, Config, NanoIndex, OcrMode, OcrOptions, OcrProgress};

/// How documents are opened: their password, OCR, and whether passages are embedded.
#[derive(Debug, Args)]
pub struct OpenArgs {
    /// Password of encrypted PDFs.
    #[arg(long)]
    pub password: Option<String>,
    /// Lexical retrieval only: do not load the embedding model.
    #[arg(long)]
    pub no_dense: bool,
    /// How scanned pages are read.
    #[command(flatten)]
    pub ocr: OcrArgs,
}

/// OCR of pages without a usable text layer: the one definition of `--ocr`, `--ocr-lang`
/// and `--ocr-data` for every command that reads PDFs.
#[derive(Debug, Clone, Args)]
pub struct OcrArgs {
    /// When pages are recognised with OCR: `auto` (pages with no usable text layer),
    /// `always` (every page) or `never`.
    #[arg(long, default_value = "auto", value_parser = OcrMode::parse)]
    pub ocr: OcrMode,
    /// OCR languages, Tesseract names joined by `+` (`eng`, `eng+deu`, `chi_sim`); each
    /// needs its language data (Debian/Ubuntu: `tesseract-ocr-<lang>`).
    #[arg(long, default_value = "eng", value_parser = nanoindex::ocr::normalize_languages)]
    pub ocr_lang: String,
    /// Folder holding Tesseract's `<lang>.traineddata` (default: `TESSDATA_PREFIX`, else
    /// the system's tessdata folder).
    #[arg(long)]
    pub ocr_data: Option<std::path::PathBuf>,
}

impl Default for OcrArgs {
    fn default() -> Self {
        OcrArgs {
            ocr: OcrMode::Auto,
            ocr_lang: "eng".to_string(),
            ocr_data: None,
        }
    }
}

impl OcrArgs {
    /// The engine's OCR options.
    pub fn options(&self) -> OcrOptions {
        OcrOptions {
            mode: self.ocr,
            languages: self.ocr_lang.clone(),
            data_dir: self.ocr_data.clone(),
        }
    }
}

/// Worker processes for OCR and for the pages of large documents: this executable's hidden
/// `ocr-worker` command, one process per core beyond the first (MuPDF's OCR engine is one
/// per process, and its global locks slow threads of one process). `None` when the
/// executable's path is unknown or there is one core.
///
/// `jobs` documents read at once share the cores: each gets `cores / jobs - 1` workers, so
/// the processes recognising pages never outnumber the cores. When several documents are
/// read at once, a large document's pages are handed off to workers entirely
/// ([`nanoindex::OcrWorkers::hand_off`]), so that the documents are read in separate
/// processes, not on threads of this one.
pub fn ocr_workers(jobs: usize) -> Option<nanoindex::OcrWorkers> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let count = (cores / jobs.max(1)).saturating_sub(1);
    let hand_off = jobs > 1 && cores > 1;
    let command = std::env::current_exe().ok()?;
    (count > 0 || hand_off).then(|| nanoindex::OcrWorkers {
        command,
        args: vec!["ocr-worker".to_string()],
        count,
        hand_off,
    })
}

/// A progress bar of pages recognised by OCR on stderr, drawn from the first page
/// recognised (so a born-digital document shows none); hidden when stderr is not a
/// terminal. Shared by every document of a run: each document's pages to recognise join its
/// length when its first page is done.
pub fn ocr_progress() -> OcrProgress {
    use std::sync::{Arc, OnceLock};
    let bar: Arc<OnceLock<indicatif::ProgressBar>> = Arc::new(OnceLock::new());
    OcrProgress(Arc::new(move |done, total| {
        let bar = bar.get_or_init(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "OCR {bar:30} {pos}/{len} pages · {per_sec} · {eta} left",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        });
        if done == 1 {
            bar.inc_length(total as u64);
        }
        if done <= total {
            bar.inc(1);
        }
        if bar.position() >= bar.length().unwrap_or(0) {
            bar.finish_and_clear();
        }
    }))
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
    /// CPU threads for the model (default: `NANOINDEX_THREADS`, else every core, at most 8;
    /// set it lower when other work shares the machine).
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
        ocr: open.ocr.options(),
        ocr_progress: Some(ocr_progress()),
        ocr_workers: ocr_workers(1),
        llm: model.map(|m| m.llm.llm.clone()),
        llm_options: model.map(|m| m.llm.options()).unwrap_or_default(),
        dense: !open.no_dense,
        cache: cache_root(),
        ..Config::default()
    })
}
