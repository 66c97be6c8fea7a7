//! Questions that choose among named line items by size ("Among operating, investing and
//! financing activities, which brought in the most cash in FY2023?"): each option's row is
//! read for the period asked from the statements, and the choice is made here by comparing
//! the cited figures, never by a model.

use std::collections::HashSet;
use std::sync::LazyLock;

use nanoindex_retrieve::analysis::numbers_in;
use nanoindex_retrieve::{QueryAnalysis, Snippet};
use regex::Regex;

use super::answer_type::AnswerType;
use super::reader::{self, Candidate, ReaderInput, Unit, MIN_COVERAGE};

/// Words that ask for the largest option.
const LARGEST: &[&str] = &[
    "most", "largest", "highest", "greatest", "biggest", "best", "more", "top",
];

/// Words that ask for the smallest option.
const SMALLEST: &[&str] = &["least", "lowest", "smallest", "fewest", "worst", "less"];

/// Words of spending: the figures asked about are outflows, shown negative.
const SPENDING: &[&str] = &[
    "used", "spent", "lost", "consumed", "burned", "outflow", "outflows",
];

/// Words that end a list of options and start the question's predicate.
#[rustfmt::skip]
const LIST_ENDS: &[&str] = &[
    " had ", " has ", " have ", " was ", " were ", " is ", " are ", " did ", " does ",
    " brought", " performed", " generated", " contributed", " made ", " earned", " used ",
    " spent ", " lost ", " grew ", " declined ", " increased ", " decreased ",
];

/// The least share of an option's words its row label must spell: as for a change (the
/// answer is a verdict the reader stands behind).
const OPTION_COVERAGE: f32 = 2.0 * MIN_COVERAGE;

/// The list of options after "among" or "which of".
static OPTIONS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:among|which of)\s+(?:the\s+)?([^?]+?)(?:,\s*(?:which|what)\b|\?|$)")
        .expect("valid regex")
});

/// What a choice question asks: its options (each as the words that name its line item) and
/// whether the largest (`true`) or the smallest is wanted.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Asked {
    /// The options, in the question's order ("operations activities", "investing
    /// activities", "financing activities").
    pub options: Vec<String>,
    /// Whether the largest figure is asked for (else the smallest).
    pub largest: bool,
}

