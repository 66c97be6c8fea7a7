//! Data-driven tests whose expected output is a file (`tests/expected/`, written by
//! `UPDATE_EXPECT=1 cargo test -p nanoindex --test expected`): the outline of a document the
//! test writes, of every fixture and of every hostile PDF; retrieval rankings; and a scripted
//! `ask` trace. A change in structure, ranking or the answer pipeline shows as a diff to
//! review. Outlines of third-party PDFs are stored as digests (node id, pages, title length
//! and the first 8 hex digits of the title's SHA-256), never their text. The shared-data
//! cases are skipped with a reason outside CI when the data is absent.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use common::{shared_data, Flow};
use expect_test::expect_file;
use nanoindex::ask::Trace;
use nanoindex::core::english::counted;
use nanoindex::core::DocumentTree;
use nanoindex::{ask, sha256_hex, AskOptions, Config, Mode, NanoIndex};
use nanoindex_llm::ScriptedGenerator;
use nanoindex_retrieve::QueryAnalysis;

/// One line per node: indent by depth, id, 1-based pages, and the title (or its digest).
fn outline(tree: &DocumentTree, digest: bool) -> String {
    let mut out = String::new();
    for node in tree.iter_nodes() {
        let title = if digest {
            format!(
                "[{} chars {}]",
                node.title.chars().count(),
                &sha256_hex(node.title.as_bytes())[..8]
            )
        } else {
            node.title.clone()
        };
        let _ = writeln!(
            out,
            "{}{} p{}-{} {title}",
            "  ".repeat(node.node_id.depth().saturating_sub(1)),
            node.node_id,
            node.start_index,
            node.end_index
        );
    }
    out
}

fn contract() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "MASTER SERVICES AGREEMENT");
    f.para(&["This Agreement is made between Aster Labs LLC and Brightline Corp."]);
    f.heading(13.0, "ARTICLE I DEFINITIONS");
    f.heading(11.0, "Section 1.1 Services");
    f.para(&["Aster Labs will provide data engineering services described in each order."]);
    f.heading(11.0, "Section 1.2 Fees");
    f.para(&["Brightline shall pay a monthly fee of $42,000 within thirty (30) days."]);
    f.new_page();
    f.heading(13.0, "ARTICLE II TERM AND TERMINATION");
    f.heading(11.0, "Section 2.1 Term");
    f.para(&["The initial term is three (3) years from the Effective Date."]);
    f.heading(11.0, "Section 2.2 Termination");
    f.para(&["Either party may terminate on ninety (90) days written notice."]);
    f.new_page();
    f.heading(13.0, "ARTICLE III MISCELLANEOUS");
    f.heading(11.0, "Section 3.1 Governing Law");
    f.para(&["This Agreement is governed by the laws of the State of Delaware."]);
    f.bytes()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn outline_of_a_written_contract() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "msa.pdf", &contract());
    let tree = NanoIndex::new(Config::default()).index(&path).unwrap().tree;
    expect_file!["expected/contract.outline"].assert_eq(&outline(&tree, false));
}

#[test]
fn retrieval_rankings_of_a_written_contract() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "msa.pdf", &contract());
    let prepared = NanoIndex::new(Config::default())
        .prepare(&path, &mut |_| {})
        .unwrap();
    let index = prepared.document.index();
    let mut out = String::new();
    for question in [
        "What is the monthly fee?",
        "How much notice is needed to terminate?",
        "Which state's law governs the agreement?",
    ] {
        let ranking = index.rank_pages(&QueryAnalysis::new(question), &[]);
        let pages: Vec<String> = ranking
            .iter()
            .map(|h| format!("p{} {:.3}", h.page_no, h.score))
            .collect();
        let _ = writeln!(out, "{question}\n  {}", pages.join(", "));
    }
    expect_file!["expected/contract.rankings"].assert_eq(&out);
}

#[test]
fn scripted_fast_trace_of_a_written_contract() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "msa.pdf", &contract());
    let prepared = NanoIndex::new(Config::default())
        .prepare(&path, &mut |_| {})
        .unwrap();
    let mut model = ScriptedGenerator::new([
        r#"{"lines": [1]}"#,
        r#"{"answer": "Either party may terminate on ninety (90) days written notice."}"#,
    ]);
    let options = AskOptions {
        mode: Mode::Fast,
        ..AskOptions::default()
    };
    let answer = ask(
        &prepared.document,
        "How much notice is needed to terminate?",
        &mut model,
        None,
        &options,
        &mut |_| {},
    )
    .unwrap();
    let mut trace = Trace::from_answer(&answer).unwrap();
    // Times vary from run to run; everything else is deterministic.
    trace.steps.iter_mut().for_each(|s| s.ms = 0.0);
    trace.llm_calls.iter_mut().for_each(|c| c.ms = 0.0);
    let mut out = format!("{}\n", answer.content);
    for c in &answer.citations {
        let _ = writeln!(
            out,
            "cites p{:?}: {}",
            c.pages,
            c.quote.as_deref().unwrap_or("")
        );
    }
    out.push_str(&serde_json::to_string_pretty(&trace).unwrap());
    out.push('\n');
    expect_file!["expected/contract-fast.trace"].assert_eq(&out);
}

/// Outlines (as digests) of every PDF directly in `dir`, or the error that names the file.
fn outlines_of(dir: &Path) -> String {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")))
        .collect();
    files.sort();
    let mut out = String::new();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        // The hostile corpus's Chinese scan is read by OCR in Chinese, as its reader would.
        let engine = NanoIndex::new(Config {
            ocr: nanoindex::OcrOptions {
                languages: if name.contains("-cjk-") {
                    "chi_sim"
                } else {
                    "eng"
                }
                .to_string(),
                ..nanoindex::OcrOptions::default()
            },
            ..Config::default()
        });
        match engine.index(&file) {
            Ok(doc) => {
                let _ = writeln!(
                    out,
                    "== {name}: {}",
                    counted(doc.tree.extraction_metadata.page_count, "page")
                );
                out.push_str(&outline(&doc.tree, true));
            }
            Err(e) => {
                let reason = e.to_string().replace(&file.display().to_string(), "FILE");
                let _ = writeln!(out, "== {name}: error: {reason}");
            }
        }
    }
    out
}

#[test]
fn outlines_of_the_fixtures() {
    let Some(data) = shared_data() else { return };
    expect_file!["expected/fixtures.outline"].assert_eq(&outlines_of(&data.join("data/fixtures")));
}

#[test]
fn outlines_of_the_hostile_corpus() {
    let Some(data) = shared_data() else { return };
    if !common::ocr_languages("eng+chi_sim") {
        return;
    }
    expect_file!["expected/hostile.outline"].assert_eq(&outlines_of(&data.join("corpus/hostile")));
}
