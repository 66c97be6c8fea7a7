//! The reader on PDFs the tests write: each answer type found as a span in a sentence, a
//! statement figure with its scale, a ratio computed from cited cells, multi-part questions,
//! and questions the document does not answer. The model's replies are unusable (not JSON),
//! so what is asserted is the reader's own work.

mod common;

use common::Flow;
use nanoindex::{ask, AskDocument, AskOptions, Config, Mode, NanoIndex};
use nanoindex_core::{Answer, AnswerStatus};
use nanoindex_llm::ScriptedGenerator;
use nanoindex_pdf::write::PdfBuilder;

fn agreement() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "LICENSE AGREEMENT");
    f.para(&[
        "This License Agreement is entered into by and between Northwind Traders Inc. and",
        "Contoso Pharmaceuticals Limited, effective as of March 1, 2021 (the \"Effective Date\").",
    ]);
    f.heading(12.0, "Section 1. Definitions");
    f.para(&["\"Territory\" means the United States of America and Canada."]);
    f.para(&["The Licensee shall pay a license fee of $750,000 within ten days of signature."]);
    f.new_page();
    f.heading(12.0, "Section 9. Term and Termination");
    f.para(&[
        "The initial term of this Agreement is five (5) years from the Effective Date.",
        "Either party may terminate this Agreement upon sixty (60) days written notice.",
    ]);
    f.para(&["Royalties are 4.5% of Net Sales in the Territory."]);
    f.para(&["The Licensee may sell licensed products only in the Territory."]);
    f.heading(12.0, "Section 12. Governing Law");
    f.para(&["This Agreement is governed by the laws of the State of New York."]);
    f.para(&["Disputes are resolved under Section 12.3 by three arbitrators."]);
    f.new_page();
    f.heading(12.0, "Signatures");
    f.para(&["Signed for the Licensor by Dr. Maria Alvarez, Chief Executive Officer."]);
    f.bytes()
}

fn statements() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 120.0, 18.0, true, "Harbor Mills, Inc.")
        .text(72.0, 150.0, 12.0, false, "Annual Report 2024");
    let page = pdf.page();
    page.text(72.0, 90.0, 14.0, true, "Consolidated Balance Sheets");
    page.text(72.0, 110.0, 9.0, false, "(Dollars in millions)");
    page.text(380.0, 125.0, 9.0, false, "2024");
    page.text(450.0, 125.0, 9.0, false, "2023");
    let rows: [(&str, &str, &str); 9] = [
        ("Cash and cash equivalents", "412", "388"),
        ("Inventories", "905", "870"),
        ("Total current assets", "2,140", "1,990"),
        // Gross, then net: "net PP&E" is the second.
        ("Property, plant and equipment", "5,020", "4,760"),
        ("Less: accumulated depreciation", "(1,710)", "(1,640)"),
        ("Property, plant and equipment, net", "3,310", "3,120"),
        // A decoy with the same index terms but "total" (a stop word).
        ("Current deferred liabilities", "310", "290"),
        ("Total current liabilities", "1,070", "1,105"),
        ("Total equity", "2,460", "2,300"),
    ];
    for (i, (label, a, b)) in rows.iter().enumerate() {
        let y = 145.0 + 15.0 * i as f32;
        page.text(72.0, y, 9.0, false, label);
        page.text(380.0, y, 9.0, false, a);
        page.text(450.0, y, 9.0, false, b);
    }
    pdf.to_bytes()
}

fn prepare(bytes: &[u8], name: &str) -> (tempfile::TempDir, AskDocument) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let prepared = NanoIndex::new(Config::default())
        .prepare_pdf(&path, None, Some(&dir.path().join("cache")), &mut |_| {})
        .unwrap();
    (dir, prepared.document)
}

/// Asks with a model whose replies are not JSON (no draft, no pick).
fn ask_reader(doc: &AskDocument, question: &str) -> Answer {
    let mut model = ScriptedGenerator::new(["not json", "not json"]);
    let options = AskOptions {
        mode: Mode::Fast,
        ..AskOptions::default()
    };
    ask(doc, question, &mut model, None, &options, &mut |_| {}).unwrap()
}

/// Every page the answer's citations name, in order.
fn cited_pages(answer: &Answer) -> Vec<u32> {
    answer
        .citations
        .iter()
        .flat_map(|c| c.pages.clone())
        .collect()
}

