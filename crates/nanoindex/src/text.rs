//! Text segmentation shared by `ask` and the enrichment (the split cascade and its prompts):
//! paragraphs, sentences, opening words and titles, all as byte ranges of the original text so that
//! whatever is cut from it stays verbatim.

use std::ops::Range;

/// Paragraphs of `text`: maximal runs of lines between blank lines (the tree separates
/// blocks with a blank line), as byte ranges without the surrounding blank lines.
pub fn paragraphs(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if body.trim().is_empty() {
            if let Some(s) = start.take() {
                out.push(s..end);
            }
        } else {
            if start.is_none() {
                start = Some(offset);
            }
            end = offset + body.len();
        }
        offset += line.len();
    }
    if let Some(s) = start {
        out.push(s..end);
    }
    out
}

/// Where [`sentences`] cuts besides sentence ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cuts {
    /// Sentence ends only: `.`, `!`, `?` (the split cascade, summaries).
    Sentences,
    /// Sentence ends and `;` before a capitalised clause ("… the Effective Date; Licensee
    /// shall …"): the reader's units, where one clause carries one value.
    Clauses,
}

/// The one sentence rule of the engine (the reader, the instruction filter, the split
/// cascade and the summaries use it): sentences inside `range` of `text`, as byte ranges of
/// `text` trimmed of surrounding whitespace. A sentence ends after `.`, `!` or `?` (and `;`
/// with [`Cuts::Clauses`]), then any closing quotes or brackets, then whitespace and an
/// uppercase letter, a digit, a quote or a bracket — unless the word before the period is an
/// abbreviation ([`is_abbreviation`]: `Inc.`, `No.`, `Sec.`, `U.S.`, single initials) —, at
/// a blank line, and before a list bullet followed by a space (`… fiscal 2024 • Income …`).
///
/// # Panics
///
/// When `range` is not a range of character boundaries of `text`.
pub fn sentences(text: &str, range: Range<usize>, cuts: Cuts) -> Vec<Range<usize>> {
    let slice = &text[range.clone()];
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = slice.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let mut end_here = None;
        if matches!(c, '.' | '!' | '?') || (c == ';' && cuts == Cuts::Clauses) {
            let mut j = i + 1;
            while j < chars.len() && matches!(chars[j].1, '"' | '\'' | ')' | '”' | '’') {
                j += 1;
            }
            let mut k = j;
            while k < chars.len() && chars[k].1.is_whitespace() {
                k += 1;
            }
            let next_opens = chars.get(k).is_some_and(|&(_, n)| {
                n.is_uppercase() || n.is_ascii_digit() || matches!(n, '"' | '“' | '(' | '[')
            });
            if k > j && next_opens && !(c == '.' && is_abbreviation(&slice[start..at])) {
                end_here = Some((chars.get(j).map_or(slice.len(), |&(b, _)| b), k));
            }
        } else if c == '\n' && chars.get(i + 1).is_some_and(|&(_, n)| n == '\n') {
            end_here = Some((at, i + 1));
        } else if is_bullet(c)
            && chars.get(i + 1).is_some_and(|&(_, n)| n.is_whitespace())
            && !slice[start..at].trim().is_empty()
        {
            // A bullet opens the next item of a list that line joining ran together.
            end_here = Some((at, i + 1));
        }
        if let Some((end_byte, next)) = end_here {
            push_trimmed(&mut out, slice, start..end_byte, range.start);
            start = chars.get(next).map_or(slice.len(), |&(b, _)| b);
            i = next;
        } else {
            i += 1;
        }
    }
    push_trimmed(&mut out, slice, start..slice.len(), range.start);
    out
}

/// List bullets (`•`, `●`, `▪`, `◦`, `‣`, `∙`, `■`, `□`): before one, a sentence ends.
pub(crate) fn is_bullet(c: char) -> bool {
    matches!(c, '•' | '●' | '▪' | '◦' | '‣' | '∙' | '■' | '□')
}

/// Words that end in a period without ending a sentence, lowercase: legal and corporate
/// abbreviations, "Rs." (Indian rupees, before the amount), "Vol.", "Hon." (a judge's title,
/// before the name) and the short month names.
const ABBREVIATIONS: &[&str] = &[
    "inc", "corp", "co", "ltd", "no", "nos", "mr", "mrs", "ms", "dr", "prof", "hon", "st", "jr",
    "sr", "v", "vs", "sec", "secs", "art", "para", "cl", "p", "pp", "ex", "fig", "cf", "al",
    "approx", "rs", "vol", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
    "nov", "dec",
];

