//! The reader's computed candidates: ratios and margins ([`Formula`], from
//! `nanoindex_core::metrics`) computed from statement rows it finds, the formula shown and
//! each input cited.

use super::*;

/// A statement row read for a computation: its snippet, label and cell value.
pub(super) struct Input {
    snippet: Snippet,
    label: String,
    written: String,
    value: f64,
}

/// Whether the table of a row with column header `header` is a segment's ("International
/// Segment Performance Summary 2023 2022 2021") that `question` does not name: a question
/// about the company reads its consolidated rows; "What was the International segment's
/// gross margin" and "international gross margin" name theirs (by a word of the segment's
/// name, the header's words before "segment").
pub(super) fn other_segment(header: &str, question: &str) -> bool {
    let lower = header.to_lowercase();
    let Some(at) = lower.find("segment") else {
        return false;
    };
    let asked: HashSet<String> = tokenize(question).into_iter().collect();
    !tokenize(&lower[..at]).iter().any(|w| asked.contains(w))
}

/// Finds the row whose label begins with one of `labels` (in that order of preference) and
/// reads its cell for `year` (the column `occurrence`, see `RetrievalIndex::read_figure`): rows of the
/// pages read first, then of the whole document — and rows of a segment's table that
/// `question` does not name only when no other row is found; only rows of `page` when
/// given.
pub(super) fn find_row(
    input: &ReaderInput<'_>,
    question: &str,
    labels: &[&str],
    year: u32,
    occurrence: usize,
    page: Option<u32>,
) -> Option<Input> {
    let lines = input.index.lines();
    let read: Vec<usize> = input
        .pages
        .iter()
        .flat_map(|&p| input.index.page_line_ids(p).iter().copied())
        .collect();
    let all: Vec<usize> = (0..lines.len()).collect();
    // The pages read before the rest of the document; in each, the label itself first ("Net
    // earnings"), then labels that begin with it; a line item "from continuing operations"
    // only when asked for.
    let tries = [(&read, false), (&all, false), (&read, true), (&all, true)]
        .into_iter()
        .flat_map(|(scope, segments)| {
            labels
                .iter()
                .map(move |w| (scope, segments, w, true))
                .chain(labels.iter().map(move |w| (scope, segments, w, false)))
        });
    for (scope, segments, wanted, exact) in tries {
        for id in scope.iter().copied() {
            let text = lines[id].text.trim();
            if page.is_some_and(|p| lines[id].page_no != p) || !input.index.is_row(id) {
                continue;
            }
            let label_end = numbers_in(text).first().map_or(0, |n| n.range.start);
            let label = row_label(&text[..label_end]).to_lowercase();
            // Rows that are not the input itself: a percentage row, equity and
            // noncontrolling-interest lines.
            if text.contains('%')
                || [
                    "noncontrolling",
                    "minority",
                    "and stockholders",
                    "and shareholders",
                    "change in",
                    "changes in",
                    "(increase)",
                    "increase)",
                ]
                .iter()
                .any(|w| label.contains(w))
            {
                continue;
            }
            let fits = if exact {
                label.trim_end_matches([':', ' ']) == *wanted
            } else {
                label.starts_with(wanted)
                    && label.len() <= wanted.len() + 40
                    && (!label.contains("continuing operations") || wanted.contains("continuing"))
            };
            if !fits {
                continue;
            }
            let snippet = input.index.snippet(id, 0.0);
            // A segment's table is told by the header line over the row.
            let header = snippet.header.clone().unwrap_or_default();
            if other_segment(&header, question) != segments {
                continue;
            }
            let Some(read) = input
                .index
                .read_figure(id, year, occurrence, None, question)
            else {
                continue;
            };
            let cell = read.cell;
            let snippet = Snippet {
                cells: read.boxes,
                ..snippet
            };
            return Some(Input {
                snippet,
                label: row_label(&text[..label_end]).to_string(),
                written: cell.text,
                value: cell.value,
            });
        }
    }
    None
}

/// A formula computed for one year: the value, the formula with its inputs, and the rows
/// to cite.
pub(in crate::ask) struct FormulaValue {
    /// The result (a percentage for a margin: `5.4` for 5.4%).
    pub value: f64,
    /// `2015: (Operating income 305,826 + …) / Revenues 6,779,511 × 100 = 5.4%`.
    pub formula: String,
    /// The input rows, numerator first.
    pub cite: Vec<Snippet>,
}

