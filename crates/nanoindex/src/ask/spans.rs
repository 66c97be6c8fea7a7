//! Candidate answer spans of one answer type in a sentence: dates, durations, amounts,
//! percentages, counts, parties, people, places and references, found by patterns (the
//! regex crate); byte ranges into the sentence.

use std::ops::Range;
use std::sync::LazyLock;

use nanoindex_retrieve::analysis::is_year_word;
use regex::Regex;

use super::answer_type::AnswerType;

const MONTH: &str = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?|JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER)";

const NUMBER_WORD: &str = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|eighteen|twenty|twenty-one|twenty-four|thirty|forty|forty-five|fifty|sixty|seventy-five|ninety|hundred|one hundred(?: and)? (?:eighty|twenty)|thirty-six|forty-eight)";

fn compile(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("span pattern {pattern}: {e}"))
}

static DATE: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    vec![
        // the 1st day of March, 2021
        compile(&format!(
            r"(?i)\b\d{{1,2}}(?:st|nd|rd|th)?\s+day\s+of\s+{MONTH}\.?,?\s+\d{{4}}\b"
        )),
        // March 1, 2021 / Mar. 1 2021
        compile(&format!(
            r"\b{MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"
        )),
        // 1 March 2021 / 1st of March, 2021
        compile(&format!(
            r"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\.?,?\s+\d{{4}}\b"
        )),
        // 2021-03-01, 03/01/2021, 01.03.2021
        compile(r"\b\d{4}-\d{2}-\d{2}\b"),
        compile(r"\b\d{1,2}[/.]\d{1,2}[/.](?:\d{4}|\d{2})\b"),
        // A span of months: "April 2023 – October 2024", "May 2024 to October 2024",
        // "between December 2023 and May 2024"
        compile(&format!(
            r"\b{MONTH}\.?,?\s+\d{{4}}\s*(?:[-–—]|to)\s*{MONTH}\.?,?\s+\d{{4}}\b"
        )),
        compile(&format!(
            r"\bbetween\s+{MONTH}\.?,?\s+\d{{4}}\s+and\s+{MONTH}\.?,?\s+\d{{4}}\b"
        )),
        // March 2021
        compile(&format!(r"\b{MONTH}\.?,?\s+\d{{4}}\b")),
        // A day named by its place in a month: "the last Saturday of September"
        compile(&format!(
            r"(?i)\b(?:the\s+)?(?:first|second|third|fourth|last)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|business\s+day|day)\s+(?:of|in)\s+(?:(?:each|every|the)\s+(?:calendar\s+)?(?:month|quarter)|{MONTH})\b"
        )),
        // A day fixed by a defined period's end: "the last day of the Royalty Term"
        compile(
            r"\b(?:the\s+)?(?:last|first|final)\s+day\s+of\s+(?:the\s+)?[A-Z][A-Za-z-]+(?:\s+(?:of\s+)?[A-Z][A-Za-z-]+){0,3}",
        ),
        // A day fixed by an anniversary of a defined date: "the 6th anniversary of the
        // Commencement Date", "the third anniversary of the Closing"
        compile(
            r"(?i:\b(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|twelfth|fifteenth|twentieth)\s+anniversary\s+of\s+(?:the\s+)?)[A-Z][A-Za-z-]+(?:\s+(?:of\s+)?[A-Z][A-Za-z-]+){0,3}",
        ),
        // A day that recurs: "on or about the 15th day of each month"
        compile(
            r"(?i)\b(?:on\s+or\s+(?:about|before)\s+)?the\s+\d{1,2}(?:st|nd|rd|th)\s+(?:calendar\s+|business\s+)?day\s+of\s+(?:each|every)\s+(?:calendar\s+)?month\b",
        ),
    ]
});

static DURATION: LazyLock<Regex> = LazyLock::new(|| {
    compile(&format!(
        r"(?i)\b(?:between\s+(?:\d+(?:\.\d+)?|{NUMBER_WORD})\s+and\s+|\d+(?:\.\d+)?\s*(?:[-–]|\s+to\s+)\s*)?(?:\d+(?:\.\d+)?|{NUMBER_WORD})(?:\s*\(\d+\))?(?:(?:[\s-]+(?:full\s+|business\s+|calendar\s+|working\s+|consecutive\s+|continuous\s+|clear\s+)?|(?-i:\B))(?:minute|day|week|month|year|hour|millisecond|microsecond)s?(?:\b|\d{{1,2}}\b)|[\s-]+seconds\b|\s?(?:ms|msec|secs)\b)"
    ))
});

/// An age bound (group 1) after "aged": "aged >18", "aged ≥ 65", "aged over 18", "aged at
/// least 18" (a length of life in years, its unit unwritten).
static AGE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\baged\s+((?:[<>≥≤]=?\s*|over\s+|under\s+|above\s+|below\s+|at\s+least\s+)\d{1,3})(?:\s|$|[.,;)])",
    )
});

/// The end of `range` of `sentence` without a footnote mark glued to its unit ("61 days1",
/// "acre feet6" end before the digit); `range.end` when it ends in no unit word.
fn without_footnote_mark(sentence: &str, range: Range<usize>) -> usize {
    let kept = sentence[range.clone()].trim_end_matches(|c: char| c.is_ascii_digit());
    if kept.ends_with(char::is_alphabetic) {
        range.start + kept.len()
    } else {
        range.end
    }
}

/// The age bounds of `sentence` ([`AGE`]): each bound's byte range ("`>18`" of "aged >18")
/// and whether it is a minimum (">", "≥", "over", "above", "at least") rather than a maximum.
/// "Receivables aged over 90 days" states a length with its unit, no age bound.
pub(super) fn age_bounds(sentence: &str) -> impl Iterator<Item = (Range<usize>, bool)> + '_ {
    AGE.captures_iter(sentence).filter_map(move |c| {
        let bound = c.get(1)?;
        if DURATION.is_match(&sentence[bound.start()..]) {
            return None;
        }
        let minimum = !bound.as_str().starts_with(['<', '≤'])
            && !["under", "below"]
                .iter()
                .any(|w| bound.as_str().to_lowercase().starts_with(w));
        Some((bound.range(), minimum))
    })
}

/// Capitalised words that open a sentence or a clause, never a label's name
/// ([`find`]'s references).
const LEADING_WORDS: &[&str] = &[
    "Since", "The", "In", "On", "Under", "After", "Before", "When", "As", "If", "By", "For",
    "From", "With", "See", "Per", "This", "That", "Each", "Any", "All", "Until", "Unless",
];

/// A quantity with its unit of measure ("310,000 acre feet", "3,000 cubic feet per second",
/// "500 barrels"), for "How much surface water …?", a footnote mark glued to the unit
/// ("feet6") matched and trimmed where it is used.
static QUANTITY: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b\d[\d,]*(?:\.\d+)?\s*(?:million\s+|billion\s+|thousand\s+)?(?:acre[\s-]?feet|acre[\s-]?foot|acres|cubic\s+(?:feet|foot|meters|metres)(?:\s+per\s+second)?|square\s+(?:feet|foot|meters|metres|miles|kilometers|kilometres)|gallons|barrels|tons|tonnes|megawatts|MW|GWh|MWh|kWh|liters|litres)(?:\b|\d{1,2}\b)",
    )
});

