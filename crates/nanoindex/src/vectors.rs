//! Dense vectors of a document's passages, computed when a question first needs them and
//! kept by the text they embed, never by position.
//!
//! A question needs the vectors of the passages [`RetrievalIndex::dense_candidates`] names
//! (about a hundred), so the first question on a new PDF embeds those, not the whole
//! document; later questions reuse them and embed only what they add. Each vector is keyed
//! by the first 16 bytes of the SHA-256 of its text ([`nanoindex_retrieve::dense_texts`]):
//! a passage whose text changed (another tree revision, the same PDF prepared from its tree
//! JSON) can never be given another passage's vector.
//!
//! Cache file (`<dir>/<model>.vectors`): the 8 bytes `NIVECT01`, the dimension as a
//! little-endian `u32`, then records of a 16-byte key and `dimension` little-endian `f32`s.
//! It is rewritten whole (temporary file + rename) under an advisory lock on
//! `<dir>/<model>.lock` after new vectors are merged with what another process may have
//! added meanwhile; a damaged file is ignored and replaced. Questions on one document in one
//! process wait for each other while a question embeds.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use nanoindex_llm::{Embedder, LlmError};
use nanoindex_retrieve::{Passage, QueryAnalysis, RetrievalIndex};
use sha2::{Digest, Sha256};

/// The cache file's first bytes (format 1).
const MAGIC: &[u8; 8] = b"NIVECT01";

/// Key of a vector: the first 16 bytes of the SHA-256 of the text it embeds.
type Key = [u8; 16];

