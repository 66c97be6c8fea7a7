//! The name a "which NOUN" question asks for, read from a sentence that names it beside
//! that noun: "Which fuzz tester …?" against "… the fuzz tester, QUICKFUZZ, which …" is
//! "QUICKFUZZ". Free-text questions otherwise get the sentence quoted as the closest
//! passage; a name found this way is the answer, shown with the sentence that says it.
//!
//! The asked noun (the head) is the words after a question-opening "which" ("In which …")
//! or "What is the name of", up to the question's verb (at most three words, five after
//! "name of"); the sentence must contain the head's last word, the noun itself. The
//! name is then, in this order of trust:
//!
//! 1. an appositive right after the noun: "the trace compiler, NANOJIT, is …";
//! 2. names right after it: "Justices ADAMS and BAKER did not …";
//! 3. names after "such as" in the noun's clause: "alternative products …, such as our X1
//!    or X2 offerings";
//! 4. names right before it (up to two lowercase modifiers between): "Mozilla's Firefox
//!    open-source web browser".
//!
//! A capitalised noun is part of a name, read first: the capitalised run around it ("the
//! Kiamichi River Basin").
//!
//! A name is a run of capitalised words or words with digits (a possessive is kept,
//! determiners and a court's capitalised disposition are not), joined by "and", "or",
//! "of", "&" or commas; it must hold a word the
//! question does not. A noun may also stand before "of" and its names ("the States of
//! Arkansas, Louisiana, Oklahoma, and Texas"). A head with a number ("which four states")
//! asks for a list of that many: a list of another length is not its answer.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::answer_type;
use super::reader::stem;

/// Words that end the head: the question's verb and auxiliaries.
const VERBS: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "did", "does", "do", "has", "have", "had", "will",
    "would", "can", "could", "may", "might", "must", "shall", "should",
];

/// Irregular past tenses that end a head ("Which judges heard …").
const IRREGULAR_PAST: &[&str] = &[
    "heard", "made", "sold", "paid", "held", "told", "wrote", "gave", "took", "led", "won",
    "brought", "bought", "found", "met", "ran", "set", "kept", "left", "lost", "began", "became",
    "came", "saw", "said", "went", "got", "put", "chose", "drew", "grew", "knew", "rose", "fell",
    "sent", "spent", "built", "struck", "sought", "thought", "taught", "caught", "read", "meant",
];

/// Words that are never part of a name, even capitalised at a sentence's start.
pub(super) const DETERMINERS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "our", "its", "their", "his", "her",
    "such", "each", "every", "any", "all", "some", "no", "one", "we", "it", "they", "in", "on",
    "at", "of", "by", "for", "to", "from", "with", "as", "and", "or",
];

/// How a question that asks a thing's name opens.
const NAME_OF: &[&str] = &[
    "what is the name of ",
    "what was the name of ",
    "what is the full name of ",
    "what was the full name of ",
];

/// Prepositions before a question-opening "which" ("In which …", "From which …").
const PREPOSITIONS: &[&str] = &[
    "in", "from", "to", "on", "at", "by", "for", "under", "with", "into", "of", "through",
    "before", "after", "against", "between", "within",
];

/// A court's disposition, written in capitals after "The Court" ("AFFIRMS", "REVERSED"):
/// no name.
const DISPOSITIONS: &[&str] = &[
    "affirms",
    "affirmed",
    "reverses",
    "reversed",
    "vacates",
    "vacated",
    "remands",
    "remanded",
    "denies",
    "denied",
    "grants",
    "granted",
    "dismisses",
    "dismissed",
    "orders",
    "ordered",
    "modified",
    "so",
];

/// Number words: a head with one asks for a list of that many.
const NUMBERS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// Most words between "such as" and the end of the head it follows.
const SUCH_AS_REACH: usize = 15;

/// A word of the sentence and its byte range.
#[derive(Debug, Clone)]
struct Word<'s> {
    text: &'s str,
    start: usize,
    end: usize,
}

static WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[\p{L}\p{N}](?:[\p{L}\p{N}&'’.-]*[\p{L}\p{N}])?(?:['’]s?)?").expect("word pattern")
});

fn words(text: &str) -> Vec<Word<'_>> {
    WORD.find_iter(text)
        .map(|m| Word {
            text: m.as_str(),
            start: m.start(),
            end: m.end(),
        })
        .collect()
}

