//! Questions that compare a statement metric across periods ("Has the quick ratio improved
//! between FY2022 and FY2023?", "Was there any drop in cash between …?", "Are gross margins
//! consistent?"): the metric is read (a row's cells) or computed (a named ratio or margin)
//! for each period from cited statement rows, and the direction and size of the change are
//! computed here, never taken from a model.

use nanoindex_retrieve::analysis::tokenize;
use nanoindex_retrieve::{QueryAnalysis, Snippet};

use super::answer_type::AnswerType;
use super::phrase::capitalise;
use super::reader::{self, Candidate, ReaderInput, Unit, MIN_COVERAGE};

/// Words that ask whether a metric went up.
const UP: &[&str] = &[
    "increase",
    "increased",
    "increasing",
    "improve",
    "improved",
    "improving",
    "improvement",
    "grow",
    "grew",
    "growing",
    "rise",
    "rose",
    "higher",
];

/// Words that ask whether a metric went down.
const DOWN: &[&str] = &[
    "decrease",
    "decreased",
    "decreasing",
    "decline",
    "declined",
    "declining",
    "drop",
    "dropped",
    "fall",
    "fell",
    "lower",
    "reduction",
    "reduced",
    "deteriorate",
    "deteriorated",
];

/// Words that ask whether a metric moved at all, or how two periods compare.
const ANY: &[&str] = &["change", "changed", "compare", "compared", "differ", "vs"];

/// Words that ask whether a metric stayed within a band.
const STABLE: &[&str] = &["consistent", "stable", "steady", "fluctuate", "fluctuating"];

/// The least share of the question's terms a row label must spell to be the metric compared:
/// higher than a figure question's ([`MIN_COVERAGE`]), since the answer is a computed verdict
/// the reader stands behind.
const CHANGE_COVERAGE: f32 = 2.0 * MIN_COVERAGE;

/// What the question asks of the change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Asked {
    /// Whether it went up (`true`) or down (`false`): a yes/no question.
    Direction(bool),
    /// Which way it went ("improved or declined", "how does … compare").
    Which,
    /// Whether every year-over-year change stays within this many points or percent
    /// ("not fluctuating more than roughly 2%"); `None` when the question gives no band.
    Within(Option<f64>),
}

/// What `question` asks of a change across periods, when it asks about one: a change word
/// (up, down, change, consistent) and, unless it names two periods, a profile or trend
/// word. `None` for questions that ask for causes ("what drove …").
#[must_use]
pub(super) fn asked(question: &str, years: &[u32]) -> Option<Asked> {
    let lower = question.to_lowercase();
    if ["what drove", "why", "what caused", "explain", "reason"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return None;
    }
    let words: Vec<String> = tokenize(&lower);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let (up, down) = (has(UP), has(DOWN));
    let stable = has(STABLE);
    // Two periods, a trend word, or one period and a direction ("Did revenue increase in
    // FY2023?" compares it with the year before).
    let trend = years.len() >= 2
        || (years.len() == 1 && (up || down))
        || [
            "profile",
            "trend",
            "historically",
            "year over year",
            "year-over-year",
        ]
        .iter()
        .any(|w| lower.contains(w));
    if !(up || down || stable || has(ANY)) || !(trend || stable) {
        return None;
    }
    if stable {
        let band = band_of(&lower);
        return Some(Asked::Within(band));
    }
    let first = lower.split_whitespace().next().unwrap_or("");
    let yes_no = [
        "is", "are", "was", "were", "does", "do", "did", "has", "have", "had",
    ]
    .contains(&first);
    Some(match (up, down) {
        (true, false) if yes_no => Asked::Direction(true),
        (false, true) if yes_no => Asked::Direction(false),
        _ => Asked::Which,
    })
}

/// The band a consistency question gives: `2` for "not fluctuating more than roughly 2%".
fn band_of(lower: &str) -> Option<f64> {
    let i = lower.find('%')?;
    let digits: String = lower[..i]
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().ok()
}

/// The metric in one period.
struct Point {
    year: u32,
    value: f64,
    /// The value as the answer states it (`$41,990 million`, `0.69`, `5.3%`).
    shown: String,
    /// For a computed metric, its formula with inputs.
    formula: Option<String>,
    cite: Vec<Snippet>,
}