fn key(text: &str) -> Key {
    let digest = Sha256::digest(text.as_bytes());
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

/// The passage vectors of one document for one embedding model.
pub struct PassageVectors {
    model: String,
    /// Text embedded for each passage of the index, in the index's passage order (made from
    /// the index's own passages, so the two cannot disagree in length or order).
    texts: Vec<String>,
    known: Mutex<HashMap<Key, Vec<f32>>>,
    file: Option<PathBuf>,
}

impl std::fmt::Debug for PassageVectors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PassageVectors")
            .field("model", &self.model)
            .field("passages", &self.texts.len())
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl PassageVectors {
    /// The vectors of `index`'s passages for the embedding model `model`, read from the cache
    /// in `dir` when there is one (`None`: kept in memory only, e.g. for an encrypted PDF).
    #[must_use]
    pub fn open(index: &RetrievalIndex, model: &str, dir: Option<&Path>) -> Self {
        let texts = nanoindex_retrieve::dense_texts(index.passages());
        let file = dir.map(|d| d.join(format!("{}.vectors", file_key(model))));
        let known = file.as_deref().map(read_file).unwrap_or_default();
        PassageVectors {
            model: model.to_string(),
            texts,
            known: Mutex::new(known),
            file,
        }
    }

    /// The embedding model's name.
    #[must_use]
    pub fn model(&self) -> &str {
        &self.model
    }

    /// Vectors of the passages `passages` (indices into the index's passages), embedding
    /// with `embedder` those not known yet and caching
    /// them. Returns the vectors in the order asked and how many were embedded now.
    ///
    /// # Errors
    /// [`LlmError`] when embedding fails, or `embedder` is not the model these vectors are
    /// for ([`LlmError::InvalidRequest`]).
    pub fn vectors(
        &self,
        embedder: &dyn Embedder,
        passages: &[usize],
    ) -> Result<(Vec<Vec<f32>>, usize), LlmError> {
        if embedder.model_name() != self.model {
            return Err(LlmError::InvalidRequest(format!(
                "the passage vectors are for `{}`, not `{}`",
                self.model,
                embedder.model_name()
            )));
        }
        let keys: Vec<Option<(Key, &str)>> = passages
            .iter()
            .map(|&i| self.texts.get(i).map(|t| (key(t), t.as_str())))
            .collect();
        let mut known = self.known.lock().unwrap_or_else(|p| p.into_inner());
        let mut missing: Vec<(Key, &str)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &(k, text) in keys.iter().flatten() {
            if !known.contains_key(&k) && seen.insert(k) {
                missing.push((k, text));
            }
        }
        if !missing.is_empty() {
            let texts: Vec<&str> = missing.iter().map(|&(_, t)| t).collect();
            let embedded = embedder.embed(&texts)?;
            let new: Vec<(Key, Vec<f32>)> = missing.iter().map(|&(k, _)| k).zip(embedded).collect();
            if let Some(file) = &self.file {
                // A cache that cannot be written only costs time next run.
                let _ = merge_into_file(file, &new);
            }
            known.extend(new);
        }
        let vectors = keys
            .iter()
            .map(|k| {
                k.and_then(|(k, _)| known.get(&k).cloned())
                    .unwrap_or_default()
            })
            .collect();
        Ok((vectors, missing.len()))
    }

    /// Takes vectors computed elsewhere (a knowledge base's store), each with the passage it
    /// was computed for; each is keyed by the text that passage embeds
    /// ([`nanoindex_retrieve::dense_texts`]), so it serves only a passage of this index with
    /// that same text. Returns how many of them were new.
    pub fn remember(&self, stored: impl IntoIterator<Item = (Passage, Vec<f32>)>) -> usize {
        let (passages, vectors): (Vec<Passage>, Vec<Vec<f32>>) = stored.into_iter().unzip();
        let texts = nanoindex_retrieve::dense_texts(&passages);
        let mut known = self.known.lock().unwrap_or_else(|p| p.into_inner());
        let before = known.len();
        known.extend(texts.iter().map(|t| key(t)).zip(vectors));
        known.len() - before
    }

    /// Vectors of every passage, in the index's order (see [`PassageVectors::vectors`]).
    ///
    /// # Errors
    /// As [`PassageVectors::vectors`].
    pub fn all(&self, embedder: &dyn Embedder) -> Result<Vec<Vec<f32>>, LlmError> {
        let every: Vec<usize> = (0..self.texts.len()).collect();
        Ok(self.vectors(embedder, &every)?.0)
    }
}

/// Dense similarities of `question` (analysed as `query`) to the passages that `doc`'s
/// ranking uses ([`RetrievalIndex::dense_candidates`]): `(passage, cosine)` pairs for
/// [`RetrievalIndex::rank_pages`], and the passages embedded now.
///
/// # Errors
/// [`LlmError`] when the question or a passage cannot be embedded.
pub(crate) fn similarities(
    index: &RetrievalIndex,
    vectors: &PassageVectors,
    embedder: &dyn Embedder,
    question: &str,
    query: &QueryAnalysis,
) -> Result<(Vec<(usize, f32)>, usize), LlmError> {
    let Some(question_vector) = embedder.embed(&[question])?.into_iter().next() else {
        return Ok((Vec::new(), 0));
    };
    let candidates = index.dense_candidates(query);
    let (passage_vectors, embedded) = vectors.vectors(embedder, &candidates)?;
    let pairs = candidates
        .into_iter()
        .zip(&passage_vectors)
        .filter(|(_, v)| v.len() == question_vector.len())
        .map(|(i, v)| (i, v.iter().zip(&question_vector).map(|(a, b)| a * b).sum()))
        .collect();
    Ok((pairs, embedded))
}

/// A model name as a file name.
fn file_key(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The vectors in a cache file; empty when it is missing or damaged.
fn read_file(path: &Path) -> HashMap<Key, Vec<f32>> {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| decode(&bytes))
        .unwrap_or_default()
}

fn decode(bytes: &[u8]) -> Option<HashMap<Key, Vec<f32>>> {
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let (dim, records) = rest.split_first_chunk::<4>()?;
    let dim = usize::try_from(u32::from_le_bytes(*dim)).ok()?;
    let record = 16 + dim * 4;
    if dim == 0 || records.len() % record != 0 {
        return None;
    }
    Some(
        records
            .chunks_exact(record)
            .map(|r| {
                let mut k = [0u8; 16];
                k.copy_from_slice(&r[..16]);
                let v = r[16..]
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                (k, v)
            })
            .collect(),
    )
}

fn encode(vectors: &HashMap<Key, Vec<f32>>) -> Vec<u8> {
    let dim = vectors.values().next().map_or(0, Vec::len);
    let mut out = Vec::with_capacity(12 + vectors.len() * (16 + dim * 4));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&u32::try_from(dim).unwrap_or(0).to_le_bytes());
    let mut keys: Vec<&Key> = vectors
        .keys()
        .filter(|k| vectors[*k].len() == dim)
        .collect();
    keys.sort();
    for k in keys {
        out.extend_from_slice(k);
        for x in &vectors[k] {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}

/// Adds `new` to the cache file at `path` (creating it), keeping what is there: read, merge
/// and rewrite under an advisory lock on a `.lock` file beside it.
fn merge_into_file(path: &Path, new: &[(Key, Vec<f32>)]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let _lock = crate::prepare::lock_file(&path.with_extension("lock"))?;
    let mut all = read_file(path);
    let dim = new.first().map_or(0, |(_, v)| v.len());
    all.retain(|_, v| v.len() == dim);
    all.extend(new.iter().cloned());
    nanoindex_core::io::write_atomic(path, &encode(&all))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_file_round_trips_and_rejects_damage() {
        let mut vectors = HashMap::new();
        vectors.insert(key("a"), vec![0.5, -1.0, 2.0]);
        vectors.insert(key("b"), vec![1.0, 0.0, 0.25]);
        let bytes = encode(&vectors);
        assert_eq!(bytes.len(), 12 + 2 * (16 + 12));
        assert_eq!(decode(&bytes), Some(vectors));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(decode(b"NIVECT00\x03\0\0\0"), None);
    }

    /// An embedder that must never be called: every vector asked for is already known.
    struct NoEmbedder;

    impl Embedder for NoEmbedder {
        fn model_name(&self) -> &str {
            "test-model"
        }
        fn dimension(&self) -> usize {
            2
        }
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, LlmError> {
            Err(LlmError::InvalidRequest(format!(
                "asked to embed {texts:?}"
            )))
        }
    }

    /// Stored vectors are taken by the text of their passage, whatever their order: a
    /// store that lists them in another order, or lacks one, cannot give a passage another
    /// passage's vector.
    #[test]
    fn remembered_vectors_follow_their_text_not_their_position() {
        use nanoindex_core::{assign_node_ids, DocumentGraph, DocumentTree, TreeNode};
        let mut structure: Vec<TreeNode> = ["Revenue grew strongly", "Capital spending fell"]
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let mut n = TreeNode::new(format!("Part {i}"), i as u32 + 1, i as u32 + 1);
                n.text = Some((*text).to_string());
                n
            })
            .collect();
        assign_node_ids(&mut structure);
        let tree = DocumentTree {
            structure,
            ..DocumentTree::default()
        };
        let index = RetrievalIndex::build(&tree, &DocumentGraph::default());
        let vectors = PassageVectors::open(&index, "test-model", None);
        let mut stored: Vec<(Passage, Vec<f32>)> = index
            .passages()
            .iter()
            .cloned()
            .zip([vec![1.0, 0.0], vec![0.0, 1.0]])
            .collect();
        stored.reverse();
        // A vector of a passage whose text this index no longer has is never used.
        let mut stale = stored[0].0.clone();
        stale.text = "Revenue fell".into();
        stored.push((stale, vec![9.0, 9.0]));
        assert_eq!(vectors.remember(stored), 3);
        let (got, embedded) = vectors.vectors(&NoEmbedder, &[0, 1]).unwrap();
        assert_eq!(embedded, 0);
        assert_eq!(got, [vec![1.0, 0.0], vec![0.0, 1.0]]);
    }

    #[test]
    fn merging_keeps_what_another_process_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.vectors");
        merge_into_file(&path, &[(key("a"), vec![1.0, 2.0])]).unwrap();
        merge_into_file(&path, &[(key("b"), vec![3.0, 4.0])]).unwrap();
        let read = read_file(&path);
        assert_eq!(read.len(), 2);
        assert_eq!(read[&key("a")], vec![1.0, 2.0]);
        assert_eq!(read[&key("b")], vec![3.0, 4.0]);
    }
}
