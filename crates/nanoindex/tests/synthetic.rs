//! Engine tests on PDFs the tests write themselves: outline trees, typography trees with
//! numbered headings, a small 10-K with a contents page, cross-references, two-column
//! reading order and the JSON round trip. They need no outside files and always run.

mod common;

use std::path::Path;

use common::Flow;
use nanoindex::core::{load_graph, load_tree, save_graph, save_tree, DocumentTree, TreeNode};
use nanoindex::{Config, IndexedDocument, NanoIndex};
use nanoindex_pdf::write::PdfBuilder;

fn index(bytes: &[u8], name: &str) -> IndexedDocument {
    NanoIndex::new(Config::default())
        .index_bytes(bytes, Path::new(name))
        .unwrap_or_else(|e| panic!("indexing {name}: {e}"))
}

fn find<'a>(tree: &'a DocumentTree, title: &str) -> &'a TreeNode {
    tree.iter_nodes()
        .find(|n| n.title == title)
        .unwrap_or_else(|| {
            let titles: Vec<&str> = tree.iter_nodes().map(|n| n.title.as_str()).collect();
            panic!("no node `{title}` in {titles:?}")
        })
}

/// (id, title, start page, end page) of every node, depth-first.
fn outline(tree: &DocumentTree) -> Vec<(String, String, u32, u32)> {
    tree.iter_nodes()
        .map(|n| {
            (
                n.node_id.to_string(),
                n.title.clone(),
                n.start_index,
                n.end_index,
            )
        })
        .collect()
}

#[test]
fn outline_tree_uses_bookmarks_and_splits_text_at_headings() {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 80.0, 16.0, true, "Introduction")
        .text(72.0, 110.0, 10.0, false, "The introduction body.")
        .text(72.0, 150.0, 12.0, true, "Scope")
        .text(72.0, 175.0, 10.0, false, "Scope covers the plant.");
    pdf.page().text(72.0, 80.0, 16.0, true, "Methods").text(
        72.0,
        110.0,
        10.0,
        false,
        "We measured twice.",
    );
    pdf.page().text(72.0, 80.0, 16.0, true, "Results").text(
        72.0,
        110.0,
        10.0,
        false,
        "Output rose 5%.",
    );
    pdf.outline(1, "Introduction", 0)
        .outline(2, "Scope", 0)
        .outline(1, "Methods", 1)
        .outline(1, "Results", 2);
    let doc = index(&pdf.to_bytes(), "outlined.pdf");
    let tree = &doc.tree;
    assert_eq!(tree.extraction_metadata.tree_method, "outline");
    assert_eq!(
        outline(tree),
        [
            ("0000".into(), "Introduction".into(), 1, 1),
            ("0000.0000".into(), "Scope".into(), 1, 1),
            ("0001".into(), "Methods".into(), 2, 2),
            ("0002".into(), "Results".into(), 3, 3),
        ]
    );
    let intro = find(tree, "Introduction");
    assert_eq!(
        intro.text.as_deref(),
        Some("Introduction\n\nThe introduction body.")
    );
    assert_eq!(
        find(tree, "Scope").text.as_deref(),
        Some("Scope\n\nScope covers the plant.")
    );
    // heading box first, then the body block, as page fractions
    let heading = &intro.bounding_boxes[0];
    assert_eq!((heading.page, heading.region_type.as_str()), (1, "heading"));
    assert!((heading.x - 72.0 / 612.0).abs() < 0.01, "{heading:?}");
    assert!(heading.y > 0.07 && heading.y < 0.1, "{heading:?}");
    assert_eq!(intro.bounding_boxes[1].region_type, "paragraph");
}

fn contract() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(18.0, "MASTER SERVICES AGREEMENT")
        .para(&["This Agreement is made between Acme Corp and Beta LLC."])
        .heading(13.0, "1. Definitions")
        .para(&["Capitalised terms have the meanings given in this Section."])
        .heading(11.0, "1.1 Services")
        .para(&[
            "The Supplier provides the Services. Late fees follow Section 2.5(b).",
            "Section 9.9 is mentioned but does not exist.",
        ])
        .heading(13.0, "2. Payment")
        .para(&["Invoices are issued monthly."])
        .new_page()
        .heading(11.0, "2.5 Late Payment")
        .para(&["(b) Interest accrues at 1% per month on late amounts."])
        .heading(13.0, "3. Term")
        .para(&["This Agreement runs for 24 months unless ended under Clause 2."]);
    f.bytes()
}

