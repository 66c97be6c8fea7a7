//! Every file of the hostile corpus (`corpus/hostile/MANIFEST.tsv` in the shared test data)
//! gets the outcome its manifest's `required` column asks for: a tree, or an error naming the
//! file and the reason; plus the file-specific facts the manifest states (text, pages, outline,
//! labels, rotation, warnings). Requires the shared data (skipped with a reason outside CI).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use nanoindex::core::DocumentTree;
use nanoindex::{Config, IndexedDocument, NanoIndex};

fn run(path: &Path, password: Option<&str>) -> Result<IndexedDocument, String> {
    run_ocr(path, password, &ocr_languages(path))
}

/// The OCR languages a reader gives for a file: the manifest's Chinese scan is Chinese.
fn ocr_languages(path: &Path) -> String {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    if name.contains("-cjk-") {
        "chi_sim".to_string()
    } else {
        "eng".to_string()
    }
}

fn run_ocr(
    path: &Path,
    password: Option<&str>,
    languages: &str,
) -> Result<IndexedDocument, String> {
    NanoIndex::new(Config {
        password: password.map(str::to_string),
        ocr: nanoindex::OcrOptions {
            languages: languages.to_string(),
            ..nanoindex::OcrOptions::default()
        },
        ..Config::default()
    })
    .index(path)
    .map_err(|e| e.to_string())
}

fn all_text(tree: &DocumentTree) -> String {
    tree.iter_nodes()
        .map(|n| format!("{}\n{}\n", n.title, n.text.as_deref().unwrap_or("")))
        .collect()
}

fn titles(tree: &DocumentTree) -> Vec<String> {
    tree.iter_nodes().map(|n| n.title.clone()).collect()
}

fn page_of_title(tree: &DocumentTree, title: &str) -> u32 {
    tree.iter_nodes()
        .find(|n| n.title == title)
        .unwrap_or_else(|| panic!("no node `{title}` in {:?}", titles(tree)))
        .start_index
}

/// The reason an `error:` requirement names: `error:no text layer (OCR needed)` → `no text layer`.
fn reason(required: &str) -> &str {
    let rest = required.trim_start_matches("error:");
    let end = rest
        .find([' ', '|', ';', '(', '—'])
        .map_or(rest.len(), |i| {
            // keep multi-word reasons: cut at the first of " (", " |", ";", " —"
            [" (", " |", ";", " —"]
                .iter()
                .filter_map(|s| rest.find(s))
                .min()
                .unwrap_or(i.max(rest.len()))
        });
    rest[..end].trim()
}

/// Passwords named by `with --password X (or Y): tree`.
fn passwords(required: &str) -> Vec<String> {
    let Some(at) = required.find("--password ") else {
        return Vec::new();
    };
    let rest = &required[at + "--password ".len()..];
    let rest = rest.split(':').next().unwrap_or("");
    rest.replace(['(', ')'], " ")
        .split_whitespace()
        .filter(|w| *w != "or")
        .map(str::to_string)
        .collect()
}

