//! Helpers shared by the engine's integration tests: a flowing-text document builder on top
//! of `nanoindex_pdf::write`, and the location of the shared test data.

#![allow(dead_code)]

use std::path::PathBuf;

use nanoindex_llm_conformance::skip;
use nanoindex_pdf::write::PdfBuilder;

/// Lays out lines top to bottom, starting new pages as needed.
pub struct Flow {
    pub pdf: PdfBuilder,
    y: f32,
}

impl Flow {
    pub fn new() -> Self {
        let mut pdf = PdfBuilder::new();
        pdf.page();
        Flow { pdf, y: 72.0 }
    }

    /// Writes one line at the left margin.
    pub fn line(&mut self, size: f32, bold: bool, text: &str) -> &mut Self {
        if self.y > 720.0 {
            self.new_page();
        }
        self.y += size * 1.25;
        let y = self.y;
        self.pdf.last_page().text(72.0, y, size, bold, text);
        self
    }

    /// Writes a heading with space above it.
    pub fn heading(&mut self, size: f32, text: &str) -> &mut Self {
        self.gap();
        self.line(size, true, text)
    }

    /// Writes body lines (10 pt) as one paragraph, then a gap.
    pub fn para(&mut self, lines: &[&str]) -> &mut Self {
        for l in lines {
            self.line(10.0, false, l);
        }
        self.gap()
    }

    pub fn gap(&mut self) -> &mut Self {
        self.y += 10.0;
        self
    }

    pub fn new_page(&mut self) -> &mut Self {
        self.pdf.page();
        self.y = 72.0;
        self
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.pdf.to_bytes()
    }
}

/// The shared test data folder (`NANOINDEX_TEST_DATA`, else `../shared` beside the
/// workspace). `None` (with the reason printed) when it is absent outside CI; a panic in CI,
/// where it must be present.
pub fn shared_data() -> Option<PathBuf> {
    let dir = match std::env::var_os("NANOINDEX_TEST_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    if dir.join("corpus").is_dir() && dir.join("data").is_dir() {
        return Some(dir);
    }
    skip(&format!(
        "test data not found at `{}` (set NANOINDEX_TEST_DATA)",
        dir.display()
    ));
    None
}

/// The default model (SmolLM2-135M-Instruct on llama.cpp), or `None` (skipped, with the
/// reason printed) outside CI when it is not installed; a panic in CI, where it must be.
pub fn default_model() -> Option<Box<dyn nanoindex::llm::TextGenerator>> {
    match nanoindex::llm::load_generator("", &nanoindex::llm::LlmOptions::default()) {
        Ok(m) => Some(m),
        Err(e) => {
            let reason = format!("default model not available ({e}); run scripts/fetch-models.sh");
            skip(&reason);
            None
        }
    }
}

/// The default embedding model (all-MiniLM-L6-v2), or `None` (skipped, with the reason
/// printed) outside CI when it is not installed; a panic in CI, where it must be.
pub fn default_embedder() -> Option<Box<dyn nanoindex::llm::Embedder>> {
    match nanoindex::llm::load_embedder(None) {
        Ok(e) => Some(e),
        Err(e) => {
            let reason =
                format!("default embedding model not available ({e}); run scripts/fetch-models.sh");
            skip(&reason);
            None
        }
    }
}

/// Whether Tesseract's data for `languages` (`eng`, `eng+chi_sim`) is installed; `false`
/// (skipped, with the reason printed) outside CI when it is not; a panic in CI, where
/// `scripts/prereqs.sh` installs it (`.ci/run` asks for `eng` and `chi_sim`).
pub fn ocr_languages(languages: &str) -> bool {
    match nanoindex_pdf::ocr::find_tessdata(languages, None) {
        Ok(_) => true,
        Err(reason) => {
            skip(&reason);
            false
        }
    }
}
