//! The reader's candidates from sentences: typed spans (dates, amounts, counts, parties …)
//! scored by the sentence's match with the question, definitions of a term the question
//! names, the best sentence for yes/no and free-text questions, causes, and a court's own
//! disposition; with the
//! sentence-level rules they need (the years a sentence states, figures paired with a list
//! of years, the noun a count question counts).

use super::*;

/// Years ([`YEARS`](nanoindex_retrieve::analysis::YEARS)) written in `text`.
pub(super) fn years_of(text: &str) -> Vec<u32> {
    tokenize(text)
        .iter()
        .filter_map(|t| t.parse::<u32>().ok())
        .filter(|&y| is_year(y))
        .collect()
}

/// Question words that ask where a party was formed, not which law governs (whole words:
/// "performed" asks no such thing).
static FORMATION_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:organi[sz]ed|incorporated|formed|chartered|domiciled)\b")
        .expect("formation question pattern")
});

/// How a sentence states where a party was formed: "organized", "incorporated", "formed",
/// "validly existing", "in good standing", "chartered", "domiciled".
static FORMATION_STATED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:organi[sz]ed|organi[sz]ation|incorporated|formed|validly existing|in good standing|chartered|domiciled)\b",
    )
    .expect("formation statement pattern")
});

/// Stems of the question words that a party's entity form ([`ENTITY_FORM`]) states.
const FORMATION_IMPLIED: &[&str] = &["organ", "incorpor", "form", "state", "law"];

/// A party described by the place of its formation: "a Delaware statutory trust", "a New
/// York banking corporation", "a Delaware limited liability company".
static ENTITY_FORM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b[Aa]n?\s+(?:[A-Z][a-z]+\s+){1,2}(?i:statutory trust|business trust|real estate investment trust|(?:banking )?corporation|limited liability company|(?:general |limited )?partnership|national banking association|company)\b",
    )
    .expect("entity form pattern")
});

/// Whether the text before a date ends by naming it as a document's date: "…, dated" or
/// "dated as of".
pub(super) fn dates_a_document(before: &str) -> bool {
    let words: Vec<String> = before
        .split_whitespace()
        .rev()
        .take(3)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    match words.as_slice() {
        [last, ..] if last == "dated" => true,
        [of, as_, dated, ..] => of == "of" && as_ == "as" && dated == "dated",
        _ => false,
    }
}

/// A list of two or three years in a sentence ("2022 and 2021", "2022, 2021 and 2020").
pub(super) static YEAR_LIST: LazyLock<Regex> = LazyLock::new(|| {
    let y = nanoindex_core::years::YEAR_PATTERN;
    Regex::new(&format!(r"\b({y})(?:,\s*({y}))?,?\s+and\s+({y})\b")).expect("valid regex")
});

/// Neighbours of `spans` that stand in one list: joined only by commas and "and".
fn list_around(
    text: &str,
    spans: &[std::ops::Range<usize>],
    at: usize,
) -> std::ops::RangeInclusive<usize> {
    let joined = |a: &std::ops::Range<usize>, b: &std::ops::Range<usize>| {
        text.get(a.end..b.start).is_some_and(|between| {
            let rest = between.trim().trim_start_matches(',').trim();
            rest.is_empty() || rest == "and"
        })
    };
    let mut first = at;
    while first > 0 && joined(&spans[first - 1], &spans[first]) {
        first -= 1;
    }
    let mut last = at;
    while last + 1 < spans.len() && joined(&spans[last], &spans[last + 1]) {
        last += 1;
    }
    first..=last
}

/// The year a figure of `text` is stated for when the sentence pairs lists: its figures of
/// one kind (`spans`, in order) stand in a list ("156,000 and 142,000") as long as the
/// sentence's one list of years ("As of December 31, 2022 and 2021"), and `span` is the
/// k-th of that list, so its year is the k-th year (the convention of "…, respectively").
/// `None` when the sentence does not pair them so.
pub(super) fn paired_year(
    text: &str,
    spans: &[std::ops::Range<usize>],
    span: &std::ops::Range<usize>,
) -> Option<u32> {
    let mut lists = YEAR_LIST.captures_iter(text);
    let years: Vec<u32> = lists
        .next()?
        .iter()
        .skip(1)
        .flatten()
        .filter_map(|m| m.as_str().parse().ok())
        .collect();
    if lists.next().is_some() {
        return None;
    }
    let at = spans.iter().position(|s| s == span)?;
    let list = list_around(text, spans, at);
    (list.clone().count() == years.len() && years.len() >= 2).then(|| years[at - list.start()])
}

/// A list of two or three reporting periods named by their length or place in the year:
/// "the second quarter and first half", "the three and six months", "the three, six and
/// nine months" (the last item's noun stands for all).
static PERIOD_LIST: LazyLock<Regex> = LazyLock::new(|| {
    let item =
        r"(first|second|third|fourth)\s+(quarter|half)|(three|six|nine|twelve)(?:\s+months)?";
    Regex::new(&format!(
        r"(?i)\b(?:{item})(?:\s*,\s*(?:{item}))?,?\s+and\s+(?:the\s+)?(?:{item})\b"
    ))
    .expect("valid regex")
});

/// The reporting periods of a [`PERIOD_LIST`] match or of a question, in order, each as
/// "second quarter", "first half" or "six months".
fn periods_named(text: &str) -> Vec<String> {
    static ITEM: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\b(?:(first|second|third|fourth)\s+(quarter|half)\b|(three|six|nine|twelve)(?:\s+months\b|\s*,|\s+and\b)|(three|six|nine|twelve)-month\b)",
        )
        .expect("valid regex")
    });
    ITEM.captures_iter(text)
        .map(|c| match (c.get(1), c.get(2), c.get(3).or(c.get(4))) {
            (Some(place), Some(part), _) => {
                format!("{} {}", place.as_str(), part.as_str()).to_lowercase()
            }
            (_, _, Some(months)) => format!("{} months", months.as_str().to_lowercase()),
            _ => String::new(),
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// A year written alone (group 1): four digits after a space or a bracket, not inside a
/// figure ("$2,019"); a code that follows it with a dash ("2019–NM–035–AD") is filtered
/// where it is used.
static YEAR_ALONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[\s(])(\d{4})\b").expect("valid regex"));

/// Whether two reporting periods of [`periods_named`] are the same: equal, or a quarter
/// and three months, or the first half and six months.
fn same_period(a: &str, b: &str) -> bool {
    let canonical = |p: &str| match p {
        "first half" => "six months".to_string(),
        p if p.ends_with(" quarter") => "three months".to_string(),
        p => p.to_string(),
    };
    a == b
        || (canonical(a) == canonical(b) && !(a.ends_with(" quarter") && b.ends_with(" quarter")))
}

/// What a figure of a sentence that pairs two lists ("…, respectively") is stated for,
/// besides its year ([`paired_year`]): the k-th figure of a list ("$4.0 billion and $10.0
/// billion") as long as the sentence's one list of dates ("As of July 1, 2023 and September
/// 24, 2022") or of reporting periods ("11.4% and 10.4% for the second quarter and first
/// half") is stated for the k-th date (normalised, [`normalise_value`]) or period
/// ([`periods_named`]). `(None, None)` for what the sentence does not pair.
pub(super) fn paired_date_and_period(
    text: &str,
    spans: &[std::ops::Range<usize>],
    span: &std::ops::Range<usize>,
) -> (Option<String>, Option<String>) {
    let Some(at) = spans.iter().position(|s| s == span) else {
        return (None, None);
    };
    let list = list_around(text, spans, at);
    let len = list.clone().count();
    if len < 2 {
        return (None, None);
    }
    let k = at - list.start();
    let dates = spans::find(AnswerType::Date, text, None);
    let date_lists: Vec<std::ops::RangeInclusive<usize>> = (0..dates.len())
        .map(|i| list_around(text, &dates, i))
        .filter(|l| l.clone().count() >= 2)
        .fold(Vec::new(), |mut out, l| {
            if out.last() != Some(&l) {
                out.push(l);
            }
            out
        });
    let date = match &date_lists[..] {
        [only] if only.clone().count() == len => {
            Some(normalise_value(&text[dates[only.start() + k].clone()]))
        }
        _ => None,
    };
    let mut period_lists = PERIOD_LIST.find_iter(text);
    let period = match (period_lists.next(), period_lists.next()) {
        (Some(m), None) => {
            let periods = periods_named(m.as_str());
            (periods.len() == len).then(|| periods[k].clone())
        }
        _ => None,
    };
    (date, period)
}

/// Whether the words after a count (up to [`EACH_REACH`], within its clause) give it for
/// each of several: "three (3) members to be appointed by each of CytoDyn and Vyera", "two
/// directors per Party" — unless what it is given for is `asked` (a question term: "90
/// work-hours per operator" answers how many an operator takes).
fn counted_for_each(after: &str, asked: &dyn Fn(&str) -> bool) -> bool {
    let words: Vec<&str> = after.split_whitespace().take(EACH_REACH).collect();
    for (i, word) in words.iter().enumerate() {
        // Arithmetic ("90 work-hours × $85 per hour") rates a figure, not the count.
        if word.contains(['×', '=', '$', '@']) {
            return false;
        }
        let lower = word
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        // "each of …", "by/for/from each …" anywhere in the clause ("nine directors elected
        // each year" is no count for each); "per" only right after the counted noun.
        let next = words.get(i + 1).map(|w| w.to_lowercase());
        let before = i
            .checked_sub(1)
            .and_then(|j| words.get(j))
            .map(|w| w.to_lowercase());
        let each = lower == "each"
            && (next.as_deref() == Some("of")
                || before
                    .as_deref()
                    .is_some_and(|b| ["by", "for", "from", "to"].contains(&b)));
        if each || lower == "apiece" || (lower == "per" && i <= 2) {
            // "per operator" where the question asks about an operator is what it asks ("each
            // of CytoDyn and Vyera" stays a count for each, though the question names them).
            let of_whom = words.get(i + 1).map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            });
            return lower != "per" || !of_whom.is_some_and(|w| asked(&w));
        }
        if word.ends_with([',', ';', '.', ':']) {
            return false;
        }
    }
    false
}

/// Whether a reference reads as a court's or agency's docket number ("No. 20-16276", "Case
/// No. 3:20-cv-02731-VC", "Docket No. FAA–2020–0686", "case number 21-15604"), not a statute
/// or a provision ("Section 10(b)", "§ 14-306.4", "15 U.S.C. 78").
fn is_docket_number(reference: &str) -> bool {
    let lower = reference.to_lowercase();
    // A court's own rule ("Circuit Rule 28-2.6", "Local Rule 7-3") is a provision too.
    let lower = ["circuit ", "local ", "federal "]
        .iter()
        .find_map(|q| lower.strip_prefix(q))
        .map_or(lower.clone(), str::to_string);
    let provision = [
        "section",
        "sec.",
        "article",
        "rule",
        "clause",
        "paragraph",
        "item",
        "§",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
        || lower.contains("u.s.c")
        || lower.contains("c.f.r")
        || lower.contains("g.s.");
    !provision && reference.chars().any(|c| c.is_ascii_digit())
}

/// The days of the year `text` names as a month and a day ("June 17", "Sept. 3rd"), as
/// (month's first three letters, day).
fn month_days(text: &str) -> Vec<(String, u32)> {
    static MONTH_DAY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b",
        )
        .expect("valid regex")
    });
    MONTH_DAY
        .captures_iter(text)
        .filter_map(|c| Some((c[1].to_lowercase(), c[2].parse().ok()?)))
        .collect()
}

/// Whether a docket number is a federal district court's: `N:YY-cv-NNNNN` (civil,
/// criminal, miscellaneous: "No. 3:20-cv-02731-VC", "No. 20-cv-1234"), "CV 19-1234" or a
/// "Civil Action No.".
fn is_district_docket(reference: &str) -> bool {
    static DISTRICT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)(?:\d{1,2}:)?\d{2}[-–](?:cv|cr|mc|md)[-–]\d+|\b(?:cv|cr)\s*\d{2}[-–]\d+|civil\s+action")
            .expect("valid regex")
    });
    DISTRICT.is_match(reference)
}

/// Words after a count in which "each" or "per" makes it a count for each of several.
const EACH_REACH: usize = 8;

