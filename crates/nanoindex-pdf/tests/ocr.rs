//! OCR of scanned pages: a page this test writes is rendered to an image and put back into a
//! PDF as the image alone (a scan, `write::image_only_copy`), then read with Tesseract
//! through MuPDF. Needs Tesseract's English data (`tesseract-ocr-eng`, installed by
//! `scripts/prereqs.sh`): with `CI=true` its absence fails the test; elsewhere the test is
//! skipped with the reason.

use nanoindex_pdf::locate::QuoteFinder;
use nanoindex_pdf::ocr::find_tessdata;
use nanoindex_pdf::write::{image_only_copy, image_only_copy_pages, PdfBuilder};
use nanoindex_pdf::{extract_bytes, ExtractOptions, OcrMode, OcrOptions, PdfError};

/// The page text: a heading and a paragraph of ordinary business prose with figures.
const LINES: [&str; 8] = [
    "Section 4.2 Termination for Convenience",
    "Either party may terminate this Agreement upon ninety days written",
    "notice to the other party. The Supplier shall deliver all finished",
    "goods and work in progress within thirty days of the termination date,",
    "and the Customer shall pay the amounts invoiced before that date.",
    "The termination fee is $2,450,000 payable in two equal instalments",
    "on March 15, 2025 and June 30, 2025 to the account the Supplier",
    "names in writing. Sections 7 and 9 survive any termination.",
];

fn tessdata_present() -> bool {
    match find_tessdata("eng", None) {
        Ok(_) => true,
        Err(reason) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI needs Tesseract's English data: {reason}"
            );
            eprintln!("skipped: {reason}");
            false
        }
    }
}

fn scanned_page() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(72.0, 90.0, 14.0, true, LINES[0]);
    for (i, line) in LINES[1..].iter().enumerate() {
        page.text(72.0, 120.0 + 16.0 * i as f32, 11.0, false, line);
    }
    image_only_copy(&pdf.to_bytes(), "written.pdf", 200.0).unwrap()
}

/// Word accuracy: the share of the reference words found, in order, in the recognised words
/// (longest common subsequence over words).
fn word_accuracy(reference: &[&str], read: &[&str]) -> f32 {
    let mut table = vec![vec![0usize; read.len() + 1]; reference.len() + 1];
    for (i, r) in reference.iter().enumerate() {
        for (j, w) in read.iter().enumerate() {
            table[i + 1][j + 1] = if r == w {
                table[i][j] + 1
            } else {
                table[i][j + 1].max(table[i + 1][j])
            };
        }
    }
    table[reference.len()][read.len()] as f32 / reference.len() as f32
}

#[test]
fn a_scanned_page_is_read_with_its_words_and_boxes() {
    let scan = scanned_page();
    let without = ExtractOptions {
        ocr: OcrOptions {
            mode: OcrMode::Never,
            ..OcrOptions::default()
        },
        ..ExtractOptions::default()
    };
    let plain = extract_bytes(&scan, "scan.pdf", &without).unwrap();
    assert!(plain.pages[0].needs_ocr, "the scan must have no text layer");
    if !tessdata_present() {
        return;
    }
    let doc = extract_bytes(&scan, "scan.pdf", &ExtractOptions::default()).unwrap();
    let page = &doc.pages[0];
    assert!(!page.needs_ocr, "{:?}", doc.warnings);
    let confidence = page
        .ocr_confidence
        .expect("the page is marked as recognised");
    assert!(confidence > 0.9, "confidence {confidence}");
    let text = page.plain_text();
    let reference: Vec<&str> = LINES.iter().flat_map(|l| l.split_whitespace()).collect();
    let read: Vec<&str> = text.split_whitespace().collect();
    let accuracy = word_accuracy(&reference, &read);
    assert!(accuracy >= 0.95, "word accuracy {accuracy}: {text}");
    // The heading is a line of its own, above the paragraph, in page coordinates.
    let first = page.lines().next().unwrap();
    assert_eq!(first.text, LINES[0]);
    assert!(
        first.bbox.y0 > 70.0 && first.bbox.y1 < 100.0,
        "{:?}",
        first.bbox
    );
    assert!(
        first.bbox.x0 > 65.0 && first.bbox.x0 < 80.0,
        "{:?}",
        first.bbox
    );

    // A quote on the scanned page is found, with a box, by the same search as on text pages.
    let finder = QuoteFinder::open(&scan, "scan.pdf", None).unwrap();
    let boxes = finder
        .locate(1, "The termination fee is $2,450,000")
        .expect("the quote is found on the recognised page");
    assert_eq!(boxes[0].page, 1);
    assert!(
        boxes[0].y > 0.2 && boxes[0].y + boxes[0].height < 0.35,
        "{:?}",
        boxes[0]
    );
}

