//! `nanoindex-local index`: PDFs (or folders of PDFs) in, `<doc>.tree.json` and
//! `<doc>.graph.json` out, with progress bars on a terminal.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use nanoindex::core::english::counted;
use nanoindex::enrich::domain::domain_names;
use nanoindex::inputs::{files_of, FolderFiles};

use crate::args::LlmArgs;
use nanoindex::{
    BatchEvent, BatchItem, BatchOptions, Config, EnrichOptions, NanoIndex, Outcome, Shard, Stage,
};

/// Arguments of `index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// PDF files, or folders whose `*.pdf` files are indexed.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Folder for the output files (default: the current directory).
    #[arg(short = 'o', long = "out-dir", default_value = ".")]
    out_dir: PathBuf,
    /// Zero model calls: structure, paragraph splits of oversized leaves, cross-references
    /// and rule-based entities.
    #[arg(long)]
    no_llm: bool,
    /// The text model.
    #[command(flatten)]
    model: LlmArgs,
    /// Write node summaries (the default when a model is used).
    #[arg(long, overrides_with = "no_summaries")]
    summaries: bool,
    /// Skip node summaries.
    #[arg(long)]
    no_summaries: bool,
    /// Also write a one-sentence document description.
    #[arg(long)]
    doc_description: bool,
    /// Extraction domain (default: detected from the content).
    #[arg(long, env = nanoindex::core::dirs::DOMAIN_ENV, value_parser = clap::builder::PossibleValuesParser::new(domain_names()))]
    domain: Option<String>,
    /// Extra entity types for the model, comma-separated (e.g. `drug,trial_phase`).
    #[arg(long, value_delimiter = ',')]
    entity_types: Vec<nanoindex::core::EntityType>,
    /// Extra relationship types for the model, comma-separated (e.g. `treats,sponsors`).
    #[arg(long, value_delimiter = ',')]
    relation_types: Vec<nanoindex::core::RelationType>,
    /// Do not ask the model for entities (rule-based entities are still found).
    #[arg(long)]
    no_llm_entities: bool,
    /// Split leaves over this many estimated tokens (the split cascade).
    #[arg(long, env = nanoindex::core::dirs::SPLIT_TOKENS_ENV, default_value_t = nanoindex_tree_default_split())]
    split_tokens: usize,
    /// Keep oversized leaves whole.
    #[arg(long)]
    no_split: bool,
    /// Model requests decoded together (sequences per batch).
    #[arg(long, env = nanoindex::core::dirs::BATCH_SIZE_ENV, default_value_t = 8)]
    batch_size: usize,
    /// Documents indexed at once (default: the cores the model's threads leave free, at
    /// least 1). The model serves one document at a time.
    #[arg(long, short = 'j', env = nanoindex::core::dirs::JOBS_ENV, default_value_t = 0)]
    jobs: usize,
    /// Index only shard K of N (0-based) of the inputs sorted by path, e.g. `--shard
    /// $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`.
    #[arg(long, value_parser = clap::value_parser!(Shard))]
    shard: Option<Shard>,
    /// Index every document, even those unchanged since the last run in this output folder.
    #[arg(long)]
    force: bool,
    /// Password for encrypted files; applies to every file given.
    #[arg(long)]
    password: Option<String>,
    /// How scanned pages are read.
    #[command(flatten)]
    ocr: crate::args::OcrArgs,
    /// Print one JSON object per file on stdout instead of a summary on stderr.
    #[arg(long)]
    json: bool,
}

fn nanoindex_tree_default_split() -> usize {
    EnrichOptions::default().split_tokens.unwrap_or(2000)
}

fn relative(path: &Path) -> String {
    path.display().to_string()
}