/// Whether the figure at `span` of `text` is named as another of the thing the question
/// asks: it follows "of" after a noun phrase whose head the question asks but whose
/// modifiers name another kind ("the U.S. federal statutory rate of 21%" for "What was the
/// effective tax rate?"): none of the words before the head in `question` ("effective",
/// "tax") is among the phrase's modifiers, one of those is a word the question does not ask
/// (`asked`, by stem), and the sentence names the asked phrase itself before the figure
/// ("Our effective tax rates … were lower than …": the figure is compared with it). "An expense of 11.4%" (a head not asked) and "an acquisition
/// termination cost of $1.35 billion" (every word asked) are not.
fn named_otherwise(
    text: &str,
    span: &std::ops::Range<usize>,
    question: &str,
    asked: &dyn Fn(&str) -> bool,
) -> bool {
    // Words that open a noun phrase, or stand between it and what precedes.
    const OPENS: &[&str] = &[
        "the", "a", "an", "our", "its", "their", "his", "her", "than", "to", "with", "at", "by",
        "for", "from", "in", "on", "and", "or", "was", "were", "is", "are", "of", "as", "which",
        "that", "this", "these", "those", "total", "what", "how", "much", "did", "does", "do",
    ];
    // A phrase's words from its head back, as stems.
    let phrase_before = |before: &str| -> Vec<String> {
        before
            .rsplit(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '(')
            .filter(|w| !w.is_empty())
            .take_while(|w| !OPENS.contains(&w.to_lowercase().as_str()))
            .take(6)
            .flat_map(stems)
            .collect()
    };
    let Some(before) = text[..span.start].trim_end().strip_suffix(" of") else {
        return false;
    };
    let phrase = phrase_before(before);
    let Some((head, modifiers)) = phrase.split_first() else {
        return false;
    };
    if modifiers.is_empty() || !asked(head) {
        return false;
    }
    // The question's own phrase with that head ("effective tax rate").
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’' && c != '.')
        .filter(|w| !w.is_empty())
        .collect();
    let Some(at) = words.iter().position(|w| stems(w).first() == Some(head)) else {
        return false;
    };
    let asked_modifiers = phrase_before(&words[..at].join(" "));
    // The sentence names the asked thing itself, apart from the figure ("Our effective tax
    // rates … were lower than the statutory rate of 21%"): the figure is the other one's.
    // ("Bear interest at a fixed rate of 5.25%" names no "interest rate" apart: it is it.)
    let asked_phrase: Vec<String> = asked_modifiers
        .iter()
        .rev()
        .chain(std::iter::once(head))
        .cloned()
        .collect();
    let named_apart = stems(&text[..span.start])
        .windows(asked_phrase.len())
        .any(|w| w == asked_phrase.as_slice());
    !asked_modifiers.is_empty()
        && named_apart
        && !asked_modifiers.iter().any(|m| modifiers.contains(m))
        && modifiers.iter().any(|m| !asked(m))
}

/// The quoted term of a definition, up to its verb: `“Owner Trustee” means`.
static DEFINED_TERM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"[“"][^”"]{2,60}[”"]\s*,?\s*(?:shall\s+)?means?\b"#).expect("valid regex")
});

/// Words that end the noun phrase after "how many": auxiliaries, verbs and prepositions.
pub(super) const NOUN_PHRASE_ENDS: &[&str] = &[
    "did", "does", "do", "was", "were", "is", "are", "has", "have", "had", "will", "would", "can",
    "could", "shall", "should", "may", "might", "must", "in", "at", "of", "for", "on", "by",
    "during", "under", "to", "from", "with", "that", "which", "who", "as", "after", "before",
    "since", "until", "between", "than", "per", "within", "into", "over", "across", "when",
    "where", "if", "the", "a", "an",
];

/// The counted noun of "how many …" / "number of …", as written and lowercased: the last word
/// of the noun phrase ("How many paid memberships did …" → `memberships`, "How many Boeing
/// employees were …" → `employees`).
pub(in crate::ask) fn counted_noun(part: &str) -> Option<String> {
    let lower = part.to_lowercase();
    let at = lower
        .find("how many ")
        .map(|i| i + "how many ".len())
        .or_else(|| lower.find("number of ").map(|i| i + "number of ".len()))?;
    let all: Vec<String> = lower
        .get(at..)
        .unwrap_or_default()
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string())
        .collect();
    let mut words: Vec<String> = Vec::new();
    for (i, w) in all.iter().enumerate() {
        // A past-tense verb after the noun ends it ("How many people died in …?"); a
        // participle before a noun does not ("How many newly issued shares").
        let verb = !words.is_empty()
            && w.len() > 3
            && w.ends_with("ed")
            && all
                .get(i + 1)
                .is_none_or(|next| next.is_empty() || NOUN_PHRASE_ENDS.contains(&next.as_str()));
        let present = !words.is_empty() && answer_type::PRESENT_VERBS.contains(&w.as_str());
        if w.is_empty() || NOUN_PHRASE_ENDS.contains(&w.as_str()) || verb || present {
            break;
        }
        words.push(w.clone());
    }
    words.last().cloned()
}

/// The singular stem of the counted noun ([`counted_noun`]: `stores` → `store`), or `vote`
/// for a question about a vote.
pub(super) fn count_noun(part: &str) -> Option<String> {
    let lower = part.to_lowercase();
    if lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "vote" || w == "votes")
    {
        return Some("vote".to_string());
    }
    let noun = counted_noun(part)?;
    let noun = noun.as_str();
    let stem = noun.strip_suffix("ies").map_or_else(
        || noun.strip_suffix('s').unwrap_or(noun).to_string(),
        |s| format!("{s}y"),
    );
    (stem.len() >= 3).then_some(stem)
}

