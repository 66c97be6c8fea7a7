//! Aggregate decode speed of [`LlamaCppGenerator::generate_batch`] against the number of
//! sequences decoded together: what continuous batching of enrichment requests can gain on
//! this machine (issue: model throughput, item 3).
//!
//! Each sequence gets its own prompt (a different topic, about 50 tokens) and generates
//! exactly `N_OUT` tokens (no stop string can match), so every batch size decodes the same
//! work per sequence. Prints, per batch size: sequences, wall seconds (prompts included),
//! generated tokens, generated tokens per second of wall time, and of the decode loop alone
//! (the batch's `decode_ms`, which every sequence of one group shares).
//!
//! `cargo run -p nanoindex-llm-llamacpp --example batch_decode -- MODEL.gguf [THREADS] [SIZES]`
//! (SIZES: comma-separated, default `1,2,4,8`).

use std::path::PathBuf;
use std::time::Instant;

use nanoindex_llm::{GenerateRequest, TextGenerator};
use nanoindex_llm_llamacpp::{LlamaCppConfig, LlamaCppGenerator};

const N_OUT: u32 = 96;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let model = PathBuf::from(
        args.first()
            .ok_or("usage: batch_decode MODEL.gguf [THREADS] [SIZES]")?,
    );
    let threads = args.get(1).map(|t| t.parse()).transpose()?;
    let sizes: Vec<usize> = args
        .get(2)
        .map_or("1,2,4,8", String::as_str)
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let n_seq_max = u32::try_from(sizes.iter().copied().max().unwrap_or(1))?;
    let mut llm = LlamaCppGenerator::load(
        &model,
        LlamaCppConfig {
            n_threads: threads,
            n_seq_max,
            ..LlamaCppConfig::default()
        },
    )?;
    let topics = [
        "revenue grew twelve percent on cloud subscriptions",
        "the court granted the motion to dismiss in part",
        "the policy excludes flood damage to basements",
        "the trial enrolled 412 patients across nine sites",
        "net debt fell after the sale of the packaging unit",
        "the lease term is five years with two renewals",
        "the regulation applies to banks with assets over ten billion",
        "the model reached state of the art on three benchmarks",
    ];
    println!(
        "{:>9} {:>8} {:>10} {:>12} {:>14}",
        "sequences", "wall_s", "generated", "tokens_per_s", "decode_tok_s"
    );
    for &size in &sizes {
        let requests: Vec<GenerateRequest> = (0..size)
            .map(|i| {
                let topic = topics[i % topics.len()];
                GenerateRequest::chat(
                    "You write long, detailed reports.",
                    &format!(
                        "Write a long report about this: {topic}. Explain the background, the \
                         figures, what it means and what comes next, at length."
                    ),
                )
                .with_max_tokens(N_OUT)
                .with_stop(["never-appears-stop"])
            })
            .collect();
        let start = Instant::now();
        let replies = llm.generate_batch(&requests)?;
        let wall = start.elapsed().as_secs_f64();
        let generated: u32 = replies.iter().map(|r| r.n_completion_tokens).sum();
        // The first token of each sequence comes from its prompt's logits; the decode loop
        // of one group is shared, so its time is the longest `decode_ms` of the replies.
        let decoded: u32 = replies
            .iter()
            .map(|r| r.n_completion_tokens.saturating_sub(1))
            .sum();
        let decode_s = replies.iter().map(|r| r.decode_ms).fold(0.0, f64::max) / 1000.0;
        println!(
            "{size:>9} {wall:>8.2} {generated:>10} {:>12.1} {:>14.1}",
            f64::from(generated) / wall,
            f64::from(decoded) / decode_s.max(f64::EPSILON)
        );
    }
    Ok(())
}