/// Whether the last word of `before` (the text before a period) is an abbreviation: one of
/// [`ABBREVIATIONS`] in any case, a single letter (an initial), or initials joined by periods
/// (`U.S`, `e.g`, `N.A`; not a figure such as `3.5`, a domain name or an ellipsis).
fn is_abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    let lower = word.to_lowercase();
    let single_initial = word.chars().count() == 1 && word.chars().all(char::is_alphabetic);
    // Initials joined by periods (`U.S`, `e.g`, `Ph.D`): every part a few letters, so a
    // domain name (`Amazon.com`) or an ellipsis (`rose..`) still ends its sentence.
    let dotted = word.contains('.')
        && word.split('.').all(|part| {
            (1..=3).contains(&part.chars().count()) && part.chars().all(char::is_alphabetic)
        });
    single_initial || dotted || ABBREVIATIONS.contains(&lower.as_str())
}

fn push_trimmed(out: &mut Vec<Range<usize>>, slice: &str, r: Range<usize>, base: usize) {
    let part = &slice[r.clone()];
    let lead = part.len() - part.trim_start().len();
    let trail = part.len() - part.trim_end().len();
    if r.start + lead < r.end - trail {
        out.push(base + r.start + lead..base + r.end - trail);
    }
}

/// Cut points of `text` from coarse to fine, for [`pack`]: paragraph starts, then sentence
/// starts inside paragraphs over `limit` estimated tokens, then line starts inside
/// sentences still over it. Sorted, without duplicates.
pub fn boundaries(text: &str, limit: usize) -> Vec<usize> {
    let mut bounds = Vec::new();
    for p in paragraphs(text) {
        bounds.push(p.start);
        if nanoindex_core::estimate_tokens(&text[p.clone()]) <= limit {
            continue;
        }
        for s in sentences(text, p, Cuts::Sentences) {
            bounds.push(s.start);
            if nanoindex_core::estimate_tokens(&text[s.clone()]) > limit {
                let mut at = s.start;
                for line in text[s.clone()].split_inclusive('\n') {
                    bounds.push(at);
                    at += line.len();
                }
            }
        }
    }
    bounds.sort_unstable();
    bounds.dedup();
    bounds
}

/// True when a phrase of three consecutive words makes up most of `words`: fewer than half
/// of its word trigrams are distinct (a model stuck repeating itself).
pub fn mostly_repeated_trigrams<T: Eq + std::hash::Hash>(words: &[T]) -> bool {
    let trigrams: Vec<&[T]> = words.windows(3).collect();
    let distinct: std::collections::HashSet<&[T]> = trigrams.iter().copied().collect();
    distinct.len() * 2 < trigrams.len()
}

/// True when model output of ten words or more repeats itself: fewer than half of its
/// lowercase word trigrams are distinct ([`mostly_repeated_trigrams`]). The one rule for
/// degenerate summaries and drafts.
pub fn is_repetitive(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.len() >= 10 && mostly_repeated_trigrams(&words)
}

/// Words in a phrase whose second occurrence marks a model's text as looping
/// ([`loop_start`]). Eight, because a summary may well repeat a six-word phrase ("for the
/// year ended December 31, 2023, compared with … for the year ended December 31, 2022") or
/// name a five-word party twice, while eight words said again are, in the default model's
/// replies, a loop going round ("the date of the first report, the date of the first report,
/// the date …").
pub const LOOP_WORDS: usize = 8;

