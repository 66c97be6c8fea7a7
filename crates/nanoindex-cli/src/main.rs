//! `nanoindex-local`: the command-line front end. Parses arguments, calls the `nanoindex`
//! engine and renders its results; it holds no document logic of its own.

mod args;
mod cmd_ask;
mod cmd_extract;
mod cmd_generate;
mod cmd_index;
mod cmd_kb;
mod cmd_models;
mod cmd_search;
mod cmd_tree;
mod config;
mod output;

use clap::{Parser, Subcommand};

/// Offline PDF indexing into a section tree and entity graph, with cited answers.
#[derive(Debug, Parser)]
#[command(name = "nanoindex-local", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer a question about a PDF or tree, with verified citations.
    Ask(cmd_ask::AskArgs),
    /// Index PDFs into `<doc>.tree.json` and `<doc>.graph.json`.
    Index(cmd_index::IndexArgs),
    /// Print the outline of a tree file: node id, title and pages.
    Tree(cmd_tree::TreeArgs),
    /// Write the tables of figures of a PDF or tree as markdown, JSON or CSV (no model).
    Extract(cmd_extract::ExtractArgs),
    /// Run a text model on one prompt and stream the reply (for trying a model).
    Generate(cmd_generate::GenerateArgs),
    /// Show the models directory and which known models are installed.
    Models(cmd_models::ModelsArgs),
    /// The sections of a PDF or tree that best match a query (retrieval only, no model).
    Search(cmd_search::SearchArgs),
    /// A knowledge base of many documents: add, ask across them, search, status, lint,
    /// remove.
    Kb(cmd_kb::KbArgs),
    /// Internal: recognise pages of a PDF with OCR, or read their text layer, for another
    /// nanoindex-local process (the request comes on stdin, one JSON line per page goes to
    /// stdout).
    #[command(hide = true)]
    OcrWorker {
        /// The PDF (a temporary copy the parent process wrote).
        pdf: std::path::PathBuf,
    },
}

/// Whether the command line asks for JSON output (`--json` before any `--`): errors are
/// then printed as JSON too.
fn wants_json() -> bool {
    std::env::args()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

fn main() -> std::process::ExitCode {
    let json = wants_json();
    if let Err(e) = config::apply() {
        return output::finish(Err(e), json);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Ask(args) => cmd_ask::run(args),
        Command::Index(args) => cmd_index::run(args),
        Command::Tree(args) => cmd_tree::run(args),
        Command::Extract(args) => cmd_extract::run(args),
        Command::Generate(args) => cmd_generate::run(args),
        Command::Models(args) => cmd_models::run(args),
        Command::Kb(args) => cmd_kb::run(args),
        Command::Search(args) => cmd_search::run(args),
        Command::OcrWorker { pdf } => {
            nanoindex::ocr::serve_worker(&pdf, std::io::stdin().lock(), std::io::stdout().lock())
                .map(|()| std::process::ExitCode::SUCCESS)
                .map_err(anyhow::Error::msg)
        }
    };
    output::finish(result, json)
}
