//! How many CPU threads a backend may use: never more than asked for, every core (up to
//! [`MAX_DEFAULT_THREADS`]) by default.

use crate::{LlmError, Result};

/// Environment variable with the number of CPU threads a backend may use.
pub const THREADS_ENV: &str = nanoindex_core::dirs::THREADS_ENV;

/// Most threads the default takes: past this a small model gains little per thread.
pub const MAX_DEFAULT_THREADS: usize = 8;

/// The thread count for inference: `explicit` if given, else `NANOINDEX_THREADS`, else the
/// machine's cores (as many as the OS lets this process use, at most
/// [`MAX_DEFAULT_THREADS`]), as llama.cpp and Ollama default to.
///
/// Measured on this project's 2-core machine, indexing a 9-page 8-K (6,387 tokens of text)
/// with the default model on llama.cpp (OpenMP, its default wait policy): 122 s on one
/// thread, 68 s on two. With another process holding one of the two cores, two threads took
/// 185 s, since OpenMP's threads spin while they wait; a machine that runs other work beside
/// the model (or a test harness running several models at once) sets `--threads` or
/// `NANOINDEX_THREADS` to the cores it can spare (`scripts/test.sh` sets 1).
///
/// # Errors
///
/// [`LlmError::InvalidRequest`] when the explicit value is 0 or `NANOINDEX_THREADS` is not
/// a positive integer.
pub fn thread_count(explicit: Option<usize>) -> Result<usize> {
    thread_count_from(explicit, std::env::var(THREADS_ENV).ok().as_deref())
}

/// [`thread_count`] with the environment value given (for tests).
///
/// # Errors
///
/// As [`thread_count`].
pub fn thread_count_from(explicit: Option<usize>, env_value: Option<&str>) -> Result<usize> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    thread_count_with(explicit, env_value, cores)
}

/// [`thread_count_from`] on a machine of `cores` cores (for tests).
fn thread_count_with(
    explicit: Option<usize>,
    env_value: Option<&str>,
    cores: usize,
) -> Result<usize> {
    if let Some(n) = explicit {
        return if n == 0 {
            Err(LlmError::InvalidRequest(
                "thread count must be at least 1, got `0`".into(),
            ))
        } else {
            Ok(n)
        };
    }
    match env_value.map(str::trim).filter(|value| !value.is_empty()) {
        None => Ok(cores.clamp(1, MAX_DEFAULT_THREADS)),
        Some(value) => match value.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(LlmError::InvalidRequest(format!(
                "`{THREADS_ENV}` must be a positive integer, got `{value}`"
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_beats_environment_which_beats_default() {
        assert_eq!(thread_count_from(Some(3), Some("2")).unwrap(), 3);
        assert_eq!(thread_count_from(None, Some("2")).unwrap(), 2);
        assert_eq!(thread_count_with(None, Some(" "), 2).unwrap(), 2);
        assert_eq!(thread_count_with(None, None, 1).unwrap(), 1);
        assert_eq!(thread_count_with(None, None, 4).unwrap(), 4);
        assert_eq!(
            thread_count_with(None, None, 64).unwrap(),
            MAX_DEFAULT_THREADS
        );
        assert_eq!(thread_count_with(Some(1), None, 4).unwrap(), 1);
    }

    #[test]
    fn zero_or_garbage_is_rejected() {
        assert!(thread_count_from(Some(0), None).is_err());
        let error = thread_count_from(None, Some("many"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("`NANOINDEX_THREADS` must be a positive integer, got `many`"),
            "{error}"
        );
    }
}
