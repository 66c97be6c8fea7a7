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

use anyhow::{bail, Context};
use nanoindex::core::dirs;

/// Keys of the file and the environment variables they stand for.
const KEYS: &[(&str, &str)] = &[
    ("llm", dirs::LLM_ENV),
    ("threads", dirs::THREADS_ENV),
    ("models", dirs::MODELS_ENV),
    ("cache", dirs::CACHE_ENV),
    ("jobs", dirs::JOBS_ENV),
    ("batch_size", dirs::BATCH_SIZE_ENV),
    ("split_tokens", dirs::SPLIT_TOKENS_ENV),
    ("domain", dirs::DOMAIN_ENV),
];

/// Reads the configuration file, if there is one, and sets the environment variables its
/// keys stand for where the environment leaves them unset.
///
/// # Errors
///
/// When the file exists but cannot be read, is not TOML, has an unknown key, or a value
/// that is not a string, an integer or a boolean; the message names the file.
pub fn apply() -> anyhow::Result<()> {
    let Some(path) = dirs::config_file() else {
        return Ok(());
    };
    let explicit = std::env::var_os(dirs::CONFIG_ENV).is_some();
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