/// Typed spans in the sentences of the pages read.
pub(super) fn span_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    part: &str,
    query: &QueryAnalysis,
    weights: &[(String, f32)],
    naming: &HashSet<String>,
    kind: AnswerType,
) -> Vec<Candidate> {
    let noun = (kind == AnswerType::Count)
        .then(|| count_noun(part))
        .flatten();
    let asked: HashSet<String> = part
        .split(|c: char| c.is_whitespace() || c == '?')
        .map(normalise_value)
        .filter(|w| !w.is_empty())
        .collect();
    let asked_whole = normalise_value(part);
    // Days the question names, with or without their year ("the June 17 and June 19, 2020
    // orders"): a date on one of them is what the question is about, not its answer.
    let asked_days = month_days(part);
    let asks_multiple = answer_type::asks_multiple(part);
    let asks_age = part
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| ["age", "ages", "aged", "old", "older", "younger"].contains(&w));
    let mut out = Vec::new();
    let figures = matches!(
        kind,
        AnswerType::Amount | AnswerType::Percentage | AnswerType::Count
    );
    // A governing-law question is answered by a sentence about law, not by any place named.
    let lower_part = part.to_lowercase();
    // A figure's sentence must name the metric, not only the period: the question's terms
    // without its period words ("total net sales" of "… for the three months ended July 1").
    let metric_weights: Vec<(String, f32)> = weights
        .iter()
        .filter(|(t, _)| !is_period_term(t))
        .cloned()
        .collect();
    let specific: Option<String> = metric_weights
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t.clone());
    // A date the question names ("on August 21, 2023", "as of June 30") constrains which
    // sentence answers: one that states it gains, one that states only other dates loses.
    let asked_dates: Vec<String> = if kind == AnswerType::Date {
        Vec::new()
    } else {
        spans::find(AnswerType::Date, part, None)
            .into_iter()
            .map(|r| normalise_value(&part[r]))
            .filter(|d| d.chars().any(char::is_alphabetic) || d.len() >= 6)
            .collect()
    };
    // "In what year …", "Which year …": a year is a date's answer.
    let asks_year = kind == AnswerType::Date && answer_type::asks_year(part);
    // The reporting periods the question names ("for the second quarter of fiscal 2024").
    let asked_periods = periods_named(part);
    // "By how much does the bonus increase": a change may be a percentage.
    // So may a discount or a bonus ("an additional 2.5% discount on premium").
    let change_by_percent = kind == AnswerType::Amount
        && [
            "increase", "decrease", "grow", "rise", "fall", "reduce", "change", "discount",
            "rebate", "bonus",
        ]
        .iter()
        .any(|w| lower_part.contains(w));
    // "At what rate does the budget cost …": a rate may be an amount per unit ("£75 per
    // half day"), not only a percentage.
    let rate_by_amount = kind == AnswerType::Percentage
        && lower_part
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w == "rate");
    // A question about a change ("by how much did … decrease", "growth") may be answered by
    // a figure a sentence states as one.
    let asks_change = asks_for_change(part);
    let asks_case_number = (lower_part.contains("case number")
        || lower_part.contains("case no")
        || lower_part.contains("docket number"))
        && kind == AnswerType::Reference;
    // The court a case number is asked of: a district court's ("No. 3:20-cv-02731") or a
    // court of appeals' ("No. 20-16276"); `Some(true)` for a district court.
    let district = lower_part.contains("district court");
    let appeal = lower_part.contains("circuit") || lower_part.contains("appeal");
    let asked_court = (district != appeal).then_some(district);
    let asks_each = lower_part
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| ["each", "per", "every", "apiece"].contains(&w));
    let per_share = kind == AnswerType::Amount
        && (lower_part.contains("per share")
            || lower_part
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == "eps"));
    // "What hourly labor rate …": a figure stated per that unit ("$85 per work-hour") is the
    // rate; a total worked out from it ("$7,650 (90 work-hours × $85 …)") is not.
    let rate_unit = (kind == AnswerType::Amount)
        .then(|| asked_rate_unit(&lower_part))
        .flatten();
    // "When does the fiscal year end?" asks for a day that recurs ("the last Saturday of
    // September"), not the day one year ended ("the fiscal year ended September 24, 2022").
    let asks_recurring = kind == AnswerType::Date
        && ["when does ", "when do "]
            .iter()
            .any(|lead| lower_part.trim_start().starts_with(lead))
        && RECURRING_SUBJECTS.iter().any(|w| lower_part.contains(w));
    // "Who are the parties": the plural, not third or related parties.
    let asks_parties = kind == AnswerType::Party
        && lower_part.contains("parties")
        && crate::ask::session::asks_for_parties(part);
    // "Under the laws of which state is the Servicer organized?" asks where a party was
    // formed ("a validly existing partnership … under the laws of the State of Delaware"),
    // not which law governs the agreement: the sentence must say so.
    let asks_formation = kind == AnswerType::Place && FORMATION_ASKED.is_match(&lower_part);
    let needs_law = kind == AnswerType::Place
        && !asks_formation
        && (lower_part.contains("law") || lower_part.contains("govern"));
    // A state asked for is no country ("organized under the laws of the United States").
    let asks_state = kind == AnswerType::Place
        && ["which state", "what state"].iter().any(|w| {
            lower_part.contains(&format!("{w} ")) || lower_part.contains(&format!("{w}?"))
        });
    // The question's own word stems (not the lexicon's expansions of its metric).
    let own_terms = stems(part);
    // The party a formation question asks about ("the Issuer", "an Eligible Bank"): its
    // words, those that name neither the document nor formation, state or law ("under the
    // laws of").
    let formed_party: Vec<&String> = if asks_formation {
        own_terms
            .iter()
            .filter(|t| {
                !naming.contains(*t)
                    && *t != "under"
                    && !FORMATION_IMPLIED.iter().any(|s| t.starts_with(s))
                    && weights.iter().any(|(w, _)| w == *t)
            })
            .collect()
    } else {
        Vec::new()
    };
    let noun_stems: Vec<String> = noun.as_deref().map(stems).unwrap_or_default();
    // An effective, due or expiry date is stated as such; "Service Bulletin 737–31–1860,
    // dated June 12, 2020" dates another document.
    let event_date = kind == AnswerType::Date
        && ["effect", "due", "expir"]
            .iter()
            .any(|w| lower_part.contains(w));
    // "On what date did a Ninth Circuit panel partly reverse the dismissal …": the event a
    // date question asks the date of.
    let asked_event = (kind == AnswerType::Date)
        .then(|| asked_event(part))
        .flatten();
    // "When did the FAA issue Emergency AD 2018-23-51 …?" asks of another document than
    // the one whose issue line dates it.
    let names_a_reference = !spans::find(AnswerType::Reference, part, None).is_empty();
    // "What interest rate do the Class A-2 Notes bear?": the class, series or tranche asked.
    let asked_classes = class_labels(part);
    for unit in units {
        // Table rows give figures through their cells; a "row" with a date or a name (a
        // line ending in a year) is read as a sentence, and so is a form's field for a count
        // of a named thing ("Number of participants 15, with plans to expand …").
        if unit.row && figures && noun.is_none() {
            continue;
        }
        // A sentence that counts the noun's group ("total workforce was approximately
        // 156,000") names the noun ("employees") for coverage.
        let names_group = noun.as_deref().is_some_and(|n| {
            let lower = unit.text.to_lowercase();
            spans::group_words(n).iter().any(|g| lower.contains(g))
                || (n.starts_with("employ") && spans::employs_people(&unit.text))
        });
        let present =
            |t: &String| unit.terms.contains(t) || (names_group && noun_stems.contains(t));
        let cov = if names_group {
            unit_coverage(weights, unit).max(coverage_by(weights, present))
        } else {
            unit_coverage(weights, unit)
        };
        // A contract's preamble ("… (this “Agreement”) is made … by and between A and B")
        // names the parties whatever words the question uses.
        let preamble = asks_parties && crate::ask::session::PREAMBLE.is_match(&unit.text);
        let cov = if preamble { cov.max(MIN_COVERAGE) } else { cov };
        // A document's own issue line ("Issued on August 3, 2020.", "Dated: March 1, 2021")
        // dates the document, when the question names the document: it holds the terms that
        // name it, and states its date as a definition states its term.
        let issue_line = kind == AnswerType::Date
            && ISSUE_LINE.is_match(unit.text.trim())
            && weights.iter().any(|(t, _)| naming.contains(t))
            && !names_a_reference;
        let cov = if issue_line {
            cov.max(coverage_by(weights, |t| present(t) || naming.contains(t)))
        } else {
            cov
        };
        // "a Delaware statutory trust, as issuer" says where the issuer was formed, under
        // which state's laws, in other words.
        let cov = if asks_formation && ENTITY_FORM.is_match(&unit.text) {
            cov.max(coverage_by(weights, |t| {
                unit.terms.contains(t) || FORMATION_IMPLIED.iter().any(|s| t.starts_with(s))
            }))
        } else {
            cov
        };
        if cov <= 0.0 {
            continue;
        }
        // A governing-law clause governs or construes ("governed by", "construed in
        // accordance with the laws of"); "organised under the laws of" names no governing law.
        if needs_law
            && !unit
                .terms
                .iter()
                .any(|t| t.starts_with("govern") || t.starts_with("constru"))
        {
            continue;
        }
        if asks_formation
            && (!FORMATION_STATED.is_match(&unit.text) && !ENTITY_FORM.is_match(&unit.text)
                || !formed_party.is_empty()
                    && !formed_party.iter().any(|t| unit.terms.contains(*t)))
        {
            continue;
        }
        let rank = page_rank(input, unit.page_no);
        let mut found = spans::find(kind, &unit.text, noun.as_deref());
        if asks_state {
            found.retain(|r| !unit.text[r.clone()].eq_ignore_ascii_case("united states"));
        }
        // A name under the label the question asks ("Funder:" over "Getting It Right First
        // Time (GIRFT)") is the field's whole value, whatever form the name takes.
        if found.is_empty()
            && matches!(kind, AnswerType::Party | AnswerType::Person)
            && under_asked_label(weights, unit)
        {
            found.extend(field_value(&unit.text));
        }
        if change_by_percent {
            found.extend(spans::find(AnswerType::Percentage, &unit.text, None));
        }
        if rate_by_amount {
            found.extend(
                spans::find(AnswerType::Amount, &unit.text, None)
                    .into_iter()
                    .filter(|r| per_unit_after(&unit.text[r.end..])),
            );
        }
        // "In what year did Tarrant file suit?": a year alone answers ("… until Tarrant
        // filed suit in 2007"), where no full date stands.
        if asks_year && found.is_empty() {
            found.extend(
                YEAR_ALONE
                    .captures_iter(&unit.text)
                    .filter_map(|c| c.get(1))
                    .filter(|m| {
                        nanoindex_retrieve::analysis::is_year_word(m.as_str())
                            && !unit.text[m.end()..].starts_with(['–', '-', '/'])
                            && !unit.text[m.end()..]
                                .strip_prefix('.')
                                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
                    })
                    .map(|m| m.range()),
            );
        }
        let date_fit = if asked_dates.is_empty() {
            0.0
        } else {
            let dates: Vec<String> = spans::find(AnswerType::Date, &unit.text, None)
                .into_iter()
                .map(|r| normalise_value(&unit.text[r]))
                .collect();
            if dates.iter().any(|d| asked_dates.contains(d)) {
                0.1
            } else if dates.is_empty() {
                0.0
            } else {
                -0.05
            }
        };
        // For a figure, half the sentence's coverage is the metric's own, in the figure's own
        // sentence; a figure whose sentence names none of the metric's words is another
        // metric's ("total deferred revenue of $12.2 billion" after a sentence about iPhone
        // net sales).
        let own_metric = coverage_by(&metric_weights, present);
        if figures && !metric_weights.is_empty() && own_metric <= 0.0 {
            continue;
        }
        let mut matched = if figures && !metric_weights.is_empty() {
            0.5 * cov + 0.5 * own_metric
        } else {
            cov
        };
        // The metric's most specific word ("iPhone" of "iPhone net sales") missing from the
        // figure's sentence: the figure is likely a broader one's ("Total net sales include
        // $3.3 billion …").
        if figures && specific.as_ref().is_some_and(|t| !unit.terms.contains(t)) {
            matched *= MISSING_SPECIFIC;
        }
        // "Who are the parties": every party the sentence names, as one value.
        if asks_parties && found.len() >= 2 {
            // Each party once ("the Master Trust … by the Master Trust" names one party).
            let mut names: Vec<&str> = Vec::new();
            for r in &found {
                let name = unit.text[r.clone()].trim();
                if !names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                    names.push(name);
                }
            }
            if names.len() >= 2 {
                let value = names.join(" and ");
                let span = found[0].start..found[found.len() - 1].end;
                let prox = proximity(weights, &unit.text, &span);
                let score = 0.6 * cov
                    + 0.25 * prox
                    + 0.15 * rank
                    + 0.05
                    + if preamble { PREAMBLE_BONUS } else { 0.0 };
                let q = quote(&unit.text, Some(&span));
                out.push(Candidate::in_sentence(value, unit, q, score, cov));
            }
            // One name is no answer to who the parties are.
            found.clear();
        }
        if needs_law {
            // The place the law is of ("the laws of the State of New York"), not an address
            // beside a "Governing Law" heading.
            found.retain(|r| {
                let before = &unit.text[..r.start];
                let from = before.char_indices().rev().nth(60).map_or(0, |(i, _)| i);
                let window = before[from..].to_lowercase();
                window.contains("law") || window.contains("govern")
            });
        }
        if event_date {
            found.retain(|r| !dates_a_document(&unit.text[..r.start]));
        }
        // A count stated as a share of a whole ("Approximately 50,000 employees, which
        // constitute 32% of our total workforce, were union represented") counts a part: it
        // answers a question that names the part ("union"), never one about the whole.
        let part_of_whole = kind == AnswerType::Count
            && SHARE_OF_WHOLE.is_match(&unit.text)
            && !own_terms.iter().any(|t| {
                !is_period_term(t)
                    && !naming.contains(t)
                    && noun
                        .as_deref()
                        .is_none_or(|n| !t.starts_with(n) && !n.starts_with(t.as_str()))
                    && unit.terms.contains(t)
            });
        if part_of_whole {
            continue;
        }
        let found_all = found.clone();
        for span in found {
            let written = unit.text[span.clone()].trim();
            // "FAA–2020– 0686", "Bulletin 737– 31–1860": a number broken by the line after
            // its dash is one word ("IRAS no – 327246" keeps its spaced dash).
            let value = if kind == AnswerType::Reference {
                static BROKEN: LazyLock<Regex> =
                    LazyLock::new(|| Regex::new(r"(\w[–-]) ").expect("valid regex"));
                BROKEN.replace_all(written, "$1").into_owned()
            } else if let Some(rupees) = written.strip_prefix('`') {
                // The rupee font's grave accent is the sign it draws ([`spans::find`]).
                format!("₹{}", rupees.trim_start())
            } else {
                written.to_string()
            };
            // A rate is stated with its unit: "£75 per half day".
            let value = match rate_by_amount
                .then(|| per_phrase(&unit.text[span.end..]))
                .flatten()
            {
                Some(per) => format!("{value} {per}"),
                None => value,
            };
            let norm = normalise_value(&value);
            // What the question itself names is not its answer.
            // A value the question itself states (a year, "Section 3") is not its answer.
            let stated = asked.contains(&norm)
                || (value.split_whitespace().count() > 1 && asked_whole.contains(&norm))
                || (kind == AnswerType::Date
                    && month_days(&value).iter().any(|d| asked_days.contains(d)));
            if norm.is_empty() || stated {
                continue;
            }
            // A multiple ("3.0x leverage", "2x-20x") answers only a question about a speedup
            // or how many times, never one about a percentage.
            let rate_per_unit = rate_by_amount && per_unit_after(&unit.text[span.end..]);
            if kind == AnswerType::Percentage
                && !asks_multiple
                && !value.contains('%')
                && !value.to_lowercase().contains("per")
                && !rate_per_unit
            {
                continue;
            }
            // An age bound without its unit ("aged >18") answers only a question about age.
            if kind == AnswerType::Duration && !asks_age && !value.chars().any(char::is_alphabetic)
            {
                continue;
            }
            // "Americas included United States net sales to customers of $15.0 billion": the
            // figure counts what follows "included", a part of what the question names.
            if figures
                && stated_as_part(
                    &unit.text,
                    &found_all,
                    &span,
                    &metric_weights,
                    naming,
                    &own_terms,
                )
            {
                continue;
            }
            // Where the number ends: a count's span may end with its noun ("982 stores").
            let number_end = noun
                .as_deref()
                .filter(|_| kind == AnswerType::Count)
                .and_then(|n| {
                    let stated = unit.text[span.clone()].trim_end();
                    let i = stated.rfind(char::is_whitespace)?;
                    spans::counts_as(stated[i..].trim(), n).then_some(span.start + i)
                })
                .unwrap_or(span.end);
            // "Includes 33 Best Buy Mobile stores": a count of a kind the question does not
            // name.
            let of_a_kind = noun.as_deref().is_some_and(|n| {
                names_a_kind(&unit.text[number_end..], n, &own_terms, naming, &|w| {
                    rare_in(input.index, w)
                })
            });
            // "six (6) members, three (3) members to be appointed by each of A and B": a
            // count for each of several answers only a question that asks it of each.
            if kind == AnswerType::Count
                && !asks_each
                && counted_for_each(&unit.text[number_end..], &|w| own_terms.contains(&stem(w)))
            {
                continue;
            }
            // A sentence that states its figures for other classes only ("the Class A-1a
            // Notes, 1.85%" for the Class A-2 Notes) does not answer for the asked one.
            if figures && !asked_classes.is_empty() {
                let stated = class_labels(&unit.text);
                if !stated.is_empty() && !stated.iter().any(|c| asked_classes.contains(c)) {
                    continue;
                }
            }
            // "Cash flows from operating activities decreased $1,863 million": a change,
            // which answers only a question about one.
            if figures && !asks_change && stated_as_change(&unit.text, span.start) {
                continue;
            }
            // A per-share amount is never stated in millions ("EPS … to $1.40", not the
            // "$2.9 billion" of the sentence before it).
            if per_share && has_scale_word(&value) {
                continue;
            }
            // "“Master Trust Owner Trustee” means Wilmington Trust …": a name inside the term
            // a definition defines is the term, not who or what it is.
            if matches!(kind, AnswerType::Party | AnswerType::Person)
                && DEFINED_TERM.find(&unit.text).is_some_and(|defined| {
                    defined.start() <= span.start && span.end <= defined.end()
                })
            {
                continue;
            }
            // A bare legal word ("Trust" of "the Trust Agreement") is no name where the
            // sentence names a party in full ("Keystone Bank Trust, National Association").
            if kind == AnswerType::Party
                && !written.contains(char::is_whitespace)
                && found_all
                    .iter()
                    .any(|r| unit.text[r.clone()].trim().contains(char::is_whitespace))
            {
                continue;
            }
            // "… lower than the U.S. federal statutory rate of 21%": the figure's own name
            // is another rate than the effective one asked.
            if figures
                && named_otherwise(&unit.text, &span, part, &|w| {
                    weights.iter().any(|(a, _)| a == w) || naming.contains(w)
                })
            {
                continue;
            }
            let prox = proximity(weights, &unit.text, &span);
            // "Ryan Y. Park, Solicitor General," for who appeared as Solicitor General: the
            // person's own title, set off after the name, is the role the question names.
            let defines = names_defined_term(weights, &unit.text, &span)
                || issue_line
                || (kind == AnswerType::Person
                    && holds_asked_role(weights, &unit.text[span.end..]));
            // "We had 1,138 stores": the count's own noun, right after it, is what the
            // question counts, whatever verb the question uses ("operate", "have").
            // (A lower-case word of the noun's stem: "United" is no "unit".)
            // The counted noun right after the number, or as the span's own last word when
            // the span states it ("157 fatalities").
            let counts_asked_noun = noun.as_deref().is_some_and(|n| {
                let own_last = written
                    .split_whitespace()
                    .nth(1)
                    .and(written.split_whitespace().next_back());
                own_last
                    .or_else(|| unit.text[span.end..].split_whitespace().next())
                    .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                    .is_some_and(|w| {
                        w.chars().next().is_some_and(char::is_lowercase)
                            && (stem(w) == stem(n) || spans::counts_as(w, n))
                    })
            });
            // "What is the case number …": a docket number, never a statute or a section
            // ("Sections 14(a)" of the Exchange Act the complaint cites).
            if kind == AnswerType::Reference
                && asks_case_number
                && (!is_docket_number(&value)
                    || asked_court.is_some_and(|district| district != is_district_docket(&value)))
            {
                continue;
            }
            // "Docket No. FAA–2020–0686" for "What is the docket number …": the reference's
            // own label is the identifier the question names (not a generic "Section").
            let labelled_reference =
                kind == AnswerType::Reference && labels_asked_identifier(&value, &own_terms);
            let defines = defines || labelled_reference;
            let (cov, matched) = if defines || counts_asked_noun {
                (cov.max(MIN_COVERAGE), matched.max(MIN_COVERAGE))
            } else {
                (cov, matched)
            };
            let per_unit = rate_unit.is_some_and(|u| stated_per(&unit.text[span.end..], u));
            // "per day" says what "daily" asks.
            let (cov, matched) = if per_unit {
                let share = rate_word_share(weights, &lower_part, &unit.terms);
                (cov + share, matched + share)
            } else {
                (cov, matched)
            };
            let mut score = 0.6 * matched
                + 0.25 * prox
                + 0.15 * rank
                + date_fit
                + if defines { 0.25 } else { 0.0 }
                + if per_unit { RATE_FIT } else { 0.0 }
                + if asks_recurring && years_of(&value).is_empty() {
                    RECURRING_FIT
                } else {
                    0.0
                }
                + asked_event.map_or(0.0, |event| event_fit(&unit.text, &span, event));
            // "Includes 33 Best Buy Mobile stores" counts a kind of store the question does
            // not name: it answers only where nothing counts the whole.
            if of_a_kind {
                score *= OF_A_KIND;
            }
            // A figure the question asks to read from a statement is a cell, not prose.
            if figures && query.statement.is_some() {
                score -= 0.2;
            }
            // "156,000 and 142,000" of "As of December 31, 2022 and 2021": each figure of a
            // list is the year in the same place of the sentence's list of years.
            if figures
                && paired_year(&unit.text, &found_all, &span)
                    .is_some_and(|y| !query.years.is_empty() && !query.years.contains(&y))
            {
                continue;
            }
            // "$4.0 billion and $10.0 billion" of "As of July 1, 2023 and September 24, 2022",
            // "11.4% and 10.4%" of "for the second quarter and first half": each figure is
            // the date or period in the same place of the other list; one the question does
            // not ask for, when it asks for one of that list, is another period's figure.
            if figures {
                let (date, period) = paired_date_and_period(&unit.text, &found_all, &span);
                if date.is_some_and(|d| !asked_dates.is_empty() && !asked_dates.contains(&d))
                    || period
                        .is_some_and(|p| !asked_periods.is_empty() && !asked_periods.contains(&p))
                {
                    continue;
                }
            }
            if !query.years.is_empty()
                && matches!(
                    kind,
                    AnswerType::Amount | AnswerType::Percentage | AnswerType::Count
                )
            {
                // A sentence that dates its figures to other years only states another
                // period's figure ("$5,662 million … at December 31, 2022 and 2021" for FY2018).
                let years = years_of(&unit.text);
                if years.iter().any(|y| query.years.contains(y)) {
                    score += 0.1;
                } else if !years.is_empty() {
                    continue;
                }
            }
            // So does one that names other reporting periods only ("$3.81 billion in cash
            // taxes in the third quarter" for the second quarter asked).
            if figures && !asked_periods.is_empty() {
                let periods = periods_named(&unit.text);
                if !periods.is_empty()
                    && !periods
                        .iter()
                        .any(|p| asked_periods.iter().any(|a| same_period(a, p)))
                {
                    continue;
                }
            }
            let mut q = quote(&unit.text, Some(&span));
            if !q.contains(written) {
                q = unit.text.clone();
            }
            out.push(Candidate::in_sentence(value, unit, q, score, cov));
        }
    }
    out
}

