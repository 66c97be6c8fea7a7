//! The financial metric lexicon: the one list of metrics that questions ask for and sentences
//! state, with the line-item words filings use for each and the statement it is read from.
//! Retrieval reads a question's metric from it; the entity graph reads the metrics whose value
//! a sentence states (`has_value`, `grew_by`). Standard US GAAP line-item vocabulary, not
//! tuned to any question set.

/// A primary financial statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statement {
    /// Statement of cash flows.
    CashFlows,
    /// Balance sheet / statement of financial position.
    BalanceSheet,
    /// Income statement / statement of operations / earnings.
    Income,
}

impl Statement {
    /// Lowercase phrases that title this statement in filings (matched against the first
    /// lines of a page and against node titles).
    #[must_use]
    pub fn title_phrases(self) -> &'static [&'static str] {
        match self {
            Statement::CashFlows => &["cash flows", "cash flow"],
            Statement::BalanceSheet => {
                &["balance sheet", "financial position", "financial condition"]
            }
            Statement::Income => &[
                "statements of operations",
                "statement of operations",
                "statements of income",
                "statement of income",
                "income statement",
                "statements of earnings",
                "statement of earnings",
                "results of operations",
            ],
        }
    }
}

/// One metric of the lexicon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metric {
    /// Lowercase phrases that name the metric in a question, matched as substrings (so
    /// `inventor` matches "inventories"); empty when questions name it by its line items.
    pub question_phrases: &'static [&'static str],
    /// Lowercase phrases that name the metric in a sentence stating its value ("net sales of
    /// $32.8 billion"); the graph names the metric entity by the phrase found. Empty for
    /// metrics that prose rarely states as such.
    pub prose_phrases: &'static [&'static str],
    /// The line-item words filings use for it (space-separated, as the tokenizer reads them).
    pub line_items: &'static str,
    /// The statement it is read from, when one is implied.
    pub statement: Option<Statement>,
    /// Whether a figure answers it (a quantity), as opposed to a description.
    pub quantity: bool,
    /// Whether its value is computed from several line items (a margin, a ratio, EBITDA):
    /// its line-item words are inputs to find, not other names of it.
    pub computed: bool,
}

