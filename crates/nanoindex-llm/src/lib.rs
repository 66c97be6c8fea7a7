//! Model-facing API of nanoindex-local: the text-generation and embedding traits, their
//! request/response types, backend spec strings and the models directory.
//!
//! This crate names no inference engine. Engines live in their own crates
//! (`nanoindex-llm-llamacpp`, `nanoindex-embed`, …) and implement [`TextGenerator`] or
//! [`Embedder`]; the engine crate `nanoindex` is the only place that picks one from a
//! [`BackendSpec`].

mod decode;
mod error;
mod generate;
pub mod gguf;
mod models;
mod scripted;
mod spec;
mod stream;
mod threads;

pub use decode::{decode, DecodeSteps, Decoded};
pub use error::{LlmError, Result};
pub use generate::{
    ChatMessage, ChatRole, Embedder, GenerateRequest, Generation, ModelInfo, StopReason,
    TextGenerator, TokenControl,
};
pub use models::{
    default_models_dir, models_dir_from, ModelEntry, ModelFile, ModelFileStatus, ModelManifest,
    DEFAULT_EMBEDDING_MODEL, DEFAULT_TEXT_MODEL, MODELS_DIR_ENV, THREADS_ENV,
};
pub use nanoindex_core::dirs::{LLAMA_LOG_ENV, LLM_ENV};
pub use scripted::ScriptedGenerator;
pub use spec::BackendSpec;
pub use stream::{StreamEvent, TextStream};
pub use threads::{thread_count, thread_count_from};
