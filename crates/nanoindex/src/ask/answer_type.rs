//! What kind of value a question asks for (its answer type) and the parts a multi-part
//! question splits into; rules on the question's wording, no model.

use std::fmt;

/// The kind of value that answers a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerType {
    /// A calendar date (`March 1, 2021`, `01/03/2021`, `the 1st day of March, 2021`).
    Date,
    /// A length of time (`thirty (30) days`, `24 months`, `2-year`).
    Duration,
    /// A money amount (`$1,577 million`, `Rs. 5,000`), or a figure of a financial statement.
    Amount,
    /// A percentage (`22.4%`, `15 percent`), or a relative speed written as a multiple
    /// (`25x`, `2x-20x`).
    Percentage,
    /// A ratio computed from statement figures (current ratio, margins).
    Ratio,
    /// A count of things (`982 stores`, `seven justices`) or a vote (`7-2`).
    Count,
    /// A measured quantity with its unit and the bound it is stated with (`more than 200
    /// feet for more than 5 seconds`, `less than 7.5 dioptres`, `up to twenty (20) pages`).
    Measure,
    /// An organisation or party (`Reynolds Group Holdings Limited`).
    Party,
    /// A person (`Justice Sotomayor`, `Dr. Jane Roe`).
    Person,
    /// A jurisdiction or place (`Delaware`, `England and Wales`).
    Place,
    /// A statute, section or rule reference (`§ 14-306.4`, `Section 10.8`, `40 U.S.C. 102`).
    Reference,
    /// A definition (`"Affiliate" means …`).
    Definition,
    /// A statement metric compared across periods (direction and size of the change).
    Change,
    /// Named line items compared by size ("which of … brought in the most").
    Choice,
    /// A yes/no question.
    YesNo,
    /// Anything else: the answer is the sentence that states it.
    Text,
}

impl AnswerType {
    /// The type's name in traces and evaluations (`date`, `amount`, …).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerType::Date => "date",
            AnswerType::Duration => "duration",
            AnswerType::Amount => "amount",
            AnswerType::Percentage => "percentage",
            AnswerType::Ratio => "ratio",
            AnswerType::Count => "count",
            AnswerType::Measure => "measure",
            AnswerType::Party => "party",
            AnswerType::Person => "person",
            AnswerType::Place => "place",
            AnswerType::Reference => "reference",
            AnswerType::Definition => "definition",
            AnswerType::Change => "change",
            AnswerType::Choice => "choice",
            AnswerType::YesNo => "yes_no",
            AnswerType::Text => "text",
        }
    }

    /// Whether the answer is a value found as a span (not a whole sentence).
    #[must_use]
    pub fn is_span(self) -> bool {
        !matches!(
            self,
            AnswerType::Definition | AnswerType::YesNo | AnswerType::Text
        )
    }
}

impl fmt::Display for AnswerType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The question proper: the first sentence ending in `?` when the text goes on with
/// instructions (FinanceBench's "Answer in USD millions…"), else the whole text; trimmed,
/// without the `?`.
#[must_use]
pub fn question_proper(question: &str) -> &str {
    let q = question.trim();
    // An instruction before the question ("Assume that you are … : what is …?").
    let end = q.find('?').unwrap_or(q.len());
    let mut proper = &q[..end];
    for lead in [": ", "question: ", "Here's the question: "] {
        if let Some(i) = proper.rfind(lead) {
            let rest = &proper[i + lead.len()..];
            if starts_like_question(rest) {
                proper = rest;
            }
        }
    }
    proper.trim().trim_end_matches('?').trim()
}

/// The question after a leading clause that sets its conditions ("if the alternative
/// extension is granted, when would the brief be due?" → "when would the brief be due?",
/// "in fiscal 2023, what was …" → "what was …"); the question itself when it opens with a
/// question word or an auxiliary, or no later clause does.
pub(super) fn after_leading_clause(question: &str) -> &str {
    if starts_like_question(question) {
        return question;
    }
    question
        .match_indices(", ")
        .map(|(i, _)| &question[i + 2..])
        .find(|rest| starts_like_question(rest))
        .unwrap_or(question)
}

fn starts_like_question(text: &str) -> bool {
    let lower = text.trim_start().to_lowercase();
    QUESTION_WORDS
        .iter()
        .chain(AUXILIARIES)
        .any(|w| lower.starts_with(&format!("{w} ")))
}

const QUESTION_WORDS: &[&str] = &[
    "what", "which", "who", "whom", "whose", "when", "where", "how", "why", "list", "name",
];

const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "does", "do", "did", "has", "have", "had", "can", "could", "will",
    "would", "shall", "should", "may", "must",
];

/// Nouns of a measured quantity a "what NOUN" question asks for ("What altitude disagreement
/// …", "below what degree of refractive error …").
const MEASURES: &[&str] = &[
    "altitude",
    "height",
    "depth",
    "distance",
    "length",
    "width",
    "thickness",
    "diameter",
    "weight",
    "dose",
    "dosage",
    "speed",
    "velocity",
    "temperature",
    "pressure",
    "voltage",
    "degree",
    "threshold",
    "tolerance",
    "difference",
    "disagreement",
    "deviation",
];

/// Nouns of texts whose length is measured in pages or words ("How long may each side's
/// pre-hearing brief be?").
const LENGTHY: &[&str] = &[
    "brief",
    "briefs",
    "memorandum",
    "memoranda",
    "submission",
    "submissions",
    "statement",
    "abstract",
    "summary",
    "letter",
    "essay",
    "petition",
    "motion",
    "report",
];

/// Whether the lowercase question `q` asks for a measured quantity
/// ([`AnswerType::Measure`]): "what"/"which" with a measure noun within the next three words
/// (not beside words of money, which ask an amount: "what difference in revenue"), "how
/// far/high/fast/deep/wide/tall/heavy/thick", or how long a text may be ("How long may each
/// side's pre-hearing brief be?").
fn asks_measure(q: &str) -> bool {
    let words: Vec<&str> = q
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let money = [
        "revenue", "revenues", "income", "price", "cost", "costs", "sales", "fee",
    ]
    .iter()
    .any(|w| words.contains(w));
    // The measure noun is what the question opens its noun phrase with ("what altitude
    // disagreement", "below what degree"), not a noun after a verb ("what is the length
    // of the initial term", "what is the difference between basic and diluted EPS"); "to
    // what degree" asks how much, in words.
    let measure_noun = words.iter().enumerate().any(|(i, w)| {
        matches!(*w, "what" | "which")
            && !(i > 0 && words[i - 1] == "to")
            && words[i + 1..]
                .iter()
                .take(2)
                .take_while(|n| !AUXILIARIES.contains(*n))
                .any(|n| {
                    MEASURES.contains(n)
                        || n.strip_suffix('s').is_some_and(|n| MEASURES.contains(&n))
                })
    });
    // "How far in advance", "how far back" ask for a length of time.
    let how = words.windows(3).any(|p| {
        p[0] == "how"
            && [
                "far", "high", "fast", "deep", "wide", "tall", "heavy", "thick",
            ]
            .contains(&p[1])
            && !["in", "back", "ahead", "before"].contains(&p[2])
    });
    let text_length = q.starts_with("how long")
        && q.trim_end().ends_with(" be")
        && words.iter().any(|w| LENGTHY.contains(w));
    // "How high was the unemployment rate?" asks a rate.
    let rate = words
        .iter()
        .any(|w| matches!(*w, "rate" | "rates" | "percentage" | "percent"));
    ((measure_noun || how) && !money && !rate) || text_length
}

