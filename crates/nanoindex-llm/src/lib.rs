//! Model-facing API of nanoindex-local: the text-generation and embedding traits, their
//! request/response types, backend spec strings and thread counts. Model files (the
//! models directory, the manifest, downloads) are the `nanoindex-models` crate's.
//!
//! This crate names no inference engine. Engines live in their own crates
//! (`nanoindex-llm-llamacpp`, `nanoindex-embed`, …) and implement [`TextGenerator`] or
//! [`Embedder`]; the engine crate `nanoindex` is the only place that picks one from a
//! [`BackendSpec`].

mod decode;
mod error;
mod generate;
pub mod gguf;
mod scripted;
mod serve;
mod spec;
mod stream;
mod threads;

pub use decode::{
    check_prompt, decode, elapsed_ms, reusable_prefix, DecodeSteps, Decoded, SequenceStops,
};
pub use error::{LlmError, Result};
pub use generate::{
    ChatMessage, ChatRole, Embedder, GenerateRequest, Generation, ModelInfo, StopReason,
    TextGenerator, TokenControl,
};
pub use nanoindex_core::dirs::{LLAMA_LOG_ENV, LLM_ENV};
pub use scripted::ScriptedGenerator;
pub use serve::{rejects_request_only, serve_one_at_a_time, Conversations};
pub use spec::BackendSpec;
pub use stream::{StreamEvent, TextStream};
pub use threads::{thread_count, thread_count_from, MAX_DEFAULT_THREADS, THREADS_ENV};