/// A class, series or tranche label with its designation ("Class A-1a", "Series B",
/// "Tranche 2"), as `class a-1a`.
static CLASS_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(Class|Series|Tranche)\s+([A-Z0-9][A-Za-z0-9]*(?:[-–][A-Za-z0-9]+)*)\b")
        .expect("valid regex")
});

/// The class, series and tranche labels `text` names ([`CLASS_LABEL`]), lowercased with
/// en dashes as hyphens.
fn class_labels(text: &str) -> Vec<String> {
    CLASS_LABEL
        .captures_iter(text)
        .map(|c| {
            format!("{} {}", &c[1], &c[2])
                .to_lowercase()
                .replace('–', "-")
        })
        .collect()
}

/// A document's own issue line: "Issued on August 3, 2020.", "Issued in Des Moines,
/// Washington, on June 1, 2021.", "Dated: March 1, 2021".
static ISSUE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:Issued|Dated|Done|Signed)\b[^.;]{0,60}?\b\d{4}\.?$").expect("valid regex")
});

/// Most words of a person's title set off after the name ([`holds_asked_role`]).
const ROLE_WORDS: usize = 5;

/// Whether the title set off right after a person's name (`after`: the sentence from the
/// name's end: ", Solicitor General, for the State") is a role all of whose words the
/// question asks (`weights`): "Solicitor General" for "Who appeared as Solicitor General
/// …?", not "Deputy Solicitor General".
fn holds_asked_role(weights: &[(String, f32)], after: &str) -> bool {
    let Some(rest) = after.strip_prefix(',') else {
        return false;
    };
    let role = rest.split([',', ';', '(']).next().unwrap_or("").trim();
    // "Solicitor General." at a sentence's end; "Solicitor General of North Carolina".
    let words: Vec<&str> = role
        .split_whitespace()
        .map(|w| w.trim_end_matches(|c: char| !c.is_alphanumeric()))
        .take_while(|w| *w != "of")
        .collect();
    !words.is_empty()
        && words.len() <= ROLE_WORDS
        && words.iter().all(|w| {
            w.starts_with(char::is_uppercase)
                && weights.iter().any(|(t, _)| *t == stem(&w.to_lowercase()))
        })
}

/// Events a date is the date of, each a group of word stems that name the same event
/// ("signed", "executed", "entered into", "dated"). A word names a stem's event when it is
/// the stem and one of [`EVENT_SUFFIXES`] ("filed", "filing"; not "entertaining" for
/// "enter", "signaled" for "sign" or "hearsay" for "hear").
const EVENTS: &[&[&str]] = &[
    &["sign", "execut", "enter", "dated"],
    &["publish", "issu", "releas"],
    &["file", "filing", "submit", "lodg"],
    &["hold", "held", "hear"],
    &["decid", "decision"],
    &["reverse"],
    &["affirm"],
    &["dismiss"],
    &["appeal"],
    &["stay"],
    &["remand"],
    &["vacat"],
    &["annul"],
    &["grant"],
    &["deni", "deny"],
    &["approv", "ratif"],
    &["amend"],
    &["acquir", "purchas", "bought"],
    &["announc"],
    &["launch", "introduc"],
    &["commenc", "began", "begin", "start"],
    &["complet", "conclud", "finish", "clos"],
    &["adopt", "enact"],
    &["terminat", "expir"],
    &["effect"],
];

/// Endings a word may add to an [`EVENTS`] stem and still name its event.
const EVENT_SUFFIXES: &[&str] = &[
    "", "e", "s", "es", "d", "ed", "led", "ted", "ied", "y", "ing", "ion", "ions", "tion", "ation",
    "ication", "al", "ment", "ments", "ement", "ance", "ive", "ure",
];

/// Words either side of a date within which the nearest event verb is its event.
const EVENT_REACH: usize = 10;

/// Score a date gains when its nearest event is the asked one, and loses when it is another.
const EVENT_FIT: f32 = 0.1;

/// The [`EVENTS`] group a lowercase `word` names, if any.
fn event_of(word: &str) -> Option<usize> {
    EVENTS.iter().position(|group| {
        group.iter().any(|stem| {
            word.strip_prefix(stem)
                .is_some_and(|rest| EVENT_SUFFIXES.contains(&rest))
        })
    })
}

/// Words before "to" that make the word after it the asked event ("due to conclude",
/// "scheduled to close"); "the motion to dismiss" names a motion.
const BEFORE_ASKED_TO: &[&str] = &["due", "scheduled", "expected", "set", "required", "going"];

/// The event a date question asks the date of: the group of its event word used as a verb,
/// first one after "due to", "scheduled to" … ("… due to conclude?"), else the last past
/// participle ("When was the amended complaint filed?"), else the first one no determiner or
/// possessive stands before ([`crate::ask::named::DETERMINERS`]), else the first event word.
/// "On what date did the Court of Justice hold its hearing on the Commission's appeal?" asks
/// when it held the hearing, not when the appeal was filed; "When did the court grant the
/// motion to dismiss?" asks when it granted it.
pub(super) fn asked_event(question: &str) -> Option<usize> {
    let words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let events: Vec<(usize, usize)> = words
        .iter()
        .enumerate()
        .filter_map(|(i, w)| event_of(w).map(|e| (i, e)))
        .collect();
    let previous = |i: usize| i.checked_sub(1).map_or("", |p| words[p].as_str());
    let participle =
        |w: &str| w.ends_with("ed") || ["held", "made", "bought", "begun"].contains(&w);
    let noun = |w: &str| {
        ["ing", "ion", "al", "ance", "ment"]
            .iter()
            .any(|s| w.ends_with(s))
    };
    let before_to = |i: usize| i.checked_sub(2).map_or("", |p| words[p].as_str());
    let determiner = |w: &str| w == "s" || crate::ask::named::DETERMINERS.contains(&w);
    events
        .iter()
        .find(|(i, _)| previous(*i) == "to" && BEFORE_ASKED_TO.contains(&before_to(*i)))
        .or_else(|| events.iter().rev().find(|(i, _)| participle(&words[*i])))
        .or_else(|| {
            events
                .iter()
                .find(|(i, _)| !determiner(previous(*i)) && !noun(&words[*i]))
        })
        .or_else(|| events.first())
        .map(|(_, e)| *e)
}

/// Event words that are verbs (or, "effective", say what takes effect) without the "-ed"
/// of a past tense.
const IRREGULAR_EVENT_VERBS: &[&str] = &["held", "made", "began", "begun", "bought", "effective"];

/// Words before a verb's base form ("will conclude", "to file").
const BEFORE_BASE_VERB: &[&str] = &["to", "will", "shall", "would", "may", "must"];

/// Words after "and" / "or" within which a verb is coordinated with the one before it
/// ("affirmed in part and reversed in part").
const COORDINATED_REACH: usize = 3;

/// The [`EVENTS`] groups a date's clause states: those of the nearest event verb within
/// [`EVENT_REACH`] words either side of the date (a past tense or participle, "held",
/// "effective", or a base form after "to" / "will" …), with the verbs coordinated with it by
/// "and" / "or". Nouns ("the appeal", "a hearing", "Court of Appeals") name no date's event.
fn date_events(text: &str, span: &std::ops::Range<usize>) -> Vec<usize> {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let before = words(&text[..span.start]);
    let after = words(&text[span.end..]);
    let all: Vec<&String> = before.iter().chain(after.iter()).collect();
    let verb_event = |i: usize| -> Option<usize> {
        let w = all[i].as_str();
        let verb = w.ends_with("ed")
            || IRREGULAR_EVENT_VERBS.contains(&w)
            || i.checked_sub(1)
                .is_some_and(|p| BEFORE_BASE_VERB.contains(&all[p].as_str()));
        verb.then(|| event_of(w)).flatten()
    };
    let date = before.len();
    let nearest = (0..EVENT_REACH)
        .flat_map(|d| [date.checked_add(d), date.checked_sub(d + 1)])
        .flatten()
        .filter(|&i| i < all.len())
        .find_map(|i| verb_event(i).map(|e| (i, e)));
    let Some((at, event)) = nearest else {
        return Vec::new();
    };
    let mut events = vec![event];
    let mut i = at + 1;
    while i < all.len() && i <= at + EVENT_REACH {
        if ["and", "or"].contains(&all[i].as_str()) {
            // A verb of the same subject: no determiner between ("and the court dismissed"
            // starts another clause).
            if let Some((j, e)) = (i + 1..all.len().min(i + 1 + COORDINATED_REACH))
                .take_while(|&j| !crate::ask::named::DETERMINERS.contains(&all[j].as_str()))
                .find_map(|j| verb_event(j).map(|e| (j, e)))
            {
                events.push(e);
                i = j;
            }
        }
        i += 1;
    }
    events
}