/// Whether `question` asks for the cause of something ("What drove …", "Why did …", "What
/// caused …"): its answer is the sentence that gives the cause.
#[must_use]
pub fn asks_cause(question: &str) -> bool {
    let q = question_proper(question).to_lowercase();
    q.starts_with("why ")
        || [
            "what drove",
            "what caused",
            "what factors",
            "what led",
            "what contributed",
            "what were the drivers",
            "what are the drivers",
            "reasons for",
            "reason for",
        ]
        .iter()
        .any(|w| q.contains(w))
}

/// What a court disposes of: the ruling nouns of a disposition question ("the Court of
/// Appeals decision") and of a disposition that names its object ("The judgment … is
/// affirmed", "we grant the motion").
pub const RULINGS: &[&str] = &[
    "judgment", "decision", "opinion", "order", "appeal", "petition", "motion", "ruling", "case",
];

/// Whether `question` asks how a court disposed of a decision, judgment, order, motion or
/// appeal ("What did the Supreme Court do with the Court of Appeals decision?", "What was
/// the outcome of the appeal?", "How did the court rule on the motion?"). Such a question
/// is answered by the court's disposition ("MODIFIED AND AFFIRMED.", "we affirm the
/// judgment"), not by the sentence that shares most of its words.
#[must_use]
pub fn asks_disposition(question: &str) -> bool {
    let q = question_proper(question).to_lowercase();
    let names_ruling = RULINGS.iter().any(|w| contains_phrase(&q, w));
    let asks = [
        "do with",
        "dispose of",
        "disposed of",
        "disposition",
        "outcome",
        "result of the appeal",
    ]
    .iter()
    .any(|w| q.contains(w))
        || (q.starts_with("how did") && q.contains(" rule"));
    names_ruling && asks
}

/// The answer type of `question` (see [`question_proper`]).
///
/// Rules, first match wins: change (a statement metric compared across periods: a change
/// word and two periods, a trend word, or one period and a direction); yes/no (starts with an auxiliary verb); duration ("how long",
/// "how many days", "term", "notice period"); percentage; ratio (a named ratio or margin);
/// count ("how many", a vote); date ("when", "date"); person ("who" with a role word);
/// party ("who", "parties", "which company"); place ("governing law", "which state");
/// reference ("which section", "statute"); definition ("defined", "mean"); amount ("how
/// much", fees, statement metrics); else text.
#[must_use]
pub fn classify(question: &str) -> AnswerType {
    let proper = question_proper(question);
    let years = nanoindex_retrieve::QueryAnalysis::new(proper).years;
    if super::compare::asked(proper, &years).is_some() {
        return AnswerType::Change;
    }
    if super::choice::asked(proper).is_some() {
        return AnswerType::Choice;
    }
    classify_wording(question)
}