#[test]
fn typography_tree_nests_numbered_headings_by_size_and_depth() {
    let doc = index(&contract(), "contract.pdf");
    let tree = &doc.tree;
    assert_eq!(tree.extraction_metadata.tree_method, "typography");
    assert_eq!(tree.domain.as_deref(), Some("legal_contract"));
    assert_eq!(
        outline(tree),
        [
            ("0000".into(), "MASTER SERVICES AGREEMENT".into(), 1, 2),
            ("0000.0000".into(), "1. Definitions".into(), 1, 1),
            ("0000.0000.0000".into(), "1.1 Services".into(), 1, 1),
            ("0000.0001".into(), "2. Payment".into(), 1, 2),
            ("0000.0001.0000".into(), "2.5 Late Payment".into(), 2, 2),
            ("0000.0002".into(), "3. Term".into(), 2, 2),
        ]
    );
    // Own text only: the parent's text stops at its first child's heading.
    let payment = find(tree, "2. Payment");
    assert_eq!(
        payment.text.as_deref(),
        Some("2. Payment\n\nInvoices are issued monthly.")
    );
}

#[test]
fn cross_references_resolve_to_numbered_nodes() {
    let doc = index(&contract(), "contract.pdf");
    let refs: Vec<(String, String, String, u32)> = doc
        .graph
        .cross_references
        .iter()
        .map(|r| {
            (
                r.source_node_id.to_string(),
                r.target_node_id.to_string(),
                r.text.clone(),
                r.page,
            )
        })
        .collect();
    assert_eq!(
        refs,
        [
            (
                "0000.0000.0000".into(),
                "0000.0001.0000".into(),
                "Section 2.5(b)".into(),
                1
            ),
            ("0000.0002".into(), "0000.0001".into(), "Clause 2".into(), 2),
        ]
    );
    assert!(doc.graph.relationships.iter().all(|r| r
        .relation_type
        .as_ref()
        .map(nanoindex_core::RelationType::as_str)
        == Some("references")));
}

#[test]
fn repeated_titles_are_disambiguated_by_their_parent() {
    let mut f = Flow::new();
    f.heading(16.0, "Q1 2023 Results")
        .para(&["Revenue was 10."])
        .heading(12.0, "Reconciliation")
        .para(&["Adjusted EBITDA was 3."])
        .heading(16.0, "Q2 2023 Results")
        .para(&["Revenue was 11."])
        .heading(12.0, "Reconciliation")
        .para(&["Adjusted EBITDA was 4."]);
    let doc = index(&f.bytes(), "quarters.pdf");
    let titles: Vec<String> = doc.tree.iter_nodes().map(|n| n.title.clone()).collect();
    assert_eq!(
        titles,
        [
            "Q1 2023 Results",
            "Reconciliation — Q1 2023 Results",
            "Q2 2023 Results",
            "Reconciliation — Q2 2023 Results"
        ]
    );
}

fn ten_k() -> Vec<u8> {
    let mut f = Flow::new();
    f.line(
        12.0,
        true,
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
    )
    .line(14.0, true, "FORM 10-K")
    .para(&[
        "ACME INDUSTRIES INC.",
        "Annual report for the fiscal year ended December 31, 2023",
    ])
    .new_page()
    .line(12.0, true, "TABLE OF CONTENTS")
    .line(10.0, true, "PART I")
    .line(10.0, false, "Item 1. Business 3")
    .line(10.0, false, "Item 1A. Risk Factors 3")
    .line(10.0, false, "Item 2. Properties 4")
    .line(10.0, true, "PART II")
    .line(
        10.0,
        false,
        "Item 7. Management's Discussion and Analysis 4",
    )
    .line(
        10.0,
        false,
        "Item 8. Financial Statements and Supplementary Data 5",
    )
    .new_page()
    .heading(12.0, "PART I")
    .heading(11.0, "Item 1. Business")
    .para(&["Acme makes industrial adhesives in 12 plants."])
    .heading(11.0, "Item 1A. Risk Factors")
    .para(&["Demand is cyclical; see Item 7 for our outlook."])
    .new_page()
    .heading(11.0, "Item 2. Properties")
    .para(&["Our headquarters are in Ohio."])
    .heading(12.0, "PART II")
    .heading(
        11.0,
        "Item 7. Management's Discussion and Analysis of Financial Condition",
    )
    .para(&["Sales grew 4% in 2023."])
    .new_page()
    .heading(11.0, "Item 8. Financial Statements and Supplementary Data")
    .heading(10.5, "Consolidated Statement of Cash Flows");
    let rows = [
        (
            "Net cash provided by operating activities",
            "6,439",
            "6,240",
            "6,662",
        ),
        (
            "Purchases of property, plant and equipment",
            "(1,577)",
            "(1,373)",
            "(1,420)",
        ),
        (
            "Proceeds from sale of PP&E and other assets",
            "262",
            "49",
            "58",
        ),
    ];
    let page = f.pdf.last_page();
    for (i, (label, a, b, c)) in rows.iter().enumerate() {
        let y = 200.0 + 14.0 * i as f32;
        page.text(72.0, y, 9.0, false, label)
            .text(380.0, y, 9.0, false, a)
            .text(440.0, y, 9.0, false, b)
            .text(500.0, y, 9.0, false, c);
    }
    f.bytes()
}

