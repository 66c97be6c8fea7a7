//! Opening a GGUF file for candle: the header is checked first
//! ([`nanoindex_llm::gguf::check_header`]), then candle's reader parses
//! the metadata and tensor directory, and every tensor's bytes are checked to lie inside the
//! file, so that a file of the wrong kind or a truncated download gets a clear error before
//! any weight is read.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use candle_core::quantized::{gguf_file, QTensor};
use candle_core::Device;
use nanoindex_llm::LlmError;

/// A GGUF file opened for reading: its parsed metadata and tensor directory, and the open
/// file that tensors are read from.
pub(crate) struct ModelFile {
    pub(crate) path: PathBuf,
    pub(crate) content: gguf_file::Content,
    reader: BufReader<File>,
}

impl std::fmt::Debug for ModelFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelFile")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

fn invalid(path: &Path, reason: String) -> LlmError {
    LlmError::InvalidModelFile {
        path: path.to_path_buf(),
        expected: "GGUF".into(),
        reason,
    }
}

impl ModelFile {
    /// Opens `path`, checks the header and that every tensor lies inside the file.
    ///
    /// # Errors
    ///
    /// [`LlmError::ModelNotFound`] for a missing file, [`LlmError::Io`] when it cannot be
    /// read, [`LlmError::InvalidModelFile`] when it is not GGUF, is truncated or its
    /// directory is corrupt.
    pub(crate) fn open(path: &Path) -> Result<Self, LlmError> {
        let io = |source: std::io::Error| LlmError::Io {
            path: path.to_path_buf(),
            source,
        };
        nanoindex_llm::gguf::check_header(path)?;
        let file = File::open(path).map_err(io)?;
        let file_len = file.metadata().map_err(io)?.len();
        let mut reader = BufReader::new(file);
        // candle's reader bounds every length by the file size; the unwind guard turns any
        // panic it might still hit on hostile input (such as a zero alignment) into an error.
        let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            gguf_file::Content::read(&mut reader)
        }));
        let content = match parsed {
            Ok(Ok(content)) => content,
            Ok(Err(error)) => {
                let reason = error.to_string();
                let truncated = reason.contains("remaining") || reason.contains("failed to fill");
                return Err(invalid(
                    path,
                    if truncated {
                        format!("the file is truncated or its directory is corrupt ({reason})")
                    } else {
                        format!("corrupt metadata or tensor directory ({reason})")
                    },
                ));
            }
            Err(_) => {
                return Err(invalid(
                    path,
                    "corrupt metadata or tensor directory (the GGUF reader failed)".into(),
                ))
            }
        };
        for (name, info) in &content.tensor_infos {
            let elements = info.shape.elem_count();
            let block = info.ggml_dtype.block_size();
            if block == 0 || elements % block != 0 {
                return Err(invalid(
                    path,
                    format!(
                        "tensor `{name}` has `{elements}` values, not whole blocks of `{block}`"
                    ),
                ));
            }
            let bytes = (elements / block) as u64 * info.ggml_dtype.type_size() as u64;
            let end = content
                .tensor_data_offset
                .saturating_add(info.offset)
                .saturating_add(bytes);
            if end > file_len {
                return Err(invalid(
                    path,
                    format!(
                        "the file is truncated: tensor `{name}` ends at byte {end} but the file \
                         has {file_len} bytes"
                    ),
                ));
            }
        }
        Ok(Self {
            path: path.to_path_buf(),
            content,
            reader,
        })
    }

    /// A string metadata value.
    pub(crate) fn string(&self, key: &str) -> Option<&str> {
        match self.content.metadata.get(key) {
            Some(gguf_file::Value::String(s)) => Some(s),
            _ => None,
        }
    }

    /// Whether the file holds tensor `name`.
    pub(crate) fn has_tensor(&self, name: &str) -> bool {
        self.content.tensor_infos.contains_key(name)
    }

    /// The shape of tensor `name` in candle's order (rows first), if present.
    pub(crate) fn tensor_shape(&self, name: &str) -> Option<Vec<usize>> {
        self.content
            .tensor_infos
            .get(name)
            .map(|info| info.shape.dims().to_vec())
    }

    /// Reads tensor `name` onto `device`; errors are messages naming it.
    pub(crate) fn tensor(&mut self, name: &str, device: &Device) -> Result<QTensor, String> {
        if !self.has_tensor(name) {
            return Err(format!("tensor `{name}` is missing"));
        }
        self.content
            .tensor(&mut self.reader, name, device)
            .map_err(|e| format!("cannot read tensor `{name}`: {e}"))
    }
}

/// An unsigned integer metadata value (any integer width).
pub(crate) fn metadata_u32(md: &HashMap<String, gguf_file::Value>, key: &str) -> Option<u32> {
    use gguf_file::Value;
    match md.get(key)? {
        Value::U8(v) => Some(u32::from(*v)),
        Value::U16(v) => Some(u32::from(*v)),
        Value::U32(v) => Some(*v),
        Value::U64(v) => u32::try_from(*v).ok(),
        Value::I8(v) => u32::try_from(*v).ok(),
        Value::I16(v) => u32::try_from(*v).ok(),
        Value::I32(v) => u32::try_from(*v).ok(),
        Value::I64(v) => u32::try_from(*v).ok(),
        _ => None,
    }
}

/// A floating-point metadata value.
pub(crate) fn metadata_f32(md: &HashMap<String, gguf_file::Value>, key: &str) -> Option<f32> {
    use gguf_file::Value;
    match md.get(key)? {
        Value::F32(v) => Some(*v),
        #[allow(clippy::cast_possible_truncation)]
        Value::F64(v) => Some(*v as f32),
        _ => None,
    }
}

/// A boolean metadata value.
pub(crate) fn metadata_bool(md: &HashMap<String, gguf_file::Value>, key: &str) -> Option<bool> {
    match md.get(key)? {
        gguf_file::Value::Bool(v) => Some(*v),
        _ => None,
    }
}