/// The answer type by the question's wording alone, without the change reading (see
/// [`classify`]): what a comparison question falls back to when no metric is read.
#[must_use]
pub fn classify_wording(question: &str) -> AnswerType {
    let q = question_proper(question).to_lowercase();
    let q = after_leading_clause(&q);
    let first = q.split_whitespace().next().unwrap_or("");
    let has = |words: &[&str]| words.iter().any(|w| contains_phrase(q, w));
    if AUXILIARIES.contains(&first) {
        return AnswerType::YesNo;
    }
    // "How does the agreement define a Business Day?" asks for the definition (before "how
    // does", which asks for a description).
    if (q.starts_with("how does ") || q.starts_with("how do ")) && has(&["define"]) {
        return AnswerType::Definition;
    }
    // Questions that ask for reasons or descriptions want sentences, whatever they name.
    if first == "why"
        || has(&[
            "what drove",
            "what caused",
            "what factors",
            "what led",
            "how did",
            "how does",
            "explain",
            "describe",
            "what is the nature",
            "what was the key",
            "what is the purpose",
            "what are the risks",
            "what are the main",
            "what are major",
            "what are the major",
        ])
    {
        return AnswerType::Text;
    }
    // "Up to what age can children be covered?" asks for an age, a length of time ("25
    // years"), whatever else it names ("maximum", "limit").
    if has(&[
        "what age",
        "which age",
        "how old",
        "minimum age",
        "maximum age",
        "age limit",
    ]) {
        return AnswerType::Duration;
    }
    // "Which bank is the Cap Counterparty on the interest rate cap …?" asks for a party,
    // whatever figures it names after (its verb right after the kind: "Which company
    // segment had the highest margin?" asks for a segment).
    let mut rest = q.split_whitespace();
    let (second, third) = (
        rest.nth(1).unwrap_or(""),
        rest.next().unwrap_or("").to_lowercase(),
    );
    if first == "which"
        && ORGANISATIONS.contains(&second)
        && (AUXILIARIES.contains(&third.as_str())
            || PRESENT_VERBS.contains(&third.as_str())
            || third.ends_with("ed"))
    {
        return AnswerType::Party;
    }
    // "On which day of each month is the Payment Date?" asks for a day, not a payment.
    if has(&["which day", "what day"]) {
        return AnswerType::Date;
    }
    // The noun a "what"/"which" question opens its noun phrase with decides before words it
    // names later: "on which Payment Date does …" asks a date, "what portion of … deferred
    // revenue" a percentage, "which party bears the cost …" a party.
    // A unit the question asks the value in decides over the noun ("What voluntary
    // deductible …, expressed as a share of the Annual Sum Insured?").
    let in_unit = has(&[
        "as a share of",
        "as a percentage of",
        "as a percent of",
        "in percent",
        "as a %",
        "in dollars",
        "in usd",
        "ratio",
    ]) || nanoindex_core::metrics::FORMULAS
        .iter()
        .any(|f| has(f.names));
    if let Some(kind) = head_type(q, question).filter(|_| !in_unit) {
        return kind;
    }
    // "How long may each side's pre-hearing brief be?" asks for a length in pages, not in
    // time; "What altitude disagreement triggers the alert?", "below what degree of
    // refractive error …" ask for a measured quantity.
    if asks_measure(q) {
        return AnswerType::Measure;
    }
    // "How much (prior written) notice …" asks for a length of time.
    if (q.starts_with("how much") || q.starts_with("within")) && has(&["notice", "time", "advance"])
    {
        return AnswerType::Duration;
    }
    if has(&[
        "how long",
        "how many days",
        "how many months",
        "how many years",
        "how many weeks",
        "how many business days",
        "how many calendar days",
        "how much time",
        "notice period",
        "waiting period",
        "grace period",
        "cooling-off period",
        "cooling off period",
        "duration",
        "term of the agreement",
        "initial term",
        "renewal term",
        "follow-up period",
        "follow up period",
        "within how many",
        "within what period",
        "within what time",
        "within what timeframe",
        "within what time frame",
        "longest period",
        "shortest period",
        "maximum period",
        "minimum period",
        "what period of time",
        "how soon",
        "how quickly",
        "how promptly",
        "how recently",
        "how far in advance",
        "how far back",
        "how far ahead",
        "how long in advance",
        "running time",
        "run time",
        "execution time",
        "response time",
        "latency",
    ]) {
        return AnswerType::Duration;
    }
    // A named ratio or margin is computed from statement rows, even when the question asks
    // for it "as a %".
    if has(&["ratio"])
        || nanoindex_core::metrics::FORMULAS
            .iter()
            .any(|f| has(f.names))
    {
        return AnswerType::Ratio;
    }
    if has(&[
        "what percentage",
        "what percent",
        "which percentage",
        "percentage of",
        "what share",
        "as a share of",
        "proportion of",
        "growth rate",
        "interest rate",
        "tax rate",
        "fee rate",
        "royalty rate",
        "royalty percentage",
        "commission rate",
        "at what rate",
        "what rate",
        "margin over",
        "% margin",
        "in percent",
        "as a %",
        "as a percent",
        "units of percents",
        "percent",
        "co-payment",
        "copayment",
        "coupon",
        // "What Delinquency Trigger Percentage applies?": a percentage by its name.
        "percentage",
    ]) || asks_multiple(q)
        || asks_rate(q)
        // "what minimum share of the excess water …".
        || asks_within(q, &["what"], &["share", "percentage", "proportion", "fraction"], 2)
    {
        return AnswerType::Percentage;
    }
    // "What one-time fee is a Successor Servicer paid on the date of its appointment?" asks
    // for the fee the question opens with, whatever date it is paid on.
    if asks_within(q, &["which", "what"], MONEY_HEADS, 3) {
        return AnswerType::Amount;
    }
    // "When is briefing in the appeal, Case No. 20-55662, due to conclude?" asks for a date,
    // whatever identifier it names.
    if first == "when" {
        return AnswerType::Date;
    }
    // "What is the docket number of …" asks for an identifier, not a count; so does any
    // "… number" a word names ("the IRAS number of the study", "the fax number"), unlike
    // "the number of …" or "the total number".
    if has(&[
        "docket number",
        "docket no.",
        "case number",
        "case no.",
        "identifier",
    ]) || names_an_identifier(q)
    {
        return AnswerType::Reference;
    }
    if has(&["how many", "number of", "vote", "votes"]) {
        return AnswerType::Count;
    }
    if asks_year(q)
        || has(&[
            "what date",
            "which date",
            "until when",
            "by when",
            "effective date",
            "date of",
            "dated",
            "the date",
            "expiration date",
            "commencement date",
            "filed on",
            "decided on",
            // A span of months ("April 2023 – October 2024") is dated like a day.
            "over what period",
            "during what period",
            "for what period",
        ])
    {
        return AnswerType::Date;
    }
    if first == "who" || first == "whom" || first == "whose" {
        return if has(&PERSON_ROLES) {
            AnswerType::Person
        } else {
            AnswerType::Party
        };
    }
    // "Which justice wrote …", "Which district judge presided …" name one person (the
    // plural asks for a list, read as text).
    if asks_which_person(q) {
        return AnswerType::Person;
    }
    // "Which Boeing service bulletin …", "Which airworthiness directive would it supersede?",
    // "Which … software version must be installed?": a document or version by its number.
    if asks_which_of(q, WHICH_REFERENCE) || asks_within(q, &["which"], PROVISIONS, 3) {
        return AnswerType::Reference;
    }
    if has(&["which court", "what court"]) {
        return AnswerType::Party;
    }
    // "Which bank signed … as Indenture Trustee?": an organisation of the kind named.
    // "Which law firm is to receive a copy …": a modifier may stand before the noun.
    if ORGANISATIONS
        .iter()
        .any(|o| has(&[&format!("which {o}"), &format!("what {o}")]))
        || asks_within(q, &["which", "what"], ORGANISATIONS, 2)
    {
        return AnswerType::Party;
    }
    if has(&[
        "governing law",
        "governed by",
        "which state",
        "what state",
        "which country",
        "what country",
        "which jurisdiction",
        "what jurisdiction",
        "whose laws",
        "laws of which",
        "where is",
        "where was",
        "where are",
        "which law governs",
        "what law governs",
        "seat of arbitration",
        "venue",
    ]) {
        return AnswerType::Place;
    }
    if has(&[
        "which section",
        "what section",
        "which statute",
        "what statute",
        "which rule",
        "what rule",
        "which article",
        "what article",
        "which provision",
        "what provision",
        "under what",
        "under which",
        "cite",
        "docket",
        "case number",
    ]) {
        return AnswerType::Reference;
    }
    if has(&[
        "defined",
        "definition",
        "what does",
        "mean",
        "meaning",
        "what is meant",
    ]) {
        return AnswerType::Definition;
    }
    if has(&[
        "how much",
        "amount",
        "fee",
        "fees",
        "price",
        "cost",
        "costs",
        "payment",
        "payments",
        "charge",
        "charges",
        "impairment",
        "spending",
        "receivables",
        "payables",
        "goodwill",
        "revenue",
        "revenues",
        "proceeds",
        "income",
        "sales",
        "expense",
        "expenses",
        "capex",
        "expenditure",
        "expenditures",
        "cash",
        "assets",
        "liabilities",
        "liability",
        "debt",
        "ebitda",
        "profit",
        "loss",
        "in usd",
        "usd",
        "dollars",
        "sum insured",
        // "Above what value of a dispute …", "What is the maximum payable for …".
        "what value",
        "which value",
        "payable",
        "premium",
        // "What is the largest possible prize …?", "What is each wellness point worth?"
        "remaining availability",
        "prize",
        "prizes",
        "worth",
        "salary",
        "wages",
        // "How large a premium discount …", "What cumulative bonus …": an amount or a share.
        "discount",
        "rebate",
        "bonus",
        "deductible",
        "cap",
        "limit",
        "cogs",
        "inventories",
        "inventory",
        "ppne",
        "pp&e",
        "equity",
        "dividend",
        "dividends",
        "earnings per share",
        "eps",
    ]) {
        return AnswerType::Amount;
    }
    // "What is the name of the CytoDyn drug candidate …?" asks for the thing's name (read
    // beside its noun by `named`), not for a party the question names after it ("the
    // subject of the Vyera license", "each party").
    if names_a_thing(q) {
        return AnswerType::Text;
    }
    if has(&[
        "parties",
        "party",
        "which company",
        "what company",
        "which entity",
        "what entity",
        "name of the",
        "sponsor",
        "licensee",
        "licensor",
        "insurer",
        "which agency",
        "what agency",
        "which organisation",
        "which organization",
    ]) {
        return if has(&PERSON_ROLES) {
            AnswerType::Person
        } else {
            AnswerType::Party
        };
    }
    AnswerType::Text
}