#[test]
fn ten_k_is_normalised_to_parts_and_items_starting_after_the_contents() {
    let doc = index(&ten_k(), "acme-10k.pdf");
    let tree = &doc.tree;
    assert_eq!(tree.extraction_metadata.tree_method, "sec_filing");
    assert_eq!(tree.domain.as_deref(), Some("sec_10k"));
    let top: Vec<(String, u32)> = tree
        .iter_nodes()
        .filter(|n| n.level <= 2)
        .map(|n| (n.title.clone(), n.start_index))
        .collect();
    assert_eq!(
        top,
        [
            ("Cover Page and Table of Contents".to_string(), 1),
            ("PART I".to_string(), 3),
            ("Item 1. Business".to_string(), 3),
            ("Item 1A. Risk Factors".to_string(), 3),
            ("Item 2. Properties".to_string(), 4),
            ("PART II".to_string(), 4),
            (
                "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
                    .to_string(),
                4
            ),
            ("Item 8. Financial Statements and Supplementary Data".to_string(), 5),
        ]
    );
    let cash_flow = find(tree, "Consolidated Statement of Cash Flows");
    assert_eq!(cash_flow.level, 3);
    let text = cash_flow.text.as_deref().unwrap();
    assert!(
        text.contains("Purchases of property, plant and equipment (1,577) (1,373) (1,420)"),
        "table row split: {text}"
    );
    let risk = find(tree, "Item 1A. Risk Factors");
    let item7 = tree
        .iter_nodes()
        .find(|n| n.title.starts_with("Item 7."))
        .unwrap();
    assert!(doc
        .graph
        .cross_references
        .iter()
        .any(|r| r.source_node_id == risk.node_id
            && r.target_node_id == item7.node_id
            && r.text == "Item 7"));
}

#[test]
fn two_columns_are_read_column_by_column() {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(72.0, 60.0, 16.0, true, "A Study of Two Columns");
    for i in 0..8 {
        let y = 100.0 + 13.0 * i as f32;
        page.text(
            50.0,
            y,
            10.0,
            false,
            &format!("left column sentence {i} of the study"),
        )
        .text(
            320.0,
            y,
            10.0,
            false,
            &format!("right column sentence {i} of the study"),
        );
    }
    let doc = index(&pdf.to_bytes(), "columns.pdf");
    let text: String = doc
        .tree
        .iter_nodes()
        .filter_map(|n| n.text.clone())
        .collect();
    let left_last = text.find("left column sentence 7").unwrap();
    let right_first = text.find("right column sentence 0").unwrap();
    assert!(left_last < right_first, "columns interleaved:\n{text}");
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("column")).collect();
    assert_eq!(lines.len(), 16);
    assert!(lines[..8].iter().all(|l| l.starts_with("left")));
}

#[test]
fn tree_and_graph_survive_a_save_load_round_trip() {
    let doc = index(&ten_k(), "acme-10k.pdf");
    let dir = tempfile::tempdir().unwrap();
    let tree_path = dir.path().join("acme.tree.json");
    let graph_path = dir.path().join("acme.graph.json");
    save_tree(&doc.tree, &tree_path).unwrap();
    save_graph(&doc.graph, &graph_path).unwrap();
    assert_eq!(load_tree(&tree_path).unwrap(), doc.tree);
    assert_eq!(load_graph(&graph_path).unwrap(), doc.graph);
    let meta = &doc.tree.extraction_metadata;
    assert_eq!(meta.format_version, nanoindex::core::FORMAT_VERSION);
    assert_eq!(
        meta.source_sha256.as_deref(),
        Some(nanoindex::sha256_hex(&ten_k()).as_str())
    );
    assert_eq!(meta.page_count, 5);
}

/// A contract set as filed agreements are: one size, nothing bold, clause titles run into
/// their text ("Section 10.8 Governing Law, etc. This Agreement …"), consecutive clauses in
/// one text block, ARTICLE headings over two lines, defined terms numbered as clauses.
fn plain_contract() -> Vec<u8> {
    let mut f = Flow::new();
    let body = |f: &mut Flow, text: &str| {
        f.line(10.0, false, text);
    };
    f.line(10.0, false, "ARTICLE I");
    f.line(10.0, false, "DEFINITIONS AND TERMS");
    f.gap();
    body(
        &mut f,
        "Section 1.1 Defined Terms. The terms below have the meanings given.",
    );
    body(&mut f, "1.2 “Effective Date” means March 1, 2021.");
    f.gap();
    body(
        &mut f,
        "1.3 “Territory” means the United States and Canada.",
    );
    f.gap();
    f.line(10.0, false, "ARTICLE X");
    f.line(10.0, false, "MISCELLANEOUS");
    f.gap();
    body(
        &mut f,
        "Section 10.7 Notices. All notices shall be given in writing to the",
    );
    body(
        &mut f,
        "addresses set out in Schedule 2 and are effective on receipt.",
    );
    body(
        &mut f,
        "Section 10.8 Governing Law, etc. This Agreement is governed by the laws of",
    );
    body(&mut f, "the State of Illinois.");
    body(
        &mut f,
        "Section 3.1 of the Code requires each payment to be reported.",
    );
    f.bytes()
}

