//! `nanoindex-local ask`: answers a question about a PDF (indexed and cached on first use)
//! or a saved tree, with verified citations. The verified answer goes to stdout; with
//! `--stream` (or `-v`) the model's unverified draft streams to stderr while it is written.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use nanoindex::{highlight_pdf, AskOptions, Mode};

use crate::args::{engine, ModelArgs, OpenArgs};

/// Arguments of `ask`.
#[derive(Debug, Args)]
pub struct AskArgs {
    /// A PDF, or a tree file written by `index` (`<doc>.tree.json`).
    file: PathBuf,
    /// The question.
    question: String,
    /// `fast` (two model calls), `agentic` (rounds of reading, verified reasoning) or
    /// `agentic_graph` (the graph seeds the first round).
    #[arg(long, default_value = "agentic")]
    mode: Mode,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    open: OpenArgs,
    /// Write a copy of the PDF with the cited boxes highlighted.
    #[arg(long, value_name = "OUT.pdf")]
    highlight: Option<PathBuf>,
    /// Print the answer, citations and trace as JSON.
    #[arg(long)]
    json: bool,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
    /// Stream the model's draft (unverified, often rough with small models) to stderr while
    /// it is written; the verified answer still goes to stdout.
    #[arg(long, short = 'v', visible_alias = "verbose")]
    stream: bool,
}

/// Runs `ask`.
pub fn run(args: AskArgs) -> anyhow::Result<ExitCode> {
    let quiet = args.quiet || args.json;
    let mut progress = |message: &str| {
        if !quiet {
            eprintln!("{message}");
        }
    };
    let engine = engine(&args.open, Some(&args.model));
    let prepared = engine.prepare(&args.file, &mut progress)?;
    let ask_options = AskOptions {
        mode: args.mode,
        max_pages: args.model.max_pages.max(1),
    };
    let mut stderr = std::io::stderr();
    let mut drafting = false;
    let stream = args.stream && !quiet;
    let mut on_draft = |piece: &str| {
        if !stream {
            return;
        }
        if !drafting {
            let _ = write!(stderr, "draft (unverified): ");
            drafting = true;
        }
        let _ = write!(stderr, "{piece}");
        let _ = stderr.flush();
    };
    let answer = engine
        .ask(&prepared, &args.question, &ask_options, &mut on_draft)
        .with_context(|| format!("cannot answer the question about `{}`", args.file.display()))?;
    if drafting {
        eprintln!();
    }
    if let Some(out) = &args.highlight {
        let bytes = highlight_pdf(&prepared.document, &answer)?;
        std::fs::write(out, bytes).with_context(|| format!("cannot write `{}`", out.display()))?;
        progress(&format!(
            "highlighted {} citation(s) in `{}`",
            answer.citations.len(),
            out.display()
        ));
    }
    let mut stdout = std::io::stdout().lock();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&answer)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::output::print_answer(&mut stdout, &answer)?;
    Ok(ExitCode::SUCCESS)
}
