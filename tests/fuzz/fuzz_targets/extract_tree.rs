//! Bytes → extraction → tree, in process: what `index --no-llm` does with a file. Any panic
//! that escapes (the extractor turns page panics into page errors) or any crash is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nanoindex_pdf::{extract_bytes, ExtractOptions};

fuzz_target!(|data: &[u8]| {
    let options = ExtractOptions {
        max_page_chars: 20_000,
        ..ExtractOptions::default()
    };
    if let Ok(doc) = extract_bytes(data, "fuzz.pdf", &options) {
        let _ = nanoindex_tree::build_tree(&doc);
    }
});
