//! Where nanoindex-local keeps its files, and the names of its environment variables: the one
//! definition of both. Directories follow the XDG Base Directory Specification
//! (specifications.freedesktop.org/basedir-spec): `$XDG_CACHE_HOME` else `$HOME/.cache` for
//! caches and models, `$XDG_CONFIG_HOME` else `$HOME/.config` for the configuration file.
//! An empty variable counts as unset.

use std::ffi::OsString;
use std::path::PathBuf;

/// Overrides the cache directory (trees and embeddings of documents asked about).
pub const CACHE_ENV: &str = "NANOINDEX_CACHE";
/// Overrides the models directory.
pub const MODELS_ENV: &str = "NANOINDEX_MODELS";
/// Names another configuration file.
pub const CONFIG_ENV: &str = "NANOINDEX_CONFIG";
/// CPU threads a model backend may use.
pub const THREADS_ENV: &str = "NANOINDEX_THREADS";
/// The text model's spec string (`--llm`).
pub const LLM_ENV: &str = "NANOINDEX_LLM";
/// Documents `index` works on at once (`--jobs`).
pub const JOBS_ENV: &str = "NANOINDEX_JOBS";
/// Model requests per batch while indexing (`--batch-size`).
pub const BATCH_SIZE_ENV: &str = "NANOINDEX_BATCH_SIZE";
/// Token limit of a leaf before it is split (`--split-tokens`).
pub const SPLIT_TOKENS_ENV: &str = "NANOINDEX_SPLIT_TOKENS";
/// The document domain (`--domain`).
pub const DOMAIN_ENV: &str = "NANOINDEX_DOMAIN";
/// Shows llama.cpp's own log when set.
pub const LLAMA_LOG_ENV: &str = "NANOINDEX_LLAMA_LOG";

/// This program's folder name under the XDG base directories.
const APP: &str = "nanoindex";

/// `value`, unless it is unset or empty.
fn set(value: Option<OsString>) -> Option<PathBuf> {
    value.filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// The cache folder from the given variable values: `$XDG_CACHE_HOME/nanoindex`, else
/// `$HOME/.cache/nanoindex`; `None` when neither is set.
///
/// ```
/// use std::path::PathBuf;
/// use nanoindex_core::dirs::cache_dir_from;
/// assert_eq!(
///     cache_dir_from(None, Some("/home/a".into())),
///     Some(PathBuf::from("/home/a/.cache/nanoindex"))
/// );
/// ```
#[must_use]
pub fn cache_dir_from(xdg_cache_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    set(xdg_cache_home)
        .map(|d| d.join(APP))
        .or_else(|| set(home).map(|h| h.join(".cache").join(APP)))
}

/// The configuration folder from the given variable values: `$XDG_CONFIG_HOME/nanoindex`,
/// else `$HOME/.config/nanoindex`; `None` when neither is set.
#[must_use]
pub fn config_dir_from(
    xdg_config_home: Option<OsString>,
    home: Option<OsString>,
) -> Option<PathBuf> {
    set(xdg_config_home)
        .map(|d| d.join(APP))
        .or_else(|| set(home).map(|h| h.join(".config").join(APP)))
}

/// The folder `override_env` names, else `sub` (if any) under the cache folder; read from
/// the environment.
#[must_use]
pub fn cache_dir_or(override_env: &str, sub: Option<&str>) -> Option<PathBuf> {
    let var = std::env::var_os;
    set(var(override_env)).or_else(|| {
        cache_dir_from(var("XDG_CACHE_HOME"), var("HOME")).map(|d| match sub {
            Some(s) => d.join(s),
            None => d,
        })
    })
}

/// The configuration file: the one `NANOINDEX_CONFIG` names, else `config.toml` in the
/// configuration folder; read from the environment.
#[must_use]
pub fn config_file() -> Option<PathBuf> {
    let var = std::env::var_os;
    set(var(CONFIG_ENV)).or_else(|| {
        config_dir_from(var("XDG_CONFIG_HOME"), var("HOME")).map(|d| d.join("config.toml"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xdg_folders_win_over_home_and_empty_means_unset() {
        assert_eq!(
            cache_dir_from(Some("/x".into()), Some("/h".into())),
            Some(PathBuf::from("/x/nanoindex"))
        );
        assert_eq!(
            cache_dir_from(Some("".into()), Some("/h".into())),
            Some(PathBuf::from("/h/.cache/nanoindex"))
        );
        assert_eq!(
            config_dir_from(None, Some("/h".into())),
            Some(PathBuf::from("/h/.config/nanoindex"))
        );
        assert_eq!(cache_dir_from(None, None), None);
    }
}
