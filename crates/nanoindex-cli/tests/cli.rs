//! End-to-end tests of the `nanoindex-local` binary: `index` and `tree` on PDFs the test
//! writes, batches with bad files (exit code 1, good files still written), usage errors
//! (exit code 2), and passwords on the shared corpus when it is present.

// The engine tests' helpers: the shared test data lookup lives in one place.
#[path = "../../nanoindex/tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use nanoindex_llm_conformance::skip;
use nanoindex_pdf::write::PdfBuilder;

/// The binary, isolated from the developer's configuration: no config file, and none of
/// the `NANOINDEX_*` settings that change results.
fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nanoindex-local"));
    cmd.env("XDG_CONFIG_HOME", "/nonexistent/nanoindex-test-config");
    for var in [
        "NANOINDEX_CONFIG",
        "NANOINDEX_LLM",
        "NANOINDEX_DOMAIN",
        "NANOINDEX_SPLIT_TOKENS",
        "NANOINDEX_JOBS",
        "NANOINDEX_BATCH_SIZE",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn contract(path: &Path) {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 72.0, 18.0, true, "SERVICES AGREEMENT")
        .text(72.0, 110.0, 13.0, true, "1. Services")
        .text(
            72.0,
            130.0,
            10.0,
            false,
            "The Supplier provides support. Fees are set in Section 2.5.",
        )
        .text(72.0, 170.0, 13.0, true, "2. Fees");
    pdf.page()
        .text(72.0, 72.0, 11.0, true, "2.5 Late Payment")
        .text(
            72.0,
            92.0,
            10.0,
            false,
            "Late invoices bear interest of 1% per month.",
        );
    std::fs::write(path, pdf.to_bytes()).unwrap();
}

