//! Prints what the extractor reads from a PDF: per page, blocks and lines with sizes and
//! styles, plus the outline. A debugging aid: `cargo run -p nanoindex-pdf --example dump F.pdf [PASSWORD]`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: dump FILE.pdf [PASSWORD]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(path).expect("readable file");
    let options = nanoindex_pdf::ExtractOptions {
        password: args.get(2).cloned().filter(|p| !p.is_empty()),
        ocr: nanoindex_pdf::OcrOptions {
            languages: std::env::var("OCR_LANG").unwrap_or_else(|_| "eng".to_string()),
            ..Default::default()
        },
        ..Default::default()
    };
    match nanoindex_pdf::extract_bytes(&bytes, path, &options) {
        Err(e) => println!("error: {e}"),
        Ok(doc) => {
            println!("pages {} outline {:?}", doc.page_count, doc.outline);
            println!("errors {:?} warnings {:?}", doc.page_errors, doc.warnings);
            for page in &doc.pages {
                println!(
                    "=== page {} {}x{} rot {} label {:?} needs_ocr {} ocr_confidence {:?}",
                    page.page_no,
                    page.width_pt,
                    page.height_pt,
                    page.rotation,
                    page.label,
                    page.needs_ocr,
                    page.ocr_confidence
                );
                for (bi, block) in page.blocks.iter().enumerate() {
                    for line in &block.lines {
                        println!(
                            "[{bi}] {:5.1} h{:4.1} {} y{:5.0} x{:4.0} | {}",
                            line.max_size_pt(),
                            line.bbox.y1 - line.bbox.y0,
                            if line.is_bold() { "B" } else { " " },
                            line.bbox.y0,
                            line.bbox.x0,
                            line.text
                        );
                    }
                }
            }
        }
    }
}
