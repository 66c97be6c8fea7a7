//! `nanoindex-local generate`: runs a text model on one prompt, for trying a model from
//! the shell. Streams the reply to stdout; `--json` prints the result with token counts and
//! timings instead.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use nanoindex::llm::{load_generator, GenerateRequest, TokenControl};

use crate::args::LlmArgs;

/// Arguments of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The prompt (sent as the user message).
    prompt: String,
    /// The text model.
    #[command(flatten)]
    model: LlmArgs,
    /// A system message put before the prompt.
    #[arg(long)]
    system: Option<String>,
    /// A JSON Schema file; the reply is constrained to JSON that satisfies it.
    #[arg(long, value_name = "FILE")]
    json_schema: Option<PathBuf>,
    /// Most tokens to generate.
    #[arg(long, default_value_t = 256)]
    max_tokens: u32,
    /// Sampling temperature; 0 decodes greedily (deterministic).
    #[arg(long, default_value_t = 0.0)]
    temperature: f32,
    /// Nucleus sampling mass, used when temperature > 0.
    #[arg(long, default_value_t = 1.0)]
    top_p: f32,
    /// Seed of the sampler, used when temperature > 0.
    #[arg(long, default_value_t = 0)]
    seed: u32,
    /// Stop before this string (repeatable).
    #[arg(long)]
    stop: Vec<String>,
    /// Print the result as JSON (text, model, token counts, timings) instead of streaming.
    #[arg(long)]
    json: bool,
}

/// Runs `generate`.
pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let mut request = GenerateRequest::chat(args.system.as_deref().unwrap_or(""), &args.prompt)
        .with_max_tokens(args.max_tokens)
        .with_sampling(args.temperature, args.top_p, args.seed)
        .with_stop(args.stop);
    if let Some(path) = &args.json_schema {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read JSON schema `{}`", path.display()))?;
        let schema: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("`{}` is not valid JSON", path.display()))?;
        request = request.with_json_schema(schema);
    }
    let mut model =
        load_generator(&args.model.llm, &args.model.options()).context("cannot load the model")?;
    let mut stdout = std::io::stdout().lock();
    let generation = if args.json {
        model.generate(&request, &mut |_| TokenControl::Continue)?
    } else {
        let mut write_failed = false;
        let generation = model.generate(&request, &mut |piece| {
            // A closed stdout (for example `| head`) ends generation early.
            if stdout
                .write_all(piece.as_bytes())
                .and_then(|()| stdout.flush())
                .is_err()
            {
                write_failed = true;
                return TokenControl::Stop;
            }
            TokenControl::Continue
        })?;
        if !write_failed {
            // Ignore a closed pipe here as well: the text was already delivered.
            let _ = writeln!(stdout);
        }
        generation
    };
    let info = model.info();
    if args.json {
        let value = serde_json::json!({
            "text": generation.text,
            "model": info,
            "stop_reason": generation.stop_reason,
            "n_prompt_tokens": generation.n_prompt_tokens,
            "n_cached_prompt_tokens": generation.n_cached_prompt_tokens,
            "n_completion_tokens": generation.n_completion_tokens,
            "prefill_ms": generation.prefill_ms,
            "decode_ms": generation.decode_ms,
            "prefill_tokens_per_s": generation.prefill_tokens_per_s(),
            "decode_tokens_per_s": generation.decode_tokens_per_s(),
            "tokens": generation.tokens,
        });
        writeln!(stdout, "{}", serde_json::to_string_pretty(&value)?)?;
    } else {
        eprintln!(
            "{} ({}): prompt {} tokens at {:.1} tokens/s, generated {} tokens at {:.1} tokens/s",
            info.name,
            info.backend,
            generation.n_prompt_tokens,
            generation.prefill_tokens_per_s(),
            generation.n_completion_tokens,
            generation.decode_tokens_per_s(),
        );
    }
    Ok(ExitCode::SUCCESS)
}
