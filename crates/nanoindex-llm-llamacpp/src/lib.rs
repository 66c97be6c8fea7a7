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
//! Threads: every core unless configured ([`LlamaCppConfig::n_threads`] or
//! `NANOINDEX_THREADS`; see [`nanoindex_llm::thread_count`]). llama.cpp is built with
//! OpenMP, whose worker threads spin while waiting: on an idle machine that is the fastest
//! (a 9-page 8-K indexed in 68 s on 2 threads, 122 s on 1), but with more threads than free
//! cores each token waits for a thread that has no core (185 s on 2 threads with another
//! process holding one of the 2 cores). `OMP_WAIT_POLICY=passive` in the environment trades
//! the idle speed for calm under contention (102 s idle, 117 s beside the other process);
//! the OpenMP runtime reads it when it is loaded, before `main`, so it must be set by
//! whoever starts the program.
//!
//! GPU: the `cuda` and `metal` cargo features build llama.cpp with those backends and
//! offload all layers ([`LlamaCppConfig::n_gpu_layers`]); neither is tested here.

mod generator;

pub use generator::{LlamaCppConfig, LlamaCppGenerator};
pub use nanoindex_llm::gguf::{check_header, GgufHeader};
