//! The configuration file, `$XDG_CONFIG_HOME/nanoindex/config.toml` (else
//! `~/.config/nanoindex/config.toml`; `NANOINDEX_CONFIG` names another file).
//!
//! Precedence: command-line flags, then `NANOINDEX_*` environment variables, then this file,
//! then built-in defaults. The file is applied by setting the environment variable of each
//! key that the environment does not already set, before the arguments are parsed, so that
//! every flag with an environment variable reads it the same way. Keys:
//!
//! ```toml
//! llm = "llama-cpp:/models/qwen2.5-7b-instruct-q4_k_m.gguf"  # NANOINDEX_LLM
//! threads = 4                                                # NANOINDEX_THREADS
//! models = "/srv/models"                                     # NANOINDEX_MODELS
//! cache = "/srv/cache/nanoindex"                             # NANOINDEX_CACHE
//! jobs = 2                                                   # NANOINDEX_JOBS (index)
//! batch_size = 8                                             # NANOINDEX_BATCH_SIZE (index)
//! split_tokens = 2000                                        # NANOINDEX_SPLIT_TOKENS (index)
//! domain = "sec_10k"                                         # NANOINDEX_DOMAIN (index)
//! ```

use std::path::PathBuf;

use anyhow::{bail, Context};

/// Keys of the file and the environment variables they stand for.
const KEYS: &[(&str, &str)] = &[
    ("llm", "NANOINDEX_LLM"),
    ("threads", "NANOINDEX_THREADS"),
    ("models", "NANOINDEX_MODELS"),
    ("cache", "NANOINDEX_CACHE"),
    ("jobs", "NANOINDEX_JOBS"),
    ("batch_size", "NANOINDEX_BATCH_SIZE"),
    ("split_tokens", "NANOINDEX_SPLIT_TOKENS"),
    ("domain", "NANOINDEX_DOMAIN"),
];

/// Where the file is looked for.
fn path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NANOINDEX_CONFIG") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("nanoindex").join("config.toml"))
}

/// Reads the configuration file, if there is one, and sets the environment variables its
/// keys stand for where the environment leaves them unset.
///
/// # Errors
///
/// When the file exists but cannot be read, is not TOML, has an unknown key, or a value
/// that is not a string, an integer or a boolean; the message names the file.
pub fn apply() -> anyhow::Result<()> {
    let Some(path) = path() else {
        return Ok(());
    };
    let explicit = std::env::var_os("NANOINDEX_CONFIG").is_some();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => return Ok(()),
        Err(e) => {
            return Err(e)
                .with_context(|| format!("cannot read the config file `{}`", path.display()))
        }
    };
    let table: toml::Table = text
        .parse()
        .with_context(|| format!("the config file `{}` is not valid TOML", path.display()))?;
    for (key, value) in &table {
        let Some((_, var)) = KEYS.iter().find(|(k, _)| k == key) else {
            let known: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
            bail!(
                "the config file `{}` has an unknown key `{key}` (known: {})",
                path.display(),
                known.join(", ")
            );
        };
        let value = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            _ => bail!(
                "the config file `{}`: `{key}` must be a string or a number",
                path.display()
            ),
        };
        if std::env::var_os(var).is_none() {
            std::env::set_var(var, value);
        }
    }
    Ok(())
}
