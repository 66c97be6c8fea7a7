//! Joins PDFs into one (all pages of each, in order), for benchmarks that need a document of
//! many pages made from real ones (e.g. a 500-page PDF for peak-memory measurements).
//!
//! `cargo run -p nanoindex-pdf --example join_pdfs -- OUT.pdf IN.pdf...`

use mupdf::pdf::{InsertPdfOptions, PdfDocument};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = args.next().ok_or("usage: join_pdfs OUT.pdf IN.pdf...")?;
    let mut joined = PdfDocument::new();
    let mut pages = 0;
    for input in args {
        let source = PdfDocument::open(&input)?;
        pages += joined
            .insert_pdf(&source, InsertPdfOptions::default())?
            .page_count;
    }
    joined.save(&out)?;
    println!("{pages} pages written to {out}");
    Ok(())
}