#[test]
fn run_in_clause_titles_and_two_line_articles_become_the_outline() {
    let doc = index(&plain_contract(), "plain-contract.pdf");
    let titles: Vec<(usize, String)> = doc
        .tree
        .iter_nodes()
        .map(|n| (n.node_id.to_string().matches('.').count(), n.title.clone()))
        .collect();
    let expected: Vec<(usize, String)> = [
        (0, "ARTICLE I DEFINITIONS AND TERMS"),
        (1, "Section 1.1 Defined Terms"),
        (1, "1.2 “Effective Date”"),
        (1, "1.3 “Territory”"),
        (0, "ARTICLE X MISCELLANEOUS"),
        (1, "Section 10.7 Notices"),
        (1, "Section 10.8 Governing Law, etc"),
    ]
    .into_iter()
    .map(|(d, t)| (d, t.to_string()))
    .collect();
    assert_eq!(titles, expected);
    let law = find(&doc.tree, "Section 10.8 Governing Law, etc");
    let text = law.text.as_deref().unwrap_or("");
    assert!(text.contains("State of Illinois"), "{text}");
    // A sentence that starts with a section reference is text, not a heading.
    assert!(text.contains("Section 3.1 of the Code requires"), "{text}");
}

/// An opinion: parts marked by a centred "I", "II" and sub-parts "A", "B" (the Supreme
/// Court's style), and a sentence that opens with a citation on its own line.
fn opinion() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let mut y = 72.0;
    let mut page = 0;
    pdf.page();
    let mut put = |pdf: &mut PdfBuilder, x: f32, text: &str, gap: f32| {
        y += gap;
        if y > 700.0 {
            pdf.page();
            page += 1;
            y = 90.0;
        }
        pdf.last_page().text(x, y, 11.0, false, text);
    };
    put(&mut pdf, 200.0, "SUPREME COURT OF THE STATE", 0.0);
    put(
        &mut pdf,
        72.0,
        "Opinion of the Court delivered by Justice Hale.",
        30.0,
    );
    for (part, subs) in [("I", ["A", "B"]), ("II", ["A", "B"])] {
        put(&mut pdf, 302.0, part, 40.0);
        for sub in subs {
            put(&mut pdf, 302.0, sub, 24.0);
            for i in 0..4 {
                put(
                    &mut pdf,
                    72.0,
                    &format!("The court considered argument {i} of part {part}.{sub} at length."),
                    26.0,
                );
            }
        }
    }
    put(
        &mut pdf,
        72.0,
        "sweepstakes conducted through video games are prohibited under",
        26.0,
    );
    put(
        &mut pdf,
        72.0,
        "§ 14-306.4. In other words, the majority erred in concluding that the",
        26.0,
    );
    pdf.to_bytes()
}

#[test]
fn opinion_parts_nest_and_a_citation_sentence_is_no_heading() {
    let doc = index(&opinion(), "opinion.pdf");
    let parts: Vec<(usize, String)> = doc
        .tree
        .iter_nodes()
        .filter(|n| !n.title.contains("SUPREME"))
        .map(|n| (n.node_id.to_string().matches('.').count(), n.title.clone()))
        .collect();
    let depth_of = |title: &str| parts.iter().find(|(_, t)| t == title).map(|(d, _)| *d);
    assert!(
        depth_of("I").is_some() && depth_of("II").is_some(),
        "{parts:?}"
    );
    assert_eq!(depth_of("I"), depth_of("II"), "{parts:?}");
    let subs: Vec<usize> = parts
        .iter()
        .filter(|(_, t)| t.starts_with("A") || t.starts_with("B"))
        .map(|(d, _)| *d)
        .collect();
    assert_eq!(subs.len(), 4, "{parts:?}");
    assert!(
        subs.iter()
            .all(|&d| Some(d) == depth_of("I").map(|p| p + 1)),
        "{parts:?}"
    );
    assert!(!parts.iter().any(|(_, t)| t.contains("§")), "{parts:?}");
}

/// (depth, title) of every node, depth-first: depth 0 for top-level nodes.
fn depths(tree: &DocumentTree) -> Vec<(usize, String)> {
    tree.iter_nodes()
        .map(|n| (n.node_id.to_string().matches('.').count(), n.title.clone()))
        .collect()
}

