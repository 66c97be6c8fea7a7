//! Backend spec strings: `llama-cpp:PATH`, `candle:PATH`, `ollama:NAME`, `openai:MODEL@URL`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::{LlmError, Result};

/// Which backend runs which model, as the user writes it after `--llm`.
///
/// An empty string means the default model on the default backend.
///
/// ```
/// use nanoindex_llm::BackendSpec;
/// let spec: BackendSpec = "openai:gpt-4o-mini@http://127.0.0.1:8080".parse().unwrap();
/// assert_eq!(
///     spec,
///     BackendSpec::OpenAi { model: "gpt-4o-mini".into(), base_url: "http://127.0.0.1:8080".into() }
/// );
/// assert_eq!(spec.to_string(), "openai:gpt-4o-mini@http://127.0.0.1:8080");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackendSpec {
    /// The default text model (SmolLM2-135M-Instruct) on the default backend (llama.cpp).
    Default,
    /// A GGUF file run by llama.cpp.
    LlamaCpp {
        /// Path to the GGUF file; a relative path that does not exist is also looked up in
        /// the models directory.
        path: PathBuf,
    },
    /// A GGUF file run by candle.
    Candle {
        /// Path to the GGUF file, resolved like [`BackendSpec::LlamaCpp`]'s.
        path: PathBuf,
    },
    /// A model served by Ollama at `OLLAMA_HOST`.
    Ollama {
        /// Ollama's model name (`llama3.2:1b`).
        model: String,
    },
    /// A model served by an OpenAI-compatible server.
    OpenAi {
        /// The model name sent in the request.
        model: String,
        /// Base URL of the server (`http://host:port`, without `/v1`).
        base_url: String,
    },
}

const FORMS: &str = "expected `PATH.gguf` (the default local backend), `llama-cpp:PATH`, `candle:PATH`, `ollama:NAME` or `openai:MODEL@URL`";

/// The backend prefixes of spec strings.
const BACKENDS: &[&str] = &["llama-cpp", "candle", "ollama", "openai"];

impl BackendSpec {
    /// The backend's name as used in spec strings (`llama-cpp`, `candle`, `ollama`,
    /// `openai`); the default spec names the default backend.
    #[must_use]
    pub fn backend_name(&self) -> &'static str {
        match self {
            BackendSpec::Default | BackendSpec::LlamaCpp { .. } => "llama-cpp",
            BackendSpec::Candle { .. } => "candle",
            BackendSpec::Ollama { .. } => "ollama",
            BackendSpec::OpenAi { .. } => "openai",
        }
    }

    /// The cargo feature of the `nanoindex` crate that compiles this backend in.
    #[must_use]
    pub fn cargo_feature(&self) -> &'static str {
        match self {
            BackendSpec::Default | BackendSpec::LlamaCpp { .. } => "llamacpp",
            BackendSpec::Candle { .. } => "candle",
            BackendSpec::Ollama { .. } | BackendSpec::OpenAi { .. } => "http",
        }
    }

    /// The model file of a file-based spec, looked up as given and then, for relative
    /// paths, inside `models_dir`; `None` for HTTP backends and the default spec.
    ///
    /// # Errors
    ///
    /// [`LlmError::ModelNotFound`] when the file is in neither place (the error names the
    /// path as given).
    pub fn resolve_model_path(&self, models_dir: Option<&Path>) -> Result<Option<PathBuf>> {
        let path = match self {
            BackendSpec::LlamaCpp { path } | BackendSpec::Candle { path } => path,
            _ => return Ok(None),
        };
        if path.exists() {
            return Ok(Some(path.clone()));
        }
        if path.is_relative() {
            if let Some(dir) = models_dir {
                let candidate = dir.join(path);
                if candidate.exists() {
                    return Ok(Some(candidate));
                }
            }
        }
        Err(LlmError::ModelNotFound { path: path.clone() })
    }
}

impl FromStr for BackendSpec {
    type Err = LlmError;

    fn from_str(spec: &str) -> Result<Self> {
        let trimmed = spec.trim();
        if trimmed.is_empty() {
            return Ok(BackendSpec::Default);
        }
        let invalid = |reason: String| LlmError::InvalidSpec {
            spec: spec.to_string(),
            reason,
        };
        // A bare path to a GGUF file means the default local backend (llama.cpp), also when
        // the path itself holds a `:`.
        let prefix = trimmed.split_once(':').map(|(b, _)| b);
        if !prefix.is_some_and(|b| BACKENDS.contains(&b))
            && trimmed.to_ascii_lowercase().ends_with(".gguf")
        {
            return Ok(BackendSpec::LlamaCpp {
                path: PathBuf::from(trimmed),
            });
        }
        let Some((backend, rest)) = trimmed.split_once(':') else {
            return Err(invalid(format!("no backend prefix; {FORMS}")));
        };
        if rest.is_empty() {
            return Err(invalid(format!("nothing after `{backend}:`; {FORMS}")));
        }
        match backend {
            "llama-cpp" => Ok(BackendSpec::LlamaCpp {
                path: PathBuf::from(rest),
            }),
            "candle" => Ok(BackendSpec::Candle {
                path: PathBuf::from(rest),
            }),
            "ollama" => Ok(BackendSpec::Ollama {
                model: rest.to_string(),
            }),
            "openai" => {
                let Some((model, base_url)) = rest.split_once('@') else {
                    return Err(invalid("expected `openai:MODEL@URL`".to_string()));
                };
                if model.is_empty() {
                    return Err(invalid("empty model name before `@`".to_string()));
                }
                if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
                    return Err(invalid(format!(
                        "URL `{base_url}` must start with `http://` or `https://`"
                    )));
                }
                Ok(BackendSpec::OpenAi {
                    model: model.to_string(),
                    base_url: base_url.trim_end_matches('/').to_string(),
                })
            }
            other => Err(invalid(format!("unknown backend `{other}`; {FORMS}"))),
        }
    }
}

