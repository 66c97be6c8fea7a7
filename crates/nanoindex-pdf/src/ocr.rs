//! Optical character recognition of pages without a usable text layer, offline, with the
//! Tesseract that MuPDF builds in (the `mupdf` crate's `tesseract` feature).
//!
//! A page is drawn by MuPDF's PDF-OCR document writer (`pdfocr`, MuPDF's
//! `source/fitz/output-pdfocr.c`): the writer renders the page at [`OCR_DPI`], runs
//! Tesseract's LSTM recogniser on the image and writes a one-page PDF of that image with the
//! recognised words as invisible text, each word scaled to its box. That page has the size
//! of the displayed page, so its text is read back by the same structured-text path as a
//! born-digital page ([`crate::extract_bytes`]), boxes in PDF points, and quotes on it are
//! found by the same search ([`crate::locate`]).
//!
//! Pages larger than about 23 inches are rendered at a lower resolution (7,000 pixels on the
//! longest side at most).
//!
//! Language data (`<lang>.traineddata`) comes from the system: `--ocr-data`, else
//! `TESSDATA_PREFIX`, else the folders Debian, Fedora, Homebrew and source installs use
//! ([`find_tessdata`]). Debian and Ubuntu package it as `tesseract-ocr-<lang>`.

use std::path::{Path, PathBuf};

use mupdf::{DocumentWriter, Matrix, Rect};

/// When pages are read by OCR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OcrMode {
    /// Never: pages without a text layer are reported as needing OCR.
    Never,
    /// Pages with no usable text layer: no text, only control characters, or only an
    /// invisible text layer that is mostly broken words ([`text_quality`] below
    /// [`GARBAGE_LAYER_QUALITY`]). A born-digital page costs nothing more.
    #[default]
    Auto,
    /// Every page, whatever text layer it has.
    Always,
}

impl OcrMode {
    /// Parses `never`, `auto` or `always`.
    ///
    /// # Errors
    /// A message naming the accepted values.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "never" => Ok(OcrMode::Never),
            "auto" => Ok(OcrMode::Auto),
            "always" => Ok(OcrMode::Always),
            other => Err(format!(
                "unknown OCR mode `{other}` (expected never, auto or always)"
            )),
        }
    }

    /// The mode's name, as [`OcrMode::parse`] reads it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            OcrMode::Never => "never",
            OcrMode::Auto => "auto",
            OcrMode::Always => "always",
        }
    }
}

/// How OCR is done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OcrOptions {
    /// When pages are recognised.
    pub mode: OcrMode,
    /// Tesseract languages joined by `+`, as Tesseract names them (`eng`, `eng+deu`,
    /// `chi_sim`).
    pub languages: String,
    /// Folder holding `<lang>.traineddata`; `None`: searched ([`find_tessdata`]).
    pub data_dir: Option<PathBuf>,
}

impl Default for OcrOptions {
    fn default() -> Self {
        OcrOptions {
            mode: OcrMode::Auto,
            languages: "eng".to_string(),
            data_dir: None,
        }
    }
}

impl OcrOptions {
    /// A short key of the options that change what OCR reads (mode and languages), for
    /// cache names; `""` for the defaults.
    #[must_use]
    pub fn cache_key(&self) -> String {
        if self.mode == OcrMode::Auto && self.languages == "eng" {
            String::new()
        } else {
            format!("ocr-{}-{}", self.mode.as_str(), self.languages)
        }
    }
}

/// Resolution pages are rendered at for recognition, in dots per inch: Tesseract's
/// documentation ("Improving the quality of the output") recommends at least 300 dpi.
pub const OCR_DPI: f32 = 300.0;

/// Longest side of the rendered page, in pixels: pages larger than about 23 inches are
/// rendered at a lower resolution, so one page's image never takes more than 150 MB (RGB).
const MAX_OCR_PIXELS: f32 = 7_000.0;

/// A text layer that is only invisible text (OCR output of another tool) is recognised again
/// when fewer than this share of its words are clean ([`text_quality`]).
pub const GARBAGE_LAYER_QUALITY: f32 = 0.5;

