//! Makes a scan of a PDF: every page rendered in grey and written back as the image alone
//! (no text layer), for trying and benchmarking OCR (`scripts/bench-ocr.sh`).
//!
//! Usage: `cargo run -p nanoindex-pdf --example scan -- IN.pdf OUT.pdf [DPI] [FIRST-LAST]`
//! (DPI defaults to 200; FIRST-LAST, 1-based and inclusive, keeps only those pages).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(output)) = (args.first(), args.get(1)) else {
        eprintln!("usage: scan IN.pdf OUT.pdf [DPI] [FIRST-LAST]");
        return ExitCode::from(2);
    };
    let dpi: f32 = match args.get(2).map(|d| d.parse()) {
        None => 200.0,
        Some(Ok(d)) if d > 0.0 => d,
        Some(_) => {
            eprintln!("error: DPI must be a positive number");
            return ExitCode::from(2);
        }
    };
    let range = match args.get(3).map(|r| {
        r.split_once('-')
            .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
    }) {
        None => None,
        Some(Some((a, b))) if a >= 1 && a <= b => Some((a, b)),
        Some(_) => {
            eprintln!("error: pages must be FIRST-LAST, 1-based");
            return ExitCode::from(2);
        }
    };
    let bytes = match std::fs::read(input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read `{input}`: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = nanoindex_pdf::write::image_only_copy_pages(&bytes, input, dpi, range)
        .map_err(|e| e.to_string())
        .and_then(|scan| {
            std::fs::write(output, scan).map_err(|e| format!("cannot write `{output}`: {e}"))
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