/// Whether lowercase `q` asks for a rate that is a share ("What was the median day-case
/// rate …?", "the default rate"): it names a rate, not per a unit of time or a fee
/// ("What hourly labor rate …", "the daily rate", "rate per hour"), which is an amount.
fn asks_rate(q: &str) -> bool {
    let words = alphanumeric_words(q);
    // A production, flow or exchange rate is no share, and "what production rate changes"
    // asks for the changes.
    let asks = words.iter().take(3).any(|w| matches!(*w, "what" | "which"));
    let rate = asks
        && words.iter().enumerate().any(|(i, w)| {
            matches!(*w, "rate" | "rates")
                && !(i > 0
                    && [
                        "production",
                        "run",
                        "exchange",
                        "flow",
                        "frame",
                        "heart",
                        "burn",
                        "data",
                        "bit",
                        "sampling",
                        "refresh",
                        "pulse",
                        "respiratory",
                        "build",
                    ]
                    .contains(&words[i - 1]))
                && !words
                    .get(i + 1)
                    .is_some_and(|n| matches!(*n, "change" | "changes"))
        });
    let per_unit = words.iter().any(|w| {
        matches!(
            *w,
            "hourly"
                | "daily"
                | "weekly"
                | "monthly"
                | "yearly"
                | "per"
                | "fee"
                | "fees"
                | "exchange"
        )
    });
    rate && !per_unit
}

/// Nouns of money a "what"/"which" question may ask for by name ([`asks_which_within`]).
const MONEY_HEADS: &[&str] = &[
    "fee",
    "fees",
    "price",
    "cost",
    "costs",
    "amount",
    "payment",
    "premium",
    "fine",
    "salary",
    "compensation",
    "deductible",
];

/// The words that end a question's noun phrase ([`asked_noun_phrase`]): determiners,
/// prepositions and relative words (auxiliaries end it too).
const PHRASE_ENDS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "its", "their", "his", "her", "each",
    "every", "any", "all", "no", "some", "of", "for", "in", "on", "at", "to", "from", "by", "with",
    "under", "between", "after", "before", "per", "as", "above", "below", "over", "into", "within",
    "during", "than", "about", "against", "among", "upon", "which", "who", "whom", "whose", "when",
    "where", "if",
];

/// The noun phrase a lowercase "what"/"which" question `q` asks for: the words after its
/// first "what"/"which" (after "is the"/"was the" …) up to an auxiliary, a determiner, a
/// preposition or a relative word, at most six, after any possessor ("the company's"),
/// hyphenated words whole ("on which payment
/// date does …" gives `["payment", "date"]`, "what interest accrues on …" `["interest",
/// "accrues"]`, "what is the maximum entry age for …" `["maximum", "entry", "age"]`). `None`
/// for "to what extent", a defined term after the copula (capitalised in `original`, the
/// question as asked) and questions with no such word.
fn asked_noun_phrase<'q>(q: &'q str, original: &str) -> Option<Vec<&'q str>> {
    // "If no Amortization Event occurs first, on which Payment Date …": the question proper
    // follows its condition.
    let q = match q.strip_prefix("if ") {
        Some(rest) => rest.split_once(", ").map_or(q, |(_, asked)| asked),
        None => q,
    };
    let words: Vec<&str> = q
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .map(|w| w.trim_matches('-'))
        .filter(|w| !w.is_empty())
        .collect();
    // The question's own "what"/"which", among its first words ("on which Payment Date
    // …"), not a relative "on which" later ("How many days after the date on which …").
    let i = words
        .iter()
        .take(3)
        .position(|w| matches!(*w, "what" | "which"))?;
    if i > 0 && words[i - 1] == "to" {
        return None;
    }
    // "What is the maximum entry age …": the phrase after the copula's determiner, unless
    // it is a capitalised defined term ("What is the Initial Cutoff Date?" asks for its
    // definition), capitalised in `original`.
    let mut start = i + 1;
    if words
        .get(start)
        .is_some_and(|w| matches!(*w, "is" | "are" | "was" | "were"))
    {
        start += 1;
        if words
            .get(start)
            .is_some_and(|w| matches!(*w, "the" | "a" | "an"))
        {
            // "the Company's obligations" names a possessor, no defined term.
            let possessor = words.get(start + 2) == Some(&"s");
            let defined_term = !possessor
                && words.get(start + 1).is_some_and(|next| {
                    original
                        .split(|c: char| !c.is_alphanumeric() && c != '-')
                        .any(|o| o.eq_ignore_ascii_case(next) && o.starts_with(char::is_uppercase))
                });
            if defined_term {
                return None;
            }
            start += 1;
        }
    }
    let mut phrase: Vec<&str> = words[start.min(words.len())..]
        .iter()
        .take_while(|w| !AUXILIARIES.contains(*w) && !PHRASE_ENDS.contains(*w))
        .take(6)
        .copied()
        .collect();
    // A possessor is no part of what is asked: "the company's manufacturing purchase
    // obligations" asks for obligations.
    if let Some(s) = phrase.iter().rposition(|w| *w == "s") {
        phrase.drain(..=s);
    }
    (!phrase.is_empty()).then_some(phrase)
}

/// The head noun of the noun phrase a "what"/"which" question asks for (its last word,
/// lowercase; see the phrase's rules at the private `asked_noun_phrase`): "obligations" for
/// "What were Apple's manufacturing purchase obligations as of July 1, 2023?", "term" for
/// "What was the weighted average remaining term of the leases?". `None` when the question
/// asks no such phrase.
#[must_use]
pub fn asked_head(question: &str) -> Option<String> {
    let proper = question_proper(question);
    let q = proper.to_lowercase();
    let q = after_leading_clause(&q);
    asked_noun_phrase(q, proper)?
        .last()
        .map(|w| (*w).to_string())
}

/// Head nouns and the answer type a question asking for one wants ([`head_type`]).
const HEAD_TYPES: &[(&[&str], AnswerType)] = &[
    (
        &["date", "day", "deadline", "anniversary"],
        AnswerType::Date,
    ),
    (
        &["life", "lifetime", "lifespan", "age", "tenure"],
        AnswerType::Duration,
    ),
    (
        &[
            "portion",
            "share",
            "co-payment",
            "copayment",
            "percentage",
            "percent",
            "proportion",
            "fraction",
            "yield",
            "coupon",
        ],
        AnswerType::Percentage,
    ),
    (
        &[
            "fee",
            "price",
            "cost",
            "payment",
            "premium",
            "fine",
            "salary",
            "compensation",
            "deductible",
            "amount",
            "expense",
            "revenue",
            "income",
        ],
        AnswerType::Amount,
    ),
    (
        &[
            "regulation",
            "subsection",
            "section",
            "paragraph",
            "clause",
            "article",
            "rule",
            "statute",
            "provision",
            "case",
            "precedent",
            "bulletin",
            "directive",
        ],
        AnswerType::Reference,
    ),
    (
        &[
            "party",
            "company",
            "corporation",
            "bank",
            "firm",
            "provider",
            "customer",
            "insurer",
            "counterparty",
            "trustee",
            "lender",
            "licensee",
            "licensor",
            "agency",
        ],
        AnswerType::Party,
    ),
    (
        &[
            "rating",
            "category",
            "condition",
            "test",
            "doctrine",
            "canon",
            "standard",
        ],
        AnswerType::Text,
    ),
];

