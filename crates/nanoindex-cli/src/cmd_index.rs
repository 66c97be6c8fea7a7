//! `nanoindex-local index`: PDFs (or folders of PDFs) in, `<doc>.tree.json` and
//! `<doc>.graph.json` out.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use nanoindex::{Config, NanoIndex};

/// Arguments of `index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// PDF files, or folders whose `*.pdf` files are indexed.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Folder for the output files (default: the current directory).
    #[arg(short = 'o', long = "out-dir", default_value = ".")]
    out_dir: PathBuf,
    /// Structure only, zero model calls: outline/headings tree, cross-references. (This is
    /// currently the only indexing mode, so the flag is accepted for forward compatibility.)
    #[arg(long)]
    no_llm: bool,
    /// Worker threads for extraction across files and pages (default: available cores).
    #[arg(long, short = 'j', default_value_t = 0)]
    jobs: usize,
    /// Password for encrypted files; applies to every file given.
    #[arg(long)]
    password: Option<String>,
    /// Print one JSON object per file on stdout instead of a summary on stderr.
    #[arg(long)]
    json: bool,
}

fn expand(inputs: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(input)
                .with_context(|| format!("cannot list `{}`", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

fn relative(path: &Path) -> String {
    path.display().to_string()
}

/// Runs `index`.
pub fn run(args: IndexArgs) -> anyhow::Result<ExitCode> {
    let _ = args.no_llm;
    let files = expand(&args.files)?;
    let engine = NanoIndex::new(Config {
        password: args.password.clone(),
    });
    let results = engine.index_batch(&files, &args.out_dir, args.jobs);
    let mut failed = 0;
    for item in &results {
        match &item.result {
            Ok(written) => {
                let tree = &written.document.tree;
                let meta = &tree.extraction_metadata;
                let nodes = tree.iter_nodes().count();
                if args.json {
                    let line = serde_json::json!({
                        "file": relative(&item.path),
                        "ok": true,
                        "tree": relative(&written.tree_path),
                        "graph": relative(&written.graph_path),
                        "pages": meta.page_count,
                        "nodes": nodes,
                        "method": meta.tree_method,
                        "domain": tree.domain,
                        "cross_references": written.document.graph.cross_references.len(),
                        "page_errors": meta.page_errors,
                        "warnings": meta.warnings,
                    });
                    println!("{line}");
                } else {
                    eprintln!(
                        "indexed `{}`: {} pages, {} nodes ({}), {} cross-references -> {}",
                        relative(&item.path),
                        meta.page_count,
                        nodes,
                        meta.tree_method,
                        written.document.graph.cross_references.len(),
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
            }
            Err(e) => {
                failed += 1;
                if args.json {
                    let line = serde_json::json!({
                        "file": relative(&item.path),
                        "ok": false,
                        "error": e.to_string(),
                    });
                    println!("{line}");
                } else {
                    eprintln!("error: {e}");
                }
            }
        }
    }
    if files.len() > 1 && !args.json {
        eprintln!("{} indexed, {} failed", files.len() - failed, failed);
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
