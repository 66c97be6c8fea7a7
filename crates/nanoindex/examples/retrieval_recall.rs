//! Page recall of deterministic retrieval on FinanceBench questions (no language model):
//! for each question, is an evidence page among the top K pages? Dense vectors are used
//! when the default embedding model is installed (set `NO_DENSE` to leave them out); indexes
//! and vectors are cached like `ask`'s.
//!
//! `cargo run -p nanoindex --example retrieval_recall -- ../shared/data/financebench-dev [K]`

use std::collections::HashMap;
use std::path::PathBuf;

use nanoindex::AskDocument;
use nanoindex::{Config, NanoIndex};
use nanoindex_retrieve::QueryAnalysis;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: retrieval_recall DIR [K]"));
    let k: usize = args.next().map_or(8, |s| s.parse().expect("K"));
    let embedder = if std::env::var_os("NO_DENSE").is_some() {
        None
    } else {
        nanoindex::llm::load_embedder(None).ok()
    };
    let engine = NanoIndex::new(Config::default());
    let questions = std::fs::read_to_string(dir.join("questions.jsonl")).expect("questions");
    let mut indexes: HashMap<String, AskDocument> = HashMap::new();
    let (mut hits, mut total) = (0, 0);
    for line in questions.lines() {
        let q: serde_json::Value = serde_json::from_str(line).expect("json");
        let doc = q["doc_name"].as_str().unwrap().to_string();
        let index = indexes.entry(doc.clone()).or_insert_with(|| {
            let path = dir.join("pdfs").join(format!("{doc}.pdf"));
            let cache = nanoindex::cache_root();
            let prepared = engine
                .prepare_pdf(&path, embedder.as_deref(), cache.as_deref(), &mut |m| {
                    eprintln!("{m}")
                })
                .expect("prepare");
            prepared.document
        });
        let index = index.index();
        let question = q["question"].as_str().unwrap();
        let analysis = QueryAnalysis::new(question);
        let qv = embedder
            .as_ref()
            .map(|e| e.embed(&[question]).expect("embed").remove(0));
        let pages = index.rank_pages(&analysis, qv.as_deref());
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