/// The metric's name and its value in each period, latest first.
struct Series {
    name: String,
    percent: bool,
    /// Whether the values are money (amount cells), so changes carry a currency and scale.
    unit: Option<(bool, Option<&'static str>)>,
    points: Vec<Point>,
}

/// The change candidates for `part`: one candidate whose value states the change ("decreased
/// from $47,032 million in 2022 to $41,990 million in 2023 (−$5,042 million, −10.7%)") with
/// the computation, citing every row read. Empty when the metric cannot be read for two
/// periods.
pub(super) fn candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    query: &QueryAnalysis,
    weights: &[(String, f32)],
    part: &str,
    asked: Asked,
) -> Vec<Candidate> {
    // A named ratio is computed or not answered: a row of another metric is no answer.
    let series = match reader::formula_named(part) {
        Some(formula) => formula_series(input, query, formula, asked),
        None => row_series(input, units, query, weights, asked),
    };
    let Some(series) = series else {
        return Vec::new();
    };
    let latest = &series.points[0];
    let earliest = &series.points[series.points.len() - 1];
    let delta = latest.value - earliest.value;
    let verb = |d: f64| {
        if d.abs() < 1e-9 {
            "was unchanged"
        } else if d > 0.0 {
            "increased"
        } else {
            "decreased"
        }
    };
    let mut value = if series.points.len() == 2 || !matches!(asked, Asked::Within(_)) {
        format!(
            "{} from {} in {} to {} in {} ({})",
            verb(delta),
            earliest.shown,
            earliest.year,
            latest.shown,
            latest.year,
            change_text(&series, earliest.value, latest.value)
        )
    } else {
        let listed: Vec<String> = series
            .points
            .iter()
            .rev()
            .map(|p| format!("{} in {}", p.shown, p.year))
            .collect();
        format!("was {}", listed.join(", "))
    };
    let verdict = match asked {
        Asked::Direction(up) if delta.abs() > 1e-9 => {
            Some(if (delta > 0.0) == up { "Yes" } else { "No" })
        }
        Asked::Direction(_) => Some("No"),
        Asked::Within(Some(band)) => {
            let widest = series
                .points
                .windows(2)
                .map(|w| {
                    if series.percent {
                        (w[0].value - w[1].value).abs()
                    } else {
                        ((w[0].value - w[1].value) / w[1].value.abs().max(1e-9) * 100.0).abs()
                    }
                })
                .fold(0.0, f64::max);
            if series.points.len() > 2 {
                value.push_str(&format!(
                    "; the widest change from one year to the next is {widest:.1} {}",
                    if series.percent {
                        "percentage points"
                    } else {
                        "percent"
                    }
                ));
            }
            Some(if widest <= band { "Yes" } else { "No" })
        }
        Asked::Within(None) | Asked::Which => None,
    };
    let mut computation: Vec<String> = series
        .points
        .iter()
        .rev()
        .filter_map(|p| p.formula.clone())
        .collect();
    if computation.is_empty() {
        computation.push(format!(
            "{} − {} = {}",
            plain(latest.value),
            plain(earliest.value),
            plain(delta)
        ));
    }
    let cite: Vec<Snippet> = series.points.iter().flat_map(|p| p.cite.clone()).collect();
    let sentence = format!("{} {value}", capitalise(&series.name));
    let value = match verdict {
        Some(v) => format!("{v} — {}", lowercase_first(&sentence)),
        None => sentence,
    };
    vec![Candidate::computed(value, computation.join("; "), cite)]
}

/// The size of a change: percentage points for a percentage, the difference for a ratio,
/// the difference with currency and scale and the relative change for an amount.
fn change_text(series: &Series, from: f64, to: f64) -> String {
    let delta = to - from;
    let sign = if delta < 0.0 { "−" } else { "+" };
    if series.percent {
        return format!("{sign}{:.1} percentage points", delta.abs());
    }
    match series.unit {
        None => format!("{sign}{:.2}", delta.abs()),
        Some((dollars, scale)) => {
            let amount = reader::format_figure(&plain(delta.abs()), dollars, scale, false);
            if from.abs() > 1e-9 {
                format!(
                    "{sign}{amount}, {sign}{:.1}%",
                    (delta / from.abs() * 100.0).abs()
                )
            } else {
                format!("{sign}{amount}")
            }
        }
    }
}