fn check_specifics(name: &str, doc: &IndexedDocument) {
    let tree = &doc.tree;
    let meta = &tree.extraction_metadata;
    let text = all_text(tree);
    match name {
        "encrypted-ownerpw-only-nocopy-pdfjs.pdf" => {
            assert!(meta.copy_forbidden);
            // The page's content stream is broken; its visible text lives in an annotation.
            assert!(text.contains("Security Handler"), "{text}");
            assert!(
                meta.warnings.iter().any(|w| w.contains("forbid copying")),
                "{:?}",
                meta.warnings
            );
        }
        "corrupt-xref-keyword-missing-pdfjs.pdf" => {
            assert!(
                meta.warnings.iter().any(|w| w.contains("repaired")),
                "{:?}",
                meta.warnings
            );
            assert!(text.contains("Reduced test-case"), "{text}");
        }
        "corrupt-page-tree-cycle-pdfjs.pdf" => {
            assert_eq!(meta.page_errors.len(), 1);
            assert_eq!(meta.page_errors[0].page, 2);
            assert!(text.contains("Testcase"), "{text}");
        }
        "corrupt-zen-of-python-pdfminer.pdf" => {
            assert!(text.contains("Beautiful is better than ugly."), "{text}")
        }
        "scanned-image-only-cjk-legal-decision-pdfplumber.pdf" => {
            // Read by OCR in Chinese: every page marked, the decision's title and parties found.
            let pages: Vec<u32> = meta.ocr_pages.iter().map(|p| p.page).collect();
            assert_eq!(pages, [1, 2, 3]);
            assert_eq!(meta.ocr_languages.as_deref(), Some("chi_sim"));
            assert!(
                meta.ocr_pages.iter().all(|p| p.confidence > 0.9),
                "{meta:?}"
            );
            assert!(text.contains("行政处罚决定书"), "{text}");
            assert!(text.contains("哈尔滨电气国际工程有限责任公司"), "{text}");
        }
        "scanned-ocr-layer-letterspaced-pypdf.pdf" => {
            assert!(text.contains("American President Lines"), "{text}")
        }
        "rotated-90-landscape-table-pdfplumber.pdf" => {
            // The header row reads left to right on the rotated page, after the title.
            let header = text
                .lines()
                .position(|l| l.starts_with("State / Territory Permit Handgun Long Gun"));
            let title = text
                .lines()
                .position(|l| l.starts_with("NICS Firearm Background Checks"));
            assert!(header.is_some() && title < header, "{text}");
        }
        "rotated-mixed-per-page-pdfjs.pdf" => {
            let page2 = tree
                .iter_nodes()
                .find(|n| n.start_index == 2)
                .expect("page 2 node");
            assert!(page2
                .text
                .as_deref()
                .unwrap_or("")
                .contains("This is my second page. It will have a landscape layout."));
        }
        "rotated-inherited-from-pages-node-qpdf.pdf" => {
            assert_eq!(tree.page_dimensions[0].width, 792);
            assert_eq!(tree.page_dimensions[0].height, 612);
            assert!(text.contains("Potato"));
        }
        "multicolumn-hyphenation-latex-sample-files.pdf" => {
            for word in ["adipiscing", "consectetuer", "filled"] {
                assert!(text.contains(word), "`{word}` missing");
            }
            assert!(!text.contains('ﬁ'));
            assert!(!text.contains("adip-"));
        }
        "cjk-chinese-tables-pymupdf.pdf" => assert!(
            text.contains("募集说明书") || text.contains("投资集团"),
            "{text}"
        ),
        "cjk-japanese-vertical-writing-pdfjs.pdf" => {
            assert!(text.contains("あいうえお"), "{text}");
            assert_eq!(meta.pages_without_text, [2, 3]);
        }
        "rtl-arabic-weasyprint-sample-files.pdf" => {
            assert!(text.contains("habibi"));
            assert!(text.contains("حَبيبي"), "{text}");
        }
        "rtl-arabic-cid-truetype-pdfjs.pdf" => assert!(text.contains("انواع"), "{text}"),
        "ligatures-pymupdf.pdf" => {
            assert_eq!(text.matches("flag").count(), 2, "{text}");
            assert!(!text.contains('ﬂ'));
        }
        "type3-bitmap-font-latex-diacritics-pdfjs.pdf" => {
            assert!(text.contains("à À â Â ä Ä ç Ç é É"), "{text}")
        }
        "acroform-fields-pdfminer.pdf" => assert!(text.contains("CHECKBOX"), "{text}"),
        "huge-page-a0-rotated-survey-pdfjs.pdf" => {
            assert!(text.contains("PROFESSIONAL LAND SURVEYORS"), "{text}");
            assert_eq!(
                (
                    tree.page_dimensions[0].width,
                    tree.page_dimensions[0].height
                ),
                (3370, 2384)
            );
        }
        "outline-invalid-destinations-pypdf.pdf" => {
            let t = titles(tree);
            let outline_titles = t.iter().filter(|t| t.contains("Destination")).count();
            assert_eq!(outline_titles, 9, "{t:?}");
            assert_eq!(meta.tree_method, "outline");
        }
        "outline-circular-next-pymupdf.pdf" => {
            let t = titles(tree);
            assert!(
                t.contains(&"A Good Beginning".to_string())
                    && t.contains(&"A Good Ending".to_string()),
                "{t:?}"
            );
        }
        "outline-loop-qpdf.pdf" => {
            let t = titles(tree).join("\n");
            for entry in [
                "Potato 1",
                "Mern 1.1",
                "Biherbadem 1.1.1",
                "Glarpenspliel",
                "Hagoogamagoogle",
                "Gawehwehweh 1.1.2",
                "Jawarnianbvarwash",
                "Salad 2",
            ] {
                assert!(t.contains(entry), "`{entry}` missing from {t}");
            }
            assert_eq!(page_of_title(tree, "Potato 1 -> 5: /XYZ null null null"), 6);
        }
        "outline-nonascii-titles-pagelabels-qpdf.pdf" => {
            assert_eq!(
                tree.iter_nodes()
                    .filter(|n| n.title.contains(" -> "))
                    .count(),
                11
            );
            assert_eq!(page_of_title(tree, "Isís 1 -> 5: /XYZ null null null"), 6);
            let labels = &meta.page_labels;
            // The manifest's `u:` is qpdf's JSON notation for a Unicode string: here the
            // empty prefix `/P ()` with no style, so the label is empty.
            assert_eq!(labels[0], "");
            assert_eq!(labels[2..7], ["i", "ii", "iii", "iv", "v"]);
            assert_eq!(labels[12], "2");
            assert_eq!(labels[22], "16059");
            assert_eq!(labels[23], "l");
        }
        "outline-chinese-titles-pdfplumber.pdf" => {
            let t = titles(tree);
            assert!(t.iter().any(|t| t == "教育经历"), "{t:?}");
            assert!(
                t.iter()
                    .filter(|t| t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)))
                    .count()
                    >= 10,
                "{t:?}"
            );
        }
        "outline-named-dests-name-vs-string-pdfjs.pdf" => {
            assert_eq!(page_of_title(tree, "A (via name object)"), 1);
            assert_eq!(page_of_title(tree, "B (via string object)"), 2);
            assert_eq!(page_of_title(tree, "C (via name object)"), 3);
            assert!(!meta.warnings.is_empty());
        }
        "table-small-ruled-pymupdf.pdf" => {
            assert!(text.contains("Noble gases -269 -62 -170.5"), "{text}");
            assert!(text.contains('°'));
        }
        "pagelabels-roman-arabic-pdfminer.pdf" => {
            assert_eq!(meta.page_labels, ["iii", "iv", "1", "2", "1"]);
            assert_eq!(tree.iter_nodes().count(), 4);
        }
        "multicolumn-mnras-arxiv-2201.00069-p5-pymupdf.pdf" => {
            assert!(
                titles(tree).iter().any(|t| t.starts_with("3.1.2")),
                "{:?}",
                titles(tree)
            );
            let left = text.find("persistent 1283 MHz").expect("left column text");
            let right_col_probe = text.rfind("FRB 20190714A").expect("text");
            assert!(left <= right_col_probe);
        }
        _ => {}
    }
}