/// A measured quantity with its unit and the bound it is stated with ("more than 200 feet
/// for more than 5 seconds", "less than 7.5 dioptres", "up to twenty (20) pages", "More
/// than 10 degrees difference for more than 10 seconds"); a letter right after the unit is
/// checked where it is used ("5 min" is no "5 m").
static MEASURE: LazyLock<Regex> = LazyLock::new(|| {
    compile(&format!(
        r"(?i)(?:\b(?:(?:more|less|greater|fewer|higher|lower)\s+than|at\s+(?:least|most)|up\s+to|in\s+excess\s+of|exceeding|over|under|below|above)\s+)?\b(?:\d[\d,]*(?:\.\d+)?|{NUMBER_WORD}(?:\s*\(\d[\d,]*\))?)\s*-?\s*(?:feet|foot|ft|inch(?:es)?|nautical\s+miles?|miles?|kilomet(?:er|re)s?|km|centimet(?:er|re)s?|cm|millimet(?:er|re)s?|mmHg|mm|met(?:er|re)s?|knots?|kts|degrees?|°[CF]?|dioptres?|diopters?|pages?|words?|characters?|kilograms?|kg|milligrams?|mg|micrograms?|mcg|µg|grams?|millilit(?:er|re)s?|ml|lit(?:er|re)s?|lbs?|psi|volts?|watts?|kW|MW|GHz|MHz|kHz|Hz|kilobytes?|megabytes?|gigabytes?|terabytes?|bytes?|[KMGT]B|cycles?|instructions?)(?:\s+(?:difference\s+)?for\s+(?:(?:more|less)\s+than\s+)?\d+\s+(?:seconds?|minutes?))?"
    ))
});

/// Comparatives after "N times" that make it a multiple ("25 times faster").
const COMPARATIVES: &[&str] = &[
    "faster", "slower", "more", "less", "fewer", "larger", "smaller", "higher", "lower", "greater",
    "longer", "shorter", "bigger", "better", "worse", "cheaper",
];

/// A multiple ("25x", "3.0x", "2x-20x", "2x to 20x", "10-fold"): a relative speed or size.
static MULTIPLE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b\d+(?:\.\d+)?(?:x|[\s-]fold)(?:\s*(?:[-–]|to)\s*\d+(?:\.\d+)?(?:x|[\s-]fold))?\b",
    )
});

/// A percentage, with the bound it is stated with ("at least 29 percent", "up to 50%"; not
/// "more than", which a negation often turns: "no state is entitled to more than 25
/// percent") and
/// the rate it is counted from when the text names one ("2% above the bank rate", "3% over
/// the prime rate") and the period it is for ("1% per month"); a contract's words with their figure are kept whole ("sixty (60)
/// percent", "twenty-five percent (25%)", "two percent (2%) over the then prime rate").
static PERCENT: LazyLock<Regex> = LazyLock::new(|| {
    compile(&format!(
        r"(?i)(?:\b(?:at\s+least|at\s+most|up\s+to)\s+)?(?:\b(?:[a-z]+-)?{NUMBER_WORD}\s+(?:percent|per cent)\s*\(\d[\d,]*(?:\.\d+)?\s*%\)|\b(?:[a-z]+-)?{NUMBER_WORD}\s*\(\d[\d,]*(?:\.\d+)?\)\s*(?:%|percent\b|per cent\b)|[-+(]?\d[\d,]*(?:\.\d+)?\)?\s*(?:%|percent\b|per cent\b))(?:\s+(?:per|a|each)\s+(?:annum|year|month|week|day|quarter)\b)?(?:\s+(?:above|over|below)\s+(?:the\s+)?(?:[a-z]+\s+){{0,2}}rate\b)?",
    ))
});

static AMOUNT: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    let scale = r"(?:\s*(?:million|billion|thousand|trillion|crores?|lakhs?|mn|bn)\b)?";
    vec![
        compile(&format!(
            r"(?:US\$|USD|U\.S\.\s?\$|\$|Rs\.?|INR|₹|€|EUR|£|GBP)\s?\(?\d[\d,]*(?:\.\d+)?\)?{scale}"
        )),
        // The rupee sign of Indian documents set in a font that draws "₹" for the grave
        // accent (the Rupee Foradian convention): "` 10,00,000", "`10,000".
        compile(&format!(r"`\s?\d[\d,]*(?:\.\d+)?{scale}")),
        compile(
            r"(?i)\b\d[\d,]*(?:\.\d+)?\s*(?:million|billion|thousand)?\s*(?:dollars|rupees|euros|pounds)\b",
        ),
    ]
});

static COUNT: LazyLock<Regex> = LazyLock::new(|| {
    compile(&format!(
        r"(?i)\b(?:\d[\d,]*(?:\.\d+)?\s+(?:million|billion|thousand)\b|\d[\d,]*|{NUMBER_WORD})\b(?:\s*\(\d[\d,]*\))?"
    ))
});

static VOTE: LazyLock<Regex> =
    LazyLock::new(|| compile(r"\b\d{1,2}\s*[-–—]\s*\d{1,2}\b|(?i)\bunanimous(?:ly)?\b"));

static ORGANISATION: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\b(?:[A-Z][A-Za-z0-9&.'’-]*,?\s+(?:(?:of|and|the|de|&)\s+)?){0,6}(?:Inc\b\.?|Incorporated\b|Corporation\b|Corp\b\.?|Company\b|Co\.|LLC\b|L\.L\.C\.|Ltd\b\.?|Limited\b|L\.P\.|LP\b|LLP\b|PLC\b|plc\b|N\.A\.|Trust\b|Bank\b|GmbH\b|S\.A\.|AG\b|Holdings\b|Pharmaceuticals\b|Foundation\b|Authority\b|Agency\b|Administration\b|Commission\b|Department\b|District\b|Court\b|University\b|Hospital\b|INC\b\.?|CORPORATION\b|CORP\b\.?|COMPANY\b|LIMITED\b|LTD\b\.?|TRUST\b)(?:,?\s+National\s+Association\b)?(?:\s*\([^)]{2,40}\))?",
    )
});

/// A federal court of appeals: "the United States Court of Appeals for the Tenth Circuit",
/// "Ninth Circuit".
static CIRCUIT_COURT: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\b(?:United\s+States\s+)?Court\s+of\s+Appeals\s+for\s+the\s+(?:[A-Z][a-z.]+\s+){1,2}Circuit\b|\b(?:First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|D\.C\.|Federal)\s+Circuit\b",
    )
});

/// An opinion's byline: the author's name in capitals, then the office ("HUDSON, Justice.",
/// "NEWBY, Chief Justice.", "SOTOMAYOR, J.").
pub const BYLINE: &str = r"[A-Z][A-Z'’-]+,\s+(?:Chief\s+)?(?:Justice|Judge|J\.)";

/// Whether `line` is part of a signature block: a `By:` line, an `/s/` conformed signature,
/// or "IN WITNESS WHEREOF".
#[must_use]
pub fn is_signature_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("By:")
        || t.contains(" By:")
        || t.contains("/s/")
        || t.to_uppercase().contains("IN WITNESS WHEREOF")
}

static PERSON: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    vec![
        compile(
            r"\b(?:Chief\s+Justice|Justice|Judge|Hon\.|Honorable|Dr\.?|Mr\.?|Ms\.?|Mrs\.?|Prof\.?|Professor)\s+[A-Z][A-Za-z.'’-]+(?:\s+(?:[A-Z]\.|[A-Z][a-z][A-Za-z.'’-]*|[A-Z]['’][A-Z][a-z]+)){0,2}",
        ),
        compile(r"\b(?:CHIEF\s+JUSTICE|JUSTICE|JUDGE)\s+[A-Z][A-Z'’-]+"),
        // An opinion's byline: "HUDSON, Justice." / "NEWBY, Chief Justice."
        compile(&format!(r"\b{BYLINE}")),
        compile(
            r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)?,\s*(?:M\.D\.|Ph\.D\.|MD|PhD|Esq\.|Chief|Principal|President|Director|Secretary|Treasurer|Judge|Circuit|Manager|Counsel|Attorney|Solicitor|Assistant|Administrator|Partner|Officer|Deputy|Head)",
        ),
        compile(r"(?:Name|By|Signed):\s*/?s?/?\s*([A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+)"),
        // A paper's author list: names with affiliation marks ("Andreas Gal∗+, Brendan Eich∗").
        compile(r"\b([A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)?)[∗*†‡#$+]+"),
    ]
});

