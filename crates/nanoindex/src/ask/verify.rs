//! Checks an answer's numbers against the evidence: each arithmetic expression written in
//! the answer (`1,577 / 32,765 = 4.8%`, `(5,466 - 4,000) = 1,466`) is re-computed exactly,
//! and every other figure must occur in the quoted evidence (allowing the answer to round
//! it or restate millions as billions).

use nanoindex_retrieve::analysis::{numbers_in, scan_number, NumberMention};

/// One arithmetic expression found in an answer and its re-computation.
#[derive(Debug, Clone, PartialEq)]
pub struct Computation {
    /// The expression as written, up to and including the stated result.
    pub text: String,
    /// The result the answer states.
    pub stated: f64,
    /// The result computed from the expression's operands (as a percentage when the stated
    /// result carries `%` and the quotient is a fraction).
    pub computed: f64,
    /// Whether `stated` equals `computed` at the precision the answer wrote.
    pub correct: bool,
    /// Byte range of the stated result in the answer.
    pub result_range: std::ops::Range<usize>,
}

/// Tolerance for a stated figure with `decimals` decimals: half a unit in its last place,
/// plus a relative 0.5 % for rounding done on intermediate values.
fn close(stated: f64, computed: f64, decimals: usize) -> bool {
    (stated - computed).abs()
        <= nanoindex_core::figures::half_unit(decimals) + 0.005 * computed.abs().max(1e-9)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token {
    Number(f64),
    Op(char),
    Open,
    Close,
}

/// Splits an arithmetic left-hand side into tokens; `None` on anything else.
fn lex(text: &str) -> Option<Vec<Token>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            let start = i;
            i = scan_number(&chars, i);
            let raw: String = chars[start..i].iter().filter(|c| **c != ',').collect();
            out.push(Token::Number(raw.parse().ok()?));
            continue;
        }
        match c {
            '+' => out.push(Token::Op('+')),
            '-' | '−' | '–' => out.push(Token::Op('-')),
            '*' | '×' | 'x' => out.push(Token::Op('*')),
            '/' | '÷' => out.push(Token::Op('/')),
            '(' => out.push(Token::Open),
            ')' => out.push(Token::Close),
            ' ' | '$' | '%' | ',' => {}
            _ => return None,
        }
        i += 1;
    }
    Some(out)
}

/// Recursive-descent evaluation of `expr := term (('+'|'-') term)*`,
/// `term := factor (('*'|'/') factor)*`, `factor := number | '(' expr ')'`.
struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    n_ops: usize,
}

