//! Helpers shared by the integration tests (installed models are found with
//! `nanoindex_llm_conformance::model_path`): writing tiny
//! GGUF files with random weights and a tiny byte-level BPE vocabulary.

#![allow(dead_code)]

use candle_core::quantized::gguf_file::{self, Value};
use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{Device, Tensor};

/// Shape of a tiny test model.
pub const N_EMBD: usize = 64;
pub const N_HEAD: usize = 4;
pub const N_KV_HEAD: usize = 2;
pub const HEAD_DIM: usize = 16;
pub const N_FF: usize = 128;
pub const N_LAYER: usize = 2;

/// GPT-2's printable character for each byte.
fn byte_chars() -> Vec<char> {
    let mut next = 256_u32;
    (0..=255_u8)
        .map(|b| {
            if matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF) {
                char::from(b)
            } else {
                let c = char::from_u32(next).unwrap();
                next += 1;
                c
            }
        })
        .collect()
}

/// A tiny byte-level vocabulary: three control tokens, the 256 byte characters, and a few
/// merged tokens; returns (tokens, types, merges).
pub fn tiny_vocab() -> (Vec<String>, Vec<i32>, Vec<String>) {
    let mut tokens: Vec<String> = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut types = vec![3, 3, 3];
    for c in byte_chars() {
        tokens.push(c.to_string());
        types.push(1);
    }
    let merges = ["h e", "Ġ t", "Ġt he", "l l", "he ll", "hell o"];
    for merge in merges {
        tokens.push(merge.replace(' ', ""));
        types.push(1);
    }
    (
        tokens,
        types,
        merges.iter().map(|s| s.to_string()).collect(),
    )
}

/// Deterministic pseudo-random values in [-scale, scale).
fn random(n: usize, seed: u64, scale: f32) -> Vec<f32> {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 40) as f32 / (1_u64 << 24) as f32 * 2.0 - 1.0) * scale
        })
        .collect()
}

fn tensor(shape: &[usize], seed: u64, dtype: GgmlDType, scale: f32) -> QTensor {
    let n = shape.iter().product();
    let t = Tensor::from_vec(random(n, seed, scale), shape, &Device::Cpu).unwrap();
    QTensor::quantize(&t, dtype).unwrap()
}

fn ones(len: usize) -> QTensor {
    let t = Tensor::ones(len, candle_core::DType::F32, &Device::Cpu).unwrap();
    QTensor::quantize(&t, GgmlDType::F32).unwrap()
}

/// Options for [`write_tiny_gguf`].
pub struct Tiny<'a> {
    pub architecture: &'a str,
    pub with_tokenizer: bool,
    pub tokenizer_model: &'a str,
    pub alignment: Option<u32>,
}

impl Default for Tiny<'_> {
    fn default() -> Self {
        Self {
            architecture: "qwen2",
            with_tokenizer: true,
            tokenizer_model: "gpt2",
            alignment: None,
        }
    }
}

