//! Text analysis for lexical retrieval: one tokenizer for documents and questions that keeps
//! financial numbers findable (`1,577`, `(1,577)` and `$1577.00` all become `1577`), splits
//! CJK text into character bigrams, keeps Arabic and other scripts as words, and applies the
//! S-stemmer of Harman (1991, "How effective is suffixing?", JASIS 42(1)) to English plurals.

pub use nanoindex_core::figures::{
    canonical_number, numbers_in, scan_number, NumberMention, MONTHS,
};
use nanoindex_core::script::is_cjk;
pub use nanoindex_core::years::{is_year, is_year_word, YEARS};
use unicode_normalization::UnicodeNormalization;

/// English function words that carry no topic (removed from documents and questions).
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "did", "do", "does",
    "for", "from", "had", "has", "have", "how", "if", "in", "into", "is", "it", "its", "of", "on",
    "or", "our", "that", "the", "their", "then", "there", "these", "this", "those", "to", "was",
    "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would",
    "you", "your", "than", "such", "any", "all", "not", "no", "so", "per", "also",
];

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
}