/// How a date at `span` of `text` fits the asked `event`: [`EVENT_FIT`] when its clause's
/// event verb names it ([`date_events`]: "a hearing was held on May 23, 2023"; "on August 25,
/// 2023, a panel affirmed in part and reversed in part"), minus that when it names another
/// ("initially filed January 18, 2019" for when a dismissal was reversed), else nothing.
pub(super) fn event_fit(text: &str, span: &std::ops::Range<usize>, event: usize) -> f32 {
    let events = date_events(text, span);
    if events.contains(&event) {
        EVENT_FIT
    } else if events.is_empty() {
        0.0
    } else {
        -EVENT_FIT
    }
}

/// Whether the text after an amount states it per some unit ("per half day", "/hour"): a
/// rate.
fn per_unit_after(after: &str) -> bool {
    after.trim_start().starts_with('/') || per_phrase(after).is_some()
}

/// Words that end a rate's unit ("$0.25 per share and the loan …" is per share).
const UNIT_ENDS: &[&str] = &[
    "and", "or", "the", "of", "for", "to", "in", "on", "with", "plus", "which", "that",
];

/// Words of a rate's unit after "per" at most.
const PER_UNIT_WORDS: usize = 3;

/// The unit phrase after an amount stated per unit ("per half day activity" of "£75 per
/// half day activity."): "per" and up to [`PER_UNIT_WORDS`] words, to the first punctuation
/// or [`UNIT_ENDS`] word.
fn per_phrase(after: &str) -> Option<String> {
    let after = after.trim_start();
    let rest = after
        .get(..4)
        .filter(|p| p.eq_ignore_ascii_case("per "))
        .map(|_| &after[4..])?;
    let clause = rest
        .split([',', '.', ';', ':', '(', ')'])
        .next()
        .unwrap_or("");
    let words: Vec<&str> = clause
        .split_whitespace()
        .take_while(|w| !UNIT_ENDS.contains(&w.to_lowercase().as_str()))
        .take(PER_UNIT_WORDS)
        .collect();
    (!words.is_empty()).then(|| format!("per {}", words.join(" ")))
}

/// Whether a reference span opens with the name of an identifier the question asks for
/// (`own_terms`, the question's stems): "Docket No. FAA–2020–0686" for "the docket number".
/// The generic words of section references ("Section", "Article", "Rule") are no such name:
/// every reference of a document shares them.
pub(super) fn labels_asked_identifier(value: &str, own_terms: &[String]) -> bool {
    const GENERIC: &[&str] = &[
        "circuit",
        "local",
        "federal",
        "section",
        "sections",
        "sec",
        "article",
        "rule",
        "clause",
        "paragraph",
        "item",
        "no",
    ];
    value
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .map(str::to_lowercase)
        .is_some_and(|w| {
            w.chars().all(char::is_alphabetic)
                && !GENERIC.contains(&w.as_str())
                && own_terms.contains(&stem(&w))
        })
}

/// Score a figure gains when it is stated per the unit of time a question asks a rate in.
const RATE_FIT: f32 = 0.1;

/// Score a date without a year (a day that recurs: "the last Saturday of September") gains
/// when the question asks when something recurs: "When does …" about one of
/// [`RECURRING_SUBJECTS`].
const RECURRING_FIT: f32 = 0.1;

/// Words of a "When does …" question that name something that recurs.
const RECURRING_SUBJECTS: &[&str] = &[
    "fiscal year",
    "each ",
    "every ",
    "annual",
    "monthly",
    "quarterly",
    "weekly",
    "year end",
    "year-end",
];

/// The adjectives of a rate per unit of time, with their unit.
const RATE_WORDS: &[(&str, &str)] = &[
    ("hourly", "hour"),
    ("daily", "day"),
    ("weekly", "week"),
    ("monthly", "month"),
];

/// The unit of time a question (lowercase) asks a rate in: "hour" for "what hourly labor
/// rate" or "how much per hour", "day" for "daily" or "per day"; `None` when it asks for no
/// rate per unit of time.
pub(super) fn asked_rate_unit(lower: &str) -> Option<&'static str> {
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    RATE_WORDS.iter().find_map(|&(adjective, unit)| {
        let per = words
            .windows(2)
            .any(|w| w[0] == "per" && w[1].trim_end_matches('s') == unit);
        (words.contains(&adjective) || per).then_some(unit)
    })
}

/// The IDF-weighted share of the question's terms that its rate adjective ("daily",
/// "hourly") holds, when the sentence lacks the word: a figure stated "per day" says it.
fn rate_word_share(weights: &[(String, f32)], lower: &str, terms: &[String]) -> f32 {
    let total: f32 = weights.iter().map(|(_, w)| w).sum();
    if total <= 0.0 {
        return 0.0;
    }
    RATE_WORDS
        .iter()
        .filter(|(a, _)| lower.split(|c: char| !c.is_alphanumeric()).any(|w| w == *a))
        .map(|(a, _)| stem(a))
        .filter(|t| !terms.contains(t))
        .filter_map(|t| {
            weights
                .iter()
                .find(|(w, _)| *w == t)
                .map(|(_, w)| w / total)
        })
        .sum()
}

/// Whether the text right after a figure states it per `unit` of time: "per work-hour",
/// "/-per day" (Indian rupee amounts), "/hour", "an hour", "a day".
pub(super) fn stated_per(after: &str, unit: &str) -> bool {
    let head: String = after.chars().take(30).collect::<String>().to_lowercase();
    let slash = head.trim_start().starts_with('/');
    let head = head.trim_start_matches(|c: char| c == '/' || c == '-' || c.is_whitespace());
    let rest = ["per ", "an ", "a ", "each "]
        .iter()
        .find_map(|lead| head.strip_prefix(lead))
        .or(slash.then_some(head));
    rest.and_then(|r| r.split_whitespace().next())
        .is_some_and(|w| {
            let w = w.trim_end_matches(|c: char| !c.is_alphanumeric());
            let w = w.strip_suffix('s').unwrap_or(w);
            // "work-hour", "workhour", "man-day": the unit is the word's last part.
            let last = w.rsplit('-').next().unwrap_or(w);
            last == unit
                || ["work", "man", "person"]
                    .iter()
                    .any(|p| last == format!("{p}{unit}"))
        })
}

/// Whether the figure at `span` of `text` is stated as a part of a whole under another
/// name: it follows the sentence's last "include(s/d/ing)" with no other figure between,
/// and the phrase between that word and the figure lacks one of the question's metric
/// words (`metric_weights`, less the document's own name words `naming`) while it names
/// something the question does not (a capitalised word whose stem is not in `asked`, even
/// one of the document's name: "United States" is in a 10-K's cover).
/// "Americas included United States net sales to customers of $15.0 billion, $15.0 billion
/// and $13.9 billion" states United States net sales, not the Americas'; "costs included
/// restructuring charges of $200 million" still answers "restructuring charges included in
/// costs". A figure in a list (`$15.0 billion, $15.0 billion and`) is read from the list's
/// first figure; in "Total costs, including charges of $200 million, were $5.1 billion",
/// $5.1 billion has a figure between it and "including", so it is no part. The clause of
/// "include" has ended, and the figure is the subject's, when the phrase starts with "in" or
/// "within" ("expense included in the statements was …"), holds a copula or "totaled", or
/// has a comma after which only words leading to the figure come ("net sales, including the
/// Acme acquisition, of $5.2 billion"); a comma inside a list does not end it.
pub(super) fn stated_as_part(
    text: &str,
    found: &[std::ops::Range<usize>],
    span: &std::ops::Range<usize>,
    metric_weights: &[(String, f32)],
    naming: &HashSet<String>,
    asked: &[String],
) -> bool {
    // The first figure of the list `span` ends: figures apart only by commas, "and", "$".
    let mut list_start = span.start;
    for earlier in found.iter().rev().filter(|r| r.end <= span.start) {
        let gap = &text[earlier.end..list_start];
        let joined = gap
            .split(|c: char| c.is_whitespace() || c == ',' || c == '$')
            .all(|w| w.is_empty() || w == "and" || w == "or");
        if !joined {
            break;
        }
        list_start = earlier.start;
    }
    // ASCII lower case keeps byte offsets, which index `text` below.
    let lower = text[..list_start].to_ascii_lowercase();
    let Some(at) = lower
        .match_indices("includ")
        .map(|(i, _)| i)
        .filter(|&i| !lower[..i].ends_with(char::is_alphanumeric))
        .last()
    else {
        return false;
    };
    let word_end = lower[at..]
        .find(|c: char| !c.is_alphanumeric())
        .map_or(lower.len(), |n| at + n);
    if found
        .iter()
        .any(|r| r.start >= word_end && r.end <= list_start)
    {
        return false;
    }
    let phrase = &text[word_end..list_start];
    // "Revenue, which includes Services, was $5.2 billion", "expense included in the
    // statements was $1,234 million", "net sales, including the Acme acquisition, of $5.2
    // billion": the clause of "include" ended before the figure, which is the subject's.
    let words: Vec<String> = phrase
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    // Verbs that state the subject's figure ("… was", "… totaled").
    const STATING: &[&str] = &[
        "was", "were", "is", "are", "totaled", "totalled", "amounted",
    ];
    // A comma ends the clause only where what follows the last one leads to the figure
    // ("including severance, impairment and exit charges of $200 million" is one list).
    let after_comma = phrase.rsplit(',').next().unwrap_or("");
    let leads_to_figure = after_comma
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .all(|w| {
            STATING.contains(&w.as_str())
                || ["of", "to", "approximately", "about", "nearly"].contains(&w.as_str())
        });
    let clause_ended = (phrase.contains(',') && leads_to_figure)
        || words.first().is_some_and(|w| w == "in" || w == "within")
        || words.iter().any(|w| STATING.contains(&w.as_str()));
    if clause_ended {
        return false;
    }
    let terms = super::stems(phrase);
    // The question's own metric words (not the lexicon's expansions of them).
    let lacks_metric = metric_weights
        .iter()
        .map(|(t, _)| t)
        .filter(|t| asked.contains(*t))
        .any(|t| !naming.contains(t) && !terms.contains(t));
    let names_other = phrase
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .flat_map(super::stems)
        .any(|t| !asked.contains(&t));
    lacks_metric && names_other
}

/// Share of the document's passages a word may appear in and still name a kind of thing
/// ([`names_a_kind`]); a word in more is the document's subject ("JavaScript" in a paper on
/// a JavaScript compiler).
const KIND_MAX_SHARE: f32 = 0.15;

/// Whether `word` appears in fewer than [`KIND_MAX_SHARE`] of the index's passages.
fn rare_in(index: &RetrievalIndex, word: &str) -> bool {
    let passages = index.passages().len().max(1) as f32;
    tokenize(word)
        .iter()
        .all(|t| (index.doc_freq(t) as f32) < KIND_MAX_SHARE * passages)
}

/// Whether the words between a count and its `noun` (in `after`, the text right after the
/// count) name a kind of it that the question does not: a capitalised word that is `rare`
/// in the document and whose stem is neither a question word (`asked`) nor one of the
/// document's name (`naming`). "33 Best Buy Mobile stores" and "14 Yardbird stand-alone
/// stores" count kinds of stores; "1,138 stores", "156,000 employees" and, in a paper about
/// JavaScript, "26 short-running JavaScript programs" do not. `false` when the noun does not
/// follow within eight words.
pub(super) fn names_a_kind(
    after: &str,
    noun: &str,
    asked: &[String],
    naming: &HashSet<String>,
    rare: &dyn Fn(&str) -> bool,
) -> bool {
    let mut kind = false;
    for word in after.split_whitespace().take(8) {
        let clean = word.trim_matches(|c: char| !c.is_alphanumeric());
        if clean.to_lowercase().starts_with(noun) {
            return kind;
        }
        if clean.chars().next().is_some_and(char::is_uppercase) && rare(clean) {
            kind |= super::stems(clean)
                .iter()
                .any(|t| !asked.contains(t) && !naming.contains(t));
        }
    }
    false
}

/// Score added to the parties a contract's preamble names, for a question about the
/// parties: the preamble is where a contract states them, while a notice clause or a
/// jurisdiction clause that names several entities shares more of the question's words.
const PREAMBLE_BONUS: f32 = 0.5;

/// Factor on a count's score when it counts a kind of the asked thing the question does not
/// name ([`names_a_kind`]): "33 Best Buy Mobile stores" answers "how many stores" only where
/// no sentence counts all of them.
const OF_A_KIND: f32 = 0.5;