#[test]
fn every_hostile_file_gets_its_required_outcome() {
    let Some(data) = common::shared_data() else {
        return;
    };
    if !common::ocr_languages("eng+chi_sim") {
        return;
    }
    let dir = data.join("corpus/hostile");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("manifest");
    let mut header: Vec<&str> = Vec::new();
    let mut failures: BTreeMap<String, String> = BTreeMap::new();
    let mut checked = 0;
    for (i, line) in manifest.lines().enumerate() {
        let cols: Vec<&str> = line.split('\t').collect();
        if i == 0 {
            header = cols;
            continue;
        }
        let col = |name: &str| cols[header.iter().position(|h| *h == name).expect("column")];
        let name = col("filename").to_string();
        let required = col("required");
        let path: PathBuf = dir.join(&name);
        let started = Instant::now();
        // OCR exists now: a scan the manifest expected an error for until then gives a tree.
        let required = if required.contains("until OCR exists") {
            "tree"
        } else {
            required
        };
        let outcome = std::panic::catch_unwind(|| {
            let result = run(&path, None);
            if required.starts_with("error:") {
                let err = match result {
                    Ok(_) => {
                        return Err(format!("expected error `{}`, got a tree", reason(required)))
                    }
                    Err(e) => e,
                };
                if !err.contains(reason(required)) || !err.contains(&name) {
                    return Err(format!(
                        "error `{err}` does not name the file and `{}`",
                        reason(required)
                    ));
                }
                for pw in passwords(required) {
                    let doc =
                        run(&path, Some(&pw)).map_err(|e| format!("with password `{pw}`: {e}"))?;
                    check_specifics(&name, &doc);
                }
                if required.contains("--password") {
                    let wrong = run(&path, Some("not-the-password"))
                        .err()
                        .unwrap_or_default();
                    if !wrong.contains("wrong password") {
                        return Err(format!("wrong password gave `{wrong}`"));
                    }
                }
            } else {
                let doc = result?;
                if doc.tree.structure.is_empty() {
                    return Err("empty tree".into());
                }
                check_specifics(&name, &doc);
            }
            Ok(())
        });
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                failures.insert(name.clone(), e);
            }
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.insert(name.clone(), format!("check failed: {msg}"));
            }
        }
        assert!(
            started.elapsed().as_secs() < 30,
            "`{name}` took {:?}",
            started.elapsed()
        );
        checked += 1;
    }
    assert_eq!(checked, 40);
    assert!(
        failures.is_empty(),
        "{} of 40 failed:\n{failures:#?}",
        failures.len()
    );
}

