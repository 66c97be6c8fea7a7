//! Text normalisation applied to every character MuPDF gives us: ligatures expanded, soft
//! hyphens dropped, control characters dropped, compatibility forms (Arabic presentation
//! forms, mathematical alphanumerics, full-width Latin) folded with NFKC, and letter-spaced
//! words ("A m e r i c a n") collapsed, and words split by a space glyph that the next
//! letter is set over ("SEG MENT") joined when the document uses the whole word elsewhere.

use std::collections::HashSet;

use nanoindex_core::extract::PageText;
use unicode_normalization::UnicodeNormalization;

/// Stands, between extraction of a line and [`join_kerned_words`], for a space glyph that
/// may split a word (see `kerned_into_word` in the crate root). A Unicode noncharacter:
/// [`is_junk`] drops it from document text, so it can only come from us.
pub(crate) const KERNED_SPACE: char = '\u{FDD0}';

/// Soft hyphen (U+00AD): invisible unless a line breaks there.
pub const SOFT_HYPHEN: char = '\u{00AD}';

/// True for characters that carry no text: C0/C1 controls, the replacement character
/// MuPDF emits for glyphs without a Unicode mapping, and Unicode noncharacters (U+FDD0–U+FDEF
/// and the last two code points of every plane; Unicode §23.7: never assigned, for a
/// program's internal use).
pub fn is_junk(c: char) -> bool {
    let noncharacter = matches!(c as u32, 0xFDD0..=0xFDEF) || (c as u32 & 0xFFFE) == 0xFFFE;
    (c.is_control() && c != '\t') || c == '\u{FFFD}' || noncharacter
}

/// Resolves every [`KERNED_SPACE`] of the document's lines and spans: the two letter runs
/// around it are one word when that word occurs whole elsewhere in the document (case
/// folded) and one of them is no word of it — "SEG MENT" becomes "SEGMENT" in a filing that
/// writes "segment" — and a space otherwise ("Plan Year": "planyear" occurs nowhere; "the
/// policy" in justified text: both are words). Returns how many spaces were dropped
/// from line texts.
pub(crate) fn join_kerned_words(pages: &mut [PageText]) -> usize {
    let lines = || pages.iter().flat_map(|p| &p.blocks).flat_map(|b| &b.lines);
    if !lines().any(|l| l.text.contains(KERNED_SPACE)) {
        return 0;
    }
    // Words as the document writes them; fragments around a marked space are no evidence.
    let mut vocabulary: HashSet<String> = lines()
        .flat_map(|l| {
            l.text
                .split(|c: char| !c.is_alphabetic() && c != KERNED_SPACE)
        })
        .filter(|w| w.chars().count() > 1 && !w.contains(KERNED_SPACE))
        .map(str::to_lowercase)
        .collect();
    // The one-letter word, so that "be a" is two words.
    vocabulary.insert("a".to_string());
    let mut joined = 0;
    for line in pages
        .iter_mut()
        .flat_map(|p| &mut p.blocks)
        .flat_map(|b| &mut b.lines)
    {
        if !line.text.contains(KERNED_SPACE) {
            continue;
        }
        let (text, dropped) = resolve_kerned_spaces(&line.text, &vocabulary);
        line.text = text;
        joined += dropped;
        for span in &mut line.spans {
            span.text = resolve_kerned_spaces(&span.text, &vocabulary).0;
        }
    }
    joined
}

/// `text` with each [`KERNED_SPACE`] dropped when the letter runs around it form a word of
/// `vocabulary` (lower case) and are not both words of it themselves, else made a space; and
/// how many were dropped. Justified text squeezes its word spaces the same way, and a
/// document that once runs "thepolicy" together must not turn "the policy" or "be a" into
/// one word: a split word has at least one fragment that is no word ("SEG", "Shee", "t").
fn resolve_kerned_spaces(text: &str, vocabulary: &HashSet<String>) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut dropped = 0;
    for (i, c) in text.char_indices() {
        if c != KERNED_SPACE {
            out.push(c);
            continue;
        }
        let head: String = text[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_alphabetic())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let tail: String = text[i + c.len_utf8()..]
            .chars()
            .take_while(|c| c.is_alphabetic())
            .collect();
        let word = format!("{head}{tail}").to_lowercase();
        let two_words =
            vocabulary.contains(&head.to_lowercase()) && vocabulary.contains(&tail.to_lowercase());
        if head.is_empty() || tail.is_empty() || two_words || !vocabulary.contains(&word) {
            out.push(' ');
        } else {
            dropped += 1;
        }
    }
    (out, dropped)
}