fn kind(answer: &Answer, part: usize) -> String {
    answer.trace.as_ref().unwrap()["reader"][part]["kind"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn each_answer_type_is_found_as_a_span_and_stated_in_a_sentence() {
    let (_dir, doc) = prepare(&agreement(), "license.pdf");
    for (question, kind_name, expected, page) in [
        (
            "What is the effective date of the Agreement?",
            "date",
            "The effective date of the Agreement is March 1, 2021.",
            1,
        ),
        (
            "What is the license fee payable by the Licensee?",
            "amount",
            "The license fee payable by the Licensee is $750,000.",
            1,
        ),
        (
            "How long is the initial term of this Agreement?",
            "duration",
            "The initial term of this Agreement is five (5) years.",
            2,
        ),
        (
            "What percentage of Net Sales are royalties?",
            "percentage",
            "4.5%.",
            2,
        ),
        (
            "Which state's law governs the Agreement?",
            "place",
            "New York.",
            2,
        ),
        (
            "Who signed for the Licensor?",
            "person",
            "Dr. Maria Alvarez signed for the Licensor.",
            3,
        ),
        (
            "Which section governs how disputes are resolved?",
            "reference",
            "Section 12.3.",
            2,
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert_eq!(kind(&answer, 0), kind_name, "{question}");
        assert_eq!(answer.content, expected, "{question}: {answer:#?}");
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(answer.citations[0].pages, [page], "{question}");
    }
}

/// "Under the laws of which state is the Servicer organized?" asks where a party was formed,
/// not which law governs: it is answered from the representation that states it (or from
/// the preamble's "a Nevada statutory trust, as issuer"), never from a definition's
/// "organized under the laws of the United States" (a state asked for is no country), and
/// the governing-law question still reads the governing-law clause.
#[test]
fn where_a_party_is_organized_is_not_the_governing_law() {
    let mut f = Flow::new();
    f.heading(16.0, "SERVICING AGREEMENT");
    f.para(&[
        "This Servicing Agreement is made between Harbor Funding Trust, a Nevada statutory",
        "trust, as issuer (the \"Issuer\"), and Cellhaven Partnership, as servicer.",
    ]);
    f.heading(12.0, "Section 1. Definitions");
    f.para(&[
        "\"Eligible Bank\" means a bank organized under the laws of the United States or any",
        "State that has a short-term deposit rating of at least A-1.",
    ]);
    f.new_page();
    f.heading(12.0, "Section 6. Representations of the Servicer");
    f.para(&[
        "(a) Organization and Good Standing. The Servicer is a validly existing partnership in",
        "good standing under the laws of the State of Delaware and has full power to perform.",
    ]);
    f.heading(12.0, "Section 8. Servicing Fee");
    f.para(&[
        "The Issuer shall pay the Servicer a monthly fee. The Issuer may replace the Servicer",
        "after a default, and the Issuer shall give notice of any replacement to the Issuer's",
        "noteholders.",
    ]);
    f.heading(12.0, "Section 11. Governing Law");
    f.para(&["This Agreement is governed by the laws of the State of New York."]);
    let (_dir, doc) = prepare(&f.bytes(), "servicing.pdf");
    for (question, expected) in [
        (
            "Under the laws of which state is the Servicer organized?",
            "Delaware",
        ),
        ("Which state's law governs the Agreement?", "New York"),
        // "a Nevada statutory trust, as issuer" says it in other words.
        (
            "Under the laws of which state is the Issuer organized?",
            "Nevada",
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert_eq!(kind(&answer, 0), "place", "{question}");
        assert!(answer.content.contains(expected), "{question}: {answer:#?}");
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        let page = if expected == "Nevada" { 1 } else { 2 };
        assert_eq!(answer.citations[0].pages, [page], "{question}");
    }
    // The definition names only a country: no state is given for an Eligible Bank.
    let question = "Under the laws of which state is an Eligible Bank organized?";
    let answer = ask_reader(&doc, question);
    assert_ne!(answer.status, Some(AnswerStatus::Answered), "{answer:#?}");
}

/// A question that names its document in a closing phrase ("… on the proposed hazardous
/// liquid pipeline directive?", words the notice itself hardly uses) asks with its other
/// words, even where the first page's capitalised caption lines hold them too ("FOR FURTHER
/// INFORMATION CONTACT"): the contact is found, not a signatory.
#[test]
fn a_question_naming_its_document_at_the_end_asks_with_its_other_words() {
    let mut f = Flow::new();
    f.heading(14.0, "PIPELINE SAFETY NOTICE");
    f.heading(10.0, "FOR FURTHER INFORMATION CONTACT");
    f.para(&[
        "FOR FURTHER INFORMATION CONTACT: Dana Whitfield, Manager, Office of Pipeline Safety, 1200",
        "New Jersey Avenue, Washington, DC; telephone 202-555-0147.",
    ]);
    f.para(&[
        "This notice proposes a rule on the inspection of gas transmission lines, and the",
        "agency invites comments on the proposal within sixty days of publication.",
    ]);
    f.para(&[
        "Issued in Washington, DC, by Alan Brooks, Associate Administrator for Pipeline Safety.",
    ]);
    let (_dir, doc) = prepare(&f.bytes(), "notice.pdf");
    let question =
        "Who is the contact for further information on the proposed hazardous liquid pipeline directive?";
    let answer = ask_reader(&doc, question);
    assert_eq!(kind(&answer, 0), "person");
    assert!(answer.content.contains("Dana Whitfield"), "{answer:#?}");
    assert_eq!(
        answer.status,
        Some(AnswerStatus::Answered),
        "{:#}",
        answer.trace.as_ref().unwrap()["reader"]
    );
}

#[test]
fn parties_definitions_and_notice_periods() {
    let (_dir, doc) = prepare(&agreement(), "license.pdf");
    let answer = ask_reader(&doc, "Who are the parties to the License Agreement?");
    assert_eq!(kind(&answer, 0), "party");
    assert!(
        answer.content.contains("Northwind Traders Inc."),
        "{answer:#?}"
    );

    let answer = ask_reader(&doc, "How is \"Territory\" defined?");
    assert_eq!(kind(&answer, 0), "definition");
    assert!(
        answer
            .content
            .contains("\"Territory\" means the United States of America and Canada."),
        "{answer:#?}"
    );

    // A capitalised term the contract defines is answered by its definition, not by the
    // sentence that uses it most.
    // It is answered, as a definition is, not offered as the closest passage.
    let answer = ask_reader(&doc, "What is the licensed Territory under the Agreement?");
    assert!(
        answer
            .content
            .contains("\"Territory\" means the United States of America and Canada."),
        "{answer:#?}"
    );
    assert_eq!(cited_pages(&answer), [1], "{answer:#?}");
    assert_eq!(kind(&answer, 0), "definition");
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
    let answer = ask_reader(&doc, "How does the Agreement define the Territory?");
    assert_eq!(kind(&answer, 0), "definition");
    assert!(
        answer
            .content
            .contains("United States of America and Canada"),
        "{answer:#?}"
    );

    let answer = ask_reader(
        &doc,
        "How much written notice is needed to terminate the Agreement?",
    );
    assert_eq!(kind(&answer, 0), "duration");
    assert_eq!(answer.content, "Sixty (60) days.", "{answer:#?}");
}

#[test]
fn multi_part_questions_answer_each_part_with_its_own_citation() {
    let (_dir, doc) = prepare(&agreement(), "license.pdf");
    let answer = ask_reader(
        &doc,
        "What is the license fee and how long is the initial term?",
    );
    assert_eq!(kind(&answer, 0), "amount");
    assert_eq!(kind(&answer, 1), "duration");
    assert!(answer.content.contains("$750,000"), "{answer:#?}");
    assert!(answer.content.contains("five (5) years"), "{answer:#?}");
    let pages = cited_pages(&answer);
    assert!(pages.contains(&1) && pages.contains(&2), "{pages:?}");
}

#[test]
fn a_question_the_document_does_not_answer_says_so_without_citations() {
    let (_dir, doc) = prepare(&agreement(), "license.pdf");
    for question in [
        "What was the company's stock price at the end of 2020?",
        "How many employees does the Licensee have?",
    ] {
        let answer = ask_reader(&doc, question);
        assert_eq!(
            answer.status,
            Some(AnswerStatus::NotFound),
            "{question}: {answer:#?}"
        );
        assert!(
            answer
                .content
                .starts_with("No answer found in the pages read"),
            "{answer:#?}"
        );
        assert!(answer.citations.is_empty());
    }
}

#[test]
fn statement_figures_carry_scale_and_ratios_are_computed_from_cited_cells() {
    let (_dir, doc) = prepare(&statements(), "harbor.pdf");
    let answer = ask_reader(
        &doc,
        "What were total current assets in 2024 according to the balance sheet?",
    );
    assert!(answer.content.contains("$2,140 million"), "{answer:#?}");
    assert_eq!(answer.citations[0].pages, [2]);
    assert!(answer.citations[0]
        .quote
        .as_deref()
        .unwrap()
        .starts_with("Total current assets"));

    let answer = ask_reader(
        &doc,
        "What were total current liabilities at year end 2024?",
    );
    assert!(answer.content.contains("$1,070 million"), "{answer:#?}");

    let answer = ask_reader(
        &doc,
        "What is the year end 2024 net PP&E? Answer in USD billions.",
    );
    assert!(
        answer.content.contains("$3,310 million ($3.31 billion)"),
        "{answer:#?}"
    );

    let answer = ask_reader(&doc, "What is the current ratio for 2024?");
    assert_eq!(kind(&answer, 0), "ratio");
    assert!(answer.content.contains("2.00"), "{answer:#?}");
    assert!(
        answer.content.contains("2,140") && answer.content.contains("1,070"),
        "{answer:#?}"
    );
    let quotes: Vec<&str> = answer
        .citations
        .iter()
        .filter_map(|c| c.quote.as_deref())
        .collect();
    assert!(
        quotes.iter().any(|q| q.starts_with("Total current assets")),
        "{quotes:?}"
    );
    assert!(
        quotes
            .iter()
            .any(|q| q.starts_with("Total current liabilities")),
        "{quotes:?}"
    );

    let answer = ask_reader(&doc, "What is the quick ratio for 2023?");
    // (1,990 − 870) / 1,105 = 1.01
    assert!(answer.content.contains("1.01"), "{answer:#?}");
}

/// A statement page with four figure columns (two periods, each this year and last): its
/// title, scale line, the two period heads over the columns, one or two lines of column
/// dates, and its rows (an empty cell is left blank, as under a group label). Positions in
/// PDF points from the top.
fn four_column_statement(
    page: &mut nanoindex_pdf::write::PageSpec,
    title: &str,
    scale: &str,
    heads: [&str; 2],
    date_lines: &[[&str; 4]],
    rows: &[(&str, [&str; 4])],
) {
    const COLUMNS: [f32; 4] = [380.0, 430.0, 490.0, 540.0];
    page.text(72.0, 80.0, 14.0, true, title);
    page.text(72.0, 100.0, 9.0, false, scale);
    page.text(COLUMNS[0], 120.0, 8.0, true, heads[0]);
    page.text(COLUMNS[2], 120.0, 8.0, true, heads[1]);
    for (k, dates) in date_lines.iter().enumerate() {
        for (x, t) in COLUMNS.iter().zip(dates) {
            page.text(*x, 131.0 + 11.0 * k as f32, 8.0, true, t);
        }
    }
    let first = 131.0 + 11.0 * date_lines.len() as f32 + 8.0;
    for (i, (label, cells)) in rows.iter().enumerate() {
        let y = first + 12.0 * i as f32;
        page.text(72.0, y, 9.0, false, label);
        for (x, c) in COLUMNS.iter().zip(cells) {
            if !c.is_empty() {
                page.text(*x, y, 9.0, false, c);
            }
        }
    }
}

/// A 10-Q: prose that names the period but another figure, and a statement whose columns
/// are two quarters and two nine-month periods.
fn quarterly() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(72.0, 100.0, 14.0, true, "Revenue Recognition");
    page.text(
        72.0,
        125.0,
        9.0,
        false,
        "The Company recognized $7.0 billion of revenue in the nine months ended July 1, 2023",
    );
    page.text(
        72.0,
        137.0,
        9.0,
        false,
        "that was included in deferred revenue as of the three months ended April 1, 2023.",
    );
    four_column_statement(
        pdf.page(),
        "Condensed Consolidated Statements of Operations",
        "(In millions)",
        ["Three Months Ended", "Nine Months Ended"],
        &[
            ["July 1,", "June 25,", "July 1,", "June 25,"],
            ["2023", "2022", "2023", "2022"],
        ],
        &[
            (
                "Total net sales",
                ["81,797", "82,959", "293,787", "304,182"],
            ),
            ("Operating income", ["22,998", "23,076", "87,332", "94,543"]),
            ("Net income", ["19,881", "19,442", "74,039", "79,082"]),
        ],
    );
    pdf.to_bytes()
}

#[test]
fn a_quarter_figure_comes_from_the_statement_row_not_from_prose_that_only_shares_the_period() {
    let (_dir, doc) = prepare(&quarterly(), "q3.pdf");
    let answer = ask_reader(
        &doc,
        "What were total net sales for the three months ended July 1, 2023?",
    );
    assert!(answer.content.contains("$81,797 million"), "{answer:#?}");
    assert_eq!(answer.citations[0].pages, [2]);
    let answer = ask_reader(
        &doc,
        "What was net income for the third quarter of fiscal 2023 (three months ended July 1, 2023)?",
    );
    assert!(answer.content.contains("$19,881 million"), "{answer:#?}");
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
}

/// A 10-Q of a company whose fiscal year ends in late January: its second quarter of fiscal
/// 2024 is the column dated July 30, 2023, and the discussion names the fiscal year.
fn fiscal_quarter() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(
        72.0,
        100.0,
        14.0,
        true,
        "Management's Discussion and Analysis",
    );
    page.text(
        72.0,
        125.0,
        9.0,
        false,
        "Revenue for the second quarter of fiscal year 2024 was a record, up 101% from a year ago.",
    );
    page.text(
        72.0,
        137.0,
        9.0,
        false,
        "A settlement reduced net income per share by $0.02 in the first half of fiscal year 2023.",
    );
    // Per-share figures under a group label, as the statement prints them.
    four_column_statement(
        pdf.page(),
        "Condensed Consolidated Statements of Income",
        "(In millions, except per share data)",
        ["Three Months Ended", "Six Months Ended"],
        &[[
            "Jul 30, 2023",
            "Jul 31, 2022",
            "Jul 30, 2023",
            "Jul 31, 2022",
        ]],
        &[
            ("Revenue", ["13,507", "6,704", "20,699", "14,992"]),
            ("Net income", ["6,188", "656", "8,231", "2,274"]),
            ("Net income per share:", [""; 4]),
            ("Basic", ["2.50", "0.26", "3.34", "0.91"]),
            ("Diluted", ["2.48", "0.26", "3.30", "0.90"]),
            (
                "Weighted average shares used in per share computation:",
                [""; 4],
            ),
            ("Basic", ["2,473", "2,495", "2,472", "2,500"]),
            ("Diluted", ["2,499", "2,516", "2,495", "2,526"]),
        ],
    );
    pdf.to_bytes()
}

#[test]
fn a_fiscal_years_quarter_is_read_in_the_column_dated_a_calendar_year_earlier() {
    let (_dir, doc) = prepare(&fiscal_quarter(), "10q.pdf");
    let answer = ask_reader(
        &doc,
        "What was net income for the second quarter of fiscal 2024?",
    );
    assert!(answer.content.contains("$6,188 million"), "{answer:#?}");
    assert_eq!(answer.citations[0].pages, [2]);
    let answer = ask_reader(
        &doc,
        "What was basic net income per share for the second quarter of fiscal 2024?",
    );
    assert!(
        answer.content.contains("$2.50") && !answer.content.contains("$2.50 million"),
        "{answer:#?}"
    );
    assert_eq!(answer.citations[0].pages, [2]);
    // The offset holds for every year of the question: fiscal 2023's quarter is dated 2022.
    let answer = ask_reader(
        &doc,
        "How did net income change from the second quarter of fiscal 2023 to the second quarter of fiscal 2024?",
    );
    assert!(
        answer.content.contains("$656 million") && answer.content.contains("$6,188 million"),
        "{answer:#?}"
    );
}

/// An annual report in thousands: income statement and cash flow statement, three years.
fn annual_in_thousands() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let statement = |pdf: &mut PdfBuilder, title: &str, rows: &[(&str, [&str; 3])]| {
        let page = pdf.page();
        page.text(72.0, 80.0, 14.0, true, title);
        page.text(72.0, 100.0, 9.0, false, "(in thousands)");
        for (x, t) in [(380.0, "2015"), (440.0, "2014"), (500.0, "2013")] {
            page.text(x, 120.0, 9.0, true, t);
        }
        for (i, (label, cells)) in rows.iter().enumerate() {
            let y = 140.0 + 12.0 * i as f32;
            page.text(72.0, y, 9.0, false, label);
            for (x, c) in [380.0, 440.0, 500.0].iter().zip(cells) {
                page.text(*x, y, 9.0, false, c);
            }
        }
    };
    statement(
        &mut pdf,
        "Consolidated Statements of Operations",
        &[
            ("Revenues", ["6,779,511", "5,504,656", "4,374,562"]),
            ("Operating income", ["305,826", "402,648", "228,347"]),
            ("Net income", ["122,641", "266,799", "112,403"]),
        ],
    );
    statement(
        &mut pdf,
        "Consolidated Statements of Cash Flows",
        &[
            ("Net income", ["122,641", "266,799", "112,403"]),
            (
                "Depreciation and amortization of property, equipment and intangibles",
                ["62,283", "54,028", "48,374"],
            ),
        ],
    );
    pdf.to_bytes()
}

#[test]
fn ebitda_margins_and_multi_year_averages_are_computed_from_cited_rows() {
    let (_dir, doc) = prepare(&annual_in_thousands(), "annual.pdf");
    let answer = ask_reader(
        &doc,
        "What is the FY2015 unadjusted EBITDA % margin? Calculate unadjusted EBITDA using \
         unadjusted operating income and D&A (from cash flow statement).",
    );
    assert_eq!(kind(&answer, 0), "ratio");
    // (305,826 + 62,283) / 6,779,511 = 5.43%
    assert!(answer.content.contains("5.4%"), "{answer:#?}");
    assert!(answer.content.contains("62,283"), "{answer:#?}");
    let pages = cited_pages(&answer);
    assert!(pages.contains(&1) && pages.contains(&2), "{pages:?}");

    let answer = ask_reader(
        &doc,
        "What is the FY2013 - FY2015 3 year average net profit margin (as a %)? Round to one \
         decimal place.",
    );
    assert_eq!(kind(&answer, 0), "ratio");
    // (1.81% + 4.85% + 2.57%) / 3 = 3.1%
    assert!(answer.content.contains("3.1%"), "{answer:#?}");
}

#[test]
fn who_signed_is_read_from_the_signature_block_beyond_the_best_ranked_pages() {
    // Twelve pages that name the parties and the agreement; the signature block on the last
    // page shares none of the question's words but the party's name.
    let mut f = Flow::new();
    f.heading(16.0, "SUPPLY AGREEMENT");
    for i in 1..=12 {
        f.heading(
            12.0,
            &format!("Section {i}. Obligations of Northwind and Contoso"),
        );
        f.para(&[
            &format!("Northwind Traders Inc. shall deliver lot {i} to Contoso under this Agreement."),
            "Contoso shall pay on behalf of its affiliates; Northwind signed purchase orders apply.",
        ]);
        f.new_page();
    }
    f.para(&["IN WITNESS WHEREOF, the Parties have caused this Agreement to be executed."]);
    f.line(10.0, true, "NORTHWIND TRADERS INC.");
    f.line(10.0, false, "By: /s/ Helena Marsh");
    f.line(10.0, false, "Name: Helena Marsh");
    f.line(10.0, false, "Title: Chief Executive Officer");
    let (_dir, doc) = prepare(&f.bytes(), "supply.pdf");
    let answer = ask_reader(&doc, "Who signed the agreement on behalf of Northwind?");
    assert_eq!(kind(&answer, 0), "person");
    assert!(answer.content.contains("Helena Marsh"), "{answer:#?}");
    assert_eq!(
        answer.citations.first().map(|c| c.pages.clone()),
        Some(vec![13]),
        "{answer:#?}"
    );
}

/// A quarterly report: a caption, a prose page whose figure belongs to another metric, and a
/// category table under a group label with an undated change column after each period.
fn quarterly_by_category() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 80.0, 12.0, true, "IN THE MATTER OF HARBOR MILLS, INC.")
        .text(72.0, 100.0, 10.0, false, "Filed 11 February 2022")
        .text(
            72.0,
            130.0,
            10.0,
            false,
            "This quarterly report covers the three months ended July 1, 2023 and is filed with the",
        )
        .text(72.0, 145.0, 10.0, false, "Commission by the Company under its reporting obligations.")
        .text(
            72.0,
            175.0,
            10.0,
            false,
            "\u{201c}Applicable Rate\u{201d} means the prime rate published for each day of the period, plus two percent (2%).",
        );
    pdf.page()
        .text(
            72.0,
            90.0,
            10.0,
            false,
            "Flour revenue represented a higher proportion of net sales in the west region.",
        )
        .text(
            72.0,
            105.0,
            10.0,
            false,
            "As of July 1, 2023, the Company had total deferred revenue of $12.2 billion.",
        );
    let page = pdf.page();
    page.text(72.0, 80.0, 12.0, true, "Products Performance");
    page.text(
        72.0,
        100.0,
        9.0,
        false,
        "The following table shows results for the three- and nine-month periods (dollars in millions):",
    );
    for (x, t) in [(250.0, "Three Months Ended"), (420.0, "Nine Months Ended")] {
        page.text(x, 118.0, 8.0, true, t);
    }
    let header = [
        (240.0, "July 1,"),
        (290.0, "June 25,"),
        (410.0, "July 1,"),
        (460.0, "June 25,"),
    ];
    for (x, t) in header {
        page.text(x, 128.0, 8.0, true, t);
    }
    let years = [
        (240.0, "2023"),
        (290.0, "2022"),
        (340.0, "Change"),
        (410.0, "2023"),
        (460.0, "2022"),
        (510.0, "Change"),
    ];
    for (x, t) in years {
        page.text(x, 138.0, 8.0, true, t);
    }
    page.text(72.0, 152.0, 9.0, false, "Net sales by category:");
    let rows: [[&str; 7]; 3] = [
        [
            "Flour", "39,669", "40,665", "(2)%", "156,778", "162,863", "(4)%",
        ],
        [
            "Oats", "6,840", "7,382", "(7)%", "21,743", "28,669", "(24)%",
        ],
        [
            "Total", "46,509", "48,047", "(3)%", "178,521", "191,532", "(7)%",
        ],
    ];
    for (i, row) in rows.iter().enumerate() {
        let y = 166.0 + 12.0 * i as f32;
        page.text(80.0, y, 9.0, false, row[0]);
        for (x, v) in [240.0, 290.0, 340.0, 410.0, 460.0, 510.0]
            .iter()
            .zip(&row[1..])
        {
            page.text(*x, y, 9.0, false, v);
        }
    }
    pdf.to_bytes()
}

