//! Errors of PDF extraction. Each names the file and the reason in one line.

/// Why a document could not be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// The file could not be read from disk.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// File name as given.
        path: String,
        /// Underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file has zero bytes.
    #[error("cannot open `{path}`: empty file")]
    EmptyFile {
        /// File name as given.
        path: String,
    },
    /// The file is encrypted with a user password and none was given.
    #[error("cannot open `{path}`: password required (give it with `--password`)")]
    PasswordRequired {
        /// File name as given.
        path: String,
    },
    /// The password given does not open the file.
    #[error(
        "cannot open `{path}`: wrong password (the one given with `--password` does not open it)"
    )]
    WrongPassword {
        /// File name as given.
        path: String,
    },
    /// MuPDF could not open or repair the file, or repair left no pages.
    #[error("cannot open `{path}`: damaged file ({reason})")]
    Damaged {
        /// File name as given.
        path: String,
        /// What MuPDF reported.
        reason: String,
    },
    /// A structurally valid PDF whose page tree is empty.
    #[error("cannot open `{path}`: no pages")]
    NoPages {
        /// File name as given.
        path: String,
    },
    /// The file is not a PDF (no `%PDF-` header and MuPDF does not recognise it).
    #[error("cannot open `{path}`: not a PDF file")]
    NotPdf {
        /// File name as given.
        path: String,
    },
    /// OCR was asked for (`--ocr always`) but cannot run: no language data, or a bad
    /// language list.
    #[error("cannot read `{path}` with OCR: {reason}")]
    OcrUnavailable {
        /// File name as given.
        path: String,
        /// Why, naming the package to install where language data is missing.
        reason: String,
    },
}