/// The lexicon, in the order questions are matched against it (the first metric that implies
/// a statement gives the question's statement).
#[rustfmt::skip]
pub const METRICS: &[Metric] = &[
    Metric { question_phrases: &["capital expenditure", "capex"], prose_phrases: &["capital expenditures"], line_items: "purchases property plant equipment additions capital expenditures", statement: Some(Statement::CashFlows), quantity: true, computed: false },
    Metric { question_phrases: &["ppne", "pp&e", "property, plant"], prose_phrases: &[], line_items: "property plant equipment net", statement: Some(Statement::BalanceSheet), quantity: true, computed: false },
    Metric { question_phrases: &["cogs", "cost of goods"], prose_phrases: &[], line_items: "cost revenue sales goods sold", statement: Some(Statement::Income), quantity: true, computed: false },
    Metric { question_phrases: &["gross margin"], prose_phrases: &["gross margin"], line_items: "gross profit margin net sales revenue cost", statement: Some(Statement::Income), quantity: true, computed: true },
    Metric { question_phrases: &["operating margin"], prose_phrases: &["operating margin"], line_items: "operating income profit net sales revenue", statement: Some(Statement::Income), quantity: true, computed: true },
    Metric { question_phrases: &["net profit margin"], prose_phrases: &[], line_items: "net income earnings net sales revenue", statement: Some(Statement::Income), quantity: true, computed: true },
    Metric { question_phrases: &["net income"], prose_phrases: &["net income", "net earnings"], line_items: "net income earnings", statement: Some(Statement::Income), quantity: true, computed: false },
    Metric { question_phrases: &["revenue"], prose_phrases: &["net sales", "revenue", "revenues"], line_items: "revenue net sales", statement: Some(Statement::Income), quantity: true, computed: false },
    Metric { question_phrases: &["ebitda"], prose_phrases: &["adjusted ebitda", "ebitda"], line_items: "ebitda adjusted earnings depreciation amortization", statement: None, quantity: true, computed: true },
    Metric { question_phrases: &["effective tax"], prose_phrases: &["effective tax rate"], line_items: "effective tax rate provision income taxes before", statement: Some(Statement::Income), quantity: true, computed: true },
    Metric { question_phrases: &["capital intensive", "capital-intensive"], prose_phrases: &[], line_items: "capital expenditures property plant equipment net total assets", statement: None, quantity: false, computed: true },
    Metric { question_phrases: &["cyclical"], prose_phrases: &[], line_items: "cyclical cycle economic conditions demand", statement: None, quantity: false, computed: false },
    Metric { question_phrases: &["quick ratio"], prose_phrases: &[], line_items: "current assets cash equivalents receivable inventories current liabilities", statement: Some(Statement::BalanceSheet), quantity: true, computed: true },
    Metric { question_phrases: &["current ratio"], prose_phrases: &[], line_items: "total current assets total current liabilities", statement: Some(Statement::BalanceSheet), quantity: true, computed: true },
    Metric { question_phrases: &["current liabilities"], prose_phrases: &[], line_items: "total current liabilities", statement: Some(Statement::BalanceSheet), quantity: true, computed: false },
    Metric { question_phrases: &["current assets"], prose_phrases: &[], line_items: "total current assets", statement: Some(Statement::BalanceSheet), quantity: true, computed: false },
    Metric { question_phrases: &["inventor"], prose_phrases: &[], line_items: "merchandise inventories", statement: Some(Statement::BalanceSheet), quantity: true, computed: false },
    Metric { question_phrases: &["debt"], prose_phrases: &["total debt"], line_items: "long-term debt borrowings notes current portion", statement: Some(Statement::BalanceSheet), quantity: true, computed: false },
    Metric { question_phrases: &["cash and cash equivalents"], prose_phrases: &["cash and cash equivalents"], line_items: "cash equivalents", statement: Some(Statement::BalanceSheet), quantity: true, computed: false },
    Metric { question_phrases: &["dividend"], prose_phrases: &[], line_items: "dividends paid per share", statement: None, quantity: true, computed: false },
    Metric { question_phrases: &["share repurchase", "stock repurchase", "buyback"], prose_phrases: &[], line_items: "repurchases common stock shares repurchased", statement: None, quantity: true, computed: false },
    Metric { question_phrases: &["acquisition"], prose_phrases: &[], line_items: "acquired acquisitions business combinations purchase price", statement: None, quantity: false, computed: false },
    Metric { question_phrases: &["restructuring"], prose_phrases: &[], line_items: "restructuring liability charges employee", statement: None, quantity: false, computed: false },
    Metric { question_phrases: &["operating activities"], prose_phrases: &[], line_items: "net cash provided operating activities", statement: Some(Statement::CashFlows), quantity: true, computed: false },
    Metric { question_phrases: &["investing activities"], prose_phrases: &[], line_items: "net cash used investing activities", statement: Some(Statement::CashFlows), quantity: true, computed: false },
    Metric { question_phrases: &["financing activities"], prose_phrases: &[], line_items: "net cash used financing activities", statement: Some(Statement::CashFlows), quantity: true, computed: false },
    Metric { question_phrases: &["segment"], prose_phrases: &[], line_items: "segment sales organic growth", statement: None, quantity: false, computed: false },
    Metric { question_phrases: &["legal", "lawsuit"], prose_phrases: &[], line_items: "legal proceedings litigation lawsuits", statement: None, quantity: false, computed: false },
    Metric { question_phrases: &["customer"], prose_phrases: &[], line_items: "customers revenue concentration", statement: None, quantity: false, computed: false },
    Metric { question_phrases: &["employee", "workforce", "headcount"], prose_phrases: &[], line_items: "employees workforce headcount", statement: None, quantity: true, computed: false },
    Metric { question_phrases: &["liability cap"], prose_phrases: &["liability cap", "aggregate liability"], line_items: "limitation liability aggregate exceed", statement: None, quantity: true, computed: false },
    Metric { question_phrases: &["terminate"], prose_phrases: &[], line_items: "termination notice terminate", statement: None, quantity: false, computed: false },
    Metric { question_phrases: &["governing law"], prose_phrases: &[], line_items: "governed laws state jurisdiction", statement: None, quantity: false, computed: false },
    Metric { question_phrases: &[], prose_phrases: &["operating income"], line_items: "operating income", statement: Some(Statement::Income), quantity: true, computed: false },
    Metric { question_phrases: &[], prose_phrases: &["gross profit"], line_items: "gross profit", statement: Some(Statement::Income), quantity: true, computed: false },
    Metric { question_phrases: &[], prose_phrases: &["free cash flow"], line_items: "free cash flow", statement: None, quantity: true, computed: true },
    Metric { question_phrases: &[], prose_phrases: &["diluted earnings per share"], line_items: "diluted earnings per share", statement: Some(Statement::Income), quantity: true, computed: false },
];

