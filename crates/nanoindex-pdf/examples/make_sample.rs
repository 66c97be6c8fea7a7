//! Writes the project's own sample documents about a fictional company: a short 10-K-style
//! annual report for 2024, used by the README quick start
//! (`cargo run -p nanoindex-pdf --example make_sample -- OUT.pdf`), and with `--quarterly` a
//! short 10-Q for the first quarter of 2025, used by the README's knowledge-base example.
//! Every figure in them is invented for this project.

use nanoindex_pdf::write::PdfBuilder;

struct Writer {
    pdf: PdfBuilder,
    y: f32,
    /// The running header of every page.
    header: &'static str,
}

impl Writer {
    fn page(&mut self) {
        self.pdf.page();
        self.y = 60.0;
        let n = self.pdf.page_count();
        let header = self.header;
        self.pdf
            .last_page()
            .text(72.0, 40.0, 8.0, false, header)
            .text(300.0, 760.0, 8.0, false, &n.to_string());
    }
    fn line(&mut self, size: f32, bold: bool, text: &str) {
        if self.y > 700.0 {
            self.page();
        }
        self.y += size * 1.3;
        let y = self.y;
        self.pdf.last_page().text(72.0, y, size, bold, text);
    }
    fn heading(&mut self, size: f32, text: &str) {
        self.y += 12.0;
        self.line(size, true, text);
        self.y += 4.0;
    }
    fn para(&mut self, lines: &[&str]) {
        for l in lines {
            self.line(10.0, false, l);
        }
        self.y += 6.0;
    }
    fn row(&mut self, label: &str, values: &[&str]) {
        self.y += 13.0;
        let y = self.y;
        let page = self.pdf.last_page();
        page.text(72.0, y, 9.0, false, label);
        for (i, v) in values.iter().enumerate() {
            page.text(380.0 + 70.0 * i as f32, y, 9.0, false, v);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quarterly = args.iter().any(|a| a == "--quarterly");
    let out = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| {
            if quarterly {
                "northwind-2025-q1-10q.pdf".into()
            } else {
                "northwind-2024-annual-report.pdf".into()
            }
        });
    let w = if quarterly {
        quarterly_report()
    } else {
        annual_report()
    };
    std::fs::write(&out, w.pdf.to_bytes()).unwrap_or_else(|e| {
        eprintln!("error: cannot write `{out}`: {e}");
        std::process::exit(1);
    });
    eprintln!("wrote {out}");
}

/// The first quarter of 2025 on Form 10-Q.
fn quarterly_report() -> Writer {
    let mut w = Writer {
        pdf: PdfBuilder::new(),
        y: 0.0,
        header: "Northwind Tools, Inc. | Quarterly Report on Form 10-Q, First Quarter 2025",
    };
    w.page();
    w.line(
        12.0,
        true,
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
    );
    w.line(16.0, true, "FORM 10-Q");
    w.para(&[
        "QUARTERLY REPORT PURSUANT TO SECTION 13 OF THE SECURITIES EXCHANGE ACT OF 1934",
        "For the quarterly period ended March 31, 2025",
    ]);
    w.line(14.0, true, "NORTHWIND TOOLS, INC.");
    w.page();
    w.heading(13.0, "PART I. FINANCIAL INFORMATION");
    w.heading(12.0, "Item 2. Management's Discussion and Analysis");
    w.heading(11.0, "Results of Operations");
    w.para(&[
        "Net sales were $318 million in the first quarter of 2025, up 4.9% from $303 million.",
        "Operating income was $44 million, compared with $41 million a year earlier.",
        "Northwind Tools opened a service center in Boise, Idaho in February 2025.",
    ]);
    w.heading(11.0, "Liquidity and Capital Resources");
    w.para(&[
        "Capital expenditures were $21 million in the first quarter of 2025.",
        "We ended the quarter with $198 million of cash and no borrowings.",
    ]);
    w
}

/// The annual report for 2024 on Form 10-K.
fn annual_report() -> Writer {
    let mut w = Writer {
        pdf: PdfBuilder::new(),
        y: 0.0,
        header: "Northwind Tools, Inc. | 2024 Annual Report on Form 10-K",
    };
    w.page();
    w.line(
        12.0,
        true,
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
    );
    w.line(16.0, true, "FORM 10-K");
    w.para(&[
        "ANNUAL REPORT PURSUANT TO SECTION 13 OF THE SECURITIES EXCHANGE ACT OF 1934",
        "For the fiscal year ended December 31, 2024",
    ]);
    w.line(14.0, true, "NORTHWIND TOOLS, INC.");
    w.para(&["A Delaware corporation. Headquarters: 400 Harbor Way, Portland, Oregon."]);
    w.page();
    w.line(12.0, true, "TABLE OF CONTENTS");
    for (entry, page) in [
        ("PART I", ""),
        ("Item 1. Business", "3"),
        ("Item 1A. Risk Factors", "3"),
        ("Item 2. Properties", "3"),
        ("PART II", ""),
        ("Item 7. Management's Discussion and Analysis", "4"),
        ("Item 8. Financial Statements and Supplementary Data", "5"),
    ] {
        w.line(10.0, page.is_empty(), format!("{entry} {page}").trim());
    }
    w.page();
    w.heading(13.0, "PART I");
    w.heading(12.0, "Item 1. Business");
    w.para(&[
        "Northwind Tools designs and sells cordless power tools for professional builders.",
        "We employed 4,250 people at December 31, 2024 and sell in 31 countries.",
        "Our largest customer, Harbor Supply Co., accounted for 14% of net sales in 2024.",
    ]);
    w.heading(12.0, "Item 1A. Risk Factors");
    w.para(&[
        "Our battery cells come from two suppliers; a disruption could delay shipments.",
        "Housing starts drive demand; see Item 7 for how they affected 2024 sales.",
    ]);
    w.heading(12.0, "Item 2. Properties");
    w.para(&["We own a 310,000 square foot plant in Salem, Oregon and lease three warehouses."]);
    w.page();
    w.heading(13.0, "PART II");
    w.heading(12.0, "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations");
    w.heading(11.0, "Results of Operations");
    w.para(&[
        "Net sales were $1,284 million in 2024, up 6.2% from $1,209 million in 2023.",
        "Gross margin improved to 38.5% from 36.9% as battery costs fell.",
        "Operating income was $187 million, compared with $162 million in 2023.",
    ]);
    w.heading(11.0, "Liquidity and Capital Resources");
    w.para(&[
        "Capital expenditures were $96 million in 2024, mainly for the new Salem battery line.",
        "We ended the year with $212 million of cash and no borrowings under our credit facility.",
    ]);
    w.page();
    w.heading(12.0, "Item 8. Financial Statements and Supplementary Data");
    w.heading(11.0, "Consolidated Statements of Cash Flows");
    w.row("(In millions)", &["2024", "2023", "2022"]);
    w.row("Net income", &["141", "118", "97"]);
    w.row("Depreciation and amortization", &["58", "54", "51"]);
    w.row(
        "Net cash provided by operating activities",
        &["203", "171", "149"],
    );
    w.row(
        "Purchases of property, plant and equipment",
        &["(96)", "(71)", "(64)"],
    );
    w.row(
        "Net cash used in investing activities",
        &["(104)", "(79)", "(70)"],
    );
    w.row("Dividends paid", &["(38)", "(35)", "(32)"]);
    w.row(
        "Cash and cash equivalents at end of year",
        &["212", "181", "160"],
    );
    w.y += 20.0;
    w.heading(11.0, "Note 5. Income Taxes");
    w.para(&["The effective tax rate was 22.4% in 2024 and 23.1% in 2023."]);
    w
}