/// The answer type the head noun of the question's noun phrase ([`asked_noun_phrase`])
/// asks for: its last word found in [`HEAD_TYPES`] (plurals read as their singular), so
/// "which payment date" is a date, "what hourly fees" an amount, "what ratings" free text.
/// `None` when no word of the phrase is listed.
fn head_type(q: &str, original: &str) -> Option<AnswerType> {
    let phrase = asked_noun_phrase(q, original)?;
    // Rates and ratios have their own rules ("what fee rate", "what interest coverage
    // ratio").
    if phrase
        .iter()
        .any(|w| matches!(*w, "rate" | "rates" | "ratio" | "ratios"))
    {
        return None;
    }
    let kind = phrase.iter().rev().find_map(|w| {
        // "shares" of stock are no share of something.
        let singular = w
            .strip_suffix('s')
            .filter(|s| s.len() > 2 && *w != "shares");
        HEAD_TYPES.iter().find_map(|(nouns, kind)| {
            (nouns.contains(w) || singular.is_some_and(|s| nouns.contains(&s))).then_some(*kind)
        })
    })?;
    // After the copula a provision's noun names a figure ("What was the provision for
    // credit losses?"); a reference is asked for with "which"/"what" right before it.
    let copula = alphanumeric_words(q)
        .windows(2)
        .any(|w| matches!(w[0], "what" | "which") && matches!(w[1], "is" | "are" | "was" | "were"));
    (!(copula && kind == AnswerType::Reference)).then_some(kind)
}

/// Nouns of organisations and parties "the name of the …" may ask for.
const PARTY_NOUNS: &[&str] = &[
    "company",
    "companies",
    "corporation",
    "entity",
    "party",
    "parties",
    "sponsor",
    "licensee",
    "licensor",
    "agency",
    "organisation",
    "organization",
    "court",
    "partnership",
    "manufacturer",
    "supplier",
    "vendor",
    "distributor",
    "contractor",
    "operator",
    "servicer",
    "administrator",
    "agent",
    "buyer",
    "seller",
    "purchaser",
    "borrower",
    "employer",
    "plaintiff",
    "defendant",
    "auditor",
    "landlord",
    "tenant",
    "guarantor",
    "lessor",
    "lessee",
    "firm",
];

/// Nouns of people "the name of the …" may ask for ("the PPIE representative").
const PEOPLE_NOUNS: &[&str] = &[
    "representative",
    "member",
    "nurse",
    "doctor",
    "physician",
    "manager",
    "coordinator",
    "researcher",
    "employee",
    "partner",
    "owner",
    "founder",
    "patient",
];

/// Whether lowercase `q` asks "the name of the" thing that is no party or person ("the
/// name of the CytoDyn drug candidate"): none of the three words after "name of the" is a
/// party's noun, an organisation's or a person's role.
fn names_a_thing(q: &str) -> bool {
    let Some(i) = q.find("name of the ") else {
        return false;
    };
    let mut words = alphanumeric_words(&q[i + "name of the ".len()..]);
    words.truncate(5);
    !words.is_empty()
        && !words.iter().any(|w| {
            PARTY_NOUNS.contains(w)
                || PEOPLE_NOUNS.contains(w)
                || ORGANISATIONS.contains(w)
                || PERSON_ROLES.contains(w)
                || WHICH_PERSON.contains(w)
        })
}

/// Whether `question` asks for a year ("In what year …", "Which year …"; not "What year-end
/// balance …").
#[must_use]
pub fn asks_year(question: &str) -> bool {
    let q = question.to_lowercase();
    // "Which of NVIDIA's fiscal years were under examination …", "what fiscal years".
    let words = alphanumeric_words(&q);
    // The years are the head: only "of", a determiner, a possessive or "fiscal" stand
    // between ("what was revenue in fiscal year 2023" asks a figure).
    let years_head = words.iter().enumerate().any(|(i, w)| {
        let between = words[i + 1..]
            .iter()
            .take_while(|n| !matches!(**n, "year" | "years"));
        let head = between.enumerate().all(|(k, n)| {
            matches!(
                *n,
                "of" | "the" | "its" | "their" | "fiscal" | "calendar" | "s"
            ) || words.get(i + 2 + k) == Some(&"s")
        });
        head && matches!(*w, "which" | "what")
            && words[i + 1..]
                .iter()
                .take(5)
                .any(|n| matches!(*n, "years" | "year"))
            && words[i + 1..]
                .iter()
                .take(5)
                .any(|n| *n == "fiscal" || *n == "calendar")
    });
    years_head
        || ["what year", "which year"].iter().any(|w| {
            q.match_indices(w).any(|(i, _)| {
                let after = &q[i + w.len()..];
                (i == 0 || !q[..i].ends_with(char::is_alphanumeric))
                    && !after.starts_with(|c: char| c.is_alphanumeric() || c == '-')
            })
        })
}

/// Whether lowercase `q` asks for an identifier by a "number" that names its kind ("what is
/// the iras number", "to what fax number", "the rec reference number"): the word before
/// "number" is one of [`IDENTIFIER_KINDS`] (registers' acronyms among them: "iras", "rin");
/// "the number of …", "the total number", "the required number of directors" ask a
/// quantity.
fn names_an_identifier(q: &str) -> bool {
    let words = alphanumeric_words(q);
    words
        .windows(2)
        .any(|pair| pair[1] == "number" && IDENTIFIER_KINDS.contains(&pair[0]))
}

/// Words that name the kind of an identifier before "number" ([`names_an_identifier`]).
const IDENTIFIER_KINDS: &[&str] = &[
    "fax",
    "phone",
    "telephone",
    "reference",
    "registration",
    "account",
    "serial",
    "file",
    "case",
    "docket",
    "policy",
    "license",
    "licence",
    "permit",
    "patent",
    "identification",
    "contract",
    "invoice",
    "order",
    "certificate",
    "model",
    "part",
    "product",
    "protocol",
    "trial",
    "iras",
    "rec",
    "rin",
    "cin",
    "uin",
    "ein",
    "tin",
    "pan",
    "cusip",
    "isin",
    "nct",
    "commission",
    "sec",
    "approval",
    "project",
    "study",
    "version",
];

const PERSON_ROLES: [&str; 27] = [
    "contact",
    "justice",
    "judge",
    "opinion",
    "delivered",
    "wrote",
    "author",
    "authored",
    "investigator",
    "officer",
    "ceo",
    "cfo",
    "signed",
    "signatory",
    "attorney",
    "counsel",
    "president",
    "director",
    "chief",
    "chair",
    "chairman",
    "secretary",
    "person",
    "solicitor",
    "lawyer",
    "prosecutor",
    "advocate",
];