/// A ratio or margin computed from statement rows: its names in a question, the numerator
/// and denominator row labels (each a list of label beginnings, lowercase, in order of
/// preference), the numerator's subtrahend when it is a difference (quick ratio), its addends
/// when it is a sum (EBITDA), and whether the result is a percentage. Standard definitions
/// (e.g. CFA Institute, *Financial Reporting and Analysis*), not tuned to any question set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formula {
    /// The names a question uses for it, lowercase.
    pub names: &'static [&'static str],
    /// The numerator's row labels.
    pub numerator: &'static [&'static str],
    /// Rows subtracted from the numerator (empty when none).
    pub minus: &'static [&'static str],
    /// Rows added to the numerator (empty when none).
    pub plus: &'static [&'static str],
    /// The denominator's row labels.
    pub denominator: &'static [&'static str],
    /// Whether the result is a percentage (× 100).
    pub percent: bool,
}

impl Formula {
    /// A result as the answer states it: `5.4%` for a percentage, `0.69` for a ratio.
    #[must_use]
    pub fn show(&self, value: f64) -> String {
        if self.percent {
            format!("{value:.1}%")
        } else {
            format!("{value:.2}")
        }
    }
}

/// Row labels of revenue, in order of preference.
pub const REVENUE: &[&str] = &[
    "total net revenue",
    "total revenues",
    "total revenue",
    "net revenues",
    "net revenue",
    "revenues",
    "revenue",
    "total net sales",
    "net sales",
    "sales",
];

/// Row labels of operating income, in order of preference.
pub const OPERATING_INCOME: &[&str] = &[
    "operating income",
    "income from operations",
    "operating profit",
    "earnings from operations",
    "total operating income",
];

/// The formulas the reader computes, matched in this order against a question.
pub const FORMULAS: &[Formula] = &[
    Formula {
        // EBITDA (unadjusted) = operating income + depreciation and amortization (the cash
        // flow statement's add-back), as a share of revenue.
        names: &["ebitda margin", "ebitda % margin"],
        numerator: OPERATING_INCOME,
        minus: &[],
        plus: &[
            "depreciation and amortization",
            "depreciation, depletion and amortization",
            "depreciation, amortization",
            "depreciation",
        ],
        denominator: REVENUE,
        percent: true,
    },
    Formula {
        names: &["current ratio"],
        numerator: &["total current assets"],
        minus: &[],
        plus: &[],
        denominator: &["total current liabilities"],
        percent: false,
    },
    Formula {
        names: &["quick ratio", "acid-test", "acid test"],
        numerator: &["total current assets"],
        minus: &[
            "total inventories",
            "inventories",
            "merchandise inventories",
            "inventory",
        ],
        plus: &[],
        denominator: &["total current liabilities"],
        percent: false,
    },
    Formula {
        names: &["gross margin", "gross profit margin"],
        numerator: &["gross profit", "gross margin"],
        // (a "gross margin %" row is skipped: rows with a percentage are not inputs)
        minus: &[],
        plus: &[],
        denominator: REVENUE,
        percent: true,
    },
    Formula {
        names: &["operating margin", "operating profit margin"],
        numerator: OPERATING_INCOME,
        minus: &[],
        plus: &[],
        denominator: REVENUE,
        percent: true,
    },
    Formula {
        names: &[
            "net profit margin",
            "net margin",
            "profit margin",
            "net income margin",
        ],
        numerator: &[
            "net income",
            "net earnings",
            "net income attributable",
            "net earnings attributable",
            "net income from continuing",
            "net earnings from continuing",
        ],
        minus: &[],
        plus: &[],
        denominator: REVENUE,
        percent: true,
    },
    Formula {
        names: &["debt to equity", "debt-to-equity"],
        numerator: &["total liabilities"],
        minus: &[],
        plus: &[],
        denominator: &["total equity", "total shareholders", "total stockholders"],
        percent: false,
    },
];

/// The formula named by `question` ("quick ratio", "gross margin"), if any.
///
/// ```
/// let f = nanoindex_core::metrics::formula_named("What is the FY2022 quick ratio?").unwrap();
/// assert_eq!(f.names[0], "quick ratio");
/// ```
#[must_use]
pub fn formula_named(question: &str) -> Option<&'static Formula> {
    let lower = question.to_lowercase();
    FORMULAS
        .iter()
        .find(|f| f.names.iter().any(|n| lower.contains(n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_named_and_phrases_are_lowercase() {
        for m in METRICS {
            assert!(
                !(m.question_phrases.is_empty() && m.prose_phrases.is_empty()),
                "{m:?}"
            );
            for p in m.question_phrases.iter().chain(m.prose_phrases) {
                assert_eq!(*p, p.to_lowercase(), "{m:?}");
            }
            assert!(!m.line_items.trim().is_empty(), "{m:?}");
        }
    }
}
