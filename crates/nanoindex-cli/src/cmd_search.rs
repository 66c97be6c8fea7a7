//! `nanoindex-local search`: the sections of one PDF or tree that best match a query
//! (retrieval only, no generative model): page, section, node and the matching line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::args::{engine, OpenArgs};
use clap::Args;

/// Arguments of `search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// A PDF, or a tree file written by `index`.
    file: PathBuf,
    /// The query.
    query: String,
    /// How many sections.
    #[arg(long, short = 'k', default_value_t = 10)]
    k: usize,
    #[command(flatten)]
    open: OpenArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `search`.
pub fn run(args: SearchArgs) -> anyhow::Result<ExitCode> {
    let quiet = args.json;
    let engine = engine(&args.open, None);
    let prepared = engine.prepare(&args.file, &mut |m| {
        if !quiet {
            eprintln!("{m}");
        }
    })?;
    let hits = engine.search(&prepared, &args.query, args.k.max(1))?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        writeln!(stdout, "{}", serde_json::to_string_pretty(&hits)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    if hits.is_empty() {
        writeln!(stdout, "No section matches `{}`.", args.query)?;
    }
    for (i, h) in hits.iter().enumerate() {
        writeln!(
            stdout,
            "{:>2}. page {} — {} (node {}, score {:.2})\n      \"{}\"",
            i + 1,
            h.page_no,
            h.title,
            h.node_id,
            h.score,
            h.line
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
