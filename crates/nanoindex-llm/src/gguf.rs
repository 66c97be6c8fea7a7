//! A cheap check of the GGUF header (format: github.com/ggml-org/ggml, `docs/gguf.md`: magic
//! `GGUF`, little-endian u32 version, u64 tensor count, u64 metadata count) before a file is
//! handed to an engine, so that a file of the wrong kind gets a clear error instead of
//! whatever the engine's loader does with it. The one header check of both GGUF backends.

use std::io::Read;
use std::path::Path;

use crate::LlmError;

/// The four bytes every GGUF file starts with.
pub const MAGIC: &[u8; 4] = b"GGUF";

/// Upper bounds far above any real model; larger counts mean a corrupt header.
const MAX_TENSORS: u64 = 1 << 20;
const MAX_METADATA_ENTRIES: u64 = 1 << 20;

/// Header fields of a GGUF file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GgufHeader {
    /// Format version (2 or 3 are in use).
    pub version: u32,
    /// Number of tensors.
    pub n_tensors: u64,
    /// Number of metadata key/value pairs.
    pub n_metadata: u64,
}

/// Reads and checks the 24-byte GGUF header of `path`.
///
/// # Errors
///
/// [`LlmError::ModelNotFound`] when the file does not exist, [`LlmError::Io`] when it
/// cannot be read, [`LlmError::InvalidModelFile`] when it is too short, does not start
/// with `GGUF`, has an unknown version or implausible counts.
pub fn check_header(path: &Path) -> Result<GgufHeader, LlmError> {
    let invalid = |reason: String| LlmError::InvalidModelFile {
        path: path.to_path_buf(),
        expected: "GGUF".into(),
        reason,
    };
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(LlmError::ModelNotFound {
                path: path.to_path_buf(),
            })
        }
        Err(source) => {
            return Err(LlmError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(invalid("it is a directory".into()));
    }
    let mut header = [0_u8; 24];
    let mut filled = 0;
    while filled < header.len() {
        match file.read(&mut header[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(source) => {
                return Err(LlmError::Io {
                    path: path.to_path_buf(),
                    source,
                })
            }
        }
    }
    parse_header(&header[..filled]).map_err(invalid)
}

/// Parses the first bytes of a GGUF file (24 or more for a whole header). The error is the
/// reason the bytes are no usable GGUF header: not starting with `GGUF`, an unknown version
/// (named even when the rest is cut off), a truncated header or implausible counts.
///
/// # Errors
/// The reason, as a sentence fragment ("it does not start with `GGUF` (found `%PDF`)").
pub fn parse_header(bytes: &[u8]) -> Result<GgufHeader, String> {
    let filled = bytes.len().min(24);
    let header = &bytes[..filled];
    if filled < 4 || &header[..4] != MAGIC {
        let found: String = header[..filled.min(4)]
            .iter()
            .map(|b| {
                if b.is_ascii_graphic() {
                    char::from(*b)
                } else {
                    '.'
                }
            })
            .collect();
        return Err(format!("it does not start with `GGUF` (found `{found}`)"));
    }
    let u32_at = |at: usize| {
        u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    let u64_at = |at: usize| {
        let mut bytes = [0_u8; 8];
        bytes.copy_from_slice(&header[at..at + 8]);
        u64::from_le_bytes(bytes)
    };
    // The version is named even when the rest of the header is cut off.
    let version = (filled >= 8).then(|| u32_at(4));
    if let Some(version) = version.filter(|v| !(2..=3).contains(v)) {
        return Err(format!(
            "unsupported GGUF version `{version}` (expected 2 or 3)"
        ));
    }
    if filled < 24 {
        return Err(format!("the header is truncated ({filled} of 24 bytes)"));
    }
    let version = u32_at(4);
    let n_tensors = u64_at(8);
    let n_metadata = u64_at(16);
    if n_tensors > MAX_TENSORS || n_metadata > MAX_METADATA_ENTRIES {
        return Err(format!(
            "implausible header: `{n_tensors}` tensors, `{n_metadata}` metadata entries"
        ));
    }
    Ok(GgufHeader {
        version,
        n_tensors,
        n_metadata,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(bytes: &[u8]) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), bytes).unwrap();
        file
    }

    fn header(version: u32, n_tensors: u64, n_metadata: u64) -> Vec<u8> {
        let mut bytes = b"GGUF".to_vec();
        bytes.extend(version.to_le_bytes());
        bytes.extend(n_tensors.to_le_bytes());
        bytes.extend(n_metadata.to_le_bytes());
        bytes
    }

    #[test]
    fn valid_header_is_read() {
        let file = write(&header(3, 12, 7));
        assert_eq!(
            check_header(file.path()).unwrap(),
            GgufHeader {
                version: 3,
                n_tensors: 12,
                n_metadata: 7
            }
        );
    }

    #[test]
    fn wrong_magic_names_what_was_found() {
        let file = write(b"PK\x03\x04 a zip file, not a model");
        let error = check_header(file.path()).unwrap_err().to_string();
        assert!(error.contains("is not a valid GGUF file"), "{error}");
        assert!(error.contains("found `PK..`"), "{error}");
    }

    #[test]
    fn empty_truncated_and_implausible_headers_are_rejected() {
        for (bytes, needle) in [
            (Vec::new(), "does not start with `GGUF`"),
            (
                header(3, 1, 1)[..10].to_vec(),
                "header is truncated (10 of 24 bytes)",
            ),
            (header(9, 1, 1), "unsupported GGUF version `9`"),
            (header(3, u64::MAX, 1), "implausible header"),
        ] {
            let file = write(&bytes);
            let error = check_header(file.path()).unwrap_err().to_string();
            assert!(error.contains(needle), "{needle}: {error}");
        }
    }

    #[test]
    fn missing_file_and_directory() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            check_header(&dir.path().join("absent.gguf")),
            Err(LlmError::ModelNotFound { .. })
        ));
        let error = check_header(dir.path()).unwrap_err().to_string();
        assert!(error.contains("it is a directory"), "{error}");
    }
}
