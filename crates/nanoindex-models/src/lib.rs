//! Model files of nanoindex-local: the one home of where they live (the models directory),
//! what they are (the manifest `models/models.toml`, compiled in, with sizes and SHA-256
//! checksums), whether they are installed intact, and the Hugging Face cache ([`hf`]).
//!
//! Nothing here opens a connection except [`hf::pull`], behind the `pull` feature: built
//! without it, this crate (and the engine) links no download code. Installing the default
//! models is `scripts/fetch-models.sh`'s job, never the program's.
//!
//! ```
//! use nanoindex_models::{ModelManifest, DEFAULT_TEXT_MODEL};
//! let manifest = ModelManifest::builtin();
//! let model = manifest.get(DEFAULT_TEXT_MODEL).unwrap();
//! assert!(model.files[0].path.ends_with(".gguf"));
//! ```

pub mod hf;

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

/// What can go wrong with model files.
#[derive(Debug, thiserror::Error)]
pub enum ModelsError {
    /// The models manifest could not be parsed.
    #[error("invalid models manifest `{}`: {reason}", path.display())]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A model file exists but cannot be read.
    #[error("cannot read model file `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A file is not in the Hugging Face cache and downloads are off (`HF_HUB_OFFLINE`).
    #[error("`{}` is not in the Hugging Face cache and HF_HUB_OFFLINE forbids downloading", path.display())]
    NotCached {
        /// Where the cached file would be.
        path: PathBuf,
    },
    /// A download failed (no network, unknown repository or file).
    #[error("cannot download `{what}`: {reason}")]
    Download {
        /// `REPO/FILE`.
        what: String,
        /// Why.
        reason: String,
    },
}

/// Results of this crate.
pub type Result<T, E = ModelsError> = std::result::Result<T, E>;

/// Environment variable that overrides the models directory.
pub const MODELS_DIR_ENV: &str = nanoindex_core::dirs::MODELS_ENV;

/// Manifest name of the default text model (SmolLM2-135M-Instruct Q4_1).
pub const DEFAULT_TEXT_MODEL: &str = "smollm2-135m-instruct-q4_1";

/// Manifest name of the default embedding model (all-MiniLM-L6-v2).
pub const DEFAULT_EMBEDDING_MODEL: &str = "all-minilm-l6-v2";

const BUILTIN_MANIFEST: &str = include_str!("../../../models/models.toml");

/// The models directory from the process environment: `NANOINDEX_MODELS`, else
/// `$XDG_CACHE_HOME/nanoindex/models`, else `$HOME/.cache/nanoindex/models`; `None` when
/// none of these variables is set.
#[must_use]
pub fn default_models_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
    models_dir_from(var(MODELS_DIR_ENV), var("XDG_CACHE_HOME"), var("HOME"))
}

/// The models-directory rule of [`default_models_dir`] applied to given values (empty
/// values count as unset).
///
/// ```
/// use std::path::PathBuf;
/// use nanoindex_models::models_dir_from;
/// let dir = models_dir_from(None, None, Some(PathBuf::from("/home/a")));
/// assert_eq!(dir, Some(PathBuf::from("/home/a/.cache/nanoindex/models")));
/// ```
#[must_use]
pub fn models_dir_from(
    models_env: Option<PathBuf>,
    xdg_cache_home: Option<PathBuf>,
    home: Option<PathBuf>,
) -> Option<PathBuf> {
    if let Some(dir) = models_env.filter(|path| !path.as_os_str().is_empty()) {
        return Some(dir);
    }
    nanoindex_core::dirs::cache_dir_from(xdg_cache_home.map(Into::into), home.map(Into::into))
        .map(|cache| cache.join("models"))
}

/// The manifest of known models (`models/models.toml`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ModelManifest {
    /// Every model, in manifest order.
    #[serde(rename = "model")]
    pub models: Vec<ModelEntry>,
}

/// One model of the manifest.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ModelEntry {
    /// Short name (`smollm2-135m-instruct-q4_1`).
    pub name: String,
    /// `text` or `embedding`.
    pub kind: String,
    /// One line about the model.
    pub description: String,
    /// The model's licence.
    pub license: String,
    /// Python packages (with versions) the files come from.
    pub packages: Vec<String>,
    /// The files that make up the model.
    #[serde(rename = "file")]
    pub files: Vec<ModelFile>,
}

/// One installed file of a model.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ModelFile {
    /// Path relative to the models directory.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Lowercase hex sha256 of the file.
    pub sha256: String,
    /// Paths inside the unpacked packages, concatenated in order.
    pub parts: Vec<String>,
}

/// What is found on disk for one manifest file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelFileStatus {
    /// No file at the expected path.
    Missing,
    /// A file with the wrong size (a partial download or another version).
    WrongSize {
        /// Size found, in bytes.
        found: u64,
    },
    /// The size matches; the checksum was not computed.
    Present,
    /// Size and sha256 match.
    Verified,
    /// The size matches but the sha256 does not.
    ChecksumMismatch,
}

impl ModelFileStatus {
    /// Whether the file can be used (present with the right size, checksum not known bad).
    #[must_use]
    pub fn is_usable(self) -> bool {
        matches!(self, ModelFileStatus::Present | ModelFileStatus::Verified)
    }
}

impl ModelManifest {
    /// The manifest compiled into this build.
    ///
    /// # Panics
    ///
    /// Never in practice: a unit test parses the same text.
    #[must_use]
    pub fn builtin() -> Self {
        Self::parse(BUILTIN_MANIFEST, Path::new("models/models.toml"))
            .expect("the built-in models manifest is valid (checked by a unit test)")
    }