/// A Chinese scan recognised with the default language (English) still gives a tree, but
/// every page is flagged with its low confidence and the advice to give the language.
#[test]
fn a_scan_in_a_language_not_given_is_flagged() {
    let Some(data) = common::shared_data() else {
        return;
    };
    if !common::ocr_languages("eng") {
        return;
    }
    let path = data.join("corpus/hostile/scanned-image-only-cjk-legal-decision-pdfplumber.pdf");
    let doc = run_ocr(&path, None, "eng").unwrap();
    let meta = &doc.tree.extraction_metadata;
    assert_eq!(meta.ocr_pages.len(), 3);
    let flagged = meta
        .warnings
        .iter()
        .filter(|w| w.contains("OCR confidence") && w.contains("--ocr-lang"))
        .count();
    assert_eq!(flagged, 3, "{:?}", meta.warnings);
    assert!(meta
        .ocr_pages
        .iter()
        .all(|p| p.confidence < nanoindex_pdf::ocr::LOW_CONFIDENCE));
}

#[test]
fn reasons_and_passwords_parse_from_the_manifest() {
    assert_eq!(
        reason("error:no text layer (OCR needed) until OCR exists"),
        "no text layer"
    );
    assert_eq!(
        reason("error:password required | with --password baz (or foo): tree"),
        "password required"
    );
    assert_eq!(reason("error:damaged file"), "damaged file");
    assert_eq!(
        passwords("error:password required | with --password baz (or foo): tree"),
        ["baz", "foo"]
    );
}

/// `ask`'s cache never holds an encrypted document's text (it is plain files, readable
/// without the password), and a wrong password fails on every run, not only the first.
#[test]
fn an_encrypted_document_is_never_cached_and_its_password_is_always_checked() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let pdf = data.join("corpus/hostile/encrypted-userpw-rc4-40bit-pdfminer.pdf");
    let cache = tempfile::tempdir().unwrap();
    let engine = |password: Option<&str>| {
        NanoIndex::new(Config {
            password: password.map(str::to_string),
            ..Config::default()
        })
    };
    for _ in 0..2 {
        let prepared = engine(Some("baz"))
            .prepare_pdf(&pdf, None, Some(cache.path()), &mut |_| {})
            .expect("the right password opens it");
        assert!(!prepared.tree_cached);
        assert!(prepared
            .document
            .tree
            .iter_nodes()
            .any(|n| n.text.as_deref().is_some_and(|t| t.contains("Secret!"))));
    }
    let mut written = Vec::new();
    let mut stack = vec![cache.path().to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                written.push(path);
            }
        }
    }
    assert!(written.is_empty(), "nothing of it is cached: {written:?}");
    for password in [Some("wrong"), None] {
        let err = engine(password)
            .prepare_pdf(&pdf, None, Some(cache.path()), &mut |_| {})
            .expect_err("a wrong or missing password fails");
        assert!(err.to_string().contains("password"), "{err}");
    }

    // An unencrypted document is cached as before.
    let plain = data.join("corpus/hostile/encrypted-ownerpw-only-aes256-pypdf.pdf");
    engine(None)
        .prepare_pdf(&plain, None, Some(cache.path()), &mut |_| {})
        .unwrap();
    let again = engine(None)
        .prepare_pdf(&plain, None, Some(cache.path()), &mut |_| {})
        .unwrap();
    assert!(again.tree_cached);
}