/// A figure with thousands separators and its decimals (at most two).
fn plain(value: f64) -> String {
    let rounded = if value.fract().abs() < 1e-9 {
        format!("{:.0}", value.abs())
    } else {
        format!("{:.2}", value.abs())
    };
    let grouped = reader::group_thousands(&rounded);
    if value < 0.0 {
        format!("−{grouped}")
    } else {
        grouped
    }
}

fn lowercase_first(s: &str) -> String {
    // Keep a row label's own capitals after the first word ("Cash and cash equivalents").
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_lowercase().collect::<String>() + c.as_str()
    })
}

/// The years of the column headers (lines naming two or more years) on the pages read.
fn header_years(input: &ReaderInput<'_>) -> Vec<u32> {
    let mut years: Vec<u32> = input
        .pages
        .iter()
        .flat_map(|&p| input.index.page_line_ids(p).iter())
        .filter_map(|&i| nanoindex_retrieve::index::years_in(&input.index.lines()[i].text))
        .flatten()
        .collect();
    years.sort_unstable();
    years.dedup();
    years
}

/// The periods to compare: the question's years, latest first; with one year, that year and
/// the one before it (an "as of FY2023" profile).
fn periods(query: &QueryAnalysis, header_years: &[u32]) -> Vec<u32> {
    let mut years = query.years.clone();
    years.sort_unstable_by(|a, b| b.cmp(a));
    years.dedup();
    match years.len() {
        0 => header_years.iter().take(2).copied().collect(),
        1 => {
            let y = years[0];
            let before: Vec<u32> = header_years.iter().copied().filter(|h| *h < y).collect();
            std::iter::once(y)
                .chain(before.into_iter().take(1))
                .collect()
        }
        _ => years,
    }
}

/// A named ratio or margin computed for each period.
fn formula_series(
    input: &ReaderInput<'_>,
    query: &QueryAnalysis,
    formula: &reader::Formula,
    asked: Asked,
) -> Option<Series> {
    let occurrence = reader::period_occurrence(&query.question);
    // The years a statement column could hold, latest first: the question's latest and the
    // four before it (a profile "as of FY2023" and a history both find theirs); without a
    // year in the question, the years of the column headers on the pages read.
    let tried: Vec<u32> = match query.years.iter().copied().max() {
        Some(latest) => (latest.saturating_sub(4)..=latest).rev().collect(),
        None => header_years(input).into_iter().rev().take(6).collect(),
    };
    let available: Vec<(u32, reader::FormulaValue)> = tried
        .into_iter()
        .filter_map(|year| {
            Some((
                year,
                reader::formula_value(input, &query.question, formula, year, occurrence)?,
            ))
        })
        .collect();
    let header: Vec<u32> = available.iter().map(|(y, _)| *y).collect();
    let years = if matches!(asked, Asked::Within(_)) {
        header.clone()
    } else {
        periods(query, &header)
    };
    let points: Vec<Point> = years
        .iter()
        .filter_map(|y| {
            let i = available.iter().position(|(a, _)| a == y)?;
            let v = &available[i].1;
            Some(Point {
                year: *y,
                value: v.value,
                shown: formula.show(v.value),
                formula: Some(v.formula.clone()),
                cite: v.cite.clone(),
            })
        })
        .collect();
    (points.len() >= 2 && points.len() == years.len()).then(|| Series {
        name: format!("the {}", formula.names[0]),
        percent: formula.percent,
        unit: None,
        points,
    })
}

