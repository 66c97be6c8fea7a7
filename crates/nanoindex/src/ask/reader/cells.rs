//! The reader's candidates from table cells: the row whose label matches the question's
//! metric, in the column of the asked year and period length, with the statement's scale
//! ("in millions") and currency, and the figure written as a person would ("$1,577 million").

use super::*;

/// The scale a statement page states for its figures ("in millions", "(thousands)"),
/// searched in the lines above `line` on its page, nearest first, then in the whole page,
/// then in the titles of the page's sections; for a row of a tree table that began on an
/// earlier page, then on that page.
pub(in crate::ask) fn scale_of(
    index: &RetrievalIndex,
    page: u32,
    line: usize,
) -> Option<&'static str> {
    scale_on_page(index, page, line).or_else(|| {
        let first = table_first_page(index, line).filter(|&p| p != page)?;
        scale_on_page(index, first, usize::MAX)
    })
}

/// The first page of the tree table whose row line `line` is.
fn table_first_page(index: &RetrievalIndex, line: usize) -> Option<u32> {
    index.table_row(line).map(|(t, _)| t.table.page)
}

/// [`scale_of`] on one page (`line` not on it: the whole page).
fn scale_on_page(index: &RetrievalIndex, page: u32, line: usize) -> Option<&'static str> {
    let ids = index.page_line_ids(page);
    let pos = ids.iter().position(|&i| i == line).unwrap_or(ids.len());
    let lines = index.lines();
    let find = |text: &str| -> Option<&'static str> {
        let lower = text.to_lowercase();
        for (words, scale) in [
            (
                [
                    "in millions",
                    "(millions",
                    "millions of",
                    "in $ millions",
                    "$ in millions",
                ],
                "million",
            ),
            (
                [
                    "in thousands",
                    "(thousands",
                    "thousands of",
                    "in $ thousands",
                    "$ in thousands",
                ],
                "thousand",
            ),
            (
                [
                    "in billions",
                    "(billions",
                    "billions of",
                    "in $ billions",
                    "$ in billions",
                ],
                "billion",
            ),
        ] {
            if words.iter().any(|w| lower.contains(w)) {
                return Some(scale);
            }
        }
        None
    };
    // A statement's "(In millions)" under its title can be part of the title (a heading
    // node), so the titles of the page's passages are read last.
    ids[..pos]
        .iter()
        .rev()
        .find_map(|&i| find(&lines[i].text))
        .or_else(|| ids[pos..].iter().find_map(|&i| find(&lines[i].text)))
        .or_else(|| {
            ids.iter()
                .find_map(|&i| find(&index.passages()[lines[i].passage].title_path))
        })
}

/// A table row's label: its text before the first figure, without a trailing `$`, `(`,
/// dash or colon.
pub(super) fn row_label(before_first_figure: &str) -> &str {
    before_first_figure
        .trim_end_matches(['(', '$', ' ', '-', ':', '—', '€', '£', '₹'])
        .trim()
}

/// Money signs and words: dollars, and the other currencies filings use.
pub(super) fn states_dollars(t: &str) -> bool {
    t.contains('$') || t.to_lowercase().contains("dollars") || t.contains("USD")
}

pub(super) fn states_other_currency(t: &str) -> bool {
    ["€", "£", "₹", "INR", "Rs.", "EUR", "GBP", "rupees", "euros"]
        .iter()
        .any(|c| t.contains(c))
}

/// Whether `page` states dollars (`Some(true)`), only another currency (`Some(false)`), or
/// no currency at all (`None`).
pub(super) fn page_dollars(index: &RetrievalIndex, page: u32) -> Option<bool> {
    let (mut dollars, mut other) = (false, false);
    for &i in index.page_line_ids(page) {
        let t = index.lines()[i].text.as_str();
        dollars |= states_dollars(t);
        other |= states_other_currency(t);
    }
    (dollars || other).then_some(dollars)
}

/// Whether the document's dollar lines outnumber its lines in other currencies: the
/// currency of a statement page that names none (rows without `$` in a filing that has them
/// elsewhere).
pub(super) fn document_dollars(index: &RetrievalIndex) -> bool {
    let (mut d, mut o) = (0usize, 0usize);
    for l in index.lines() {
        d += usize::from(states_dollars(&l.text));
        o += usize::from(states_other_currency(&l.text));
    }
    d > o
}