#[test]
fn group_labels_change_columns_definitions_and_captions_are_read() {
    let (_dir, doc) = prepare(&quarterly_by_category(), "harbor-10q.pdf");
    // The row "Flour" answers under its group label "Net sales by category:", in the
    // quarter's 2023 column (not shifted by the change columns); the deferred-revenue
    // sentence names no word of the metric and does not answer.
    let answer = ask_reader(
        &doc,
        "What were Flour net sales for the three months ended July 1, 2023?",
    );
    assert!(answer.content.contains("39,669"), "{}", answer.content);
    assert!(!answer.content.contains("12.2"), "{}", answer.content);
    assert_eq!(cited_pages(&answer), vec![3]);
    // A definition labels every value of its sentence.
    let answer = ask_reader(
        &doc,
        "What margin over the prime rate defines the Applicable Rate charged on late payments?",
    );
    assert!(answer.content.contains("2%"), "{}", answer.content);
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
    // The caption names the document; the short "Filed" line answers the date.
    let answer = ask_reader(&doc, "On what date did Harbor Mills file the matter?");
    assert!(
        answer.content.contains("11 February 2022"),
        "{}",
        answer.content
    );
    assert_eq!(cited_pages(&answer), vec![1]);
}

#[test]
fn a_papers_author_list_and_venue_line_are_read_by_convention() {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 80.0, 16.0, true, "Fast Tracing for Dynamic Languages")
        .text(
            72.0,
            110.0,
            10.0,
            false,
            "Ana Lima*+, Bruno Costa*, Carla Dias#, Davi Rocha+",
        )
        .text(72.0, 140.0, 10.0, false, "Abstract")
        .text(
            72.0,
            155.0,
            9.0,
            false,
            "We present a tracing compiler that records hot loops and compiles them.",
        )
        .text(
            72.0,
            700.0,
            7.0,
            false,
            "PLX'11, June 4-8, 2011, Toronto, Canada.",
        );
    pdf.page().text(
        72.0,
        90.0,
        10.0,
        false,
        "Our evaluation compiles loops written by the authors of the benchmark suite.",
    );
    let (_dir, doc) = prepare(&pdf.to_bytes(), "fast-tracing.pdf");
    let answer = ask_reader(&doc, "Who is the first author of the paper?");
    assert!(answer.content.contains("Ana Lima"), "{}", answer.content);
    assert!(!answer.content.contains('*'), "{}", answer.content);
    let answer = ask_reader(&doc, "Where was the PLX 2011 conference held?");
    assert!(
        answer.content.contains("Toronto, Canada"),
        "{}",
        answer.content
    );
    assert_eq!(cited_pages(&answer), vec![1], "{answer:#?}");
}

/// An income statement over three years and a balance sheet with a line item and its
/// current portion.
fn three_years() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 120.0, 18.0, true, "Tidewater Foods, Inc.")
        .text(72.0, 150.0, 12.0, false, "Annual Report 2024");
    let table = |pdf: &mut PdfBuilder, title: &str, years: &[&str], rows: &[(&str, &[&str])]| {
        let page = pdf.page();
        page.text(72.0, 90.0, 14.0, true, title);
        page.text(72.0, 110.0, 9.0, false, "(Dollars in millions)");
        for (i, y) in years.iter().enumerate() {
            page.text(330.0 + 60.0 * i as f32, 125.0, 9.0, false, y);
        }
        for (r, (label, cells)) in rows.iter().enumerate() {
            let y = 145.0 + 15.0 * r as f32;
            page.text(72.0, y, 9.0, false, label);
            for (i, c) in cells.iter().enumerate() {
                page.text(330.0 + 60.0 * i as f32, y, 9.0, false, c);
            }
        }
    };
    table(
        &mut pdf,
        "Consolidated Statements of Income",
        &["2024", "2023", "2022"],
        &[
            ("Revenue", &["10,000", "9,000", "8,000"]),
            ("Cost of sales", &["(6,000)", "(5,500)", "(5,000)"]),
            ("Gross profit", &["4,000", "3,500", "3,000"]),
            (
                "Selling and administrative expenses",
                &["2,100", "1,900", "1,700"],
            ),
        ],
    );
    table(
        &mut pdf,
        "Consolidated Balance Sheets",
        &["2024", "2023"],
        &[
            ("Accounts payable", &["820", "790"]),
            ("Current portion of long-term debt", &["500", "250"]),
            ("Total current liabilities", &["1,320", "1,040"]),
            ("Long-term debt", &["4,200", "4,700"]),
            ("Total equity", &["6,100", "5,600"]),
        ],
    );
    pdf.to_bytes()
}

#[test]
fn changes_across_periods_are_computed_from_cited_cells_with_a_verdict() {
    let (_dir, doc) = prepare(&three_years(), "tidewater.pdf");

    // A margin computed for each year, the change in percentage points, and yes or no.
    let answer = ask_reader(
        &doc,
        "Has Tidewater's gross margin improved between FY2023 and FY2024?",
    );
    assert_eq!(kind(&answer, 0), "change");
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
    assert!(
        answer.content.starts_with("Yes — the gross margin increased from 38.9% in 2023 to 40.0% in 2024 (+1.1 percentage points)."),
        "{answer:#?}"
    );
    assert!(
        answer
            .content
            .contains("Gross profit 3,500 / Revenue 9,000"),
        "{answer:#?}"
    );
    // The two rows, each cited once for both years.
    assert_eq!(cited_pages(&answer), [2, 2]);

    // A line item's own row, not its current portion's; the verdict against the question.
    let answer = ask_reader(
        &doc,
        "Has Tidewater increased its debt between FY2023 and FY2024?",
    );
    assert_eq!(kind(&answer, 0), "change");
    assert!(
        answer.content.starts_with("No — long-term debt decreased from $4,700 million in 2023 to $4,200 million in 2024 (−$500 million, −10.6%)."),
        "{answer:#?}"
    );
    assert_eq!(cited_pages(&answer), [3]);

    // One year named: compared with the year before it.
    let answer = ask_reader(&doc, "Did accounts payable increase in FY2024?");
    assert!(
        answer.content.starts_with(
            "Yes — accounts payable increased from $790 million in 2023 to $820 million in 2024"
        ),
        "{answer:#?}"
    );

    // Consistency within the band the question gives, over every year of the statement.
    let answer = ask_reader(
        &doc,
        "Are Tidewater's gross margins historically consistent (not fluctuating more than roughly 2% each year)?",
    );
    assert!(
        answer.content.starts_with("Yes — the gross margin was 37.5% in 2022, 38.9% in 2023, 40.0% in 2024; the widest change from one year to the next is 1.4 percentage points."),
        "{answer:#?}"
    );
    let answer = ask_reader(
        &doc,
        "Are gross margins consistent (not fluctuating more than 1% each year)?",
    );
    assert!(answer.content.starts_with("No — "), "{answer:#?}");

    // A named ratio whose inputs are not in the document is not answered with another row.
    let answer = ask_reader(
        &doc,
        "Has Tidewater's quick ratio improved between FY2023 and FY2024?",
    );
    assert_ne!(kind(&answer, 0), "change");
    assert!(!answer.content.contains("increased from"), "{answer:#?}");
}

#[test]
fn a_cause_is_read_from_the_sentence_that_gives_it_with_the_sentence_naming_the_metric() {
    let mut f = Flow::new();
    f.heading(16.0, "Fourth Quarter Results");
    f.para(&[
        "Net sales increased 9.1% to $2.1 billion, primarily due to strong demand for",
        "seasonal products and higher prices across all categories.",
    ]);
    f.heading(12.0, "Balance Sheet");
    // Prose that wraps at a number: its first line is no table row.
    f.para(&[
        "Inventories at the end of the fourth quarter of fiscal 2024 totaled $1.6",
        "billion compared to $1.5 billion at the end of fiscal 2023. The $104 million",
        "increase was primarily due to the opening of 12 new stores and earlier receipts.",
    ]);
    f.para(&["Cash and cash equivalents were $737 million at the end of the year."]);
    let (_dir, doc) = prepare(&f.bytes(), "results.pdf");
    let answer = ask_reader(
        &doc,
        "What drove the increase in inventories in fiscal 2024?",
    );
    assert_eq!(kind(&answer, 0), "text");
    assert!(
        answer.content.contains(
            "Inventories at the end of the fourth quarter of fiscal 2024 totaled $1.6 billion \
             compared to $1.5 billion at the end of fiscal 2023. The $104 million increase was \
             primarily due to the opening of 12 new stores"
        ),
        "{answer:#?}"
    );
    assert_eq!(cited_pages(&answer), [1]);

    // A draft that paraphrases the cause with the sentence's own words is not shown: the
    // cause is quoted from the page.
    let mut model = ScriptedGenerator::new([
        r#"{"lines": [1]}"#,
        r#"{"answer": "The increase in inventories in fiscal 2024 was driven by the increase."}"#,
    ]);
    let options = AskOptions {
        mode: Mode::Fast,
        ..AskOptions::default()
    };
    let answer = ask(
        &doc,
        "What drove the increase in inventories in fiscal 2024?",
        &mut model,
        None,
        &options,
        &mut |_| {},
    )
    .unwrap();
    assert!(
        !answer.content.contains("driven by the increase"),
        "{answer:#?}"
    );
    assert!(
        answer
            .content
            .contains("primarily due to the opening of 12 new stores"),
        "{answer:#?}"
    );
}

