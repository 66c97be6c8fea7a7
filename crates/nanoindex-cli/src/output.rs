//! What commands print: an answer with its sources on stdout, and a command's result turned
//! into an exit code (errors print as `error: …`, then their causes, on stderr). A reader
//! that closes stdout early (`tree … | head`) ends the command quietly with exit 0.

/// `println!` that returns the write's error (a closed pipe) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}
pub(crate) use outln;

use std::io::Write;
use std::process::ExitCode;

use nanoindex::core::Answer;

/// Prints an answer and its sources: each citation's page (and printed label), document
/// (for answers across documents), section, node and quote.
pub fn print_answer(out: &mut impl Write, answer: &Answer) -> std::io::Result<()> {
    writeln!(out, "{}", answer.content)?;
    if answer.citations.is_empty() {
        return Ok(());
    }
    writeln!(out, "\nSources:")?;
    for (i, c) in answer.citations.iter().enumerate() {
        let pages: Vec<String> = c.pages.iter().map(u32::to_string).collect();
        let label = c
            .page_labels
            .as_ref()
            .map(|l| format!(" (printed {})", l.join(", ")))
            .unwrap_or_default();
        let doc = c
            .doc_name
            .as_deref()
            .map(|d| format!("{d}, "))
            .unwrap_or_default();
        writeln!(
            out,
            "  [{}] {doc}page {}{label} — {} (node {})\n      \"{}\"",
            i + 1,
            pages.join(", "),
            c.title,
            c.node_id,
            c.quote.as_deref().unwrap_or("")
        )?;
    }
    Ok(())
}

/// Prints the error chain of a failed command and maps results to exit codes (0 ok, 1 a
/// document or question failed). With `json` (the command was given `--json`) the error is
/// also printed on stdout as one JSON object, `{"ok": false, "error": "…", "causes": […]}`,
/// so that a script reading stdout always gets JSON.
pub fn finish(result: anyhow::Result<ExitCode>, json: bool) -> ExitCode {
    match result {
        Ok(code) => code,
        // The reader of stdout is gone (`| head`): what it wanted was printed.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            if json {
                let causes: Vec<String> = e.chain().skip(1).map(ToString::to_string).collect();
                let value = serde_json::json!({
                    "ok": false,
                    "error": e.to_string(),
                    "causes": causes,
                });
                // Nothing more can be said when stdout is closed.
                let _ = outln!("{value}");
            }
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

/// Whether the error is a write to a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
