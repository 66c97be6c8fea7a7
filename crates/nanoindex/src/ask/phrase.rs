//! The answer sentence, built from the question's wording and the value found: "What is the
//! effective date of the Agreement?" + `March 1, 2021` → "The effective date of the
//! Agreement is March 1, 2021." Rules on the question's form; a form no rule knows gives the
//! value alone ("March 1, 2021.").

use std::sync::LazyLock;

use regex::Regex;

use super::answer_type::question_proper;

static WHAT_IS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:what|which|who|how long|how much)\s+(is|was|are|were|will be)\s+(.+)$")
        .expect("pattern")
});
static WHEN_PASSIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^when\s+(is|was|are|were)\s+(.+?)\s+(\w+(?:ed|en)|made|paid|held|signed|filed|decided|argued|issued|entered into|due|set)$")
        .expect("pattern")
});
static WHO_DID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:who|which\s+(?:justice|judge|party|person|officer|company))\s+(\w+ed|wrote|signed|delivered|filed|brought|issued|sponsors|represents|represented|leads|led)\s+(.+)$")
        .expect("pattern")
});
static WHEN_DID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:on\s+)?(?:what\s+date|when)\s+did\s+(.+?)\s+(file|sign|hold|pay|enter|issue|decide|grant|rule|hear|argue|begin|end|terminate|expire|close|approve|adopt|submit|vote|open|start|complete|deliver|execute|publish|announce|release|take|become|receive|commence)\b\s*(.*)$")
        .expect("pattern")
});
static PARENTHESES: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\s*\([^)]*\)").expect("pattern"));

/// The sentence stating `value` as the answer to `question` (one part of it).
///
/// ```
/// use nanoindex::ask::phrase::sentence;
/// assert_eq!(
///     sentence("What is the effective date of the Agreement?", "March 1, 2021"),
///     "The effective date of the Agreement is March 1, 2021."
/// );
/// assert_eq!(
///     sentence("When was the opinion filed?", "June 13, 2013"),
///     "The opinion was filed on June 13, 2013."
/// );
/// assert_eq!(
///     sentence("Who delivered the opinion of the Court?", "JUSTICE SOTOMAYOR"),
///     "JUSTICE SOTOMAYOR delivered the opinion of the Court."
/// );
/// assert_eq!(
///     sentence("Which justice wrote the opinion of the Court?", "HUDSON"),
///     "HUDSON wrote the opinion of the Court."
/// );
/// ```
#[must_use]
pub fn sentence(question: &str, value: &str) -> String {
    let q = question_proper(question);
    let value = value.trim().trim_end_matches('.');
    let q = PARENTHESES.replace_all(q, "");
    let q = q.trim();
    if let Some(c) = WHEN_PASSIVE.captures(q) {
        let preposition = preposition_for(value);
        return finish(&format!(
            "{} {} {} {preposition} {value}",
            capitalise(&c[2]),
            c[1].to_lowercase(),
            &c[3]
        ));
    }
    if let Some(c) = WHEN_DID.captures(q) {
        let rest = if c[3].trim().is_empty() {
            String::new()
        } else {
            format!(" {}", c[3].trim())
        };
        return finish(&format!(
            "{} {}{rest} {} {value}",
            capitalise(c[1].trim()),
            past_tense(&c[2].to_lowercase()),
            preposition_for(value)
        ));
    }
    if let Some(c) = WHO_DID.captures(q) {
        return finish(&format!("{value} {} {}", c[1].to_lowercase(), &c[2]));
    }
    if let Some(noun) = q
        .to_lowercase()
        .starts_with("how many ")
        .then(|| super::reader::counted_noun(q))
        .flatten()
    {
        let stated = if value.to_lowercase().contains(noun.trim_end_matches('s')) {
            value.to_string()
        } else {
            format!("{value} {noun}")
        };
        return finish(&stated);
    }
    if let Some(c) = WHAT_IS.captures(q) {
        let subject = c[2].trim();
        // "What is each wellness point worth?": "Each wellness point is worth INR 0.20."
        let worth = subject.match_indices(" worth").map(|(i, _)| i).find(|&i| {
            // "net worth", "total worth" name an amount; the verb "is worth" follows the
            // thing and ends the subject or comes before a preposition.
            let before = subject[..i].to_lowercase();
            let after = subject[i + " worth".len()..].trim_start().to_lowercase();
            !before.ends_with("net")
                && !before.ends_with("total")
                && (after.is_empty()
                    || ["under ", "in ", "to ", "at ", "for ", "per ", "on "]
                        .iter()
                        .any(|p| after.starts_with(p)))
        });
        if let Some(i) =
            worth.filter(|_| c[1].eq_ignore_ascii_case("is") || c[1].eq_ignore_ascii_case("was"))
        {
            let rest = &subject[i + " worth".len()..];
            return finish(&format!(
                "{} {} worth {value}{rest}",
                capitalise(&subject[..i]),
                c[1].to_lowercase()
            ));
        }
        // "What is Boeing's … ?" and "What is the … ?" read as sentences; "What was the
        // vote?" too.
        return finish(&format!(
            "{} {} {value}",
            capitalise(subject),
            c[1].to_lowercase()
        ));
    }
    finish(value)
}

