//! What counts as a year: the one definition for retrieval, the reader and the knowledge
//! base.

use std::sync::LazyLock;

use regex::Regex;

/// The years figures are read as: a whole number from 1950 to 2100 is a year (a column
/// header, a period, a date, a filing's name), not an amount.
pub const YEARS: std::ops::RangeInclusive<u32> = 1950..=2100;

/// A regular-expression fragment (no groups that capture) matching exactly the four-digit
/// words of [`YEARS`]; for patterns that find years inside text ("2022 and 2021").
pub const YEAR_PATTERN: &str = "(?:19[5-9][0-9]|20[0-9][0-9]|2100)";

/// Years (optionally written `FY2024`, `FY 2024` or `fiscal 2024`) and the part of a year a
/// figure may be stated for: a quarter by name or number, or a span of months with the
/// month it ends in.
static PERIOD_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:fy\s?'?|fiscal\s+(?:year\s+)?)?(?P<year>{YEAR_PATTERN})\b|\b(?P<quarter>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\b|\bq(?P<q>[1-4])\b|\b(?P<months>three|six|nine|3|6|9)\s+months(?:\s+ended\s+(?P<end>{}))?\b",
        crate::figures::MONTHS.join("|")
    ))
    .expect("valid regex")
});

/// The period a figure at byte offset `at` of `text` (one clause) is stated for, as a
/// label: `2024`, `Q1 2024`, `six months ended june 2024`; `None` when the text names no
/// year, or when it names a span of months without the month it ends in (two 10-Qs'
/// "three months" are different quarters).
///
/// The year is the year word nearest the figure (bytes from the figure's start to the
/// year's end before it, or to the year's start after it; the one before it on a tie:
/// "revenue for 2024 was $5.2 billion" dates $5.2 billion 2024). A quarter ("first
/// quarter", "Q1") or a span of months nearest the figure qualifies it; twelve months are
/// the year itself. The caller chooses the clause: a figure compared with another year's
/// ("$187 million, compared with $162 million in 2023") must not be given the other
/// figure's text. This reads what the sentence says, not the fiscal calendar: `Q1 2024` is
/// the issuer's own first quarter.
#[must_use]
pub fn period_at(text: &str, at: usize) -> Option<String> {
    let distance = |r: std::ops::Range<usize>| {
        if r.end <= at {
            (at - r.end, 0)
        } else {
            (r.start.saturating_sub(at), 1)
        }
    };
    let mut year: Option<((usize, u8), &str)> = None;
    let mut part: Option<((usize, u8), Option<String>)> = None;
    for c in PERIOD_WORDS.captures_iter(text) {
        let Some(whole) = c.get(0) else { continue };
        let d = distance(whole.range());
        if let Some(y) = c.name("year") {
            if year.is_none_or(|(best, _)| d < best) {
                year = Some((d, y.as_str()));
            }
            continue;
        }
        let label = if let Some(q) = c.name("quarter") {
            let n = match q.as_str().to_lowercase().as_str() {
                "first" | "1st" => 1,
                "second" | "2nd" => 2,
                "third" | "3rd" => 3,
                _ => 4,
            };
            Some(format!("Q{n}"))
        } else if let Some(q) = c.name("q") {
            Some(format!("Q{}", q.as_str()))
        } else if let Some(m) = c.name("months") {
            let months = match m.as_str().to_lowercase().as_str() {
                "three" | "3" => "three",
                "six" | "6" => "six",
                _ => "nine",
            };
            c.name("end")
                .map(|end| format!("{months} months ended {}", end.as_str().to_lowercase()))
        } else {
            continue;
        };
        if part.as_ref().is_none_or(|(best, _)| d < *best) {
            part = Some((d, label));
        }
    }
    let (_, year) = year?;
    match part {
        Some((_, Some(label))) => Some(format!("{label} {year}")),
        Some((_, None)) => None,
        None => Some(year.to_string()),
    }
}

/// Whether `y` is in [`YEARS`].
#[must_use]
pub fn is_year(y: u32) -> bool {
    YEARS.contains(&y)
}

/// Whether a word is a year written in four digits (`2018`; not `FY2018` or `2018a`).
#[must_use]
pub fn is_year_word(word: &str) -> bool {
    word.len() == 4 && word.chars().all(|c| c.is_ascii_digit()) && word.parse().is_ok_and(is_year)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_are_four_digit_numbers_in_range() {
        assert!(is_year(2023) && !is_year(1577) && !is_year(2101));
        assert!(is_year_word("2018"));
        assert!(!is_year_word("fy2018") && !is_year_word("1577") && !is_year_word("20180"));
    }

    #[test]
    fn a_figure_is_dated_by_the_nearest_year_and_part_of_a_year() {
        let at = |text: &str, figure: &str| period_at(text, text.find(figure).unwrap());
        let line = "Revenue for 2024 was $5.2 billion, against $4.8 billion for 2023.";
        assert_eq!(at(line, "$5.2").as_deref(), Some("2024"));
        assert_eq!(at(line, "$4.8").as_deref(), Some("2023"));
        let q = "Revenue for the first quarter of 2024 was $1,204 million.";
        assert_eq!(at(q, "$1,204").as_deref(), Some("Q1 2024"));
        assert_eq!(
            at("Net sales in Q3 FY2023 were $12 million", "$12").as_deref(),
            Some("Q3 2023")
        );
        assert_eq!(
            at(
                "For the six months ended June 30, 2022, revenue was $40",
                "$40"
            )
            .as_deref(),
            Some("six months ended june 2022")
        );
        // Which three months, is not said.
        assert_eq!(
            at("Revenue for the three months of 2022 was $40", "$40"),
            None
        );
        assert_eq!(
            at("Fiscal 2021 revenue was $9.1 billion", "$9.1").as_deref(),
            Some("2021")
        );
        assert_eq!(at("Revenue was $7 million.", "$7"), None);
        // Digits inside other numbers are not years.
        assert_eq!(at("Backlog was 120245 units, or $7 million.", "$7"), None);
    }

    #[test]
    fn the_year_pattern_matches_exactly_the_year_words() {
        let pattern = regex::Regex::new(&format!("^{YEAR_PATTERN}$")).unwrap();
        for n in 1000..10_000u32 {
            let word = n.to_string();
            assert_eq!(pattern.is_match(&word), is_year_word(&word), "{word}");
        }
    }
}
