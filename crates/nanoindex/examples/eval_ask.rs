//! Evaluation of `ask` on a question set (run through `scripts/eval-financebench.sh` and
//! `scripts/eval-real.sh`).
//!
//! For every question of QUESTIONS.jsonl (FinanceBench's fields: `doc_name`, `question`,
//! `answer`, `evidence_pages`; ours add `accept`, `answerable`, `answer_type`) and every
//! mode: is an evidence page among the pages read; is the first cited page an evidence page
//! (cited page exact); does the answer state the expected value (one of `accept`,
//! case-insensitive, whitespace folded, or, for a FinanceBench short figure, the gold number:
//! `$1,577 million` = `1577`, rounding and thousand-scale restatements allowed); for a
//! question whose answer is not in the document (`answerable: false`), does the answer say
//! so (status `not_found`) with no citation; pages read, model calls, tokens and seconds
//! (after indexing: documents are prepared and cached first, the model loaded once). Prints
//! totals per mode and per answer type, and writes a JSON report.
//!
//! `eval_ask QUESTIONS.jsonl PDF_DIR OUT.json [MODES] [LIMIT]` — MODES is a comma list
//! (default `fast,agentic,agentic_graph`), LIMIT the number of questions (default all).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use nanoindex::ask::verify::supported_by;
use nanoindex::llm::{load_embedder, load_generator, LlmOptions};
use nanoindex::{ask, cache_root, AskDocument, AskOptions, Config, Mode, NanoIndex};
use nanoindex_retrieve::analysis::numbers_in;
use serde_json::{json, Value};

fn gold_figure(answer: &str) -> Option<nanoindex_retrieve::analysis::NumberMention> {
    let short = answer.trim();
    if short.len() > 24 {
        return None;
    }
    numbers_in(short).into_iter().next()
}