/// Byte offset in `text` where a phrase of [`LOOP_WORDS`] words (compared in lower case,
/// words being runs of letters and digits) begins that already began earlier in `text`:
/// the start of the model's second time round a loop. `None` when no such phrase repeats.
///
/// The text before the offset is what the model wrote before it looped; a reply being
/// generated can be stopped as soon as this is `Some`.
pub fn loop_start(text: &str) -> Option<usize> {
    let words: Vec<(usize, String)> = text
        .char_indices()
        .filter(|&(i, c)| {
            c.is_alphanumeric()
                && !text[..i]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
        })
        .map(|(i, _)| {
            let end = text[i..]
                .find(|c: char| !c.is_alphanumeric())
                .map_or(text.len(), |n| i + n);
            (i, text[i..end].to_lowercase())
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    for (start, phrase) in words.windows(LOOP_WORDS).enumerate() {
        let key: Vec<&str> = phrase.iter().map(|(_, w)| w.as_str()).collect();
        if !seen.insert(key) {
            return Some(words[start].0);
        }
    }
    None
}

/// The first `n` words of the line starting at byte `at`, exactly as written (so that a
/// model can copy them and [`find_opening`] can find them again).
pub fn opening_words(text: &str, at: usize, n: usize) -> String {
    let line = text[at..].lines().next().unwrap_or("");
    let mut end = 0;
    for (count, (i, word)) in word_spans(line).enumerate() {
        end = i + word.len();
        if count + 1 >= n {
            break;
        }
    }
    line[..end].to_string()
}

fn word_spans(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split(' ')
        .scan(0usize, |pos, w| {
            let at = *pos;
            *pos += w.len() + 1;
            Some((at, w))
        })
        .filter(|(_, w)| !w.is_empty())
}

/// Where `opening` occurs in `text` at one of the allowed `starts` (exact, case-sensitive),
/// else anywhere at the start of a line. `None` when it is not in the text verbatim.
pub fn find_opening(text: &str, starts: &[usize], opening: &str) -> Option<usize> {
    let opening = opening.trim();
    if opening.is_empty() {
        return None;
    }
    if let Some(&at) = starts.iter().find(|&&s| text[s..].starts_with(opening)) {
        return Some(at);
    }
    text.match_indices(opening)
        .map(|(i, _)| i)
        .find(|&i| i == 0 || text[..i].ends_with('\n'))
}

/// A title for a piece of text: its first non-blank line, cut at a word boundary to at
/// most `max_chars` characters (with `…` when cut).
pub fn title_of(text: &str, max_chars: usize) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() <= max_chars {
        return line.to_string();
    }
    let mut out = String::new();
    for word in line.split_whitespace() {
        if out.chars().count() + word.chars().count() + 1 > max_chars.saturating_sub(1) {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.is_empty() {
        out = line.chars().take(max_chars.saturating_sub(1)).collect();
    }
    out.push('…');
    out
}

/// The longest prefix of `text` of at most `max_tokens` estimated tokens
/// ([`nanoindex_core::estimate_tokens`]), cut at a character boundary.
pub fn head(text: &str, max_tokens: usize) -> &str {
    let max_chars = max_tokens * 4;
    match text.char_indices().nth(max_chars) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// Splits `range` of `text` into consecutive pieces of at most `limit` estimated tokens,
/// cutting only at the given boundaries (sorted byte offsets inside the range). A stretch
/// between two boundaries that is over the limit on its own is its own piece.
pub fn pack(
    text: &str,
    range: Range<usize>,
    boundaries: &[usize],
    limit: usize,
) -> Vec<Range<usize>> {
    let mut cuts: Vec<usize> = boundaries
        .iter()
        .copied()
        .filter(|&b| b > range.start && b < range.end)
        .collect();
    cuts.push(range.end);
    let mut out = Vec::new();
    let mut start = range.start;
    let mut last_ok = None;
    for &cut in &cuts {
        if nanoindex_core::estimate_tokens(&text[start..cut]) <= limit {
            last_ok = Some(cut);
            continue;
        }
        match last_ok.take() {
            Some(ok) => {
                out.push(start..ok);
                start = ok;
                if nanoindex_core::estimate_tokens(&text[start..cut]) <= limit {
                    last_ok = Some(cut);
                } else {
                    out.push(start..cut);
                    start = cut;
                }
            }
            None => {
                out.push(start..cut);
                start = cut;
            }
        }
    }
    if start < range.end {
        out.push(start..range.end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_starts_where_an_eight_word_phrase_begins_again() {
        // A reply of the default model on the AMCOR 8-K (cut).
        let reply = "This section is a summary of the current report. It includes the date of \
                     the first event reported, the date of the first report, the date of the \
                     first report, the date";
        let at = loop_start(reply).expect("a loop");
        assert!(
            reply[..at].ends_with("the date of the first report, "),
            "{}",
            &reply[..at]
        );
        // Case and punctuation do not hide the phrase.
        let shouting = "The governing law is New York State law. THE GOVERNING LAW IS NEW YORK \
                        STATE LAW; and";
        assert_eq!(loop_start(shouting), Some(41));
        // A six-word phrase said twice is no loop.
        assert_eq!(
            loop_start(
                "Net sales were $5 million for the year ended December 31, 2023, compared with \
                 $4 million for the year ended December 31, 2022."
            ),
            None
        );
        // A five-word name said twice is no loop, nor is prose without repeats.
        assert_eq!(
            loop_start(
                "Deutsche Bank Trust Company Americas is the trustee; Deutsche Bank Trust \
                 Company Americas signs."
            ),
            None
        );
        assert_eq!(loop_start("Rent is $2 million a year, paid monthly."), None);
    }

    #[test]
    fn paragraphs_are_runs_between_blank_lines() {
        let text = "Title\n\nFirst line\nsecond line\n\n\nLast.";
        let p: Vec<&str> = paragraphs(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(p, ["Title", "First line\nsecond line", "Last."]);
    }

    #[test]
    fn bullets_run_together_by_line_joining_are_items() {
        let text = "Revenues increased 5% to $24.7 billion from $23.5 billion in Q1 fiscal 2024 \
                    • Diluted EPS increased 35% for Q1 to $1.40 • Total segment income rose";
        let s: Vec<&str> = sentences(text, 0..text.len(), Cuts::Clauses)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            s,
            [
                "Revenues increased 5% to $24.7 billion from $23.5 billion in Q1 fiscal 2024",
                "Diluted EPS increased 35% for Q1 to $1.40",
                "Total segment income rose"
            ]
        );
    }

    #[test]
    fn sentences_skip_abbreviations_and_decimals() {
        let text = "Acme Inc. Sold 3.5 tons. Revenue rose 4% in the U.S. Market. Next one?  Yes. \
                    Room rent up to maximum of Rs. 5,000 per day. Presiding: Hon. Vince Chhabria.";
        let s: Vec<&str> = sentences(text, 0..text.len(), Cuts::Sentences)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            s,
            [
                "Acme Inc. Sold 3.5 tons.",
                "Revenue rose 4% in the U.S. Market.",
                "Next one?",
                "Yes.",
                "Room rent up to maximum of Rs. 5,000 per day.",
                "Presiding: Hon. Vince Chhabria."
            ]
        );
    }

    #[test]
    fn clauses_cut_at_semicolons_before_capitals_and_quotes_close_sentences() {
        let text = "The term is the “Effective Date.” The fee is 2.5. Licensee pays; Licensor ships; and so on.\nNext line.";
        let cut = |cuts| -> Vec<&str> {
            sentences(text, 0..text.len(), cuts)
                .into_iter()
                .map(|r| &text[r])
                .collect()
        };
        assert_eq!(
            cut(Cuts::Clauses),
            [
                "The term is the “Effective Date.”",
                "The fee is 2.5.",
                "Licensee pays;",
                "Licensor ships; and so on.",
                "Next line."
            ]
        );
        assert_eq!(
            cut(Cuts::Sentences),
            [
                "The term is the “Effective Date.”",
                "The fee is 2.5.",
                "Licensee pays; Licensor ships; and so on.",
                "Next line."
            ]
        );
    }

    #[test]
    fn domain_names_and_ellipses_end_sentences_but_initials_do_not() {
        let text = "Orders came from Amazon.com. Prices rose... Then the U.S. Court ruled.";
        let s: Vec<&str> = sentences(text, 0..text.len(), Cuts::Clauses)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            s,
            [
                "Orders came from Amazon.com.",
                "Prices rose...",
                "Then the U.S. Court ruled."
            ]
        );
    }

    #[test]
    fn openings_are_verbatim_and_found_again() {
        let text = "Intro text.\nThe Supplier  shall deliver goods on time.\nMore.";
        let at = text.find("The").unwrap();
        let opening = opening_words(text, at, 4);
        assert_eq!(opening, "The Supplier  shall deliver");
        assert_eq!(find_opening(text, &[], &opening), Some(at));
        assert_eq!(find_opening(text, &[], "The Supplier shall"), None);
    }

    #[test]
    fn titles_are_cut_at_words() {
        assert_eq!(title_of("\n  Short line\nmore", 40), "Short line");
        assert_eq!(title_of("one two three four", 12), "one two…");
    }

    #[test]
    fn packing_respects_the_limit_and_boundaries() {
        let text = "aaaa ".repeat(40); // 200 chars, 50 tokens
        let bounds: Vec<usize> = (1..10).map(|i| i * 20).collect();
        let pieces = pack(&text, 0..text.len(), &bounds, 12);
        assert!(pieces
            .iter()
            .all(|r| nanoindex_core::estimate_tokens(&text[r.clone()]) <= 12));
        assert_eq!(pieces.first().unwrap().start, 0);
        assert_eq!(pieces.last().unwrap().end, text.len());
        assert!(pieces.windows(2).all(|w| w[0].end == w[1].start));
        assert!(pieces
            .iter()
            .all(|r| r.start == 0 || bounds.contains(&r.start)));
    }
}