/// A name set off by commas after the role it holds ("counsel for the government, Sergio
/// Sarkany, informed …"); group 1 is the name.
static APPOSITIVE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\b(?:counsel|attorney|contact|officer|manager|director|investigator|spokesperson)\b[^,.;:]{0,40},\s+([A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)?),",
    )
});

const PLACES: &[&str] = &[
    "Alabama",
    "Alaska",
    "Arizona",
    "Arkansas",
    "California",
    "Colorado",
    "Connecticut",
    "Delaware",
    "Florida",
    "Georgia",
    "Hawaii",
    "Idaho",
    "Illinois",
    "Indiana",
    "Iowa",
    "Kansas",
    "Kentucky",
    "Louisiana",
    "Maine",
    "Maryland",
    "Massachusetts",
    "Michigan",
    "Minnesota",
    "Mississippi",
    "Missouri",
    "Montana",
    "Nebraska",
    "Nevada",
    "New Hampshire",
    "New Jersey",
    "New Mexico",
    "New York",
    "North Carolina",
    "North Dakota",
    "Ohio",
    "Oklahoma",
    "Oregon",
    "Pennsylvania",
    "Rhode Island",
    "South Carolina",
    "South Dakota",
    "Tennessee",
    "Texas",
    "Utah",
    "Vermont",
    "Virginia",
    "Washington",
    "West Virginia",
    "Wisconsin",
    "Wyoming",
    "District of Columbia",
    "England and Wales",
    "England",
    "Scotland",
    "Ireland",
    "India",
    "Canada",
    "Ontario",
    "Singapore",
    "Hong Kong",
    "Switzerland",
    "Germany",
    "France",
    "the Netherlands",
    "Luxembourg",
    "Cayman Islands",
    "Bermuda",
    "Australia",
    "New Zealand",
    "Japan",
    "China",
    "United Kingdom",
    "United States",
];

static REFERENCE: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    vec![
        compile(r"\b\d+\s+U\.\s?S\.\s?C\.\s*(?:§+\s*)?\d+[\w.\-–]*(?:\([a-zA-Z0-9]+\))*"),
        compile(r"\b\d+\s+C\.?\s?F\.?\s?R\.?\s*(?:§+|[Pp]art)?\s*\d+(?:\.\d+)*"),
        compile(r"\b\d+\s+FR\s+\d+\b"),
        compile(r"(?:N\.C\.G\.S\.|G\.S\.)\s*§*\s*\d+[\w.\-–]*"),
        compile(r"§+\s*\d+[\w.\-–]*(?:\([a-zA-Z0-9]+\))*"),
        // "Section 10.8", "Circuit Rule 28-2.6", "Rule 12(b)(6)".
        compile(
            r"\b(?:(?:Circuit|Local|Federal)\s+)?(?:Section|Sections|Sec\.|Article|Rule|Clause|Paragraph|Item)\s+\d+[\w.]*(?:[-–]\d+[\w.]*)*(?:\([a-zA-Z0-9]+\))*",
        ),
        // A named instrument: "the Upper Niobrara River Compact", "the Clean Water Act of
        // 1972" (a bare "This Compact" is dropped where it is used).
        compile(
            r"\b(?:[A-Z][A-Za-z’'-]+\s+){1,6}(?:Compact|Act|Treaty|Convention)\b(?:\s+of\s+\d{4})?",
        ),
        compile(
            r"\bAD\s+\d{4}-\d{2}-\d{2}\b|\bDocket\s+No\.\s*(?:\w+[\-–])*(?:\s\d+\b|\w+)|\bNo\.\s*\d{2}[-–]\d+\b",
        ),
        // A court's case number: "No. 3:20-cv-02731-VC", "case number 21-15604".
        compile(
            r"\bNo\.\s*\d{1,2}:\d{2}[-–](?i:cv|cr|mc|md|ap|bk)[-–]\d+(?:[-–][A-Z]{1,4})?\b|\b(?i:case\s+number)\s*\d{2}[-–]\d{4,}\b",
        ),
        // A code set after its label: "RIN 2120–AA64", "Product Identifier 2019–NM–035–AD",
        // "IRAS no – 327246": dashed parts with a letter or three parts or more ("AD
        // 2018–23–51"; not a ZIP code "DC 20590–0001" or a year "FY 2023–24"), or five digits
        // or more after a label of three letters or more that is no currency ("USD 150000").
        compile(
            r"\b(?:[A-Z][a-z]+\s+)?(?:[A-Z]{2,6}|Identifier|Number|ID|Bulletin|Directive)(?:\s+(?i:no\.?|number))?\s*[:–-]?\s+(?:[A-Z0-9]*\d[A-Z0-9]*(?:[–-][A-Z0-9]+)*[–-][A-Z0-9]*[A-Z][A-Z0-9]*(?:[–-][A-Z0-9]+)*|\d+[–-]\s?\d+(?:[–-]\s?\d+)+)\b",
        ),
        compile(
            r"\b(?:[A-Z][a-z]+\s+)?(?:[A-Z]{3,6}|Identifier|Number|ID)(?:\s+(?i:no\.?|number))?\s*[:–-]?\s+\d{5,}\b",
        ),
        // A software version: "software version P12.1.2", "Version 3.0.1".
        compile(r"\b[Vv]ersion\s+[A-Z]?\d+(?:\.\d+)+[a-z]?\b"),
        // A telephone or fax number after its label: "Fax: 202–493–2251".
        compile(
            r"\b(?:Fax|Phone|Telephone|Tel\.?)\s*:?\s*(?:\+?1[\s–-])?\(?\d{3}\)?[\s–-]*\d{3}[–-]\d{4}\b",
        ),
    ]
});

/// Where a duration match that opens with a range of digits ("3-6 months", "2 to 4 weeks")
/// is no range: bytes of `matched` (found at `at` in `sentence`) to skip, up to its second
/// number, when the first number is larger than the second or follows a comma or a word
/// that numbers a provision ("Section 10 to 90 days", "June 1, 2024 - 30 days"); else 0.
fn range_not_stated(sentence: &str, at: usize, matched: &str) -> usize {
    // The numbers before the unit ("2.5 to 3" of "2.5 to 3 years"; not the footnote mark of
    // "61 days1").
    let unit_at = matched
        .split_whitespace()
        .find(|w| w.starts_with(char::is_alphabetic) && *w != "to")
        .and_then(|w| matched.find(w))
        .unwrap_or(matched.len());
    let numbers: Vec<(usize, f64)> = matched[..unit_at]
        .match_indices(|c: char| c.is_ascii_digit() || c == '.')
        .fold(Vec::<(usize, String)>::new(), |mut runs, (i, c)| {
            match runs.last_mut() {
                Some((start, run)) if *start + run.len() == i => run.push_str(c),
                _ => runs.push((i, c.to_string())),
            }
            runs
        })
        .into_iter()
        .filter_map(|(i, run)| run.trim_end_matches('.').parse().ok().map(|v| (i, v)))
        .collect();
    let [(_, first), (second_at, second), ..] = numbers[..] else {
        return 0;
    };
    if !matched.starts_with(|c: char| c.is_ascii_digit()) {
        return 0;
    }
    let before = sentence[..at].trim_end();
    let provision = before
        .rsplit(|c: char| c.is_whitespace())
        .next()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .is_some_and(|w| {
            [
                "section",
                "sections",
                "article",
                "clause",
                "paragraph",
                "item",
                "rule",
            ]
            .contains(&w.as_str())
        });
    if first > second || provision || before.ends_with([',', '§']) {
        second_at
    } else {
        0
    }
}