/// A servicing agreement set as filed ones are: one size, nothing bold in the body, an
/// ARTICLE title over two lines cut at a semicolon, lettered clauses with run-in titles
/// (and lettered items of a list that are no headings), definitions with alternative
/// terms and redactions, then exhibits and schedules whose titles sit on the next line.
fn servicing_agreement() -> Vec<u8> {
    let mut f = Flow::new();
    let line = |f: &mut Flow, text: &str| {
        f.line(10.0, false, text);
    };
    line(&mut f, "ARTICLE I");
    line(&mut f, "DEFINITIONS");
    f.gap();
    line(
        &mut f,
        "1.29 “Control” or “Controlled” means possession of the ability to grant a licence.",
    );
    f.gap();
    line(&mut f, "1.31 “Cost of Manufacture” [***].");
    f.gap();
    line(
        &mut f,
        "1.32 “Cover”, “Covering” or “Covered” means, for a product, that it is claimed.",
    );
    f.gap();
    line(&mut f, "1.52 [***].");
    f.gap();
    line(&mut f, "ARTICLE II");
    line(&mut f, "TRANSFER AND ACQUISITION OF TRANSFERRED PROPERTY;");
    line(&mut f, "REPRESENTATIONS AND WARRANTIES");
    f.gap();
    line(&mut f, "Section 2.1 Transfers of Transferred Property.");
    f.gap();
    line(
        &mut f,
        "(a) Transfer of Initial Receivables. In consideration of the Notes, the Depositor",
    );
    line(&mut f, "transfers the Initial Receivables to the Issuer.");
    f.gap();
    line(
        &mut f,
        "(b) Conditions for Transfers. Each transfer is subject to the following:",
    );
    f.gap();
    line(
        &mut f,
        "(i) Transfer Notice. The Administrator shall deliver a Transfer Notice; and",
    );
    f.gap();
    line(&mut f, "(ii) the Depositor certifies that it is Solvent.");
    f.gap();
    line(
        &mut f,
        "(c) the Closing Date has occurred, as described in Section 2.1(a).",
    );
    f.new_page();
    f.line(10.0, true, "EXHIBIT A");
    f.line(10.0, true, "Transition Services");
    f.gap();
    line(&mut f, "The Services are listed by category below.");
    f.new_page();
    line(&mut f, "Schedule B");
    f.gap();
    line(&mut f, "Notice Addresses");
    f.gap();
    line(
        &mut f,
        "If to the Servicer: One Verizon Way, Basking Ridge.",
    );
    f.bytes()
}

#[test]
fn lettered_clauses_defined_terms_and_next_line_titles_become_the_outline() {
    let doc = index(&servicing_agreement(), "servicing-agreement.pdf");
    let expected: Vec<(usize, String)> = [
        (0, "ARTICLE I DEFINITIONS"),
        (1, "1.29 “Control” or “Controlled”"),
        (1, "1.31 “Cost of Manufacture”"),
        (1, "1.32 “Cover”, “Covering” or “Covered”"),
        (1, "1.52 [***]"),
        (
            0,
            "ARTICLE II TRANSFER AND ACQUISITION OF TRANSFERRED PROPERTY; REPRESENTATIONS AND \
             WARRANTIES",
        ),
        (1, "Section 2.1 Transfers of Transferred Property"),
        (2, "(a) Transfer of Initial Receivables"),
        (2, "(b) Conditions for Transfers"),
        (3, "(i) Transfer Notice"),
        (0, "EXHIBIT A Transition Services"),
        (0, "Schedule B Notice Addresses"),
    ]
    .into_iter()
    .map(|(d, t)| (d, t.to_string()))
    .collect();
    assert_eq!(depths(&doc.tree), expected);
    // Items of a list stay in the text of the clause they belong to.
    let b = find(&doc.tree, "(i) Transfer Notice");
    let text = b.text.as_deref().unwrap_or("");
    assert!(text.contains("(ii) the Depositor certifies"), "{text}");
    assert!(text.contains("(c) the Closing Date has occurred"), "{text}");
    let exhibit = find(&doc.tree, "EXHIBIT A Transition Services");
    assert_eq!(exhibit.start_index, 2);
}

/// A slip opinion as the Supreme Court prints it: a syllabus whose title also heads each of
/// its pages, the line that opens the opinion of the Court, parts I and II centred, parts
/// A and B under them, and numbered parts 1 and 2 under those, followed by a dissent.
fn slip_opinion() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let para = |pdf: &mut PdfBuilder, y: &mut f32, lines: &[&str]| {
        for (i, l) in lines.iter().enumerate() {
            pdf.last_page()
                .text(if i == 0 { 84.0 } else { 72.0 }, *y, 11.0, false, l);
            *y += 14.0;
        }
        *y += 10.0;
    };
    for page in 0..2 {
        pdf.page().text(282.0, 60.0, 9.0, false, "Syllabus");
        let mut y = 100.0;
        para(
            &mut pdf,
            &mut y,
            &[
                &format!("The syllabus summarises holding {page} of the Court for the reader."),
                "It constitutes no part of the opinion of the Court.",
            ],
        );
    }
    pdf.page();
    let mut y = 90.0;
    para(
        &mut pdf,
        &mut y,
        &[
            "JUSTICE HALE delivered the opinion of the Court.",
            "The Red River Compact allocates water rights among the States.",
        ],
    );
    for (part, subs) in [("I", vec!["A", "B"]), ("II", vec!["A"])] {
        for (k, sub) in subs.iter().enumerate() {
            let head: Vec<&str> = if k == 0 { vec![part, sub] } else { vec![sub] };
            for h in head {
                pdf.last_page().text(302.0, y, 11.0, false, h);
                y += 14.0;
            }
            let numbered = part == "I" && *sub == "B";
            for n in if numbered { vec!["1", "2"] } else { vec![""] } {
                if !n.is_empty() {
                    pdf.last_page().text(303.0, y, 11.0, false, n);
                    y += 14.0;
                }
                para(
                    &mut pdf,
                    &mut y,
                    &[&format!(
                        "The Court considers point {part}.{sub}{n} of the appeal here."
                    )],
                );
                if y > 640.0 {
                    pdf.page();
                    y = 90.0;
                }
            }
        }
    }
    para(
        &mut pdf,
        &mut y,
        &[
            "JUSTICE KANE, dissenting.",
            "I would reverse the judgment of the Court of Appeals.",
        ],
    );
    pdf.to_bytes()
}