/// Question words that ask for a change of a figure, not its level.
pub(super) const CHANGE_WORDS: &[&str] = &[
    "increase", "decrease", "grow", "rise", "rose", "fall", "fell", "declin", "drop", "reduc",
    "chang", "differ", "compar", "improv", "escalat", "rais", "adjust", "higher", "lower",
];

/// Words that begin with a [`CHANGE_WORDS`] stem but name a figure, not a change ("Adjusted
/// EBITDA", "comparable sales", "leasehold improvements", "the lower of cost or market").
const NOT_CHANGE_WORDS: &[&str] = &["adjusted", "comparable", "improvements", "improvement"];

/// Whether `question` asks about a change: one of its words begins with a [`CHANGE_WORDS`]
/// stem ("Enterprise" and "comprise" do not count for "rise"; [`NOT_CHANGE_WORDS`] and
/// "lower of" name figures), or it asks "how much more".
pub(super) fn asks_for_change(question: &str) -> bool {
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        CHANGE_WORDS.iter().any(|c| w.starts_with(c))
            && !NOT_CHANGE_WORDS.contains(w)
            && !(*w == "lower" && words.get(i + 1) == Some(&"of"))
    }) || lower.contains("how much more")
        || lower.contains("how much less")
}

/// Whether the figure starting at byte `start` of `text` is stated as a change: the nearest
/// word before it (past `$`, `by` and hedges like "approximately") is a verb of change, or
/// `up`/`down` after a copula or a comma ("decreased $1,863 million", "were up 10%", "grew
/// by about 4%"), or the figure is an impact or effect ("an unfavorable impact of 3.6%");
/// "increased to 70.1%" states a level, and "drew down $1.0 billion" is no change.
pub(super) fn stated_as_change(text: &str, start: usize) -> bool {
    const CHANGE_VERBS: &[&str] = &[
        "increased",
        "increases",
        "decreased",
        "decreases",
        "rose",
        "fell",
        "grew",
        "declined",
        "dropped",
        "improved",
        "widened",
        "narrowed",
        "up",
        "down",
    ];
    const SKIP: &[&str] = &[
        "by",
        "approximately",
        "about",
        "nearly",
        "roughly",
        "some",
        "almost",
    ];
    let raw: Vec<&str> = text[..start].split_whitespace().rev().take(6).collect();
    let clean = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    let Some(at) = raw
        .iter()
        .take(4)
        .position(|w| !clean(w).is_empty() && !SKIP.contains(&clean(w).as_str()))
    else {
        return false;
    };
    let verb = clean(raw[at]);
    // A figure listed after another ("an impact of 3.6% and 2.8%", "decreased $5 million and
    // $3 million") is stated as that one is.
    // Only a figure of the same kind inherits ("12% and 45 new stores" do not): (currency,
    // percent) of the figure written at `pos`, as `numbers_in` reads it.
    let kind_at = |pos: usize| {
        numbers_in(&text[pos..])
            .first()
            .map(|n| (n.currency, n.percent))
    };
    let percent_at = |pos: usize| kind_at(pos).is_some_and(|(_, percent)| percent);
    if verb == "and" || verb == "or" {
        let previous = raw
            .iter()
            .skip(at + 1)
            .take(2)
            .find(|w| w.chars().any(|c| c.is_ascii_digit()));
        return previous
            .and_then(|w| text[..start].rfind(w))
            .is_some_and(|pos| kind_at(pos) == kind_at(start) && stated_as_change(text, pos));
    }
    // "an unfavorable impact of 3.6%" on a margin is its change, not its level; "a death
    // benefit of $100,000" is an amount.
    if verb == "of" {
        return percent_at(start)
            && raw.get(at + 1).is_some_and(|before| {
                ["impact", "effect", "benefit", "headwind", "tailwind"]
                    .contains(&clean(before).as_str())
            });
    }
    if !CHANGE_VERBS.contains(&verb.as_str()) {
        return false;
    }
    // "drew down $1.0 billion", "paid down": "up" and "down" state a change only after a
    // copula or a mark ("were up 4%", ", down 2%", "(up $300 million)", "— up 10%") or at
    // the start.
    if verb == "up" || verb == "down" {
        return raw[at].starts_with('(')
            || raw.get(at + 1).is_none_or(|before| {
                before.ends_with([',', ';', '(', '–', '—'])
                    || ["–", "—", "-"].contains(before)
                    || ["was", "were", "is", "are", "be", "been"].contains(&clean(before).as_str())
            });
    }
    true
}

/// Whether an amount is written with a scale word (`$2.9 billion`, `$15 million`, `€3bn`).
fn has_scale_word(value: &str) -> bool {
    value
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| {
            matches!(
                w,
                "thousand"
                    | "million"
                    | "millions"
                    | "billion"
                    | "billions"
                    | "trillion"
                    | "mn"
                    | "bn"
            ) || (w.ends_with("bn") || w.ends_with("mn"))
                && w.starts_with(|c: char| c.is_ascii_digit())
        })
}

/// Characters between a span and a quoted defined term that labels it, at most (within the
/// word limits [`LABEL_AFTER_WORDS`] and [`LABEL_BEFORE_WORDS`]).
pub(super) const DEFINED_TERM_REACH: usize = 80;

/// Words between a span and the quoted term after it, from the opening parenthesis on:
/// "(the “Commencement Date”)", "(each, a “Closing”)".
const LABEL_AFTER_WORDS: usize = 3;

/// Words between a quoted term and the span after it: "the “Servicing Fee Rate” is 0.75%".
const LABEL_BEFORE_WORDS: usize = 6;

/// Whether a quoted term that labels the span holds a question term: a contract's own label
/// for the value, the strongest sign that the span is what the question names. A quoted term
/// labels the span as its parenthesis right after it (`February 4, 2020 (the “Commencement
/// Date”)`, not "ten (10) years thereafter, a Party (the “Receiving Party”)") or a few words
/// before it (`the “Servicing Fee Rate” is 0.75%`); a definition that opens its sentence
/// (`“Applicable Rate” means …`) labels every value of the sentence.
pub(super) fn names_defined_term(
    weights: &[(String, f32)],
    sentence: &str,
    span: &std::ops::Range<usize>,
) -> bool {
    static QUOTED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"[“"]([^”"]{2,60})[”"]"#).expect("pattern")
    });
    QUOTED.captures_iter(sentence).any(|c| {
        let Some(m) = c.get(1) else { return false };
        // A definition ("“Applicable Rate” means … plus two percent (2%)") labels every
        // value of its sentence.
        // (After its number, if any: "1.18 “Calendar Year” means …".)
        let defines_sentence = sentence[..m.start()]
            .trim_start_matches(|c: char| c.is_ascii_digit() || ". ()“\"".contains(c))
            .is_empty()
            && sentence[m.end()..]
                .trim_start_matches(['”', '"', ' ', ','])
                .to_lowercase()
                .starts_with("mean");
        // A quoted term after the span labels it only as its parenthesis ("February 4, 2020
        // (the “Commencement Date”)"), not when it labels a later noun ("ten (10) years
        // thereafter, a Party (the “Receiving Party”)"); one before it, within a few words.
        let words = |t: &str| t.split_whitespace().count();
        let label_after = m.start() >= span.end && {
            let between = sentence[span.end..m.start()].trim_start_matches([' ', ',']);
            between.starts_with('(') && words(between) <= LABEL_AFTER_WORDS
        };
        let label_before =
            m.end() <= span.start && words(&sentence[m.end()..span.start]) <= LABEL_BEFORE_WORDS;
        let overlaps = m.start() < span.end && span.start < m.end();
        let near = defines_sentence
            || ((label_after || label_before || overlaps)
                && m.start() <= span.end + DEFINED_TERM_REACH
                && span.start <= m.end() + DEFINED_TERM_REACH);
        let terms = stems(m.as_str());
        // A definition defines the term asked only if the question has each of its words:
        // "“Master Trust Owner Trustee” means …" is another term than the "Owner Trustee"
        // asked about.
        // (A type word, "Closing Date", is asked without weight.)
        if defines_sentence
            && !terms.iter().all(|t| {
                TYPE_WORDS.iter().any(|w| stem(w) == *t) || weights.iter().any(|(w, _)| w == t)
            })
        {
            return false;
        }
        // A full-weight question term (not one naming the document, not an expansion); for a
        // definition, any question term in the defined term.
        let strongest = weights.iter().map(|(_, w)| *w).fold(0.0_f32, f32::max);
        let least = if defines_sentence { 0.2 } else { 0.5 };
        near && weights
            .iter()
            .any(|(t, w)| terms.contains(t) && *w >= least * strongest)
    })
}

/// Sentences that define the term the question asks about.
pub(super) fn definition_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    term: Option<&str>,
    weights: &[(String, f32)],
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for unit in units.iter().filter(|u| !u.row) {
        let cov = coverage(weights, &unit.terms);
        let Some(span) = term.and_then(|t| spans::definition(&unit.text, t)) else {
            continue;
        };
        let rank = page_rank(input, unit.page_no);
        let score = 0.6 * cov.max(MIN_COVERAGE) + 0.25 + 0.15 * rank;
        let q = quote(&unit.text[span.clone()], None);
        out.push(Candidate::quoted(unit, q, score, cov.max(MIN_COVERAGE)));
    }
    out
}

/// The capitalised term of a "what is / what are …" question that the document defines in
/// quotes: "What is the licensed Territory under the agreement?" of `1.104 “Territory”
/// means the U.S.`. Contracts capitalise the terms they define, and such a question asks
/// for the definition. The term is the question's whole subject: the capitalised words right
/// after "what is (the)" and at most one lowercase modifier, followed by nothing or by where
/// it is defined ("under the Agreement"); "What are the Licensee's obligations?" asks for
/// something else. `None` when the document does not quote the term before "means" (or
/// another defining verb).
pub(super) fn capitalised_defined_term(part: &str, units: &[Unit]) -> Option<String> {
    let words: Vec<&str> = part.split_whitespace().collect();
    let lead = match words.first().map(|w| w.to_lowercase()).as_deref() {
        Some("what's") => 1,
        Some("what")
            if words
                .get(1)
                .is_some_and(|w| ["is", "are", "was"].contains(&w.to_lowercase().as_str())) =>
        {
            2
        }
        _ => return None,
    };
    let mut at = lead;
    if words
        .get(at)
        .is_some_and(|w| ["the", "a", "an"].contains(&w.to_lowercase().as_str()))
    {
        at += 1;
    }
    // One lowercase modifier at most: "the licensed Territory".
    if words
        .get(at)
        .is_some_and(|w| w.starts_with(|c: char| c.is_lowercase()))
    {
        at += 1;
    }
    let mut run: Vec<&str> = Vec::new();
    let mut rest = None;
    for word in &words[at..] {
        let bare = word.trim_end_matches(['?', ',', '.', ';', ':']);
        let capitalised =
            bare.starts_with(|c: char| c.is_uppercase()) && bare.chars().all(char::is_alphabetic);
        if capitalised {
            run.push(bare);
            if bare.len() < word.len() {
                // Punctuation ends the term and the question's subject.
                rest = Some("");
                break;
            }
        } else {
            rest = Some(word);
            break;
        }
    }
    // The term is the question's whole subject: nothing follows it but where it is defined
    // ("under the Agreement", "in the policy"); "the Licensee's obligations" asks for
    // something else.
    let follows = rest.unwrap_or("").to_lowercase();
    if run.is_empty()
        || !(follows.is_empty() || ["under", "in", "of", "for", "as"].contains(&follows.as_str()))
    {
        return None;
    }
    let term = run.join(" ");
    let quoted = [format!("“{term}”"), format!("\"{term}\"")];
    units
        .iter()
        .any(|u| {
            !u.row
                && quoted.iter().any(|q| u.text.contains(q.as_str()))
                && spans::definition(&u.text, &term).is_some()
        })
        .then_some(term)
}

/// The term a definition question asks about: a quoted term, else the words after "define",
/// "definition of", "meaning of", "what does … mean", "how is … defined".
pub(super) fn defined_term(part: &str) -> Option<String> {
    for (open, close) in [('"', '"'), ('“', '”'), ('\'', '\'')] {
        if let Some(a) = part.find(open) {
            let rest = &part[a + open.len_utf8()..];
            if let Some(b) = rest.find(close) {
                return Some(rest[..b].trim().to_string());
            }
        }
    }
    let lower = part.to_ascii_lowercase();
    let strip = |s: &str| -> String {
        s.trim()
            .trim_start_matches("the ")
            .trim_start_matches("a ")
            .trim_end_matches(" mean")
            .trim_end_matches(" defined")
            .trim_end_matches(" refer to")
            .trim()
            .to_string()
    };
    for lead in [
        "definition of ",
        "meaning of ",
        "define ",
        "what does ",
        "how is ",
        "how are ",
        "what is meant by ",
    ] {
        if let Some(i) = lower.find(lead) {
            let term = strip(&part[i + lead.len()..]);
            let term = term
                .split(" in the ")
                .next()
                .unwrap_or(&term)
                .trim()
                .to_string();
            if !term.is_empty() {
                return Some(term);
            }
        }
    }
    None
}

