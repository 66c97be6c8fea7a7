//! Our own quantized transformer forward pass for the GGUF architectures we run (llama,
//! gemma3, qwen2, qwen3), on candle tensors and candle's quantized matrix products.
//!
//! Written after reading candle-transformers' `quantized_llama`, `quantized_gemma3`,
//! `quantized_qwen2` and `quantized_qwen3` and llama.cpp's graphs for the same models, with
//! these differences from candle-transformers:
//! - RoPE tables hold `n_ctx` positions (the context actually allocated), one table per
//!   distinct (base, scale) pair shared by all layers, instead of 131,072 positions per layer;
//! - token embeddings stay quantized: the rows of the tokens being evaluated are dequantized
//!   on demand, and a tied output projection shares the same quantized tensor;
//! - the key/value cache grows with the tokens actually used (capacity doubling up to
//!   `n_ctx`) and can be cut back to a prefix, which is how prompt prefixes are reused;
//! - Gemma 3 uses GELU (tanh) in its feed-forward, a sliding window on five of six layers
//!   also while decoding, and the local RoPE base on those layers, as llama.cpp does.

use std::sync::Arc;

use candle_core::quantized::{gguf_file, GgmlDType, QMatMul, QTensor};
use candle_core::{DType, Device, Module, Tensor};

use crate::gguf::{metadata_f32, metadata_u32, ModelFile};

/// Result of tensor operations inside the forward pass (candle's error type).
pub(crate) type TResult<T> = candle_core::Result<T>;

/// The architectures this backend runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arch {
    /// Llama-style decoder (SmolLM2, Llama 2/3): interleaved RoPE, SwiGLU.
    Llama,
    /// Gemma 3 text decoder: q/k norms, post norms, GELU, sliding-window layers.
    Gemma3,
    /// Qwen 2 / 2.5: biases on q, k, v; NeoX RoPE.
    Qwen2,
    /// Qwen 3: q/k norms, NeoX RoPE, no biases.
    Qwen3,
}

impl Arch {
    /// The architecture named by `general.architecture`, if supported.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "llama" => Some(Arch::Llama),
            "gemma3" => Some(Arch::Gemma3),
            "qwen2" => Some(Arch::Qwen2),
            "qwen3" => Some(Arch::Qwen3),
            _ => None,
        }
    }

    /// Whether RoPE rotates interleaved pairs (llama's GGUF layout) rather than halves.
    fn interleaved_rope(self) -> bool {
        matches!(self, Arch::Llama)
    }
}

/// Hyper-parameters read from the GGUF metadata.
#[derive(Debug, Clone)]
pub(crate) struct Hyper {
    pub(crate) arch: Arch,
    pub(crate) n_layer: usize,
    pub(crate) n_embd: usize,
    pub(crate) n_head: usize,
    pub(crate) n_kv_head: usize,
    pub(crate) head_dim: usize,
    pub(crate) rms_eps: f32,
    pub(crate) rope_base: f32,
    /// RoPE base of sliding-window layers (Gemma 3).
    pub(crate) rope_base_local: f32,
    /// Position scale of global layers (1 / linear scaling factor).
    pub(crate) rope_freq_scale: f32,
    /// Sliding window in tokens and the period of full-attention layers (Gemma 3).
    pub(crate) sliding_window: Option<(usize, usize)>,
    /// Training context length in tokens.
    pub(crate) context_length: usize,
}