#[test]
fn a_slip_opinion_nests_its_parts_under_the_opinion_that_holds_them() {
    let doc = index(&slip_opinion(), "slip-opinion.pdf");
    let nodes = depths(&doc.tree);
    let expected: Vec<(usize, &str)> = vec![
        (0, "Syllabus"),
        (0, "JUSTICE HALE delivered the opinion of the Court."),
        (1, "I"),
        (2, "A"),
        (2, "B"),
        (3, "1"),
        (3, "2"),
        (1, "II"),
        (2, "A"),
        (0, "JUSTICE KANE, dissenting."),
    ];
    let got: Vec<(usize, &str)> = nodes
        .iter()
        .map(|(d, t)| (*d, t.split(" — ").next().unwrap_or(t)))
        .collect();
    assert_eq!(got, expected, "{nodes:?}");
    let syllabus = find(&doc.tree, "Syllabus");
    assert_eq!((syllabus.start_index, syllabus.end_index), (1, 2));
}

#[test]
fn headings_under_an_outline_leaf_are_merged_and_its_titles_kept() {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 80.0, 14.0, true, "Research Question")
        .text(
            72.0,
            105.0,
            12.0,
            false,
            "Is day-case surgery acceptable to patients?",
        )
        .text(72.0, 140.0, 14.0, true, "Rationale and background")
        .text(
            72.0,
            165.0,
            12.0,
            false,
            "Day-case rates vary across the country.",
        );
    pdf.page()
        .text(72.0, 80.0, 14.0, true, "AIMS AND OBJECTIVES")
        .text(72.0, 110.0, 13.0, false, "Aim:")
        .text(
            72.0,
            135.0,
            12.0,
            false,
            "To explore the experience of patients.",
        )
        .text(72.0, 170.0, 13.0, false, "Objectives:")
        .text(72.0, 195.0, 12.0, false, "To describe what patients value.");
    pdf.outline(1, "Research Question", 0)
        .outline(1, "Aims and Objectives", 1);
    let doc = index(&pdf.to_bytes(), "protocol.pdf");
    let expected: Vec<(usize, String)> = [
        (0, "Research Question"),
        (1, "Rationale and background"),
        (0, "Aims and Objectives"),
        (1, "Aim:"),
        (1, "Objectives:"),
    ]
    .into_iter()
    .map(|(d, t)| (d, t.to_string()))
    .collect();
    assert_eq!(depths(&doc.tree), expected);
    let aim = find(&doc.tree, "Aim:");
    assert_eq!(
        aim.text.as_deref(),
        Some("Aim:\n\nTo explore the experience of patients.")
    );
}

#[test]
fn a_headline_over_three_lines_is_one_heading() {
    let mut f = Flow::new();
    f.heading(16.0, "The Walt Disney Company Reports")
        .line(16.0, true, "Fourth Quarter and Full Year")
        .line(16.0, true, "Earnings for Fiscal 2023")
        .para(&["Revenues for the quarter grew 5% to $21.2 billion."])
        .heading(12.0, "Linear Networks")
        .para(&["Operating income at Linear Networks fell 13%."])
        .heading(12.0, "Direct-to-Consumer")
        .para(&["Operating losses narrowed to $0.4 billion."]);
    let doc = index(&f.bytes(), "earnings-release.pdf");
    let expected: Vec<(usize, String)> = [
        (
            0,
            "The Walt Disney Company Reports Fourth Quarter and Full Year Earnings for Fiscal 2023",
        ),
        (1, "Linear Networks"),
        (1, "Direct-to-Consumer"),
    ]
    .into_iter()
    .map(|(d, t)| (d, t.to_string()))
    .collect();
    assert_eq!(depths(&doc.tree), expected);
}

/// Every table of the tree's nodes, in reading order.
fn tables_of(tree: &DocumentTree) -> Vec<&nanoindex::core::Table> {
    tree.iter_nodes().flat_map(|n| n.tables.iter()).collect()
}

/// A table's body rows as cell texts.
fn row_texts(t: &nanoindex::core::Table) -> Vec<Vec<&str>> {
    t.rows
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect()
}