/// Reads a choice question: two or more options listed after "among" or "which of", and a
/// word asking for the largest or the smallest (the first that occurs: "brought in the most
/// (or lost the least)" asks for the largest). A noun shared by the options is written once,
/// after the last ("operations, investing, and financing activities"): it is given to each.
#[must_use]
pub(super) fn asked(question: &str) -> Option<Asked> {
    let caps = OPTIONS.captures(question)?;
    let mut list = caps.get(1)?.range();
    // "Which of iPhone, Mac or iPad had the lowest …": the list ends at its verb.
    let lower = question[list.clone()].to_lowercase();
    if let Some(cut) = LIST_ENDS.iter().filter_map(|w| lower.find(w)).min() {
        list.end = list.start + cut;
    }
    let mut options: Vec<String> = question[list.clone()]
        .split(',')
        .flat_map(|p| p.split(" and ").flat_map(|q| q.split(" or ")))
        .map(|o| {
            o.trim()
                .trim_start_matches("and ")
                .trim_start_matches("or ")
                .trim()
                .to_string()
        })
        .filter(|o| !o.is_empty())
        .collect();
    if options.len() < 2 || options.iter().any(|o| o.split_whitespace().count() > 6) {
        return None;
    }
    let last_words: Vec<String> = options
        .last()?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if last_words.len() >= 2
        && options[..options.len() - 1]
            .iter()
            .all(|o| !o.contains(' '))
    {
        let shared = last_words[1..].join(" ");
        let n = options.len();
        for o in &mut options[..n - 1] {
            o.push(' ');
            o.push_str(&shared);
        }
    }
    let after = question[list.end..].to_lowercase();
    let before = question[..list.start].to_lowercase();
    let words: Vec<&str> = before
        .split(|c: char| !c.is_alphanumeric())
        .chain(after.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    // "Used the most cash" asks for the most negative figure: a word of spending before the
    // direction word turns it.
    let mut spending = false;
    let largest = words.iter().find_map(|w| {
        if SPENDING.contains(w) {
            spending = true;
        }
        if LARGEST.contains(w) {
            Some(!spending)
        } else if SMALLEST.contains(w) {
            Some(spending)
        } else {
            None
        }
    })?;
    Some(Asked { options, largest })
}

/// One option's figure, read from its row.
struct Read {
    label: String,
    year: u32,
    value: f64,
    shown: String,
    cite: Vec<Snippet>,
}

/// The choice, from each option's best statement row for the question's period; empty when
/// an option has no row that spells it (the question is then read as it is worded).
pub(super) fn candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    query: &QueryAnalysis,
    naming: &HashSet<String>,
    asked: &Asked,
) -> Vec<Candidate> {
    let years: Vec<String> = query.years.iter().map(u32::to_string).collect();
    let mut read: Vec<Read> = Vec::new();
    for option in &asked.options {
        let mut q = QueryAnalysis::new(&format!("{option} {}", years.join(" ")));
        q.question.clone_from(&query.question);
        if q.statement.is_none() {
            q.statement = query.statement;
        }
        let weights = reader::term_weights(input.index, &q, naming);
        let option_stems: HashSet<String> = reader::stems(option).into_iter().collect();
        let best = reader::cell_candidates(input, units, &q, &weights, AnswerType::Amount)
            .into_iter()
            .filter(|c| c.coverage >= OPTION_COVERAGE)
            .filter(|c| {
                c.cell.as_ref().is_some_and(|(label, _)| {
                    reader::stems(label)
                        .iter()
                        .any(|s| option_stems.contains(s))
                })
            })
            // The primary statement's row is the authoritative figure, over a summary
            // table that repeats it.
            .max_by(|a, b| {
                let on_statement = |c: &Candidate| {
                    query
                        .statement
                        .is_some_and(|st| input.index.is_statement_page(c.page_no, st))
                };
                on_statement(a)
                    .cmp(&on_statement(b))
                    .then(a.score.total_cmp(&b.score))
            });
        let Some(best) = best else {
            return Vec::new();
        };
        let written = best.written.as_deref().unwrap_or(&best.value);
        let Some(number) = numbers_in(written).first().map(|n| n.value) else {
            return Vec::new();
        };
        let Some((label, year)) = best.cell.clone() else {
            return Vec::new();
        };
        let shown = if number < 0.0 {
            format!("−{}", best.value.trim_start_matches(['−', '-']))
        } else {
            best.value.clone()
        };
        read.push(Read {
            label,
            year,
            value: number,
            shown,
            cite: best.cite,
        });
    }
    // Two options read from one row is no choice.
    let labels: HashSet<&str> = read.iter().map(|r| r.label.as_str()).collect();
    if labels.len() < read.len() {
        return Vec::new();
    }
    let chosen = if asked.largest {
        read.iter().max_by(|a, b| a.value.total_cmp(&b.value))
    } else {
        read.iter().min_by(|a, b| a.value.total_cmp(&b.value))
    };
    let Some(chosen) = chosen else {
        return Vec::new();
    };
    let others: Vec<String> = read
        .iter()
        .filter(|r| r.label != chosen.label)
        .map(|r| format!("{}: {}", r.label, r.shown))
        .collect();
    let value = format!(
        "{} has the {} figure of the {} asked in {}: {} (against {})",
        chosen.label,
        if asked.largest { "largest" } else { "smallest" },
        read.len(),
        chosen.year,
        chosen.shown,
        others.join("; ")
    );
    // The chosen row first: the answer is quoted and paged by it.
    let cite: Vec<Snippet> = chosen
        .cite
        .iter()
        .chain(
            read.iter()
                .filter(|r| r.label != chosen.label)
                .flat_map(|r| &r.cite),
        )
        .cloned()
        .collect();
    let computation = read
        .iter()
        .map(|r| format!("{} {} = {}", r.label, r.year, r.shown))
        .collect::<Vec<_>>()
        .join("; ");
    vec![Candidate::computed(value, computation, cite)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_and_the_direction_are_read_from_the_question() {
        let a = asked(
            "Among operations, investing, and financing activities, which brought in the most \
             (or lost the least) cash flow for Best Buy in FY2023?",
        )
        .unwrap();
        assert_eq!(
            a.options,
            [
                "operations activities",
                "investing activities",
                "financing activities"
            ]
        );
        assert!(a.largest);
        let a = asked("Which of iPhone, Mac or iPad had the lowest net sales in 2023?").unwrap();
        assert_eq!(a.options, ["iPhone", "Mac", "iPad"]);
        assert!(!a.largest);
        let a =
            asked("Among operating, investing and financing activities, which used the most cash?")
                .unwrap();
        assert!(!a.largest, "the most cash used is the most negative figure");
        assert!(asked("Which state's law governs the agreement?").is_none());
        assert!(asked("Among other things, what does the agreement cover?").is_none());
    }
}
