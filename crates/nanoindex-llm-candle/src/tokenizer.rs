//! The tokenizer built from a GGUF file's own vocabulary (`tokenizer.ggml.*` metadata), as a
//! `tokenizers` BPE model that gives the same token ids as llama.cpp.
//!
//! Two GGUF tokenizer models are supported:
//! - `gpt2`: byte-level BPE with the file's merges and the pre-tokenizer named by
//!   `tokenizer.ggml.pre` (`smollm`, `qwen2`, `llama3`/`llama-bpe`, else GPT-2's);
//! - `llama`: SentencePiece BPE (Gemma, Llama 2). The file has scores, not merges, so merges
//!   are derived: every split of a normal token into two normal tokens is a merge, ranked by
//!   the merged token's score (highest first), with byte fallback (`<0xNN>` tokens), spaces
//!   written as `▁`, control tokens as special tokens and user-defined tokens (type 4, such as
//!   `\n\n` or runs of spaces) as added tokens matched before normalisation.

use std::collections::HashMap;
use std::path::Path;

use candle_core::quantized::gguf_file;
use nanoindex_llm::LlmError;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::normalizers::{Prepend, Replace, Sequence as NormalizerSequence, NFC};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::sequence::Sequence as PreSequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{
    AddedToken, NormalizerWrapper, PreTokenizerWrapper, SplitDelimiterBehavior, Tokenizer,
};

use crate::gguf::{metadata_bool, metadata_u32, ModelFile};

/// Token types of `tokenizer.ggml.token_type` (llama.cpp's numbering).
const TYPE_NORMAL: u32 = 1;
const TYPE_UNKNOWN: u32 = 2;
const TYPE_CONTROL: u32 = 3;
const TYPE_USER_DEFINED: u32 = 4;
const TYPE_BYTE: u32 = 6;

/// Which family of GGUF tokenizer a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenizerKind {
    /// Byte-level BPE with merges (`tokenizer.ggml.model = gpt2`).
    BytePairGpt2,
    /// SentencePiece BPE from scores (`tokenizer.ggml.model = llama`).
    SentencePiece,
}

/// A tokenizer built from the vocabulary stored in a GGUF file.
///
/// ```no_run
/// use nanoindex_llm_candle::GgufTokenizer;
/// let tokenizer = GgufTokenizer::load("SmolLM2-135M-Instruct.Q4_1.gguf".as_ref()).unwrap();
/// let ids = tokenizer.encode("Hello, world").unwrap();
/// assert_eq!(tokenizer.decode(&ids), "Hello, world");
/// ```
#[derive(Debug, Clone)]
pub struct GgufTokenizer {
    tokenizer: Tokenizer,
    kind: TokenizerKind,
    /// Token texts as stored in the GGUF.
    texts: Vec<String>,
    /// Token types (`TYPE_*`).
    types: Vec<u32>,
    /// Bytes each token writes into generated text (empty for control tokens).
    pieces: Vec<Vec<u8>>,
    bos: Option<u32>,
    eos: Option<u32>,
    /// Tokens that end generation.
    end_of_generation: Vec<u32>,
    add_bos: bool,
}

