//! What counts as a year: the one definition for retrieval, the reader and the knowledge
//! base.

/// The years figures are read as: a whole number from 1950 to 2100 is a year (a column
/// header, a period, a date, a filing's name), not an amount.
pub const YEARS: std::ops::RangeInclusive<u32> = 1950..=2100;

/// A regular-expression fragment (no groups that capture) matching exactly the four-digit
/// words of [`YEARS`]; for patterns that find years inside text ("2022 and 2021").
pub const YEAR_PATTERN: &str = "(?:19[5-9][0-9]|20[0-9][0-9]|2100)";

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
    fn the_year_pattern_matches_exactly_the_year_words() {
        let pattern = regex::Regex::new(&format!("^{YEAR_PATTERN}$")).unwrap();
        for n in 1000..10_000u32 {
            let word = n.to_string();
            assert_eq!(pattern.is_match(&word), is_year_word(&word), "{word}");
        }
    }
}