impl Parser<'_> {
    fn expr(&mut self) -> Option<f64> {
        let mut value = self.term()?;
        while let Some(Token::Op(op @ ('+' | '-'))) = self.tokens.get(self.pos) {
            self.pos += 1;
            self.n_ops += 1;
            let rhs = self.term()?;
            value = if *op == '+' { value + rhs } else { value - rhs };
        }
        Some(value)
    }

    fn term(&mut self) -> Option<f64> {
        let mut value = self.factor()?;
        while let Some(Token::Op(op @ ('*' | '/'))) = self.tokens.get(self.pos) {
            self.pos += 1;
            self.n_ops += 1;
            let rhs = self.factor()?;
            if *op == '*' {
                value *= rhs;
            } else if rhs == 0.0 {
                return None;
            } else {
                value /= rhs;
            }
        }
        Some(value)
    }

    fn factor(&mut self) -> Option<f64> {
        match self.tokens.get(self.pos)? {
            Token::Number(v) => {
                self.pos += 1;
                Some(*v)
            }
            Token::Open => {
                self.pos += 1;
                let v = self.expr()?;
                if self.tokens.get(self.pos) == Some(&Token::Close) {
                    self.pos += 1;
                    Some(v)
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

/// The value of the longest well-formed expression with at least one operator that ends
/// `tokens`, and whether it divides.
fn evaluate_suffix(tokens: &[Token]) -> Option<(f64, bool)> {
    for start in 0..tokens.len() {
        if !matches!(tokens[start], Token::Number(_) | Token::Open) {
            continue;
        }
        let mut parser = Parser {
            tokens: &tokens[start..],
            pos: 0,
            n_ops: 0,
        };
        if let Some(v) = parser.expr() {
            if parser.pos == parser.tokens.len() && parser.n_ops > 0 {
                let divides = tokens[start..].contains(&Token::Op('/'));
                return Some((v, divides));
            }
        }
    }
    None
}

/// Finds and re-computes every `expression = result` in `answer` (operators `+ - * x × /
/// ÷`, parentheses, `$`, thousands separators; `%` on the result makes a quotient a
/// percentage).
///
/// ```
/// use nanoindex::ask::verify::computations;
/// let found = computations("Margin: 1,466 / 5,466 = 26.8%. Sum 2 + 2 = 5.");
/// assert!(found[0].correct);
/// assert!(!found[1].correct);
/// assert_eq!(found[1].computed, 4.0);
/// ```
#[must_use]
pub fn computations(answer: &str) -> Vec<Computation> {
    let numbers: Vec<NumberMention> = numbers_in(answer);
    let mut out = Vec::new();
    for (eq, sign) in answer.match_indices(['=', '≈']) {
        let after = eq + sign.len();
        let Some(result) = numbers.iter().find(|n| n.range.start >= after) else {
            continue;
        };
        if !answer[after..result.range.start]
            .trim_matches([' ', '$', '~', '('])
            .is_empty()
        {
            continue;
        }
        let allowed = |c: char| c.is_ascii_digit() || " ,.()+-*/x×÷−–%$".contains(c);
        let lhs_start = answer[..eq]
            .char_indices()
            .rev()
            .take_while(|(_, c)| allowed(*c))
            .last()
            .map_or(eq, |(i, _)| i);
        let Some(tokens) = lex(&answer[lhs_start..eq]) else {
            continue;
        };
        let Some((mut computed, divides)) = evaluate_suffix(&tokens) else {
            continue;
        };
        let stated = result.value.abs();
        if result.percent && divides && computed.abs() < 1.5 && stated >= 1.5 {
            computed *= 100.0;
        }
        out.push(Computation {
            text: answer[lhs_start..result.range.end].trim().to_string(),
            stated,
            computed,
            correct: close(stated, computed.abs(), result.decimals),
            result_range: result.range.clone(),
        });
    }
    out
}

/// Whether `figure` (from an answer) is a figure of the evidence: of the same kind (a
/// percentage only by a percentage; a year never supports a figure that is not one) and equal
/// at the answer's precision, ignoring sign. Scale: when both write a scale word
/// (`$2.5 billion` against `2,490 million`) the amounts themselves must agree; when either
/// leaves it to a table header, a change of scale by a thousand or a million is allowed
/// (millions written as billions or thousands).
#[must_use]
pub fn supported_by(figure: &NumberMention, evidence: &[NumberMention]) -> bool {
    let v = figure.value.abs();
    evidence.iter().any(|e| {
        if e.percent != figure.percent || (e.is_year() && !figure.is_year()) {
            return false;
        }
        let ev = e.value.abs();
        match (figure.scale, e.scale) {
            (Some(fs), Some(es)) => close(v, ev * es / fs, figure.decimals),
            _ => [1.0, 1e3, 1e-3, 1e6, 1e-6]
                .iter()
                .any(|scale| close(v, ev * scale, figure.decimals)),
        }
    })
}

/// Rewrites `answer` with every wrong computation's stated result replaced by the computed
/// one (rounded to the decimals the answer used); returns the new text and the corrections
/// made, as `written → computed` strings.
#[must_use]
pub fn correct_computations(answer: &str) -> (String, Vec<String>) {
    let mut text = answer.to_string();
    let mut notes = Vec::new();
    let mut found = computations(answer);
    found.sort_by_key(|c| std::cmp::Reverse(c.result_range.start));
    for c in found.into_iter().filter(|c| !c.correct) {
        let written = &answer[c.result_range.clone()];
        let decimals = written.split_once('.').map_or(0, |(_, f)| f.len());
        let replacement = format!("{:.*}", decimals, c.computed.abs());
        notes.push(format!("{} → {replacement}", c.text));
        text.replace_range(c.result_range.clone(), &replacement);
    }
    notes.reverse();
    (text, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correct_and_incorrect_computations_are_recognised() {
        let ok = computations("Capex share: 1,577 / 32,765 = 4.8%");
        assert_eq!(ok.len(), 1);
        assert!(ok[0].correct, "{ok:?}");
        let growth = computations("Growth was (5,466 - 4,000) / 4,000 = 36.65%");
        assert!(growth[0].correct, "{growth:?}");
        let wrong = computations("Total: 1,200 + 300 = 1,600 million");
        assert!(!wrong[0].correct);
        assert_eq!(wrong[0].computed, 1500.0);
        assert_eq!(wrong[0].stated, 1600.0);
        let product = computations("2 x 3.5 = 7.0 and 10 ÷ 4 = 2.5");
        assert_eq!(product.len(), 2);
        assert!(product.iter().all(|c| c.correct));
        assert!(computations("In 2018 sales rose 5% to $1,284 million").is_empty());
    }

    #[test]
    fn wrong_results_are_rewritten() {
        let (text, notes) = correct_computations("Net: 1,284 - 96 = 1,100 million.");
        assert_eq!(text, "Net: 1,284 - 96 = 1188 million.");
        assert_eq!(notes.len(), 1);
        let (same, none) = correct_computations("Net: 1,284 - 96 = 1,188 million.");
        assert_eq!(same, "Net: 1,284 - 96 = 1,188 million.");
        assert!(none.is_empty());
    }

    #[test]
    fn figures_are_matched_with_rounding_and_scale() {
        let evidence = numbers_in("Property, plant and equipment — net 8,738 8,866");
        let answer = numbers_in("about $8.7 billion, or 8,738 million; not 9,100");
        assert!(supported_by(&answer[0], &evidence));
        assert!(supported_by(&answer[1], &evidence));
        assert!(!supported_by(&answer[2], &evidence));
    }

    #[test]
    fn figures_must_match_in_kind_and_written_scale() {
        let evidence = numbers_in("Revenue was $2.49 billion, up 171% from a year ago.");
        // "2.5%" is not "$2.49 billion", however close the digits.
        assert!(!supported_by(&numbers_in("2.5% growth")[0], &evidence));
        assert!(supported_by(&numbers_in("grew 171 percent")[0], &evidence));
        assert!(supported_by(&numbers_in("$2,490 million")[0], &evidence));
        assert!(supported_by(&numbers_in("$2.5 billion")[0], &evidence));
        assert!(!supported_by(&numbers_in("$2.5 million")[0], &evidence));
        assert!(!supported_by(&numbers_in("171 stores")[0], &evidence[1..]));
        let dated = numbers_in("In 2023 the company opened stores.");
        assert!(!supported_by(&numbers_in("$2,023 million")[0], &dated));
    }
}