/// Writes a tiny GGUF model (random weights, correct shapes for `qwen2` or `qwen3`) to
/// `path`.
pub fn write_tiny_gguf(path: &std::path::Path, options: &Tiny<'_>) {
    let arch = options.architecture;
    let (tokens, types, merges) = tiny_vocab();
    let n_vocab = tokens.len();
    let mut metadata: Vec<(String, Value)> = vec![
        ("general.architecture".into(), Value::String(arch.into())),
        ("general.name".into(), Value::String(format!("tiny-{arch}"))),
        (format!("{arch}.block_count"), Value::U32(N_LAYER as u32)),
        (format!("{arch}.context_length"), Value::U32(256)),
        (
            format!("{arch}.embedding_length"),
            Value::U32(N_EMBD as u32),
        ),
        (
            format!("{arch}.feed_forward_length"),
            Value::U32(N_FF as u32),
        ),
        (
            format!("{arch}.attention.head_count"),
            Value::U32(N_HEAD as u32),
        ),
        (
            format!("{arch}.attention.head_count_kv"),
            Value::U32(N_KV_HEAD as u32),
        ),
        (
            format!("{arch}.attention.key_length"),
            Value::U32(HEAD_DIM as u32),
        ),
        (
            format!("{arch}.attention.layer_norm_rms_epsilon"),
            Value::F32(1e-6),
        ),
        (format!("{arch}.rope.freq_base"), Value::F32(1_000_000.0)),
    ];
    if let Some(alignment) = options.alignment {
        metadata.push(("general.alignment".into(), Value::U32(alignment)));
    }
    if options.with_tokenizer {
        metadata.extend([
            ("tokenizer.ggml.model".into(), Value::String(options.tokenizer_model.into())),
            ("tokenizer.ggml.pre".into(), Value::String("qwen2".into())),
            (
                "tokenizer.ggml.tokens".into(),
                Value::Array(tokens.iter().cloned().map(Value::String).collect()),
            ),
            (
                "tokenizer.ggml.token_type".into(),
                Value::Array(types.iter().copied().map(Value::I32).collect()),
            ),
            (
                "tokenizer.ggml.merges".into(),
                Value::Array(merges.iter().cloned().map(Value::String).collect()),
            ),
            ("tokenizer.ggml.eos_token_id".into(), Value::U32(2)),
            ("tokenizer.ggml.bos_token_id".into(), Value::U32(0)),
            ("tokenizer.ggml.add_bos_token".into(), Value::Bool(false)),
            (
                "tokenizer.chat_template".into(),
                Value::String(
                    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}".into(),
                ),
            ),
        ]);
    }
    let q_dim = N_HEAD * HEAD_DIM;
    let kv_dim = N_KV_HEAD * HEAD_DIM;
    let mut tensors: Vec<(String, QTensor)> = vec![
        (
            "token_embd.weight".into(),
            tensor(&[n_vocab, N_EMBD], 1, GgmlDType::Q8_0, 1.0),
        ),
        ("output_norm.weight".into(), ones(N_EMBD)),
        (
            "output.weight".into(),
            tensor(&[n_vocab, N_EMBD], 2, GgmlDType::Q8_0, 0.2),
        ),
    ];
    for il in 0..N_LAYER {
        let p = format!("blk.{il}");
        let seed = 100 * (il as u64 + 1);
        tensors.extend([
            (format!("{p}.attn_norm.weight"), ones(N_EMBD)),
            (format!("{p}.ffn_norm.weight"), ones(N_EMBD)),
            (
                format!("{p}.attn_q.weight"),
                tensor(&[q_dim, N_EMBD], seed + 1, GgmlDType::Q8_0, 0.2),
            ),
            (
                format!("{p}.attn_k.weight"),
                tensor(&[kv_dim, N_EMBD], seed + 2, GgmlDType::Q4_1, 0.2),
            ),
            (
                format!("{p}.attn_v.weight"),
                tensor(&[kv_dim, N_EMBD], seed + 3, GgmlDType::Q8_0, 0.2),
            ),
            (
                format!("{p}.attn_output.weight"),
                tensor(&[N_EMBD, q_dim], seed + 4, GgmlDType::Q8_0, 0.2),
            ),
            (
                format!("{p}.ffn_gate.weight"),
                tensor(&[N_FF, N_EMBD], seed + 5, GgmlDType::Q8_0, 0.2),
            ),
            (
                format!("{p}.ffn_up.weight"),
                tensor(&[N_FF, N_EMBD], seed + 6, GgmlDType::Q8_0, 0.2),
            ),
            (
                format!("{p}.ffn_down.weight"),
                tensor(&[N_EMBD, N_FF], seed + 7, GgmlDType::Q8_0, 0.2),
            ),
        ]);
        if arch == "qwen2" {
            tensors.extend([
                (
                    format!("{p}.attn_q.bias"),
                    tensor(&[q_dim], seed + 8, GgmlDType::F32, 0.1),
                ),
                (
                    format!("{p}.attn_k.bias"),
                    tensor(&[kv_dim], seed + 9, GgmlDType::F32, 0.1),
                ),
                (
                    format!("{p}.attn_v.bias"),
                    tensor(&[kv_dim], seed + 10, GgmlDType::F32, 0.1),
                ),
            ]);
        }
        if arch == "qwen3" {
            tensors.extend([
                (format!("{p}.attn_q_norm.weight"), ones(HEAD_DIM)),
                (format!("{p}.attn_k_norm.weight"), ones(HEAD_DIM)),
            ]);
        }
    }
    let metadata_refs: Vec<(&str, &Value)> =
        metadata.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let tensor_refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut file = std::fs::File::create(path).unwrap();
    gguf_file::write(&mut file, &metadata_refs, &tensor_refs).unwrap();
}