/// The sentence saying that a part is not stated in the pages read.
///
/// ```
/// use nanoindex::ask::phrase::not_stated;
/// assert_eq!(
///     not_stated("What is the renewal fee?"),
///     "The document does not state the renewal fee in the pages read."
/// );
/// ```
#[must_use]
pub fn not_stated(question: &str) -> String {
    let q = question_proper(question);
    let q = PARENTHESES.replace_all(q, "");
    match WHAT_IS.captures(q.trim()) {
        Some(c) => finish(&format!(
            "The document does not state {} in the pages read",
            lowercase_first(c[2].trim())
        )),
        None => format!("The pages read do not answer \"{}?\"", q.trim()),
    }
}

/// "in" before a month or a year (`May 2020`, `2020`), "on" before a full date.
fn preposition_for(value: &str) -> &'static str {
    if value.chars().filter(char::is_ascii_digit).count() <= 4
        && value.split_whitespace().count() <= 2
    {
        "in"
    } else {
        "on"
    }
}

/// The simple past of one of [`WHEN_DID`]'s verbs.
fn past_tense(verb: &str) -> String {
    let irregular = [
        ("hold", "held"),
        ("pay", "paid"),
        ("hear", "heard"),
        ("begin", "began"),
        ("take", "took"),
        ("become", "became"),
        ("rule", "ruled"),
    ];
    if let Some((_, past)) = irregular.iter().find(|(v, _)| *v == verb) {
        return (*past).to_string();
    }
    if verb.ends_with('e') {
        format!("{verb}d")
    } else {
        format!("{verb}ed")
    }
}

fn finish(text: &str) -> String {
    let mut out = capitalise(text.trim());
    if !out.ends_with(['.', '?', '!']) {
        out.push('.');
    }
    out
}

/// `text` with its first character in upper case.
pub(super) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Lowercases a leading "The"/"A" only (names keep their capitals).
fn lowercase_first(text: &str) -> String {
    for article in ["The ", "A ", "An "] {
        if let Some(rest) = text.strip_prefix(article) {
            return format!("{}{rest}", article.to_lowercase());
        }
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_forms_become_sentences() {
        assert_eq!(
            sentence("What is the FY2018 capital expenditure amount (in USD millions) for 3M? Answer from the cash flow statement.", "$1,577 million"),
            "The FY2018 capital expenditure amount for 3M is $1,577 million."
        );
        assert_eq!(
            sentence("How long is the initial term?", "three (3) years"),
            "The initial term is three (3) years."
        );
        assert_eq!(
            sentence(
                "What is each reward point worth under the loyalty programme?",
                "INR 0.20"
            ),
            "Each reward point is worth INR 0.20 under the loyalty programme."
        );
        assert_eq!(
            sentence("What is the worthiness rating?", "AA"),
            "The worthiness rating is AA."
        );
        assert_eq!(
            sentence("What is the net worth of the guarantor?", "$5 million"),
            "The net worth of the guarantor is $5 million."
        );
        assert_eq!(
            sentence("Who are the parties to the Agreement?", "A Inc. and B LLC"),
            "The parties to the Agreement are A Inc. and B LLC."
        );
        assert_eq!(
            sentence("How many stores does Best Buy operate?", "982"),
            "982 stores."
        );
        assert_eq!(
            sentence(
                "How many Boeing employees were union represented?",
                "50,000"
            ),
            "50,000 employees."
        );
        assert_eq!(
            sentence(
                "How many paid memberships did Netflix have?",
                "54.75 million"
            ),
            "54.75 million memberships."
        );
        assert_eq!(
            sentence("When was the agreement entered into?", "May 2020"),
            "The agreement was entered into in May 2020."
        );
        assert_eq!(sentence("Governing law?", "Delaware"), "Delaware.");
        assert_eq!(
            sentence(
                "On what date did the Supreme Court of North Carolina file its opinion?",
                "11 February 2022"
            ),
            "The Supreme Court of North Carolina filed its opinion on 11 February 2022."
        );
        assert_eq!(
            sentence("When did the company hold its annual meeting?", "May 2020"),
            "The company held its annual meeting in May 2020."
        );
        assert_eq!(
            not_stated("Who are the parties?"),
            "The document does not state the parties in the pages read."
        );
    }
}
