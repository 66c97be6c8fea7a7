//! The error type shared by every model backend.

use std::path::PathBuf;

/// Result alias for model operations.
pub type Result<T, E = LlmError> = std::result::Result<T, E>;

/// Everything that can go wrong when loading or running a model.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    /// The spec string names no known backend or is malformed.
    #[error("invalid model spec `{spec}`: {reason}")]
    InvalidSpec {
        /// The spec string as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The spec names a backend that this binary was built without.
    #[error("backend `{backend}` is not compiled in: rebuild with `--features {feature}`")]
    BackendNotCompiled {
        /// The backend named by the spec (`llama-cpp`, `candle`, …).
        backend: String,
        /// The cargo feature that enables it.
        feature: String,
    },
    /// The model file does not exist.
    #[error("model file `{}` not found", path.display())]
    ModelNotFound {
        /// The path that was looked up.
        path: PathBuf,
    },
    /// The model file could not be read.
    #[error("cannot read model file `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not in the expected format (for example, not a GGUF file).
    #[error("`{}` is not a valid {expected} file: {reason}", path.display())]
    InvalidModelFile {
        /// The file.
        path: PathBuf,
        /// The format that was expected (`GGUF`, `safetensors`, …).
        expected: String,
        /// What was found instead.
        reason: String,
    },
    /// The model's architecture is not supported by this backend.
    #[error("unsupported model architecture `{architecture}` for backend `{backend}`")]
    UnsupportedArchitecture {
        /// The architecture name from the model metadata.
        architecture: String,
        /// The backend that rejected it.
        backend: String,
    },
    /// The engine failed to load the model.
    #[error("cannot load model `{}`: {reason}", path.display())]
    Load {
        /// The model file or directory.
        path: PathBuf,
        /// The engine's explanation.
        reason: String,
    },
    /// The request cannot be served (for example, the prompt does not fit the context).
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// The JSON Schema could not be turned into a decoding constraint.
    #[error("cannot use JSON schema as a decoding constraint: {0}")]
    Schema(String),
    /// The engine failed while tokenising, decoding or sampling.
    #[error("inference failed: {0}")]
    Inference(String),
}