/// Byte ranges of the spans of `kind` in `sentence`, in order, without overlaps (the
/// earliest and then longest wins). `count_noun` (a stem, `store` for "how many stores")
/// restricts counts to numbers followed within three words by it. Definitions, yes/no and
/// text have no spans.
#[must_use]
pub fn find(kind: AnswerType, sentence: &str, count_noun: Option<&str>) -> Vec<Range<usize>> {
    let mut found: Vec<Range<usize>> = Vec::new();
    let mut add = |re: &Regex| {
        for m in re.find_iter(sentence) {
            found.push(m.range());
        }
    };
    match kind {
        AnswerType::Date => DATE.iter().for_each(&mut add),
        AnswerType::Duration => {
            // A footnote mark glued to the unit ("61 days1 after") is not part of it.
            for m in DURATION.find_iter(sentence) {
                // "Section 10 to 90 days", "June 1, 2024 - 30 days": no range, the length is
                // the last number's.
                let start = m.start() + range_not_stated(sentence, m.start(), m.as_str());
                let end = without_footnote_mark(sentence, start..m.end());
                // "3 months to 25 years": a range whose ends each have their unit is one
                // span (an age band, "from 30 days to 60 days").
                // "extended from 30 days to 60 days" is a change, not a band.
                match found.last_mut() {
                    Some(last)
                        if matches!(sentence[last.end..start].trim(), "to" | "-" | "–" | "—")
                            && !sentence[..last.start]
                                .trim_end()
                                .to_lowercase()
                                .ends_with("from") =>
                    {
                        last.end = end;
                    }
                    _ => found.push(start..end),
                }
            }
            // An age bound without its unit: "Adults aged >18", "aged over 65".
            found.extend(age_bounds(sentence).map(|(bound, _)| bound));
        }
        AnswerType::Percentage => {
            add(&PERCENT);
            add(&MULTIPLE);
        }
        AnswerType::Amount => {
            AMOUNT.iter().for_each(&mut add);
            // A footnote mark glued to a unit of measure ("acre feet6") is not part of it.
            for m in QUANTITY.find_iter(sentence) {
                found.push(m.start()..without_footnote_mark(sentence, m.range()));
            }
        }
        AnswerType::Party => {
            add(&ORGANISATION);
            add(&CIRCUIT_COURT);
            // "Who carried out the review?" may be answered by a person with a title ("Dr
            // Bethany Treadgold").
            add(&PERSON[0]);
        }
        AnswerType::Person => {
            PERSON.iter().for_each(&mut add);
            // A name set off after its role: "counsel for the government, Sergio Sarkany,".
            for c in APPOSITIVE.captures_iter(sentence) {
                if let Some(name) = c.get(1) {
                    found.push(name.range());
                }
            }
        }
        AnswerType::Reference => {
            for m in REFERENCE.iter().flat_map(|re| re.find_iter(sentence)) {
                // A currency code before a figure is an amount, not a label ("USD 150000").
                if ["USD", "EUR", "GBP", "INR", "JPY", "CNY"]
                    .iter()
                    .any(|c| m.as_str().starts_with(c))
                {
                    continue;
                }
                // A label's first word is a name ("Service Bulletin"), not the word that opens
                // the sentence ("Since AD 2018–23–51 was issued").
                let first = m.as_str().split(' ').next().unwrap_or("");
                let skip = if m.as_str().contains(' ') && LEADING_WORDS.contains(&first) {
                    first.len() + 1
                } else {
                    0
                };
                // An instrument needs a name: "This Compact" is none.
                let named = &m.as_str()[skip..];
                if !named.contains(' ')
                    && ["Compact", "Act", "Treaty", "Convention"].contains(&named)
                {
                    continue;
                }
                found.push(m.start() + skip..m.end());
            }
        }
        AnswerType::Place => {
            // As written, and in capitals ("THE LAWS OF THE STATE OF NEW YORK").
            let upper: Vec<String> = PLACES.iter().map(|p| p.to_uppercase()).collect();
            for place in PLACES
                .iter()
                .copied()
                .chain(upper.iter().map(String::as_str))
            {
                let mut from = 0;
                while let Some(i) = sentence[from..].find(place) {
                    let start = from + i;
                    let end = start + place.len();
                    let boundary = sentence[end..]
                        .chars()
                        .next()
                        .is_none_or(|c| !c.is_alphanumeric());
                    if boundary {
                        found.push(with_city(sentence, start)..end);
                    }
                    from = end;
                }
            }
        }
        AnswerType::Measure => {
            for m in MEASURE
                .find_iter(sentence)
                .chain(QUANTITY.find_iter(sentence))
            {
                // "5 min" is no "5 m"; a footnote mark glued to the unit is not part of it.
                let glued = sentence[m.end()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphabetic);
                if !glued {
                    found.push(m.start()..without_footnote_mark(sentence, m.range()));
                }
            }
        }
        AnswerType::Count if count_noun == Some("vote") => add(&VOTE),
        AnswerType::Count => {
            for m in COUNT.find_iter(sentence) {
                // A number inside a reference or a figure ("§ 14-306.4", "v2.4") counts nothing.
                let inside = sentence[..m.start()]
                    .chars()
                    .next_back()
                    .is_some_and(|c| ".-–/§".contains(c) || c.is_alphanumeric());
                // A percentage ("49% of total memberships") counts nothing, nor does a
                // footnote or list mark ("(1) A membership is …").
                let after = sentence[m.end()..].trim_start();
                let percent = after.starts_with('%')
                    || after
                        .get(..7)
                        .is_some_and(|w| w.eq_ignore_ascii_case("percent"));
                let mark = sentence[..m.start()].ends_with('(') && after.starts_with(')');
                // A paragraph or section number ("¶ 6 Gift Surplus's kiosks") or a model
                // number in a product's name ("GeForce RTX 4060 GPUs") counts nothing.
                let word_before = sentence[..m.start()].split_whitespace().next_back();
                let reference = word_before.is_some_and(|w| {
                    [
                        "¶",
                        "§",
                        "§§",
                        "no.",
                        "nos.",
                        "para.",
                        "paragraph",
                        "section",
                        "sections",
                        "article",
                        "clause",
                        "schedule",
                        "exhibit",
                        "annex",
                        "appendix",
                        "rule",
                        "chapter",
                        "part",
                        "item",
                        "note",
                    ]
                    .contains(&w.to_lowercase().as_str())
                        || (w.chars().count() >= 2 && w.chars().all(|c| c.is_ascii_uppercase()))
                });
                // "25 times faster" is a multiple, no count of times ("we break even after
                // running a trace 270 times").
                let multiple = {
                    let mut next = after.split_whitespace();
                    next.next().is_some_and(|w| w.eq_ignore_ascii_case("times"))
                        && next.next().is_some_and(|w| {
                            COMPARATIVES.contains(&w.trim_matches(|c: char| !c.is_alphabetic()))
                        })
                };
                if inside || percent || mark || reference || multiple {
                    continue;
                }
                let noun_follows = count_noun.is_none_or(|noun| counts_noun(sentence, &m, noun));
                if noun_follows && !is_year_word(m.as_str()) {
                    // "6+" (six or more) keeps its plus.
                    let end = m.end() + usize::from(sentence[m.end()..].starts_with('+'));
                    found.push(m.start()..with_counted_noun(sentence, end, count_noun));
                }
            }
        }
        AnswerType::Ratio
        | AnswerType::Change
        | AnswerType::Choice
        | AnswerType::Definition
        | AnswerType::YesNo
        | AnswerType::Text => {}
    }
    found.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    let mut out: Vec<Range<usize>> = Vec::new();
    for r in found {
        if out.last().is_none_or(|last| r.start >= last.end) {
            out.push(r);
        }
    }
    // "(50%)": the opening parenthesis is the text's, not a negative figure's "(2.5)%".
    if kind == AnswerType::Percentage {
        for r in &mut out {
            let text = &sentence[r.clone()];
            if text.starts_with('(') && !text.contains(')') {
                r.start += 1;
            }
        }
    }
    // A person pattern with a label ("Name: Jane Roe") or a title after the name ("Jane
    // Roe, M.D.") keeps only the name.
    if kind == AnswerType::Person {
        for r in &mut out {
            // Affiliation marks of an author list ("Andreas Gal∗+") are not the name.
            let name = sentence[r.clone()].trim_end_matches(['∗', '*', '†', '‡', '#', '$', '+']);
            r.end = r.start + name.len();
            if let Some(comma) = sentence[r.clone()].find(',') {
                r.end = r.start + comma;
            }
            let text = &sentence[r.clone()];
            if let Some(colon) = text.find(':') {
                let name_start = text[colon + 1..]
                    .find(|c: char| c.is_ascii_uppercase())
                    .map(|i| colon + 1 + i);
                if let Some(s) = name_start {
                    r.start += s;
                }
            }
        }
    }
    out
}

