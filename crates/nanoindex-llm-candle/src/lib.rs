//! candle backend of nanoindex-local: runs the same GGUF files as the llama.cpp backend
//! through our own quantized forward pass on candle tensors, and implements
//! [`nanoindex_llm::TextGenerator`].
//!
//! What it does:
//! - checks the GGUF header, the architecture and that every tensor lies inside the file
//!   before reading weights ([`CandleGenerator::load`] errors name what is wrong);
//! - runs the `llama` (SmolLM2), `gemma3`, `qwen2` and `qwen3` architectures with memory
//!   bounded by the context actually allocated: RoPE tables of `n_ctx` positions shared by
//!   all layers, token embeddings kept quantized, a key/value cache that grows with use;
//! - tokenises with a tokenizer built from the GGUF's own vocabulary ([`GgufTokenizer`]):
//!   byte-level BPE (`gpt2` tokenizer model) and SentencePiece (`llama` tokenizer model);
//! - renders prompts with the chat template stored in the GGUF through minijinja;
//! - constrains output to a JSON Schema with llguidance; decodes greedily or by seeded
//!   temperature/top-p sampling; stop strings, a token budget and a per-token callback end
//!   generation; the key/value cache of the previous prompt is reused for a shared prefix.
//!
//! Run on real weights here: SmolLM2-135M-Instruct (`llama`) and Gemma 3 270M (`gemma3`).
//! `qwen2` and `qwen3` are tested only on tiny GGUF files with random weights that the
//! tests write (load, forward shapes, tokenizer round trip), not on real checkpoints.
//!
//! Threads: the forward pass runs on a pool of [`CandleConfig::n_threads`] threads (default
//! `NANOINDEX_THREADS`, else every core). candle's quantized matrix products use their own
//! process-wide pool sized once from `CANDLE_NUM_THREADS`; when that variable is not set,
//! the first model loaded in the process sets it to its thread count, so later loads in the
//! same process share that count.
//!
//! GPU: the `cuda` and `metal` cargo features build candle's GPU kernels and run the model
//! on CUDA device 0 or the Metal device ([`CandleConfig::use_gpu`]); neither is tested here.

mod constraint;
mod generator;
mod gguf;
mod model;
mod template;
mod tokenizer;

pub use generator::{CandleConfig, CandleGenerator, ContextMemory};
pub use tokenizer::{GgufTokenizer, TokenizerKind};