/// A figure with its currency and scale: `$1,577 million`; the written cell's sign is kept
/// apart (the caller says "shown as (1,577)").
#[must_use]
pub fn format_figure(written: &str, dollars: bool, scale: Option<&str>, percent: bool) -> String {
    let digits = written
        .trim()
        .trim_start_matches(['(', '-', '$', ' '])
        .trim_end_matches([')', ' ']);
    if percent || digits.ends_with('%') {
        return digits.to_string();
    }
    let mut out = String::new();
    if dollars {
        out.push('$');
    }
    out.push_str(digits);
    if let Some(s) = scale {
        out.push(' ');
        out.push_str(s);
    }
    out
}

/// The question's years as the columns of the statements read date them, when the
/// document's fiscal years are dated a calendar year earlier; `None` when the years are read
/// as asked.
///
/// A company whose fiscal year ends early in the next calendar year (NVIDIA's fiscal 2024
/// ends on 28 January 2024) dates the columns of that year's quarters in the year before its
/// label: "the second quarter of fiscal year 2024" is the column "Three Months Ended Jul 30,
/// 2023", and its fiscal 2023 the column dated 2022. The offset is decided once, on the
/// latest fiscal year Y the question names: the comparative tables read (rows with columns
/// of two or more years; a schedule of future payments by fiscal year has one) have no
/// column dated Y and one dated Y − 1, and the text read reports on a quarter, half or
/// months "of fiscal (year) Y" — a period of fiscal Y that has ended, as a 10-Q's discussion
/// of its own quarter does; a sentence that looks ahead ("we expect … in the first quarter of
/// fiscal 2024") does not count. Then every year the question names is read a year earlier
/// ("fiscal 2024 against fiscal 2023" reads 2023 against 2022). A question about a year the
/// columns do date is read as asked, so a June year-end company's fiscal 2023 stays 2023
/// whatever its release says of fiscal 2024.
pub(super) fn fiscal_column_years(
    index: &RetrievalIndex,
    units: &[Unit],
    query: &QueryAnalysis,
) -> Option<Vec<u32>> {
    static ENDED_PERIOD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(?:quarter|half|months)\b[^.]{0,40}?\bof fiscal (?:year )?((?:19|20)\d\d)\b")
            .expect("valid regex")
    });
    const AHEAD: &[&str] = &[
        "expect",
        "will ",
        "anticipate",
        "plan",
        "outlook",
        "guidance",
    ];
    let question = query.question.to_lowercase();
    let fiscal = question.contains("fiscal")
        || question.split(|c: char| !c.is_alphanumeric()).any(|w| {
            w.len() > 2 && w.starts_with("fy") && w[2..].bytes().all(|b| b.is_ascii_digit())
        });
    if !fiscal || query.years.is_empty() {
        return None;
    }
    let dated: HashSet<u32> = units
        .iter()
        .filter(|u| u.row)
        .map(|u| index.column_years(u.first))
        .filter(|years| years.len() >= 2)
        .flatten()
        .collect();
    let latest = query.years.iter().copied().max()?;
    if dated.contains(&latest) || !dated.contains(&latest.saturating_sub(1)) {
        return None;
    }
    let reports_latest = units
        .iter()
        .filter(|u| !u.row)
        .map(|u| u.text.to_lowercase())
        .filter(|t| !AHEAD.iter().any(|w| t.contains(w)))
        .any(|t| {
            ENDED_PERIOD
                .captures_iter(&t)
                .any(|c| c[1].parse::<u32>() == Ok(latest))
        });
    reports_latest.then(|| query.years.iter().map(|y| y.saturating_sub(1)).collect())
}