/// Whether the answer states the expected value: one of `accept` (case-insensitive,
/// whitespace folded; a figure also by its number), else FinanceBench's short gold figure.
/// `None` when the question has no checkable value.
fn value_in_answer(q: &Value, answer: &str) -> Option<bool> {
    let fold = |s: &str| {
        s.replace(['–', '—', '‑'], "-")
            .replace('\u{ad}', "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    if let Some(accept) = q["accept"].as_array().filter(|a| !a.is_empty()) {
        // A yes/no answer is judged by its first word ("no" occurs inside most answers).
        if q["answer_type"].as_str() == Some("yes_no") {
            let first = answer
                .split(|c: char| !c.is_alphabetic())
                .find(|w| !w.is_empty())
                .unwrap_or("")
                .to_lowercase();
            return Some(
                accept
                    .iter()
                    .filter_map(Value::as_str)
                    .any(|a| a.to_lowercase() == first),
            );
        }
        let content = fold(answer);
        let numbers = numbers_in(answer);
        // A figure is also matched by its number ("$115 million" by "115,000,000"); a date or
        // a name never is ("2023-08-25" is no number that "January 18, 2019" could support).
        let figure = matches!(
            q["answer_type"].as_str(),
            Some("amount" | "money" | "percentage" | "percent" | "count" | "number")
        );
        return Some(accept.iter().filter_map(Value::as_str).any(|a| {
            content.contains(&fold(a))
                || (figure
                    && gold_figure(a).is_some_and(|g| {
                        a.chars().filter(char::is_ascii_digit).count() >= 3
                            && supported_by(&g, &numbers)
                    }))
        }));
    }
    let gold = q["answer"].as_str().unwrap_or("");
    gold_figure(gold).map(|g| supported_by(&g, &numbers_in(answer)))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: eval_ask QUESTIONS.jsonl PDF_DIR OUT.json [MODES] [LIMIT]");
        std::process::exit(2);
    }
    let questions_path = PathBuf::from(&args[0]);
    let pdf_dir = PathBuf::from(&args[1]);
    let out = PathBuf::from(&args[2]);
    let modes: Vec<Mode> = args
        .get(3)
        .map_or("fast,agentic,agentic_graph", String::as_str)
        .split(',')
        .map(|m| m.parse().expect("mode"))
        .collect();
    let limit: usize = args
        .get(4)
        .map_or(usize::MAX, |s| s.parse().expect("LIMIT"));
    let questions: Vec<Value> = std::fs::read_to_string(&questions_path)
        .expect("questions file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .take(limit)
        .collect();
    let embedder = load_embedder(None).ok();
    if embedder.is_none() {
        eprintln!("warning: no embedding model; lexical retrieval only");
    }
    let engine = NanoIndex::new(Config::default());
    let cache = cache_root();
    let mut docs: BTreeMap<String, AskDocument> = BTreeMap::new();
    for q in &questions {
        let name = q["doc_name"].as_str().expect("doc_name").to_string();
        if docs.contains_key(&name) {
            continue;
        }
        let path = pdf_dir.join(format!("{name}.pdf"));
        let t = Instant::now();
        let prepared = engine
            .prepare_pdf(&path, embedder.as_deref(), cache.as_deref(), &mut |m| {
                eprintln!("{m}")
            })
            .expect("prepare");
        eprintln!("prepared {name} in {:.1} s", t.elapsed().as_secs_f64());
        docs.insert(name, prepared.document);
    }
    let mut model = load_generator("", &LlmOptions::default()).expect("default model");
    let model_name = model.info().name.clone();
    let mut rows = Vec::new();
    let mut totals = serde_json::Map::new();
    for mode in &modes {
        let (mut read_hits, mut cite_hits, mut correct, mut numeric) = (0, 0, 0, 0);
        let (mut answerable, mut unanswerable, mut abstained) = (0, 0, 0);
        let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
        let mut by_type: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let (mut pages_sum, mut pages_max, mut calls_sum, mut secs_sum) =
            (0usize, 0usize, 0usize, 0.0);
        let mut secs_all = Vec::new();
        for q in &questions {
            let name = q["doc_name"].as_str().expect("doc_name");
            let question = q["question"].as_str().expect("question");
            let gold = q["answer"].as_str().unwrap_or("");
            let evidence: Vec<u64> = q["evidence_pages"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            let options = AskOptions {
                mode: *mode,
                ..AskOptions::default()
            };
            let t = Instant::now();
            let answer = ask(
                &docs[name],
                question,
                model.as_mut(),
                embedder.as_deref(),
                &options,
                &mut |_| {},
            )
            .expect("ask");
            let secs = t.elapsed().as_secs_f64();
            let trace = answer.trace.clone().unwrap_or(Value::Null);
            let pages_read: Vec<u64> = trace["pages_read"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            let cited: Vec<u64> = answer
                .citations
                .iter()
                .flat_map(|c| c.pages.iter().map(|&p| u64::from(p)))
                .collect();
            let status = answer.status.map_or("none", |s| s.as_str()).to_string();
            *statuses.entry(status.clone()).or_default() += 1;
            let is_answerable = q["answerable"].as_bool().unwrap_or(true);
            let in_read = pages_read.iter().any(|p| evidence.contains(p));
            let in_cited = cited.first().is_some_and(|p| evidence.contains(p));
            let gold_ok = if is_answerable {
                value_in_answer(q, &answer.content)
            } else {
                Some(status == "not_found" && answer.citations.is_empty())
            };
            let calls = trace["llm_calls"].as_array().map_or(0, Vec::len);
            if is_answerable {
                answerable += 1;
                read_hits += usize::from(in_read);
                cite_hits += usize::from(in_cited);
                if let Some(ok) = gold_ok {
                    numeric += 1;
                    correct += usize::from(ok);
                    let kind = q["answer_type"].as_str().unwrap_or("figure").to_string();
                    let entry = by_type.entry(kind).or_default();
                    entry.0 += 1;
                    entry.1 += usize::from(ok);
                }
            } else {
                unanswerable += 1;
                abstained += usize::from(gold_ok == Some(true));
            }
            pages_sum += pages_read.len();
            pages_max = pages_max.max(pages_read.len());
            calls_sum += calls;
            secs_sum += secs;
            secs_all.push(secs);
            eprintln!(
                "{} {:<5} cited {} gold {} | {name}: {}",
                mode.as_str(),
                if in_read { "READ" } else { "-" },
                in_cited,
                gold_ok.map_or("n/a".to_string(), |b| b.to_string()),
                answer
                    .content
                    .chars()
                    .take(90)
                    .collect::<String>()
                    .replace('\n', " ")
            );
            rows.push(json!({
                "id": q["financebench_id"], "doc": name, "mode": mode.as_str(), "question": question,
                "gold": gold, "answerable": is_answerable, "status": status, "evidence_pages": evidence, "pages_read": pages_read,
                "cited_pages": cited, "evidence_in_read": in_read, "evidence_in_cited": in_cited,
                "gold_in_answer": gold_ok, "llm_calls": calls,
                "prompt_tokens": trace["prompt_tokens"], "completion_tokens": trace["completion_tokens"],
                "seconds": (secs * 100.0).round() / 100.0, "answer": answer.content,
                "reader": trace["reader"],
            }));
        }
        let n = questions.len().max(1) as f64;
        let a = answerable.max(1) as f64;
        secs_all.sort_by(f64::total_cmp);
        let median = secs_all.get(secs_all.len() / 2).copied().unwrap_or(0.0);
        let summary = json!({
            "questions": questions.len(),
            "answerable": answerable,
            "evidence_in_pages_read": read_hits as f64 / a,
            "cited_page_exact": cite_hits as f64 / a,
            "value_in_answer": if numeric > 0 { json!(correct as f64 / numeric as f64) } else { Value::Null },
            "questions_with_value": numeric,
            "value_in_answer_by_type": by_type.iter().map(|(k, (n, ok))| (k.clone(), json!(format!("{ok}/{n}")))).collect::<serde_json::Map<_, _>>(),
            "unanswerable": unanswerable,
            "not_found_when_absent": if unanswerable > 0 { json!(abstained as f64 / unanswerable as f64) } else { Value::Null },
            "statuses": statuses,
            "mean_pages_read": pages_sum as f64 / n,
            "max_pages_read": pages_max,
            "mean_llm_calls": calls_sum as f64 / n,
            "mean_seconds": secs_sum / n,
            "median_seconds": median,
        });
        println!("{}: {}", mode.as_str(), summary);
        totals.insert(mode.as_str().to_string(), summary);
    }
    let report = json!({
        "model": model_name,
        "dense_retrieval": embedder.is_some(),
        "totals": totals,
        "questions": rows,
    });
    std::fs::write(&out, serde_json::to_vec_pretty(&report).expect("json")).expect("write report");
    eprintln!("report written to {}", out.display());
}