/// Where a place's span starts when a city names it first ("Dublin, Ireland", "Basking
/// Ridge, New Jersey"): the one to three capitalised words before ", " and the place.
fn with_city(sentence: &str, place_start: usize) -> usize {
    static CITY: LazyLock<Regex> =
        LazyLock::new(|| compile(r"(?:^|[\s(])((?:[A-Z][a-z]+\s+){0,2}[A-Z][a-z]+),\s*$"));
    CITY.captures(&sentence[..place_start])
        .and_then(|c| c.get(1))
        .filter(|city| !["The", "State", "Commonwealth", "Laws", "Law"].contains(&city.as_str()))
        .map_or(place_start, |city| city.start())
}

/// Words after a count that may stand between it and its noun ("26 short-running (less
/// than 250ms) JavaScript programs").
const COUNT_REACH: usize = 8;

/// The end of a count's span with the counted noun when the noun follows the number right
/// away ("79 work-hours", "15 participants"), so that the count is stated with what it
/// counts; `end` itself otherwise.
fn with_counted_noun(sentence: &str, end: usize, noun: Option<&str>) -> usize {
    let Some(noun) = noun else {
        return end;
    };
    let rest = &sentence[end..];
    let gap = rest.len() - rest.trim_start().len();
    if gap == 0 {
        return end;
    }
    let word = rest[gap..].split_whitespace().next().unwrap_or("");
    let bare = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    // The noun itself or a compound that ends in it ("work-hours" for "hour").
    let counts = counts_as(bare, noun)
        || bare
            .rsplit(['-', '–'])
            .next()
            .is_some_and(|last| last != bare && counts_as(last, noun));
    if counts && !bare.is_empty() {
        end + gap + bare.len()
    } else {
        end
    }
}

/// Whether `word` (as written) names what `noun` (a lowercase stem) counts: it begins
/// with it, or, for people, names people by what befell them ("157 fatalities" for "How
/// many people died", "deaths", "passengers").
pub(super) fn counts_as(word: &str, noun: &str) -> bool {
    const PEOPLE: &[&str] = &[
        "fatalit",
        "death",
        "passenger",
        "individual",
        "person",
        "people",
    ];
    let word = word
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    word.starts_with(noun)
        || ((noun.starts_with("peopl") || noun.starts_with("person"))
            && PEOPLE.iter().any(|k| word.starts_with(k)))
}

/// Whether the count `m` counts `noun` (a stem): the noun follows within [`COUNT_REACH`]
/// words with no other number between ("3-5 transcripts of 15 interviews" counts interviews
/// with 15, not 3), or it stands just before the number, as in a form's field ("Number of
/// participants 15").
fn counts_noun(sentence: &str, m: &regex::Match<'_>, noun: &str) -> bool {
    let is_noun = |w: &str| counts_as(w, noun);
    let is_number = |w: &str| {
        w.chars().any(|c| c.is_ascii_digit())
            && w.chars()
                .all(|c| c.is_ascii_digit() || ",.()-–—:;".contains(c))
    };
    let after: Vec<&str> = sentence[m.end()..].split_whitespace().collect();
    for (i, w) in after.iter().take(COUNT_REACH).enumerate() {
        if is_noun(w) {
            // A noun that labels the next number ("6+ Number of participants 15") is that
            // number's.
            return !after.get(i + 1).is_some_and(|n| is_number(n));
        }
        if is_number(w) {
            break;
        }
    }
    // Before the number only as a field label: "Number of participants 15", "Number of
    // Study Sites 6+", "Sites: 6".
    let before: Vec<&str> = sentence[..m.start()]
        .split_whitespace()
        .rev()
        .take(4)
        .collect();
    let number_of = |of: &str, number: &str| {
        of.eq_ignore_ascii_case("of") && number.eq_ignore_ascii_case("number")
    };
    let labelled = match before.as_slice() {
        [label, ..] if label.ends_with(':') && is_noun(label) => true,
        [label, of, number, ..] if number_of(of, number) => is_noun(label),
        [label, _, of, number, ..] => is_noun(label) && number_of(of, number),
        _ => false,
    };
    labelled
        || named_before(&before_words(sentence, m.start()), &is_noun, noun)
        || employs(sentence, m, noun)
}

/// "The Company employed approximately 92,000 people": a count of people at most two words
/// after the verb "employ" (`employ`, `employs`, `employed`, `employing`; not "employees" or
/// "employment"); group 1 is the count.
static EMPLOYS_PEOPLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\bemploy(?:s|ed|ing)?\s+(?:\S+\s+){{0,2}}?(\d[\d,.]*(?:\s+(?:million|thousand))?|{NUMBER_WORD})\s+(?:people|persons|individuals)\b",
    ))
    .expect("valid regex")
});

/// Whether `sentence` states how many people are employed ([`EMPLOYS_PEOPLE`]).
pub(super) fn employs_people(sentence: &str) -> bool {
    EMPLOYS_PEOPLE.is_match(sentence)
}

/// Whether the count `m` is the count of people employed in `sentence` (for the noun
/// "employee").
fn employs(sentence: &str, m: &regex::Match<'_>, noun: &str) -> bool {
    noun.starts_with("employ")
        && EMPLOYS_PEOPLE
            .captures_iter(sentence)
            .any(|c| c.get(1).is_some_and(|n| n.start() == m.start()))
}

/// Nouns of a group that a count of its members may be stated by (a stem of a count noun,
/// then the group words): a workforce or headcount of 156,000 counts employees.
const COLLECTIVE_NOUNS: &[(&str, &[&str])] = &[(
    "employee",
    &["workforce", "headcount", "staff", "personnel"],
)];