/// Table cells: rows whose label matches the question, in the column of the question's
/// first year (else the first column). A fiscal year the columns date a calendar year
/// earlier is mapped by the caller ([`fiscal_column_years`]).
pub(in crate::ask) fn cell_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    query: &QueryAnalysis,
    weights: &[(String, f32)],
    kind: AnswerType,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    // Words that name the statement or the source are not words of a row label.
    const NOT_LABEL: &[&str] = &[
        "according",
        "balance",
        "sheet",
        "statement",
        "statements",
        "report",
        "reported",
        "year",
        "end",
        "fiscal",
    ];
    let not_label: HashSet<String> = NOT_LABEL.iter().map(|w| stem(w)).collect();
    let own_terms: HashSet<String> = query.terms.iter().map(|t| stem(t)).collect();
    let label_weights: Vec<(String, f32)> = weights
        .iter()
        .filter(|(t, _)| !not_label.contains(t) && !is_period_term(t) && own_terms.contains(t))
        .cloned()
        .collect();
    // The metric's line-item words ("purchases of property, plant and equipment" for capital
    // expenditure) are alternatives to the question's words, not words it must all have;
    // words of every line item ("net", "total", "other") say nothing of which one.
    const GENERIC: &[&str] = &["net", "total", "other", "and", "of", "less", "gross"];
    let expansions: HashSet<String> = query
        .alternatives
        .iter()
        .map(|t| stem(t))
        .filter(|t| !GENERIC.contains(&t.as_str()))
        .collect();
    let wants_total = query
        .question
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "total");
    // The document's currency, counted once and only when a page names none.
    let doc_dollars = std::cell::OnceCell::new();
    for unit in units.iter().filter(|u| u.row) {
        let Some(first_figure) = numbers_in(&unit.text).first().map(|n| n.range.start) else {
            continue;
        };
        let label = row_label(&unit.text[..first_figure]).to_string();
        if !label.chars().any(char::is_alphabetic) {
            continue;
        }
        let label_terms = stems(&label);
        // The share of the label's specific words that spell the metric ("property, plant
        // and equipment" of "Property, plant and equipment — net"), and the question's own
        // words in it ("net"), which tell two such rows apart.
        let specific = label_terms
            .iter()
            .filter(|t| !GENERIC.contains(&t.as_str()))
            .count();
        let expansion_share = label_terms
            .iter()
            .filter(|t| expansions.contains(*t))
            .count() as f32
            / specific.max(1) as f32;
        // The label's words, or (at the context weight) with its group label's.
        let own = coverage(&label_weights, &label_terms).max(
            CONTEXT_WEIGHT
                * coverage_by(&label_weights, |t| {
                    label_terms.contains(t) || unit.context.contains(t)
                }),
        );
        let cov = if expansion_share > 0.0 {
            own.max(0.8 * expansion_share + 0.2 * own)
        } else {
            own
        };
        if cov <= 0.0 {
            continue;
        }
        // A label that says more than the question asks names another line item ("Other
        // income (expense), net" for "net income").
        // "Total" is no index term (a stop word), yet it tells "Total current liabilities"
        // from "Current content liabilities": it counts when the question says it.
        let is_total = |t: &String| t == "total";
        let precision = label_terms
            .iter()
            .filter(|t| {
                label_weights.iter().any(|(w, _)| w == *t)
                    || expansions.contains(*t)
                    || (wants_total && is_total(t))
            })
            .count() as f32
            / label_terms.len().max(1) as f32;
        let cov = match (wants_total, label_terms.iter().any(is_total)) {
            (true, false) => 0.85 * cov,
            (false, true) => 0.95 * cov,
            _ => cov,
        };
        let years = input.index.column_years(unit.first);
        let year = query
            .years
            .iter()
            .copied()
            .find(|y| years.contains(y))
            .or_else(|| {
                query
                    .years
                    .is_empty()
                    .then(|| years.first().copied())
                    .flatten()
            });
        let Some(year) = year else { continue };
        let asked_length = asked_period_length(&query.question);
        let Some(read) = input.index.read_figure(
            unit.first,
            year,
            period_occurrence(&query.question),
            asked_length,
            &query.question,
        ) else {
            continue;
        };
        // A column that names what the question asks beside the row's label ("Americas" over
        // the net sales row of a table of regions) covers those words too, and so does the
        // stub head over the labels ("Net Sales (Millions)" over a row "Americas").
        let cov = if read.in_table {
            // A stub head that titles the statement ("Consolidated Statements of Income") says
            // nothing of the rows.
            let stub = if read.stub_head.to_lowercase().contains("statement") {
                ""
            } else {
                read.stub_head.as_str()
            };
            let head_terms = stems(&format!("{} {stub}", read.head));
            let named = coverage_by(&label_weights, |t| {
                head_terms.contains(t) && !label_terms.contains(t)
            });
            cov + 0.6 * named
        } else {
            cov
        };
        let cell = &read.cell;
        let percent_cell = cell.text.contains('%')
            || unit.text[unit
                .text
                .find(&cell.text)
                .map_or(0, |i| i + cell.text.len())..]
                .trim_start()
                .starts_with('%');
        // A percentage question reads percentage cells only; an amount question, no percentage.
        if (kind == AnswerType::Percentage) != percent_cell {
            continue;
        }
        let percent = percent_cell;
        // "Basic" and "Diluted" under "Net income per share:" are per-share figures too; under
        // "Weighted average shares used in per share computation:" they count shares.
        let lower_label = label.to_lowercase();
        let per_share = lower_label.contains("per share")
            || lower_label.contains("per diluted")
            || (["basic", "diluted"]
                .iter()
                .any(|w| lower_label.starts_with(w))
                && unit.context.iter().any(|t| t == "share")
                && !unit
                    .context
                    .iter()
                    .any(|t| ["weight", "averag", "outstand", "use"].contains(&t.as_str())));
        let scale = if percent || per_share {
            None
        } else {
            scale_of(input.index, unit.page_no, unit.first)
        };
        let dollars = !percent
            && page_dollars(input.index, unit.page_no)
                .or_else(|| {
                    table_first_page(input.index, unit.first)
                        .and_then(|p| page_dollars(input.index, p))
                })
                .unwrap_or_else(|| *doc_dollars.get_or_init(|| document_dollars(input.index)));
        let mut value = format_figure(&cell.text, dollars, scale, percent);
        if percent && !value.ends_with('%') {
            value.push('%');
        }
        if let Some(converted) = converted(&query.question, cell.value.abs(), scale) {
            value.push_str(&format!(" ({converted})"));
        }
        // The statement the question names; else any primary statement, where a line item's
        // authoritative figure stands (not a note's or a segment's breakdown).
        let statement = match query.statement {
            Some(st) => {
                if input.index.is_statement_page(unit.page_no, st) {
                    0.2
                } else {
                    0.0
                }
            }
            None => {
                let primary = [
                    Statement::Income,
                    Statement::BalanceSheet,
                    Statement::CashFlows,
                ]
                .into_iter()
                .any(|st| input.index.is_statement_page(unit.page_no, st));
                if primary {
                    0.1
                } else {
                    0.0
                }
            }
        };
        // Of two labels that both spell the metric, the one with fewer words the question
        // does not say ("Long-term debt" over "Current portion of long-term debt").
        let own_share = label_terms
            .iter()
            .filter(|t| label_weights.iter().any(|(w, _)| w == *t))
            .count() as f32
            / label_terms.len().max(1) as f32;
        // A primary statement's line item whose label spells the metric asked and nothing
        // else ("Total net sales" for "total net sales for the three months …") is the
        // authoritative figure, above prose that mentions the metric beside another figure
        // ("Total net sales include $3.3 billion of revenue recognized …").
        let authoritative = if statement > 0.0 && precision >= 1.0 && cov >= EXACT_LABEL {
            0.15
        } else {
            0.0
        };
        let score = 0.6 * cov * (0.5 + 0.5 * precision)
            + authoritative
            + 0.05 * own_share
            + 0.15 * page_rank(input, unit.page_no)
            + statement
            + if query.years.contains(&year) {
                0.1
            } else {
                0.0
            };
        // The period of the column read: its head in a tree table, else the lines over the
        // row's header line.
        let fit = match (read.in_table, asked_length, period_length(&read.head)) {
            (true, Some(asked), Some(column)) => {
                if asked == column {
                    0.05
                } else {
                    -0.1
                }
            }
            _ => header_period_fit(&query.question, input.index, unit.first),
        };
        let score = score + fit;
        let written = (cell.text.trim() != value).then(|| cell.text.clone());
        out.push(Candidate {
            value,
            written,
            quote: unit.text.clone(),
            page_no: unit.page_no,
            score,
            coverage: cov,
            cell: Some((label, year)),
            computation: None,
            cite: vec![Snippet {
                cells: read.boxes.clone(),
                ..snippet_of(unit, score, input.index.snippet(unit.first, 0.0).header)
            }],
        });
    }
    out
}

