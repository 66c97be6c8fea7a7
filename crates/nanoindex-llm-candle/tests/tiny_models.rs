//! qwen2 and qwen3 have no real weights on this machine: these tests write tiny GGUF files
//! with random weights in the right shapes and a tiny byte-level BPE vocabulary, then check
//! loading, forward output shapes, the tokenizer round trip, prefix reuse and that a JSON
//! Schema constrains even a model that knows nothing.

mod common;

use common::{write_tiny_gguf, Tiny};
use nanoindex_llm::{GenerateRequest, StopReason, TextGenerator, TokenControl};
use nanoindex_llm_candle::{CandleConfig, CandleGenerator, TokenizerKind};

fn load(architecture: &str) -> (tempfile::TempDir, CandleGenerator) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("tiny-{architecture}.gguf"));
    write_tiny_gguf(
        &path,
        &Tiny {
            architecture,
            ..Tiny::default()
        },
    );
    let config = CandleConfig {
        n_threads: Some(1),
        n_ctx: 128,
        ..CandleConfig::default()
    };
    let generator = CandleGenerator::load(&path, config).expect("the tiny model loads");
    (dir, generator)
}

fn check_architecture(architecture: &str) {
    let (_dir, mut generator) = load(architecture);
    let info = generator.info().clone();
    assert_eq!(info.architecture, architecture);
    assert_eq!(info.name, format!("tiny-{architecture}"));
    assert_eq!(info.vocab_size, 3 + 256 + 6);
    assert_eq!(info.context_length, 256);
    assert_eq!(info.context_length_used, 128);
    assert_eq!(generator.tokenizer().kind(), TokenizerKind::BytePairGpt2);

    // Tokenizer: merges apply, control tokens are parsed, everything round-trips.
    let text = "hello the world, héllo 漢字 🙂\n\n  x";
    let ids = generator.tokenize(text).unwrap();
    assert_eq!(generator.tokenizer().decode(&ids), text);
    let hello = generator.tokenize("hello").unwrap();
    assert_eq!(hello.len(), 1, "{hello:?}");
    assert_eq!(generator.tokenizer().token_text(hello[0]), Some("hello"));
    assert_eq!(generator.tokenize("<|im_end|>").unwrap(), vec![2]);

    // Forward: one logit per vocabulary entry, all finite; the same tokens give the same
    // logits whether evaluated at once or after a cached prefix.
    let logits = generator.next_token_logits(&ids).unwrap();
    assert_eq!(logits.len(), info.vocab_size as usize);
    assert!(logits.iter().all(|l| l.is_finite()));
    let again = generator.next_token_logits(&ids).unwrap();
    assert_eq!(logits, again);

    let request = GenerateRequest::chat("sys", "hello").with_max_tokens(6);
    let quiet = &mut |_: &str| TokenControl::Continue;
    let first = generator.generate(&request, quiet).unwrap();
    let second = generator.generate(&request, quiet).unwrap();
    assert_eq!(first.tokens, second.tokens);
    assert_eq!(second.n_cached_prompt_tokens, second.n_prompt_tokens - 1);
    assert!(first.n_completion_tokens <= 6);

    // A random model writes valid JSON only because the constraint makes it.
    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "kind": { "enum": ["revenue", "expense"] },
            "flag": { "type": "boolean" }
        },
        "required": ["kind", "flag"],
        "additionalProperties": false
    });
    for seed in 0..3 {
        let request = GenerateRequest::chat("", "json")
            .with_max_tokens(64)
            .with_sampling(1.0, 1.0, seed)
            .with_json_schema(schema.clone());
        let generation = generator.generate(&request, quiet).unwrap();
        assert_eq!(
            generation.stop_reason,
            StopReason::EndOfGeneration,
            "{generation:?}"
        );
        let value: serde_json::Value = serde_json::from_str(&generation.text)
            .unwrap_or_else(|e| panic!("{:?}: {e}", generation.text));
        assert!(value["flag"].is_boolean(), "{value}");
        assert!(["revenue", "expense"].contains(&value["kind"].as_str().unwrap()));
    }
}

#[test]
fn tiny_qwen2_loads_runs_and_tokenizes() {
    check_architecture("qwen2");
}

#[test]
fn tiny_qwen3_loads_runs_and_tokenizes() {
    check_architecture("qwen3");
}
