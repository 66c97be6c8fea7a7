//! Model replies saved as they come, so that a killed enrichment resumes where it stopped.
//!
//! Every reply is appended to a JSON Lines file (one `{"key", "text"}` object per line) and
//! flushed after each batch of requests. The key is the SHA-256 of the model's name and the
//! whole request (messages, schema, limits, sampling), so a reply is only ever reused for
//! the very request that produced it, by the same model. Enrichment asks its requests in a
//! fixed order and every later request is made from the tree and earlier replies, so a
//! second run over the same document makes the same requests again: those in the file are
//! answered from it, and the model starts at the first one that is not. The file is removed
//! when the document's enrichment is written.
//!
//! A line cut short by a kill (the last one) is ignored.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use nanoindex_llm::GenerateRequest;
use sha2::{Digest, Sha256};

/// Saved replies of one document's enrichment and the file they are appended to.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    replies: HashMap<String, String>,
    file: Option<std::fs::File>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Line {
    key: String,
    text: String,
}

impl Checkpoint {
    /// Opens (or starts) the checkpoint at `path`, reading the replies an earlier run saved
    /// there. A missing file is an empty checkpoint; unreadable lines are skipped.
    ///
    /// # Errors
    ///
    /// The file exists but cannot be read.
    pub fn open(path: &Path) -> std::io::Result<Self> {
        let mut replies = HashMap::new();
        match std::fs::read_to_string(path) {
            Ok(text) => {
                for line in text.lines() {
                    if let Ok(l) = serde_json::from_str::<Line>(line) {
                        replies.insert(l.key, l.text);
                    }
                }
                // A line cut short by a kill is dropped, so that the next one starts on a
                // line of its own.
                if !text.is_empty() && !text.ends_with('\n') {
                    let keep = text.rfind('\n').map_or(0, |i| i + 1);
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(path)?
                        .set_len(keep as u64)?;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        Ok(Checkpoint {
            path: path.to_path_buf(),
            replies,
            file: None,
        })
    }

    /// Where the replies are saved.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replies saved so far (read from an earlier run, or saved in this one).
    pub fn len(&self) -> usize {
        self.replies.len()
    }

    /// Whether no reply is saved.
    pub fn is_empty(&self) -> bool {
        self.replies.is_empty()
    }

    /// The key of `request` to `model`: hex SHA-256 of the model name, a NUL, and the request
    /// as JSON.
    pub(crate) fn key(model: &str, request: &GenerateRequest) -> String {
        let mut hash = Sha256::new();
        hash.update(model.as_bytes());
        hash.update([0]);
        hash.update(serde_json::to_vec(request).unwrap_or_default());
        hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The saved reply to the request with this key.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.replies.get(key).map(String::as_str)
    }

    /// Saves replies (key, text) and flushes them to the file.
    ///
    /// # Errors
    ///
    /// The file cannot be created or written.
    pub(crate) fn save(&mut self, replies: &[(String, String)]) -> std::io::Result<()> {
        if replies.is_empty() {
            return Ok(());
        }
        if self.file.is_none() {
            self.file = Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)?,
            );
        }
        let mut out = String::new();
        for (key, text) in replies {
            let line = serde_json::to_string(&Line {
                key: key.clone(),
                text: text.clone(),
            })
            .map_err(std::io::Error::other)?;
            out.push_str(&line);
            out.push('\n');
            self.replies.insert(key.clone(), text.clone());
        }
        let file = self.file.as_mut().expect("opened above");
        file.write_all(out.as_bytes())?;
        file.flush()
    }

    /// Removes the file (the document's enrichment is written). A file already gone is no
    /// error.
    ///
    /// # Errors
    ///
    /// The file exists and cannot be removed.
    pub fn remove(self) -> std::io::Result<()> {
        drop(self.file);
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_survive_a_reopen_and_a_line_cut_short_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("doc.checkpoint.jsonl");
        let a = GenerateRequest::chat("system", "first");
        let b = GenerateRequest::chat("system", "second");
        let (ka, kb) = (Checkpoint::key("m", &a), Checkpoint::key("m", &b));
        assert_ne!(ka, kb);
        assert_ne!(ka, Checkpoint::key("other model", &a));
        let mut c = Checkpoint::open(&path).unwrap();
        assert!(c.is_empty());
        c.save(&[(ka.clone(), "reply one".into())]).unwrap();
        c.save(&[(kb.clone(), "reply \"two\"\nlines".into())])
            .unwrap();
        drop(c);
        // A kill in the middle of a write leaves half a line.
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        file.write_all(b"{\"key\": \"abc\", \"te").unwrap();
        drop(file);
        let mut c = Checkpoint::open(&path).unwrap();
        assert_eq!(c.len(), 2);
        let kc = Checkpoint::key("m", &GenerateRequest::chat("system", "third"));
        c.save(&[(kc.clone(), "reply three".into())]).unwrap();
        drop(c);
        let c = Checkpoint::open(&path).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c.get(&kc), Some("reply three"));
        assert_eq!(c.get(&ka), Some("reply one"));
        assert_eq!(c.get(&kb), Some("reply \"two\"\nlines"));
        c.remove().unwrap();
        assert!(!path.exists());
    }
}