fn opinion() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "SUPREME COURT OF THE STATE");
    f.para(&["Harbor Mills, Inc. v. Department of Revenue, decided June 3, 2022."]);
    f.heading(12.0, "Opinion of the Court");
    f.para(&[
        "We hold that the sales tax applies to the transfer of the mill equipment.",
        "The judgment of the Court of Appeals is affirmed by a vote of 5-2.",
    ]);
    f.new_page();
    f.heading(12.0, "Facts");
    f.para(&[
        "Harbor Mills operated 14 sawmills in the state during the tax years at issue.",
        "The company did not file a refund claim within the statutory period.",
    ]);
    f.new_page();
    f.heading(12.0, "Permits and exclusions");
    f.para(&[
        "A separate county permit is not required for any of the sawmills Harbor Mills operates.",
    ]);
    f.heading(12.0, "Excluded transfers");
    f.para(&["Transfers of timber leased from federal forest lands"]);
    f.bytes()
}

/// A supreme court's opinion: the case's history (a lower court's reversal, a prior appeal
/// this court decided), a sentence that shares the disposition question's words, and the
/// disposition, in the court's words and as its closing line.
fn disposed_opinion() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "IN THE SUPREME COURT OF OREGON");
    f.para(&["Harbor Mills, Inc. v. Department of Revenue, filed June 3, 2022."]);
    f.heading(12.0, "Background");
    f.para(&[
        "The Court of Appeals reversed the order of the Tax Court in a divided decision.",
        "In the earlier appeal, this Court vacated the decision of the Court of Appeals.",
        "The Supreme Court reviews the Court of Appeals decision on the tax question de novo.",
    ]);
    f.new_page();
    f.heading(12.0, "Conclusion");
    f.para(&[
        "The sales tax applies to the transfer of the mill equipment. Accordingly, we reverse",
        "the decision of the Court of Appeals and remand to the Tax Court.",
    ]);
    f.para(&["REVERSED AND REMANDED."]);
    f.bytes()
}

#[test]
fn a_disposition_question_is_answered_by_the_courts_own_disposition() {
    let (_dir, doc) = prepare(&disposed_opinion(), "opinion.pdf");
    let answer = ask_reader(
        &doc,
        "What did the Supreme Court do with the Court of Appeals decision?",
    );
    assert!(
        answer.content.starts_with("Reversed and remanded — page 2"),
        "{answer:#?}"
    );
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
    assert_eq!(answer.citations[0].pages, [2]);
    // A lower court's ruling is told in the history, not in this court's disposition.
    let answer = ask_reader(
        &doc,
        "What did the Court of Appeals do with the order of the Tax Court?",
    );
    assert!(
        !answer.content.contains("Reversed and remanded"),
        "{answer:#?}"
    );
    assert!(
        answer
            .content
            .contains("The Court of Appeals reversed the order of the Tax Court"),
        "{answer:#?}"
    );
}

#[test]
fn counts_and_votes_are_read_as_counts() {
    let (_dir, doc) = prepare(&opinion(), "opinion.pdf");
    for (question, expected, page) in [
        (
            "How many sawmills did Harbor Mills operate?",
            "14 sawmills",
            2,
        ),
        ("What was the vote of the Court?", "5-2", 1),
    ] {
        let answer = ask_reader(&doc, question);
        assert_eq!(kind(&answer, 0), "count", "{question}");
        assert!(answer.content.contains(expected), "{question}: {answer:#?}");
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(answer.citations[0].pages, [page], "{question}");
    }
}

#[test]
fn yes_no_questions_get_a_verdict_with_the_sentence_that_decides_it() {
    let (_dir, doc) = prepare(&opinion(), "opinion.pdf");
    for (question, verdict, page) in [
        (
            "Did the court hold that the sales tax applies to the transfer?",
            "Yes",
            1,
        ),
        (
            "Did the company file a refund claim within the statutory period?",
            "No",
            2,
        ),
        // "not required" answers "need": the same word to the verdict's negation.
        (
            "Will Harbor Mills need a separate county permit to operate the sawmills?",
            "No",
            3,
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert_eq!(kind(&answer, 0), "yes_no", "{question}");
        assert!(
            answer.content.starts_with(verdict),
            "{question}: {answer:#?}"
        );
        // A verdict read from the deciding sentence, quoted beside it, is an answer.
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(answer.citations[0].pages, [page], "{question}");
    }
    // An item of a list, without the heading that says what the list is, states neither
    // yes nor no: it is quoted as the closest passage, and the answer is partial.
    let question = "Are transfers of timber leased from federal forest lands taxed?";
    let answer = ask_reader(&doc, question);
    assert!(
        answer
            .content
            .starts_with("The most relevant passage (page 3)"),
        "{answer:#?}"
    );
    assert_eq!(answer.status, Some(AnswerStatus::Partial), "{question}");
}

/// A motion whose background sentence runs from page 1 on to page 2, beside another
/// certification on page 1 that names more of the question's words on its own page.
fn motion_across_pages() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(12.0, "BRIEF PROCEDURAL BACKGROUND");
    f.para(&[
        "On April 29, 2020, the district court in the companion case provisionally certified",
        "a class of all civil immigration detainees at Mesa Verde and ordered bail hearings.",
    ]);
    f.para(&[
        "Hernandez Roman concerns conditions of confinement. On April 23, 2020, the district",
        "court in Hernandez Roman certified a class of current and",
    ]);
    f.new_page();
    f.para(&[
        "future Adelanto immigration detainees, and issued a preliminary injunction requiring",
        "a reduction in the population of the facility.",
    ]);
    f.bytes()
}

#[test]
fn a_sentence_cut_by_a_page_break_reads_with_its_continuation() {
    let (_dir, doc) = prepare(&motion_across_pages(), "motion.pdf");
    let question =
        "On what date did the district court certify a class of Adelanto immigration detainees?";
    let answer = ask_reader(&doc, question);
    assert!(answer.content.contains("April 23, 2020"), "{answer:#?}");
    // The date is cited where it stands, on the first page.
    assert_eq!(answer.citations[0].pages, [1], "{answer:#?}");
}

/// A protocol whose sections' titles say what their sentences are about.
fn protocol_sections() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "STUDY PROTOCOL");
    f.heading(12.0, "Recruitment");
    f.para(&["Patients will be contacted by the research nurse within 14 days of surgery."]);
    f.heading(12.0, "Adverse event recording and reporting");
    f.para(&[
        "We do not anticipate harm from the interviews. Any upset will be discussed with",
        "the team. The sponsor will be notified within 24 hours as per local procedures.",
    ]);
    f.bytes()
}

#[test]
fn a_sentence_reads_with_the_title_of_its_section() {
    let (_dir, doc) = prepare(&protocol_sections(), "protocol.pdf");
    let answer = ask_reader(
        &doc,
        "How quickly is an adverse event reported to the sponsor?",
    );
    assert_eq!(kind(&answer, 0), "duration");
    assert!(answer.content.contains("24 hours"), "{answer:#?}");
    assert_eq!(answer.status, Some(AnswerStatus::Answered), "{answer:#?}");
}

/// A quarterly report's notes: values stated right after the nouns they are for.
fn notes_with_values() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(12.0, "Leases");
    f.para(&[
        "As of July 30, 2023, our operating leases had a weighted average remaining lease term",
        "of 6.5 years and a weighted average discount rate of 3.21%. Lease expense for the",
        "quarter was recorded in cost of revenue and operating expenses.",
    ]);
    f.heading(12.0, "Commitments");
    f.para(&[
        "As of July 1, 2023, the Company had manufacturing purchase obligations of $38.4",
        "billion, with $38.1 billion payable within 12 months.",
    ]);
    f.heading(12.0, "Litigation");
    f.para(&[
        "The court applied the predominant-factor test to a game of ten pins, or modern-day",
        "bowling, and held that skill predominated over chance in the game.",
    ]);
    f.bytes()
}

#[test]
fn a_free_text_question_answered_by_the_value_stated_after_its_noun_gets_that_value() {
    let (_dir, doc) = prepare(&notes_with_values(), "notes.pdf");
    let answer = ask_reader(
        &doc,
        "What were the company's manufacturing purchase obligations as of July 1, 2023?",
    );
    assert_eq!(kind(&answer, 0), "amount", "{answer:#?}");
    assert!(answer.content.contains("$38.4 billion"), "{answer:#?}");
    assert!(!answer.content.contains("$38.1 billion"), "{answer:#?}");
    assert_eq!(answer.status, Some(AnswerStatus::Answered), "{answer:#?}");
    let answer = ask_reader(
        &doc,
        "What was the weighted average remaining term of the operating leases?",
    );
    assert_eq!(kind(&answer, 0), "duration", "{answer:#?}");
    assert!(answer.content.contains("6.5 years"), "{answer:#?}");
    // A bare number after the noun is no value for it.
    let answer = ask_reader(
        &doc,
        "What game did the court apply the predominant-factor test to?",
    );
    assert_eq!(kind(&answer, 0), "text", "{answer:#?}");
}

/// A health policy: what it covers on page 1, its exclusions (one lifted for a case) on
/// page 2.
fn health_policy() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "HARBOR HEALTH POLICY WORDING");
    f.heading(12.0, "Coverage");
    f.para(&[
        "The Company will pay the hospitalisation expenses of in-patient care for the insured.",
    ]);
    f.new_page();
    f.heading(12.0, "Exclusions");
    f.para(&[
        "Maternity Expenses: medical treatment expenses traceable to childbirth, including",
        "caesarean sections incurred during hospitalisation, and lawful termination of pregnancy.",
    ]);
    f.para(&[
        "Dental treatment expenses, unless they arise from an accident; this exclusion does not",
        "apply to dental surgery required after an accident during the policy period.",
    ]);
    f.bytes()
}

#[test]
fn a_policys_exclusion_answers_whether_it_covers_what_it_names() {
    let (_dir, doc) = prepare(&health_policy(), "policy.pdf");
    for (question, verdict, page) in [
        (
            "Does the policy pay for childbirth and caesarean section expenses?",
            "No",
            2,
        ),
        (
            "Are medical treatment expenses for childbirth excluded under the policy?",
            "Yes",
            2,
        ),
        (
            "Does the policy pay the hospitalisation expenses of in-patient care?",
            "Yes",
            1,
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert!(
            answer.content.starts_with(verdict),
            "{question}: {answer:#?}"
        );
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(answer.citations[0].pages, [page], "{question}");
    }
    // An exclusion lifted for the case asked about is not read as an exclusion.
    let question = "Does the policy cover dental surgery required after an accident?";
    let answer = ask_reader(&doc, question);
    assert!(
        !answer.content.contains("among the exclusions"),
        "{answer:#?}"
    );
    assert_ne!(answer.status, Some(AnswerStatus::Answered), "{answer:#?}");
}

/// An earnings release: the fourth quarter's reconciliation on page 1, the fiscal year's on
/// page 2, each with depreciation above the adjusted EBITDA it adds into.
fn earnings_release() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    for (title, period, rows) in [
        (
            "Reconciliation of Non-GAAP Measures (fourth quarter)",
            "Three Months Ended June 30,",
            [
                ("Depreciation and amortization", "145", "144"),
                ("Adjusted EBITDA", "609", "540"),
            ],
        ),
        (
            "Reconciliation of Non-GAAP Measures (fiscal year)",
            "Twelve Months Ended June 30,",
            [
                ("Depreciation and amortization", "579", "569"),
                ("Adjusted EBITDA", "2,117", "2,018"),
            ],
        ),
    ] {
        let page = pdf.page();
        page.text(72.0, 80.0, 12.0, true, title);
        page.text(72.0, 100.0, 9.0, false, "($ in millions)");
        page.text(380.0, 120.0, 8.0, true, period);
        page.text(380.0, 132.0, 8.0, true, "2022");
        page.text(450.0, 132.0, 8.0, true, "2023");
        for (i, (label, a, b)) in rows.iter().enumerate() {
            let y = 150.0 + 12.0 * i as f32;
            page.text(72.0, y, 9.0, false, label);
            page.text(380.0, y, 9.0, false, a);
            page.text(450.0, y, 9.0, false, b);
        }
    }
    pdf.to_bytes()
}

#[test]
fn ebitda_is_its_own_row_not_an_input_and_a_fiscal_year_is_read_from_the_years_table() {
    let (_dir, doc) = prepare(&earnings_release(), "release.pdf");
    let answer = ask_reader(&doc, "What was the Adjusted Non-GAAP EBITDA for FY 2023?");
    assert!(answer.content.contains("$2,018"), "{answer:#?}");
    assert_eq!(answer.citations[0].pages, [2], "{answer:#?}");
    let answer = ask_reader(
        &doc,
        "What was the Adjusted EBITDA in the fourth quarter of 2023?",
    );
    assert!(answer.content.contains("$540"), "{answer:#?}");
    assert_eq!(answer.citations[0].pages, [1], "{answer:#?}");
}

