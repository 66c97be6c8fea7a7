//! `nanoindex-local tree`: prints the outline of a tree file (node id, title, pages).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use nanoindex::core::{load_tree, TreeNode};

/// Arguments of `tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// A `<doc>.tree.json` file written by `index` (or by NanoIndex).
    tree: PathBuf,
    /// Print the outline as JSON on stdout: nested `{node_id, title, start_index, end_index,
    /// nodes}` (1-based pages).
    #[arg(long)]
    json: bool,
}

fn outline_json(nodes: &[TreeNode]) -> serde_json::Value {
    nodes
        .iter()
        .map(|n| {
            serde_json::json!({
                "node_id": n.node_id,
                "title": n.title,
                "start_index": n.start_index,
                "end_index": n.end_index,
                "nodes": outline_json(&n.nodes),
            })
        })
        .collect()
}

fn print(nodes: &[TreeNode], depth: usize, out: &mut String) {
    for n in nodes {
        let pages = if n.start_index == n.end_index {
            format!("p. {}", n.start_index)
        } else {
            format!("pp. {}-{}", n.start_index, n.end_index)
        };
        out.push_str(&format!(
            "{}{}  {}  ({pages})\n",
            "  ".repeat(depth),
            n.node_id,
            n.title
        ));
        print(&n.nodes, depth + 1, out);
    }
}

/// Runs `tree`.
pub fn run(args: TreeArgs) -> anyhow::Result<ExitCode> {
    let tree = load_tree(&args.tree)?;
    if args.json {
        crate::output::outln!(
            "{}",
            serde_json::to_string_pretty(&outline_json(&tree.structure))?
        )?;
    } else {
        let mut out = String::new();
        print(&tree.structure, 0, &mut out);
        std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}