fn load_error(path: &Path, reason: impl Into<String>) -> LlmError {
    LlmError::Load {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

fn string_array(content: &gguf_file::Content, key: &str) -> Option<Vec<String>> {
    match content.metadata.get(key)? {
        gguf_file::Value::Array(values) => values
            .iter()
            .map(|v| match v {
                gguf_file::Value::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

fn number_array(content: &gguf_file::Content, key: &str) -> Option<Vec<f64>> {
    use gguf_file::Value;
    match content.metadata.get(key)? {
        Value::Array(values) => values
            .iter()
            .map(|v| match v {
                Value::F32(x) => Some(f64::from(*x)),
                Value::F64(x) => Some(*x),
                Value::I32(x) => Some(f64::from(*x)),
                Value::U32(x) => Some(f64::from(*x)),
                Value::I8(x) => Some(f64::from(*x)),
                Value::U8(x) => Some(f64::from(*x)),
                Value::I16(x) => Some(f64::from(*x)),
                Value::U16(x) => Some(f64::from(*x)),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// GPT-2's byte ↔ printable-character table: the character that stands for each byte.
fn byte_to_char_table() -> [char; 256] {
    let mut table = ['\0'; 256];
    let mut next = 256_u32;
    for byte in 0..=255_u8 {
        let c = char::from(byte);
        let printable = matches!(byte, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
        table[byte as usize] = if printable {
            c
        } else {
            let mapped = char::from_u32(next).unwrap_or('\u{FFFD}');
            next += 1;
            mapped
        };
    }
    table
}

/// `<0xNN>` → the byte `NN`.
fn byte_token_value(text: &str) -> Option<u8> {
    let hex = text.strip_prefix("<0x")?.strip_suffix('>')?;
    u8::from_str_radix(hex, 16).ok()
}

impl GgufTokenizer {
    /// Reads only the tokenizer of the GGUF file at `path` (no weights).
    ///
    /// # Errors
    ///
    /// As [`crate::CandleGenerator::load`] for the file; [`LlmError::Load`] when the file
    /// has no tokenizer or one of an unsupported model.
    pub fn load(path: &Path) -> Result<Self, LlmError> {
        let file = ModelFile::open(path)?;
        Self::from_file(&file)
    }

    pub(crate) fn from_file(file: &ModelFile) -> Result<Self, LlmError> {
        let path = file.path.as_path();
        let content = &file.content;
        let model = file.string("tokenizer.ggml.model").ok_or_else(|| {
            load_error(
                path,
                "the GGUF has no tokenizer (`tokenizer.ggml.model` is missing); this backend \
                 needs the vocabulary inside the GGUF",
            )
        })?;
        let texts = string_array(content, "tokenizer.ggml.tokens").ok_or_else(|| {
            load_error(
                path,
                "the GGUF has no tokenizer vocabulary (`tokenizer.ggml.tokens` is missing or \
                 not a list of strings)",
            )
        })?;
        if texts.is_empty() {
            return Err(load_error(path, "the GGUF tokenizer vocabulary is empty"));
        }
        let n = texts.len();
        let types: Vec<u32> = match number_array(content, "tokenizer.ggml.token_type") {
            Some(types) if types.len() == n => types.iter().map(|t| *t as u32).collect(),
            Some(types) => {
                return Err(load_error(
                    path,
                    format!(
                        "`tokenizer.ggml.token_type` has {} entries for {n} tokens",
                        types.len()
                    ),
                ))
            }
            None => vec![TYPE_NORMAL; n],
        };
        let md = &content.metadata;
        let id = |key: &str| metadata_u32(md, key).filter(|id| (*id as usize) < n);
        let bos = id("tokenizer.ggml.bos_token_id");
        let eos = id("tokenizer.ggml.eos_token_id");
        let (kind, tokenizer, pieces) = match model {
            "gpt2" => {
                let pre = file.string("tokenizer.ggml.pre").unwrap_or("gpt2");
                let merges = string_array(content, "tokenizer.ggml.merges").ok_or_else(|| {
                    load_error(path, "the `gpt2` tokenizer has no `tokenizer.ggml.merges`")
                })?;
                let (tokenizer, pieces) = build_byte_level(&texts, &types, &merges, pre)
                    .map_err(|e| load_error(path, e))?;
                (TokenizerKind::BytePairGpt2, tokenizer, pieces)
            }
            "llama" => {
                let scores = number_array(content, "tokenizer.ggml.scores")
                    .filter(|s| s.len() == n)
                    .ok_or_else(|| {
                        load_error(path, "the `llama` tokenizer has no scores for its tokens")
                    })?;
                let add_space_prefix =
                    metadata_bool(md, "tokenizer.ggml.add_space_prefix").unwrap_or(true);
                let unk = id("tokenizer.ggml.unknown_token_id");
                let (tokenizer, pieces) =
                    build_sentencepiece(&texts, &types, &scores, add_space_prefix, unk)
                        .map_err(|e| load_error(path, e))?;
                (TokenizerKind::SentencePiece, tokenizer, pieces)
            }
            other => {
                return Err(load_error(
                    path,
                    format!(
                        "unsupported GGUF tokenizer model `{other}` (supported: `gpt2`, `llama`)"
                    ),
                ))
            }
        };
        let add_bos = metadata_bool(md, "tokenizer.ggml.add_bos_token")
            .unwrap_or(kind == TokenizerKind::SentencePiece);
        // End of generation: the end-of-sequence and end-of-turn tokens, and control tokens
        // that close a turn in the usual chat formats (as llama.cpp's vocabulary does).
        let mut end_of_generation: Vec<u32> = [
            eos,
            id("tokenizer.ggml.eot_token_id"),
            id("tokenizer.ggml.eom_token_id"),
        ]
        .into_iter()
        .flatten()
        .collect();
        for (i, text) in texts.iter().enumerate() {
            if types[i] == TYPE_CONTROL
                && matches!(
                    text.as_str(),
                    "<|eot_id|>"
                        | "<|im_end|>"
                        | "<|end|>"
                        | "<end_of_turn>"
                        | "<|endoftext|>"
                        | "<|eom_id|>"
                )
            {
                end_of_generation.push(i as u32);
            }
        }
        end_of_generation.sort_unstable();
        end_of_generation.dedup();
        Ok(Self {
            tokenizer,
            kind,
            texts,
            types,
            pieces,
            bos,
            eos,
            end_of_generation,
            add_bos,
        })
    }

    /// Which tokenizer family the GGUF uses.
    #[must_use]
    pub fn kind(&self) -> TokenizerKind {
        self.kind
    }

    /// Number of tokens in the vocabulary.
    #[must_use]
    pub fn vocab_size(&self) -> usize {
        self.texts.len()
    }

    /// The beginning-of-sequence token, if the vocabulary names one.
    #[must_use]
    pub fn bos(&self) -> Option<u32> {
        self.bos
    }

    /// The end-of-sequence token, if the vocabulary names one.
    #[must_use]
    pub fn eos(&self) -> Option<u32> {
        self.eos
    }

    /// Whether prompts start with the beginning-of-sequence token
    /// (`tokenizer.ggml.add_bos_token`).
    #[must_use]
    pub fn adds_bos(&self) -> bool {
        self.add_bos
    }

    /// Whether `token` ends generation (end of sequence or end of turn).
    #[must_use]
    pub fn is_end_of_generation(&self, token: u32) -> bool {
        self.end_of_generation.binary_search(&token).is_ok()
    }

    /// The tokens that end generation, sorted.
    #[must_use]
    pub fn end_of_generation(&self) -> &[u32] {
        &self.end_of_generation
    }

    /// The text of `token` as stored in the vocabulary (`▁the`, `Ġthe`, `<0x0A>`), if any.
    #[must_use]
    pub fn token_text(&self, token: u32) -> Option<&str> {
        self.texts.get(token as usize).map(String::as_str)
    }

    /// Whether `token` is a control token (such as `<|im_start|>` or `<eos>`).
    #[must_use]
    pub fn is_control(&self, token: u32) -> bool {
        self.types.get(token as usize) == Some(&TYPE_CONTROL)
    }

    /// Token ids of `text`, with control tokens written in the text (such as `<|im_end|>`)
    /// parsed as those tokens and no beginning-of-sequence token added — as llama.cpp's
    /// `tokenize(text, add_bos = false, parse_special = true)`.
    ///
    /// # Errors
    ///
    /// [`LlmError::Inference`] when the tokenizer fails.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, LlmError> {
        if text.is_empty() {
            return Ok(Vec::new());
        }
        self.tokenizer
            .encode(text, false)
            .map(|encoding| encoding.get_ids().to_vec())
            .map_err(|e| LlmError::Inference(format!("tokenizer: {e}")))
    }

    /// The bytes `token` contributes to generated text (empty for control tokens and ids
    /// outside the vocabulary).
    #[must_use]
    pub fn piece(&self, token: u32) -> &[u8] {
        self.pieces.get(token as usize).map_or(&[], Vec::as_slice)
    }

    /// The text of `tokens` (control tokens write nothing; invalid UTF-8 is replaced).
    #[must_use]
    pub fn decode(&self, tokens: &[u32]) -> String {
        let bytes: Vec<u8> = tokens
            .iter()
            .flat_map(|t| self.piece(*t).iter().copied())
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Bytes of every token for llguidance's token trie: the text a token writes, and for
    /// control tokens the marker byte `0xFF` followed by the token's name.
    pub(crate) fn trie_words(&self) -> Vec<Vec<u8>> {
        self.texts
            .iter()
            .enumerate()
            .map(|(i, text)| {
                if self.types[i] == TYPE_CONTROL || self.types[i] == TYPE_UNKNOWN {
                    let mut word = vec![0xFF];
                    word.extend_from_slice(text.as_bytes());
                    word
                } else {
                    self.pieces[i].clone()
                }
            })
            .collect()
    }
}

/// Added tokens: control tokens as special tokens, user-defined tokens as plain added
/// tokens matched before normalisation.
fn add_vocabulary_tokens(
    tokenizer: &mut Tokenizer,
    texts: &[String],
    types: &[u32],
) -> Result<(), String> {
    let specials: Vec<AddedToken> = texts
        .iter()
        .zip(types)
        .filter(|(text, t)| **t == TYPE_CONTROL && !text.is_empty())
        .map(|(text, _)| AddedToken::from(text.clone(), true).normalized(false))
        .collect();
    let user: Vec<AddedToken> = texts
        .iter()
        .zip(types)
        .filter(|(text, t)| **t == TYPE_USER_DEFINED && !text.is_empty())
        .map(|(text, _)| AddedToken::from(text.clone(), false).normalized(false))
        .collect();
    tokenizer
        .add_special_tokens(specials)
        .map_err(|e| e.to_string())?;
    tokenizer.add_tokens(user).map_err(|e| e.to_string())?;
    Ok(())
}

/// Vocabulary map; the first of duplicate texts keeps its id.
fn vocab_map(texts: &[String]) -> Vocab {
    let mut vocab = Vocab::default();
    vocab.reserve(texts.len());
    for (i, text) in texts.iter().enumerate() {
        vocab.entry(text.clone()).or_insert(i as u32);
    }
    vocab
}

fn build_byte_level(
    texts: &[String],
    types: &[u32],
    merges: &[String],
    pre: &str,
) -> Result<(Tokenizer, Vec<Vec<u8>>), String> {
    let merges = merges
        .iter()
        .map(|m| {
            m.split_once(' ')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| format!("invalid merge `{m}`"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let bpe = BPE::builder()
        .vocab_and_merges(vocab_map(texts), merges)
        .build()
        .map_err(|e| format!("cannot build the BPE model: {e}"))?;
    let mut tokenizer = Tokenizer::new(bpe);
    // llama.cpp's pre-tokenizer regexes for the `tokenizer.ggml.pre` values we know.
    const QWEN2: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
    const LLAMA3: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
    let split = |regex: &str| -> Result<PreTokenizerWrapper, String> {
        Split::new(
            SplitPattern::Regex(regex.to_string()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
        .map(Into::into)
        .map_err(|e| e.to_string())
    };
    let pre_tokenizer: PreTokenizerWrapper = match pre {
        // Digits one by one, then GPT-2's regex.
        "smollm" | "starcoder" | "refact" | "codeshell" => PreSequence::new(vec![
            split(r"\p{N}")?,
            ByteLevel::new(false, false, true).into(),
        ])
        .into(),
        "qwen2" | "deepseek-r1-qwen" => {
            tokenizer
                .with_normalizer(Some(NormalizerWrapper::from(NFC)))
                .map_err(|e| e.to_string())?;
            PreSequence::new(vec![
                split(QWEN2)?,
                ByteLevel::new(false, false, false).into(),
            ])
            .into()
        }
        "llama3" | "llama-bpe" | "smaug-bpe" => PreSequence::new(vec![
            split(LLAMA3)?,
            ByteLevel::new(false, false, false).into(),
        ])
        .into(),
        _ => ByteLevel::new(false, false, true).into(),
    };
    tokenizer.with_pre_tokenizer(Some(pre_tokenizer));
    add_vocabulary_tokens(&mut tokenizer, texts, types)?;

    let table = byte_to_char_table();
    let mut char_to_byte = HashMap::with_capacity(256);
    for (byte, c) in table.iter().enumerate() {
        char_to_byte.insert(*c, byte as u8);
    }
    let pieces = texts
        .iter()
        .zip(types)
        .map(|(text, t)| match *t {
            TYPE_CONTROL => Vec::new(),
            TYPE_USER_DEFINED => text.as_bytes().to_vec(),
            _ => {
                let mut bytes = Vec::with_capacity(text.len());
                for c in text.chars() {
                    match char_to_byte.get(&c) {
                        Some(b) => bytes.push(*b),
                        None => {
                            let mut buf = [0_u8; 4];
                            bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        }
                    }
                }
                bytes
            }
        })
        .collect();
    Ok((tokenizer, pieces))
}

fn build_sentencepiece(
    texts: &[String],
    types: &[u32],
    scores: &[f64],
    add_space_prefix: bool,
    unk: Option<u32>,
) -> Result<(Tokenizer, Vec<Vec<u8>>), String> {
    let vocab = vocab_map(texts);
    // Merges: every split of a normal token into two normal tokens, best score first.
    let is_normal = |id: u32| types[id as usize] == TYPE_NORMAL;
    let mut ranked: Vec<(f64, u32, String, String)> = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        if types[i] != TYPE_NORMAL || text.chars().nth(1).is_none() {
            continue;
        }
        for (at, _) in text.char_indices().skip(1) {
            let (left, right) = text.split_at(at);
            let (Some(&l), Some(&r)) = (vocab.get(left), vocab.get(right)) else {
                continue;
            };
            if is_normal(l) && is_normal(r) {
                ranked.push((scores[i], i as u32, left.to_string(), right.to_string()));
            }
        }
    }
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let merges: Vec<(String, String)> = ranked.into_iter().map(|(_, _, l, r)| (l, r)).collect();
    let mut builder = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .byte_fallback(true);
    if let Some(unk) = unk {
        builder = builder.unk_token(texts[unk as usize].clone());
    }
    let bpe = builder
        .build()
        .map_err(|e| format!("cannot build the BPE model: {e}"))?;
    let mut tokenizer = Tokenizer::new(bpe);
    let replace = Replace::new(" ", "▁").map_err(|e| e.to_string())?;
    let normalizer: NormalizerWrapper = if add_space_prefix {
        NormalizerSequence::new(vec![Prepend::new("▁".into()).into(), replace.into()]).into()
    } else {
        replace.into()
    };
    tokenizer
        .with_normalizer(Some(normalizer))
        .map_err(|e| e.to_string())?;
    add_vocabulary_tokens(&mut tokenizer, texts, types)?;
    let pieces = texts
        .iter()
        .zip(types)
        .map(|(text, t)| match *t {
            TYPE_CONTROL => Vec::new(),
            TYPE_USER_DEFINED => text.as_bytes().to_vec(),
            TYPE_BYTE => byte_token_value(text).map_or_else(Vec::new, |b| vec![b]),
            _ => text.replace('▁', " ").into_bytes(),
        })
        .collect();
    Ok((tokenizer, pieces))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_table_maps_space_and_newline_like_gpt2() {
        let table = byte_to_char_table();
        assert_eq!(table[b' ' as usize], 'Ġ');
        assert_eq!(table[b'\n' as usize], 'Ċ');
        assert_eq!(table[b'a' as usize], 'a');
        let distinct: std::collections::HashSet<char> = table.iter().copied().collect();
        assert_eq!(distinct.len(), 256);
    }

    #[test]
    fn byte_tokens_are_parsed() {
        assert_eq!(byte_token_value("<0x0A>"), Some(10));
        assert_eq!(byte_token_value("<0xFF>"), Some(255));
        assert_eq!(byte_token_value("<0xZZ>"), None);
        assert_eq!(byte_token_value("a"), None);
    }

    fn tiny_sentencepiece() -> (Tokenizer, Vec<Vec<u8>>) {
        let texts: Vec<String> = [
            "<unk>", "<s>", "<0x0A>", "<0xC3>", "<0xA9>", "▁", "a", "b", "ab", "▁ab", "\n\n",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let types = vec![2, 3, 6, 6, 6, 1, 1, 1, 1, 1, 4];
        let scores = vec![0.0, 0.0, 0.0, 0.0, 0.0, -5.0, -6.0, -7.0, -1.0, -2.0, 0.0];
        build_sentencepiece(&texts, &types, &scores, false, Some(0)).unwrap()
    }

    #[test]
    fn sentencepiece_merges_by_score_and_falls_back_to_bytes() {
        let (tokenizer, pieces) = tiny_sentencepiece();
        let ids = tokenizer
            .encode("ab ab\n\né", false)
            .unwrap()
            .get_ids()
            .to_vec();
        // "ab", "▁ab", the user-defined "\n\n", then é as two byte tokens.
        assert_eq!(ids, vec![8, 9, 10, 3, 4]);
        let bytes: Vec<u8> = ids
            .iter()
            .flat_map(|i| pieces[*i as usize].clone())
            .collect();
        assert_eq!(String::from_utf8(bytes).unwrap(), "ab ab\n\né");
    }
}