#[test]
fn always_reads_text_pages_too_and_missing_language_data_is_named() {
    let mut pdf = PdfBuilder::new();
    pdf.page().text(
        72.0,
        90.0,
        12.0,
        false,
        "Governing law is the State of Delaware.",
    );
    let bytes = pdf.to_bytes();
    let dir = tempfile::tempdir().unwrap();
    let always_without_data = ExtractOptions {
        ocr: OcrOptions {
            mode: OcrMode::Always,
            languages: "eng".to_string(),
            data_dir: Some(dir.path().to_path_buf()),
        },
        ..ExtractOptions::default()
    };
    match extract_bytes(&bytes, "law.pdf", &always_without_data) {
        Err(PdfError::OcrUnavailable { path, reason }) => {
            assert_eq!(path, "law.pdf");
            assert!(reason.contains("tesseract-ocr-eng"), "{reason}");
        }
        other => panic!("expected OcrUnavailable, got {other:?}"),
    }
    // Auto on a born-digital page does not need the data at all.
    let auto_without_data = ExtractOptions {
        ocr: OcrOptions {
            mode: OcrMode::Auto,
            ..always_without_data.ocr.clone()
        },
        ..ExtractOptions::default()
    };
    let doc = extract_bytes(&bytes, "law.pdf", &auto_without_data).unwrap();
    assert_eq!(doc.pages[0].ocr_confidence, None);
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    if !tessdata_present() {
        return;
    }
    let always = ExtractOptions {
        ocr: OcrOptions {
            mode: OcrMode::Always,
            ..OcrOptions::default()
        },
        ..ExtractOptions::default()
    };
    let doc = extract_bytes(&bytes, "law.pdf", &always).unwrap();
    assert!(doc.pages[0].ocr_confidence.is_some());
    assert_eq!(
        doc.pages[0].plain_text().trim(),
        "Governing law is the State of Delaware."
    );
}

/// A page that draws nothing is not sent to OCR (it could find no text there, and starting
/// Tesseract for it cost more than reading a whole 10-K): it is listed in `blank_pages`, still
/// marked `needs_ocr`. A scan of a page of small print beside a scanned blank sheet still
/// needs OCR, so missing language data is reported for it; with only an empty page beside a
/// born-digital one, OCR is not needed at all.
#[test]
fn blank_pages_are_not_sent_to_ocr() {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 90.0, 12.0, false, "Annual Report 2024");
    pdf.page();
    pdf.page().text(
        72.0,
        90.0,
        6.0,
        false,
        "Small print on an otherwise empty page.",
    );
    let written = pdf.to_bytes();
    // Pages 2 and 3 scanned: a blank sheet, then the small print.
    let scanned = image_only_copy_pages(&written, "written.pdf", 150.0, Some((2, 3))).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let auto_without_data = ExtractOptions {
        ocr: OcrOptions {
            mode: OcrMode::Auto,
            languages: "eng".to_string(),
            data_dir: Some(dir.path().to_path_buf()),
        },
        ..ExtractOptions::default()
    };
    let doc = extract_bytes(&scanned, "report.pdf", &auto_without_data).unwrap();
    assert_eq!(doc.blank_pages, [1]);
    assert!(doc.pages[0].needs_ocr && doc.pages[1].needs_ocr);
    let reason = doc
        .ocr_unavailable
        .expect("the scanned small print needs OCR");
    assert!(reason.contains("tesseract-ocr-eng"), "{reason}");

    // As written: text, an empty page, text.
    let doc = extract_bytes(&written, "report.pdf", &auto_without_data).unwrap();
    assert_eq!(doc.blank_pages, [2]);
    assert_eq!(doc.ocr_unavailable, None);
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
}