/// A recognised page whose confidence ([`text_quality`]) is below this gets a warning that
/// it may be in a language not given to OCR: measured on the hostile corpus's Chinese scan,
/// read as English 0.72–0.83 and with `chi_sim` 0.95–1.0; English scans of filings 0.92–0.96.
pub const LOW_CONFIDENCE: f32 = 0.85;

/// `languages` checked and written as Tesseract reads it (` eng + deu ` → `eng+deu`): the
/// value parser of `--ocr-lang`.
///
/// # Errors
/// As [`language_list`].
pub fn normalize_languages(languages: &str) -> Result<String, String> {
    language_list(languages).map(|list| list.join("+"))
}

/// The languages of `languages` (`eng+deu` → `["eng", "deu"]`).
///
/// # Errors
/// A message when a name is empty or holds characters other than ASCII letters, digits and
/// `_` (Tesseract's language names, e.g. `chi_sim`).
pub fn language_list(languages: &str) -> Result<Vec<String>, String> {
    let list: Vec<String> = languages.split('+').map(|l| l.trim().to_string()).collect();
    for lang in &list {
        if lang.is_empty() || !lang.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "invalid OCR language list `{languages}` (expected Tesseract names joined by \
                 `+`, e.g. eng or eng+deu)"
            ));
        }
    }
    Ok(list)
}

/// The Debian/Ubuntu package holding Tesseract's data for `lang`
/// (`chi_sim` → `tesseract-ocr-chi-sim`).
#[must_use]
pub fn debian_package(lang: &str) -> String {
    format!(
        "tesseract-ocr-{}",
        lang.to_ascii_lowercase().replace('_', "-")
    )
}

/// Folders searched for language data when none is given: `TESSDATA_PREFIX` (the folder
/// itself and its `tessdata`), then `/usr/share/tesseract-ocr/<version>/tessdata` (Debian,
/// Ubuntu), `/usr/share/tessdata` (Fedora), `/usr/local/share/tessdata` (source installs),
/// `/opt/homebrew/share/tessdata` (Homebrew).
fn candidate_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(prefix) = std::env::var_os("TESSDATA_PREFIX").filter(|p| !p.is_empty()) {
        let prefix = PathBuf::from(prefix);
        dirs.push(prefix.join("tessdata"));
        dirs.push(prefix);
    }
    if let Ok(entries) = std::fs::read_dir("/usr/share/tesseract-ocr") {
        let mut versions: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path().join("tessdata"))
            .collect();
        // Newest version first.
        versions.sort();
        versions.reverse();
        dirs.extend(versions);
    }
    for dir in [
        "/usr/share/tessdata",
        "/usr/local/share/tessdata",
        "/opt/homebrew/share/tessdata",
    ] {
        dirs.push(PathBuf::from(dir));
    }
    dirs
}

/// The folder holding `<lang>.traineddata` for every language of `languages`: `data_dir`
/// when given, else the first of the usual folders that has them all (see the module
/// documentation).
///
/// # Errors
/// A message for an invalid language list, or naming the missing languages, the folders
/// looked in, and the packages to install (`tesseract-ocr-eng`) or `TESSDATA_PREFIX` to set.
pub fn find_tessdata(languages: &str, data_dir: Option<&Path>) -> Result<PathBuf, String> {
    let langs = language_list(languages)?;
    let has_all = |dir: &Path| {
        langs
            .iter()
            .all(|l| dir.join(format!("{l}.traineddata")).is_file())
    };
    let dirs = match data_dir {
        Some(d) => vec![d.to_path_buf()],
        None => candidate_dirs(),
    };
    if let Some(found) = dirs.iter().find(|d| has_all(d)) {
        return Ok(found.clone());
    }
    let missing: Vec<&String> = langs
        .iter()
        .filter(|l| {
            !dirs
                .iter()
                .any(|d| d.join(format!("{l}.traineddata")).is_file())
        })
        .collect();
    let missing = if missing.is_empty() {
        langs.iter().collect()
    } else {
        missing
    };
    let packages: Vec<String> = missing.iter().map(|l| debian_package(l)).collect();
    let names: Vec<&str> = missing.iter().map(|l| l.as_str()).collect();
    let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    Err(format!(
        "no Tesseract language data for {} (looked for {}.traineddata in {}); install {} \
         (Debian/Ubuntu: apt-get install {}) or point TESSDATA_PREFIX or --ocr-data at the \
         folder that holds it",
        names.join(", "),
        names.join(".traineddata, "),
        looked.join(", "),
        packages.join(" "),
        packages.join(" ")
    ))
}

