//! Figures as documents write them, and what a table row is: the one home of these rules for
//! retrieval (and through it the reader of `ask`) and the entity graph.
//!
//! Numbers are read with their sign (accounting parentheses), percent mark, currency and
//! written scale word ([`numbers_in`]); a line is a table row when it ends in figures with at
//! most a few unit words between them ([`is_table_row`]), and a row that the next line of its
//! passage continues in lower case is prose wrapped at a number ([`is_row_before`]). Until
//! tables are part of the tree, a table's row is one line of text in reading order.

use crate::years::is_year;

/// Canonical form of a number written with thousands separators, a currency sign, a sign or
/// accounting parentheses: digits without separators, trailing zero decimals dropped
/// (`1,577.00` → `1577`, `8.70` → `8.7`, `0.50` → `0.5`). `None` when `raw` has no digit.
///
/// ```
/// use nanoindex_core::figures::canonical_number;
/// assert_eq!(canonical_number("1,577").as_deref(), Some("1577"));
/// assert_eq!(canonical_number("1577.00").as_deref(), Some("1577"));
/// assert_eq!(canonical_number("22.40").as_deref(), Some("22.4"));
/// ```
pub fn canonical_number(raw: &str) -> Option<String> {
    let digits: String = raw
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let digits = digits.trim_matches('.');
    if !digits.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, f.trim_end_matches('0')),
        None => (digits, ""),
    };
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    if frac.is_empty() || frac.contains('.') {
        Some(int.to_string())
    } else {
        Some(format!("{int}.{frac}"))
    }
}

