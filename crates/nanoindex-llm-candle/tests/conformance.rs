//! Conformance of the candle backend: the shared suite (`nanoindex-llm-conformance`, the same
//! checks as every backend) with the real default model (SmolLM2-135M-Instruct Q4_1) and the
//! second test model (Gemma 3 270M), plus what only candle has: its prompt rendering from the
//! GGUF's template and the memory of its context. With `CI=true` a missing model fails the
//! test; elsewhere the test is skipped with a printed reason.

use std::path::Path;

use nanoindex_llm::{GenerateRequest, LlmError, TextGenerator};
use nanoindex_llm_candle::{CandleConfig, CandleGenerator};
use nanoindex_llm_conformance::{conformance_tests, model_path, quiet, GEMMA};
use nanoindex_models::DEFAULT_TEXT_MODEL;

fn config(n_ctx: u32) -> CandleConfig {
    CandleConfig {
        n_threads: Some(1),
        n_ctx,
        ..CandleConfig::default()
    }
}

fn load_boxed(path: &Path, n_ctx: u32) -> Result<Box<dyn TextGenerator>, LlmError> {
    Ok(Box::new(CandleGenerator::load(path, config(n_ctx))?))
}

conformance_tests!(backend: "candle", load: load_boxed);

fn load(name: &str) -> Option<CandleGenerator> {
    let path = model_path(name)?;
    Some(CandleGenerator::load(&path, config(2048)).expect("the model loads"))
}

#[test]
fn smollm2_prompt_comes_from_the_gguf_template() {
    let Some(generator) = load(DEFAULT_TEXT_MODEL) else {
        return;
    };
    assert!(generator.has_chat_template());
    let prompt = generator
        .render_prompt(&GenerateRequest::chat("Be brief.", "Hi"))
        .unwrap();
    assert_eq!(
        prompt,
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
    );
    // The GGUF's own template adds its default system prompt when none is given.
    let prompt = generator
        .render_prompt(&GenerateRequest::chat("", "Hi"))
        .unwrap();
    assert!(
        prompt.starts_with("<|im_start|>system\nYou are a helpful AI assistant named SmolLM"),
        "{prompt}"
    );
    let Some(gemma) = load(GEMMA) else {
        return;
    };
    assert!(!gemma.has_chat_template());
}

#[test]
fn context_memory_is_bounded_by_the_context_used() {
    let Some(mut generator) = load(GEMMA) else {
        return;
    };
    let memory = generator.context_memory();
    // Gemma 3 270M: head dimension 256, two RoPE tables (local and global layers) of 2048
    // positions × 128 frequencies × (cos, sin) × 4 bytes = 4 MiB in all, not 18 layers ×
    // 131,072 positions (~2.4 GB) as candle-transformers builds.
    assert_eq!(memory.rope_table_bytes, 2 * 2048 * 128 * 2 * 4);
    assert_eq!(memory.kv_cache_bytes, 0);
    let request = GenerateRequest::chat("", "The capital of France is").with_max_tokens(4);
    generator.generate(&request, &mut quiet).unwrap();
    // 18 layers × (k, v) × 1 key/value head × 64 positions (first allocation) × 256 × 4.
    assert_eq!(
        generator.context_memory().kv_cache_bytes,
        18 * 2 * 64 * 256 * 4
    );
}