/// A password typed in another Unicode form (decomposed umlauts) opens an AES-256 file
/// locked with the composed one: passwords are prepared with SASLprep, as PDF 2.0 requires.
#[test]
fn a_decomposed_password_opens_a_file_locked_with_the_composed_one() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let pdf = data.join("corpus/hostile/encrypted-userpw-nonascii-password-pdfjs.pdf");
    for password in ["pässwört", "pa\u{308}sswo\u{308}rt"] {
        let doc = run(&pdf, Some(password)).unwrap_or_else(|e| panic!("{password:?}: {e}"));
        assert!(all_text(&doc.tree).contains("repro1a"), "{password:?}");
    }
    assert!(run(&pdf, Some("passwort")).is_err());
}

/// A page that draws nothing is named blank, not sent to OCR and not listed among the pages
/// without text (those OCR would read), so a tree with one is complete without OCR.
#[test]
fn a_blank_page_is_reported_as_blank_not_as_needing_ocr() {
    let dir = tempfile::tempdir().unwrap();
    let mut pdf = nanoindex_pdf::write::PdfBuilder::new();
    pdf.page()
        .text(72.0, 72.0, 12.0, false, "Annual report of Harbor Mills.");
    pdf.page();
    let path = dir.path().join("with-blank.pdf");
    std::fs::write(&path, pdf.to_bytes()).unwrap();
    let doc = run(&path, None).unwrap();
    let meta = &doc.tree.extraction_metadata;
    assert!(meta.pages_without_text.is_empty(), "{meta:?}");
    assert!(
        meta.warnings
            .iter()
            .any(|w| w.starts_with("1 of 2 pages are blank") && w.ends_with(": 2")),
        "{:?}",
        meta.warnings
    );
}

/// A damaged file whose text cannot be read is reported as damaged, never as "OCR needed":
/// here the text operators of a written page are garbled and its cross-reference offset
/// broken, as truncation or a lost encryption dictionary leave a file.
#[test]
fn a_damaged_file_without_readable_text_is_not_called_a_scan() {
    if !common::ocr_languages("eng") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut pdf = nanoindex_pdf::write::PdfBuilder::new();
    pdf.page()
        .text(72.0, 72.0, 12.0, false, "The one real page.");
    let replace = |bytes: &[u8], from: &[u8], to: &[u8]| -> Vec<u8> {
        let at = bytes
            .windows(from.len())
            .position(|w| w == from)
            .expect("pattern in the written PDF");
        [&bytes[..at], to, &bytes[at + from.len()..]].concat()
    };
    let garbled = replace(&pdf.to_bytes(), b" Tj", b" Xq");
    let path = dir.path().join("garbled.pdf");
    std::fs::write(&path, &garbled).unwrap();
    let err = run(&path, None).unwrap_err();
    assert!(
        err.contains("no text layer") && err.contains("no page draws anything"),
        "intact xref, no text drawn: not damaged, and blank (OCR is not run on it): {err}"
    );
    let broken = replace(&garbled, b"startxref\n", b"startxref\n9");
    std::fs::write(&path, &broken).unwrap();
    let err = run(&path, None).unwrap_err();
    assert!(!err.contains("OCR"), "{err}");
    assert!(
        err.contains("damaged file") && err.contains("not a scan"),
        "{err}"
    );
}
