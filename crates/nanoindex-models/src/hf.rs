//! The Hugging Face cache (`$HF_HOME/hub`, else `~/.cache/huggingface/hub`, as hf-hub finds
//! it): where `models pull` looks first, and where it downloads into — the one command that
//! downloads, only when asked, and only with the `pull` feature. Downloads are not testable on
//! the development machines (no network); the offline cache lookup and the offline error are.

#[cfg(feature = "pull")]
use std::path::PathBuf;

#[cfg(feature = "pull")]
use crate::{ModelsError, Result};

/// Whether `HF_HUB_OFFLINE` forbids downloads (`1`, `true`, `yes`, `on`, any case).
#[must_use]
pub fn offline() -> bool {
    std::env::var("HF_HUB_OFFLINE").is_ok_and(|v| offline_value(&v))
}

fn offline_value(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

#[cfg(feature = "pull")]
fn repo(name: &str, revision: Option<&str>) -> hf_hub::Repo {
    match revision {
        Some(r) => {
            hf_hub::Repo::with_revision(name.to_string(), hf_hub::RepoType::Model, r.to_string())
        }
        None => hf_hub::Repo::model(name.to_string()),
    }
}

/// The cached copy of `file` from the Hugging Face model repository `repo_name` (at
/// `revision`, default `main`), without any network use.
#[cfg(feature = "pull")]
#[must_use]
pub fn cached(repo_name: &str, file: &str, revision: Option<&str>) -> Option<PathBuf> {
    hf_hub::Cache::from_env()
        .repo(repo(repo_name, revision))
        .get(file)
}

/// `models pull`: the path of `file` from the Hugging Face model repository `repo_name`,
/// from the cache when it is there, else downloaded into the cache. With `HF_HUB_OFFLINE=1`
/// only the cache is looked at.
///
/// # Errors
/// [`ModelsError::NotCached`] when offline and the file is not cached;
/// [`ModelsError::Download`] when the download fails (no network, unknown repository or
/// file).
#[cfg(feature = "pull")]
pub fn pull(repo_name: &str, file: &str, revision: Option<&str>) -> Result<PathBuf> {
    if let Some(path) = cached(repo_name, file, revision) {
        return Ok(path);
    }
    let cache = hf_hub::Cache::from_env();
    if offline() {
        return Err(ModelsError::NotCached {
            path: cache
                .path()
                .join(repo(repo_name, revision).folder_name())
                .join(file),
        });
    }
    let fail = |reason: String| ModelsError::Download {
        what: format!("{repo_name}/{file}"),
        reason,
    };
    let api = hf_hub::api::sync::ApiBuilder::from_cache(cache)
        .with_progress(false)
        .build()
        .map_err(|e| fail(e.to_string()))?;
    api.repo(repo(repo_name, revision))
        .get(file)
        .map_err(|e| fail(format!("download from the Hugging Face Hub failed: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offline_values_follow_hf_hub() {
        for v in ["1", "true", "YES", " on "] {
            assert!(offline_value(v), "{v}");
        }
        for v in ["0", "false", "", "off"] {
            assert!(!offline_value(v), "{v}");
        }
    }
}