impl Hyper {
    /// Reads the hyper-parameters of `arch` from `content`'s metadata.
    pub(crate) fn read(
        arch: Arch,
        arch_name: &str,
        content: &gguf_file::Content,
    ) -> Result<Self, String> {
        let md = &content.metadata;
        let key = |k: &str| format!("{arch_name}.{k}");
        let required = |k: &str| {
            metadata_u32(md, &key(k))
                .map(|v| v as usize)
                .ok_or_else(|| format!("metadata `{}` is missing", key(k)))
        };
        let n_layer = required("block_count")?;
        let n_embd = required("embedding_length")?;
        let n_head = required("attention.head_count")?;
        let n_kv_head =
            metadata_u32(md, &key("attention.head_count_kv")).map_or(n_head, |v| v as usize);
        if n_head == 0 || n_kv_head == 0 || n_head % n_kv_head != 0 || n_embd == 0 {
            return Err(format!(
                "inconsistent attention shape: `{n_head}` heads, `{n_kv_head}` key/value heads, \
                 `{n_embd}` embedding length"
            ));
        }
        let head_dim =
            metadata_u32(md, &key("attention.key_length")).map_or(n_embd / n_head, |v| v as usize);
        if head_dim == 0 || !head_dim.is_multiple_of(2) {
            return Err(format!("head dimension `{head_dim}` must be even"));
        }
        if let Some(rope_dims) = metadata_u32(md, &key("rope.dimension_count")) {
            if rope_dims as usize != head_dim {
                return Err(format!(
                    "partial rotary embeddings (`{rope_dims}` of `{head_dim}` dimensions) are \
                     not supported"
                ));
            }
        }
        let default_eps = if arch == Arch::Gemma3 { 1e-6 } else { 1e-5 };
        let rms_eps =
            metadata_f32(md, &key("attention.layer_norm_rms_epsilon")).unwrap_or(default_eps);
        let default_base = match arch {
            Arch::Llama => 10_000.0,
            _ => 1_000_000.0,
        };
        let rope_base = metadata_f32(md, &key("rope.freq_base")).unwrap_or(default_base);
        let rope_base_local = metadata_f32(md, &key("rope.local_freq_base")).unwrap_or(10_000.0);
        let rope_freq_scale = metadata_f32(md, &key("rope.scaling.factor"))
            .filter(|f| *f > 0.0)
            .map_or(1.0, |f| 1.0 / f);
        let sliding_window = if arch == Arch::Gemma3 {
            let window = metadata_u32(md, &key("attention.sliding_window")).unwrap_or(512);
            let period = metadata_u32(md, &key("attention.sliding_window_pattern")).unwrap_or(6);
            Some((window.max(1) as usize, period.max(1) as usize))
        } else {
            None
        };
        let context_length = required("context_length")?;
        Ok(Self {
            arch,
            n_layer,
            n_embd,
            n_head,
            n_kv_head,
            head_dim,
            rms_eps,
            rope_base,
            rope_base_local,
            rope_freq_scale,
            sliding_window,
            context_length,
        })
    }

    /// Whether layer `layer_idx` attends through the sliding window.
    fn is_sliding(&self, layer_idx: usize) -> bool {
        self.sliding_window
            .is_some_and(|(_, period)| !(layer_idx + 1).is_multiple_of(period))
    }
}

/// Cosine and sine tables of rotary position embeddings for positions `0..n_ctx`.
#[derive(Debug, Clone)]
struct RopeTable {
    /// `(n_ctx, head_dim / 2)` f32.
    cos: Tensor,
    /// `(n_ctx, head_dim / 2)` f32.
    sin: Tensor,
}

impl RopeTable {
    fn new(
        head_dim: usize,
        base: f32,
        freq_scale: f32,
        n_ctx: usize,
        device: &Device,
    ) -> TResult<Self> {
        let half = head_dim / 2;
        let inv_freq: Vec<f32> = (0..half)
            .map(|i| freq_scale / base.powf((2 * i) as f32 / head_dim as f32))
            .collect();
        let mut cos = Vec::with_capacity(n_ctx * half);
        let mut sin = Vec::with_capacity(n_ctx * half);
        for pos in 0..n_ctx {
            for f in &inv_freq {
                let angle = pos as f32 * f;
                cos.push(angle.cos());
                sin.push(angle.sin());
            }
        }
        Ok(Self {
            cos: Tensor::from_vec(cos, (n_ctx, half), device)?,
            sin: Tensor::from_vec(sin, (n_ctx, half), device)?,
        })
    }

    /// Rotates `x` of shape `(1, heads, seq, head_dim)` for positions `start..start + seq`.
    fn apply(&self, x: &Tensor, start: usize, interleaved: bool) -> TResult<Tensor> {
        let seq = x.dim(2)?;
        let cos = self.cos.narrow(0, start, seq)?;
        let sin = self.sin.narrow(0, start, seq)?;
        if interleaved {
            candle_nn::rotary_emb::rope_i(&x.contiguous()?, &cos, &sin)
        } else {
            candle_nn::rotary_emb::rope(&x.contiguous()?, &cos, &sin)
        }
    }
}

/// A weight matrix applied as `x · Wᵀ (+ b)`.
#[derive(Debug, Clone)]
struct Linear {
    weight: QMatMul,
    bias: Option<Tensor>,
}