/// Options checked once per document: the language data folder is found, and the options
/// string MuPDF's OCR writer reads is built.
#[derive(Debug, Clone)]
pub(crate) struct ResolvedOcr {
    writer_options: String,
}

impl ResolvedOcr {
    /// Checks `options` (languages, data folder).
    ///
    /// # Errors
    /// As [`find_tessdata`]; also when the folder's path holds a comma, which MuPDF's
    /// option syntax cannot carry.
    pub(crate) fn new(options: &OcrOptions) -> Result<Self, String> {
        let dir = find_tessdata(&options.languages, options.data_dir.as_deref())?;
        let dir = dir.to_str().filter(|d| !d.contains(',')).ok_or_else(|| {
            format!(
                "the OCR data folder `{}` must be a UTF-8 path without commas",
                dir.display()
            )
        })?;
        // The page image of the one-page PDF is never read back (only its invisible text
        // is), so it is stored uncompressed: deflating it took about a quarter of the index
        // time of a 10-K with one OCR page (MICROSOFT_2023_10K: 0.60 s to 0.45 s).
        Ok(ResolvedOcr {
            writer_options: format!(
                "compression=none,ocr-language={},ocr-datadir={dir}",
                options.languages
            ),
        })
    }
}

/// One recognition at a time per process: MuPDF routes Leptonica's allocations through one
/// process-wide hook, set from the OCR engine's start to its end
/// (`source/fitz/leptonica-wrap.c`, "Attempt to use Leptonica from 2 threads at once!").
static ENGINE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Recognises `page` (whose displayed bounds are `bounds`) and returns its structured text,
/// in the coordinates of the displayed page with the origin at its top-left corner. Calls
/// from several threads wait for each other ([`ENGINE`]).
///
/// # Errors
/// A message when the page cannot be drawn, Tesseract fails (e.g. unreadable language
/// data), or the temporary file cannot be written or read.
pub(crate) fn recognise(
    page: &mupdf::Page,
    bounds: Rect,
    ocr: &ResolvedOcr,
) -> Result<mupdf::TextPage, String> {
    let (w, h) = (bounds.x1 - bounds.x0, bounds.y1 - bounds.y0);
    let longest_inches = w.max(h) / 72.0;
    let dpi = OCR_DPI
        .min(MAX_OCR_PIXELS / longest_inches.max(f32::EPSILON))
        .max(1.0);
    let file = tempfile::Builder::new()
        .prefix("nanoindex-ocr-")
        .suffix(".pdf")
        .tempfile()
        .map_err(|e| format!("cannot create a temporary file for OCR: {e}"))?;
    let path = file.path();
    let _engine = ENGINE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let options = format!("{},resolution={}", ocr.writer_options, dpi.round() as i32);
    {
        let mut writer = DocumentWriter::with_ocr(path, &options)
            .map_err(|e| format!("cannot start OCR: {}", crate::mupdf_message(&e)))?;
        let device = writer
            .begin_page(bounds)
            .map_err(|e| format!("cannot start OCR page: {}", crate::mupdf_message(&e)))?;
        page.run(&device, &Matrix::IDENTITY)
            .map_err(|e| format!("cannot draw the page for OCR: {}", crate::mupdf_message(&e)))?;
        writer
            .end_page(device)
            .map_err(|e| format!("OCR failed: {}", crate::mupdf_message(&e)))?;
        // Dropping the writer closes the file.
    }
    let doc = mupdf::Document::open(path)
        .map_err(|e| format!("cannot read the OCR result: {}", crate::mupdf_message(&e)))?;
    let ocr_page = doc
        .load_page(0)
        .map_err(|e| format!("cannot read the OCR result: {}", crate::mupdf_message(&e)))?;
    ocr_page
        .to_text_page(crate::text_flags())
        .map_err(|e| format!("cannot read the OCR result: {}", crate::mupdf_message(&e)))
}

