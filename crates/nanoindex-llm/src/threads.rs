//! How many CPU threads a backend may use: never more than asked for, one by default.

use crate::{LlmError, Result};

/// Environment variable with the number of CPU threads a backend may use.
pub const THREADS_ENV: &str = nanoindex_core::dirs::THREADS_ENV;

/// The thread count for inference: `explicit` if given, else `NANOINDEX_THREADS`, else 1.
///
/// One thread is the default because more threads than free cores collapse decoding
/// speed (measured: 2 threads decode 20× slower than 1 when another process holds a core).
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
        None => Ok(1),
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
        assert_eq!(thread_count_from(None, Some(" ")).unwrap(), 1);
        assert_eq!(thread_count_from(None, None).unwrap(), 1);
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
