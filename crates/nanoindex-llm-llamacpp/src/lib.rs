//! llama.cpp backend of nanoindex-local: runs GGUF models through the `llama-cpp-2` crate
//! and implements [`nanoindex_llm::TextGenerator`].
//!
//! What it does: loads a GGUF file (after checking its header itself), renders prompts with
//! the chat template stored in the GGUF (`tokenizer.chat_template`), decodes greedily or by
//! sampling with a seed, constrains output with a grammar built from a JSON Schema by
//! llama.cpp's own `json_schema_to_grammar`, keeps the key/value cache of the previous
//! prompt and reuses its longest common prefix, and decodes several sequences in one batch
//! (`TextGenerator::generate_batch` on [`LlamaCppGenerator`]).
//!
//! Threads: one unless configured ([`LlamaCppConfig::n_threads`] or `NANOINDEX_THREADS`).
//! llama.cpp is built with OpenMP, whose worker threads spin while waiting; with more
//! threads than free cores decoding collapses (measured 20× slower with 2 threads when
//! another process holds a core). When using more than one thread, start the process with
//! `OMP_WAIT_POLICY=passive` in its environment (the OpenMP runtime reads it when it is
//! loaded, before `main`, so setting it from inside the program has no effect).
//!
//! GPU: the `cuda` and `metal` cargo features build llama.cpp with those backends and
//! offload all layers ([`LlamaCppConfig::n_gpu_layers`]); neither is tested here.

mod generator;

pub use generator::{LlamaCppConfig, LlamaCppGenerator};
pub use nanoindex_llm::gguf::{check_header, GgufHeader};