/// Share (0–1) of the words of `text` that are clean, `1.0` for text without words. Words
/// are split at spaces and at punctuation other than `' ’ - . , % $ /` inside a word; a word
/// is clean when it is:
/// - a figure: digits with `,` `.` `%` `$` `/` `-`;
/// - a run of CJK characters (digits allowed);
/// - a word of letters (`'`, `’`, `-` inside allowed) written in lower case, capitalised or
///   in capitals, of two or more letters (or `a`, `A`, `I`), with a vowel (`y` counts, and
///   any letter outside ASCII) and no five consonants in a row.
///
/// Tesseract's own word confidences stay inside MuPDF's OCR glue, so this is the confidence
/// reported for a recognised page. It tells recognition in the wrong language (a Chinese
/// scan read as English gives `TVR`, `PRRBAHGRLEAREES`, `dIk`) and garbage invisible text
/// layers (`J A N 2 7 P H N: i 6`) from usable text.
#[must_use]
pub fn text_quality(text: &str) -> f32 {
    let mut words = 0usize;
    let mut clean = 0usize;
    let separator = |c: char| !(c.is_alphanumeric() || "'’-.,%$/".contains(c));
    for raw in text.split(separator) {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        if word.is_empty() {
            continue;
        }
        words += 1;
        if clean_word(word) {
            clean += 1;
        }
    }
    if words == 0 {
        1.0
    } else {
        clean as f32 / words as f32
    }
}

/// One word of [`text_quality`] (trimmed of punctuation around it).
fn clean_word(word: &str) -> bool {
    let is_figure = word.chars().any(|c| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || ",.%$/-".contains(c));
    if is_figure {
        return true;
    }
    if word.chars().any(nanoindex_core::script::is_cjk) {
        return word
            .chars()
            .all(|c| nanoindex_core::script::is_cjk(c) || c.is_ascii_digit());
    }
    if matches!(word, "a" | "A" | "I") {
        return true;
    }
    let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() < 2
        || !word
            .chars()
            .all(|c| c.is_alphabetic() || c == '\'' || c == '’' || c == '-')
    {
        return false;
    }
    let rest_lower = letters[1..].iter().all(|c| c.is_lowercase());
    let all_upper = letters.iter().all(|c| c.is_uppercase());
    if !(rest_lower || all_upper) {
        return false;
    }
    let vowel = |c: &char| !c.is_ascii() || "aeiouyAEIOUY".contains(*c);
    let mut run = 0usize;
    for c in &letters {
        run = if vowel(c) { 0 } else { run + 1 };
        if run >= 5 {
            return false;
        }
    }
    letters.iter().any(vowel)
}

/// Worker processes for OCR: MuPDF's OCR engine is one per process (see the module docs), so
/// pages are recognised in parallel by other processes of the same program, each started as
/// `command args…` and served by [`serve_worker`] (the CLI's hidden `ocr-worker` command).
#[derive(Debug, Clone)]
pub struct OcrWorkers {
    /// The program to start (the CLI: its own executable).
    pub command: PathBuf,
    /// Its arguments (the CLI: `["ocr-worker"]`).
    pub args: Vec<String>,
    /// Processes started beside this one (at most one per page beyond the first).
    pub count: usize,
    /// This process reads none of a large document's pages itself: they are read by the
    /// `count` workers, or by one when `count` is 0. For a batch that reads several
    /// documents at once on threads of this process, which MuPDF's global locks would slow.
    pub hand_off: bool,
}

/// What a worker is asked to recognise, written as one JSON object on its standard input.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct WorkerRequest {
    /// The PDF's password, when it has one.
    pub password: Option<String>,
    /// Tesseract languages (`eng+deu`).
    pub languages: String,
    /// Language data folder, when given.
    pub data_dir: Option<PathBuf>,
    /// 1-based pages to recognise.
    pub pages: Vec<u32>,
    /// Most characters read from a page ([`crate::ExtractOptions::max_page_chars`]).
    pub max_chars: usize,
    /// Read the pages' text layer only, without OCR (a share of a large document's pages
    /// read beside the parent, which MuPDF's locks keep threads of one process from doing
    /// at full speed); `languages` and `data_dir` are then not used.
    #[serde(default)]
    pub text_only: bool,
}