    /// Parses manifest text; `origin` is only used in errors.
    ///
    /// # Errors
    ///
    /// [`ModelsError::Manifest`] when the text is not a valid manifest.
    pub fn parse(text: &str, origin: &Path) -> Result<Self> {
        toml::from_str(text).map_err(|error| ModelsError::Manifest {
            path: origin.to_path_buf(),
            reason: error.to_string(),
        })
    }

    /// The model with this manifest name.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&ModelEntry> {
        self.models.iter().find(|model| model.name == name)
    }
}

impl ModelEntry {
    /// Path of the model's first file inside `models_dir` (the GGUF file for text models).
    #[must_use]
    pub fn primary_path(&self, models_dir: &Path) -> PathBuf {
        self.files.first().map_or_else(
            || models_dir.to_path_buf(),
            |file| file.location(models_dir),
        )
    }

    /// Directory that holds the model's files inside `models_dir` (for multi-file models,
    /// such as an embedding model with its tokenizer).
    #[must_use]
    pub fn directory(&self, models_dir: &Path) -> PathBuf {
        let primary = self.primary_path(models_dir);
        primary.parent().map_or(primary.clone(), Path::to_path_buf)
    }
}

impl ModelFile {
    /// Where the file is installed inside `models_dir`.
    #[must_use]
    pub fn location(&self, models_dir: &Path) -> PathBuf {
        models_dir.join(&self.path)
    }

    /// Checks the installed file: existence and size, and the sha256 when `verify` is set
    /// (reads the whole file).
    ///
    /// # Errors
    ///
    /// [`ModelsError::Io`] when the file exists but cannot be read.
    pub fn status(&self, models_dir: &Path, verify: bool) -> Result<ModelFileStatus> {
        let path = self.location(models_dir);
        let metadata = match std::fs::metadata(&path) {
            Ok(metadata) if metadata.is_file() => metadata,
            Ok(_) => return Ok(ModelFileStatus::Missing),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(ModelFileStatus::Missing)
            }
            Err(source) => return Err(ModelsError::Io { path, source }),
        };
        if metadata.len() != self.size {
            return Ok(ModelFileStatus::WrongSize {
                found: metadata.len(),
            });
        }
        if !verify {
            return Ok(ModelFileStatus::Present);
        }
        let digest = sha256_file(&path)?;
        Ok(if digest == self.sha256 {
            ModelFileStatus::Verified
        } else {
            ModelFileStatus::ChecksumMismatch
        })
    }
}

/// Lowercase hex sha256 of a file.
fn sha256_file(path: &Path) -> Result<String> {
    use std::io::Read;
    let io_error = |source| ModelsError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io_error)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0_u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer).map_err(io_error)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_override_wins_then_xdg_then_home() {
        let p = |s: &str| Some(PathBuf::from(s));
        assert_eq!(models_dir_from(p("/m"), p("/x"), p("/h")), p("/m"));
        assert_eq!(
            models_dir_from(p(""), p("/x"), p("/h")),
            p("/x/nanoindex/models")
        );
        assert_eq!(
            models_dir_from(None, None, p("/h")),
            p("/h/.cache/nanoindex/models")
        );
        assert_eq!(models_dir_from(None, None, None), None);
    }

    #[test]
    fn builtin_manifest_has_the_default_models() {
        let manifest = ModelManifest::builtin();
        let text = manifest.get(DEFAULT_TEXT_MODEL).unwrap();
        assert_eq!(text.kind, "text");
        assert_eq!(text.files[0].path, "SmolLM2-135M-Instruct.Q4_1.gguf");
        let embed = manifest.get(DEFAULT_EMBEDDING_MODEL).unwrap();
        assert_eq!(
            embed.directory(Path::new("/m")),
            PathBuf::from("/m/all-MiniLM-L6-v2")
        );
        for file in manifest.models.iter().flat_map(|m| &m.files) {
            assert_eq!(file.sha256.len(), 64, "{}", file.path);
            assert!(!file.parts.is_empty(), "{}", file.path);
        }
    }

    #[test]
    fn status_detects_missing_wrong_size_and_bad_checksum() {
        let dir = tempfile::tempdir().unwrap();
        let file = ModelFile {
            path: "a.bin".into(),
            size: 3,
            // sha256 of "abc".
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".into(),
            parts: vec!["a.bin".into()],
        };
        assert_eq!(
            file.status(dir.path(), true).unwrap(),
            ModelFileStatus::Missing
        );
        std::fs::write(dir.path().join("a.bin"), b"abcd").unwrap();
        assert_eq!(
            file.status(dir.path(), true).unwrap(),
            ModelFileStatus::WrongSize { found: 4 }
        );
        std::fs::write(dir.path().join("a.bin"), b"abd").unwrap();
        assert_eq!(
            file.status(dir.path(), false).unwrap(),
            ModelFileStatus::Present
        );
        assert_eq!(
            file.status(dir.path(), true).unwrap(),
            ModelFileStatus::ChecksumMismatch
        );
        std::fs::write(dir.path().join("a.bin"), b"abc").unwrap();
        assert_eq!(
            file.status(dir.path(), true).unwrap(),
            ModelFileStatus::Verified
        );
    }

    #[test]
    fn invalid_manifest_is_an_error_naming_the_file() {
        let error = ModelManifest::parse("[[model]]\nname = 1", Path::new("m.toml")).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("invalid models manifest `m.toml`"),
            "{error}"
        );
    }
}
