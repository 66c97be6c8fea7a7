//! Filling the fields of a JSON Schema from a document (`extract --schema`): each field is
//! asked as a question ([`crate::ask::ask`] in `fast` mode), and its value is the one the reader
//! found in the pages read — a value of the field's kind stated in a quoted sentence or table
//! row, or computed from cited rows — never the model's free text. A value is kept only when
//! its quote was found on its page (a citation with boxes) and the value as written occurs in
//! that quote (or is computed from cited inputs); otherwise the field is `null` and says why.
//!
//! Supported schemas: an object whose `properties` are of type `string`, `number`,
//! `integer` or `boolean` (JSON Schema 2020-12 §10.3.2.1 `properties`, §6.1.1 `type`), each
//! asked by its `description` (a question when it ends with `?`), else its `title`, else
//! its name with `_` and `-` read as spaces.

use nanoindex_core::figures::numbers_in;
use nanoindex_core::{Answer, AnswerStatus, BoundingBox};
use serde::Serialize;
use serde_json::Value;

use crate::ask::{AskOptions, Mode, Trace};
use crate::{IndexError, NanoIndex, Prepared};

/// The JSON type a field asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    /// Text: the value as the reader states it.
    String,
    /// A number: the figure as written, without `$`, `,` or scale words (a scale word stays
    /// in `written`).
    Number,
    /// A whole number.
    Integer,
    /// Yes or no.
    Boolean,
}

/// One field of a schema, as asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field {
    /// The property's name.
    pub name: String,
    /// Its type.
    pub kind: FieldType,
    /// The question asked for it.
    pub question: String,
}

/// A field's value and where it was found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldValue {
    /// The field.
    #[serde(flatten)]
    pub field: Field,
    /// The value in the field's type; `null` when not found or not verified.
    pub value: Value,
    /// The value as the document writes it (`$1,577 million`, `(1,577)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// `found` (stated in the quote), `computed` (from the cited inputs), `not_found`, or
    /// `unverified` (the reader's value whose quote or wording could not be checked on the
    /// page; `value` is then `null`).
    pub status: &'static str,
    /// 1-based page of the quote.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// The quoted sentence or table row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// The quote's boxes (0–1 fractions of the displayed page, origin top-left).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bounding_boxes: Vec<BoundingBox>,
    /// For a computed value: the formula with its inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computation: Option<String>,
}

/// The fields of `schema`.
///
/// # Errors
/// A message when `schema` is not an object with `properties`, or a property has no
/// supported `type` (nested objects and arrays are not filled).
pub fn schema_fields(schema: &Value) -> Result<Vec<Field>, String> {
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty())
        .ok_or("the schema has no `properties` object")?;
    let mut fields = Vec::new();
    for (name, spec) in properties {
        let kind = match spec.get("type").and_then(Value::as_str) {
            Some("string") => FieldType::String,
            Some("number") => FieldType::Number,
            Some("integer") => FieldType::Integer,
            Some("boolean") => FieldType::Boolean,
            Some(other) => {
                return Err(format!(
                    "property `{name}` has type `{other}`; only string, number, integer and \
                     boolean properties can be filled"
                ))
            }
            None => return Err(format!("property `{name}` has no `type`")),
        };
        let text = spec
            .get("description")
            .or_else(|| spec.get("title"))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map_or_else(|| name.replace(['_', '-'], " "), str::to_string);
        let question = if text.ends_with('?') {
            text
        } else {
            let text = text.trim_end_matches('.');
            match kind {
                FieldType::Boolean => format!("Does the document state that {text}?"),
                // "How much" makes the reader look for an amount, whatever the metric's name.
                FieldType::Number | FieldType::Integer
                    if !text.to_lowercase().starts_with("number of") =>
                {
                    format!("How much is the {text}?")
                }
                _ => format!("What is the {text}?"),
            }
        };
        fields.push(Field {
            name: name.clone(),
            kind,
            question,
        });
    }
    Ok(fields)
}

