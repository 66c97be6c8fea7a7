//! The GGUF header check on arbitrary bytes: an error or a header, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(header) = nanoindex_llm::gguf::parse_header(data) {
        assert!((2..=3).contains(&header.version));
    }
});