#[test]
fn a_choice_among_named_line_items_is_made_from_their_cited_rows() {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(
        72.0,
        90.0,
        14.0,
        true,
        "Consolidated Statements of Cash Flows",
    );
    page.text(72.0, 110.0, 9.0, false, "(Dollars in millions)");
    page.text(380.0, 125.0, 9.0, false, "2024");
    page.text(450.0, 125.0, 9.0, false, "2023");
    for (i, (label, a, b)) in [
        (
            "Net cash provided by operating activities",
            "1,824",
            "3,252",
        ),
        ("Net cash used in investing activities", "(962)", "(1,372)"),
        (
            "Net cash used in financing activities",
            "(1,806)",
            "(4,297)",
        ),
    ]
    .iter()
    .enumerate()
    {
        let y = 145.0 + 15.0 * i as f32;
        page.text(72.0, y, 9.0, false, label);
        page.text(380.0, y, 9.0, false, a);
        page.text(450.0, y, 9.0, false, b);
    }
    let (_dir, doc) = prepare(&pdf.to_bytes(), "flows.pdf");
    let answer = ask_reader(
        &doc,
        "Among operating, investing, and financing activities, which brought in the most cash in FY2024?",
    );
    assert_eq!(kind(&answer, 0), "choice");
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
    assert!(
        answer
            .content
            .starts_with("Net cash provided by operating activities has the largest figure"),
        "{answer:#?}"
    );
    assert!(answer.content.contains("$1,824 million"), "{answer:#?}");
    assert!(answer.content.contains("−$1,806 million"), "{answer:#?}");
    assert_eq!(answer.citations.len(), 3, "each option's row is cited");
    let answer = ask_reader(
        &doc,
        "Which of operating, investing or financing activities used the most cash in 2023?",
    );
    assert!(
        answer
            .content
            .starts_with("Net cash used in financing activities has the smallest figure"),
        "{answer:#?}"
    );
    assert!(answer.content.contains("−$4,297 million"), "{answer:#?}");
}

/// A protocol's cover page: field labels over their values, some names without any
/// company suffix.
fn protocol_fields() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(
        16.0,
        "Patient Experience of Day-Case Surgery: Qualitative Interviews",
    );
    f.para(&["Chief Investigator:"]);
    f.para(&["• Mr John Carter - Consultant Surgeon, Harbor Valley NHS Foundation Trust."]);
    f.para(&["Sponsor:"]);
    f.para(&["• Harbor Valley NHS Foundation Trust"]);
    f.para(&["Funder:"]);
    f.para(&["• Getting Care Right Together (GCRT)"]);
    f.para(&["Independent Scientific review:"]);
    f.para(&["Dr Bethany Moss, Research Fellow & Qualitative Advisor"]);
    f.new_page();
    f.heading(12.0, "Study Summary");
    f.para(&["Number of Study Sites 6+"]);
    f.para(&["Analysis and write up will take place from May 2024 – October 2024."]);
    f.bytes()
}

#[test]
fn a_field_label_names_its_value_and_its_agent_noun_answers_its_verb() {
    let (_dir, doc) = prepare(&protocol_fields(), "protocol.pdf");
    for (question, expected, page) in [
        (
            "Who funds the study?",
            "Getting Care Right Together (GCRT)",
            1,
        ),
        (
            "Who carried out the independent scientific review?",
            "Dr Bethany Moss",
            1,
        ),
        ("How many study sites does the protocol plan?", "6+", 2),
        (
            "When will analysis and write-up take place?",
            "May 2024 – October 2024",
            2,
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert!(answer.content.contains(expected), "{question}: {answer:#?}");
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(answer.citations[0].pages, [page], "{question}");
    }
}

#[test]
fn a_defined_term_the_question_names_is_read_from_its_definition() {
    let mut f = Flow::new();
    f.heading(16.0, "TRANSFER AND SERVICING AGREEMENT");
    for section in 1..=10 {
        f.heading(12.0, &format!("Section {section}.1 Payments"));
        f.para(&[
            "Interest accrues on each Note from and including the Closing Date to but excluding",
            "March 20, 2020, and after the Closing Date on each Payment Date of each month.",
            "The Servicer reports to the Issuer after the Closing Date as this Section sets out.",
        ]);
        f.new_page();
    }
    f.heading(12.0, "APPENDIX A — DEFINITIONS");
    f.para(&["“Cap Counterparty” means Harbor Bank."]);
    f.para(&["“Closing Date” means January 29, 2020."]);
    f.para(&["“Payment Date” means the 20th day of each month."]);
    let (_dir, doc) = prepare(&f.bytes(), "transfer.pdf");
    let answer = ask_reader(&doc, "What is the Closing Date of the transfer?");
    assert!(answer.content.contains("January 29, 2020"), "{answer:#?}");
    assert_eq!(cited_pages(&answer), [11], "{answer:#?}");
}

/// A filing's human-capital page: the whole workforce by year, a part of it as a share.
fn human_capital() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "ACME AEROSPACE ANNUAL REPORT");
    f.heading(12.0, "Human Capital");
    f.para(&[
        "As of December 31, 2022 and 2021, Acme's total workforce was approximately 156,000",
        "and 142,000 with 13% and 12% located outside of the U.S.",
    ]);
    f.new_page();
    f.heading(12.0, "Risks Related to Labor");
    f.para(&[
        "Approximately 50,000 employees, which constitute 32% of our total workforce, were",
        "union represented as of December 31, 2022.",
    ]);
    f.bytes()
}

#[test]
fn a_count_of_the_whole_is_read_by_year_and_a_part_answers_only_for_the_part() {
    let (_dir, doc) = prepare(&human_capital(), "acme-10k.pdf");
    let whole = ask_reader(&doc, "How many employees did Acme have at the end of 2022?");
    assert!(whole.content.starts_with("156,000"), "{whole:#?}");
    assert_eq!(cited_pages(&whole), [1]);
    let before = ask_reader(&doc, "How many employees did Acme have at the end of 2021?");
    assert!(before.content.starts_with("142,000"), "{before:#?}");
    let part = ask_reader(
        &doc,
        "How many Acme employees were union represented at the end of 2022?",
    );
    assert_eq!(part.content, "50,000 employees.", "{part:#?}");
    assert_eq!(cited_pages(&part), [2]);
}

/// A cash-flow statement whose rows leave cells blank and run on to the next page without
/// repeating the header.
fn statement_with_blanks() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(
        72.0,
        80.0,
        14.0,
        true,
        "Consolidated Statements of Cash Flows",
    );
    page.text(72.0, 100.0, 9.0, false, "(In millions of dollars)");
    for (x, t) in [(380.0, "2024"), (440.0, "2023"), (500.0, "2022")] {
        page.text(x, 120.0, 9.0, true, t);
    }
    let first: [(&str, [&str; 3]); 4] = [
        ("Net earnings", ["640", "580", "512"]),
        ("Restructuring charges", ["48", "", "31"]),
        ("Proceeds from sale of businesses", ["", "210", ""]),
        (
            "Net cash provided by operating activities",
            ["802", "733", "690"],
        ),
    ];
    let rows = |page: &mut nanoindex_pdf::write::PageSpec, top: f32, rows: &[(&str, [&str; 3])]| {
        for (i, (label, cells)) in rows.iter().enumerate() {
            let y = top + 14.0 * i as f32;
            page.text(72.0, y, 9.0, false, label);
            for (x, c) in [380.0, 440.0, 500.0].iter().zip(cells) {
                if !c.is_empty() {
                    page.text(*x + 24.0 - 4.5 * c.len() as f32, y, 9.0, false, c);
                }
            }
        }
    };
    rows(page, 140.0, &first);
    let page = pdf.page();
    rows(
        page,
        80.0,
        &[
            (
                "Purchases of property, plant and equipment",
                ["(157)", "(149)", "(133)"],
            ),
            ("Dividends paid", ["(18)", "(17)", "(16)"]),
        ],
    );
    pdf.to_bytes()
}

/// The table cells among an answer's first citation's boxes, as (text, page, x).
fn cell_boxes(answer: &Answer) -> Vec<(String, u32, f32)> {
    answer.citations[0]
        .bounding_boxes
        .iter()
        .filter(|b| b.region_type == "table_cell")
        .map(|b| (b.text.clone().unwrap_or_default(), b.page, b.x))
        .collect()
}

#[test]
fn a_figure_is_read_from_its_table_cell_by_column_and_cited_with_the_cells_box() {
    let (_dir, doc) = prepare(&statement_with_blanks(), "cash-flows.pdf");
    // A blank cell keeps the row's other figures under their own years: the 2022 charge is
    // the row's second figure, not its last-but-one.
    let answer = ask_reader(&doc, "What were restructuring charges in 2022?");
    assert!(answer.content.contains("$31 million"), "{answer:#?}");
    assert_eq!(answer.citations[0].pages, [1]);
    let cells = cell_boxes(&answer);
    assert_eq!(
        cells.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
        ["31", "2022"],
        "the cell and its column's header are cited: {answer:#?}"
    );
    // The boxes are where the figure and the year are printed (x in page fractions).
    assert!(
        (cells[0].2 - (500.0 + 24.0 - 9.0) / 612.0).abs() < 0.01,
        "{cells:?}"
    );
    assert!((cells[1].2 - 500.0 / 612.0).abs() < 0.01, "{cells:?}");
    // A row with one figure, in the middle column.
    let answer = ask_reader(
        &doc,
        "What were the proceeds from sale of businesses in 2023?",
    );
    assert!(answer.content.contains("$210 million"), "{answer:#?}");
    // The year whose cell is blank has no figure in that row: neither neighbour is read.
    let answer = ask_reader(&doc, "What were restructuring charges in 2023?");
    assert!(
        !answer.content.contains("$48 million") && !answer.content.contains("$31 million"),
        "{answer:#?}"
    );
    // A row on the next page, under the header of the page before: its column, scale and
    // currency come from the table's first page; its cell is cited on its own page.
    let answer = ask_reader(&doc, "What were capital expenditures in 2023?");
    assert!(answer.content.contains("$149 million"), "{answer:#?}");
    assert_eq!(answer.citations[0].pages, [2]);
    assert_eq!(
        cell_boxes(&answer)
            .iter()
            .map(|c| (c.0.as_str(), c.1))
            .collect::<Vec<_>>(),
        [("(149)", 2)]
    );
}

/// A 10-K's geographic note, laid out like 3M's 2022 10-K, page 60: net sales by region
/// under the stub head "Net Sales (Millions)", a sentence giving a part of one region, and,
/// on the next page, property, plant and equipment by the same regions.
fn regions() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    pdf.page()
        .text(72.0, 120.0, 18.0, true, "Larkspur Industries Company")
        .text(72.0, 150.0, 12.0, false, "Annual Report 2022");
    let table = |pdf: &mut PdfBuilder,
                 title: &str,
                 stub: &str,
                 years: &[&str],
                 rows: &[(&str, &[&str])],
                 after: &[&str]| {
        let page = pdf.page();
        page.text(72.0, 90.0, 14.0, true, title);
        page.text(72.0, 125.0, 9.0, false, stub);
        for (i, y) in years.iter().enumerate() {
            page.text(330.0 + 60.0 * i as f32, 125.0, 9.0, false, y);
        }
        let mut y = 145.0;
        for (label, cells) in rows {
            page.text(72.0, y, 9.0, false, label);
            for (i, c) in cells.iter().enumerate() {
                page.text(330.0 + 60.0 * i as f32, y, 9.0, false, c);
            }
            y += 15.0;
        }
        for line in after {
            y += 15.0;
            page.text(72.0, y, 9.0, false, line);
        }
    };
    table(
        &mut pdf,
        "Geographic Information",
        "Net Sales (Millions)",
        &["2022", "2021", "2020"],
        &[
            ("Americas", &["$ 18,400", "$ 18,097", "$ 16,525"]),
            ("Asia Pacific", &["9,901", "10,600", "9,569"]),
            ("Europe, Middle East and Africa", &["5,928", "6,660", "6,109"]),
            ("Worldwide", &["$ 34,229", "$ 35,355", "$ 32,184"]),
        ],
        &[
            "Americas included United States net sales to customers of $15.0 billion, $15.0 billion",
            "and $13.9 billion in 2022, 2021 and 2020, respectively.",
        ],
    );
    table(
        &mut pdf,
        "Property, Plant and Equipment - net",
        "(Millions)",
        &["2022", "2021"],
        &[
            ("Americas", &["$ 6,066", "$ 5,864"]),
            ("Asia Pacific", &["1,389", "1,582"]),
            ("Total Company", &["$ 9,178", "$ 9,429"]),
        ],
        &[],
    );
    pdf.to_bytes()
}

