//! `nanoindex-local`: the command-line front end. Parses arguments, calls the `nanoindex`
//! engine and renders its results; it holds no document logic of its own.

mod cmd_index;
mod cmd_tree;
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
    /// Index PDFs into `<doc>.tree.json` and `<doc>.graph.json`.
    Index(cmd_index::IndexArgs),
    /// Print the outline of a tree file: node id, title and pages.
    Tree(cmd_tree::TreeArgs),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Index(args) => cmd_index::run(args),
        Command::Tree(args) => cmd_tree::run(args),
    };
    output::finish(result)
}