impl Linear {
    fn forward(&self, x: &Tensor) -> TResult<Tensor> {
        let y = self.weight.forward(x)?;
        match &self.bias {
            Some(bias) => y.broadcast_add(bias),
            None => Ok(y),
        }
    }
}

/// Root-mean-square normalisation over the last dimension with a learned scale.
#[derive(Debug, Clone)]
struct RmsNorm {
    weight: Tensor,
    eps: f32,
}

impl RmsNorm {
    fn forward(&self, x: &Tensor) -> TResult<Tensor> {
        candle_nn::ops::rms_norm(&x.contiguous()?, &self.weight, self.eps)
    }
}

/// Keys and values of one layer for the positions evaluated so far.
#[derive(Debug, Clone, Default)]
struct KvCache {
    /// `(n_kv_head, capacity, head_dim)` each; `None` until the first token.
    k: Option<Tensor>,
    v: Option<Tensor>,
    len: usize,
}

impl KvCache {
    /// Appends `k`, `v` of shape `(n_kv_head, seq, head_dim)`; returns views of all cached
    /// keys and values.
    fn append(&mut self, k: &Tensor, v: &Tensor, n_ctx: usize) -> TResult<(Tensor, Tensor)> {
        let seq = k.dim(1)?;
        let needed = self.len + seq;
        let capacity = self.k.as_ref().map_or(0, |t| t.dims()[1]);
        if needed > capacity {
            let mut new_capacity = capacity.max(64);
            while new_capacity < needed {
                new_capacity *= 2;
            }
            let new_capacity = new_capacity.min(n_ctx.max(needed));
            let (n_kv, _, head_dim) = k.dims3()?;
            let grow = |old: &Option<Tensor>| -> TResult<Tensor> {
                let fresh = Tensor::zeros((n_kv, new_capacity, head_dim), k.dtype(), k.device())?;
                if let Some(old) = old {
                    if self.len > 0 {
                        fresh.slice_set(&old.narrow(1, 0, self.len)?.contiguous()?, 1, 0)?;
                    }
                }
                Ok(fresh)
            };
            self.k = Some(grow(&self.k)?);
            self.v = Some(grow(&self.v)?);
        }
        let (Some(k_all), Some(v_all)) = (&self.k, &self.v) else {
            candle_core::bail!("key/value cache was not allocated");
        };
        k_all.slice_set(&k.contiguous()?, 1, self.len)?;
        v_all.slice_set(&v.contiguous()?, 1, self.len)?;
        self.len = needed;
        Ok((k_all.narrow(1, 0, self.len)?, v_all.narrow(1, 0, self.len)?))
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    fn bytes(&self) -> usize {
        let size = |t: &Option<Tensor>| t.as_ref().map_or(0, |t| t.elem_count() * 4);
        size(&self.k) + size(&self.v)
    }
}

#[derive(Debug, Clone)]
struct Layer {
    attn_norm: RmsNorm,
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    q_norm: Option<RmsNorm>,
    k_norm: Option<RmsNorm>,
    post_attn_norm: Option<RmsNorm>,
    ffn_norm: RmsNorm,
    post_ffn_norm: Option<RmsNorm>,
    gate: Linear,
    up: Linear,
    down: Linear,
    /// Index into `Model::ropes`.
    rope: usize,
    sliding: bool,
    cache: KvCache,
}

/// Token embeddings kept quantized; rows are dequantized when looked up.
#[derive(Debug, Clone)]
struct Embeddings {
    table: Arc<QTensor>,
    dtype: GgmlDType,
    n_vocab: usize,
    n_embd: usize,
    row_bytes: usize,
}

impl Embeddings {
    fn new(table: Arc<QTensor>) -> TResult<Self> {
        let (n_vocab, n_embd) = table.shape().dims2()?;
        let dtype = table.dtype();
        if n_embd % dtype.block_size() != 0 {
            candle_core::bail!("embedding rows of `{n_embd}` values do not split into blocks");
        }
        let row_bytes = n_embd / dtype.block_size() * dtype.type_size();
        Ok(Self {
            table,
            dtype,
            n_vocab,
            n_embd,
            row_bytes,
        })
    }