pub(super) use nanoindex_retrieve::table::{period_length, PeriodLength};

/// The length of period a question asks for: a quarter ("Q2", "second quarter", "three
/// months"), six or nine months, else a year when it names a fiscal or full year ("FY2023",
/// "fiscal 2023", "annual") — `None` when it says nothing of it.
pub(super) fn asked_period_length(question: &str) -> Option<PeriodLength> {
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let quarter = words
        .iter()
        .any(|w| matches!(*w, "q1" | "q2" | "q3" | "q4" | "quarter" | "quarterly"))
        || lower.contains("three months");
    if quarter {
        return Some(PeriodLength::Quarter);
    }
    if period_occurrence(question) == 1 {
        return Some(PeriodLength::Interim);
    }
    let year = words
        .iter()
        .any(|w| w.starts_with("fy") || matches!(*w, "fiscal" | "annual" | "annually" | "yearly"))
        || lower.contains("full year");
    year.then_some(PeriodLength::Year)
}

/// The length of period of the table a row (line `row`) belongs to: named by its column
/// header (the nearest line above on the page that names two or more years) or by one of
/// the three lines above that header ("Twelve Months Ended June 30," over "2022 2023").
pub(super) fn column_period(index: &RetrievalIndex, row: usize) -> Option<PeriodLength> {
    let lines = index.lines();
    let ids = index.page_line_ids(lines[row].page_no);
    let at = ids.iter().position(|&i| i == row)?;
    let header = ids[..at].iter().rposition(|&i| {
        nanoindex_retrieve::index::years_in(&lines[i].text).is_some_and(|y| y.len() >= 2)
    })?;
    ids[header.saturating_sub(3)..=header]
        .iter()
        .rev()
        .find_map(|&i| period_length(&lines[i].text))
}

