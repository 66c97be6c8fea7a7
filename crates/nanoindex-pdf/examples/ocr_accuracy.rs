//! OCR accuracy and speed on real pages: pages of a born-digital PDF are scanned
//! (`write::image_only_copy_pages`, grey at DPI), read back by OCR, and their words compared
//! with the file's own text layer (word accuracy: the longest common subsequence of words
//! over the text layer's word count). Prints one JSON object. Used by
//! `scripts/bench-ocr.sh`.
//!
//! Usage: `ocr_accuracy IN.pdf FIRST-LAST [DPI] [WORKER-PROGRAM WORKERS]` — with a worker
//! program (the `nanoindex-local` binary) pages are shared with WORKERS `ocr-worker`
//! processes.

use std::process::ExitCode;
use std::time::Instant;

use nanoindex_pdf::ocr::OcrWorkers;
use nanoindex_pdf::{extract_bytes, ExtractOptions, OcrMode, OcrOptions};

fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn lcs(a: &[String], b: &[String]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    for x in a {
        let mut cur = vec![0usize; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        prev = cur;
    }
    prev[b.len()]
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(range)) = (args.first(), args.get(1)) else {
        eprintln!("usage: ocr_accuracy IN.pdf FIRST-LAST [DPI] [WORKER-PROGRAM WORKERS]");
        return ExitCode::from(2);
    };
    let Some((first, last)) = range
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
        .filter(|(a, b)| *a >= 1 && a <= b)
    else {
        eprintln!("error: pages must be FIRST-LAST, 1-based");
        return ExitCode::from(2);
    };
    let dpi: f32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(200.0);
    let workers = match (args.get(3), args.get(4).and_then(|n| n.parse().ok())) {
        (Some(program), Some(count)) => Some(OcrWorkers {
            command: program.into(),
            args: vec!["ocr-worker".to_string()],
            count,
            hand_off: false,
        }),
        _ => None,
    };
    let run = || -> Result<String, String> {
        let bytes = std::fs::read(input).map_err(|e| format!("cannot read `{input}`: {e}"))?;
        let never = ExtractOptions {
            ocr: OcrOptions {
                mode: OcrMode::Never,
                ..OcrOptions::default()
            },
            ..ExtractOptions::default()
        };
        let original = extract_bytes(&bytes, input, &never).map_err(|e| e.to_string())?;
        let scan =
            nanoindex_pdf::write::image_only_copy_pages(&bytes, input, dpi, Some((first, last)))
                .map_err(|e| e.to_string())?;
        let options = ExtractOptions {
            ocr_workers: workers.clone(),
            ..ExtractOptions::default()
        };
        let started = Instant::now();
        let read = extract_bytes(&scan, "scan.pdf", &options).map_err(|e| e.to_string())?;
        let seconds = started.elapsed().as_secs_f64();
        let (mut reference, mut found) = (0usize, 0usize);
        let mut confidences = Vec::new();
        for page in &read.pages {
            let source = &original.pages[(first + page.page_no - 2) as usize];
            let truth = words(&source.plain_text());
            reference += truth.len();
            found += lcs(&truth, &words(&page.plain_text()));
            confidences.push(page.ocr_confidence.unwrap_or(0.0));
        }
        let pages = read.pages.len();
        Ok(serde_json::json!({
            "file": input,
            "pages": pages,
            "dpi": dpi,
            "worker_processes": workers.as_ref().map_or(0, |w| w.count),
            "seconds": seconds,
            "pages_per_second": pages as f64 / seconds,
            "reference_words": reference,
            "word_accuracy": found as f64 / reference.max(1) as f64,
            "mean_confidence": confidences.iter().sum::<f32>() / confidences.len().max(1) as f32,
        })
        .to_string())
    };
    match run() {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