/// The best sentences themselves (yes/no and free-text questions): quoted, never restated.
pub(super) fn sentence_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    weights: &[(String, f32)],
) -> Vec<Candidate> {
    units
        .iter()
        .filter(|u| u.text.split_whitespace().count() >= 5)
        .map(|u| {
            let cov = coverage(weights, &u.terms);
            let score = 0.75 * cov + 0.25 * page_rank(input, u.page_no);
            let q = passage_quote(&u.text, weights);
            Candidate::quoted(u, q, score, cov)
        })
        .filter(|c| c.coverage > 0.0)
        .collect()
}

/// Words that introduce the cause of a change in filings' analysis: "The increase was
/// primarily due to …", "driven by", "as a result of".
pub(super) const CAUSE_MARKERS: &[&str] = &[
    "due to",
    "driven by",
    "primarily",
    "as a result of",
    "attributable to",
    "reflecting",
    "reflects",
    "because",
    "resulted from",
    "result of",
    "owing to",
    "led by",
    "caused by",
];

/// Stems of the words that ask for a cause ("what drove", "what caused"); they are not
/// words the answering sentence repeats.
pub(super) const CAUSE_QUESTION_WORDS: &[&str] = &[
    "drove",
    "driven",
    "drive",
    "drivers",
    "cause",
    "caused",
    "factor",
    "factors",
    "led",
    "reason",
    "reasons",
    "why",
    "contributed",
];

/// Sentences that give a cause ([`CAUSE_MARKERS`]) of what the question names: the
/// sentence's terms with the preceding sentence's (which often names the metric: "Inventories
/// totaled $1.6 billion. The increase was primarily due to …"), quoted with that sentence
/// when it names the metric and the cause sentence does not.
pub(super) fn cause_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    weights: &[(String, f32)],
) -> Vec<Candidate> {
    let asking: HashSet<String> = CAUSE_QUESTION_WORDS.iter().map(|w| stem(w)).collect();
    let weights: Vec<(String, f32)> = weights
        .iter()
        .filter(|(t, _)| !asking.contains(t))
        .cloned()
        .collect();
    let mut out = Vec::new();
    for (i, u) in units.iter().enumerate() {
        let lower = u.text.to_lowercase();
        if u.row || !CAUSE_MARKERS.iter().any(|m| lower.contains(m)) {
            continue;
        }
        let own = coverage(&weights, &u.terms);
        let cov = unit_coverage(&weights, u);
        let previous = i
            .checked_sub(1)
            .map(|p| &units[p])
            .filter(|p| !p.row && p.page_no == u.page_no && p.terms == u.context);
        // The quoted unit: the cause sentence, with the one before when that names the metric.
        let merged;
        let quoted = match previous {
            Some(p) if cov > own && p.text.len() + u.text.len() < 2 * MAX_QUOTE => {
                merged = Unit {
                    text: format!("{} {}", p.text, u.text),
                    first: p.first,
                    last: u.last,
                    page_no: u.page_no,
                    node_id: u.node_id.clone(),
                    row: false,
                    terms: Vec::new(),
                    context: Vec::new(),
                    labelled: false,
                    section: Vec::new(),
                };
                &merged
            }
            _ => u,
        };
        let score = 0.75 * cov + 0.25 * page_rank(input, u.page_no) + 0.1;
        let q = if quoted.text.len() <= 2 * MAX_QUOTE {
            quoted.text.clone()
        } else {
            quote(&quoted.text, None)
        };
        out.push(Candidate::quoted(quoted, q, score, cov));
    }
    out
}

/// The verbs of a court's disposition of a decision, motion or appeal: the base form a court
/// states its own ruling in ("we affirm") and the participle of its disposition line
/// ("REVERSED.", "the judgment is affirmed").
const DISPOSITIONS: &[(&str, &str)] = &[
    ("affirm", "affirmed"),
    ("reverse", "reversed"),
    ("vacate", "vacated"),
    ("remand", "remanded"),
    ("modify", "modified"),
    ("dismiss", "dismissed"),
    ("grant", "granted"),
    ("deny", "denied"),
];

/// Words a court puts between "we" and its ruling ("Accordingly, we modify and affirm …").
const RULING_ADVERBS: &[&str] = &["accordingly", "therefore", "hereby", "now", "thus", "also"];

/// How strongly a line of nothing but the disposition ("MODIFIED AND AFFIRMED.") reads as
/// the court's own.
const DISPOSITION_LINE: f32 = 1.0;
/// How strongly the court's "we" ("we modify and affirm the decision") reads as its own.
const DISPOSITION_WE: f32 = 0.9;
/// How strongly a passive ruling on a judgment or motion ("The judgment … is affirmed")
/// reads as the court's own.
const DISPOSITION_PASSIVE: f32 = 0.8;

/// Objects besides [`answer_type::RULINGS`] that "we grant"/"we deny" must name within a few
/// words to be a ruling ("we grant the petition", "we deny a stay"), not a company's "We grant
/// stock-based compensation".
const GRANTED: &[&str] = &[
    "certiorari",
    "review",
    "request",
    "stay",
    "application",
    "leave",
];

/// The court's own disposition stated in `sentence`, as its participles ("Modified and
/// affirmed", "Affirmed in part, reversed in part, and remanded"), with its strength
/// ([`DISPOSITION_LINE`], [`DISPOSITION_WE`], [`DISPOSITION_PASSIVE`]); `None` for a sentence
/// that states none or tells of a past ruling ("this Court reversed the decision").
pub(super) fn disposition_in(sentence: &str) -> Option<(String, f32)> {
    let participle = |w: &str| DISPOSITIONS.iter().find(|(_, p)| *p == w).map(|(_, p)| *p);
    let base = |w: &str| DISPOSITIONS.iter().find(|(b, _)| *b == w).map(|(_, p)| *p);
    let words: Vec<&str> = sentence
        .split(|c: char| c.is_whitespace() || c == ',')
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    // A line of nothing but the disposition, in capitals.
    let line_word = |w: &str| participle(w).is_some() || ["and", "in", "part"].contains(&w);
    if !words.is_empty()
        && words.iter().all(|w| *w == w.to_uppercase())
        && lower.iter().all(|w| line_word(w))
        && lower.iter().any(|w| participle(w).is_some())
    {
        let value = phrase::capitalise(&sentence.trim().trim_end_matches('.').to_lowercase());
        return Some((value, DISPOSITION_LINE));
    }
    // The participles of the verbs from `at` on, joined by "and" ("modify and affirm"), each
    // with its "in part" ("affirm in part and reverse in part").
    let run = |at: usize, form: &dyn Fn(&str) -> Option<&'static str>| -> Vec<String> {
        let mut out = Vec::new();
        let mut i = at;
        while let Some(p) = lower.get(i).and_then(|w| form(w)) {
            let in_part = lower.get(i + 1).is_some_and(|w| w == "in")
                && lower.get(i + 2).is_some_and(|w| w == "part");
            out.push(if in_part {
                format!("{p} in part")
            } else {
                p.to_string()
            });
            i += if in_part { 3 } else { 1 };
            if lower.get(i).is_some_and(|w| w == "and") {
                i += 1;
            } else {
                break;
            }
        }
        out
    };
    // "we grant"/"we deny" rule only on a ruling or a request named within four words.
    let rules_on_request = |from: usize| {
        lower.iter().skip(from).take(4).any(|w| {
            answer_type::RULINGS.contains(&w.trim_end_matches('s')) || GRANTED.contains(&w.as_str())
        })
    };
    let joined = |ps: Vec<String>| -> String {
        phrase::capitalise(&match ps.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        })
    };
    for (i, w) in lower.iter().enumerate() {
        if w == "we" {
            let mut j = i + 1;
            while lower
                .get(j)
                .is_some_and(|w| RULING_ADVERBS.contains(&w.as_str()))
            {
                j += 1;
            }
            let ps = run(j, &base);
            let grants = lower.get(j).is_some_and(|w| w == "grant" || w == "deny");
            if !ps.is_empty() && (!grants || rules_on_request(j + 1)) {
                return Some((joined(ps), DISPOSITION_WE));
            }
        }
        if (w == "is" || w == "are")
            && lower[..i]
                .iter()
                .any(|w| answer_type::RULINGS.contains(&w.as_str()))
        {
            let mut j = i + 1;
            while lower
                .get(j)
                .is_some_and(|w| RULING_ADVERBS.contains(&w.as_str()))
            {
                j += 1;
            }
            let ps = run(j, &participle);
            if !ps.is_empty() {
                return Some((joined(ps), DISPOSITION_PASSIVE));
            }
        }
    }
    None
}

