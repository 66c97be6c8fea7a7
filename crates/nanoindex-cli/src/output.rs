//! Turning a command's result into an exit code: errors print as `error: …`, then their
//! causes, on stderr.

use std::process::ExitCode;

/// Prints the error chain of a failed command and maps results to exit codes (0 ok, 1 a
/// document or question failed).
pub fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            for cause in e.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::from(1)
        }
    }
}
