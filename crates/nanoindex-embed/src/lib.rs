//! Sentence embeddings for nanoindex-local: BERT-family models (all-MiniLM-L6-v2 by
//! default) run by candle on the CPU, with mean pooling over the attention mask and L2
//! normalisation, batched. Implements [`nanoindex_llm::Embedder`].
//!
//! A model directory holds `config.json`, `tokenizer.json` and `model.safetensors`, as
//! `scripts/fetch-models.sh` installs them (`all-MiniLM-L6-v2/` in the models directory).

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config, DTYPE};
use nanoindex_llm::{Embedder, LlmError, Result};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// Longest input in tokens; longer texts are truncated (sentence-transformers' setting for
/// all-MiniLM-L6-v2).
pub const MAX_TOKENS: usize = 256;

/// Texts embedded in one forward pass.
const BATCH_SIZE: usize = 32;

/// A BERT sentence-embedding model.
pub struct BertEmbedder {
    model: BertModel,
    tokenizer: Tokenizer,
    name: String,
    dimension: usize,
    device: Device,
}

impl std::fmt::Debug for BertEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BertEmbedder")
            .field("name", &self.name)
            .field("dimension", &self.dimension)
            .finish_non_exhaustive()
    }
}

fn require(dir: &Path, file: &str) -> Result<PathBuf> {
    let path = dir.join(file);
    if path.is_file() {
        Ok(path)
    } else {
        Err(LlmError::ModelNotFound { path })
    }
}

impl BertEmbedder {
    /// Loads the model in `dir` (`config.json`, `tokenizer.json`, `model.safetensors`) onto
    /// the CPU. The model name is the directory's name.
    ///
    /// # Errors
    ///
    /// [`LlmError::ModelNotFound`] naming the first missing file,
    /// [`LlmError::InvalidModelFile`] when the config or tokenizer cannot be parsed,
    /// [`LlmError::Load`] when the weights do not fit the config.
    pub fn load(dir: &Path) -> Result<Self> {
        let config_path = require(dir, "config.json")?;
        let tokenizer_path = require(dir, "tokenizer.json")?;
        let weights_path = require(dir, "model.safetensors")?;
        let invalid = |path: &Path, expected: &str, reason: String| LlmError::InvalidModelFile {
            path: path.to_path_buf(),
            expected: expected.into(),
            reason,
        };
        let config_text = std::fs::read_to_string(&config_path).map_err(|source| LlmError::Io {
            path: config_path.clone(),
            source,
        })?;
        let config: Config = serde_json::from_str(&config_text)
            .map_err(|error| invalid(&config_path, "BERT config", error.to_string()))?;
        let mut tokenizer = Tokenizer::from_file(&tokenizer_path)
            .map_err(|error| invalid(&tokenizer_path, "tokenizer.json", error.to_string()))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            ..PaddingParams::default()
        }));
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..TruncationParams::default()
            }))
            .map_err(|error| invalid(&tokenizer_path, "tokenizer.json", error.to_string()))?;
        let device = Device::Cpu;
        // SAFETY: the weights file is memory-mapped read-only; it must not be modified while
        // the model is loaded (the models directory is written only by the fetch script,
        // which replaces files atomically).
        let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[&weights_path], DTYPE, &device) }
            .map_err(|error| invalid(&weights_path, "safetensors", error.to_string()))?;
        let model = BertModel::load(vb, &config).map_err(|error| LlmError::Load {
            path: weights_path.clone(),
            reason: format!("the weights do not match `config.json`: {error}"),
        })?;
        let name = dir.file_name().map_or_else(
            || "bert".to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        Ok(Self {
            model,
            tokenizer,
            name,
            dimension: config_hidden_size(&config_text),
            device,
        })
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|error| LlmError::Inference(format!("tokenizer: {error}")))?;
        let n = encodings.len();
        let len = encodings.first().map_or(0, tokenizers::Encoding::len);
        let mut ids = Vec::with_capacity(n * len);
        let mut type_ids = Vec::with_capacity(n * len);
        let mut mask = Vec::with_capacity(n * len);
        for encoding in &encodings {
            ids.extend_from_slice(encoding.get_ids());
            type_ids.extend_from_slice(encoding.get_type_ids());
            mask.extend_from_slice(encoding.get_attention_mask());
        }
        let tensor = |data: Vec<u32>| Tensor::from_vec(data, (n, len), &self.device);
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let ids = tensor(ids)?;
            let type_ids = tensor(type_ids)?;
            let mask = tensor(mask)?;
            let hidden = self.model.forward(&ids, &type_ids, Some(&mask))?; // (n, len, dim)
            let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?; // (n, len, 1)
            let summed = hidden.broadcast_mul(&mask)?.sum(1)?; // (n, dim)
            let counts = mask.sum(1)?.clamp(1e-9_f32, f32::MAX)?; // (n, 1)
            let mean = summed.broadcast_div(&counts)?;
            let norms = mean
                .sqr()?
                .sum_keepdim(1)?
                .sqrt()?
                .clamp(1e-12_f32, f32::MAX)?;
            mean.broadcast_div(&norms)?.to_vec2::<f32>()
        };
        run().map_err(|error| LlmError::Inference(format!("candle: {error}")))
    }
}

/// `hidden_size` from the config text (candle's `Config` keeps it private).
fn config_hidden_size(config_text: &str) -> usize {
    serde_json::from_str::<serde_json::Value>(config_text)
        .ok()
        .and_then(|value| value.get("hidden_size").and_then(serde_json::Value::as_u64))
        .and_then(|size| usize::try_from(size).ok())
        .unwrap_or(0)
}

impl Embedder for BertEmbedder {
    fn model_name(&self) -> &str {
        &self.name
    }

    fn dimension(&self) -> usize {
        self.dimension
    }

    /// Embeds `texts` in batches of texts of similar length (each batch is padded to its
    /// longest text, so sorting by length first wastes little compute on padding); the
    /// vectors come back in the order of `texts`.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let mut vectors = vec![Vec::new(); texts.len()];
        for chunk in order.chunks(BATCH_SIZE) {
            let batch: Vec<&str> = chunk.iter().map(|&i| texts[i]).collect();
            for (&i, v) in chunk.iter().zip(self.embed_batch(&batch)?) {
                vectors[i] = v;
            }
        }
        Ok(vectors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_directory_names_the_config_file() {
        let dir = tempfile::tempdir().unwrap();
        let error = BertEmbedder::load(dir.path()).unwrap_err();
        assert!(
            matches!(error, LlmError::ModelNotFound { ref path } if path.ends_with("config.json"))
        );
    }

    #[test]
    fn missing_tokenizer_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.json"), "{}").unwrap();
        let error = BertEmbedder::load(dir.path()).unwrap_err();
        assert!(
            matches!(error, LlmError::ModelNotFound { ref path } if path.ends_with("tokenizer.json"))
        );
    }

    #[test]
    fn hidden_size_is_read_from_the_config() {
        assert_eq!(config_hidden_size(r#"{"hidden_size": 384}"#), 384);
        assert_eq!(config_hidden_size("not json"), 0);
    }
}