/// A cash-flow statement as 10-Ks set it: a title, a header of years right of the labels,
/// a label line, rows of three figures (one with a blank cell under 2017) to the foot of the
/// page, the statement running on at the top of the next page, then the next statement at
/// the top of the page after.
fn cash_flow_statement() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    // Rows 13 pt apart from `y`, their figures right-aligned under the three years.
    let rows = |pdf: &mut PdfBuilder, y: f32, rows: &[(&str, [&str; 3])]| {
        let page = pdf.last_page();
        for (i, (label, figures)) in rows.iter().enumerate() {
            let y = y + 13.0 * i as f32;
            page.text(72.0, y, 9.0, false, label);
            for (x, f) in [400.0, 460.0, 520.0].into_iter().zip(figures) {
                if !f.is_empty() {
                    page.text(x + 36.0 - 4.5 * f.len() as f32, y, 9.0, false, f);
                }
            }
        }
    };
    let header = |pdf: &mut PdfBuilder, y: f32, title: &str| {
        pdf.last_page()
            .text(72.0, y, 11.0, true, title)
            .text(72.0, y + 20.0, 9.0, false, "(Millions)")
            .text(418.0, y + 20.0, 9.0, false, "2018")
            .text(478.0, y + 20.0, 9.0, false, "2017")
            .text(538.0, y + 20.0, 9.0, false, "2016");
    };
    pdf.page()
        .text(72.0, 70.0, 16.0, true, "Item 8. Financial Statements");
    header(&mut pdf, 100.0, "Consolidated Statement of Cash Flows");
    pdf.last_page().text(
        72.0,
        134.0,
        9.0,
        false,
        "Cash Flows from Investing Activities",
    );
    let flows = [
        (
            "Purchases of property, plant and equipment",
            ["(1,577)", "(1,373)", "(1,420)"],
        ),
        ("Proceeds from sale of businesses", ["846", "", "142"]),
        (
            "Acquisitions, net of cash acquired",
            ["13", "(2,023)", "(16)"],
        ),
    ];
    rows(&mut pdf, 147.0, &flows);
    pdf.page();
    let more = [
        (
            "Net cash used in investing activities",
            ["(222)", "(3,086)", "(1,403)"],
        ),
        (
            "Net cash used in financing activities",
            ["(6,701)", "(2,655)", "(4,626)"],
        ),
    ];
    rows(&mut pdf, 80.0, &more);
    // The next statement, at the top of the next page, is a table of its own.
    pdf.page();
    header(
        &mut pdf,
        70.0,
        "Consolidated Statement of Comprehensive Income",
    );
    let income = [
        (
            "Net income including noncontrolling interest",
            ["5,363", "4,869", "5,058"],
        ),
        (
            "Cumulative translation adjustment",
            ["(467)", "373", "(331)"],
        ),
    ];
    rows(&mut pdf, 105.0, &income);
    pdf.last_page().text(
        72.0,
        150.0,
        10.0,
        false,
        "The notes that follow are an integral part of these statements.",
    );
    pdf.to_bytes()
}

#[test]
fn a_statement_becomes_one_table_with_its_header_cells_and_boxes() {
    let doc = index(&cash_flow_statement(), "cash-flows.pdf");
    let tables = tables_of(&doc.tree);
    assert_eq!(tables.len(), 2, "{tables:#?}");
    assert_eq!(
        (
            tables[1].title.as_str(),
            tables[1].page,
            tables[1].rows.len()
        ),
        ("Consolidated Statement of Comprehensive Income", 3, 2)
    );
    let t = tables[0];
    assert_eq!(t.title, "Consolidated Statement of Cash Flows");
    assert_eq!(t.page, 1);
    assert_eq!(t.headers, ["(Millions)", "2018", "2017", "2016"], "{t:#?}");
    let rows = row_texts(t);
    assert_eq!(
        rows,
        [
            vec!["Cash Flows from Investing Activities", "", "", ""],
            vec![
                "Purchases of property, plant and equipment",
                "(1,577)",
                "(1,373)",
                "(1,420)"
            ],
            vec!["Proceeds from sale of businesses", "846", "", "142"],
            vec![
                "Acquisitions, net of cash acquired",
                "13",
                "(2,023)",
                "(16)"
            ],
            vec![
                "Net cash used in investing activities",
                "(222)",
                "(3,086)",
                "(1,403)"
            ],
            vec![
                "Net cash used in financing activities",
                "(6,701)",
                "(2,655)",
                "(4,626)"
            ],
        ]
    );
    // Cells carry boxes on their own page, under their header.
    let capex = &t.cells[1][1];
    let b = capex.bbox.as_ref().expect("a figure's box");
    assert_eq!(b.page, 1);
    assert!((b.x - 400.0 / 612.0).abs() < 0.03, "{b:?}");
    assert_eq!(t.cells[4][2].bbox.as_ref().map(|b| b.page), Some(2));
    let year = t.header_rows[0][1].bbox.as_ref().expect("a header's box");
    assert!((year.x - 418.0 / 612.0).abs() < 0.03, "{year:?}");
    assert!(t.section_id.starts_with("000") && t.id == format!("{}-t1", t.section_id));
    assert!(
        t.markdown
            .starts_with("| (Millions) | 2018 | 2017 | 2016 |\n| --- | --- | --- | --- |\n"),
        "{}",
        t.markdown
    );
    assert!(t
        .markdown
        .contains("| Proceeds from sale of businesses | 846 |  | 142 |"));
}

