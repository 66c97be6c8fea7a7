//! Files that are not usable models give errors that say why, never a panic: missing,
//! not GGUF, corrupt, truncated, wrong architecture, missing or unsupported tokenizer.

mod common;

use std::path::Path;

use common::{write_tiny_gguf, Tiny};
use nanoindex_llm::LlmError;
use nanoindex_llm_candle::{CandleConfig, CandleGenerator};
use nanoindex_llm_conformance::model_path;
use nanoindex_models::DEFAULT_TEXT_MODEL;

fn load_error(path: &Path) -> LlmError {
    let config = CandleConfig {
        n_threads: Some(1),
        n_ctx: 128,
        ..CandleConfig::default()
    };
    CandleGenerator::load(path, config).expect_err("loading must fail")
}

fn write_temp(bytes: &[u8]) -> tempfile::NamedTempFile {
    let file = tempfile::Builder::new().suffix(".gguf").tempfile().unwrap();
    std::fs::write(file.path(), bytes).unwrap();
    file
}

#[test]
fn missing_file_is_model_not_found() {
    let error = load_error(Path::new("/nonexistent/model.gguf"));
    assert!(matches!(error, LlmError::ModelNotFound { .. }), "{error}");
}

#[test]
fn text_file_and_empty_file_are_not_gguf() {
    for bytes in [&b"this is a README, not a model\n"[..], b"", b"GGU"] {
        let file = write_temp(bytes);
        let error = load_error(file.path());
        assert!(
            matches!(error, LlmError::InvalidModelFile { .. }),
            "{error}"
        );
        assert!(
            error.to_string().contains("does not start with `GGUF`"),
            "{error}"
        );
    }
    let file = write_temp(b"GGUF\x09\x00\x00\x00rest");
    let error = load_error(file.path()).to_string();
    assert!(error.contains("unsupported GGUF version `9`"), "{error}");
}

#[test]
fn corrupt_gguf_is_an_invalid_file() {
    // A valid header followed by garbage where the metadata should be.
    let mut bytes = b"GGUF".to_vec();
    bytes.extend(3_u32.to_le_bytes());
    bytes.extend(2_u64.to_le_bytes());
    bytes.extend(3_u64.to_le_bytes());
    bytes.extend((0..4096_u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8));
    let file = write_temp(&bytes);
    let error = load_error(file.path());
    assert!(
        matches!(error, LlmError::InvalidModelFile { .. }),
        "{error}"
    );
    // Absurd counts in the header.
    let mut bytes = b"GGUF".to_vec();
    bytes.extend(3_u32.to_le_bytes());
    bytes.extend(u64::MAX.to_le_bytes());
    bytes.extend(u64::MAX.to_le_bytes());
    let file = write_temp(&bytes);
    assert!(matches!(
        load_error(file.path()),
        LlmError::InvalidModelFile { .. }
    ));
}

#[test]
fn zero_alignment_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zero-alignment.gguf");
    write_tiny_gguf(
        &path,
        &Tiny {
            alignment: Some(0),
            ..Tiny::default()
        },
    );
    let error = load_error(&path);
    assert!(
        matches!(error, LlmError::InvalidModelFile { .. }),
        "{error}"
    );
}

#[test]
fn truncated_tiny_gguf_names_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.gguf");
    write_tiny_gguf(&path, &Tiny::default());
    let bytes = std::fs::read(&path).unwrap();
    for len in [100, bytes.len() / 3, bytes.len() - 1] {
        let file = write_temp(&bytes[..len]);
        let error = load_error(file.path());
        assert!(
            matches!(error, LlmError::InvalidModelFile { .. }),
            "{len}: {error}"
        );
        assert!(error.to_string().contains("truncated"), "{len}: {error}");
    }
}

#[test]
fn truncated_real_model_is_an_error() {
    let Some(path) = model_path(DEFAULT_TEXT_MODEL) else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    for len in [4096, bytes.len() / 2] {
        let file = write_temp(&bytes[..len]);
        let error = load_error(file.path());
        assert!(
            matches!(error, LlmError::InvalidModelFile { .. }),
            "{len}: {error}"
        );
        assert!(error.to_string().contains("truncated"), "{len}: {error}");
    }
}

#[test]
fn wrong_architecture_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mamba.gguf");
    write_tiny_gguf(
        &path,
        &Tiny {
            architecture: "mamba",
            ..Tiny::default()
        },
    );
    let error = load_error(&path);
    assert!(
        matches!(&error, LlmError::UnsupportedArchitecture { architecture, .. } if architecture == "mamba"),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "unsupported model architecture `mamba` for backend `candle`"
    );
}

#[test]
fn missing_or_unsupported_tokenizer_is_a_load_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-tokenizer.gguf");
    write_tiny_gguf(
        &path,
        &Tiny {
            with_tokenizer: false,
            ..Tiny::default()
        },
    );
    let error = load_error(&path);
    assert!(matches!(error, LlmError::Load { .. }), "{error}");
    assert!(error.to_string().contains("has no tokenizer"), "{error}");

    let path = dir.path().join("bert-tokenizer.gguf");
    write_tiny_gguf(
        &path,
        &Tiny {
            tokenizer_model: "bert",
            ..Tiny::default()
        },
    );
    let error = load_error(&path).to_string();
    assert!(
        error.contains("unsupported GGUF tokenizer model `bert`"),
        "{error}"
    );
}