/// The words for a group of `noun` (a count noun's stem): `workforce`, `headcount` … for
/// employees; empty for nouns without any.
pub(super) fn group_words(noun: &str) -> &'static [&'static str] {
    COLLECTIVE_NOUNS
        .iter()
        .find(|(stem, _)| noun.starts_with(stem) || stem.starts_with(noun))
        .map_or(&[], |(_, g)| g)
}

/// Words that hedge a count ("approximately 156,000").
const COUNT_HEDGES: &[&str] = &[
    "approximately",
    "about",
    "around",
    "nearly",
    "roughly",
    "over",
    "some",
    "almost",
];

/// Verbs and prepositions by which a noun states its count: "employees totaled 9,000", "a
/// workforce of 156,000".
const COUNT_LINKS: &[&str] = &[
    "was", "were", "is", "are", "of", "totaled", "totalled", "numbered", "reached",
];

/// Up to eight words before `end`, nearest first, lowercased without punctuation.
fn before_words(sentence: &str, end: usize) -> Vec<String> {
    sentence[..end]
        .split_whitespace()
        .rev()
        .take(8)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect()
}

/// Whether the words before a count (nearest first) name its noun, or a group of it, through
/// a linking word: "total workforce was approximately 156,000 and 142,000" (both counts),
/// "the number of employees was 12,300".
fn named_before(before: &[String], is_noun: &dyn Fn(&str) -> bool, noun: &str) -> bool {
    let groups = group_words(noun);
    let mut words = before.iter().map(String::as_str).skip_while(|w| {
        // The rest of a list of counts ("156,000 and" before "142,000") and hedges.
        w.is_empty()
            || *w == "and"
            || COUNT_HEDGES.contains(w)
            || w.chars().all(|c| c.is_ascii_digit() || c == ',')
    });
    if !words.next().is_some_and(|w| COUNT_LINKS.contains(&w)) {
        return false;
    }
    words
        .take(2)
        .any(|w| is_noun(w) || groups.iter().any(|g| w.starts_with(g)))
}