    /// `(tokens.len(), n_embd)` f32 rows of `tokens`.
    fn lookup(&self, tokens: &[u32], device: &Device) -> TResult<Tensor> {
        let data = self.table.data()?;
        let mut rows = Vec::with_capacity(tokens.len() * self.row_bytes);
        for &token in tokens {
            let token = token as usize;
            if token >= self.n_vocab {
                candle_core::bail!(
                    "token id `{token}` is outside the vocabulary of `{}`",
                    self.n_vocab
                );
            }
            rows.extend_from_slice(&data[token * self.row_bytes..(token + 1) * self.row_bytes]);
        }
        let rows = candle_core::quantized::ggml_file::qtensor_from_ggml(
            self.dtype,
            &rows,
            vec![tokens.len(), self.n_embd],
            &Device::Cpu,
        )?;
        rows.dequantize(&Device::Cpu)?.to_device(device)
    }
}

/// A loaded quantized decoder with its key/value cache.
#[derive(Debug, Clone)]
pub(crate) struct Model {
    hyper: Hyper,
    embeddings: Embeddings,
    layers: Vec<Layer>,
    norm: RmsNorm,
    output: QMatMul,
    ropes: Vec<RopeTable>,
    n_ctx: usize,
    device: Device,
}

/// Tensors of a GGUF file, read by name.
struct TensorReader<'a> {
    file: &'a mut ModelFile,
    device: &'a Device,
    /// Convert Q4_1, Q5_0 and Q5_1 matrices to Q8_0.
    requantize: bool,
}

impl TensorReader<'_> {
    fn qtensor(&mut self, name: &str) -> Result<QTensor, String> {
        self.file.tensor(name, self.device)
    }

    fn optional(&mut self, name: &str) -> Result<Option<QTensor>, String> {
        if self.file.has_tensor(name) {
            self.qtensor(name).map(Some)
        } else {
            Ok(None)
        }
    }

    fn dense(&mut self, name: &str) -> Result<Tensor, String> {
        self.qtensor(name)?
            .dequantize(self.device)
            .map_err(|e| format!("tensor `{name}`: {e}"))
    }

    fn matrix(&mut self, name: &str, rows: usize, cols: usize) -> Result<QMatMul, String> {
        let mut tensor = self.qtensor(name)?;
        if self.requantize
            && matches!(
                tensor.dtype(),
                GgmlDType::Q4_1 | GgmlDType::Q5_0 | GgmlDType::Q5_1
            )
        {
            // candle multiplies these formats with scalar code only; Q8_0 has SIMD kernels.
            tensor = tensor
                .dequantize(&Device::Cpu)
                .and_then(|dense| QTensor::quantize(&dense, GgmlDType::Q8_0))
                .and_then(|q| {
                    if self.device.is_cpu() {
                        Ok(q)
                    } else {
                        let dense = q.dequantize(&Device::Cpu)?.to_device(self.device)?;
                        QTensor::quantize(&dense, GgmlDType::Q8_0)
                    }
                })
                .map_err(|e| format!("cannot convert tensor `{name}` to Q8_0: {e}"))?;
        }
        let dims = tensor.shape().dims().to_vec();
        if dims != [rows, cols] {
            return Err(format!(
                "tensor `{name}` has shape {dims:?}, expected [{rows}, {cols}]"
            ));
        }
        QMatMul::from_arc(Arc::new(tensor)).map_err(|e| format!("tensor `{name}`: {e}"))
    }

    fn linear(&mut self, name: &str, rows: usize, cols: usize) -> Result<Linear, String> {
        let weight = self.matrix(&format!("{name}.weight"), rows, cols)?;
        let bias_name = format!("{name}.bias");
        let bias = if self.file.has_tensor(&bias_name) {
            Some(self.dense(&bias_name)?)
        } else {
            None
        };
        Ok(Linear { weight, bias })
    }

    fn norm(&mut self, name: &str, len: usize, eps: f32) -> Result<RmsNorm, String> {
        let weight = self.dense(name)?;
        if weight.dims() != [len] {
            return Err(format!(
                "tensor `{name}` has shape {:?}, expected [{len}]",
                weight.dims()
            ));
        }
        Ok(RmsNorm { weight, eps })
    }

    fn optional_norm(
        &mut self,
        name: &str,
        len: usize,
        eps: f32,
    ) -> Result<Option<RmsNorm>, String> {
        if self.file.has_tensor(name) {
            self.norm(name, len, eps).map(Some)
        } else {
            Ok(None)
        }
    }
}

