//! Question analysis: the content terms of a question, financial synonyms of its metric, the
//! financial statement it names or implies, and the fiscal years it asks about.

use crate::analysis::{is_year, is_year_word, tokenize};
pub use nanoindex_core::metrics::Statement;
use nanoindex_core::metrics::METRICS;

/// Words that describe how to answer rather than what to find ("give a response ... in
/// USD millions ... round to one decimal"); dropped from the query terms.
const QUESTION_BOILERPLATE: &[&str] = &[
    "give",
    "response",
    "answer",
    "question",
    "based",
    "basing",
    "using",
    "use",
    "information",
    "detail",
    "shown",
    "relying",
    "rely",
    "primarily",
    "provided",
    "provide",
    "please",
    "usd",
    "unit",
    "round",
    "decimal",
    "place",
    "state",
    "explain",
    "assume",
    "analyst",
    "public",
    "equity",
    "following",
    "outlined",
    "agreement",
    "judgment",
    "calculate",
    "compute",
    "help",
    "metric",
    "financial",
    "need",
    "want",
    "only",
    "within",
    "here",
    "mainly",
    "one",
    "two",
    "amount",
    "total",
    "much",
    "many",
    "value",
    "figure",
    "reported",
    "report",
    "number",
    "percent",
    "percentage",
    "million",
    "billion",
    "thousand",
    "useful",
    "relevant",
    "like",
    "company",
    "period",
    "year",
    "end",
    "fy",
    "q1",
    "q2",
    "q3",
    "q4",
    "us",
    "them",
    "they",
];

/// Phrases naming a statement in a question.
const STATEMENT_NAMES: &[(&str, Statement)] = &[
    ("cash flow", Statement::CashFlows),
    ("balance sheet", Statement::BalanceSheet),
    ("financial position", Statement::BalanceSheet),
    ("income statement", Statement::Income),
    ("statement of income", Statement::Income),
    ("statement of operations", Statement::Income),
    ("p&l", Statement::Income),
    ("profit and loss", Statement::Income),
];

/// What a question asks for, in retrieval terms.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueryAnalysis {
    /// The question as given.
    pub question: String,
    /// Content terms of the question (analysed as documents are, boilerplate removed).
    pub terms: Vec<String>,
    /// Extra terms from the financial lexicon (line-item words of the metric asked for).
    pub expansions: Vec<String>,
    /// The expansions that are other names of the line item asked for ("purchases of
    /// property, plant and equipment" for capital expenditure), as opposed to the inputs of a
    /// measure computed from several line items ([`Metric::computed`](nanoindex_core::metrics::Metric::computed): a margin, a ratio,
    /// EBITDA): a row labelled "Depreciation and amortization" is no answer to EBITDA.
    pub alternatives: Vec<String>,
    /// The statement the question names or its metric implies.
    pub statement: Option<Statement>,
    /// Fiscal years mentioned (`FY2018`, `2023`), in order of mention.
    pub years: Vec<u32>,
    /// True when the question asks for a quantity (a metric, "how much", a ratio).
    pub wants_number: bool,
}

impl QueryAnalysis {
    /// Analyses `question`.
    ///
    /// ```
    /// use nanoindex_retrieve::query::{QueryAnalysis, Statement};
    /// let q = QueryAnalysis::new("What is the FY2018 capital expenditure amount (in USD millions) for 3M?");
    /// assert_eq!(q.years, [2018]);
    /// assert_eq!(q.statement, Some(Statement::CashFlows));
    /// assert!(q.expansions.contains(&"purchase".to_string()));
    /// ```
    #[must_use]
    pub fn new(question: &str) -> Self {
        let lower = question.to_lowercase();
        let mut terms = Vec::new();
        for term in tokenize(question) {
            let is_year = is_year_word(&term);
            if QUESTION_BOILERPLATE.contains(&term.as_str())
                || (term.starts_with("fy") && term.len() > 2 && !is_year)
                || terms.contains(&term)
            {
                continue;
            }
            terms.push(term);
        }
        let mut statement = STATEMENT_NAMES
            .iter()
            .find(|(name, _)| lower.contains(name))
            .map(|(_, s)| *s);
        let mut expansions: Vec<String> = Vec::new();
        let mut alternatives: Vec<String> = Vec::new();
        let mut metric_found = false;
        for metric in METRICS {
            if metric.question_phrases.iter().any(|p| lower.contains(p)) {
                metric_found |= metric.quantity;
                for w in tokenize(metric.line_items) {
                    if !metric.computed && !terms.contains(&w) && !alternatives.contains(&w) {
                        alternatives.push(w.clone());
                    }
                    if !terms.contains(&w) && !expansions.contains(&w) {
                        expansions.push(w);
                    }
                }
                if statement.is_none() {
                    statement = metric.statement;
                }
            }
        }
        let mut years = Vec::new();
        for term in tokenize(question) {
            if let Ok(y) = term.parse::<u32>() {
                if is_year(y) && !years.contains(&y) {
                    years.push(y);
                }
            }
        }
        // Questions that ask why, whether or which want words, not one figure.
        let explanatory = [
            "what drove",
            "why",
            "is ",
            "are ",
            "has ",
            "have ",
            "does ",
            "do ",
            "did ",
            "which ",
            "who ",
            "what are",
            "among ",
            "if ",
            "was there",
            "were there",
        ]
        .iter()
        .any(|p| lower.trim_start().starts_with(p));
        let asks_quantity = [
            "how much", "how many", "amount", "in usd", "million", "percent",
        ]
        .iter()
        .any(|p| lower.contains(p));
        let wants_number = asks_quantity || (metric_found && !explanatory);
        QueryAnalysis {
            question: question.to_string(),
            terms,
            expansions,
            alternatives,
            statement,
            years,
            wants_number,
        }
    }

    /// All terms to search for: the question's own, then the expansions.
    pub fn all_terms(&self) -> impl Iterator<Item = &String> {
        self.terms.iter().chain(self.expansions.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boilerplate_is_dropped_and_years_kept() {
        let q = QueryAnalysis::new(
            "What is the year end FY2019 total amount of inventories for Best Buy? Answer in \
             USD millions. Base your judgments on the information provided primarily in the \
             balance sheet.",
        );
        assert_eq!(q.years, [2019]);
        assert_eq!(q.statement, Some(Statement::BalanceSheet));
        assert!(q.terms.contains(&"inventory".to_string()));
        assert!(q.terms.contains(&"best".to_string()));
        assert!(!q.terms.contains(&"usd".to_string()));
        assert!(!q.terms.contains(&"fy2019".to_string()));
        assert!(q.wants_number);
    }

    #[test]
    fn narrative_question_has_no_statement() {
        let q = QueryAnalysis::new("Is Boeing's business subject to cyclicality?");
        assert_eq!(q.statement, None);
        assert_eq!(q.terms, ["boeing", "business", "subject", "cyclicality"]);
        assert!(!q.wants_number);
        let why = QueryAnalysis::new("What drove operating margin change as of FY2022 for 3M?");
        assert!(!why.wants_number);
        let ebitda = QueryAnalysis::new("What Was AMCOR's Adjusted Non GAAP EBITDA for FY 2023");
        assert!(ebitda.wants_number);
    }
}
