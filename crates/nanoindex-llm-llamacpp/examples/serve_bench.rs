//! Throughput of continuous batching ([`TextGenerator::serve`]) against the number of
//! conversations in flight, on conversations shaped like enrichment's: each reads one
//! window of about 900 tokens of real text for a summary (80 tokens at most), then, in the
//! same conversation, lists its names (128 tokens at most).
//!
//! Prints, per number of sequences: conversations, most in flight at once, wall seconds,
//! prompt tokens evaluated (cached prefixes excluded), generated tokens, generated tokens
//! per second of wall time, and all tokens (evaluated and generated) per second.
//!
//! `cargo run -p nanoindex-llm-llamacpp --example serve_bench -- MODEL.gguf THREADS TEXT
//! [CONVERSATIONS] [SEQUENCES]` (TEXT: a plain-text file, cut into windows of about 3,600
//! characters at blank lines; CONVERSATIONS default 12; SEQUENCES comma-separated, default
//! `1,4,8`). The context holds 2,048 tokens per sequence, up to the model's own length.

use std::path::PathBuf;
use std::time::Instant;

use nanoindex_llm::{ChatMessage, Conversations, GenerateRequest, Generation, TextGenerator};
use nanoindex_llm_llamacpp::{LlamaCppConfig, LlamaCppGenerator};

const WINDOW_CHARS: usize = 3_600;

struct Windows {
    windows: Vec<String>,
    next: usize,
    turns: Vec<usize>,
    in_flight: usize,
    most_in_flight: usize,
    prompt_tokens: u64,
    completion_tokens: u64,
}

impl Conversations for Windows {
    fn start(&mut self, _idle: bool) -> Option<(usize, GenerateRequest)> {
        let text = self.windows.get(self.next)?;
        self.next += 1;
        self.in_flight += 1;
        self.most_in_flight = self.most_in_flight.max(self.in_flight);
        let request = GenerateRequest::chat(
            "Summarise the passage in one or two sentences, in your own words.",
            text,
        )
        .with_max_tokens(80);
        Some((self.next - 1, request))
    }

    fn reply(
        &mut self,
        id: usize,
        reply: nanoindex_llm::Result<Generation>,
    ) -> Option<GenerateRequest> {
        let reply = reply.ok()?;
        self.prompt_tokens += u64::from(
            reply
                .n_prompt_tokens
                .saturating_sub(reply.n_cached_prompt_tokens),
        );
        self.completion_tokens += u64::from(reply.n_completion_tokens);
        self.turns[id] += 1;
        if self.turns[id] > 1 {
            self.in_flight -= 1;
            return None;
        }
        let mut request = GenerateRequest::chat(
            "Summarise the passage in one or two sentences, in your own words.",
            &self.windows[id],
        )
        .with_max_tokens(128);
        request.messages.push(ChatMessage::assistant(reply.text));
        request.messages.push(ChatMessage::user(
            "List the names of companies, people and places in the passage as a JSON array.",
        ));
        Some(request)
    }
}

/// `text` cut at blank lines into windows of about [`WINDOW_CHARS`] characters.
fn windows(text: &str, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for paragraph in text.split("\n\n") {
        if current.len() + paragraph.len() > WINDOW_CHARS && !current.is_empty() {
            out.push(std::mem::take(&mut current));
            if out.len() == n {
                return out;
            }
        }
        let room = WINDOW_CHARS.saturating_sub(current.len());
        let mut cut = paragraph.len().min(room.max(1));
        while !paragraph.is_char_boundary(cut) {
            cut -= 1;
        }
        current.push_str(&paragraph[..cut]);
        current.push_str("\n\n");
    }
    if !current.trim().is_empty() && out.len() < n {
        out.push(current);
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: serve_bench MODEL.gguf THREADS TEXT [CONVERSATIONS] [SEQUENCES]";
    let model = PathBuf::from(args.first().ok_or(usage)?);
    let threads: usize = args.get(1).ok_or(usage)?.parse()?;
    let text = std::fs::read_to_string(args.get(2).ok_or(usage)?)?;
    let n: usize = args.get(3).map_or(Ok(12), |a| a.parse())?;
    let sizes: Vec<u32> = args
        .get(4)
        .map_or("1,4,8", String::as_str)
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let windows = windows(&text, n);
    println!(
        "{} conversations of two turns on windows of about {WINDOW_CHARS} characters, {threads} \
         threads",
        windows.len()
    );
    println!("sequences  in-flight  wall_s  prompt_tok  gen_tok  gen_tok/s  all_tok/s");
    for &size in &sizes {
        let mut llm = LlamaCppGenerator::load(
            &model,
            LlamaCppConfig {
                n_threads: Some(threads),
                n_ctx: 2048 * size,
                n_seq_max: size,
                serve_sequences: size,
                ..LlamaCppConfig::default()
            },
        )?;
        let mut work = Windows {
            turns: vec![0; windows.len()],
            windows: windows.clone(),
            next: 0,
            in_flight: 0,
            most_in_flight: 0,
            prompt_tokens: 0,
            completion_tokens: 0,
        };
        let started = Instant::now();
        llm.serve(&mut work)?;
        let wall = started.elapsed().as_secs_f64();
        println!(
            "{size:>9}  {:>9}  {wall:>6.1}  {:>10}  {:>7}  {:>9.1}  {:>9.1}",
            work.most_in_flight,
            work.prompt_tokens,
            work.completion_tokens,
            work.completion_tokens as f64 / wall,
            (work.prompt_tokens + work.completion_tokens) as f64 / wall,
        );
    }
    Ok(())
}
