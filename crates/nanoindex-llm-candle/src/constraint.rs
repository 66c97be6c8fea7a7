//! JSON-Schema-constrained decoding with llguidance: the token trie is built once per model
//! from the GGUF tokenizer, a parser factory compiles each request's schema, and a matcher
//! says which tokens may come next.

use std::sync::Arc;

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{TokEnv, TokRxInfo, TokTrie, TokenId, TokenizerEnv};
use llguidance::{Matcher, ParserFactory};
use nanoindex_llm::LlmError;

use crate::tokenizer::GgufTokenizer;

/// llguidance's view of our tokenizer: the trie of token bytes, and canonical tokenisation
/// through the GGUF tokenizer itself.
struct GgufTokEnv {
    trie: TokTrie,
    tokenizer: Arc<GgufTokenizer>,
}

impl TokenizerEnv for GgufTokEnv {
    fn tok_trie(&self) -> &TokTrie {
        &self.trie
    }

    fn tokenize_bytes(&self, s: &[u8]) -> Vec<TokenId> {
        match std::str::from_utf8(s) {
            Ok(text) => self
                .tokenizer
                .encode(text)
                .unwrap_or_else(|_| self.trie.greedy_tokenize(s)),
            Err(_) => self.trie.greedy_tokenize(s),
        }
    }
}

/// Compiles JSON Schemas into matchers for one model's vocabulary.
pub(crate) struct Constraints {
    factory: ParserFactory,
}

impl std::fmt::Debug for Constraints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Constraints").finish_non_exhaustive()
    }
}

impl Constraints {
    /// Builds the token trie and the parser factory for `tokenizer` with `n_vocab` logits
    /// (the output layer may be wider than the vocabulary list).
    pub(crate) fn new(tokenizer: Arc<GgufTokenizer>, n_vocab: usize) -> Result<Self, LlmError> {
        let mut words = tokenizer.trie_words();
        words.resize(n_vocab.max(words.len()), Vec::new());
        let eos = tokenizer
            .eos()
            .or_else(|| tokenizer.end_of_generation().first().copied())
            .unwrap_or(0);
        let mut info = TokRxInfo::new(u32::try_from(words.len()).unwrap_or(u32::MAX), eos);
        info.tok_bos = tokenizer.bos();
        info.tok_end_of_turn = tokenizer
            .end_of_generation()
            .iter()
            .copied()
            .find(|t| Some(*t) != tokenizer.eos());
        let trie = TokTrie::from(&info, &words);
        let env: TokEnv = Arc::new(GgufTokEnv { trie, tokenizer });
        let mut factory = ParserFactory::new_simple(&env)
            .map_err(|e| LlmError::Schema(format!("cannot prepare llguidance: {e}")))?;
        factory.quiet();
        Ok(Self { factory })
    }

    /// A matcher for output that is one JSON value satisfying `schema`, written compactly
    /// (no free whitespace between tokens, unless the schema's own `x-guidance` options say
    /// otherwise), with numbers of at most 16 integral digits (see [`bound_numbers`]).
    pub(crate) fn json_matcher(&self, schema: &serde_json::Value) -> Result<Matcher, LlmError> {
        let mut schema = schema.clone();
        bound_numbers(&mut schema);
        if let Some(object) = schema.as_object_mut() {
            object
                .entry("x-guidance")
                .or_insert_with(|| serde_json::json!({ "whitespace_flexible": false }));
        }
        let grammar = TopLevelGrammar::from_json_schema(schema);
        let parser = self
            .factory
            .create_parser(grammar)
            .map_err(|e| LlmError::Schema(e.to_string()))?;
        let matcher = Matcher::new(Ok(parser));
        if let Some(error) = matcher.get_error() {
            return Err(LlmError::Schema(error));
        }
        Ok(matcher)
    }
}

/// Largest magnitude given to numbers that have no bound of their own: 16 integral digits,
/// as llama.cpp's JSON grammar allows.
const NUMBER_BOUND: f64 = 9_999_999_999_999_999.0;

/// Adds `minimum`/`maximum` of ±[`NUMBER_BOUND`] to every `number` or `integer` schema
/// that lacks them. llguidance's number lexeme is otherwise unbounded, and small models
/// greedily repeat digits (`77000000…`) until the token budget ends; llama.cpp's grammar
/// bounds them the same way.
fn bound_numbers(schema: &mut serde_json::Value) {
    match schema {
        serde_json::Value::Object(object) => {
            let numeric = |t: &serde_json::Value| matches!(t.as_str(), Some("number" | "integer"));
            let is_number = match object.get("type") {
                Some(serde_json::Value::Array(types)) => types.iter().any(numeric),
                Some(t) => numeric(t),
                None => false,
            };
            if is_number {
                if !object.contains_key("minimum") && !object.contains_key("exclusiveMinimum") {
                    object.insert("minimum".into(), serde_json::json!(-NUMBER_BOUND));
                }
                if !object.contains_key("maximum") && !object.contains_key("exclusiveMaximum") {
                    object.insert("maximum".into(), serde_json::json!(NUMBER_BOUND));
                }
            }
            for value in object.values_mut() {
                bound_numbers(value);
            }
        }
        serde_json::Value::Array(values) => values.iter_mut().for_each(bound_numbers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbounded_numbers_get_bounds_and_explicit_bounds_stay() {
        let mut schema = serde_json::json!({
            "type": "object",
            "properties": {
                "a": { "type": "number" },
                "b": { "type": ["integer", "null"], "minimum": 0 },
                "c": { "type": "array", "items": { "type": "integer", "exclusiveMaximum": 5 } },
                "d": { "type": "string" }
            }
        });
        bound_numbers(&mut schema);
        let p = &schema["properties"];
        assert_eq!(p["a"]["minimum"], serde_json::json!(-NUMBER_BOUND));
        assert_eq!(p["a"]["maximum"], serde_json::json!(NUMBER_BOUND));
        assert_eq!(p["b"]["minimum"], serde_json::json!(0));
        assert_eq!(p["b"]["maximum"], serde_json::json!(NUMBER_BOUND));
        assert!(p["c"]["items"].get("maximum").is_none());
        assert_eq!(p["c"]["items"]["minimum"], serde_json::json!(-NUMBER_BOUND));
        assert!(p["d"].get("minimum").is_none());
    }
}
