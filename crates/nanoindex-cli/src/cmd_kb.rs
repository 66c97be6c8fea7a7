//! `nanoindex-local kb`: a knowledge base of many documents in one folder (its store is
//! `DIR/.nanoindex/kb.sqlite`): add PDFs, trees (with their graphs) or `index --shard`
//! output folders, ask across them with cited answers that name each document, search,
//! status, lint (sources, contradictions, wiki links), remove.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use nanoindex::{AskOptions, KnowledgeBase, Mode};

use nanoindex::core::english::counted;
use nanoindex::inputs::{files_of, FolderFiles};

use crate::args::{engine, ModelArgs, OpenArgs};

/// Arguments of `kb`.
#[derive(Debug, Args)]
pub struct KbArgs {
    #[command(subcommand)]
    command: KbCommand,
}

#[derive(Debug, Subcommand)]
enum KbCommand {
    /// Add PDFs, tree files (`<doc>.tree.json`) or folders of them (every PDF and tree in
    /// the folder, e.g. the output of `index --shard` runs). Adding the same content again
    /// changes nothing; a changed file replaces its old version.
    Add {
        /// The knowledge base folder (created on first use).
        dir: PathBuf,
        /// Files or folders to add.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        open: OpenArgs,
        /// Print one JSON line per file.
        #[arg(long)]
        json: bool,
    },
    /// Add a tree written by `index` (`<doc>.tree.json`) with its graph, or every tree of a
    /// folder (the output of `index --shard` runs on other machines). The tree's PDF must
    /// be where the tree says, or beside it, unchanged.
    AddTree {
        /// The knowledge base folder (created on first use).
        dir: PathBuf,
        /// A tree file or a folder of them.
        tree: PathBuf,
        /// The tree's graph file (default: `<doc>.graph.json` beside the tree, else a graph
        /// rebuilt from the tree); only with a tree file.
        graph: Option<PathBuf>,
        #[command(flatten)]
        open: OpenArgs,
        /// Print one JSON line per file.
        #[arg(long)]
        json: bool,
    },
    /// Answer a question across the documents, citing document, page and quote.
    Ask {
        /// The knowledge base folder.
        dir: PathBuf,
        /// The question.
        question: String,
        /// `fast`, `agentic` or `agentic_graph` (as for `ask`).
        #[arg(long, default_value = "fast")]
        mode: Mode,
        #[command(flatten)]
        model: ModelArgs,
        #[command(flatten)]
        open: OpenArgs,
        /// Print the answer, citations, documents considered and trace as JSON.
        #[arg(long)]
        json: bool,
    },
    /// The passages across all documents that best match a query (BM25).
    Search {
        /// The knowledge base folder.
        dir: PathBuf,
        /// The query.
        query: String,
        /// How many passages.
        #[arg(long, short = 'k', default_value_t = 10)]
        k: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// What the knowledge base holds.
    Status {
        /// The knowledge base folder.
        dir: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Sources missing or changed since they were added, values of one issuer and period
    /// that differ between documents, broken wiki links and orphan wiki pages (exit 1 when
    /// any).
    Lint {
        /// The knowledge base folder.
        dir: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Remove a document by name.
    Remove {
        /// The knowledge base folder.
        dir: PathBuf,
        /// The document's name (as `kb status` lists it).
        name: String,
    },
}

/// An existing knowledge base folder (every command but `add` needs one).
fn existing(dir: &Path) -> anyhow::Result<()> {
    let store = nanoindex::kb::STORE_FILE;
    if dir.join(store).is_file() {
        Ok(())
    } else {
        anyhow::bail!(
            "`{}` is not a knowledge base (no `{store}`); create one with `kb add {} FILE.pdf`",
            dir.display(),
            dir.display()
        )
    }
}

/// A knowledge base that must exist, opened for reading (no model, lexical).
fn open_existing(dir: &Path) -> anyhow::Result<KnowledgeBase> {
    existing(dir)?;
    let open = OpenArgs {
        password: None,
        no_dense: true,
        ocr: crate::args::OcrArgs::default(),
    };
    Ok(KnowledgeBase::open(dir, engine(&open, None))?)
}

/// One line of `kb add`'s output for a document added.
fn report_line(report: &nanoindex::AddReport, json: bool) -> anyhow::Result<String> {
    Ok(if json {
        serde_json::to_string(report)?
    } else {
        format!(
            "{}: {} ({}{})",
            report.name,
            report.outcome,
            counted(report.pages, "page"),
            if report.vectors { ", embedded" } else { "" }
        )
    })
}

/// Adds the files `paths` stand for (a folder: its files of kind `which`), one line each on
/// `stdout`; a file that fails is reported on stderr and the others land (exit 1).
fn add_files(
    kb: &mut KnowledgeBase,
    paths: &[PathBuf],
    which: FolderFiles,
    json: bool,
    stdout: &mut impl Write,
) -> anyhow::Result<ExitCode> {
    let mut failed = 0;
    let mut files = Vec::new();
    for p in paths {
        match files_of(std::slice::from_ref(p), which) {
            Ok(found) => files.extend(found),
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
            }
        }
    }
    let n = files.len();
    let mut progress = |i: usize, m: &str| {
        if !json {
            eprintln!("[{}/{n}] {m}", i + 1);
        }
    };
    // The first failed write to stdout: the batch goes on (its documents land), and the
    // error ends the command after it (quietly for a closed pipe).
    let mut written: anyhow::Result<()> = Ok(());
    let mut done = |i: usize, outcome: Result<nanoindex::AddReport, _>| match outcome {
        Ok(report) => {
            if written.is_ok() {
                written = report_line(&report, json).and_then(|l| Ok(writeln!(stdout, "{l}")?));
            }
        }
        Err(e) => {
            failed += 1;
            eprintln!("error: cannot add `{}`: {e}", files[i].display());
        }
    };
    kb.add_each(&files, &mut progress, &mut done)?;
    written?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs `kb`.
pub fn run(args: KbArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    match args.command {
        KbCommand::Add {
            dir,
            paths,
            open,
            json,
        } => {
            let mut kb = KnowledgeBase::open(&dir, engine(&open, None))?;
            add_files(
                &mut kb,
                &paths,
                FolderFiles::PdfsAndTrees,
                json,
                &mut stdout,
            )
        }
        KbCommand::AddTree {
            dir,
            tree,
            graph,
            open,
            json,
        } => {
            if graph.is_some() && tree.is_dir() {
                anyhow::bail!(
                    "`{}` is a folder: a GRAPH file goes with one tree file (a folder's trees \
                     take the `<doc>.graph.json` beside each)",
                    tree.display()
                );
            }
            let mut kb = KnowledgeBase::open(&dir, engine(&open, None))?;
            let Some(graph) = graph else {
                return add_files(
                    &mut kb,
                    std::slice::from_ref(&tree),
                    FolderFiles::Trees,
                    json,
                    &mut stdout,
                );
            };
            let report = kb
                .add_tree(&tree, Some(&graph), &mut |m| {
                    if !json {
                        eprintln!("{m}");
                    }
                })
                .with_context(|| format!("cannot add `{}`", tree.display()))?;
            writeln!(stdout, "{}", report_line(&report, json)?)?;
            Ok(ExitCode::SUCCESS)
        }
        KbCommand::Ask {
            dir,
            question,
            mode,
            model,
            open,
            json,
        } => {
            existing(&dir)?;
            let mut kb = KnowledgeBase::open(&dir, engine(&open, Some(&model)))?;
            let options = AskOptions {
                mode,
                max_pages: model.max_pages.max(1),
            };
            let answer = kb
                .ask(&question, &options, &mut |_| {})
                .with_context(|| format!("cannot answer the question in `{}`", dir.display()))?;
            if json {
                writeln!(stdout, "{}", serde_json::to_string_pretty(&answer)?)?;
            } else {
                crate::output::print_answer(&mut stdout, &answer.answer)?;
                writeln!(stdout, "\nDocuments read: {}", answer.read.join(", "))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        KbCommand::Search {
            dir,
            query,
            k,
            json,
        } => {
            let kb = open_existing(&dir)?;
            let hits = kb.search(&query, k.max(1))?;
            if json {
                writeln!(stdout, "{}", serde_json::to_string_pretty(&hits)?)?;
            } else if hits.is_empty() {
                writeln!(stdout, "No passage matches `{query}`.")?;
            } else {
                for (i, h) in hits.iter().enumerate() {
                    writeln!(
                        stdout,
                        "{:>2}. {} page {} — {} (node {}, score {:.2})\n      \"{}\"",
                        i + 1,
                        h.doc_name,
                        h.page_no,
                        h.title_path,
                        h.node_id,
                        h.score,
                        h.line
                    )?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        KbCommand::Status { dir, json } => {
            let kb = open_existing(&dir)?;
            let status = kb.status()?;
            let docs = kb.store().documents()?;
            if json {
                let value = serde_json::json!({"status": status, "documents": docs});
                writeln!(stdout, "{}", serde_json::to_string_pretty(&value)?)?;
            } else {
                writeln!(
                    stdout,
                    "{}: {}, {}, {} ({} embedded), {} asked (format {})",
                    dir.display(),
                    counted(status.documents, "document"),
                    counted(status.pages, "page"),
                    counted(status.passages, "passage"),
                    status.vectors,
                    counted(status.questions, "question"),
                    status.format_version
                )?;
                for d in docs {
                    writeln!(
                        stdout,
                        "  {}  {}  {}",
                        d.name,
                        counted(d.pages, "page"),
                        d.source_path
                            .map(|p| p.display().to_string())
                            .unwrap_or_default()
                    )?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        KbCommand::Lint { dir, json } => {
            let kb = open_existing(&dir)?;
            let problems = kb.lint()?;
            if json {
                writeln!(stdout, "{}", serde_json::to_string_pretty(&problems)?)?;
            } else if problems.is_empty() {
                writeln!(stdout, "No problems found.")?;
            } else {
                for p in &problems {
                    writeln!(stdout, "{p}")?;
                }
            }
            Ok(if problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        KbCommand::Remove { dir, name } => {
            let mut kb = open_existing(&dir)?;
            if kb.remove(&name)? {
                writeln!(stdout, "removed `{name}`")?;
                Ok(ExitCode::SUCCESS)
            } else {
                anyhow::bail!("no document `{name}` in `{}`", dir.display())
            }
        }
    }
}
