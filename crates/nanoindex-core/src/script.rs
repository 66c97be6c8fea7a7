//! Writing systems: which characters belong to scripts written without spaces between
//! words.

/// True for Han, kana and Hangul (U+3040–U+30FF, U+3400–U+4DBF, U+4E00–U+9FFF,
/// U+AC00–U+D7AF, U+F900–U+FAFF, U+20000–U+2FA1F): retrieval indexes them as overlapping
/// character bigrams, and a heading in them is told by its length, not its word count.
///
/// ```
/// assert!(nanoindex_core::script::is_cjk('授') && !nanoindex_core::script::is_cjk('a'));
/// ```
#[must_use]
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Extension A
        | 0x4E00..=0x9FFF // CJK Unified Ideographs
        | 0xAC00..=0xD7AF // Hangul syllables
        | 0xF900..=0xFAFF // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F)
}