/// Score adjustment of a table cell by its table's period against the question's: +0.05
/// when they agree, −0.1 when a question about a fiscal year reads a quarter's table (an
/// earnings release prints both, on different pages), 0 when either says nothing.
pub(super) fn header_period_fit(question: &str, index: &RetrievalIndex, row: usize) -> f32 {
    match (asked_period_length(question), column_period(index, row)) {
        (Some(asked), Some(read)) if asked == read => 0.05,
        (Some(_), Some(_)) => -0.1,
        _ => 0.0,
    }
}

/// Factor on a figure sentence's match when it lacks the metric's most specific word.
pub(super) const MISSING_SPECIFIC: f32 = 0.75;

/// "32% of our total workforce", "40 percent of the employees": a figure stated as a share of
/// a whole.
pub(super) static SHARE_OF_WHOLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b\d+(?:\.\d+)?\s?(?:%|percent)\s+of\s+(?:our|the|its|their)\s+(?:total\s+)?[a-z]+",
    )
    .expect("valid regex")
});

/// Coverage at which a row label spells the question's metric (see `cell_candidates`).
pub(super) const EXACT_LABEL: f32 = 0.9;

/// Which of a year's columns a question asks for when a table names the year twice: 1 for
/// the longer period ("nine months", "six months", "year to date"), else 0 (the quarter).
pub(in crate::ask) fn period_occurrence(question: &str) -> usize {
    let lower = question.to_lowercase();
    let longer = [
        "nine months",
        "six months",
        "nine-month",
        "six-month",
        "year to date",
        "year-to-date",
        "ytd",
        "first half",
        "first nine",
    ];
    usize::from(longer.iter().any(|w| lower.contains(w)))
}

/// The figure in the unit the question asks for ("in USD billions", "in millions"), when it
/// differs from the statement's: `$8.74 billion` for 8,738 in millions.
pub(super) fn converted(question: &str, value: f64, scale: Option<&str>) -> Option<String> {
    let lower = question.to_lowercase();
    let factor = |s: &str| -> f64 {
        match s {
            "thousand" => 1e3,
            "million" => 1e6,
            "billion" => 1e9,
            _ => 1.0,
        }
    };
    let from = factor(scale?);
    let wanted = ["billion", "million", "thousand"].into_iter().find(|w| {
        lower.contains(&format!("in usd {w}"))
            || lower.contains(&format!("in {w}"))
            || lower.contains(&format!("usd {w}"))
    })?;
    let to = factor(wanted);
    if (to - from).abs() < 1.0 {
        return None;
    }
    let v = value * from / to;
    Some(format!("${} {wanted}", group_thousands(&format!("{v:.2}"))))
}