#[test]
fn a_regions_figure_comes_from_the_row_under_its_stub_head_not_from_a_part_it_included() {
    let (_dir, doc) = prepare(&regions(), "larkspur.pdf");

    // The stub head names what the region rows count; the sentence's figures are United
    // States net sales, a part of the Americas; the PP&E table's Americas row counts
    // something else.
    let answer = ask_reader(&doc, "What were net sales in the Americas in 2021?");
    assert!(answer.content.contains("18,097"), "{}", answer.content);
    assert_eq!(cited_pages(&answer), vec![2]);

    // The part, asked for by its own name, is the sentence's figure of that year.
    let answer = ask_reader(&doc, "What were United States net sales in 2021?");
    assert!(
        answer.content.contains("$15.0 billion"),
        "{}",
        answer.content
    );
    assert!(!answer.content.contains("18,097"), "{}", answer.content);
    assert_eq!(cited_pages(&answer), vec![2]);
}

/// An annual report whose cash-flow discussion states a change of an operating figure and
/// whose human-capital section counts people "employed", as 3M's 2022 10-K does (pages 6 and
/// 39).
fn operations() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "Quillfeather Corporation Annual Report 2024");
    f.heading(12.0, "Human Capital");
    f.para(&[
        "On December 31, 2024, the Company employed approximately 9,200 people (full-time",
        "equivalents), with approximately 3,700 employed in the United States.",
    ]);
    f.heading(12.0, "Cash Flows from Operating Activities");
    f.para(&[
        "In 2024, cash flows provided by operating activities decreased $186 million compared",
        "to the same period last year, primarily due to lower net income.",
    ]);
    f.new_page();
    f.heading(12.0, "Consolidated Statement of Income");
    f.para(&["(Millions) 2024 2023"]);
    f.para(&["Net sales 4,210 4,380"]);
    f.para(&["Operating income 655 702"]);
    f.para(&["Net income 512 560"]);
    f.bytes()
}

#[test]
fn a_change_answers_only_a_question_about_one_and_people_employed_are_employees() {
    let (_dir, doc) = prepare(&operations(), "quillfeather.pdf");

    // "decreased $186 million" is a change of operating cash flows, not operating income.
    let answer = ask_reader(&doc, "What was operating income in 2024?");
    assert!(answer.content.contains("655"), "{}", answer.content);
    assert!(!answer.content.contains("186"), "{}", answer.content);
    // Asked as a change, the same sentence answers.
    let answer = ask_reader(
        &doc,
        "By how much did cash flows from operating activities decrease in 2024?",
    );
    assert!(
        answer.content.contains("$186 million"),
        "{}",
        answer.content
    );
    assert_eq!(cited_pages(&answer), vec![1]);

    let answer = ask_reader(
        &doc,
        "How many employees did Quillfeather have at the end of 2024?",
    );
    assert!(answer.content.contains("9,200"), "{}", answer.content);
    assert_eq!(cited_pages(&answer), vec![1]);
}

/// A retailer's store counts as Best Buy's fiscal 2023 10-K gives them: the total in a
/// sentence that uses no verb of the question, and kinds of stores in a footnote to a table of
/// stores by state, which names the question's words more often.
fn stores() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "Harrow Electronics Annual Report");
    f.heading(12.0, "Store Development");
    f.para(&[
        "We had 1,138 stores at the end of fiscal 2023 throughout our Domestic and",
        "International segments.",
    ]);
    f.new_page();
    f.heading(12.0, "Item 2. Properties");
    f.para(&["The stores we operate at the end of fiscal 2023 by state were as follows:"]);
    f.para(&["Alabama 27 Ohio 32 Texas 107 Total Domestic store count 978"]);
    f.para(&["(1) Includes 33 Harrow Mobile stores and 14 Yardbird stand-alone stores."]);
    // The rest of a filing: a kind is told from the subject by how rarely it is named.
    for (title, text) in [
        (
            "Item 1A. Risk Factors",
            "Competition for customers is intense in every market.",
        ),
        (
            "Item 3. Legal Proceedings",
            "We are party to claims arising in the ordinary course.",
        ),
        (
            "Item 5. Market for Equity",
            "Our common shares trade on the New York Stock Exchange.",
        ),
        (
            "Item 7. Results of Operations",
            "Revenue declined as demand for computing softened.",
        ),
        (
            "Liquidity",
            "We fund operations from cash on hand and a revolving credit facility.",
        ),
        (
            "Item 9A. Controls",
            "Management concluded that internal controls were effective.",
        ),
    ] {
        f.heading(12.0, title);
        f.para(&[text]);
    }
    f.bytes()
}

#[test]
fn a_count_of_a_kind_the_question_does_not_name_is_not_the_whole_count() {
    let (_dir, doc) = prepare(&stores(), "harrow.pdf");
    let answer = ask_reader(
        &doc,
        "How many stores did Harrow operate at the end of fiscal 2023?",
    );
    assert!(answer.content.contains("1,138"), "{}", answer.content);
    assert_eq!(cited_pages(&answer), vec![1]);
    // Asked by its kind, the footnote's count answers.
    let answer = ask_reader(
        &doc,
        "How many Harrow Mobile stores were there at the end of fiscal 2023?",
    );
    assert!(answer.content.contains("33"), "{}", answer.content);
    assert_eq!(cited_pages(&answer), vec![2]);
}

/// A license agreement whose parties are named once, in its preamble, while a notice clause
/// many pages later names two other entities in a sentence with more of the question's words
/// ("the Parties", "this Agreement"), as CytoDyn's license with Vyera does.
fn license_with_notices() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "EXCLUSIVE LICENSE AGREEMENT");
    f.para(&[
        "This Exclusive License Agreement (this \"Agreement\") is made as of May 4, 2022 by and",
        "between Vyrell Therapeutics, LLC, a Delaware limited liability company (\"Vyrell\"),",
        "and Cytomark Inc., a Delaware corporation (\"Cytomark\").",
    ]);
    for i in 1..=10 {
        f.new_page();
        f.heading(12.0, &format!("Section {i}. Obligations of the Parties"));
        f.para(&[
            &format!("The Parties shall perform the development plan for stage {i} under this"),
            "Agreement and report progress to the joint steering committee each quarter.",
        ]);
    }
    f.new_page();
    f.heading(12.0, "Section 11. Notices");
    f.para(&[
        "Notices between the Parties under this Agreement shall be sent to Harlow Holdings LLC",
        "and to Fenwick Legal Services LLP, attention General Counsel.",
    ]);
    f.bytes()
}

#[test]
fn the_parties_are_read_from_the_preamble_not_from_a_notice_clause() {
    let (_dir, doc) = prepare(&license_with_notices(), "license.pdf");
    let answer = ask_reader(&doc, "Who are the parties to this Agreement?");
    assert_eq!(kind(&answer, 0), "party");
    assert!(
        answer.content.contains("Vyrell Therapeutics, LLC")
            && answer.content.contains("Cytomark Inc."),
        "{answer:#?}"
    );
    assert!(!answer.content.contains("Harlow"), "{answer:#?}");
    assert_eq!(cited_pages(&answer), vec![1], "{answer:#?}");
}

/// A study protocol laid out as NHS protocols are: a cover page where each value is set
/// under its label ("Chief Investigator:" over a bulleted name and affiliation), and a body
/// that describes the study in the words questions use for it.
fn protocol_cover() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(
        16.0,
        "Understanding the patient experience of day-case knee surgery:",
    );
    f.heading(16.0, "Qualitative patient interviews.");
    // The label's line runs on from the line above it, with no sentence end between.
    f.para(&[
        "Current Protocol Number: V2 01.02.23 IRAS no – 318842",
        "Chief Investigator:",
        "• Mr Alan Pryce - Consultant Orthopaedic Surgeon and Trauma co-chair, Westbury",
        "University Hospitals NHS Foundation Trust.",
    ]);
    f.para(&["Principal Investigator:"]);
    f.para(&["• Dr Ruth Okafor – Orthopaedic Registrar and Research Fellow, Westbury Hospital."]);
    f.para(&["Sponsor:"]);
    f.para(&["• Westbury University Hospitals NHS Foundation Trust"]);
    f.new_page();
    f.heading(12.0, "Background");
    f.para(&[
        "Day-case ACL reconstruction, MCL repair and PCL repair are now offered in most regions,",
        "and patients who undergo day-case ACL, MCL or PCL surgery go home on the same day.",
        "Little is known of their experience of recovery at home, which this study explores.",
    ]);
    f.heading(12.0, "Methods");
    f.para(&[
        "Patients are interviewed by telephone within six weeks of day-case ACL, MCL or PCL",
        "surgery; interviews are recorded, transcribed and analysed thematically.",
    ]);
    f.bytes()
}

#[test]
fn a_value_set_under_its_label_on_a_cover_page_answers_the_label() {
    let (_dir, doc) = prepare(&protocol_cover(), "protocol.pdf");
    let answer = ask_reader(
        &doc,
        "Who is the Chief Investigator of the day-case ACL/MCL/PCL patient experience study?",
    );
    assert_eq!(kind(&answer, 0), "person");
    assert_eq!(answer.status, Some(AnswerStatus::Answered), "{answer:#?}");
    assert!(answer.content.contains("Alan Pryce"), "{answer:#?}");
    assert!(!answer.content.contains("Okafor"), "{answer:#?}");
    assert_eq!(cited_pages(&answer), vec![1], "{answer:#?}");
}

/// A quarterly report's cover (the period on the line after the report's title) and an
/// exhibit index whose XBRL lines say "cover page" and "period".
fn quarterly_report() -> Vec<u8> {
    let mut f = Flow::new();
    f.para(&[
        "UNITED STATES",
        "SECURITIES AND EXCHANGE COMMISSION",
        "Washington, D.C. 20549",
    ]);
    f.heading(14.0, "FORM 10-Q");
    f.para(&[
        "QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
        "For the quarterly period ended July 30, 2023",
        "OR",
    ]);
    f.para(&["Commission file number: 0-23985"]);
    f.heading(14.0, "HALVERN SYSTEMS CORPORATION");
    f.new_page();
    f.heading(12.0, "Item 6. Exhibits");
    f.para(&[
        "101.SCH Inline XBRL Taxonomy Extension Schema Document with Embedded Linkbases",
        "104 Cover Page Interactive Data File - the cover page interactive data file for the",
        "fiscal period is formatted as Inline XBRL and contained in Exhibit 101.",
    ]);
    f.heading(12.0, "Item 2. Results of Operations");
    f.para(&[
        "For the quarter ended July 30, 2023, revenue was $1,350 million, up 12% from a year ago.",
    ]);
    f.bytes()
}

#[test]
fn the_period_a_filing_covers_is_read_from_its_cover_line() {
    let (_dir, doc) = prepare(&quarterly_report(), "10q.pdf");
    let answer = ask_reader(&doc, "What fiscal period does the Form 10-Q cover?");
    assert!(
        answer
            .content
            .contains("For the quarterly period ended July 30, 2023"),
        "{answer:#?}"
    );
    assert_eq!(cited_pages(&answer), vec![1], "{answer:#?}");
}

/// "When does …" asks for a day that recurs, not the day one year ended.
#[test]
fn a_recurring_day_answers_when_something_happens_each_year() {
    let mut f = Flow::new();
    f.heading(14.0, "Quarterly Report");
    f.para(&[
        "Refer to the Annual Report on Form 10-K for the fiscal year ended September 24, 2022",
        "for a discussion of the risk factors of the Company.",
    ]);
    f.heading(12.0, "Fiscal Period");
    f.para(&["The Company's fiscal year is the 52- or 53-week period that ends on the last Saturday of September."]);
    let (_dir, doc) = prepare(&f.bytes(), "quarterly.pdf");
    let answer = ask_reader(&doc, "When does the Company's fiscal year end?");
    assert_eq!(kind(&answer, 0), "date");
    assert!(
        answer.content.contains("last Saturday of September"),
        "{answer:#?}"
    );
}