/// Sentences that state the court's own disposition ([`disposition_in`]), valued as the
/// disposition and quoted whole; scored above any sentence that only shares the question's
/// words, strongest form first, for that is what a disposition question asks. Their coverage
/// is at least [`MIN_COVERAGE`]: the disposition answers the question's asking words
/// ("do with", "outcome"), which the sentence need not repeat.
pub(super) fn disposition_candidates(
    input: &ReaderInput<'_>,
    units: &[Unit],
    weights: &[(String, f32)],
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for u in units.iter().filter(|u| !u.row) {
        let Some((value, strength)) = disposition_in(&u.text) else {
            continue;
        };
        let cov = unit_coverage(weights, u).max(MIN_COVERAGE);
        let score = COMPUTED_SCORE - 0.2 * (1.0 - strength) + 0.05 * page_rank(input, u.page_no);
        out.push(Candidate::in_sentence(
            value,
            u,
            quote(&u.text, None),
            score,
            cov,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_read_with_their_designation() {
        assert_eq!(
            class_labels("What interest rate do the Class A-2 Notes bear?"),
            ["class a-2"]
        );
        assert_eq!(
            class_labels("(i) the Class A-1a Notes, 1.85%, (ii) the Class A–1b Notes, LIBOR"),
            ["class a-1a", "class a-1b"]
        );
        assert_eq!(class_labels("Series B Preferred Stock"), ["series b"]);
        assert!(class_labels("a class action and a series of losses").is_empty());
    }

    #[test]
    fn an_issue_line_dates_the_document() {
        assert!(ISSUE_LINE.is_match("Issued on August 3, 2020."));
        assert!(ISSUE_LINE.is_match("Issued in Des Moines, Washington, on June 1, 2021."));
        assert!(ISSUE_LINE.is_match("Dated: March 1, 2021"));
        assert!(!ISSUE_LINE.is_match(
            "Issued on August 3, 2020, the rule requires operators to inspect the wiring."
        ));
        assert!(!ISSUE_LINE.is_match("The FAA issued AD 2018-23-51 on November 7, 2018."));
    }

    #[test]
    fn a_title_set_off_after_a_name_is_the_role_it_holds() {
        let weights: Vec<(String, f32)> = ["appeared", "solicitor", "general", "state"]
            .iter()
            .map(|w| (stem(w), 1.0))
            .collect();
        assert!(holds_asked_role(
            &weights,
            ", Solicitor General, for the State."
        ));
        assert!(!holds_asked_role(
            &weights,
            ", Deputy Solicitor General, Olga"
        ));
        assert!(!holds_asked_role(&weights, " and the Solicitor General"));
        assert!(!holds_asked_role(&weights, ", for the State."));
        assert!(holds_asked_role(&weights, ", Solicitor General."));
        assert!(holds_asked_role(
            &weights,
            ", Solicitor General of North Carolina, for"
        ));
    }

    #[test]
    fn a_rate_stated_per_unit_keeps_its_unit() {
        assert!(per_unit_after(" per half day activity."));
        assert!(!per_unit_after(" for each half day"));
        assert_eq!(
            per_phrase(" per half day activity. Estimated"),
            Some("per half day activity".to_string())
        );
        assert_eq!(per_phrase(" per hour, plus"), Some("per hour".to_string()));
        assert_eq!(per_phrase(" in total"), None);
        assert_eq!(
            per_phrase(" per share and the loan"),
            Some("per share".to_string())
        );
        assert!(per_unit_after(" Per day"));
    }

    #[test]
    fn a_date_questions_event_is_its_verb_and_a_date_fits_the_event_beside_it() {
        let event = |q: &str| asked_event(q).map(|e| EVENTS[e][0]);
        assert_eq!(
            event(
                "On what date did a Ninth Circuit panel partly reverse the dismissal of the case?"
            ),
            Some("reverse")
        );
        assert_eq!(
            event("On what date did the Court of Justice hold its hearing on the Commission's appeal?"),
            Some("hold")
        );
        assert_eq!(
            event("When is briefing in the bail-process appeal due to conclude?"),
            Some("complet")
        );
        assert_eq!(
            event("On what date was the proposed directive published in the Federal Register?"),
            Some("publish")
        );
        assert_eq!(event("What is the company's fiscal year end?"), None);
        assert_eq!(
            event("When did the court grant the motion to dismiss?"),
            Some("grant")
        );
        assert_eq!(event("When was the amended complaint filed?"), Some("file"));
        // Words that only begin like an event name none.
        assert_eq!(event_of("signaled"), None);
        assert_eq!(event_of("hearsay"), None);
        assert_eq!(event_of("entertaining"), None);
        let fit = |text: &str, date: &str, q: &str| {
            let start = text.find(date).unwrap();
            event_fit(text, &(start..start + date.len()), asked_event(q).unwrap())
        };
        let q = "On what date did the Court of Justice hold its hearing on the appeal?";
        let text = "On September 25, 2020, the Commission appealed the decision to the Court of Justice and a hearing was held on May 23, 2023.";
        assert_eq!(fit(text, "September 25, 2020", q), -EVENT_FIT);
        assert_eq!(fit(text, "May 23, 2023", q), EVENT_FIT);
        assert_eq!(
            fit(
                "The fiscal year ended on June 30, 2023.",
                "June 30, 2023",
                q
            ),
            0.0
        );
        // Verbs coordinated with the date's verb are its events too; nouns are none.
        let q = "On what date did the panel reverse the dismissal?";
        let text = "In the Court of Appeals, on August 25, 2023, a panel affirmed in part and reversed in part the dismissal.";
        assert_eq!(fit(text, "August 25, 2023", q), EVENT_FIT);
        let text = "The lawsuit, initially filed January 18, 2019, was stayed pending the appeal.";
        assert_eq!(fit(text, "January 18, 2019", q), -EVENT_FIT);
        assert_eq!(
            fit(
                "The appeal of August 1, 2023 is pending.",
                "August 1, 2023",
                q
            ),
            0.0
        );
        // A verb after "and the …" belongs to another clause.
        let q = "When did the court dismiss the appeal?";
        let text = "A hearing was held on May 23, 2023 and the court dismissed the appeal on July 1, 2023.";
        assert_eq!(fit(text, "May 23, 2023", q), -EVENT_FIT);
        assert_eq!(fit(text, "July 1, 2023", q), EVENT_FIT);
    }

    #[test]
    fn a_disposition_is_the_courts_own_ruling_not_a_ruling_it_recounts() {
        for (sentence, value, strength) in [
            (
                "MODIFIED AND AFFIRMED.",
                "Modified and affirmed",
                DISPOSITION_LINE,
            ),
            (
                "AFFIRMED IN PART, REVERSED IN PART, AND REMANDED.",
                "Affirmed in part, reversed in part, and remanded",
                DISPOSITION_LINE,
            ),
            (
                "Accordingly, we modify and affirm the opinion of the Court of Appeals.",
                "Modified and affirmed",
                DISPOSITION_WE,
            ),
            (
                "The judgment of the Court of Appeals is reversed.",
                "Reversed",
                DISPOSITION_PASSIVE,
            ),
            (
                "The motion is hereby granted.",
                "Granted",
                DISPOSITION_PASSIVE,
            ),
            (
                "The decision of the Court of Appeals is, therefore, reversed.",
                "Reversed",
                DISPOSITION_PASSIVE,
            ),
            (
                "We affirm in part and reverse in part the judgment below.",
                "Affirmed in part and reversed in part",
                DISPOSITION_WE,
            ),
            (
                "We grant the petition for review.",
                "Granted",
                DISPOSITION_WE,
            ),
        ] {
            assert_eq!(
                disposition_in(sentence),
                Some((value.to_string(), strength)),
                "{sentence}"
            );
        }
        for sentence in [
            "On appeal, this Court reversed the decision of the Court of Appeals.",
            "We conclude that chance predominates over skill.",
            "The Court of Appeals affirmed the order.",
            "AFFIRMATIVE DEFENSES",
            "It is affirmed that the parties agree.",
            "We grant stock-based compensation to employees and directors.",
        ] {
            assert_eq!(disposition_in(sentence), None, "{sentence}");
        }
    }

    fn figures(text: &str) -> Vec<std::ops::Range<usize>> {
        spans::find(AnswerType::Amount, text, None)
    }

    #[test]
    fn a_quoted_term_labels_the_span_it_follows_in_parentheses_not_a_later_noun() {
        let weights: Vec<(String, f32)> = ["receiving", "commencement", "invoice"]
            .iter()
            .map(|w| (stem(w), 1.0))
            .collect();
        let at = |s: &str, part: &str| {
            let i = s.find(part).unwrap();
            i..i + part.len()
        };
        let s = "Effective February 4, 2020 (the “Commencement Date”), RCP is undertaking an IPO.";
        assert!(names_defined_term(&weights, s, &at(s, "February 4, 2020")));
        let s = "during the Term and for a period of ten (10) years thereafter, a Party (the \
                 “Receiving Party”) receiving Confidential Information shall keep it.";
        assert!(!names_defined_term(&weights, s, &at(s, "ten (10) years")));
    }

    #[test]
    fn a_reference_labelled_with_the_asked_identifier_names_it() {
        let asked = stems("What is the docket number of the proposed rule?");
        assert!(labels_asked_identifier("Docket No. FAA–2020–0686", &asked));
        assert!(!labels_asked_identifier("§ 39.13", &asked));
        assert!(!labels_asked_identifier("14 CFR part 39", &asked));
        let asked = stems("Which section of the rule governs disputes?");
        assert!(!labels_asked_identifier("Section 12.3", &asked));
    }

    #[test]
    fn a_rate_is_the_figure_stated_per_the_asked_unit_of_time() {
        assert_eq!(
            asked_rate_unit("what hourly labor rate does the faa use?"),
            Some("hour")
        );
        assert_eq!(
            asked_rate_unit("how much is paid per day of hospitalisation?"),
            Some("day")
        );
        assert_eq!(
            asked_rate_unit("what is the monthly servicing fee?"),
            Some("month")
        );
        assert_eq!(
            asked_rate_unit("what is the total cost per operator?"),
            None
        );
        assert_eq!(asked_rate_unit("what daylight saving rule applies?"), None);
        let text = "the FAA estimates the average total cost per operator to be $7,650 \
                    (90 work-hours × $85 per workhour); room rent up to Rs. 5,000/-per day, \
                    or $40/hour, $25 an hour.";
        let per_hour: Vec<&str> = figures(text)
            .into_iter()
            .filter(|r| stated_per(&text[r.end..], "hour"))
            .map(|r| &text[r])
            .collect();
        assert_eq!(per_hour, ["$85", "$40", "$25"]);
        let per_day: Vec<&str> = figures(text)
            .into_iter()
            .filter(|r| stated_per(&text[r.end..], "day"))
            .map(|r| &text[r])
            .collect();
        assert_eq!(per_day, ["Rs. 5,000"]);
        assert!(!stated_per(" a Monday", "day") && !stated_per(" per holiday", "day"));
    }

    #[test]
    fn a_figure_after_included_is_a_part_only_when_its_phrase_names_another_thing() {
        let metric = |words: &[&str]| -> Vec<(String, f32)> {
            words.iter().map(|w| (stem(w), 1.0)).collect()
        };
        let naming = HashSet::new();
        let americas = metric(&["net", "sales", "americas"]);
        let asked = stems("net sales in the Americas");
        let text = "Americas included United States net sales to customers of $15.0 billion, \
                    $15.0 billion and $13.9 billion in 2022, 2021 and 2020, respectively.";
        let found = figures(text);
        assert_eq!(found.len(), 3);
        for span in &found {
            assert!(stated_as_part(
                text, &found, span, &americas, &naming, &asked
            ));
        }
        // Asked for the part by its name, the figures are its own.
        let us = metric(&["united", "states", "net", "sales"]);
        let asked_us = stems("United States net sales");
        assert!(!stated_as_part(
            text, &found, &found[1], &us, &naming, &asked_us
        ));
        // A figure with another figure between it and "including" is no part.
        let text = "Total costs, including Mexico charges of $200 million, were $5.1 billion.";
        let found = figures(text);
        let costs = metric(&["total", "costs"]);
        let asked = stems("total costs");
        assert!(stated_as_part(
            text, &found, &found[0], &costs, &naming, &asked
        ));
        assert!(!stated_as_part(
            text, &found, &found[1], &costs, &naming, &asked
        ));
        // Letters whose lower case is longer in bytes do not move the offsets.
        let text = "İİ İstanbul sales included Ankara sales of $3.0 million.";
        let found = figures(text);
        let asked = stems("İstanbul sales");
        assert!(stated_as_part(
            text,
            &found,
            &found[0],
            &asked.iter().map(|t| (t.clone(), 1.0)).collect::<Vec<_>>(),
            &naming,
            &asked
        ));
    }

    #[test]
    fn a_figure_after_a_verb_of_change_is_a_change() {
        let text =
            "Cash flows decreased $1,863 million, and margin increased to 70.1%, up 4 points.";
        let at = |s: &str| text.find(s).unwrap();
        assert!(stated_as_change(text, at("$1,863")));
        assert!(!stated_as_change(text, at("70.1%")));
        assert!(stated_as_change(text, at("4 points")));
        assert!(stated_as_change("Sales grew by about 4%.", 19));
        let impact = "the net effect on our gross margin was an unfavorable impact of 3.6% and \
                      a benefit of 1.2%, at a rate of 5%.";
        assert!(stated_as_change(impact, impact.find("3.6%").unwrap()));
        assert!(stated_as_change(impact, impact.find("1.2%").unwrap()));
        assert!(!stated_as_change(impact, impact.find("5%").unwrap()));
        let listed = "gross margin increased to 70.1% and 68.2%, an unfavorable impact of 3.6% \
                      and 2.8%; costs decreased $5 million and $3 million.";
        assert!(!stated_as_change(listed, listed.find("68.2%").unwrap()));
        assert!(stated_as_change(listed, listed.find("2.8%").unwrap()));
        assert!(stated_as_change(listed, listed.find("$3").unwrap()));
        let other = "Revenue increased 12% and 45 new stores opened; a death benefit of $100,000.";
        assert!(!stated_as_change(other, other.find("45").unwrap()));
        assert!(!stated_as_change(other, other.find("$100,000").unwrap()));
        // "up" and "down" after a copula or a mark are a change; after a verb they are not.
        for (text, figure) in [
            ("Net sales were $5.2 billion (up $300 million).", "$300"),
            ("Revenue was $4.1 billion — up 10% on the year.", "10%"),
            ("Net sales were up 4% in the quarter.", "4%"),
        ] {
            assert!(stated_as_change(text, text.find(figure).unwrap()), "{text}");
        }
        let text = "The Company drew down $1.0 billion under the revolving facility.";
        assert!(!stated_as_change(text, text.find("$1.0").unwrap()));
    }

    #[test]
    fn a_question_asks_for_a_change_by_its_words_not_by_a_figure_named_with_them() {
        for q in [
            "How much did revenue increase in 2023?",
            "By how much were net sales higher than in 2022?",
            "What drove the decline in gross margin?",
            "How much more did Apple spend on R&D?",
        ] {
            assert!(asks_for_change(q), "{q}");
        }
        for q in [
            "What was Adjusted EBITDA in 2023?",
            "What were comparable sales in fiscal 2023?",
            "What were leasehold improvements at year end?",
            "At the lower of cost or market, what were inventories?",
            "What does the Enterprise segment comprise?",
        ] {
            assert!(!asks_for_change(q), "{q}");
        }
    }

    #[test]
    fn a_comma_ends_the_include_clause_only_where_the_figure_follows() {
        let naming = HashSet::new();
        let opex = stems("operating expenses");
        let weights: Vec<(String, f32)> = opex.iter().map(|t| (t.clone(), 1.0)).collect();
        for text in [
            "Operating expenses included, among other things, Restructuring charges of $200 million.",
            "Operating expenses, including Severance, impairment and exit charges of $200 million, rose.",
        ] {
            let found = figures(text);
            assert!(
                stated_as_part(text, &found, &found[0], &weights, &naming, &opex),
                "{text}"
            );
        }
        let text = "Net sales, including the Acme acquisition, of $5.2 billion rose.";
        let found = figures(text);
        let sales = stems("net sales");
        let weights: Vec<(String, f32)> = sales.iter().map(|t| (t.clone(), 1.0)).collect();
        assert!(!stated_as_part(
            text, &found, &found[0], &weights, &naming, &sales
        ));
    }
}