/// The value of `field` from an `answer` of [`crate::ask::ask`] to its question.
#[must_use]
pub fn field_value(field: &Field, answer: &Answer) -> FieldValue {
    let empty = |status: &'static str| FieldValue {
        field: field.clone(),
        value: Value::Null,
        written: None,
        status,
        page: None,
        quote: None,
        bounding_boxes: Vec::new(),
        computation: None,
    };
    if answer.status == Some(AnswerStatus::NotFound) {
        return empty("not_found");
    }
    if field.kind == FieldType::Boolean {
        // Yes/no comes from the polarity of the cited sentence, which the answer states first.
        let yes = answer.content.trim_start().starts_with("Yes");
        let no = answer.content.trim_start().starts_with("No");
        let Some(citation) = answer.citations.first().filter(|_| yes || no) else {
            return empty("unverified");
        };
        return FieldValue {
            value: Value::Bool(yes),
            status: "found",
            page: citation.pages.first().copied(),
            quote: citation.quote.clone(),
            bounding_boxes: citation.bounding_boxes.clone(),
            ..empty("found")
        };
    }
    let Some(candidate) = Trace::from_answer(answer)
        .ok()
        .and_then(|t| t.reader.into_iter().next())
        .and_then(|part| part.answer().cloned())
    else {
        return empty("not_found");
    };
    // The quote must be one of the verified citations, on the same page.
    let Some(citation) = answer.citations.iter().find(|c| {
        c.pages.contains(&candidate.page_no)
            && c.quote.as_deref().is_some_and(|q| {
                let q = q.split_whitespace().collect::<Vec<_>>().join(" ");
                let want = candidate
                    .quote
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                q.contains(&want) || want.contains(&q)
            })
    }) else {
        return empty("unverified");
    };
    let written = candidate
        .written
        .clone()
        .unwrap_or_else(|| candidate.value.clone());
    let computed = candidate.computation.is_some();
    if !computed && !candidate.quote.contains(written.as_str()) {
        return empty("unverified");
    }
    let value = match field.kind {
        FieldType::String => Value::String(candidate.value.clone()),
        FieldType::Number | FieldType::Integer => {
            // A value is one figure: a whole row or sentence with several is not a value.
            let figures = numbers_in(&candidate.value);
            let figure = (figures.len() == 1).then(|| figures[0].value);
            match figure {
                Some(v) if field.kind == FieldType::Integer && v.fract() == 0.0 => {
                    Value::from(v as i64)
                }
                Some(v) if field.kind == FieldType::Number => {
                    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
                }
                _ => return empty("unverified"),
            }
        }
        FieldType::Boolean => unreachable!("handled above"),
    };
    FieldValue {
        field: field.clone(),
        value,
        written: Some(written),
        status: if computed { "computed" } else { "found" },
        page: Some(candidate.page_no),
        quote: Some(candidate.quote.clone()),
        bounding_boxes: citation.bounding_boxes.clone(),
        computation: candidate.computation.clone(),
    }
}

impl NanoIndex {
    /// Fills the fields of `schema` from `prepared`: one question per field, asked in `fast`
    /// mode reading at most `max_pages` pages, each value checked as the module describes.
    ///
    /// # Errors
    /// [`IndexError::Schema`] for a schema that cannot be filled; as [`NanoIndex::ask`]
    /// otherwise (no model, the model fails, the PDF cannot be read).
    pub fn fill_schema(
        &self,
        prepared: &Prepared,
        schema: &Value,
        max_pages: usize,
    ) -> Result<Vec<FieldValue>, IndexError> {
        let fields = schema_fields(schema).map_err(IndexError::Schema)?;
        let options = AskOptions {
            mode: Mode::Fast,
            max_pages,
        };
        fields
            .iter()
            .map(|field| {
                let answer = self.ask(prepared, &field.question, &options, &mut |_| {})?;
                Ok(field_value(field, &answer))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_asked_by_description_title_or_name() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "governing_law": {"type": "string", "description": "governing law of the agreement"},
                "cap": {"type": "number", "title": "liability cap"},
                "late_fee_rate": {"type": "number"},
                "renews": {"type": "boolean", "description": "Does the agreement renew automatically?"}
            }
        });
        let fields = schema_fields(&schema).unwrap();
        let questions: Vec<(&str, &str)> = fields
            .iter()
            .map(|f| (f.name.as_str(), f.question.as_str()))
            .collect();
        assert!(questions.contains(&(
            "governing_law",
            "What is the governing law of the agreement?"
        )));
        assert!(questions.contains(&("cap", "How much is the liability cap?")));
        assert!(questions.contains(&("late_fee_rate", "How much is the late fee rate?")));
        assert!(questions.contains(&("renews", "Does the agreement renew automatically?")));
    }

    #[test]
    fn unsupported_schemas_say_why() {
        let nested = serde_json::json!({"properties": {"parties": {"type": "array"}}});
        assert!(schema_fields(&nested)
            .unwrap_err()
            .contains("`parties` has type `array`"));
        assert!(schema_fields(&serde_json::json!({"type": "string"}))
            .unwrap_err()
            .contains("no `properties`"));
    }
}