/// End (exclusive) of the number starting at `chars[start]`: digits, with `,` and `.`
/// taken only between digits (`1,577.25` is one number; `1,` ends before the comma).
#[must_use]
pub fn scan_number(chars: &[char], start: usize) -> usize {
    let mut i = start;
    while i < chars.len()
        && (chars[i].is_ascii_digit()
            || ((chars[i] == ',' || chars[i] == '.')
                && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
    {
        i += 1;
    }
    i
}

/// English month names, lowercase, January first: the one list for dates, periods and
/// entity checks.
pub const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// A number found in text, with its byte range.
#[derive(Debug, Clone, PartialEq)]
pub struct NumberMention {
    /// Value; accounting parentheses and a leading minus make it negative.
    pub value: f64,
    /// Digits after the decimal point as written (for rounding comparisons).
    pub decimals: usize,
    /// Followed by `%`, `percent` or `per cent`.
    pub percent: bool,
    /// Preceded by a currency sign or code (`$`, `€`, `£`, `₹`, `Rs.`, `INR`, `USD`).
    pub currency: bool,
    /// The scale word written after it: `thousand` 1e3, `million`/`mn` 1e6,
    /// `billion`/`bn` 1e9, `trillion` 1e12; `None` when there is none (a table cell's scale
    /// is in the statement's header, not beside the figure).
    pub scale: Option<f64>,
    /// Byte range of the number in the text (without sign, parentheses or `%`).
    pub range: std::ops::Range<usize>,
}

impl NumberMention {
    /// Whether the figure reads as a year: a whole number, not a percentage nor an amount
    /// of money nor scaled, whose absolute value is in [`YEARS`](crate::years::YEARS) (`2023`, `(2023)`; not
    /// `1,990.5`, `2023%`, `$2,023` or `2,023 million`).
    #[must_use]
    pub fn is_year(&self) -> bool {
        self.decimals == 0
            && !self.percent
            && !self.currency
            && self.scale.is_none()
            && self.value.fract() == 0.0
            && is_year(self.value.abs() as u32)
    }
}

/// Half a unit in the last place of a figure written with `decimals` decimals (`0.5` for
/// `1,577`, `0.05` for `22.4`): the rounding error of what is written.
#[must_use]
pub fn half_unit(decimals: usize) -> f64 {
    0.5 * 10f64.powi(-(decimals as i32))
}

impl NumberMention {
    /// Whether `self` and `other` state the same figure: both percentages or neither, and
    /// equal at the coarser of their two precisions (half a unit in the last written place,
    /// times the written scale), scales applied (`$1.2 billion` states `$1,204 million`;
    /// `$1,210 million` does not state `$1,204 million`). The sign counts. A figure without
    /// a scale word is read at face value (no table header is known here).
    ///
    /// ```
    /// use nanoindex_core::figures::numbers_in;
    /// let one = |t: &str| numbers_in(t).remove(0);
    /// assert!(one("$1.2 billion").states_same_figure(&one("$1,204 million")));
    /// assert!(!one("$1,210 million").states_same_figure(&one("$1,204 million")));
    /// assert!(!one("12%").states_same_figure(&one("$12")));
    /// ```
    #[must_use]
    pub fn states_same_figure(&self, other: &NumberMention) -> bool {
        if self.percent != other.percent {
            return false;
        }
        let (sa, sb) = (self.scale.unwrap_or(1.0), other.scale.unwrap_or(1.0));
        let tolerance = (half_unit(self.decimals) * sa).max(half_unit(other.decimals) * sb);
        (self.value * sa - other.value * sb).abs() <= tolerance
    }
}

/// Numbers in `text` in order: `1,577`, `(1,577)` (negative), `-3.5`, `22.4%`, `$12.6`.
/// Digits glued to letters (`FY2018`, `10-K`'s `10` followed by `-K` is kept) are skipped
/// when letters come right before them.
pub fn numbers_in(text: &str) -> Vec<NumberMention> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let glued = i > 0 && (bytes[i - 1] as char).is_ascii_alphabetic();
        let start = i;
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || ((bytes[i] == b',' || bytes[i] == b'.')
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        if glued || (i < bytes.len() && (bytes[i] as char).is_ascii_alphabetic()) {
            continue;
        }
        let raw = &text[start..i];
        let cleaned: String = raw.chars().filter(|c| *c != ',').collect();
        let Ok(mut value) = cleaned.parse::<f64>() else {
            continue;
        };
        let decimals = cleaned.split_once('.').map_or(0, |(_, f)| f.len());
        let before = text[..start].trim_end_matches(['$', '€', '£', ' ']);
        if before.ends_with('(') || before.ends_with('-') && !before.ends_with("--") {
            let prev = before[..before.len() - 1].chars().last();
            if before.ends_with('(') || prev.is_none_or(|p| !p.is_alphanumeric()) {
                value = -value;
            }
        }
        // `22.4%`, and a negative change in accounting parentheses, `(2)%`.
        let after = text[i..].trim_start();
        let percent = after.starts_with('%')
            || (before.ends_with('(')
                && after
                    .strip_prefix(')')
                    .is_some_and(|a| a.trim_start().starts_with('%')));
        let next_word: String = after
            .chars()
            .take_while(|c| c.is_alphabetic())
            .flat_map(char::to_lowercase)
            .collect();
        let percent =
            percent || next_word == "percent" || after.to_lowercase().starts_with("per cent");
        let scale = match next_word.as_str() {
            "thousand" | "thousands" => Some(1e3),
            "million" | "millions" | "mn" | "mm" => Some(1e6),
            "billion" | "billions" | "bn" => Some(1e9),
            "trillion" | "trillions" => Some(1e12),
            _ => None,
        };
        let sign_free = text[..start].trim_end_matches(['(', '-', ' ']);
        let currency = [
            "$", "€", "£", "₹", "¥", "rs.", "rs", "inr", "usd", "eur", "gbp",
        ]
        .iter()
        .any(|c| {
            sign_free.len() >= c.len()
                && sign_free.is_char_boundary(sign_free.len() - c.len())
                && sign_free[sign_free.len() - c.len()..].eq_ignore_ascii_case(c)
                && (c.len() == 1 || !c.is_ascii() || {
                    let before = &sign_free[..sign_free.len() - c.len()];
                    before.chars().last().is_none_or(|p| !p.is_alphanumeric())
                })
        });
        out.push(NumberMention {
            value,
            decimals,
            percent,
            currency,
            scale,
            range: start..i,
        });
    }
    out
}

/// Words (of two letters or more) a table row may have between its first and last figure:
/// units and marks such as "NM", "pts", "bps", "million".
const MAX_WORDS_BETWEEN_FIGURES: usize = 3;

/// Whether a line is a table row: two or more figures, ending in a figure (`1,577`, `(96)`,
/// `22.4%`), with at most three words (units, "NM") between its figures. The one definition of a row for retrieval and the reader of `ask`. The days and
/// years of written dates are not figures ("… on June 29, 2020" ends a line of prose), nor is
/// a footnote mark glued to a word ("61 days1").
#[must_use]
pub fn is_table_row(text: &str) -> bool {
    let text = text.trim_end();
    let last = text.split_whitespace().last().unwrap_or("");
    if last.chars().any(char::is_alphabetic)
        || !text.ends_with(|c: char| c.is_ascii_digit() || c == ')' || c == '%')
    {
        return false;
    }
    let numbers = numbers_in(text);
    // Between a row's figures stand at most a few words ("NM", "pts", a unit); a line of
    // prose that wraps at a number has a clause there ("$1.6 billion compared to $1.5
    // billion at the end of the fourth quarter of fiscal 2021. The $104.2").
    if let (Some(first), Some(last)) = (numbers.first(), numbers.last()) {
        let words = text[first.range.end..last.range.start.max(first.range.end)]
            .split_whitespace()
            .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
            .count();
        if words > MAX_WORDS_BETWEEN_FIGURES {
            return false;
        }
    }
    let mut figures = 0;
    let mut day_before = false;
    for n in &numbers {
        let before = text[..n.range.start].trim_end();
        let month_before = before
            .rsplit(|c: char| !c.is_alphabetic())
            .next()
            .is_some_and(is_month_word);
        let whole = n.decimals == 0 && !n.percent && n.value > 0.0;
        let day = whole && n.value <= 31.0 && month_before;
        let year = n.is_year() && (month_before || (day_before && before.ends_with(',')));
        if !(day || year) {
            figures += 1;
        }
        day_before = day;
    }
    figures >= 2
}

/// A month's name or its three-letter abbreviation, any case (`June`, `Sep`).
fn is_month_word(word: &str) -> bool {
    let w = word.to_lowercase();
    w.len() >= 3
        && MONTHS
            .iter()
            .any(|m| *m == w || m.starts_with(&w) && w.len() == 3)
}

/// Whether `line` is a table row given the `next` line of the same passage, if any: a
/// [`is_table_row`] line that ends in a bare figure and that the next line continues in lower
/// case is prose wrapped at a number ("… fiscal 2022 totaled $1.6" / "billion compared to …");
/// a lower-case word under a row is only a continuation when it is not a row itself ("iPhone"
/// under a row is a row label).
#[must_use]
pub fn is_row_before(line: &str, next: Option<&str>) -> bool {
    is_table_row(line)
        && !(line.trim_end().ends_with(|c: char| c.is_ascii_digit())
            && next.is_some_and(|next| {
                next.split_whitespace()
                    .next()
                    .is_some_and(|w| w.chars().all(|c| c.is_lowercase()))
                    && !is_table_row(next)
            }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_carry_their_kind_and_scale() {
        let n =
            numbers_in("revenue of $2.49 billion, up 171% or 15 percent; Rs. 5,000 and 7 stores");
        let kinds: Vec<(f64, bool, bool, Option<f64>)> = n
            .iter()
            .map(|m| (m.value, m.percent, m.currency, m.scale))
            .collect();
        assert_eq!(
            kinds,
            [
                (2.49, false, true, Some(1e9)),
                (171.0, true, false, None),
                (15.0, true, false, None),
                (5000.0, false, true, None),
                (7.0, false, false, None),
            ]
        );
        assert!(numbers_in("$(1,577) million")[0].currency);
        assert_eq!(numbers_in("$(1,577) million")[0].value, -1577.0);
    }

    #[test]
    fn numbers_with_signs() {
        let found = numbers_in("Purchases of PP&E (1,577) (1,373) -3.5 and 22.4% in FY2018");
        let values: Vec<f64> = found.iter().map(|n| n.value).collect();
        assert_eq!(values, [-1577.0, -1373.0, -3.5, 22.4]);
        assert!(found[3].percent);
        assert_eq!(found[2].decimals, 1);
    }

    #[test]
    fn rows_are_figures_not_dates_or_footnote_marks() {
        for row in [
            "Purchases of PP&E (1,577) (1,373) (1,420)",
            "iPhone $ 39,669 $ 40,665 (2)% $ 156,778 $ 162,863 (4)%",
            "Fiscal years 2024 2023",
            "Balance at June 30, 2023 1,204 1,150",
            "Comparable sales 4.2 % NM 3.1 % 2.0 %",
        ] {
            assert!(is_table_row(row), "{row}");
        }
        for prose in [
            "the district court rulings in Zepeda Rivas. Instead, on June 29, 2020",
            "Instead, on June 29, 2020—61 days1",
            "the briefing concludes on Aug 17, 2020",
            "billion compared to $1.5 billion at the end of the fourth quarter of fiscal 2021. The $104.2",
        ] {
            assert!(!is_table_row(prose), "{prose}");
        }
    }

    #[test]
    fn a_row_continued_in_lower_case_is_wrapped_prose() {
        let line = "Net sales in fiscal 2022 totaled $1.6 1,204";
        assert!(is_table_row(line));
        assert!(!is_row_before(
            line,
            Some("billion compared to the prior year")
        ));
        assert!(is_row_before(line, Some("iPhone 1,000 2,000")));
        assert!(is_row_before(line, None));
    }
}
