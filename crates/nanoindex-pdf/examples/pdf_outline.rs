//! Prints the outline a PDF carries (its bookmarks, as the extractor reads them) as TSV:
//! a header `level`, `page`, `title` separated by tabs, then one line per entry in document
//! order; `level` is 1 for top-level entries, `page` is 1-based and empty when the destination did not resolve.
//! Used by `scripts/eval-outlines.sh` to score trees against the PDF's own outline.
//!
//! `cargo run -p nanoindex-pdf --example pdf_outline -- FILE.pdf`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: pdf_outline FILE.pdf")?;
    let bytes = std::fs::read(&path)?;
    let doc = nanoindex_pdf::extract_bytes(&bytes, &path, &Default::default())?;
    println!("level\tpage\ttitle");
    for entry in &doc.outline {
        let page = entry.page_no.map(|p| p.to_string()).unwrap_or_default();
        let title = entry.title.split_whitespace().collect::<Vec<_>>().join(" ");
        println!("{}\t{page}\t{title}", entry.level);
    }
    Ok(())
}