impl Model {
    /// Loads the weights of `hyper.arch` from `file` with RoPE tables and a cache bounded by
    /// `n_ctx` tokens; with `requantize`, Q4_1/Q5_0/Q5_1 matrices become Q8_0.
    ///
    /// Errors are messages naming the missing or misshapen tensor.
    pub(crate) fn load(
        file: &mut ModelFile,
        hyper: Hyper,
        n_ctx: usize,
        device: &Device,
        requantize: bool,
    ) -> Result<Self, String> {
        let mut reader = TensorReader {
            file,
            device,
            requantize,
        };
        let eps = hyper.rms_eps;
        let (n_embd, head_dim) = (hyper.n_embd, hyper.head_dim);
        let q_dim = hyper.n_head * head_dim;
        let kv_dim = hyper.n_kv_head * head_dim;

        // Embedding rows are looked up on the CPU; a GPU gets its own copy for a tied output.
        let table = Arc::new(reader.file.tensor("token_embd.weight", &Device::Cpu)?);
        let embeddings =
            Embeddings::new(table.clone()).map_err(|e| format!("`token_embd.weight`: {e}"))?;
        if embeddings.n_embd != n_embd {
            return Err(format!(
                "`token_embd.weight` rows have `{}` values, expected `{n_embd}`",
                embeddings.n_embd
            ));
        }
        let output = match reader.optional("output.weight")? {
            Some(output) => QMatMul::from_arc(Arc::new(output)),
            None if device.is_cpu() => QMatMul::from_arc(table),
            None => QMatMul::from_arc(Arc::new(reader.qtensor("token_embd.weight")?)),
        }
        .map_err(|e| format!("`output.weight`: {e}"))?;
        let norm = reader.norm("output_norm.weight", n_embd, eps)?;

        let mut ropes = vec![RopeTable::new(
            head_dim,
            hyper.rope_base,
            hyper.rope_freq_scale,
            n_ctx,
            device,
        )
        .map_err(|e| e.to_string())?];
        if hyper.sliding_window.is_some() {
            ropes.push(
                RopeTable::new(head_dim, hyper.rope_base_local, 1.0, n_ctx, device)
                    .map_err(|e| e.to_string())?,
            );
        }
        let n_ff = {
            let name = "blk.0.ffn_up.weight";
            let tensor = reader
                .file
                .tensor_shape(name)
                .ok_or_else(|| format!("tensor `{name}` is missing"))?;
            tensor.first().copied().unwrap_or(0)
        };

        let mut layers = Vec::with_capacity(hyper.n_layer);
        for il in 0..hyper.n_layer {
            let p = format!("blk.{il}");
            let has_qk_norm = matches!(hyper.arch, Arch::Gemma3 | Arch::Qwen3);
            let gemma = hyper.arch == Arch::Gemma3;
            let sliding = hyper.is_sliding(il);
            layers.push(Layer {
                attn_norm: reader.norm(&format!("{p}.attn_norm.weight"), n_embd, eps)?,
                q: reader.linear(&format!("{p}.attn_q"), q_dim, n_embd)?,
                k: reader.linear(&format!("{p}.attn_k"), kv_dim, n_embd)?,
                v: reader.linear(&format!("{p}.attn_v"), kv_dim, n_embd)?,
                o: reader.linear(&format!("{p}.attn_output"), n_embd, q_dim)?,
                q_norm: if has_qk_norm {
                    Some(reader.norm(&format!("{p}.attn_q_norm.weight"), head_dim, eps)?)
                } else {
                    None
                },
                k_norm: if has_qk_norm {
                    Some(reader.norm(&format!("{p}.attn_k_norm.weight"), head_dim, eps)?)
                } else {
                    None
                },
                post_attn_norm: if gemma {
                    Some(reader.norm(&format!("{p}.post_attention_norm.weight"), n_embd, eps)?)
                } else {
                    reader.optional_norm(&format!("{p}.post_attention_norm.weight"), n_embd, eps)?
                },
                ffn_norm: reader.norm(&format!("{p}.ffn_norm.weight"), n_embd, eps)?,
                post_ffn_norm: if gemma {
                    Some(reader.norm(&format!("{p}.post_ffw_norm.weight"), n_embd, eps)?)
                } else {
                    None
                },
                gate: reader.linear(&format!("{p}.ffn_gate"), n_ff, n_embd)?,
                up: reader.linear(&format!("{p}.ffn_up"), n_ff, n_embd)?,
                down: reader.linear(&format!("{p}.ffn_down"), n_embd, n_ff)?,
                rope: usize::from(sliding),
                sliding,
                cache: KvCache::default(),
            });
        }
        Ok(Self {
            hyper,
            embeddings,
            layers,
            norm,
            output,
            ropes,
            n_ctx,
            device: device.clone(),
        })
    }