fn key(word: &str) -> String {
    let lower = word.to_lowercase();
    let bare = ["'s", "’s", "'", "’"]
        .iter()
        .find_map(|p| lower.strip_suffix(p))
        .unwrap_or(&lower);
    stem(bare)
}

/// The head noun phrase of a "which …" or "what is the name of …" question, as written
/// (its words), or `None` for other questions.
#[cfg(test)]
fn head(question: &str) -> Option<Vec<String>> {
    head_counted(question).map(|(words, _)| words)
}

/// The head noun phrase of a "which …" or "what is the name of …" question, as written
/// (its words), with the number of names a counted head asks for ("which four states": 4);
/// `None` for other questions.
fn head_counted(question: &str) -> Option<(Vec<String>, Option<usize>)> {
    // ASCII lowercasing keeps byte offsets, so `at` indexes `question` too.
    let lower = question.trim_start().to_ascii_lowercase();
    let question = question.trim_start();
    let name_of = NAME_OF.iter().find(|p| lower.starts_with(*p));
    let at = if let Some(p) = name_of {
        p.len()
    } else if lower.starts_with("which ") {
        "which ".len()
    } else {
        let p = PREPOSITIONS
            .iter()
            .find(|p| lower.starts_with(&format!("{p} which ")))?;
        p.len() + " which ".len()
    };
    let most = if name_of.is_some() { 5 } else { 3 };
    let rest = &question[at..];
    let rest = rest.split(['(', '?']).next().unwrap_or(rest);
    let mut out = Vec::new();
    let mut count = None;
    for w in words(rest) {
        let lower = w.text.to_lowercase();
        let past = lower.ends_with("ed") || IRREGULAR_PAST.contains(&lower.as_str());
        let verb =
            VERBS.contains(&lower.as_str()) || answer_type::PRESENT_VERBS.contains(&lower.as_str());
        // A relative clause ends the head: "the CytoDyn drug candidate that is the subject …".
        let relative = matches!(lower.as_str(), "that" | "which" | "who" | "whom" | "whose");
        if verb || relative || (!out.is_empty() && past) {
            break;
        }
        if let Some(n) = NUMBERS.iter().position(|n| *n == lower) {
            count = Some(n + 2);
            continue;
        }
        if lower.chars().all(|c| c.is_ascii_digit()) {
            count = lower.parse().ok();
            continue;
        }
        out.push(w.text.to_string());
        if out.len() == most {
            break;
        }
    }
    (!out.is_empty()).then_some((out, count))
}

/// How many names a run of names lists ("Fort Worth, Arlington, and Mansfield": 3).
fn listed(names: &str) -> usize {
    names
        .split(',')
        .flat_map(|p| p.split(" and ").flat_map(|p| p.split(" or ")))
        .flat_map(|p| p.split(" & "))
        .filter(|p| {
            let p = p.trim();
            !p.is_empty() && p != "and" && p != "or"
        })
        .count()
}

fn is_name_word(word: &str) -> bool {
    let lower = word.to_lowercase();
    if DETERMINERS.contains(&lower.as_str()) || DISPOSITIONS.contains(&lower.as_str()) {
        return false;
    }
    word.starts_with(|c: char| c.is_uppercase()) || word.chars().any(|c| c.is_ascii_digit())
}

/// The gap between two words is only spaces (no punctuation).
fn joined(sentence: &str, a: &Word<'_>, b: &Word<'_>) -> bool {
    sentence[a.end..b.start].chars().all(char::is_whitespace)
}