/// A 10-Q's prose that pairs two lists ("…, respectively"): each figure is the date or the
/// reporting period in its place of the other list. And a segment's figure stated in a
/// sentence is chosen over a statement row that shares only the word "revenue" with the
/// question.
#[test]
fn a_figure_of_a_paired_list_is_the_date_or_period_in_its_place() {
    let mut f = Flow::new();
    f.heading(14.0, "Note 6 - Debt");
    f.para(&[
        "As of July 1, 2023 and September 24, 2022, the Company had $4.0 billion and $10.0",
        "billion of Commercial Paper outstanding, respectively.",
    ]);
    f.heading(14.0, "Note 7 - Income Taxes");
    f.para(&[
        "The income tax as a percentage of income before income tax was an expense of 11.4%",
        "and 10.4% for the second quarter and first half of fiscal year 2024, respectively.",
    ]);
    f.heading(14.0, "Liquidity");
    f.para(&[
        "We expect to pay approximately $3.81 billion in cash taxes in the third quarter of",
        "fiscal year 2024 as we had previously deferred our federal income tax payments.",
    ]);
    f.new_page();
    f.heading(14.0, "Segment Discussion");
    f.para(&[
        "Automotive revenue for the second quarter of fiscal year 2024 was $253 million, up",
        "15% from a year ago, driven by self-driving platforms.",
    ]);
    f.para(&["Cash taxes paid were $420 million for the second quarter of fiscal year 2024."]);
    let (_dir, doc) = prepare(&f.bytes(), "quarter.pdf");
    for (question, expected, not) in [
        (
            "How much commercial paper did the Company have outstanding as of July 1, 2023?",
            "$4.0 billion",
            "$10.0 billion",
        ),
        (
            "How much commercial paper did the Company have outstanding as of September 24, 2022?",
            "$10.0 billion",
            "$4.0 billion",
        ),
        (
            "What was the income tax as a percentage of income before income tax for the first half of fiscal year 2024?",
            "10.4%",
            "11.4%",
        ),
        (
            "What was the income tax as a percentage of income before income tax for the second quarter of fiscal year 2024?",
            "11.4%",
            "10.4%",
        ),
        // Another quarter's figure does not answer for the quarter asked.
        (
            "How much did the Company pay in cash taxes in the second quarter of fiscal year 2024?",
            "$420 million",
            "$3.81 billion",
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert!(
            answer.content.contains(expected) && !answer.content.contains(not),
            "{question}: {answer:#?}"
        );
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
    }
}

/// An Indian health policy's wording: amounts in a rupee font whose "₹" is the grave accent,
/// a length with its unit set against the number ("60days"), one counted in "continuous"
/// months, and questions that ask for an age, a value or what is payable. And a court's
/// case number, which is its docket number.
#[test]
fn policy_amounts_lengths_and_a_case_number_are_read_as_written() {
    let mut f = Flow::new();
    f.heading(14.0, "Benefits covered under the policy");
    f.heading(12.0, "4. Pre Hospitalisation expenses");
    f.para(&[
        "We will cover the Pre-hospitalization Medical Expenses incurred in respect of the",
        "Insured Person for up to 60days immediately before the Insured Person's Admission.",
    ]);
    f.heading(12.0, "6. Donor Expenses");
    f.para(&["Benefit subject to an overall limit of ` 10,00,000 only."]);
    f.heading(12.0, "10. Domestic road ambulance cover");
    f.para(&[
        "Our maximum liability under this Benefit for every claim will be restricted to 1% of",
        "the Annual Sum Insured maximum up to `10,000.",
    ]);
    f.new_page();
    f.heading(12.0, "8. Moratorium Period");
    f.para(&[
        "After completion of sixty continuous months of coverage, no claim shall be",
        "contestable except on grounds of established fraud. This period of sixty continuous",
        "months is called as Moratorium Period.",
    ]);
    f.heading(12.0, "Eligibility");
    f.para(&["Dependent children between the age 3 months to 25 years may be covered."]);
    f.para(&["Adults aged >18 who have recently undergone day-case surgery may take part."]);
    f.para(&[
        "Intensive Care Unit expenses up to 5% of the sum insured subject to maximum of",
        "Rs. 10,000/- per day.",
    ]);
    f.new_page();
    f.heading(12.0, "SUPREME COURT OF THE UNITED STATES");
    f.para(&["No. 11-889. Argued April 23, 2013. Decided June 13, 2013."]);
    f.para(&["The Red River Compact allocates water rights among four States."]);
    f.para(&[
        "Once the Compact was approved in 1980, no signatory State pressed for a cross-border",
        "diversion until Tarrant filed suit in 2007.",
    ]);
    f.para(&["In 2007, Tarrant sought a permit to take 310,000 acre feet6 per year of water."]);
    let (_dir, doc) = prepare(&f.bytes(), "policy.pdf");
    for (question, expected, page) in [
        (
            "For how many days before admission are pre-hospitalisation expenses covered?",
            "60days",
            1,
        ),
        (
            "What is the overall limit on donor expenses?",
            "₹10,00,000",
            1,
        ),
        (
            "What is the maximum payable for domestic road ambulance per claim?",
            "₹10,000",
            1,
        ),
        (
            "After how many months of continuous coverage does the moratorium period apply?",
            "sixty continuous months",
            2,
        ),
        (
            "Up to what age can dependent children be covered?",
            "25 years",
            2,
        ),
        ("What is the docket number of the case?", "No. 11-889", 3),
        ("What minimum age must an adult be to take part?", ">18", 2),
        (
            "What is the limit on Intensive Care Unit expenses as a share of the sum insured?",
            "5%",
            2,
        ),
        ("In what year did Tarrant file suit?", "2007", 3),
        (
            "How much water per year did Tarrant seek to take under its permit?",
            "310,000 acre feet",
            3,
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert!(
            answer
                .content
                .to_lowercase()
                .contains(&expected.to_lowercase()),
            "{question}: {answer:#?}"
        );
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(answer.citations[0].pages, [page], "{question}");
    }
}

/// Of two definitions whose terms share words, the one that defines the term asked answers,
/// and a name inside a defined term ("Master Trust") is no answer.
#[test]
fn the_definition_of_the_asked_term_names_the_party_not_a_longer_term() {
    let mut f = Flow::new();
    f.heading(14.0, "APPENDIX A - DEFINITIONS");
    f.para(&[
        "\"Master Trust Owner Trustee\" means Wilmington Trust, National Association, a national",
        "banking association, not in its individual capacity but solely as owner trustee.",
    ]);
    f.para(&["\"Master Trust\" means the Harbor Device Payment Master Trust."]);
    f.para(&[
        "\"Owner Trustee\" means Keystone Bank Trust, National Association, a national banking",
        "association, not in its individual capacity but solely as Owner Trustee under the",
        "Trust Agreement.",
    ]);
    f.para(&[
        "This Agreement has been signed by Keystone Bank National Association not in its",
        "individual capacity but solely as Indenture Trustee.",
    ]);
    let (_dir, doc) = prepare(&f.bytes(), "definitions.pdf");
    let answer = ask_reader(
        &doc,
        "Which bank signed the agreement as Indenture Trustee?",
    );
    assert_eq!(kind(&answer, 0), "party");
    assert!(
        answer
            .content
            .contains("Keystone Bank National Association"),
        "{answer:#?}"
    );
    let question = "Who is the Owner Trustee under the agreement?";
    let answer = ask_reader(&doc, question);
    assert!(
        answer
            .content
            .contains("Keystone Bank Trust, National Association"),
        "{answer:#?}"
    );
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
}

/// MD&A's net sales by category: each row gives two periods' amounts and the change, for
/// the quarter and for the nine months. A question about the change of one category reads
/// its change column for the asked period.
#[test]
fn a_percentage_change_is_read_from_the_change_column_of_the_asked_period() {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(72.0, 80.0, 14.0, true, "Products and Services Performance");
    page.text(
        72.0,
        100.0,
        9.0,
        false,
        "The following table shows net sales by category for the three- and nine-month periods (dollars in millions):",
    );
    const X: [f32; 6] = [250.0, 300.0, 350.0, 410.0, 470.0, 530.0];
    for (x, t) in X
        .iter()
        .zip(["July 1,", "June 25,", "", "July 1,", "June 25,", ""])
    {
        if !t.is_empty() {
            page.text(*x, 120.0, 8.0, true, t);
        }
    }
    for (x, t) in X
        .iter()
        .zip(["2023", "2022", "Change", "2023", "2022", "Change"])
    {
        page.text(*x, 131.0, 8.0, true, t);
    }
    page.text(72.0, 145.0, 9.0, false, "Net sales by category:");
    let rows: [(&str, [&str; 6]); 3] = [
        (
            "iPhone",
            ["39,669", "40,665", "(2)%", "156,778", "162,863", "(4)%"],
        ),
        (
            "iPad",
            ["5,791", "7,224", "(20)%", "21,857", "22,118", "(1)%"],
        ),
        (
            "Services",
            ["21,213", "19,604", "8 %", "62,886", "58,941", "7 %"],
        ),
    ];
    for (i, (label, cells)) in rows.iter().enumerate() {
        let y = 157.0 + 12.0 * i as f32;
        page.text(72.0, y, 9.0, false, label);
        for (x, c) in X.iter().zip(cells) {
            page.text(*x, y, 9.0, false, c);
        }
    }
    let (_dir, doc) = prepare(&pdf.to_bytes(), "mdna.pdf");
    for (question, expected) in [
        (
            "By what percentage did iPad net sales change in the third quarter of 2023?",
            "-20%",
        ),
        (
            "By what percentage did iPad net sales change in the first nine months of 2023?",
            "-1%",
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert!(answer.content.contains(expected), "{question}: {answer:#?}");
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
    }
}

/// A rate the sentence names as another rate ("the U.S. federal statutory rate of 21%") is
/// not the effective tax rate asked, which the filing states in other words.
#[test]
fn a_figure_named_as_another_rate_does_not_answer() {
    let mut f = Flow::new();
    f.heading(14.0, "Note 6 - Income Taxes");
    f.para(&[
        "The income tax as a percentage of income before income tax was an expense of 11.4%",
        "for the second quarter of fiscal year 2024.",
    ]);
    f.para(&[
        "Our effective tax rates for the second quarter of fiscal year 2024 were lower than the",
        "U.S. federal statutory rate of 21% due to tax benefits from stock-based compensation.",
    ]);
    let (_dir, doc) = prepare(&f.bytes(), "taxes.pdf");
    let question = "What was the effective tax rate for the second quarter of fiscal year 2024?";
    let answer = ask_reader(&doc, question);
    assert!(
        answer.content.contains("11.4%") && !answer.content.contains("21%"),
        "{answer:#?}"
    );
}

/// Questions worded otherwise than the sentence that answers them: "how soon" and "how far in
/// advance" ask a length of time ("within forty-five (45) days", "48 hours prior to"), a
/// British spelling asks what the American one states, people who died are counted as
/// fatalities, and a numbered definition of another term ("1.18 “Calendar Year” means the
/// twelve-month period") does not answer for it.
#[test]
fn lengths_and_counts_asked_in_other_words_are_found() {
    let mut f = Flow::new();
    f.heading(14.0, "ARTICLE 1 DEFINITIONS");
    f.para(&["1.18 \"Calendar Year\" means the twelve-month period ending on December 31."]);
    f.heading(14.0, "ARTICLE 8 PAYMENTS");
    f.para(&[
        "Within forty-five (45) days following the end of each Calendar Quarter, the Licensee",
        "shall deliver to the Licensor a royalty report for that Calendar Quarter.",
    ]);
    f.new_page();
    f.heading(14.0, "Claim Procedure");
    f.para(&[
        "Notice with full particulars shall be sent to the Company as under: At least 48 hours",
        "prior to admission in Hospital in case of a planned Hospitalization.",
    ]);
    f.heading(14.0, "Background");
    f.para(&[
        "On March 10, 2019, an airplane was involved in an accident after takeoff, resulting in",
        "157 fatalities.",
    ]);
    let (_dir, doc) = prepare(&f.bytes(), "notices.pdf");
    for (question, expected, page) in [
        (
            "How soon after the end of each Calendar Quarter must the Licensee send its royalty report?",
            "forty-five (45) days",
            1,
        ),
        (
            "How far in advance must the insurer be notified of a planned hospitalisation?",
            "48 hours",
            2,
        ),
        ("How many people died in the accident?", "157", 2),
    ] {
        let answer = ask_reader(&doc, question);
        assert!(
            answer.content.to_lowercase().contains(expected),
            "{question}: {answer:#?}"
        );
        // The numbered definition of another term is not the answer.
        assert!(!answer.content.contains("twelve-month"), "{question}: {answer:#?}");
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(answer.citations[0].pages, [page], "{question}");
    }
}

/// What the review of the reader's rules found, held: a change column answers only for the
/// row the question names; a rate named apart from a comparison ("a fixed rate of 5.25%")
/// is the rate asked; "How does … define …" without a "means" sentence reads the sentence
/// that says it; a count noun keeps a participle before it.
#[test]
fn rules_hold_off_where_they_do_not_apply() {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(72.0, 80.0, 14.0, true, "Products Performance");
    const X: [f32; 3] = [250.0, 300.0, 350.0];
    for (x, t) in X.iter().zip(["2023", "2022", "Change"]) {
        page.text(*x, 120.0, 8.0, true, t);
    }
    page.text(72.0, 134.0, 9.0, false, "Net sales by category:");
    for (i, (label, cells)) in [
        ("iPhone", ["39,669", "40,665", "(2)%"]),
        ("Services", ["21,213", "19,604", "8 %"]),
    ]
    .iter()
    .enumerate()
    {
        let y = 146.0 + 12.0 * i as f32;
        page.text(72.0, y, 9.0, false, label);
        for (x, c) in X.iter().zip(cells) {
            page.text(*x, y, 9.0, false, c);
        }
    }
    let page = pdf.page();
    page.text(72.0, 80.0, 14.0, true, "Description of the Notes");
    page.text(
        72.0,
        100.0,
        9.0,
        false,
        "The Notes will bear interest at a fixed rate of 5.25% per annum, payable semi-annually.",
    );
    page.text(
        72.0,
        112.0,
        9.0,
        false,
        "We define Adjusted EBITDA as net income before interest, taxes and amortization.",
    );
    let (_dir, doc) = prepare(&pdf.to_bytes(), "notes.pdf");
    let answer = ask_reader(
        &doc,
        "By what percentage did Wearables net sales change in 2023?",
    );
    assert!(
        !answer.content.contains("-2%") && !answer.content.contains("8%"),
        "{answer:#?}"
    );
    let answer = ask_reader(&doc, "What is the interest rate on the Notes?");
    assert!(answer.content.contains("5.25%"), "{answer:#?}");
    let answer = ask_reader(&doc, "How does the Company define Adjusted EBITDA?");
    assert!(
        answer.content.contains("net income before interest"),
        "{answer:#?}"
    );
}

/// "Which … bulletin / directive / version" asks for a document or a version by its number,
/// read as a reference: a number broken by the line after its dash is one word, and the
/// word that opens the sentence is no part of a label.
#[test]
fn which_bulletin_directive_or_version_is_read_by_its_number() {
    let mut f = Flow::new();
    f.heading(14.0, "PROPOSED AIRWORTHINESS DIRECTIVE");
    f.para(&[
        "Since AD 2018-23-51 was issued, the agency has determined that final corrective action",
        "is necessary. This proposed AD would supersede AD 2018-23-51.",
    ]);
    f.para(&[
        "This proposed AD would apply only to the airplanes identified in Special Attention",
        "Service Bulletin 737-",
        "31-1860, dated June 12, 2020.",
    ]);
    f.para(&["Before further flight, install flight control computer software version P12.1.2."]);
    let (_dir, doc) = prepare(&f.bytes(), "directive.pdf");
    for (question, expected) in [
        (
            "Which airworthiness directive would the proposed AD supersede?",
            "AD 2018-23-51",
        ),
        (
            "Which service bulletin identifies the airplanes the proposed AD would apply to?",
            "Service Bulletin 737-31-1860",
        ),
        (
            "Which flight control computer software version must be installed?",
            "P12.1.2",
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert_eq!(kind(&answer, 0), "reference", "{question}");
        assert!(answer.content.contains(expected), "{question}: {answer:#?}");
        assert!(!answer.content.contains("Since"), "{question}: {answer:#?}");
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
    }
}

fn engine_paper() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "A Tracing Engine for Scripts");
    f.para(&[
        "Our engine is embedded in Acme's Comet open-source web browser, which many people use.",
        "The trace compilation subsystem, TRACEJIT, is separate from the interpreter.",
    ]);
    f.new_page();
    f.heading(12.0, "Testing");
    f.para(&[
        "One tool that helped us greatly was the project's random fuzz tester, QUICKFUZZ, which",
        "writes random programs from nested language elements.",
    ]);
    f.para(&["A profiler helped the developers find slow paths in the interpreter."]);
    f.bytes()
}

/// "Which <noun>" questions are answered with the name the sentence gives beside the noun,
/// shown with that sentence and cited on its page; where the sentence names nothing beside
/// the noun, the passage is quoted and the answer stays partial.
#[test]
fn a_which_question_is_answered_with_the_name_beside_its_noun() {
    let (_dir, doc) = prepare(&engine_paper(), "engine.pdf");
    for (question, name, page) in [
        (
            "Which fuzz tester helped the developers find bugs?",
            "QUICKFUZZ",
            2,
        ),
        (
            "What is the name of our engine's trace compilation subsystem?",
            "TRACEJIT",
            1,
        ),
        (
            "In which web browser is the engine embedded?",
            "Acme's Comet",
            1,
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert_eq!(kind(&answer, 0), "text", "{question}");
        assert!(
            answer
                .content
                .starts_with(&format!("{name} — page {page} says: \"")),
            "{question}: {answer:#?}"
        );
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(cited_pages(&answer), [page], "{question}");
    }
    let answer = ask_reader(
        &doc,
        "Which profiler helped the developers find slow paths?",
    );
    assert_eq!(answer.status, Some(AnswerStatus::Partial), "{answer:#?}");
    assert!(
        answer
            .content
            .starts_with("The most relevant passage (page 2)"),
        "{answer:#?}"
    );
}

/// A count given for each of several ("three (3) members to be appointed by each of …") is
/// not the whole a question asks about; a question that asks it of each gets it, and so does
/// one about what the count is given per ("90 work-hours per operator", asked of an
/// operator). A section number is no count, and "make up" ends the counted noun.
#[test]
fn a_count_for_each_of_several_answers_only_a_question_about_each() {
    let mut f = Flow::new();
    f.heading(16.0, "LICENSE AGREEMENT");
    f.heading(14.0, "Section 3.1 Joint Steering Committee");
    f.para(&[
        "The Joint Steering Committee shall consist of eight (8) members, four (4) members to",
        "be appointed by each of Northwind and Contoso.",
    ]);
    f.heading(14.0, "Section 4.2 Payments");
    f.para(&["The Licensee shall pay a license fee of $750,000 within ten days of signature."]);
    f.para(&["Updating the price list takes an average of 90 work-hours per operator."]);
    f.new_page();
    f.heading(14.0, "Section 9 Term");
    f.para(&["The initial term of this Agreement is five (5) years from the Effective Date."]);
    f.heading(14.0, "Section 12 Governing Law");
    f.para(&["This Agreement is governed by the laws of the State of New York."]);
    let (_dir, doc) = prepare(&f.bytes(), "license.pdf");
    let answer = ask_reader(
        &doc,
        "How many members make up the Joint Steering Committee?",
    );
    assert_eq!(answer.content, "Eight (8) members.", "{answer:#?}");
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
    let answer = ask_reader(
        &doc,
        "How many members of the Joint Steering Committee does each party appoint?",
    );
    assert!(
        answer.content.to_lowercase().contains("four (4)"),
        "{answer:#?}"
    );
    // "per operator", asked of an operator, is what the question asks.
    let answer = ask_reader(
        &doc,
        "How many work-hours does it take an operator to update the price list?",
    );
    assert!(answer.content.contains("90"), "{answer:#?}");
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
}

/// "What is the case number …" asks for a docket number: the sections of a statute the
/// complaint cites ("Sections 14(a)") are no answer, though their sentence matches better;
/// a court of appeals' number is not a district court's ("No. 3:21-cv-01234-AB").
#[test]
fn a_case_number_is_a_docket_number_not_a_statute() {
    let mut f = Flow::new();
    f.heading(16.0, "QUARTERLY REPORT");
    f.heading(14.0, "Note 12 - Legal Proceedings");
    f.para(&[
        "The derivative lawsuit about the securities litigation alleges breach of fiduciary",
        "duty and violations of Sections 14(a), 10(b), and 20(a) of the Exchange Act.",
    ]);
    f.para(&[
        "The plaintiffs appealed the dismissal to the Court of Appeals for the Ninth Circuit,",
        "case number 22-15678, where the appeal remains pending.",
    ]);
    f.para(&[
        "The district court dismissed the securities litigation, No. 3:21-cv-01234-AB, with",
        "leave to amend.",
    ]);
    f.new_page();
    f.heading(14.0, "Note 13 - Leases");
    f.para(&["Operating lease costs were $120 million for the quarter."]);
    let (_dir, doc) = prepare(&f.bytes(), "report.pdf");
    let answer = ask_reader(
        &doc,
        "What is the Ninth Circuit case number of the plaintiffs' appeal in the securities litigation?",
    );
    assert!(answer.content.contains("22-15678"), "{answer:#?}");
    assert!(!answer.content.contains("Sections"), "{answer:#?}");
    assert_eq!(answer.status, Some(AnswerStatus::Answered));
    // A district court's number is the district docket's, and only that court's.
    let answer = ask_reader(
        &doc,
        "What is the district court case number of the securities litigation?",
    );
    assert!(answer.content.contains("3:21-cv-01234"), "{answer:#?}");
}

/// Litigation notes: two dates near the case's name, each the date of another event.
fn litigation_notes() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(14.0, "Note 12 - Legal Proceedings");
    f.para(&[
        "In the United States Court of Appeals for the Ninth Circuit, on August 25, 2023, a",
        "three-judge panel affirmed in part and reversed in part the district court's",
        "dismissal of the case.",
    ]);
    f.para(&[
        "The derivative lawsuit, initially filed January 18, 2019 and titled In re Widget",
        "Corporation Securities Litigation, was stayed pending the appeal.",
    ]);
    f.new_page();
    f.heading(14.0, "Note 13 - State Aid");
    f.para(&[
        "On September 25, 2020, the Commission appealed the General Court's decision to the",
        "Court of Justice and a hearing was held on May 23, 2023.",
    ]);
    f.para(&[
        "The briefing in Case No. 20-55662 will conclude on August 17, 2020, and oral argument",
        "on the consolidated appeals has been scheduled for September 15, 2020.",
    ]);
    f.bytes()
}

#[test]
fn a_date_is_read_beside_the_event_the_question_asks_the_date_of() {
    let (_dir, doc) = prepare(&litigation_notes(), "notes.pdf");
    for (question, expected, page) in [
        (
            "On what date did a Ninth Circuit panel partly reverse the dismissal of the In re Widget Corporation Securities Litigation?",
            "August 25, 2023",
            1,
        ),
        (
            "On what date did the Court of Justice hold its hearing on the Commission's appeal?",
            "May 23, 2023",
            2,
        ),
        // A date question naming a case number asks for a date.
        (
            "When is briefing in the appeal, Case No. 20-55662, due to conclude?",
            "August 17, 2020",
            2,
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert_eq!(kind(&answer, 0), "date", "{question}");
        assert!(
            answer.content.contains(expected),
            "{question}: {:#}",
            answer.trace.as_ref().unwrap()["reader"]
        );
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(cited_pages(&answer), [page], "{question}");
    }
}

#[test]
fn a_discount_may_be_a_share_and_a_rate_an_amount_per_unit() {
    let mut f = Flow::new();
    f.heading(14.0, "Incentives for vaccination");
    f.para(&[
        "We will provide an additional 2.5% discount on premium (fresh or renewal) for",
        "insured persons who have taken the pneumococcal vaccine.",
    ]);
    f.new_page();
    f.heading(14.0, "Study budget");
    f.para(&[
        "Patient and public involvement, priced at the recommended rate of £75 per half day",
        "activity. Transcription is estimated at £1,200 in total.",
    ]);
    let (_dir, doc) = prepare(&f.bytes(), "budget.pdf");
    for (question, expected, page) in [
        (
            "How large a premium discount does the policy give insured persons who have had the pneumococcal vaccine?",
            "2.5%",
            1,
        ),
        (
            "At what rate does the study budget cost patient and public involvement activity?",
            "£75 per half day",
            2,
        ),
    ] {
        let answer = ask_reader(&doc, question);
        assert!(
            answer.content.contains(expected),
            "{question}: {answer:#?}"
        );
        assert_eq!(answer.status, Some(AnswerStatus::Answered), "{question}");
        assert_eq!(cited_pages(&answer), [page], "{question}");
    }
}