/// Kinds of organisation a "which" question may ask for ("Which bank …").
const ORGANISATIONS: &[&str] = &[
    "bank",
    "firm",
    "trustee",
    "lender",
    "insurer",
    "issuer",
    "subsidiary",
    "counterparty",
];

/// People a "which …" question may name by their office ("Which district judge …").
const WHICH_PERSON: &[&str] = &[
    "official",
    "governor",
    "justice",
    "judge",
    "attorney",
    "counsel",
    "officer",
    "investigator",
    "director",
];

/// Whether lowercase `q` asks "which" of one person by office: one of [`WHICH_PERSON`]
/// among the three words after "which" ("which justice", "which district judge", "which
/// government counsel"; also "what judge"), in the singular. "What is the attorney's fee
/// cap?" asks for an amount.
fn asks_which_person(q: &str) -> bool {
    let words = alphanumeric_words(q);
    words.iter().enumerate().any(|(i, w)| {
        (*w == "which" || (*w == "what" && words.get(i + 1) == Some(&"judge")))
            && words[i + 1..]
                .iter()
                .filter(|next| **next != "of")
                .take(3)
                .any(|next| WHICH_PERSON.contains(next))
    })
}

/// Documents and versions a "which …" question may name by their number
/// ([`asks_which_of`]).
const WHICH_REFERENCE: &[&str] = &["directive", "bulletin", "version", "release"];

/// Provisions a "which" question may ask for by the noun right after a few modifiers
/// ("Which Ninth Circuit rule obliges each party …?": a rule, not the party it names).
const PROVISIONS: &[&str] = &[
    "rule",
    "rules",
    "section",
    "subsection",
    "statute",
    "regulation",
    "article",
    "provision",
    "paragraph",
    "clause",
];