/// A run of names starting at word `i`, joined by "and", "or", "of", "&" and commas;
/// returns the byte range and the index after it.
fn names_from(sentence: &str, ws: &[Word<'_>], i: usize) -> Option<(usize, usize, usize)> {
    let first = ws.get(i).filter(|w| is_name_word(w.text))?;
    let (start, mut end, mut next) = (first.start, first.end, i + 1);
    let mut k = i + 1;
    while let Some(w) = ws.get(k) {
        let gap = &sentence[ws[k - 1].end..w.start];
        let lower = w.text.to_lowercase();
        if gap.trim().is_empty() && is_name_word(w.text) {
            end = w.end;
            k += 1;
            next = k;
            continue;
        }
        // A joining word or comma, then another name.
        // ("A, B, and C": the list's last comma before its joining word.)
        let joiner = ["and", "or", "of", "&"].contains(&lower.as_str());
        if joiner && (gap.trim().is_empty() || (gap.trim() == "," && lower != "of")) {
            if let Some(after) = ws.get(k + 1).filter(|a| is_name_word(a.text)) {
                if joined(sentence, w, after) {
                    end = after.end;
                    k += 2;
                    next = k;
                    continue;
                }
            }
        }
        if gap.trim() == "," && is_name_word(w.text) {
            // A list "A, B and C": a comma between names only when a joining word follows.
            let more = ws[k..]
                .iter()
                .take(4)
                .any(|x| ["and", "or"].contains(&x.text.to_lowercase().as_str()));
            if more {
                end = w.end;
                k += 1;
                next = k;
                continue;
            }
        }
        break;
    }
    Some((start, end, next))
}

/// The name the question asks for, from `sentence` (see the module docs), without a
/// trailing apostrophe.
#[must_use]
pub fn name(question: &str, sentence: &str) -> Option<String> {
    let (head, count) = head_counted(question)?;
    let asked: HashSet<String> = words(question).iter().map(|w| key(w.text)).collect();
    let ws = words(sentence);
    let keys: Vec<String> = ws.iter().map(|w| key(w.text)).collect();
    let head_keys: Vec<String> = head.iter().map(|w| key(w)).collect();
    let noun = head_keys.last()?;
    // The longest run of head words, ending with the noun, that the sentence has in a row.
    let mut found: Option<(usize, usize)> = None;
    for (i, k) in keys.iter().enumerate() {
        if k != noun {
            continue;
        }
        let mut len = 1;
        while len < head_keys.len()
            && i >= len
            && keys[i - len] == head_keys[head_keys.len() - 1 - len]
            && joined(sentence, &ws[i - len], &ws[i - len + 1])
        {
            len += 1;
        }
        if found.is_none_or(|(_, l)| len > l) {
            found = Some((i + 1 - len, len));
        }
    }
    let (at, len) = found?;
    let last = at + len - 1;
    // A name holds a word the question does not; a counted head's list has that many names.
    let new_word = |range: (usize, usize)| {
        words(&sentence[range.0..range.1])
            .iter()
            .any(|w| !asked.contains(&key(w.text)) && is_name_word(w.text))
            && count.is_none_or(|n| listed(&sentence[range.0..range.1]) == n)
    };
    let clean = |range: (usize, usize)| -> String {
        sentence[range.0..range.1]
            .trim_end_matches(['\'', '’'])
            .trim()
            .to_string()
    };
    // 0. A capitalised noun after names is part of a name: the capitalised run around it
    // ("the Kiamichi River Basin", "U.S. Bank National Association").
    if ws[last].text.starts_with(|c: char| c.is_uppercase()) {
        let mut from = at;
        while from > 0
            && joined(sentence, &ws[from - 1], &ws[from])
            && is_name_word(ws[from - 1].text)
        {
            from -= 1;
        }
        let mut to = last;
        while to + 1 < ws.len()
            && joined(sentence, &ws[to], &ws[to + 1])
            && is_name_word(ws[to + 1].text)
        {
            to += 1;
        }
        // Names only after it ("Justices ADAMS and BAKER") are read as names after it.
        let range = (ws[from].start, ws[to].end);
        if from < at && new_word(range) {
            return Some(clean(range));
        }
    }
    // 1. An appositive: "the noun, NAME," (or the sentence's end).
    if let Some(next) = ws.get(last + 1) {
        if sentence[ws[last].end..next.start].trim() == "," {
            if let Some((s, e, after)) = names_from(sentence, &ws, last + 1) {
                let closes = match ws.get(after) {
                    None => true,
                    Some(w) => {
                        let gap = sentence[e..w.start].trim();
                        gap.starts_with([',', ';', '.', ')']) || gap.starts_with('(')
                    }
                };
                if closes && new_word((s, e)) {
                    return Some(clean((s, e)));
                }
            }
        }
        // 2. Names right after the noun, or after its "of" ("the cities of Fort Worth,
        // Arlington, and Mansfield").
        if joined(sentence, &ws[last], next) {
            // (After "of" only for a plural or counted noun: "the agreement of March 3" is
            // dated, not named.)
            let plural = count.is_some() || noun.ends_with('s') || ws[last].text.ends_with('s');
            let of = next.text.eq_ignore_ascii_case("of") && plural;
            if let Some((s, e, _)) = names_from(sentence, &ws, last + 1 + usize::from(of)) {
                if new_word((s, e)) {
                    return Some(clean((s, e)));
                }
            }
        }
    }
    // 3. "such as" in the noun's clause.
    let clause_end = sentence[ws[last].end..]
        .find(['.', ';'])
        .map_or(sentence.len(), |i| ws[last].end + i);
    for k in last + 1..(last + SUCH_AS_REACH).min(ws.len().saturating_sub(1)) {
        if ws[k].start >= clause_end {
            break;
        }
        if ws[k].text.eq_ignore_ascii_case("such") && ws[k + 1].text.eq_ignore_ascii_case("as") {
            let mut j = k + 2;
            while ws
                .get(j)
                .is_some_and(|w| DETERMINERS.contains(&w.text.to_lowercase().as_str()))
            {
                j += 1;
            }
            if let Some((s, e, _)) = names_from(sentence, &ws, j) {
                if new_word((s, e)) {
                    return Some(clean((s, e)));
                }
            }
            break;
        }
    }
    // 4. Names right before the noun, past up to two lowercase modifiers; a capitalised
    // noun is part of the name.
    let mut k = at;
    let mut modifiers = 0;
    while k > 0 && modifiers < 2 {
        let w = &ws[k - 1];
        if !joined(sentence, w, &ws[k]) || is_name_word(w.text) {
            break;
        }
        if DETERMINERS.contains(&w.text.to_lowercase().as_str()) {
            return None;
        }
        modifiers += 1;
        k -= 1;
    }
    let end_word = k;
    let run_back = |mut k: usize| {
        while k > 0 && joined(sentence, &ws[k - 1], &ws[k]) && is_name_word(ws[k - 1].text) {
            k -= 1;
        }
        k
    };
    k = run_back(k);
    if k == end_word {
        return None;
    }
    // A list before the noun: "Ayurveda, Yoga and Naturopathy, Unani, Sidha and Homeopathy
    // systems", names joined by "and" or "or", and by commas before them once a joining
    // word was read, never a bare number ("In 2019, Zantac products" lists nothing).
    let mut joined_list = false;
    loop {
        let joiner = k >= 2
            && ["and", "or"].contains(&ws[k - 1].text.to_lowercase().as_str())
            && joined(sentence, &ws[k - 1], &ws[k])
            && is_name_word(ws[k - 2].text)
            && sentence[ws[k - 2].end..ws[k - 1].start]
                .trim()
                .trim_matches(',')
                .is_empty();
        let comma = joined_list
            && k >= 1
            && is_name_word(ws[k - 1].text)
            && ws[k - 1].text.chars().any(char::is_alphabetic)
            && sentence[ws[k - 1].end..ws[k].start].trim() == ",";
        if joiner {
            joined_list = true;
            k = run_back(k - 2);
        } else if comma {
            k = run_back(k - 1);
        } else {
            break;
        }
    }
    let range = (ws[k].start, ws[end_word - 1].end);
    new_word(range).then(|| clean(range))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_is_the_noun_before_the_verb() {
        assert_eq!(
            head("Which panel judges heard the appeal?")
                .map(|h| h.join(" "))
                .as_deref(),
            Some("panel judges")
        );
        let h = |q: &str| head(q).map(|h| h.join(" "));
        assert_eq!(
            h("Which fuzz tester helped the team find bugs?").as_deref(),
            Some("fuzz tester")
        );
        assert_eq!(
            h("In which web browser is the engine embedded?").as_deref(),
            Some("web browser")
        );
        assert_eq!(
            h("What is the name of the engine's trace compiler (back end)?").as_deref(),
            Some("the engine's trace compiler")
        );
        assert_eq!(
            h("Which justices did not participate?").as_deref(),
            Some("justices")
        );
        assert_eq!(
            head_counted("Which four states signed the compact?"),
            Some((vec!["states".to_string()], Some(4)))
        );
        assert_eq!(h("What was the revenue in 2023?"), None);
        assert_eq!(
            h("What is the name of the drug candidate that is licensed?").as_deref(),
            Some("the drug candidate")
        );
    }

    #[test]
    fn a_name_is_read_beside_the_asked_noun() {
        let cases = [
            (
                "Which fuzz tester helped the developers find bugs?",
                "One tool that helped was the project's random fuzz tester, QUICKFUZZ, which \
                 writes random programs.",
                Some("QUICKFUZZ"),
            ),
            (
                "What is the name of the engine's trace compiler (back end)?",
                "The trace compiler, TRACEJIT, is separate from the interpreter.",
                Some("TRACEJIT"),
            ),
            (
                "Which justices did not participate in the decision?",
                "Justices ADAMS and BAKER did not participate in the consideration of this case.",
                Some("ADAMS and BAKER"),
            ),
            (
                "Which alternative products has the company sold abroad?",
                "We have sold alternative products abroad not subject to the rules, such as our \
                 Z100 or Z200 offerings.",
                Some("Z100 or Z200"),
            ),
            (
                "In which web browser is the engine embedded?",
                "The engine is embedded in Acme's Comet open-source web browser, used by many.",
                Some("Acme's Comet"),
            ),
            (
                "From which river did the district propose to divert water?",
                "The district proposed to divert the Blue Fork River, at a point upstream.",
                Some("Blue Fork River"),
            ),
            (
                "In which county's Superior Court was the order entered?",
                "It reversed an order entered by Judge Smith in the Superior Court, Elm County.",
                Some("Elm County"),
            ),
            (
                "From which river did the district propose to divert water?",
                "It would divert water from the Blue Fork River Basin upstream of the dam.",
                Some("Blue Fork River Basin"),
            ),
            (
                "Which bank acts as the indenture trustee?",
                "The indenture trustee is Northwind Bank National Association, a bank.",
                Some("Northwind Bank National Association"),
            ),
            // A counted list with as many names; names after the noun's "of".
            (
                "Which four states are parties to the compact?",
                "The states, Alpha, Beta, Gamma and Delta, signed it.",
                Some("Alpha, Beta, Gamma and Delta"),
            ),
            (
                "Which four states are parties to the compact?",
                "Congress authorized the States of Arkansas, Louisiana, Oklahoma, and Texas to negotiate.",
                Some("Arkansas, Louisiana, Oklahoma, and Texas"),
            ),
            (
                "Which systems of medicine are covered under the AYUSH benefit?",
                "Expenses are covered under Ayurveda, Yoga and Naturopathy, Unani, Sidha and Homeopathy systems of medicine.",
                Some("Ayurveda, Yoga and Naturopathy, Unani, Sidha and Homeopathy"),
            ),
            (
                "Which products were recalled?",
                "In 2019, Zantac and Prilosec products were recalled.",
                Some("Zantac and Prilosec"),
            ),
            // A comma before names is no list without a joining word.
            (
                "Which products were recalled?",
                "In 2019, Zantac products were recalled.",
                Some("Zantac"),
            ),
            (
                "Which cities does the water district supply?",
                "The district supplies water to north Texas (including the cities of Fort Worth, Arlington, and Mansfield).",
                Some("Fort Worth, Arlington, and Mansfield"),
            ),
        ];
        for (question, sentence, expected) in cases {
            assert_eq!(name(question, sentence).as_deref(), expected, "{question}");
        }
    }

    #[test]
    fn no_name_is_made_up_where_the_sentence_does_not_give_one() {
        let cases = [
            // The noun is not there.
            (
                "Which cloud service provider accounted for 22% of revenue?",
                "One direct customer accounted for 22% of revenue in the quarter.",
            ),
            // The noun is there, but no name beside it.
            (
                "Which fuzz tester helped the developers find bugs?",
                "A fuzz tester helped the developers find many bugs.",
            ),
            // The name beside it is the question's own.
            (
                "In which web browser is Comet embedded?",
                "Comet web browser users saw faster pages.",
            ),
            // A counted list of another length is not the list asked for.
            (
                "Which four states are parties to the compact?",
                "The states, Alpha, Beta and Gamma, signed it.",
            ),
            // A question that names its noun later, not after an opening "which".
            (
                "What is the purpose of the facility which the bank provided?",
                "The credit facility with Fabrikam Bank funds the plant.",
            ),
            // A present-tense verb ends the noun: the trustee is not the firm asked.
            (
                "Which law firm represents the trustee?",
                "Smith LLP represents the trustee, Contoso Bank, in the case.",
            ),
            // A court's disposition in capitals is no name.
            (
                "Which court heard the appeal?",
                "The Court AFFIRMS the judgment below.",
            ),
            // Letters whose lowercase is longer do not move the words read.
            (
                "In İzmir, which école did she attend?",
                "The école, in Izmir, is small.",
            ),
            // A date after a singular noun's "of" is no name.
            (
                "Which agreement did the parties amend?",
                "The parties amended the agreement of March 3, 2020 to extend the term.",
            ),
            // Lowercase words after the noun are no name.
            (
                "Which panel judges heard the appeal?",
                "The judges heard the appeal in March.",
            ),
        ];
        for (question, sentence) in cases {
            assert_eq!(name(question, sentence), None, "{question} / {sentence}");
        }
    }
}