/// True for characters whose compatibility decomposition is what a reader sees: Latin
/// ligatures (ﬁ, ﬂ), Hebrew and Arabic presentation forms, full-width ASCII and
/// mathematical alphanumeric symbols (𝑎 → a).
fn needs_nfkc(c: char) -> bool {
    matches!(c as u32,
        0xFB00..=0xFDFF | 0xFE70..=0xFEFF | 0xFF01..=0xFF5E | 0x1D400..=0x1D7FF)
}

/// Appends the normalised form of `c` to `out`. Soft hyphens are kept (the line builder
/// decides whether they end a line); junk characters are dropped.
pub fn push_normalized(c: char, out: &mut String) {
    if is_junk(c) {
        return;
    }
    if needs_nfkc(c) {
        out.extend(std::iter::once(c).nfkc());
    } else if c.is_whitespace() {
        out.push(' ');
    } else {
        out.push(c);
    }
}

/// Joins letter-spaced words: a run of four or more single letters separated by single
/// spaces ("L i n e s") becomes one word ("Lines"). Scanned documents with an OCR layer
/// often come out this way.
///
/// ```
/// use nanoindex_pdf::normalize::collapse_letter_spacing;
/// assert_eq!(collapse_letter_spacing("A m e r i c a n President L i n e s"),
///            "American President Lines");
/// assert_eq!(collapse_letter_spacing("a b c"), "a b c");
/// assert_eq!(collapse_letter_spacing("à À â Â ä Ä"), "à À â Â ä Ä");
/// ```
pub fn collapse_letter_spacing(text: &str) -> String {
    let tokens: Vec<&str> = text.split(' ').collect();
    let single = |t: &str| {
        let mut chars = t.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if c.is_alphabetic())
    };
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if single(tokens[i]) {
            let mut j = i;
            while j < tokens.len() && single(tokens[j]) {
                j += 1;
            }
            // A spaced-out word has a word's case shape: "A m e r i c a n", "L I N E S";
            // a list of letters ("à À â Â") does not.
            let letters: Vec<char> = tokens[i..j]
                .iter()
                .filter_map(|t| t.chars().next())
                .collect();
            let word_shaped = letters[1..].iter().all(|c| c.is_lowercase())
                || letters.iter().all(|c| c.is_uppercase());
            if j - i >= 4 && word_shaped {
                out.push(tokens[i..j].concat());
                i = j;
                continue;
            }
        }
        out.push(tokens[i].to_string());
        i += 1;
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        let mut out = String::new();
        s.chars().for_each(|c| push_normalized(c, &mut out));
        out
    }

    #[test]
    fn ligatures_and_presentation_forms_fold() {
        assert_eq!(norm("ﬁlled ﬂag"), "filled flag");
        assert_eq!(norm("\u{FE8D}\u{FEE7}\u{FEEE}\u{FE8D}\u{FECA}"), "انواع");
        assert_eq!(norm("𝑎𝑏"), "ab");
    }

    #[test]
    fn control_characters_vanish() {
        assert_eq!(norm("\u{0}\u{1}\u{1}"), "");
        assert_eq!(norm("a\u{FFFD}b"), "ab");
    }

    #[test]
    fn a_kerned_space_joins_a_word_of_the_vocabulary_and_nothing_else() {
        let vocabulary: HashSet<String> = ["segment", "overview"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let k = KERNED_SPACE;
        assert_eq!(
            resolve_kerned_spaces(&format!("SEG{k}MENT OVERVI{k}EW"), &vocabulary),
            ("SEGMENT OVERVIEW".to_string(), 2)
        );
        assert_eq!(
            resolve_kerned_spaces(&format!("Plan{k}Year, 2024{k}a"), &vocabulary),
            ("Plan Year, 2024 a".to_string(), 0)
        );
        let run_together: HashSet<String> = ["thepolicy", "the", "policy"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        assert_eq!(
            resolve_kerned_spaces(&format!("the{k}policy"), &run_together),
            ("the policy".to_string(), 0)
        );
        assert!(is_junk(k) && is_junk('\u{FFFF}') && is_junk('\u{10FFFE}') && !is_junk('é'));
    }
}