/// A statement row that matches the question's metric, read in each period's column.
fn row_series(
    input: &ReaderInput<'_>,
    units: &[Unit],
    query: &QueryAnalysis,
    weights: &[(String, f32)],
    asked: Asked,
) -> Option<Series> {
    let mut latest_query = query.clone();
    latest_query.years = query.years.iter().copied().max().into_iter().collect();
    let percent_first = {
        let lower = query.question.to_lowercase();
        ["rate", "percent", "margin", "%"]
            .iter()
            .any(|w| lower.contains(w))
    };
    let kinds = if percent_first {
        [AnswerType::Percentage, AnswerType::Amount]
    } else {
        [AnswerType::Amount, AnswerType::Percentage]
    };
    // The words that ask about the change ("increased", "improving") are not words of the
    // metric's label.
    let change_words: Vec<String> = [UP, DOWN, ANY, STABLE]
        .concat()
        .iter()
        .map(|w| reader::stem(w))
        .collect();
    let weights: Vec<(String, f32)> = weights
        .iter()
        .filter(|(t, _)| !change_words.contains(t))
        .cloned()
        .collect();
    let best = kinds.iter().find_map(|&kind| {
        let mut cells = reader::cell_candidates(input, units, &latest_query, &weights, kind);
        cells.sort_by(|a, b| b.score.total_cmp(&a.score));
        let best = cells.iter().position(|c| c.coverage >= CHANGE_COVERAGE)?;
        // A label that ends with another row's label on the same page names a part of that
        // line item ("Current portion of long-term debt" of "Long-term debt"): the question
        // names the item, so the item's own row is read.
        let label = |c: &Candidate| c.cell.as_ref().map(|(l, _)| l.to_lowercase());
        let whole = label(&cells[best]).and_then(|part| {
            cells.iter().position(|c| {
                c.page_no == cells[best].page_no
                    && c.coverage >= MIN_COVERAGE
                    && label(c).is_some_and(|l| l.len() < part.len() && part.ends_with(&l))
            })
        });
        Some(cells.swap_remove(whole.unwrap_or(best)))
    })?;
    let snippet = best.cite.first()?.clone();
    let header_years = input.index.column_years(snippet.line);
    let years = if matches!(asked, Asked::Within(_)) {
        header_years.clone()
    } else {
        periods(query, &header_years)
    };
    let (label, _) = best.cell.clone()?;
    let occurrence = reader::period_occurrence(&query.question);
    let percent = best.value.ends_with('%');
    let scale = if percent {
        None
    } else {
        reader::scale_of(input.index, snippet.page_no, snippet.line)
    };
    let dollars = !percent && best.value.starts_with('$');
    let mut points: Vec<Point> = Vec::new();
    let mut boxes = Vec::new();
    for &year in &years {
        let read =
            input
                .index
                .read_figure(snippet.line, year, occurrence, None, &query.question)?;
        let cell = read.cell;
        // Each year's cell is cited on the one row (its header once).
        for b in read.boxes {
            if !boxes.contains(&b) {
                boxes.push(b);
            }
        }
        // "(0.6)%" and "22.5 %" are shown as "0.6%" and "22.5%", the sign apart.
        let written = cell.text.replace([' ', '(', ')'], "");
        let mut shown = reader::format_figure(&written, dollars, scale, percent);
        if cell.value < 0.0 {
            shown = format!("−{shown}");
        }
        points.push(Point {
            year,
            value: cell.value,
            shown,
            formula: None,
            cite: if points.is_empty() {
                vec![snippet.clone()]
            } else {
                Vec::new()
            },
        });
    }
    if let Some(first) = points.first_mut().and_then(|p| p.cite.first_mut()) {
        first.cells = boxes;
    }
    (points.len() >= 2).then(|| Series {
        name: label,
        percent,
        unit: (!percent).then_some((dollars, scale)),
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_questions_are_told_from_cause_questions() {
        let q = |s: &str| asked(s, &QueryAnalysis::new(s).years);
        assert_eq!(
            q("Has Microsoft increased its debt on balance sheet between FY2023 and the FY2022 period?"),
            Some(Asked::Direction(true))
        );
        assert_eq!(
            q("Was there any drop in Cash & Cash equivalents between FY 2023 and Q2 of FY2024?"),
            Some(Asked::Direction(false))
        );
        assert_eq!(
            q("Has AMCOR's quick ratio improved or declined between FY2023 and FY2022?"),
            Some(Asked::Which)
        );
        assert_eq!(
            q("Does AMCOR have an improving gross margin profile as of FY2023?"),
            Some(Asked::Direction(true))
        );
        assert_eq!(
            q("Are Best Buy's gross margins historically consistent (not fluctuating more than roughly 2% each year)?"),
            Some(Asked::Within(Some(2.0)))
        );
        assert_eq!(q("What drove the increase in inventories in FY2023?"), None);
        assert_eq!(q("What was the revenue in FY2023?"), None);
        assert_eq!(
            q("Did revenue increase in FY2023?"),
            Some(Asked::Direction(true))
        );
        // No period and no trend word: a question about the text, not a comparison.
        assert_eq!(q("Did the court decline to rule on the motion?"), None);
    }
}