/// When each document's stage first reported progress, and its requests done then.
type StageStarts = std::collections::HashMap<(PathBuf, &'static str), (Instant, usize)>;

/// The last cumulative request count seen per document and stage.
type LastDone = std::collections::HashMap<(PathBuf, &'static str), usize>;

/// Progress bars: documents, pages extracted (with pages/s of extraction), and model
/// requests with tokens/s when a model runs. Hidden when stderr is not a terminal or
/// `--json` is given.
struct Bars {
    documents: ProgressBar,
    pages: ProgressBar,
    /// `None` under `--no-llm`: no model, no model line.
    model: Option<ProgressBar>,
    /// Seconds spent extracting so far, summed over documents: pages/s is measured over
    /// extraction only, so it does not fall while the model works.
    extracting: Mutex<f64>,
    /// Documents extracted at once (`--jobs`): the summed seconds over this is the wall time
    /// of extraction when the workers extract side by side.
    jobs: usize,
    /// Model requests finished, and the last count seen per document and stage (counts
    /// within a stage are cumulative).
    model_done: Mutex<(u64, LastDone)>,
    /// Windows of prose read so far (reading requests finished).
    read: Mutex<u64>,
    /// When each document's stage first reported progress, and how many of its requests were
    /// done then: the pace since then gives the time left (the first report comes only after
    /// the stage's first requests are done, so its own time is not known).
    stage_started: Mutex<StageStarts>,
}

impl Bars {
    fn new(hidden: bool, with_model: bool, jobs: usize) -> Bars {
        let multi = MultiProgress::with_draw_target(if hidden {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        });
        // A spinner until the batch is planned: a bar of length 0 would draw full.
        let documents = multi.add(ProgressBar::new_spinner());
        documents.set_style(
            ProgressStyle::with_template("{prefix:>10} {spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        documents.set_prefix("documents");
        documents.set_message("looking for PDFs");
        let pages = multi.add(ProgressBar::new_spinner());
        pages.set_style(
            ProgressStyle::with_template("{prefix:>10} {pos} extracted {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        pages.set_prefix("pages");
        let model = with_model.then(|| {
            let model = multi.add(ProgressBar::new_spinner());
            model.set_style(
                ProgressStyle::with_template("{prefix:>10} {pos} requests {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            model.set_prefix("model");
            model
        });
        for bar in [&documents, &pages].into_iter().chain(model.as_ref()) {
            bar.enable_steady_tick(Duration::from_millis(250));
        }
        Bars {
            documents,
            pages,
            model,
            extracting: Mutex::new(0.0),
            jobs: jobs.max(1),
            model_done: Mutex::new((0, std::collections::HashMap::new())),
            read: Mutex::new(0),
            stage_started: Mutex::new(std::collections::HashMap::new()),
        }
    }

    fn event(&self, event: BatchEvent<'_>) {
        match event {
            BatchEvent::Planned { total, unchanged } => {
                self.documents.set_style(
                    ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar())
                        .progress_chars("=> "),
                );
                self.documents.set_message("");
                self.documents.set_length(total as u64);
                if unchanged > 0 {
                    self.documents
                        .set_message(format!("({unchanged} unchanged, skipped)"));
                }
            }
            BatchEvent::Extracted { pages, seconds, .. } => {
                self.pages.inc(u64::from(pages));
                let mut extracting = self.extracting.lock().unwrap_or_else(|p| p.into_inner());
                *extracting += seconds;
                self.pages.set_message(format!(
                    "({:.0} pages/s while extracting)",
                    self.pages.position() as f64 * self.jobs as f64 / extracting.max(1e-3)
                ));
            }
            BatchEvent::StructureWritten { tree, .. } => self.documents.println(format!(
                "wrote the structure-only `{}`; the model's summaries and entities follow",
                tree.display()
            )),
            BatchEvent::Model { path, progress } => {
                let Some(model) = &self.model else {
                    return;
                };
                let mut done = self.model_done.lock().unwrap_or_else(|p| p.into_inner());
                let key = (path.to_path_buf(), progress.stage.as_str());
                let before = done.1.insert(key, progress.done).unwrap_or(0);
                let new = progress.done.saturating_sub(before) as u64;
                done.0 += new;
                let mut read = self.read.lock().unwrap_or_else(|p| p.into_inner());
                if progress.stage == Stage::Read {
                    *read += new;
                }
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                let (since, done_then) = *self
                    .stage_started
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .entry((path.to_path_buf(), progress.stage.as_str()))
                    .or_insert_with(|| (Instant::now(), progress.done));
                let left = time_left(
                    since.elapsed(),
                    progress.done.saturating_sub(done_then),
                    progress.total.saturating_sub(progress.done),
                )
                .map(|t| format!(" · {} left", human(t)))
                .unwrap_or_default();
                model.set_position(done.0);
                model.set_message(format!(
                    "· {} windows read · {} {}/{}{left} · {:.1} tokens/s · {}",
                    read,
                    progress.stage.as_str(),
                    progress.done,
                    progress.total,
                    progress.tokens_per_s,
                    name.unwrap_or_default()
                ));
            }
            BatchEvent::Finished { .. } => self.documents.inc(1),
        }
    }

    fn finish(&self) {
        for bar in [&self.documents, &self.pages]
            .into_iter()
            .chain(&self.model)
        {
            bar.finish_and_clear();
        }
    }
}

/// The time `left` requests still need at the pace measured so far (`done` requests in
/// `elapsed`); `None` before the pace is known or when none is left.
fn time_left(elapsed: Duration, done: usize, left: usize) -> Option<Duration> {
    (done > 0 && left > 0).then(|| elapsed.mul_f64(left as f64 / done as f64))
}

/// `42 s`, `3 min`, `1 h 20 min`.
fn human(t: Duration) -> String {
    let secs = t.as_secs();
    match secs {
        0..=59 => format!("{secs} s"),
        60..=3599 => format!("{} min", (secs + 30) / 60),
        _ => format!("{} h {} min", secs / 3600, (secs % 3600) / 60),
    }
}

/// Runs `index`.
pub fn run(args: IndexArgs) -> anyhow::Result<ExitCode> {
    let files = files_of(&args.files, FolderFiles::Pdfs)?;
    std::fs::create_dir_all(&args.out_dir)
        .with_context(|| format!("cannot create `{}`", args.out_dir.display()))?;
    let enrich = EnrichOptions {
        split_tokens: (!args.no_split).then_some(args.split_tokens),
        summaries: args.summaries || !args.no_summaries,
        doc_description: args.doc_description,
        domain: args
            .domain
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(anyhow::Error::msg)?,
        entity_types: args.entity_types.clone(),
        relation_types: args.relation_types.clone(),
        llm_entities: !args.no_llm_entities,
        batch_size: args.batch_size.max(1),
        ..EnrichOptions::default()
    };
    let engine = NanoIndex::new(Config {
        password: args.password.clone(),
        ocr: args.ocr.options(),
        ocr_progress: (!args.json).then(crate::args::ocr_progress),
        llm: (!args.no_llm).then(|| args.model.llm.clone()),
        llm_options: args.model.options(),
        enrich,
        ..Config::default()
    });
    // One thread budget (the engine's rule): with a model, documents at once leave the
    // model its threads.
    let jobs = if args.jobs == 0 {
        engine.default_jobs()?
    } else {
        args.jobs
    };
    // Worker processes (OCR, pages of large documents) share the cores with the documents
    // read at once: never more of those than there are documents.
    let engine = NanoIndex::new(Config {
        ocr_workers: crate::args::ocr_workers(jobs.min(files.len()).max(1)),
        ..engine.config().clone()
    });
    if !args.no_llm {
        // A missing model is one error, before any document.
        engine.preload_model()?;
    }
    let batch = BatchOptions {
        jobs,
        shard: args.shard,
        force: args.force,
    };
    let bars = Bars::new(args.json, !args.no_llm, jobs.min(files.len()));
    let results = engine.index_batch(&files, &args.out_dir, &batch, &|e| bars.event(e));
    bars.finish();
    let failed = results
        .iter()
        .filter(|i| matches!(i.outcome, Outcome::Failed(_)))
        .count();
    // A closed stdout (`| head`) stops the report, never the exit status of the batch.
    for item in &results {
        if report(item, args.json).is_err() {
            break;
        }
    }
    if results.len() > 1 && !args.json {
        let unchanged = results
            .iter()
            .filter(|i| matches!(i.outcome, Outcome::Unchanged { .. }))
            .count();
        eprintln!(
            "{} indexed, {unchanged} unchanged, {failed} failed",
            results.len() - failed - unchanged
        );
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn report(item: &BatchItem, json: bool) -> std::io::Result<()> {
    match &item.outcome {
        Outcome::Indexed(written) => {
            let tree = &written.document.tree;
            let graph = &written.document.graph;
            let r = &written.document.report;
            let meta = &tree.extraction_metadata;
            let nodes = tree.iter_nodes().count();
            if json {
                let line = serde_json::json!({
                    "file": relative(&item.path),
                    "ok": true,
                    "status": "indexed",
                    "tree": relative(&written.tree_path),
                    "graph": relative(&written.graph_path),
                    "pages": meta.page_count,
                    "nodes": nodes,
                    "method": meta.tree_method,
                    "domain": tree.domain,
                    "entities": graph.entities.len(),
                    "relationships": graph.relationships.len(),
                    "cross_references": graph.cross_references.len(),
                    "enrichment": r,
                    "page_errors": meta.page_errors,
                    "warnings": meta.warnings,
                });
                crate::output::outln!("{line}")?;
                return Ok(());
            }
            let summaries = if r.summaries.summarised > 0 {
                format!(", {} summaries", r.summaries.summarised)
            } else {
                String::new()
            };
            eprintln!(
                "indexed `{}`: {}, {} ({}){summaries}, {} entities, {} \
                 cross-references -> {}",
                relative(&item.path),
                counted(meta.page_count, "page"),
                counted(nodes, "node"),
                meta.tree_method,
                graph.entities.len(),
                graph.cross_references.len(),
                relative(&written.tree_path)
            );
            for e in &meta.page_errors {
                eprintln!(
                    "warning: `{}` page {}: {}",
                    relative(&item.path),
                    e.page,
                    e.message
                );
            }
            for w in &meta.warnings {
                eprintln!("warning: `{}`: {w}", relative(&item.path));
            }
        }
        Outcome::Unchanged {
            tree_path,
            graph_path,
        } => {
            if json {
                let line = serde_json::json!({
                    "file": relative(&item.path),
                    "ok": true,
                    "status": "unchanged",
                    "tree": relative(tree_path),
                    "graph": relative(graph_path),
                });
                crate::output::outln!("{line}")?;
            } else {
                eprintln!(
                    "unchanged `{}` (same content and options) -> {}",
                    relative(&item.path),
                    relative(tree_path)
                );
            }
        }
        Outcome::Failed(e) => {
            if json {
                let line = serde_json::json!({
                    "file": relative(&item.path),
                    "ok": false,
                    "status": "failed",
                    "error": e.to_string(),
                });
                crate::output::outln!("{line}")?;
            } else {
                eprintln!("error: {e}");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_follows_the_measured_pace() {
        let minute = Duration::from_secs(60);
        assert_eq!(time_left(minute, 0, 10), None);
        assert_eq!(time_left(minute, 10, 0), None);
        assert_eq!(time_left(minute, 2, 8), Some(4 * minute));
        assert_eq!(human(Duration::from_secs(42)), "42 s");
        assert_eq!(human(4 * minute), "4 min");
        assert_eq!(human(Duration::from_secs(4_830)), "1 h 20 min");
    }
}
