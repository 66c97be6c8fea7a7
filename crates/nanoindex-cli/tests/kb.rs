//! `nanoindex-local kb` end to end: a process killed (SIGKILL) at many points of `kb add`
//! leaves each document wholly there or wholly absent and a wiki that matches the store;
//! two processes adding at once both land; commands on a folder that is no knowledge base
//! fail with a clear error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use nanoindex_pdf::write::PdfBuilder;

/// The binary with its cache in `home` and no user configuration.
fn bin(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nanoindex-local"));
    cmd.env("XDG_CONFIG_HOME", "/nonexistent/nanoindex-test-config")
        .env("NANOINDEX_CACHE", home.join("cache"))
        .env_remove("NANOINDEX_CONFIG")
        .env_remove("NANOINDEX_LLM");
    cmd
}

fn run(home: &Path, args: &[&str]) -> Output {
    bin(home).args(args).output().expect("binary runs")
}

/// A report of `pages` pages, each with a heading and a paragraph naming `company` (below
/// the top margin, where a line repeated on every page would be a running header).
fn report(path: &Path, company: &str, pages: usize) {
    let mut pdf = PdfBuilder::new();
    for p in 1..=pages {
        pdf.page()
            .text(
                72.0,
                72.0,
                16.0,
                true,
                &format!("Section {p}. {company} results"),
            )
            .text(
                72.0,
                150.0,
                10.0,
                false,
                &format!("{company} reported revenue of ${p},{p:03} million in period {p}."),
            );
    }
    std::fs::write(path, pdf.to_bytes()).unwrap();
}