    /// Entries in the output vocabulary (rows of the output projection).
    pub(crate) fn n_vocab(&self) -> usize {
        self.embeddings.n_vocab
    }

    /// Positions held in the key/value cache.
    pub(crate) fn cached_len(&self) -> usize {
        self.layers.first().map_or(0, |l| l.cache.len)
    }

    /// Bytes currently allocated by the key/value cache.
    pub(crate) fn cache_bytes(&self) -> usize {
        self.layers.iter().map(|l| l.cache.bytes()).sum()
    }

    /// Bytes of the RoPE tables (shared by all layers).
    pub(crate) fn rope_bytes(&self) -> usize {
        self.ropes
            .iter()
            .map(|r| (r.cos.elem_count() + r.sin.elem_count()) * 4)
            .sum()
    }

    /// Keeps the first `len` cached positions and drops the rest.
    pub(crate) fn truncate_cache(&mut self, len: usize) {
        for layer in &mut self.layers {
            layer.cache.truncate(len);
        }
    }

    /// Evaluates `tokens` at positions `cached_len()..`, appends their keys and values to the
    /// cache and returns the logits of the last token (`n_vocab` f32).
    pub(crate) fn forward(&mut self, tokens: &[u32]) -> TResult<Vec<f32>> {
        if tokens.is_empty() {
            candle_core::bail!("no tokens to evaluate");
        }
        let start = self.cached_len();
        if start + tokens.len() > self.n_ctx {
            candle_core::bail!(
                "`{}` positions do not fit the context of `{}`",
                start + tokens.len(),
                self.n_ctx
            );
        }
        let hyper = &self.hyper;
        let seq = tokens.len();
        let mut x = self.embeddings.lookup(tokens, &self.device)?;
        if hyper.arch == Arch::Gemma3 {
            x = (x * (hyper.n_embd as f64).sqrt())?;
        }
        let total = start + seq;
        let full_mask = causal_mask(seq, start, None, &self.device)?;
        let window = hyper.sliding_window.map(|(w, _)| w);
        let window_mask = match window {
            Some(w) => causal_mask(seq, start, Some(w), &self.device)?,
            None => None,
        };
        let scale = 1.0 / (hyper.head_dim as f64).sqrt();
        for layer in &mut self.layers {
            let residual = x.clone();
            let h = layer.attn_norm.forward(&x)?;
            let mask = if layer.sliding {
                &window_mask
            } else {
                &full_mask
            };
            // With one query and nothing outside the window, no mask is needed; a sliding
            // layer attends to the last `window` keys only.
            let keep_from = match (layer.sliding, window) {
                (true, Some(w)) if seq == 1 && total > w => total - w,
                _ => 0,
            };
            let h = attention(
                layer,
                &self.ropes[layer.rope],
                hyper,
                &h,
                start,
                mask.as_ref(),
                keep_from,
                scale,
                self.n_ctx,
            )?;
            let h = match &layer.post_attn_norm {
                Some(norm) => norm.forward(&h)?,
                None => h,
            };
            let x_mid = (h + residual)?;
            let h = layer.ffn_norm.forward(&x_mid)?;
            let gate = layer.gate.forward(&h)?;
            let gate = if hyper.arch == Arch::Gemma3 {
                gate.gelu()?
            } else {
                candle_nn::ops::silu(&gate)?
            };
            let h = layer.down.forward(&(gate * layer.up.forward(&h)?)?)?;
            let h = match &layer.post_ffn_norm {
                Some(norm) => norm.forward(&h)?,
                None => h,
            };
            x = (h + x_mid)?;
        }
        let last = x.narrow(0, seq - 1, 1)?;
        let last = self.norm.forward(&last)?;
        let logits = self.output.forward(&last)?;
        logits.squeeze(0)?.to_dtype(DType::F32)?.to_vec1::<f32>()
    }
}