/// Computes `formula` for `year` (the column `occurrence`, see `RetrievalIndex::read_figure`) from the
/// statement rows it names (a segment's rows only when `question` names the segment, or no
/// other row is found); `None` when a row or its cell is missing or the denominator is 0.
pub(in crate::ask) fn formula_value(
    input: &ReaderInput<'_>,
    question: &str,
    formula: &Formula,
    year: u32,
    occurrence: usize,
) -> Option<FormulaValue> {
    let num = find_row(input, question, formula.numerator, year, occurrence, None)?;
    let den = find_row(input, question, formula.denominator, year, occurrence, None)?;
    if den.value == 0.0 {
        return None;
    }
    // The numerator's subtrahend or addend, when the formula has one: (row, sign).
    let adjust = if !formula.minus.is_empty() {
        // A subtrahend is a line of the same statement (inventories on the balance sheet, not
        // a note's held-for-sale inventories).
        let page = Some(num.snippet.page_no);
        Some((
            find_row(input, question, formula.minus, year, occurrence, page)?,
            -1.0,
        ))
    } else if !formula.plus.is_empty() {
        Some((
            find_row(input, question, formula.plus, year, occurrence, None)?,
            1.0,
        ))
    } else {
        None
    };
    let top = num.value
        + adjust
            .as_ref()
            .map_or(0.0, |(a, sign)| sign * a.value.abs());
    let mut ratio = top / den.value;
    if formula.percent {
        ratio *= 100.0;
    }
    let numerator_text = match &adjust {
        Some((a, sign)) => format!(
            "({} {} {} {} {})",
            num.label,
            num.written,
            if *sign < 0.0 { "−" } else { "+" },
            a.label,
            a.written
        ),
        None => format!("{} {}", num.label, num.written),
    };
    let formula_text = format!(
        "{year}: {numerator_text} / {} {}{} = {}",
        den.label,
        den.written,
        if formula.percent { " × 100" } else { "" },
        formula.show(ratio)
    );
    let mut cite = vec![num.snippet];
    cite.extend(adjust.map(|(a, _)| a.snippet));
    cite.push(den.snippet);
    Some(FormulaValue {
        value: ratio,
        formula: formula_text,
        cite,
    })
}

/// Ratios named by the question, computed for each of its years (or the first column's).
pub(super) fn ratio_candidates(
    input: &ReaderInput<'_>,
    query: &QueryAnalysis,
    part: &str,
) -> Vec<Candidate> {
    let lower = part.to_lowercase();
    let Some(formula) = formula_named(part) else {
        return Vec::new();
    };
    let mut years = query.years.clone();
    // "FY2015 - FY2017 3 year average": every year of the range.
    if lower.contains("average") && years.len() == 2 {
        let (a, b) = (years[0].min(years[1]), years[0].max(years[1]));
        years = (a..=b).collect();
    }
    let occurrence = period_occurrence(&query.question);
    let results: Vec<(u32, f64, String, Vec<Snippet>)> = years
        .iter()
        .filter_map(|&year| {
            let v = formula_value(input, &query.question, formula, year, occurrence)?;
            Some((year, v.value, v.formula, v.cite))
        })
        .collect();
    if results.is_empty() {
        return Vec::new();
    }
    let unit = |v: f64| formula.show(v);
    let (value, computation) = if lower.contains("average") && results.len() > 1 {
        let mean = results.iter().map(|r| r.1).sum::<f64>() / results.len() as f64;
        let parts: Vec<String> = results.iter().map(|r| unit(r.1)).collect();
        (
            unit(mean),
            format!(
                "{}; average ({}) / {} = {}",
                results
                    .iter()
                    .map(|r| r.2.clone())
                    .collect::<Vec<_>>()
                    .join("; "),
                parts.join(" + "),
                results.len(),
                unit(mean)
            ),
        )
    } else {
        let values: Vec<String> = if results.len() == 1 {
            vec![unit(results[0].1)]
        } else {
            results
                .iter()
                .map(|r| format!("{} in {}", unit(r.1), r.0))
                .collect()
        };
        (
            values.join(" and "),
            results
                .iter()
                .map(|r| r.2.clone())
                .collect::<Vec<_>>()
                .join("; "),
        )
    };
    let cite: Vec<Snippet> = results.into_iter().flat_map(|r| r.3).collect();
    vec![Candidate::computed(value, computation, cite)]
}