/// The defining sentence's span for `term`: `"Term" means …`, `Term shall mean …`, `Term is
/// defined as …`, `Term: …`, also with alternative terms before the verb (`“Cover”,
/// “Covering” or “Covered” means …`); the sentence from the term (or its opening quote) on.
#[must_use]
pub fn definition(sentence: &str, term: &str) -> Option<Range<usize>> {
    let pattern = format!(
        r#"(?i)["“']?{}["”'’]?\)?(?:\s*,?\s*(?:or\s+|and\s+)?["“][^"”]{{1,60}}["”])*\s*(?:means|shall mean|mean\b|is defined as|refers to|shall have the meaning|has the meaning|includes|:)"#,
        regex::escape(term.trim())
    );
    let re = Regex::new(&pattern).ok()?;
    re.find(sentence).map(|m| m.start()..sentence.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people_employed_are_counted_in_figures_scales_and_words() {
        for text in [
            "The Company employed approximately 92,000 people worldwide.",
            "Walmart employs about 2.1 million people.",
            "The firm employs twelve people in its London office.",
        ] {
            assert!(employs_people(text), "{text}");
        }
        assert!(!employs_people("The Company's employment costs rose 4%."));
    }

    #[test]
    fn references_keep_their_dashed_parts_and_instruments_their_names() {
        let text = "Indeed, Circuit Rule 28-2.6 requires each party to identify related cases.";
        let found: Vec<&str> = find(AnswerType::Reference, text, None)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(found, ["Circuit Rule 28-2.6"]);
        let text = "Tarrant identifies one compact, the Upper Niobrara River Compact, Pub. L. \
                    91–52. This Compact says nothing of it.";
        let found: Vec<&str> = find(AnswerType::Reference, text, None)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(found, ["Upper Niobrara River Compact"]);
    }

    #[test]
    fn a_percentage_keeps_the_bound_it_is_stated_with() {
        let text = "Texas had access to at least 29 percent of the excess water, and up to 50% \
                    of the rest, at 2% above the bank rate.";
        let found = spans(AnswerType::Percentage, text);
        assert_eq!(
            found,
            ["at least 29 percent", "up to 50%", "2% above the bank rate"]
        );
        let text = "provided no state is entitled to more than 25 percent of the water";
        let found = spans(AnswerType::Percentage, text);
        assert_eq!(found, ["25 percent"]);
        let text = "Texas is apportioned sixty (60) percent of the runoff; overdue sums bear \
                    interest at two percent (2%) over the then prime rate.";
        let found = spans(AnswerType::Percentage, text);
        assert_eq!(
            found,
            [
                "sixty (60) percent",
                "two percent (2%) over the then prime rate"
            ]
        );
        let text = "The Servicer retains twenty-five percent (25%) of the excess.";
        let found = spans(AnswerType::Percentage, text);
        assert_eq!(found, ["twenty-five percent (25%)"]);
        let text = "Late invoices bear interest at 1% per month.";
        let found = spans(AnswerType::Percentage, text);
        assert_eq!(found, ["1% per month"]);
    }

    #[test]
    fn a_multiple_is_no_count_of_times() {
        let text = "We execute 25 times faster than the interpreter, and break even after \
                    running a trace 270 times.";
        let found: Vec<&str> = find(AnswerType::Count, text, Some("time"))
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(found, ["270 times"]);
        let text = "The Board met 12 times over the year.";
        let found: Vec<&str> = find(AnswerType::Count, text, Some("time"))
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(found, ["12 times"]);
    }

    #[test]
    fn measures_keep_their_unit_bound_and_duration() {
        let cases = [
            (
                "the static ports disagree by more than 200 feet for more than 5 seconds.",
                "more than 200 feet for more than 5 seconds",
            ),
            (
                "13 More than 10 degrees difference for more than 10 seconds.",
                "More than 10 degrees difference for more than 10 seconds",
            ),
            (
                "correction of eye sight due to refractive error less than 7.5 dioptres.",
                "less than 7.5 dioptres",
            ),
            (
                "a pre-hearing brief (up to twenty (20) pages), and a proposed ruling",
                "up to twenty (20) pages",
            ),
            ("a dose of 5 mg twice daily", "5 mg"),
            (
                "a systolic pressure above 140 mmHg at rest",
                "above 140 mmHg",
            ),
        ];
        for (text, expected) in cases {
            let found: Vec<&str> = find(AnswerType::Measure, text, None)
                .into_iter()
                .map(|r| &text[r])
                .collect();
            assert_eq!(found, [expected], "{text}");
        }
        // A unit glued to more letters is another word: "5 min" is no "5 m…", "3 mgmt" no mg.
        assert!(find(
            AnswerType::Measure,
            "within 5 minutes and 3 mgmt staff",
            None
        )
        .is_empty());
        assert!(find(AnswerType::Measure, "the 737 MAX and $200 million", None).is_empty());
    }

    #[test]
    fn counts_are_not_percentages_or_footnote_marks_and_keep_their_scale() {
        let text = "(1) Memberships: 49% of total memberships; over 117 million streaming \
             memberships. ¶ 6 Our memberships include RTX 4060 memberships.";
        let found: Vec<&str> = find(AnswerType::Count, text, Some("membership"))
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(found, ["117 million"]);
    }

    fn spans(kind: AnswerType, sentence: &str) -> Vec<&str> {
        find(kind, sentence, None)
            .into_iter()
            .map(|r| &sentence[r])
            .collect::<Vec<_>>()
    }

    #[test]
    fn court_case_numbers_are_references() {
        assert_eq!(
            spans(
                AnswerType::Reference,
                "See Zepeda v. Doe, No. 3:21-cv-01234-AB, and the appeal, case number 22-15678."
            ),
            ["No. 3:21-cv-01234-AB", "case number 22-15678"]
        );
    }

    #[test]
    fn a_multiple_is_a_relative_speed() {
        assert_eq!(
            spans(
                AnswerType::Percentage,
                "The engine runs loops with a 3x-30x speedup, and up to 12.5x on one test."
            ),
            ["3x-30x", "12.5x"]
        );
        assert_eq!(
            spans(
                AnswerType::Percentage,
                "we see speedups of 2x to 9x in 0x10 cases"
            ),
            ["2x to 9x"]
        );
    }

    #[test]
    fn dates_in_their_written_forms() {
        assert_eq!(
            spans(
                AnswerType::Date,
                "Interviews take place over a six month period between December 2023 and May 2024."
            ),
            ["between December 2023 and May 2024"]
        );
        assert_eq!(
            spans(
                AnswerType::Date,
                "This Agreement is effective as of March 1, 2021 (the \"Effective Date\")."
            ),
            ["March 1, 2021"]
        );
        assert_eq!(
            spans(
                AnswerType::Date,
                "made on the 15th day of June, 2019 and amended 2020-01-31 and 03/04/2022"
            ),
            ["15th day of June, 2019", "2020-01-31", "03/04/2022"]
        );
        assert_eq!(
            spans(AnswerType::Date, "Filed 4 February 2022."),
            ["4 February 2022"]
        );
        assert_eq!(
            spans(
                AnswerType::Date,
                "Argued April 23, 2013—Decided June 13, 2013"
            ),
            ["April 23, 2013", "June 13, 2013"]
        );
        // A day that recurs each month.
        assert_eq!(
            spans(
                AnswerType::Date,
                "On or about the 15th day of each month, the Servicer will deliver a report."
            ),
            ["On or about the 15th day of each month"]
        );
        assert_eq!(
            spans(
                AnswerType::Date,
                "The fiscal year is the 52- or 53-week period that ends on the last Saturday of September."
            ),
            ["the last Saturday of September"]
        );
        // A day named by the end of a defined period.
        assert_eq!(
            spans(
                AnswerType::Date,
                "unless earlier terminated, shall expire on the last day of the Royalty Term."
            ),
            ["the last day of the Royalty Term"]
        );
        assert_eq!(
            spans(
                AnswerType::Date,
                "ending on the first day of the Change of Control Trigger Period."
            ),
            ["the first day of the Change of Control Trigger Period"]
        );
        // A day named by an anniversary of a defined date.
        assert_eq!(
            spans(
                AnswerType::Date,
                "The Seller shall, until the 4th anniversary of the Closing Date, keep the books."
            ),
            ["the 4th anniversary of the Closing Date"]
        );
        assert_eq!(
            spans(
                AnswerType::Date,
                "By the second anniversary of the Effective Date, the Buyer will stop using it."
            ),
            ["the second anniversary of the Effective Date"]
        );
        // A span of months is one date.
        assert_eq!(
            spans(
                AnswerType::Date,
                "Analysis and write up will take place from May 2024 – October 2024."
            ),
            ["May 2024 – October 2024"]
        );
    }

    #[test]
    fn durations_amounts_percentages() {
        assert_eq!(
            spans(
                AnswerType::Duration,
                "upon thirty (30) days' prior written notice, for an initial 2-year term"
            ),
            ["thirty (30) days", "2-year"]
        );
        assert_eq!(
            spans(
                AnswerType::Amount,
                "a fee of $2,500,000 and Rs. 5,000 and $1.2 billion"
            ),
            ["$2,500,000", "Rs. 5,000", "$1.2 billion"]
        );
        // A quantity with its unit of measure.
        assert_eq!(
            spans(
                AnswerType::Amount,
                "to take 310,000 acre feet6 per year; flows of 3,000 cubic feet per second"
            ),
            ["310,000 acre feet", "3,000 cubic feet per second"]
        );
        // The grave accent that a rupee font draws as "₹".
        assert_eq!(
            spans(
                AnswerType::Amount,
                "an overall limit of ` 10,00,000 only, maximum up to `10,000; in 2023 `"
            ),
            ["` 10,00,000", "`10,000"]
        );
        assert_eq!(
            spans(AnswerType::Percentage, "grew 195% and fell 2.5 percent"),
            ["195%", "2.5 percent"]
        );
        assert_eq!(
            spans(AnswerType::Percentage, "at a rate 2% above the bank rate."),
            ["2% above the bank rate"]
        );
        assert_eq!(
            spans(
                AnswerType::Percentage,
                "fifty percent (50%) of Net Sales, (2.5)% lower"
            ),
            ["fifty percent (50%)", "(2.5)%"]
        );
        assert_eq!(
            spans(
                AnswerType::Duration,
                "on June 29, 2020—61 days1 after the class"
            ),
            ["61 days"]
        );
        // A range is one span, in minutes as in days.
        assert_eq!(
            spans(
                AnswerType::Duration,
                "Interviews will last between 45 and 60 minutes, follow-up 3-6 months or 2 to 4 weeks."
            ),
            ["between 45 and 60 minutes", "3-6 months", "2 to 4 weeks"]
        );
        // Seconds and their abbreviations, with or without a space.
        assert_eq!(
            spans(
                AnswerType::Duration,
                "26 short-running (less than 250ms, average 26ms) programs; a timeout of 30 seconds"
            ),
            ["250ms", "26ms", "30 seconds"]
        );
        // A unit set against its number, and a length counted in continuous months.
        assert_eq!(
            spans(
                AnswerType::Duration,
                "for up to 60days immediately before; after sixty continuous months of coverage"
            ),
            ["60days", "sixty continuous months"]
        );
        // An age bound without its unit.
        assert_eq!(
            spans(
                AnswerType::Duration,
                "Adults aged >18 who have recently undergone surgery"
            ),
            [">18"]
        );
        // A band whose ends each have their unit is one span.
        assert_eq!(
            spans(
                AnswerType::Duration,
                "children between the age 3 months to 25 years, and for 30 days - 60 days"
            ),
            ["3 months to 25 years", "30 days - 60 days"]
        );
        assert_eq!(
            spans(
                AnswerType::Duration,
                "The Notice Period is extended from 30 days to 60 days."
            ),
            ["30 days", "60 days"]
        );
        // An ordinal is no unit of time, nor a year before one.
        assert!(spans(
            AnswerType::Duration,
            "0.74 Second Quarter; fiscal 2024 second quarter; 4.6 Second Supplemental Indenture"
        )
        .is_empty());
        // Decimals stay whole; a provision's number or a date is no start of a range.
        assert_eq!(
            spans(
                AnswerType::Duration,
                "runs 2.5 to 3 years; notice in Section 10 to 90 days; June 1, 2024 - 30 days"
            ),
            ["2.5 to 3 years", "90 days", "30 days"]
        );
    }

    #[test]
    fn counts_follow_their_noun_and_votes_are_counts() {
        let s = "We operated 982 stores in 2023 and employed 90,000 people.";
        let got: Vec<&str> = find(AnswerType::Count, s, Some("store"))
            .into_iter()
            .map(|r| &s[r])
            .collect();
        // The counted noun right after the number is stated with it.
        assert_eq!(got, ["982 stores"]);
        let s = "The labor takes up to 79 work-hours per airplane.";
        let got: Vec<&str> = find(AnswerType::Count, s, Some("work-hour"))
            .into_iter()
            .map(|r| &s[r])
            .collect();
        assert_eq!(got, ["79 work-hours"]);
        let s = "The Court affirmed by a 7-2 vote.";
        let got: Vec<&str> = find(AnswerType::Count, s, Some("vote"))
            .into_iter()
            .map(|r| &s[r])
            .collect();
        assert_eq!(got, ["7-2"]);
        // A range is not a vote when the question counts things.
        let s = "The member will review 3-5 transcripts of 15 interviews.";
        let got: Vec<&str> = find(AnswerType::Count, s, Some("interview"))
            .into_iter()
            .map(|r| &s[r])
            .collect();
        assert_eq!(got, ["15 interviews"]);
        // The noun may stand several words after the count, or just before it in a form.
        let s = "SunSpider consists of 26 short-running (less than 250ms, average 26ms) JavaScript programs.";
        let got: Vec<&str> = find(AnswerType::Count, s, Some("program"))
            .into_iter()
            .map(|r| &s[r])
            .collect();
        assert_eq!(got, ["26"]);
        let s = "Number of Study Sites 6+ Number of participants 15, with plans to expand in increments of 3";
        let got: Vec<&str> = find(AnswerType::Count, s, Some("participant"))
            .into_iter()
            .map(|r| &s[r])
            .collect();
        assert_eq!(got, ["15"]);
        let got: Vec<&str> = find(AnswerType::Count, s, Some("site"))
            .into_iter()
            .map(|r| &s[r])
            .collect();
        assert_eq!(got, ["6+"]);
        // A model name is not a count, nor is a number inside a statute reference.
        let s = "higher net sales of iPhone 14 Pro models";
        assert!(find(AnswerType::Count, s, Some("iphone")).is_empty());
        let s = "criminalized by N.C.G.S. § 14-306.4 (2021), which prohibits the operation of sweepstakes";
        assert!(find(AnswerType::Count, s, Some("sweepstake")).is_empty());
    }

    #[test]
    fn legal_suffixes_are_whole_words() {
        assert!(spans(
            AnswerType::Party,
            "Net Income rose; see the LICENSE AGREEMENT."
        )
        .is_empty());
        assert_eq!(
            spans(AnswerType::Party, "Acme Bank and Bankruptcy"),
            ["Acme Bank"]
        );
    }

    #[test]
    fn labelled_codes_and_phone_numbers_are_references() {
        assert_eq!(
            spans(
                AnswerType::Reference,
                "Product Identifier 2019–NM–035–AD] RIN 2120–AA64; IRAS no – 327246; \
                 Fax: 202–493–2251. FY 2023 was a year; AD 2018–23–51 applies. Washington, \
                 DC 20590–0001; FY 2023–24; USD 150000; Cupertino, CA 95014. Service Bulletin \
                 737– 31–1860; software version P12.1.2. Since AD 2018–23–51 was issued."
            ),
            [
                "Product Identifier 2019–NM–035–AD",
                "RIN 2120–AA64",
                "IRAS no – 327246",
                "Fax: 202–493–2251",
                "AD 2018–23–51",
                "Service Bulletin 737– 31–1860",
                "version P12.1.2",
                "AD 2018–23–51"
            ]
        );
    }

    #[test]
    fn parties_people_places_references() {
        assert_eq!(
            spans(AnswerType::Party, "by and between Reynolds Group Holdings Limited and Reynolds Consumer Products Inc."),
            ["Reynolds Group Holdings Limited", "Reynolds Consumer Products Inc."]
        );
        // A court of appeals is named whole, or by its circuit.
        assert_eq!(
            spans(
                AnswerType::Party,
                "We affirm the judgment of the Court of Appeals for the Tenth Circuit, as the Ninth Circuit did."
            ),
            ["Court of Appeals for the Tenth Circuit", "Ninth Circuit"]
        );
        assert_eq!(
            spans(
                AnswerType::Person,
                "JUSTICE SOTOMAYOR delivered the opinion of the Court."
            ),
            ["JUSTICE SOTOMAYOR"]
        );
        assert_eq!(spans(AnswerType::Person, "Name: Jane Roe"), ["Jane Roe"]);
        assert_eq!(
            spans(
                AnswerType::Person,
                "On August 4, 2020, counsel for the government, Sergio Sarkany, informed Appellees"
            ),
            ["Sergio Sarkany"]
        );
        assert_eq!(
            spans(
                AnswerType::Person,
                "FOR FURTHER INFORMATION CONTACT: Ian Won, Manager, Seattle ACO Branch"
            ),
            ["Ian Won"]
        );
        assert_eq!(
            spans(
                AnswerType::Person,
                "• Mr Kieran O’Flynn - Consultant Urologist"
            ),
            ["Mr Kieran O’Flynn"]
        );
        assert_eq!(
            spans(
                AnswerType::Person,
                "No. 3:20-cv-02731 Hon. Vince Chhabria MOTION TO STAY PROCEEDINGS"
            ),
            ["Hon. Vince Chhabria"]
        );
        assert_eq!(
            spans(
                AnswerType::Person,
                "amici curiae. HUDSON, Justice. ¶ 1 Gift Surplus sued"
            ),
            ["HUDSON"]
        );
        assert_eq!(
            spans(
                AnswerType::Place,
                "PLDI’09, June 15–20, 2009, Dublin, Ireland."
            ),
            ["Dublin, Ireland"]
        );
        assert_eq!(
            spans(
                AnswerType::Person,
                "The chief investigator is Anna Smith, Principal Investigator."
            ),
            ["Anna Smith"]
        );
        assert_eq!(
            spans(
                AnswerType::Place,
                "governed by the laws of the State of New York, without regard to conflicts"
            ),
            ["New York"]
        );
        assert_eq!(
            spans(
                AnswerType::Place,
                "GOVERNED BY THE LAWS OF THE STATE OF NEW YORK."
            ),
            ["NEW YORK"]
        );
        assert_eq!(
            spans(
                AnswerType::Reference,
                "in violation of N.C.G.S. § 14-306.4 and Section 10.8(b)"
            ),
            ["N.C.G.S. § 14-306.4", "Section 10.8(b)"]
        );
        // A docket number broken at a dash by the line is read whole.
        assert_eq!(
            spans(
                AnswerType::Reference,
                "[Docket No. FAA–2020–0686; and locating Docket No. FAA–2020– 0686."
            ),
            ["Docket No. FAA–2020–0686", "Docket No. FAA–2020– 0686"]
        );
        assert_eq!(
            spans(AnswerType::Reference, "see Docket No. 07–1234– which"),
            ["Docket No. 07–1234"]
        );
    }

    #[test]
    fn definitions_start_at_the_term() {
        let s = "“Affiliate” means any entity controlling a Party.";
        assert_eq!(&s[definition(s, "Affiliate").unwrap()], s);
        assert_eq!(definition("The Affiliate shall pay.", "Affiliate"), None);
        // Alternative terms stand between the term and its verb.
        let s = "1.32 “Cover”, “Covering” or “Covered” means, for a product, that it is claimed.";
        assert_eq!(
            &s[definition(s, "Cover").unwrap()],
            "“Cover”, “Covering” or “Covered” means, for a product, that it is claimed."
        );
        // Offsets are the sentence's own, whatever lowercasing does to its length.
        let s = "İİ “Business Day” means a day.";
        assert_eq!(
            &s[definition(s, "Business Day").unwrap()],
            "“Business Day” means a day."
        );
    }
}