pub(in crate::ask) fn group_thousands(number: &str) -> String {
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// Whether a line above table row `row` on its page, among the [`CHANGE_HEAD_REACH`]
/// nearest, heads a change column: the word "Change" ("2023 2022 Change", "% Change").
fn under_change_head(index: &RetrievalIndex, row: usize) -> bool {
    let lines = index.lines();
    let ids = index.page_line_ids(lines[row].page_no);
    let Some(at) = ids.iter().position(|&i| i == row) else {
        return false;
    };
    ids[at.saturating_sub(CHANGE_HEAD_REACH)..at]
        .iter()
        .any(|&i| {
            lines[i]
                .text
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case("change"))
        })
}

/// Lines above a row searched for its change column's head ([`under_change_head`]).
const CHANGE_HEAD_REACH: usize = 12;

/// Percentage changes read from a table's change columns: a row whose figures run in groups
/// of two periods' amounts and the change between them ("iPad 5,791 7,224 (20)% 21,857
/// 22,118 (1)%", MD&A's net sales by category), for "By what percentage did iPad net sales
/// change in the third quarter?". The group is the asked period length's (a quarter the
/// first of a quarter-and-year-to-date table, six or nine months the second), else the one
/// whose first year is the asked year (a table of 2023 against 2022 and 2022 against 2021),
/// else the first. The row's own label must name what the question asks ("iPad"), and a
/// line above it head a change column. The value is signed ("-20%"), the cell as written
/// kept beside it.
pub(in crate::ask) fn change_cell_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    query: &QueryAnalysis,
    weights: &[(String, f32)],
) -> Vec<Candidate> {
    // What the change column is answers the question's words of change and percentage
    // ("By what percentage did … change").
    let of_change =
        |t: &str| t.starts_with("percent") || CHANGE_WORDS.iter().any(|c| t.starts_with(c));
    let label_weights: Vec<(String, f32)> = weights
        .iter()
        .filter(|(t, _)| !is_period_term(t))
        .cloned()
        .collect();
    let asked_length = asked_period_length(&query.question);
    let mut out = Vec::new();
    for unit in units.iter().filter(|u| u.row) {
        let numbers = numbers_in(&unit.text);
        let Some(first) = numbers.first() else {
            continue;
        };
        let label = row_label(&unit.text[..first.range.start]).to_string();
        if !label.chars().any(char::is_alphabetic) {
            continue;
        }
        // Each change: a percentage right after two amounts.
        let groups: Vec<usize> = (2..numbers.len())
            .filter(|&i| numbers[i].percent && !numbers[i - 1].percent && !numbers[i - 2].percent)
            .collect();
        if groups.is_empty() || groups.len() * 3 != numbers.len() {
            continue;
        }
        let label_terms = stems(&label);
        // The row is the one asked about: its own label has a word of the question ("iPad"),
        // not only the group's ("Net sales by category:") or the change's.
        let named = label_terms
            .iter()
            .any(|t| !of_change(t) && label_weights.iter().any(|(w, _)| w == t));
        let cov = coverage_by(&label_weights, |t| {
            label_terms.contains(t) || unit.context.contains(t) || of_change(t)
        });
        if !named || cov < MIN_COVERAGE || !under_change_head(input.index, unit.first) {
            continue;
        }
        let years = input.index.column_years(unit.first);
        let by_year = || {
            query.years.iter().find_map(|y| {
                // Years of the columns, two per group: the group's first is its current year.
                (0..groups.len()).find(|&k| years.get(2 * k) == Some(y))
            })
        };
        let k = match asked_length {
            Some(PeriodLength::Quarter) if groups.len() == 2 => 0,
            Some(PeriodLength::Interim) if groups.len() == 2 => 1,
            _ => by_year().unwrap_or(0),
        };
        let cell = &numbers[groups[k]];
        let written = unit.text[cell.range.clone()].trim().to_string();
        let written = if unit.text[cell.range.end..].trim_start().starts_with(")%") {
            format!("({written})%")
        } else if unit.text[cell.range.end..].trim_start().starts_with('%') {
            format!("{written}%")
        } else {
            written
        };
        let magnitude = written.trim_matches(|c: char| !c.is_ascii_digit() && c != '.');
        let value = if cell.value < 0.0 {
            format!("-{magnitude}%")
        } else {
            format!("{magnitude}%")
        };
        let score = 0.6 * cov + 0.15 * page_rank(input, unit.page_no) + 0.1;
        let mut candidate = Candidate::quoted(unit, unit.text.clone(), score, cov);
        candidate.value = value;
        candidate.written = Some(written);
        out.push(candidate);
    }
    out
}