/// Additive mask `(seq, start + seq)`: 0 where query `start + i` may attend key `j`, −∞
/// elsewhere; `None` when nothing is masked (a single query with no window cut).
fn causal_mask(
    seq: usize,
    start: usize,
    window: Option<usize>,
    device: &Device,
) -> TResult<Option<Tensor>> {
    let total = start + seq;
    let allowed = |i: usize, j: usize| {
        let pos = start + i;
        j <= pos && window.is_none_or(|w| pos - j < w)
    };
    let any_masked = (0..seq).any(|i| (0..total).any(|j| !allowed(i, j)));
    if !any_masked {
        return Ok(None);
    }
    let mut values = Vec::with_capacity(seq * total);
    for i in 0..seq {
        for j in 0..total {
            values.push(if allowed(i, j) {
                0.0_f32
            } else {
                f32::NEG_INFINITY
            });
        }
    }
    Tensor::from_vec(values, (seq, total), device).map(Some)
}

/// `x` rounded to the nearest f16 value (kept as f32).
fn round_f16(x: &Tensor) -> TResult<Tensor> {
    x.to_dtype(DType::F16)?.to_dtype(DType::F32)
}

/// Self-attention of one layer for `x` `(seq, n_embd)` at positions `start..`; keys before
/// `keep_from` are skipped (sliding window while decoding).
#[allow(clippy::too_many_arguments)]
fn attention(
    layer: &mut Layer,
    rope: &RopeTable,
    hyper: &Hyper,
    x: &Tensor,
    start: usize,
    mask: Option<&Tensor>,
    keep_from: usize,
    scale: f64,
    n_ctx: usize,
) -> TResult<Tensor> {
    let seq = x.dim(0)?;
    let (n_head, n_kv, hd) = (hyper.n_head, hyper.n_kv_head, hyper.head_dim);
    let q = layer.q.forward(x)?.reshape((seq, n_head, hd))?;
    let k = layer.k.forward(x)?.reshape((seq, n_kv, hd))?;
    let v = layer.v.forward(x)?.reshape((seq, n_kv, hd))?;
    let q = match &layer.q_norm {
        Some(norm) => norm.forward(&q)?,
        None => q,
    };
    let k = match &layer.k_norm {
        Some(norm) => norm.forward(&k)?,
        None => k,
    };
    let interleaved = hyper.arch.interleaved_rope();
    // (1, heads, seq, hd) for the rotation.
    // Queries, keys, values and attention weights are rounded to f16 as llama.cpp's f16
    // key/value cache rounds them, so that near-tied greedy choices fall the same way.
    let q = round_f16(&rope.apply(&q.transpose(0, 1)?.unsqueeze(0)?, start, interleaved)?)?;
    let k = round_f16(&rope.apply(&k.transpose(0, 1)?.unsqueeze(0)?, start, interleaved)?)?;
    let v = round_f16(&v.transpose(0, 1)?.contiguous()?)?;
    let (k_all, v_all) = layer.cache.append(&k.squeeze(0)?, &v, n_ctx)?;
    let (k_all, v_all, mask) = if keep_from > 0 {
        let len = k_all.dim(1)? - keep_from;
        (
            k_all.narrow(1, keep_from, len)?,
            v_all.narrow(1, keep_from, len)?,
            None,
        )
    } else {
        (k_all, v_all, mask)
    };
    let n_rep = n_head / n_kv;
    let len = k_all.dim(1)?;
    // Heads that share a key/value head are stacked as extra query rows.
    let q = (q.squeeze(0)?.reshape((n_kv, n_rep * seq, hd))? * scale)?;
    let scores = q.matmul(&k_all.t()?)?;
    let scores = match mask {
        Some(mask) => scores
            .reshape((n_kv, n_rep, seq, len))?
            .broadcast_add(mask)?
            .reshape((n_kv, n_rep * seq, len))?,
        None => scores,
    };
    let weights = round_f16(&candle_nn::ops::softmax_last_dim(&scores)?)?;
    let out = weights.matmul(&v_all.contiguous()?)?; // (n_kv, n_rep * seq, hd)
    let out = out
        .reshape((n_head, seq, hd))?
        .transpose(0, 1)?
        .reshape((seq, n_head * hd))?;
    layer.o.forward(&out)
}
