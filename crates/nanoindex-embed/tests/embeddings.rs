//! Tests of the BERT embedder with the real all-MiniLM-L6-v2 model from the models
//! directory (install with `scripts/fetch-models.sh`). With `CI=true` a missing model fails
//! the test; elsewhere the test is skipped with a printed reason.

use nanoindex_embed::BertEmbedder;
use nanoindex_llm::{Embedder, LlmError};
use nanoindex_models::{default_models_dir, ModelManifest, DEFAULT_EMBEDDING_MODEL};

fn load() -> Option<BertEmbedder> {
    let manifest = ModelManifest::builtin();
    let entry = manifest.get(DEFAULT_EMBEDDING_MODEL).unwrap();
    let dir = default_models_dir().map(|models| entry.directory(&models));
    match dir {
        Some(dir) if dir.join("model.safetensors").is_file() => {
            Some(BertEmbedder::load(&dir).unwrap())
        }
        _ => {
            let reason = format!(
                "embedding model `{DEFAULT_EMBEDDING_MODEL}` is not installed; run `scripts/fetch-models.sh`"
            );
            nanoindex_llm_conformance::skip(&reason);
            None
        }
    }
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn vectors_are_unit_length_with_the_model_dimension() {
    let Some(embedder) = load() else { return };
    assert_eq!(embedder.dimension(), 384);
    assert_eq!(embedder.model_name(), "all-MiniLM-L6-v2");
    let vectors = embedder.embed(&["Revenue increased.", "", "x"]).unwrap();
    assert_eq!(vectors.len(), 3);
    for vector in &vectors {
        assert_eq!(vector.len(), 384);
        let norm = cosine(vector, vector).sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
    }
    assert!(embedder.embed(&[]).unwrap().is_empty());
}

#[test]
fn paraphrases_score_higher_than_unrelated_pairs() {
    let Some(embedder) = load() else { return };
    let pairs = [
        (
            "The company's revenue grew last year.",
            "Sales increased over the previous year.",
        ),
        ("The cat sits on the mat.", "A cat is sitting on a rug."),
        (
            "How do I reset my password?",
            "What are the steps to change my password?",
        ),
        (
            "The board approved a dividend.",
            "Directors authorised a payout to shareholders.",
        ),
    ];
    let unrelated = [
        (
            "The company's revenue grew last year.",
            "A cat is sitting on a rug.",
        ),
        (
            "How do I reset my password?",
            "Directors authorised a payout to shareholders.",
        ),
        (
            "The cat sits on the mat.",
            "Sales increased over the previous year.",
        ),
        (
            "The board approved a dividend.",
            "What are the steps to change my password?",
        ),
    ];
    let score = |(a, b): (&str, &str)| {
        let v = embedder.embed(&[a, b]).unwrap();
        cosine(&v[0], &v[1])
    };
    let worst_paraphrase = pairs
        .iter()
        .map(|p| score(*p))
        .fold(f32::INFINITY, f32::min);
    let best_unrelated = unrelated
        .iter()
        .map(|p| score(*p))
        .fold(f32::NEG_INFINITY, f32::max);
    assert!(
        worst_paraphrase > best_unrelated + 0.2,
        "paraphrase {worst_paraphrase} vs unrelated {best_unrelated}"
    );
}

#[test]
fn batch_and_single_results_agree() {
    let Some(embedder) = load() else { return };
    let texts = [
        "Short.",
        "A much longer sentence about cash flows from operating activities in 2023.",
        "Net income was 1,577 million dollars (compared with 1,373 million).",
        "Überschuss und Verbindlichkeiten — nicht-englischer Text.",
    ];
    let batch = embedder.embed(&texts).unwrap();
    for (text, batched) in texts.iter().zip(&batch) {
        let single = &embedder.embed(&[text]).unwrap()[0];
        let max_diff = single
            .iter()
            .zip(batched)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(max_diff < 1e-5, "{text}: max difference {max_diff}");
    }
}

#[test]
fn corrupt_weights_are_an_error_not_a_panic() {
    let Some(_) = load() else { return };
    let models = default_models_dir().unwrap();
    let source = ModelManifest::builtin()
        .get(DEFAULT_EMBEDDING_MODEL)
        .unwrap()
        .directory(&models);
    let dir = tempfile::tempdir().unwrap();
    for file in ["config.json", "tokenizer.json"] {
        std::fs::copy(source.join(file), dir.path().join(file)).unwrap();
    }
    std::fs::write(
        dir.path().join("model.safetensors"),
        b"\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":",
    )
    .unwrap();
    let error = BertEmbedder::load(dir.path()).unwrap_err();
    assert!(
        matches!(
            error,
            LlmError::InvalidModelFile { .. } | LlmError::Load { .. }
        ),
        "{error}"
    );
}
