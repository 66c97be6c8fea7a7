//! Page recall of deterministic retrieval on FinanceBench questions (no language model):
//! for each question, is an evidence page among the top K pages of the engine's search?
//! Dense similarity is used when the default embedding model is installed (set `NO_DENSE`
//! to leave it out); indexes and vectors are cached like `ask`'s.
//!
//! `cargo run -p nanoindex --example retrieval_recall -- ../shared/data/financebench-dev [K]`

use std::collections::HashMap;
use std::path::PathBuf;

use nanoindex::{Config, NanoIndex, Prepared};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: retrieval_recall DIR [K]"));
    let k: usize = args.next().map_or(8, |s| s.parse().expect("K"));
    let engine = NanoIndex::new(Config {
        dense: std::env::var_os("NO_DENSE").is_none(),
        cache: nanoindex::cache_root(),
        ..Config::default()
    });
    let questions = std::fs::read_to_string(dir.join("questions.jsonl")).expect("questions");
    let mut documents: HashMap<String, Prepared> = HashMap::new();
    let (mut hits, mut total) = (0, 0);
    for line in questions.lines() {
        let q: serde_json::Value = serde_json::from_str(line).expect("json");
        let doc = q["doc_name"].as_str().unwrap().to_string();
        let prepared = documents.entry(doc.clone()).or_insert_with(|| {
            let path = dir.join("pdfs").join(format!("{doc}.pdf"));
            engine
                .prepare(&path, &mut |m| eprintln!("{m}"))
                .expect("prepare")
        });
        let question = q["question"].as_str().unwrap();
        let pages = engine
            .search(prepared, question, usize::MAX)
            .expect("search");
        let evidence: Vec<u32> = q["evidence_pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        let top: Vec<u32> = pages.iter().take(k).map(|p| p.page_no).collect();
        let rank = pages.iter().position(|p| evidence.contains(&p.page_no));
        let hit = top.iter().any(|p| evidence.contains(p));
        total += 1;
        hits += usize::from(hit);
        println!(
            "{} {doc} evidence {evidence:?} rank {:?} top {top:?}",
            if hit { "HIT " } else { "MISS" },
            rank.map(|r| r + 1)
        );
    }
    println!(
        "recall@{k}: {hits}/{total} = {:.2}",
        hits as f64 / total as f64
    );
}