/// `kb status --json`: (document name → passages), and the wiki's document pages.
fn state(home: &Path, kb: &Path) -> (Vec<(String, u64)>, Vec<String>) {
    let out = run(home, &["kb", "status", kb.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let docs = v["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["name"].as_str().unwrap().to_string(),
                d["passages"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut pages: Vec<String> = std::fs::read_dir(kb.join("wiki/documents"))
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    pages.sort();
    (docs, pages)
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let files: Vec<PathBuf> = ["alpha", "beta", "gamma"]
        .iter()
        .map(|n| dir.join(format!("{n}.pdf")))
        .collect();
    for (f, n) in files.iter().zip(["Alpha", "Beta", "Gamma"]) {
        report(f, n, 40);
    }
    files
}

#[test]
fn a_killed_add_leaves_whole_documents_and_a_matching_wiki() {
    let home = tempfile::tempdir().unwrap();
    let pdfs = files(home.path());
    let args = |kb: &Path| -> Vec<String> {
        let mut a = vec![
            "kb".to_string(),
            "add".to_string(),
            kb.display().to_string(),
            "--no-dense".to_string(),
        ];
        a.extend(pdfs.iter().map(|p| p.display().to_string()));
        a
    };
    // What a finished add stores: every document's passages.
    let control = home.path().join("control");
    let out = bin(home.path()).args(args(&control)).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (whole, _) = state(home.path(), &control);
    assert_eq!(whole.len(), 3);

    let mut partial_runs = 0;
    for (i, delay_ms) in [0u64, 5, 15, 30, 60, 90, 120, 180, 250, 400]
        .iter()
        .enumerate()
    {
        let kb = home.path().join(format!("kb{i}"));
        let mut child = bin(home.path())
            .args(args(&kb))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(*delay_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        if !kb.join(".nanoindex/kb.sqlite").exists() {
            continue;
        }
        let (docs, pages) = state(home.path(), &kb);
        partial_runs += usize::from(docs.len() < 3);
        for (name, passages) in &docs {
            let full = whole.iter().find(|(n, _)| n == name).unwrap().1;
            assert_eq!(
                *passages, full,
                "{name} is partly stored after a kill at {delay_ms} ms"
            );
        }
        let expected: Vec<String> = docs.iter().map(|(n, _)| format!("{n}.md")).collect();
        assert_eq!(pages, expected, "wiki after a kill at {delay_ms} ms");
        // Adding again completes it.
        let out = bin(home.path()).args(args(&kb)).output().unwrap();
        assert!(out.status.success());
        assert_eq!(state(home.path(), &kb).0, whole);
    }
    // Some kill landed mid-way (otherwise the test tested nothing).
    assert!(partial_runs > 0);
}

#[test]
fn two_processes_adding_at_once_both_land() {
    let home = tempfile::tempdir().unwrap();
    let pdfs = files(home.path());
    let kb = home.path().join("kb");
    let children: Vec<_> = pdfs
        .iter()
        .map(|p| {
            bin(home.path())
                .args([
                    "kb",
                    "add",
                    kb.to_str().unwrap(),
                    "--no-dense",
                    p.to_str().unwrap(),
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (docs, pages) = state(home.path(), &kb);
    let names: Vec<&str> = docs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["alpha", "beta", "gamma"]);
    assert_eq!(pages, ["alpha.md", "beta.md", "gamma.md"]);

    // Search across them, and a folder that is no knowledge base.
    let out = run(
        home.path(),
        &["kb", "search", kb.to_str().unwrap(), "Gamma revenue"],
    );
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("gamma page"));
    let out = run(
        home.path(),
        &[
            "kb",
            "status",
            home.path().join("nowhere").to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a knowledge base"));
}

#[test]
fn search_ranks_one_documents_sections_with_the_matching_line() {
    let home = tempfile::tempdir().unwrap();
    let pdf = home.path().join("alpha.pdf");
    report(&pdf, "Alpha", 12);
    let out = run(
        home.path(),
        &[
            "search",
            pdf.to_str().unwrap(),
            "revenue in period 7",
            "-k",
            "2",
            "--no-dense",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hits: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(hits.as_array().unwrap().len(), 2);
    assert_eq!(hits[0]["page_no"], 7);
    assert!(!hits[0]["title"].as_str().unwrap().is_empty());
    assert_eq!(
        hits[0]["line"],
        "Alpha reported revenue of $7,007 million in period 7."
    );
}

/// A one-page filing of `company` stating its revenue for 2024.
fn filing(path: &Path, company: &str, revenue: &str) {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 72.0, 16.0, true, &format!("{company} Annual Report"))
        .text(
            72.0,
            150.0,
            10.0,
            false,
            &format!("Revenue for 2024 was {revenue}, on steady demand."),
        )
        .text(
            72.0,
            170.0,
            10.0,
            false,
            &format!("{company} sells flour to grocers."),
        );
    std::fs::write(path, pdf.to_bytes()).unwrap();
}

#[test]
fn add_tree_takes_a_tree_with_its_graph_or_a_folder_and_lint_reports_contradictions() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let (kb, out) = (h.join("kb"), h.join("out"));
    let (kb_s, out_s) = (kb.to_str().unwrap(), out.to_str().unwrap());
    let annual = h.join("northwind-2024.pdf");
    filing(&annual, "Northwind Foods Inc.", "$1,250 million");
    let indexed = run(
        h,
        &["index", annual.to_str().unwrap(), "-o", out_s, "--no-llm"],
    );
    assert!(
        indexed.status.success(),
        "{}",
        String::from_utf8_lossy(&indexed.stderr)
    );
    let tree = out.join("northwind-2024.tree.json");
    let graph = out.join("northwind-2024.graph.json");
    let added = run(
        h,
        &[
            "kb",
            "add-tree",
            kb_s,
            tree.to_str().unwrap(),
            graph.to_str().unwrap(),
            "--no-dense",
        ],
    );
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&added.stdout),
        "northwind-2024: added (1 page)\n"
    );
    // A graph file goes with one tree, not a folder.
    let refused = run(h, &["kb", "add-tree", kb_s, out_s, graph.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("is a folder"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    // A folder of `index` output: its trees (the same content is already there).
    let again = run(h, &["kb", "add-tree", kb_s, out_s, "--no-dense"]);
    assert!(again.status.success());
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        "northwind-2024: unchanged (1 page)\n"
    );
    let clean = run(h, &["kb", "lint", kb_s]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );

    // An amended filing states another 2024 revenue for the same company.
    let amended = h.join("northwind-2024-amended.pdf");
    filing(&amended, "Northwind Foods Inc.", "$1,310 million");
    assert!(run(
        h,
        &["kb", "add", kb_s, amended.to_str().unwrap(), "--no-dense"]
    )
    .status
    .success());
    let lint = run(h, &["kb", "lint", kb_s, "--json"]);
    assert_eq!(lint.status.code(), Some(1));
    let problems: serde_json::Value = serde_json::from_slice(&lint.stdout).unwrap();
    let found = problems
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["kind"] == "contradiction")
        .unwrap_or_else(|| panic!("{problems:#}"));
    assert_eq!(found["period"], "2024");
    let values: Vec<(&str, &str)> = found["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["doc"].as_str().unwrap(), v["value"].as_str().unwrap()))
        .collect();
    assert_eq!(
        values,
        [
            ("northwind-2024", "$1,250 million"),
            ("northwind-2024-amended", "$1,310 million")
        ]
    );
}
