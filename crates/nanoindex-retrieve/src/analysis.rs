//! Text analysis for lexical retrieval: one tokenizer for documents and questions that keeps
//! financial numbers findable (`1,577`, `(1,577)` and `$1577.00` all become `1577`), splits
//! CJK text into character bigrams, keeps Arabic and other scripts as words, and applies the
//! S-stemmer of Harman (1991, "How effective is suffixing?", JASIS 42(1)) to English plurals.

use unicode_normalization::UnicodeNormalization;

/// English function words that carry no topic (removed from documents and questions).
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "did", "do", "does",
    "for", "from", "had", "has", "have", "how", "if", "in", "into", "is", "it", "its", "of", "on",
    "or", "our", "that", "the", "their", "then", "there", "these", "this", "those", "to", "was",
    "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would",
    "you", "your", "than", "such", "any", "all", "not", "no", "so", "per", "also",
];

/// True for characters written without spaces between words (Han, kana, Hangul), which are
/// indexed as overlapping character bigrams.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Extension A
        | 0x4E00..=0x9FFF // CJK Unified Ideographs
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0xF900..=0xFAFF // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F)
}

/// Harman's S-stemmer: `ies`→`y` (not `eies`/`aies`), `es`→`e` (not `aes`/`ees`/`oes`),
/// `s`→`` (not `us`/`ss`); words of three letters or fewer are kept.
fn s_stem(word: &str) -> String {
    if word.chars().count() <= 3 || !word.is_ascii() {
        return word.to_string();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        if !stem.ends_with('e') && !stem.ends_with('a') {
            return format!("{stem}y");
        }
        return word.to_string();
    }
    if let Some(stem) = word.strip_suffix("es") {
        if !(stem.ends_with('a') || stem.ends_with('e') || stem.ends_with('o')) {
            return format!("{stem}e");
        }
        return word.to_string();
    }
    if word.ends_with('s') && !word.ends_with("us") && !word.ends_with("ss") {
        return word[..word.len() - 1].to_string();
    }
    word.to_string()
}

/// Canonical form of a number written with thousands separators, a currency sign, a sign or
/// accounting parentheses: digits without separators, trailing zero decimals dropped
/// (`1,577.00` → `1577`, `8.70` → `8.7`, `0.50` → `0.5`). `None` when `raw` has no digit.
///
/// ```
/// use nanoindex_retrieve::analysis::canonical_number;
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

/// Splits `text` into index terms (lowercase, NFKC), in order, stop words removed.
///
/// Words are runs of letters/digits joined by `&` or `'` inside the word (`pp&e`, `sg&a`);
/// hyphens and slashes split words. A number keeps its thousands separators and decimal
/// point while reading and is emitted in [`canonical_number`] form; a word mixing letters
/// and a 4-digit year (`fy2018`) also emits the year. CJK runs become overlapping character
/// bigrams (a lone character stays a unigram).
///
/// ```
/// use nanoindex_retrieve::analysis::tokenize;
/// assert_eq!(tokenize("Purchases of PP&E (1,577)"), ["purchase", "pp&e", "1577"]);
/// assert_eq!(tokenize("FY2018 capex"), ["fy2018", "2018", "capex"]);
/// assert_eq!(tokenize("现金流量"), ["现金", "金流", "流量"]);
/// ```
pub fn tokenize(text: &str) -> Vec<String> {
    let normalized: String = text.nfkc().flat_map(char::to_lowercase).collect();
    let chars: Vec<char> = normalized.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_cjk(c) {
            let start = i;
            while i < chars.len() && is_cjk(chars[i]) {
                i += 1;
            }
            let run = &chars[start..i];
            if run.len() == 1 {
                out.push(run[0].to_string());
            } else {
                out.extend(run.windows(2).map(|w| w.iter().collect::<String>()));
            }
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            i = scan_number(&chars, i);
            // A number glued to letters (`10k`, `2018s`) stays one word.
            if i < chars.len() && chars[i].is_alphabetic() && !is_cjk(chars[i]) {
                while i < chars.len() && chars[i].is_alphanumeric() && !is_cjk(chars[i]) {
                    i += 1;
                }
                out.push(chars[start..i].iter().collect());
                continue;
            }
            let raw: String = chars[start..i].iter().collect();
            if let Some(n) = canonical_number(&raw) {
                out.push(n);
            }
            continue;
        }
        if c.is_alphanumeric() {
            let start = i;
            while i < chars.len() {
                let ch = chars[i];
                let in_word = ch.is_alphanumeric() && !is_cjk(ch) || is_mark(ch);
                // `&` and apostrophes join letters inside a word (`pp&e`, `boeing's`).
                let joiner = (ch == '&' || ch == '\'' || ch == '’')
                    && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric())
                    && i > start;
                if !(in_word || joiner) {
                    break;
                }
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let word = word
                .strip_suffix("'s")
                .or_else(|| word.strip_suffix("’s"))
                .unwrap_or(&word)
                .to_string();
            if STOP_WORDS.contains(&word.as_str()) {
                continue;
            }
            let year = trailing_year(&word);
            out.push(s_stem(&word));
            if let Some(year) = year {
                out.push(year);
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Combining marks (Arabic vowel signs, accents left after NFKC) continue a word.
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670)
}

/// The 4-digit year at the end of a word that starts with letters (`fy2018` → `2018`).
fn trailing_year(word: &str) -> Option<String> {
    let digits: String = word
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    if digits.len() != 4 || digits.len() == word.len() {
        return None;
    }
    let year: String = digits.chars().rev().collect();
    year.parse::<u32>()
        .ok()
        .filter(|&y| is_year(y))
        .map(|_| year)
}

/// The [`tokenize`] analysis as a `bm25` crate tokenizer.
#[derive(Debug, Clone, Copy, Default)]
pub struct FinancialTokenizer;

impl bm25::Tokenizer for FinancialTokenizer {
    fn tokenize(&self, input_text: &str) -> Vec<String> {
        tokenize(input_text)
    }
}

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
    /// of money nor scaled, whose absolute value is in [`YEARS`] (`2023`, `(2023)`; not
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

pub use nanoindex_core::years::{is_year, YEARS};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn financial_numbers_are_canonical() {
        assert_eq!(tokenize("$1,577 million"), ["1577", "million"]);
        assert_eq!(tokenize("(1,577)"), ["1577"]);
        assert_eq!(tokenize("1577.00"), ["1577"]);
        assert_eq!(tokenize("22.4%"), ["22.4"]);
    }

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
    fn stemming_and_stop_words() {
        assert_eq!(
            tokenize("The inventories of stores"),
            ["inventory", "store"]
        );
        assert_eq!(tokenize("Boeing's customers"), ["boeing", "customer"]);
        assert_eq!(s_stem("business"), "business");
        assert_eq!(s_stem("status"), "status");
    }

    #[test]
    fn arabic_words_stay_whole() {
        assert_eq!(tokenize("التدفقات النقدية"), ["التدفقات", "النقدية"]);
    }

    #[test]
    fn numbers_with_signs() {
        let found = numbers_in("Purchases of PP&E (1,577) (1,373) -3.5 and 22.4% in FY2018");
        let values: Vec<f64> = found.iter().map(|n| n.value).collect();
        assert_eq!(values, [-1577.0, -1373.0, -3.5, 22.4]);
        assert!(found[3].percent);
        assert_eq!(found[2].decimals, 1);
    }
}
