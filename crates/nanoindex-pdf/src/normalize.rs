//! Text normalisation applied to every character MuPDF gives us: ligatures expanded, soft
//! hyphens dropped, control characters dropped, compatibility forms (Arabic presentation
//! forms, mathematical alphanumerics, full-width Latin) folded with NFKC, and letter-spaced
//! words ("A m e r i c a n") collapsed.

use unicode_normalization::UnicodeNormalization;

/// Soft hyphen (U+00AD): invisible unless a line breaks there.
pub const SOFT_HYPHEN: char = '\u{00AD}';

/// True for characters that carry no text: C0/C1 controls, and the replacement character
/// MuPDF emits for glyphs without a Unicode mapping.
pub fn is_junk(c: char) -> bool {
    (c.is_control() && c != '\t') || c == '\u{FFFD}'
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
}