impl fmt::Display for BackendSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendSpec::Default => Ok(()),
            BackendSpec::LlamaCpp { path } => write!(f, "llama-cpp:{}", path.display()),
            BackendSpec::Candle { path } => write!(f, "candle:{}", path.display()),
            BackendSpec::Ollama { model } => write!(f, "ollama:{model}"),
            BackendSpec::OpenAi { model, base_url } => write!(f, "openai:{model}@{base_url}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form_and_round_trips() {
        let cases = [
            (
                "llama-cpp:/m/a.gguf",
                BackendSpec::LlamaCpp {
                    path: "/m/a.gguf".into(),
                },
            ),
            (
                "candle:rel/b.gguf",
                BackendSpec::Candle {
                    path: "rel/b.gguf".into(),
                },
            ),
            (
                "ollama:llama3.2:1b",
                BackendSpec::Ollama {
                    model: "llama3.2:1b".into(),
                },
            ),
            (
                "openai:m@https://h:1",
                BackendSpec::OpenAi {
                    model: "m".into(),
                    base_url: "https://h:1".into(),
                },
            ),
        ];
        for (text, expected) in cases {
            let parsed: BackendSpec = text.parse().unwrap();
            assert_eq!(parsed, expected, "{text}");
            assert_eq!(parsed.to_string(), text);
        }
        assert_eq!("".parse::<BackendSpec>().unwrap(), BackendSpec::Default);
        assert_eq!("  ".parse::<BackendSpec>().unwrap(), BackendSpec::Default);
    }

    #[test]
    fn openai_url_trailing_slash_is_dropped() {
        let spec: BackendSpec = "openai:m@http://h/".parse().unwrap();
        assert_eq!(
            spec,
            BackendSpec::OpenAi {
                model: "m".into(),
                base_url: "http://h".into()
            }
        );
    }

    #[test]
    fn a_gguf_path_means_the_default_local_backend() {
        for path in ["model.gguf", "/models/SmolLM2.Q4_1.GGUF", "/odd:dir/m.gguf"] {
            assert_eq!(
                path.parse::<BackendSpec>().unwrap(),
                BackendSpec::LlamaCpp { path: path.into() }
            );
        }
        assert_eq!(
            "candle:m.gguf".parse::<BackendSpec>().unwrap(),
            BackendSpec::Candle {
                path: "m.gguf".into()
            }
        );
    }

    #[test]
    fn invalid_specs_say_what_is_expected() {
        for (text, needle) in [
            ("model.bin", "no backend prefix"),
            ("llama-cpp:", "nothing after `llama-cpp:`"),
            ("vllm:x", "unknown backend `vllm`"),
            ("openai:gpt", "expected `openai:MODEL@URL`"),
            ("openai:@http://h", "empty model name"),
            ("openai:m@h:1", "must start with `http://`"),
        ] {
            let error = text.parse::<BackendSpec>().unwrap_err().to_string();
            assert!(error.contains(needle), "{text}: {error}");
            assert!(
                error.starts_with(&format!("invalid model spec `{text}`")),
                "{error}"
            );
        }
    }

    #[test]
    fn features_name_the_backend_crate_features() {
        assert_eq!(BackendSpec::Default.cargo_feature(), "llamacpp");
        assert_eq!(
            BackendSpec::Candle { path: "x".into() }.cargo_feature(),
            "candle"
        );
        assert_eq!(
            BackendSpec::Ollama { model: "x".into() }.cargo_feature(),
            "http"
        );
    }

    #[test]
    fn relative_model_path_is_found_in_models_dir() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.gguf"), b"GGUF").unwrap();
        let spec = BackendSpec::LlamaCpp {
            path: "m.gguf".into(),
        };
        assert_eq!(
            spec.resolve_model_path(Some(dir.path())).unwrap(),
            Some(dir.path().join("m.gguf"))
        );
        let missing = BackendSpec::LlamaCpp {
            path: "absent.gguf".into(),
        };
        let error = missing.resolve_model_path(Some(dir.path())).unwrap_err();
        assert!(matches!(error, LlmError::ModelNotFound { .. }));
        assert_eq!(
            BackendSpec::Ollama { model: "x".into() }
                .resolve_model_path(None)
                .unwrap(),
            None
        );
    }
}