/// One page a worker recognised: a JSON line on its standard output.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct WorkerReply {
    /// 1-based page.
    pub page: u32,
    /// The page read (by OCR, or its text layer for a `text_only` request), or why it could
    /// not be.
    pub result: Result<nanoindex_core::extract::PageText, String>,
    /// `text_only`: the page held more than `max_chars` characters and was cut.
    #[serde(default)]
    pub cut: bool,
    /// `text_only`: the text layer looks like garbage (a candidate for OCR).
    #[serde(default)]
    pub garbage: bool,
}

/// A started worker: its process and the temporary copy of the PDF it reads.
pub(crate) struct Worker {
    child: std::process::Child,
    _pdf: std::sync::Arc<tempfile::NamedTempFile>,
}

impl Drop for Worker {
    /// A worker left behind (its results not collected, or a failure part-way) is stopped,
    /// never left recognising pages the parent does again.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Worker {
    /// Reads the worker's replies as they come, calling `tick` for each page, and waits for
    /// it to end.
    ///
    /// # Errors
    /// A message when the worker exits with a failure or writes something unreadable.
    pub(crate) fn collect(mut self, tick: &(dyn Fn() + Sync)) -> Result<Vec<WorkerReply>, String> {
        use std::io::BufRead;
        let stdout = self
            .child
            .stdout
            .take()
            .ok_or_else(|| "no output from the OCR worker".to_string())?;
        let mut out = Vec::new();
        for line in std::io::BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("cannot read the OCR worker's output: {e}"))?;
            let reply: WorkerReply = serde_json::from_str(&line)
                .map_err(|e| format!("unreadable reply from the OCR worker: {e}"))?;
            tick();
            out.push(reply);
        }
        let status = self
            .child
            .wait()
            .map_err(|e| format!("cannot wait for the OCR worker: {e}"))?;
        if !status.success() {
            return Err(format!("the OCR worker exited with {status}"));
        }
        Ok(out)
    }
}