#[test]
fn index_then_tree_prints_the_outline() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("contract.pdf");
    contract(&pdf);
    let out_dir = dir.path().join("out");
    let out = run(&[
        "index",
        pdf.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
        "--no-llm",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(report["ok"], true);
    assert_eq!(report["pages"], 2);
    assert_eq!(report["method"], "typography");
    assert_eq!(report["cross_references"], 1);
    let tree_path = out_dir.join("contract.tree.json");
    assert!(out_dir.join("contract.graph.json").is_file());

    let out = run(&["tree", tree_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        printed,
        "0000  SERVICES AGREEMENT  (pp. 1-2)\n  0000.0000  1. Services  (p. 1)\n  0000.0001  2. Fees  (pp. 1-2)\n    0000.0001.0000  2.5 Late Payment  (p. 2)\n"
    );
    let out = run(&["tree", tree_path.to_str().unwrap(), "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["nodes"][1]["nodes"][0]["node_id"], "0000.0001.0000");
}

#[test]
fn a_batch_reports_bad_files_writes_the_good_ones_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pdf");
    contract(&good);
    let garbage = dir.path().join("garbage.pdf");
    std::fs::write(&garbage, b"%PDF-1.7\nthis is not really a pdf").unwrap();
    let empty = dir.path().join("empty.pdf");
    std::fs::write(&empty, b"").unwrap();
    let missing: PathBuf = dir.path().join("missing.pdf");
    let out_dir = dir.path().join("out");
    let out = run(&[
        "index",
        garbage.to_str().unwrap(),
        good.to_str().unwrap(),
        empty.to_str().unwrap(),
        missing.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
        "--no-llm",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("garbage.pdf`: damaged file"), "{err}");
    assert!(err.contains("empty.pdf`: empty file"), "{err}");
    assert!(err.contains("missing.pdf`: No such file"), "{err}");
    assert!(err.contains("1 indexed, 0 unchanged, 3 failed"), "{err}");
    assert!(out_dir.join("good.tree.json").is_file());
    assert!(!out_dir.join("garbage.tree.json").exists());

    // A second run skips the unchanged file; the bad one is still reported.
    let again = |extra: &[&str]| {
        let mut args = vec![
            "index",
            garbage.to_str().unwrap(),
            good.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
            "--no-llm",
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let out = again(&[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("unchanged `"), "{err}");
    assert!(err.contains("0 indexed, 1 unchanged, 1 failed"), "{err}");
    // Other options are another index: not skipped.
    let out = again(&["--no-split"]);
    assert!(
        stderr(&out).contains("1 indexed, 0 unchanged, 1 failed"),
        "{}",
        stderr(&out)
    );
    // Changed content is indexed again.
    let mut flow = PdfBuilder::new();
    flow.page()
        .text(72.0, 80.0, 16.0, true, "Changed")
        .text(72.0, 110.0, 10.0, false, "New text.");
    std::fs::write(&good, flow.to_bytes()).unwrap();
    let out = again(&["--no-split"]);
    assert!(
        stderr(&out).contains("1 indexed, 0 unchanged, 1 failed"),
        "{}",
        stderr(&out)
    );
    let tree = std::fs::read_to_string(out_dir.join("good.tree.json")).unwrap();
    assert!(tree.contains("New text."));
}

#[test]
fn shards_split_the_inputs_and_bad_shards_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for name in ["a", "b", "c"] {
        let pdf = dir.path().join(format!("{name}.pdf"));
        contract(&pdf);
        files.push(pdf);
    }
    let out_dir = dir.path().join("out");
    let out = run(&[
        "index",
        dir.path().to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
        "--no-llm",
        "--shard",
        "1/2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out_dir.join("b.tree.json").is_file());
    assert!(!out_dir.join("a.tree.json").exists() && !out_dir.join("c.tree.json").exists());
    let out = run(&["index", files[0].to_str().unwrap(), "--shard", "2/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("K must be 0 to N-1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_closed_stdout_ends_commands_quietly_and_json_errors_are_json() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("contract.pdf");
    contract(&pdf);
    let out_dir = dir.path().join("out");
    let out = run(&[
        "index",
        pdf.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
        "--no-llm",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tree_path = out_dir.join("contract.tree.json");
    // `tree … | head -0`: the reader closes the pipe before anything is written.
    for args in [
        vec!["tree", tree_path.to_str().unwrap()],
        vec!["tree", tree_path.to_str().unwrap(), "--json"],
        vec![
            "index",
            pdf.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
            "--no-llm",
            "--json",
        ],
    ] {
        let mut child = bin()
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }

    // With --json, a failure is a JSON object on stdout too.
    let missing = dir.path().join("missing.pdf");
    let out = run(&[
        "ask",
        missing.to_str().unwrap(),
        "What is the fee?",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let error: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
    assert_eq!(error["ok"], false);
    assert!(
        error["error"].as_str().unwrap().contains("missing.pdf"),
        "{error}"
    );
    let out = run(&["tree", missing.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let error: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
    assert_eq!(error["ok"], false);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["index"]).status.code(), Some(2));
    assert_eq!(run(&["no-such-command"]).status.code(), Some(2));
}

#[test]
fn tree_of_a_broken_file_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.tree.json");
    std::fs::write(&bad, "{\"doc_name\": 3}").unwrap();
    let out = run(&["tree", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: `"), "{}", stderr(&out));
    assert!(stderr(&out).contains("bad.tree.json` is not a valid tree file"));
}

/// A two-page filing: a cash-flow statement on page 1 under a header of years, a note with
/// prose on page 2.
fn statement(path: &Path) {
    let mut pdf = PdfBuilder::new();
    let page = pdf
        .page()
        .text(
            72.0,
            70.0,
            14.0,
            true,
            "Consolidated Statement of Cash Flows",
        )
        .text(72.0, 95.0, 9.0, false, "(Millions)")
        .text(420.0, 95.0, 9.0, false, "2018")
        .text(490.0, 95.0, 9.0, false, "2017");
    for (i, (label, a, b)) in [
        (
            "Purchases of property, plant and equipment",
            "(1,577)",
            "(1,373)",
        ),
        ("Proceeds from sale of businesses", "846", "1,065"),
        ("Net cash used in investing activities", "(222)", "(3,086)"),
    ]
    .into_iter()
    .enumerate()
    {
        let y = 110.0 + 13.0 * i as f32;
        page.text(72.0, y, 9.0, false, label)
            .text(445.0 - 4.5 * a.len() as f32, y, 9.0, false, a)
            .text(515.0 - 4.5 * b.len() as f32, y, 9.0, false, b);
    }
    pdf.page().text(
        72.0,
        80.0,
        10.0,
        false,
        "Note 1. The Company spent more on plant in 2018 than it had planned.",
    );
    std::fs::write(path, pdf.to_bytes()).unwrap();
}

#[test]
fn extract_writes_the_tables_as_csv_json_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("statement.pdf");
    statement(&pdf);
    let cache = dir.path().join("cache");
    let extract = |args: &[&str]| {
        bin()
            .env("NANOINDEX_CACHE", &cache)
            .arg("extract")
            .arg(&pdf)
            .args(args)
            .output()
            .expect("binary runs")
    };
    let csv = extract(&["--format", "csv"]);
    assert!(csv.status.success(), "{}", stderr(&csv));
    let csv = String::from_utf8_lossy(&csv.stdout).into_owned();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "table_id,page,kind,cells…");
    assert!(
        lines[1].ends_with(",1,header,(Millions),2018,2017"),
        "{csv}"
    );
    assert!(
        lines[2].ends_with(
            ",1,row,\"Purchases of property, plant and equipment\",\"(1,577)\",\"(1,373)\""
        ),
        "{csv}"
    );
    assert_eq!(lines.len(), 5, "{csv}");

    let json = extract(&["--format", "json", "--pages", "1"]);
    let tables: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(tables[0]["title"], "Consolidated Statement of Cash Flows");
    assert_eq!(tables[0]["rows"][1][2], "1,065");
    let cell = &tables[0]["cells"][1][2]["bbox"];
    assert_eq!(cell["page"], 1);
    assert_eq!(cell["region_type"], "table_cell");

    let none = extract(&["--pages", "2"]);
    assert!(none.status.success());
    assert!(none.stdout.is_empty());
    assert!(
        stderr(&none).contains("no table of figures found"),
        "{}",
        stderr(&none)
    );

    let bad = extract(&["--pages", "3-x"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("`x` is not a page number"),
        "{}",
        stderr(&bad)
    );
}

/// The first-impression frictions a new user met (issue 10): an empty folder, a folder
/// given to `tree`, help texts that name what exists, a bare `.gguf` path as `--llm`.
#[test]
fn first_impression_errors_and_help_say_what_is_true() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("notes.txt"), "not a PDF").unwrap();

    let out = run(&[
        "index",
        empty.to_str().unwrap(),
        "-o",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no PDF found in `") && stderr(&out).contains("*.pdf"),
        "{}",
        stderr(&out)
    );

    let out = run(&["tree", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert_eq!(said.matches("directory").count(), 1, "said twice: {said}");

    let top = String::from_utf8_lossy(&run(&["--help"]).stdout).into_owned();
    assert!(top.starts_with("Offline PDF indexing"), "{top}");
    let tree_help = String::from_utf8_lossy(&run(&["tree", "--help"]).stdout).into_owned();
    for key in ["node_id", "start_index", "end_index", "nodes"] {
        assert!(
            tree_help.contains(key),
            "`tree --help` names `{key}`: {tree_help}"
        );
    }
    for command in ["ask", "index", "generate"] {
        let help = String::from_utf8_lossy(&run(&[command, "--help"]).stdout).into_owned();
        for kind in ["PATH.gguf", "llama-cpp:", "candle:", "ollama:", "openai:"] {
            assert!(
                help.contains(kind),
                "`{command} --help` lists `{kind}`: {help}"
            );
        }
    }
    let index_help = String::from_utf8_lossy(&run(&["index", "--help"]).stdout).into_owned();
    assert!(index_help.contains("--summaries"), "{index_help}");

    // A bare path to a `.gguf` file means the default local backend: the error is about the
    // file, not about a missing backend prefix.
    let missing = dir.path().join("missing.gguf");
    let out = run(&["generate", "hi", "--llm", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!stderr(&out).contains("prefix"), "{}", stderr(&out));
    assert!(stderr(&out).contains("missing.gguf"), "{}", stderr(&out));
}

fn hostile(name: &str) -> Option<PathBuf> {
    common::shared_data().map(|d| d.join("corpus/hostile").join(name))
}

#[test]
fn password_protected_files_need_the_password() {
    let Some(pdf) = hostile("encrypted-userpw-rc4-40bit-pdfminer.pdf") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let out = run(&["index", pdf.to_str().unwrap(), "-o", out_dir, "--no-llm"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("rc4-40bit-pdfminer.pdf`: password required"),
        "{}",
        stderr(&out)
    );
    let out = run(&[
        "index",
        pdf.to_str().unwrap(),
        "-o",
        out_dir,
        "--no-llm",
        "--password",
        "wrong",
    ]);
    assert!(stderr(&out).contains("wrong password"), "{}", stderr(&out));
    let out = run(&[
        "index",
        pdf.to_str().unwrap(),
        "-o",
        out_dir,
        "--no-llm",
        "--password",
        "baz",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tree = std::fs::read_to_string(
        dir.path()
            .join("encrypted-userpw-rc4-40bit-pdfminer.tree.json"),
    )
    .unwrap();
    assert!(tree.contains("Secret!"));
    // The same file, unchanged, with a wrong password or none, into the same folder: the
    // password is checked before the manifest says "unchanged".
    for password in [Some("wrong"), None] {
        let mut args = vec!["index", pdf.to_str().unwrap(), "-o", out_dir, "--no-llm"];
        if let Some(p) = password {
            args.extend(["--password", p]);
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{password:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("password"),
            "{password:?}: {}",
            stderr(&out)
        );
    }
    let out = run(&[
        "index",
        pdf.to_str().unwrap(),
        "-o",
        out_dir,
        "--no-llm",
        "--password",
        "foo",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("unchanged"), "{}", stderr(&out));
}

/// The default model is installed (always in CI); elsewhere the test is skipped.
fn model_installed() -> bool {
    let installed = run(&["models", "list"]);
    let listed = String::from_utf8_lossy(&installed.stdout).into_owned();
    let ok = listed
        .lines()
        .any(|l| l.contains("SmolLM2") && l.contains("installed"));
    if !ok {
        skip(&format!(
            "the default model is not installed (scripts/fetch-models.sh): {listed}"
        ));
    }
    ok
}

#[test]
fn ask_answers_with_a_verified_citation_and_highlights_it() {
    if !model_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("contract.pdf");
    contract(&pdf);
    let marked = dir.path().join("marked.pdf");
    let cache = dir.path().join("cache");
    let ask = |extra: &[&str]| {
        let mut cmd = bin();
        cmd.env("NANOINDEX_CACHE", &cache).args([
            "ask",
            pdf.to_str().unwrap(),
            "What interest do late invoices bear?",
            "--mode",
            "fast",
            "--no-dense",
        ]);
        cmd.args(extra).output().expect("binary runs")
    };
    let out = ask(&["--json", "--highlight", marked.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["mode"], "fast");
    let citation = &answer["citations"][0];
    assert_eq!(citation["pages"], serde_json::json!([2]));
    assert!(citation["quote"].as_str().unwrap().contains("1% per month"));
    // "bear interest at 1% per month" states the value right after the asked noun: the
    // reader answers it as a percentage, and in `fast` a draft could not change that answer,
    // so the model is not called.
    assert!(
        answer["content"].as_str().unwrap().contains("1% per month"),
        "{answer:#}"
    );
    assert_eq!(
        answer["trace"]["llm_calls"].as_array().unwrap().len(),
        0,
        "{answer:#}"
    );
    let highlights =
        nanoindex_pdf::locate::highlight_boxes(&std::fs::read(&marked).unwrap(), "marked.pdf")
            .unwrap();
    assert_eq!(
        highlights.len(),
        citation["bounding_boxes"].as_array().unwrap().len()
    );
    assert!(highlights.iter().all(|b| b.page == 2));
    // The index was cached: the second question does not index again, and prints text.
    assert!(cache.join("documents").read_dir().unwrap().count() == 1);
    let out = ask(&["--quiet"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Sources:") && text.contains("page 2"),
        "{text}"
    );
}

#[test]
fn ask_about_a_tree_whose_pdf_changed_fails_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("contract.pdf");
    contract(&pdf);
    let out = run(&[
        "index",
        pdf.to_str().unwrap(),
        "-o",
        dir.path().to_str().unwrap(),
        "--no-llm",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(&pdf, b"%PDF-1.4 changed").unwrap();
    let tree = dir.path().join("contract.tree.json");
    let out = run(&[
        "ask",
        tree.to_str().unwrap(),
        "What are the fees?",
        "--no-dense",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("changed since"), "{}", stderr(&out));
    std::fs::remove_file(&pdf).unwrap();
    let out = run(&[
        "ask",
        tree.to_str().unwrap(),
        "What are the fees?",
        "--no-dense",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot find the PDF"),
        "{}",
        stderr(&out)
    );
    let out = run(&["ask", "missing.pdf", "Anything?", "--no-dense"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("missing.pdf"), "{}", stderr(&out));
    let out = run(&["ask", tree.to_str().unwrap(), "Q", "--mode", "global"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown mode is a usage error"
    );
}

#[test]
fn models_pull_offline_reads_the_hugging_face_cache() {
    let home = tempfile::tempdir().unwrap();
    let repo = home.path().join("hub/models--org--tiny");
    std::fs::create_dir_all(repo.join("refs")).unwrap();
    std::fs::create_dir_all(repo.join("snapshots/abc123")).unwrap();
    std::fs::write(repo.join("refs/main"), "abc123").unwrap();
    std::fs::write(repo.join("snapshots/abc123/tiny.gguf"), b"GGUF").unwrap();
    let pull = |file: &str| {
        bin()
            .env("HF_HOME", home.path())
            .env("HF_HUB_OFFLINE", "1")
            .args(["models", "pull", "org/tiny", file, "--json"])
            .output()
            .unwrap()
    };
    let out = pull("tiny.gguf");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let path: String = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(PathBuf::from(path), repo.join("snapshots/abc123/tiny.gguf"));
    let out = pull("missing.gguf");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("HF_HUB_OFFLINE forbids downloading"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn flags_beat_the_environment_which_beats_the_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("contract.pdf");
    contract(&pdf);
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "domain = \"insurance\"\n").unwrap();
    let domain_of = |env: Option<&str>, flag: Option<&str>| {
        let mut cmd = bin();
        cmd.env("NANOINDEX_CONFIG", &config)
            .env_remove("NANOINDEX_DOMAIN");
        if let Some(d) = env {
            cmd.env("NANOINDEX_DOMAIN", d);
        }
        cmd.args([
            "index",
            pdf.to_str().unwrap(),
            "--no-llm",
            "--json",
            "--force",
            "-o",
        ])
        .arg(dir.path());
        if let Some(d) = flag {
            cmd.args(["--domain", d]);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        report["domain"].as_str().unwrap().to_string()
    };
    assert_eq!(domain_of(None, None), "insurance");
    assert_eq!(domain_of(Some("legal"), None), "legal");
    assert_eq!(domain_of(Some("legal"), Some("medical")), "medical");

    std::fs::write(&config, "colour = \"blue\"\n").unwrap();
    let out = bin()
        .env("NANOINDEX_CONFIG", &config)
        .args(["index", pdf.to_str().unwrap(), "--no-llm"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("config.toml` has an unknown key `colour`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn index_with_the_default_model_writes_summaries_and_skips_the_unchanged_file() {
    if !model_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("review.pdf");
    let mut doc = PdfBuilder::new();
    let page = doc.page();
    page.text(72.0, 72.0, 18.0, true, "ANNUAL REVIEW");
    for (i, (title, lines)) in [
        (
            "1. Operations",
            [
                "Harbor Mills, Inc. runs three flour mills in Ohio and one in Indiana.",
                "The mills ground 410,000 tonnes of wheat in 2024, up 6% on 2023.",
                "A new packing line in Toledo started in March and doubled capacity.",
            ],
        ),
        (
            "2. Finances",
            [
                "Revenue was $212 million and operating income was $19 million.",
                "The company repaid $30 million of its term loan during the year.",
                "Capital expenditures of $14 million went mostly to the Toledo line.",
            ],
        ),
    ]
    .iter()
    .enumerate()
    {
        let y = 120.0 + 110.0 * i as f32;
        page.text(72.0, y, 13.0, true, title);
        for (k, line) in lines.iter().enumerate() {
            page.text(72.0, y + 22.0 + 14.0 * k as f32, 10.0, false, line);
        }
    }
    std::fs::write(&pdf, doc.to_bytes()).unwrap();
    let out_dir = dir.path().join("out");
    let index = || {
        run(&[
            "index",
            pdf.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
            "--json",
            "--threads",
            "1",
        ])
    };
    let out = index();
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(report["status"], "indexed");
    let enrichment = &report["enrichment"];
    assert!(
        enrichment["llm_calls"].as_u64().unwrap() >= 1,
        "{enrichment}"
    );
    assert!(
        enrichment["completion_tokens"].as_u64().unwrap() >= 1,
        "{enrichment}"
    );
    let tree: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("review.tree.json")).unwrap()).unwrap();
    let mut summaries = Vec::new();
    let mut stack = vec![&tree["structure"]];
    while let Some(nodes) = stack.pop() {
        for node in nodes.as_array().unwrap() {
            if let Some(s) = node["summary"].as_str() {
                summaries.push(s.to_string());
            }
            stack.push(&node["nodes"]);
        }
    }
    assert_eq!(
        summaries.len() as u64,
        enrichment["summaries"]["summarised"].as_u64().unwrap()
    );
    assert!(!summaries.is_empty() && summaries.iter().all(|s| !s.trim().is_empty()));
    let graph = std::fs::read_to_string(out_dir.join("review.graph.json")).unwrap();
    assert!(
        graph.contains("\"entity_type\": \"organization\""),
        "{graph}"
    );
    // Same file, same options: not indexed again.
    let out = index();
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "unchanged");
}

/// Whether commands can be run in a network namespace with no interfaces (`unshare -n`,
/// root on Linux; always so in CI); elsewhere the air-gap test is skipped with the reason.
fn network_namespaces() -> bool {
    let ok = Command::new("unshare")
        .args(["-n", "--", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        skip("`unshare -n` is not permitted here (needs root on Linux)");
    }
    ok
}

/// The binary inside a network namespace with no interfaces (not even loopback up).
fn offline() -> Command {
    let mut cmd = Command::new("unshare");
    cmd.args(["-n", "--", env!("CARGO_BIN_EXE_nanoindex-local")]);
    cmd.env("XDG_CONFIG_HOME", "/nonexistent/nanoindex-test-config");
    for var in ["NANOINDEX_CONFIG", "NANOINDEX_LLM", "NANOINDEX_JOBS"] {
        cmd.env_remove(var);
    }
    cmd
}

/// Air gap: `index` (with the default model's summaries), `ask` and `generate` succeed with
/// no network at all, and a configured Ollama or OpenAI-compatible backend fails with a clear
/// error naming it, instead of hanging.
#[test]
fn index_ask_and_generate_work_with_no_network_and_remote_backends_fail_clearly() {
    if !model_installed() || !network_namespaces() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("contract.pdf");
    contract(&pdf);
    // A section long enough to be summarised (40 tokens or more).
    let long = dir.path().join("long.pdf");
    let mut builder = PdfBuilder::new();
    let page = builder.page();
    page.text(72.0, 72.0, 14.0, true, "1. Services");
    for (i, line) in [
        "The Supplier provides hosting, monitoring and support for the Customer's systems.",
        "Support is available on business days from 8 a.m. to 6 p.m. Eastern Time.",
        "Incidents of severity one are answered within one hour and resolved within a day.",
        "The Supplier reports availability monthly and credits fees when it falls short.",
        "Either party may ask for a review of the service levels once in each year.",
    ]
    .iter()
    .enumerate()
    {
        page.text(72.0, 100.0 + 14.0 * i as f32, 10.0, false, line);
    }
    std::fs::write(&long, builder.to_bytes()).unwrap();
    let cache = dir.path().join("cache");
    let out = offline()
        .env("NANOINDEX_CACHE", &cache)
        .args(["index", long.to_str().unwrap(), "-o"])
        .arg(dir.path().join("out"))
        .args(["--json", "--no-llm-entities"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["enrichment"]["summaries"]["summarised"]
            .as_u64()
            .unwrap_or(0)
            > 0,
        "{report}"
    );

    let out = offline()
        .env("NANOINDEX_CACHE", &cache)
        .args([
            "ask",
            pdf.to_str().unwrap(),
            "What interest do late invoices bear?",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        answer["citations"][0]["quote"]
            .as_str()
            .unwrap()
            .contains("1% per month"),
        "{answer}"
    );

    let out = offline()
        .args(["generate", "Name a colour.", "--max-tokens", "8", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reply: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        reply["completion_tokens"].as_u64().unwrap_or(0) > 0 || reply["text"].is_string(),
        "{reply}"
    );

    for llm in ["ollama:llama3", "openai:gpt-4o@http://127.0.0.1:9/v1"] {
        let started = std::time::Instant::now();
        let out = offline()
            .args(["generate", "Name a colour.", "--llm", llm])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{llm}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{llm}: {err}");
        assert!(
            err.to_lowercase().contains("connect") || err.to_lowercase().contains("network"),
            "{llm}: the error says the server cannot be reached: {err}"
        );
        assert!(started.elapsed().as_secs() < 60, "{llm}: failed fast");
    }
}

/// A scanned document is indexed with OCR, pages shared between this process and worker
/// processes (`ocr-worker`) on a machine with two or more cores: every page comes back, in
/// order, with the text the same engine reads in one process.
#[test]
fn index_reads_a_scan_with_ocr_worker_processes() {
    if let Err(reason) = nanoindex_pdf::ocr::find_tessdata("eng", None) {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{reason}");
        eprintln!("skipped: {reason}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sentences = [
        "The lease begins on the first day of April.",
        "Rent is payable monthly in advance.",
        "The tenant keeps the premises in good repair.",
        "Either party may end the lease with notice.",
    ];
    let mut pdf = PdfBuilder::new();
    for (i, sentence) in sentences.iter().enumerate() {
        pdf.page()
            .text(72.0, 80.0, 14.0, true, &format!("Clause {}", i + 1))
            .text(72.0, 110.0, 11.0, false, sentence);
    }
    let scan = nanoindex_pdf::write::image_only_copy(&pdf.to_bytes(), "lease.pdf", 200.0).unwrap();
    let path = dir.path().join("lease-scan.pdf");
    std::fs::write(&path, &scan).unwrap();
    let out_dir = dir.path().join("out");
    let out = run(&[
        "index",
        path.to_str().unwrap(),
        "--no-llm",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tree: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.join("lease-scan.tree.json")).unwrap(),
    )
    .unwrap();
    let pages: Vec<u64> = tree["extraction_metadata"]["ocr_pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["page"].as_u64().unwrap())
        .collect();
    assert_eq!(pages, [1, 2, 3, 4]);
    let text = tree.to_string();
    for sentence in sentences {
        assert!(text.contains(sentence), "`{sentence}` missing: {text}");
    }
    // The same pages read in this process alone.
    let alone = nanoindex_pdf::extract_bytes(&scan, "lease-scan.pdf", &Default::default()).unwrap();
    for page in &alone.pages {
        let first = page.lines().nth(1).unwrap().text.clone();
        assert!(text.contains(&first), "{first}");
    }
}

/// `extract --schema` fills each field with a value found in a quote on its page, cited with
/// boxes; a field the document does not hold stays `null`. Needs the default model.
#[test]
fn extract_fills_a_schema_with_cited_values() {
    if !model_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("statement.pdf");
    statement(&pdf);
    let schema = dir.path().join("schema.json");
    std::fs::write(
        &schema,
        r#"{"type": "object", "properties": {
            "capex_2018": {"type": "number",
                "description": "purchases of property, plant and equipment in 2018"},
            "proceeds_2017": {"type": "number",
                "description": "proceeds from sale of businesses in 2017"},
            "auditor": {"type": "string", "description": "name of the independent auditor"}
        }}"#,
    )
    .unwrap();
    let out = bin()
        .env("NANOINDEX_CACHE", dir.path().join("cache"))
        .args(["extract", pdf.to_str().unwrap(), "--schema"])
        .arg(&schema)
        .arg("--no-dense")
        .output()
        .expect("binary runs");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fields = &json["fields"];
    for (name, figure) in [("capex_2018", 1577.0), ("proceeds_2017", 1065.0)] {
        let field = &fields[name];
        assert_eq!(
            field["value"].as_f64().map(f64::abs),
            Some(figure),
            "{name}: {field:#}"
        );
        assert_eq!(field["page"], 1, "{field:#}");
        assert!(
            !field["bounding_boxes"].as_array().unwrap().is_empty(),
            "{field:#}"
        );
    }
    assert!(
        fields["auditor"]["value"].is_null(),
        "{:#}",
        fields["auditor"]
    );
    // A schema that cannot be filled is refused before any model loads.
    std::fs::write(&schema, r#"{"properties": {"parties": {"type": "array"}}}"#).unwrap();
    let out = run(&[
        "extract",
        pdf.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`parties` has type `array`"),
        "{}",
        stderr(&out)
    );
}

/// A large document's pages are read in shares by worker processes (`ocr-worker` with a
/// text-only request) beside the calling process: the pages come back whole and in order,
/// equal to one process reading them all; a worker that cannot start leaves its pages to
/// the calling process, with the same result.
#[test]
fn large_documents_are_read_in_shares_by_worker_processes() {
    let dir = tempfile::tempdir().unwrap();
    let mut pdf = PdfBuilder::new();
    for i in 1..=40 {
        pdf.page()
            .text(72.0, 80.0, 14.0, true, &format!("Article {i}"))
            .text(
                72.0,
                110.0,
                11.0,
                false,
                &format!(
                    "Clause {i} says the rent for year {i} is {} dollars.",
                    1000 + i
                ),
            );
    }
    let bytes = pdf.to_bytes();
    let alone = nanoindex_pdf::extract_bytes(&bytes, "lease.pdf", &Default::default()).unwrap();
    assert_eq!(alone.pages.len(), 40);

    // Each started worker leaves a line in the log, then serves its share.
    let log = dir.path().join("workers.log");
    let script = format!(
        "echo started >> '{}'; exec '{}' ocr-worker \"$0\"",
        log.display(),
        env!("CARGO_BIN_EXE_nanoindex-local")
    );
    let workers = |command: &str, count: usize, hand_off: bool| nanoindex_pdf::ExtractOptions {
        ocr_workers: Some(nanoindex::OcrWorkers {
            command: command.into(),
            args: vec!["-c".to_string(), script.clone()],
            count,
            hand_off,
        }),
        ..Default::default()
    };
    let started = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let shared = nanoindex_pdf::extract_bytes(&bytes, "lease.pdf", &workers("sh", 2, false));
    let shared = shared.unwrap();
    assert_eq!(started(), 2, "two workers served shares");
    assert_eq!(shared.pages, alone.pages);
    assert_eq!(shared.warnings, alone.warnings);

    // Handed off: one worker reads every page, none is read here.
    let handed = nanoindex_pdf::extract_bytes(&bytes, "lease.pdf", &workers("sh", 0, true));
    assert_eq!(started(), 3, "one more worker read the document");
    assert_eq!(handed.unwrap().pages, alone.pages);

    let fallback =
        nanoindex_pdf::extract_bytes(&bytes, "lease.pdf", &workers("/nonexistent/sh", 2, true));
    assert_eq!(fallback.unwrap().pages, alone.pages);
}
