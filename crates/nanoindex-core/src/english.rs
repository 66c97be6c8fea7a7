//! English phrasing that every output shares: a count with its noun in the right number.

/// `n` (any integer type) followed by `noun`, plural unless `n` is 1: `counted(1, "page")`
/// is `"1 page"`, `counted(3, "page")` is `"3 pages"`. The plural adds `s` (the nouns this program
/// counts — page, document, passage, question, node — all take it).
///
/// ```
/// assert_eq!(nanoindex_core::english::counted(1, "page"), "1 page");
/// assert_eq!(nanoindex_core::english::counted(0, "document"), "0 documents");
/// ```
pub fn counted<N: std::fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "page"), "1 page");
        assert_eq!(counted(0, "page"), "0 pages");
        assert_eq!(counted(2, "question"), "2 questions");
    }
}