/// Starts one worker per request, each reading a temporary copy of `bytes` (made once, only
/// readable by this user, removed when the last worker is collected).
///
/// # Errors
/// A message when the copy cannot be written or a process cannot be started.
pub(crate) fn spawn_workers(
    config: &OcrWorkers,
    bytes: &[u8],
    requests: impl Iterator<Item = WorkerRequest>,
) -> Result<Vec<Worker>, String> {
    use std::io::Write;
    let mut pdf = tempfile::Builder::new()
        .prefix("nanoindex-ocr-input-")
        .suffix(".pdf")
        .tempfile()
        .map_err(|e| format!("cannot write a temporary copy of the PDF: {e}"))?;
    pdf.write_all(bytes)
        .and_then(|()| pdf.flush())
        .map_err(|e| format!("cannot write a temporary copy of the PDF: {e}"))?;
    let pdf = std::sync::Arc::new(pdf);
    let mut workers = Vec::new();
    for request in requests {
        let mut child = std::process::Command::new(&config.command)
            .args(&config.args)
            .arg(pdf.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", config.command.display()))?;
        let json = serde_json::to_string(&request).map_err(|e| e.to_string())?;
        if let Some(mut stdin) = child.stdin.take() {
            // The request travels on stdin, never on the command line (it may hold a password).
            stdin
                .write_all(json.as_bytes())
                .map_err(|e| format!("cannot send the OCR worker its pages: {e}"))?;
        }
        workers.push(Worker {
            child,
            _pdf: pdf.clone(),
        });
    }
    Ok(workers)
}

/// Serves one worker: reads a [`WorkerRequest`] from `input`, recognises its pages of the
/// PDF at `pdf` one after another (or, for a `text_only` request, reads their text layer),
/// and writes a [`WorkerReply`] JSON line to `output` per page as it is done.
///
/// # Errors
/// A message when the request is unreadable, the PDF cannot be read or opened, the language
/// data is missing, or `output` cannot be written.
pub fn serve_worker(
    pdf: &Path,
    input: impl std::io::Read,
    mut output: impl std::io::Write,
) -> Result<(), String> {
    let request: WorkerRequest =
        serde_json::from_reader(input).map_err(|e| format!("unreadable OCR request: {e}"))?;
    let bytes = std::fs::read(pdf).map_err(|e| format!("cannot read `{}`: {e}", pdf.display()))?;
    let name = pdf.display().to_string();
    let resolved = if request.text_only {
        None
    } else {
        Some(ResolvedOcr::new(&OcrOptions {
            mode: OcrMode::Always,
            languages: request.languages.clone(),
            data_dir: request.data_dir.clone(),
        })?)
    };
    let doc = crate::open(&bytes, &name, request.password.as_deref()).map_err(|e| e.to_string())?;
    let count = doc
        .page_count()
        .map_err(|e| crate::mupdf_message(&e))?
        .max(0) as u32;
    let labels = crate::labels::page_labels(&doc, count);
    for page in request.pages {
        let (mut cut, mut garbage) = (false, false);
        let result = if page == 0 || page > count {
            Err(format!("no page {page}"))
        } else {
            crate::guarded(|| {
                let (read, was_cut, looks_garbage) =
                    crate::extract_page(&doc, page - 1, &labels, request.max_chars)?;
                match &resolved {
                    Some(resolved) => {
                        crate::ocr_page(&doc, page - 1, &read, resolved, request.max_chars)
                    }
                    None => {
                        (cut, garbage) = (was_cut, looks_garbage);
                        Ok(read)
                    }
                }
            })
        };
        let reply = WorkerReply {
            page,
            result,
            cut,
            garbage,
        };
        let line = serde_json::to_string(&reply).map_err(|e| e.to_string())?;
        writeln!(output, "{line}")
            .and_then(|()| output.flush())
            .map_err(|e| format!("cannot write the OCR reply: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_prose_scores_high_and_letter_spaced_noise_low() {
        assert!(text_quality("The Company's revenue rose 12.5% to $1,234 in 2023.") > 0.99);
        let noise = "2015 J A N 2 7 P H N: i 6 A m e r i c a n";
        assert!(
            text_quality(noise) < GARBAGE_LAYER_QUALITY,
            "{}",
            text_quality(noise)
        );
        assert!(text_quality("行政处罚决定书 当事人: 哈尔滨电气国际工程有限责任公司;") > 0.99);
        // A Chinese scan recognised as English.
        let wrong_language = "{FEA TVR EB BAB F([2019)13 GHA; PRRBAHGRLEAREES 4; RERRA: BF; \
                              AIM Bit: 2301914001; dak: SARI TAD ALK ale — HB 1299 %.";
        assert!(
            text_quality(wrong_language) < LOW_CONFIDENCE,
            "{}",
            text_quality(wrong_language)
        );
        assert_eq!(text_quality(""), 1.0);
    }

    #[test]
    fn language_lists_are_checked_and_packages_named() {
        assert_eq!(language_list("eng+deu").unwrap(), vec!["eng", "deu"]);
        assert!(language_list("eng+").is_err());
        assert!(language_list("../etc").is_err());
        assert_eq!(debian_package("chi_sim"), "tesseract-ocr-chi-sim");
    }

    #[test]
    fn missing_language_data_names_the_package() {
        let dir = tempfile::tempdir().unwrap();
        let err = find_tessdata("eng+xyz", Some(dir.path())).unwrap_err();
        assert!(err.contains("tesseract-ocr-eng"), "{err}");
        assert!(err.contains("tesseract-ocr-xyz"), "{err}");
        std::fs::write(dir.path().join("eng.traineddata"), b"x").unwrap();
        let err = find_tessdata("eng+xyz", Some(dir.path())).unwrap_err();
        assert!(!err.contains("tesseract-ocr-eng "), "{err}");
        assert!(err.contains("tesseract-ocr-xyz"), "{err}");
        assert_eq!(find_tessdata("eng", Some(dir.path())).unwrap(), dir.path());
    }

    #[test]
    fn modes_parse() {
        assert_eq!(OcrMode::parse("Always").unwrap(), OcrMode::Always);
        assert!(OcrMode::parse("sometimes")
            .unwrap_err()
            .contains("never, auto or always"));
        assert_eq!(OcrOptions::default().cache_key(), "");
    }
}