/// The words of `text`: its runs of letters and digits ("nvidia's" is "nvidia", "s").
fn alphanumeric_words(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether lowercase `q` asks for one of `nouns` within the `reach` words after one of
/// `openers` ("which ninth circuit rule", "what one-time fee").
fn asks_within(q: &str, openers: &[&str], nouns: &[&str], reach: usize) -> bool {
    let words = alphanumeric_words(q);
    words.iter().enumerate().any(|(i, w)| {
        openers.contains(w)
            && words[i + 1..]
                .iter()
                .take(reach)
                .any(|next| nouns.contains(next))
    })
}

/// Whether lowercase `q` asks "which" of one of `nouns`, among the six words after "which"
/// ("which boeing service bulletin", "which flight control computer ops software version").
fn asks_which_of(q: &str, nouns: &[&str]) -> bool {
    asks_within(q, &["which"], nouns, 6)
}

/// Verbs in the present tense that end a question's noun phrase: the counted noun after
/// "how many" ("How many members make up the committee?", "How many people work at …?")
/// and the noun a "which" question asks for ("Which law firm represents …").
pub(super) const PRESENT_VERBS: &[&str] = &[
    "make",
    "makes",
    "work",
    "works",
    "serve",
    "serves",
    "sit",
    "sits",
    "comprise",
    "comprises",
    "constitute",
    "constitutes",
    "form",
    "forms",
    "hold",
    "holds",
    "own",
    "owns",
    "attend",
    "attends",
    "remain",
    "remains",
    "exist",
    "exists",
    "participate",
    "participates",
    "live",
    "lives",
    "receive",
    "receives",
    "take",
    "takes",
    "need",
    "needs",
    "require",
    "requires",
    "belong",
    "belongs",
    "appear",
    "appears",
    "occur",
    "occurs",
    "die",
    "survive",
    "survives",
    "represents",
    "represent",
    "provides",
    "provide",
    "governs",
    "govern",
    "acts",
    "act",
    "signs",
    "sign",
    "manages",
    "manage",
    "includes",
    "include",
    "covers",
    "cover",
    "applies",
    "apply",
    "pays",
    "pay",
    "issues",
    "administers",
    "operates",
    "operate",
    "controls",
    "control",
    "performs",
    "perform",
    "handles",
    "handle",
    "gives",
    "give",
    "uses",
    "use",
    "offers",
    "offer",
    "employs",
    "employ",
    "maintains",
    "maintain",
    "supplies",
    "supply",
    "sells",
    "sell",
    "buys",
    "buy",
    "hears",
    "hear",
    "decides",
    "decide",
    "regulates",
    "regulate",
    "transcribes",
    "transcribe",
    "conducts",
    "conduct",
];

/// Phrases that ask for a relative speed or size, written as a multiple ("a 2x-20x
/// speedup", "up to 25x").
const MULTIPLE_PHRASES: &[&str] = &[
    "speedup",
    "speedups",
    "speed-up",
    "times faster",
    "times as fast",
    "times higher",
    "times larger",
];

/// Whether the question asks for a multiple ([`MULTIPLE_PHRASES`], as whole words): a
/// percentage question's answer may then be written "25x".
pub(super) fn asks_multiple(question: &str) -> bool {
    let q = question.to_lowercase();
    MULTIPLE_PHRASES.iter().any(|p| contains_phrase(&q, p))
}

/// Whether `phrase` occurs in `text` at word boundaries.
fn contains_phrase(text: &str, phrase: &str) -> bool {
    let mut from = 0;
    while let Some(i) = text[from..].find(phrase) {
        let start = from + i;
        let end = start + phrase.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
        if boundary(before) && (boundary(after) || phrase.ends_with(' ')) {
            return true;
        }
        from = start + phrase.len().max(1);
    }
    false
}

/// Prepositions that may open a part before its question word ("in what capacity").
const PART_PREPOSITIONS: &[&str] = &[
    "in", "at", "on", "for", "by", "to", "from", "under", "with", "within",
];

/// Auxiliaries that open a yes/no part after ", and".
const PART_AUXILIARIES: &[&str] = &[
    "had", "has", "have", "is", "was", "were", "are", "did", "does", "do", "can", "will",
];

/// The parts of a multi-part question: "Who are the parties and when was it signed?"
/// gives "Who are the parties" and "when was it signed". A question with one part gives
/// itself. Splits at ", and" / " and" / "; " followed by a question word (or a preposition
/// and a question word: "and in what capacity"), and at ", and" followed by an auxiliary
/// ("…, and had any been issued?").
#[must_use]
pub fn parts(question: &str) -> Vec<String> {
    let proper = question_proper(question);
    // ASCII lowercase keeps byte offsets (the joints searched for are ASCII).
    let lower = proper.to_ascii_lowercase();
    let mut cuts = Vec::new();
    let mut cut_at = |joint: &str, opening: &str| {
        let needle = format!("{joint}{opening} ");
        let mut from = 0;
        while let Some(i) = lower[from..].find(&needle) {
            cuts.push((from + i, joint.len()));
            from += i + needle.len();
        }
    };
    for word in QUESTION_WORDS {
        for joint in [" and ", ", and ", "; "] {
            cut_at(joint, word);
            // "…, and in what capacity?", "… and to whom is it paid?"
            for preposition in PART_PREPOSITIONS {
                cut_at(joint, &format!("{preposition} {word}"));
            }
        }
    }
    // "How large is the program, and had any paper been issued?": after a comma, an
    // auxiliary opens a yes/no part.
    for auxiliary in PART_AUXILIARIES {
        cut_at(", and ", auxiliary);
    }
    cuts.sort_unstable();
    cuts.dedup_by_key(|c| c.0);
    if cuts.is_empty() {
        return vec![proper.to_string()];
    }
    let mut out = Vec::new();
    let mut start = 0;
    for (at, len) in cuts {
        if at > start {
            out.push(proper[start..at].trim().to_string());
        }
        start = at + len;
    }
    out.push(proper[start..].trim().to_string());
    out.retain(|p| p.split_whitespace().count() >= 2);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disposition_questions_ask_what_a_court_did_with_a_ruling() {
        for q in [
            "What did the Supreme Court of North Carolina do with the Court of Appeals decision?",
            "What was the outcome of the appeal?",
            "How did the court rule on the motion to dismiss?",
            "What was the disposition of the case by the court?",
        ] {
            assert!(asks_disposition(q), "{q}");
        }
        for q in [
            "What did the company do with the proceeds?",
            "How did the court define a game of chance?",
            "What was the outcome of the court's review of the company?",
            "Which court's judgment did the Supreme Court affirm?",
        ] {
            assert!(!asks_disposition(q), "{q}");
        }
    }

    #[test]
    fn a_provision_asked_with_what_is_no_reference() {
        assert_ne!(
            classify("What was the provision for credit losses?"),
            AnswerType::Reference
        );
        assert_ne!(
            classify("What does the rule require of operators?"),
            AnswerType::Reference
        );
    }

    #[test]
    fn the_noun_a_question_opens_with_decides_its_type() {
        for (question, expected) in [
            // Words of money named later do not make these amounts.
            (
                "If no Amortization Event occurs first, on which Payment Date does the Amortization Period start?",
                AnswerType::Date,
            ),
            (
                "What portion of Apple's total deferred revenue does the company expect to realize within the next year?",
                AnswerType::Percentage,
            ),
            (
                "What base co-payment applies to claims?",
                AnswerType::Percentage,
            ),
            (
                "Which party bears the cost of obtaining third-party consents?",
                AnswerType::Party,
            ),
            (
                "Which cloud service provider accounted for about 22% of revenue?",
                AnswerType::Party,
            ),
            (
                "Which FAA wire-separation regulation did the wiring fail to satisfy?",
                AnswerType::Reference,
            ),
            (
                "What estimated useful life did NVIDIA adopt for its servers?",
                AnswerType::Duration,
            ),
            ("What ratings must the debt hold?", AnswerType::Text),
            (
                "What is the current deadline for the appellees' answering brief?",
                AnswerType::Date,
            ),
            // A noun after a verb is not the one asked for.
            (
                "Which Ninth Circuit rule obliges each party to flag related cases?",
                AnswerType::Reference,
            ),
            ("What hourly fees does RGHI charge?", AnswerType::Amount),
            // A unit the question asks the value in decides over the noun.
            (
                "What voluntary deductible can be chosen, expressed as a share of the Annual Sum Insured?",
                AnswerType::Percentage,
            ),
            (
                "How far back before the policy's effective date does it look?",
                AnswerType::Duration,
            ),
        ] {
            assert_eq!(classify_wording(question), expected, "{question}");
        }
        // A capitalised defined term after the copula is read from its definition, not as
        // the kind of value its last word names.
        assert_ne!(
            classify_wording("What is the Initial Cutoff Date under the agreement?"),
            AnswerType::Date
        );
    }

    #[test]
    fn questions_get_their_answer_types() {
        for (question, expected) in [
            (
                "What is the effective date of the Agreement?",
                AnswerType::Date,
            ),
            ("When was the opinion filed?", AnswerType::Date),
            (
                "Which district judge presided over the case?",
                AnswerType::Person,
            ),
            ("What is the attorney's fee cap?", AnswerType::Amount),
            (
                "Who is the FAA contact for further information?",
                AnswerType::Person,
            ),
            (
                "What is the average running time of a benchmark program?",
                AnswerType::Duration,
            ),
            (
                "If the alternative extension is granted, when would the brief be due?",
                AnswerType::Date,
            ),
            (
                "In fiscal 2023, how many stores did it operate?",
                AnswerType::Count,
            ),
            ("How long is the initial term?", AnswerType::Duration),
            (
                "What altitude disagreement between the two sides triggers the ALT DISAGREE alert?",
                AnswerType::Measure,
            ),
            (
                "Below what degree of refractive error is treatment to correct eyesight excluded?",
                AnswerType::Measure,
            ),
            (
                "How long may each side's pre-hearing brief be?",
                AnswerType::Measure,
            ),
            ("How high may the drone fly?", AnswerType::Measure),
            (
                "After the hospital asks, within what time must the TPA grant authorization?",
                AnswerType::Duration,
            ),
            (
                "What was the longest period over which the company hedged cash flows?",
                AnswerType::Duration,
            ),
            (
                "What was the median day-case rate for bladder outflow obstruction surgery?",
                AnswerType::Percentage,
            ),
            (
                "What hourly labor rate does the FAA use in its cost estimates?",
                AnswerType::Amount,
            ),
            (
                "What production rate changes is Boeing forecasting for FY2023?",
                AnswerType::Text,
            ),
            (
                "What is the name of the CytoDyn drug candidate that is the subject of the license?",
                AnswerType::Text,
            ),
            (
                "What is the name of the company that manages the trust?",
                AnswerType::Party,
            ),
            (
                "What is the name of the PPIE representative on the study team?",
                AnswerType::Party,
            ),
            (
                "Which Ninth Circuit rule obliges each party to flag related cases?",
                AnswerType::Reference,
            ),
            (
                "Which Court of Appeals judge wrote the majority opinion below?",
                AnswerType::Person,
            ),
            (
                "What one-time fee is a successor paid on the date of its appointment?",
                AnswerType::Amount,
            ),
            (
                "Which of NVIDIA's fiscal years were under examination by the tax authority?",
                AnswerType::Date,
            ),
            (
                "Which law firm is to receive a copy of notices sent to the licensee?",
                AnswerType::Party,
            ),
            (
                "Who appeared as Solicitor General on behalf of the State?",
                AnswerType::Person,
            ),
            ("What was revenue in fiscal year 2023?", AnswerType::Amount),
            (
                "What is the length of the initial term?",
                AnswerType::Duration,
            ),
            ("When is the rate adjusted?", AnswerType::Date),
            (
                "What is the name of the independent registered public accounting firm?",
                AnswerType::Party,
            ),
            (
                "Using the report, what minimum share of the excess water could Texas reach?",
                AnswerType::Percentage,
            ),
            (
                "How far in advance must the insurer be notified?",
                AnswerType::Duration,
            ),
            (
                "What difference in revenue did the segment report?",
                AnswerType::Amount,
            ),
            (
                "Within how many days must notice be given?",
                AnswerType::Duration,
            ),
            (
                "How much prior written notice must the Company give?",
                AnswerType::Duration,
            ),
            (
                "What is the waiting period for pre-existing diseases?",
                AnswerType::Duration,
            ),
            (
                "What percentage of revenue came from Data Center?",
                AnswerType::Percentage,
            ),
            ("What is the FY2018 current ratio?", AnswerType::Ratio),
            // Every formula the reader computes is a ratio question, by any of its names.
            (
                "What was Boeing's debt-to-equity in FY2022?",
                AnswerType::Ratio,
            ),
            (
                "What is 3M's net income margin for FY2018?",
                AnswerType::Ratio,
            ),
            ("How many stores did Best Buy operate?", AnswerType::Count),
            ("What was the vote of the Court?", AnswerType::Count),
            (
                "What is the Servicing Fee Rate in the agreement?",
                AnswerType::Percentage,
            ),
            (
                "At what rate is interest paid on delayed claims?",
                AnswerType::Percentage,
            ),
            (
                "Which justice wrote the opinion of the Court?",
                AnswerType::Person,
            ),
            (
                "Who delivered the opinion of the Court?",
                AnswerType::Person,
            ),
            ("Who are the parties to the agreement?", AnswerType::Party),
            (
                "Which state's law governs the agreement?",
                AnswerType::Place,
            ),
            ("What is the governing law?", AnswerType::Place),
            (
                "Which statute did the plaintiffs challenge?",
                AnswerType::Reference,
            ),
            ("How is \"Affiliate\" defined?", AnswerType::Definition),
            (
                "How does the agreement define a Business Day?",
                AnswerType::Definition,
            ),
            (
                "What is the docket number of the proposed rule?",
                AnswerType::Reference,
            ),
            ("What is the FY2016 COGS for Microsoft?", AnswerType::Amount),
            ("What is the license fee payable?", AnswerType::Amount),
            ("In what year did Tarrant file suit?", AnswerType::Date),
            (
                "Which bank signed the agreement as Indenture Trustee?",
                AnswerType::Party,
            ),
            (
                "Which Boeing service bulletin identifies the airplanes?",
                AnswerType::Reference,
            ),
            (
                "Which flight control computer OPS software version must be installed?",
                AnswerType::Reference,
            ),
            (
                "How soon after the end of each quarter must the royalty report be sent?",
                AnswerType::Duration,
            ),
            (
                "How far in advance must the insurer be notified of a planned hospitalisation?",
                AnswerType::Duration,
            ),
            (
                "Within what period after the Commencement Date must consents be obtained?",
                AnswerType::Duration,
            ),
            (
                "What minimum age must participants be?",
                AnswerType::Duration,
            ),
            (
                "What is the limit on ICU expenses as a share of the sum insured?",
                AnswerType::Percentage,
            ),
            (
                "What is the IRAS number of the study?",
                AnswerType::Reference,
            ),
            (
                "To what fax number can comments be sent?",
                AnswerType::Reference,
            ),
            (
                "What is the product identifier of the proposed directive?",
                AnswerType::Reference,
            ),
            (
                "What is the total number of shares outstanding?",
                AnswerType::Count,
            ),
            (
                "What is the required number of directors?",
                AnswerType::Count,
            ),
            (
                "What was the closing price of a share of common stock?",
                AnswerType::Amount,
            ),
            (
                "What year-end cash balance did the company report?",
                AnswerType::Amount,
            ),
            (
                "What is the maximum payable for road ambulance per claim?",
                AnswerType::Amount,
            ),
            (
                "Above what value of a dispute may a party ask for three arbitrators?",
                AnswerType::Amount,
            ),
            (
                "Up to what age can dependent children be covered?",
                AnswerType::Duration,
            ),
            (
                "On which day of each month is the Payment Date?",
                AnswerType::Date,
            ),
            (
                "What were restructuring charges in 2022?",
                AnswerType::Amount,
            ),
            ("Is the agreement assignable?", AnswerType::YesNo),
            (
                "What is the largest possible prize in the game?",
                AnswerType::Amount,
            ),
            ("What is each reward point worth?", AnswerType::Amount),
            (
                "How recently must a patient have had surgery to take part?",
                AnswerType::Duration,
            ),
            (
                "What speedup does the engine achieve on loops?",
                AnswerType::Percentage,
            ),
            (
                "What was the remaining availability under the authorization?",
                AnswerType::Amount,
            ),
            (
                "Until when must the Seller keep the books?",
                AnswerType::Date,
            ),
            (
                "By when must the Buyer stop using the names?",
                AnswerType::Date,
            ),
            ("What drove the increase in inventories?", AnswerType::Text),
            (
                "Which bank is the Cap Counterparty on the interest rate cap for the Class A-1b Notes?",
                AnswerType::Party,
            ),
            (
                "Which FAA official issued the proposed directive?",
                AnswerType::Person,
            ),
            (
                "How large a premium discount does the policy give for vaccination?",
                AnswerType::Amount,
            ),
            (
                "When is briefing in the appeal, Case No. 20-55662, due to conclude?",
                AnswerType::Date,
            ),
            (
                "What product warranty liability had the company estimated?",
                AnswerType::Amount,
            ),
            (
                "During the Amortization Period, what Delinquency Trigger Percentage applies?",
                AnswerType::Percentage,
            ),
        ] {
            assert_eq!(classify(question), expected, "{question}");
        }
    }

    #[test]
    fn instructions_around_the_question_are_dropped() {
        assert_eq!(
            question_proper("What is the FY2018 capex? Answer in USD millions."),
            "What is the FY2018 capex"
        );
        assert_eq!(
            question_proper("Assume you are an analyst. Using the balance sheet: what is the net PPNE? Answer in billions."),
            "what is the net PPNE"
        );
        assert_eq!(
            classify("Assume you are an analyst: what is the year end FY2018 net PPNE? Answer in USD billions."),
            AnswerType::Amount
        );
    }

    #[test]
    fn multi_part_questions_split_at_question_words() {
        assert_eq!(
            parts("Who are the parties and when was the agreement signed?"),
            ["Who are the parties", "when was the agreement signed"]
        );
        assert_eq!(
            parts("What are the terms and conditions?"),
            ["What are the terms and conditions"]
        );
        assert_eq!(
            parts("Who signed the agreement for the buyer, and in what capacity?"),
            ["Who signed the agreement for the buyer", "in what capacity"]
        );
        assert_eq!(
            parts("How large is the paper program, and had any paper been issued by June?"),
            [
                "How large is the paper program",
                "had any paper been issued by June"
            ]
        );
        // Without a comma an auxiliary continues the same part.
        assert_eq!(
            parts("How many shares were sold and were outstanding?"),
            ["How many shares were sold and were outstanding"]
        );
    }
}
