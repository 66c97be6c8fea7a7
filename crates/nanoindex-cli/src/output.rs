//! Turning a command's result into an exit code: errors print as `error: …`, then their
//! causes, on stderr.

use std::process::ExitCode;

/// Prints the error chain of a failed command and maps results to exit codes (0 ok, 1 a
/// document or question failed).
pub fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => {
            let mut shown = e.to_string();
            eprintln!("error: {shown}");
            for cause in e.chain().skip(1) {
                // Errors that already print their source ("cannot read `x`: Is a
                // directory") are not repeated.
                let cause = cause.to_string();
                if !shown.contains(&cause) {
                    eprintln!("  caused by: {cause}");
                    shown.push_str(&cause);
                }
            }
            ExitCode::from(1)
        }
    }
}