/// A 10-K's "Sales by geographic area": one year over five region columns set as two lines
/// of heads, a `$` far left of each figure, and a column ("Other Unallocated") that only the
/// net sales row fills.
fn geographic_sales() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    // Right edges of the five columns, in PDF points.
    let edges = [281.0, 352.0, 423.0, 501.0, 564.0];
    let row = |pdf: &mut PdfBuilder, y: f32, label: &str, figures: [&str; 5]| {
        let page = pdf.last_page();
        page.text(25.0, y, 8.0, false, label);
        for (right, f) in edges.into_iter().zip(figures) {
            if f.is_empty() {
                continue;
            }
            let (dollar, figure) = match f.strip_prefix("$ ") {
                Some(rest) => (true, rest),
                None => (false, f),
            };
            if dollar {
                page.text(right - 54.0, y, 8.0, false, "$");
            }
            page.text(right - 4.4 * figure.len() as f32, y, 8.0, false, figure);
        }
    };
    pdf.page()
        .text(25.0, 60.0, 10.0, true, "Sales by geographic area:")
        .text(
            25.0,
            80.0,
            9.0,
            false,
            "Percent change information compares the years ended December 31, 2022 and 2021.",
        )
        .text(355.0, 110.0, 7.0, true, "Year ended December 31, 2022")
        .text(373.0, 121.0, 7.0, true, "Europe, Middle East")
        .text(246.0, 129.0, 7.0, true, "Americas")
        .text(314.0, 129.0, 7.0, true, "Asia Pacific")
        .text(389.0, 129.0, 7.0, true, "& Africa")
        .text(446.0, 129.0, 7.0, true, "Other Unallocated")
        .text(526.0, 129.0, 7.0, true, "Worldwide");
    row(
        &mut pdf,
        140.0,
        "Net sales (millions)",
        ["$ 18,400", "$ 9,901", "$ 5,928", "$ —", "$ 34,229"],
    );
    row(
        &mut pdf,
        151.0,
        "% of worldwide sales",
        ["53.8 %", "28.9 %", "17.3 %", "", "100.0 %"],
    );
    row(
        &mut pdf,
        162.0,
        "Organic sales",
        ["2.6", "0.3", "(0.6)", "", "1.2"],
    );
    row(
        &mut pdf,
        173.0,
        "Translation",
        ["(0.3)", "(6.5)", "(9.8)", "", "(3.9)"],
    );
    pdf.last_page().text(
        25.0,
        200.0,
        9.0,
        false,
        "Additional information beyond what is included in the preceding table follows.",
    );
    pdf.to_bytes()
}

#[test]
fn a_column_one_row_fills_and_heads_over_two_lines_are_read_as_a_reader_sees_them() {
    let doc = index(&geographic_sales(), "geographic.pdf");
    let tables = tables_of(&doc.tree);
    assert_eq!(tables.len(), 1, "{tables:#?}");
    let t = tables[0];
    let rows = row_texts(t);
    // Each figure under its region; the label keeps no figure; the column only the first
    // row fills stays blank in the others.
    assert_eq!(
        rows,
        [
            vec![
                "Net sales (millions)",
                "$ 18,400",
                "$ 9,901",
                "$ 5,928",
                "$ —",
                "$ 34,229"
            ],
            vec![
                "% of worldwide sales",
                "53.8 %",
                "28.9 %",
                "17.3 %",
                "",
                "100.0 %"
            ],
            vec!["Organic sales", "2.6", "0.3", "(0.6)", "", "1.2"],
            vec!["Translation", "(0.3)", "(6.5)", "(9.8)", "", "(3.9)"],
        ],
        "{}",
        t.markdown
    );
    // The heads are header rows, not rows of the table.
    assert_eq!(
        t.headers,
        [
            "",
            "Americas",
            "Asia Pacific",
            "& Africa",
            "Other Unallocated",
            "Worldwide"
        ]
    );
    assert_eq!(t.header_rows.len(), 3, "{:#?}", t.header_rows);
    // The reader dates every region with the one year over them, and a question about the
    // total reads the Worldwide column; one naming a region reads that region's.
    let index = nanoindex_retrieve::RetrievalIndex::build(&doc.tree, &doc.graph);
    let read = |question: &str| {
        let line = index
            .lines()
            .iter()
            .position(|l| l.text.starts_with("Net sales (millions)"))
            .expect("the net sales row is a line");
        index
            .read_figure(line, 2022, 0, None, question)
            .map(|f| f.cell.text)
    };
    assert_eq!(
        read("What were total net sales in 2022?").as_deref(),
        Some("34,229")
    );
    assert_eq!(
        read("What were net sales in Asia Pacific in 2022?").as_deref(),
        Some("9,901")
    );
}
