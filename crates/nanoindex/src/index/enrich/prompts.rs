//! Every prompt and JSON schema of indexing, in one place: summaries (of a node's text, of
//! its parts combined, of a parent from its children), the document description, model
//! entities and relationships (alone, or as the next turn after a window's summary), and
//! the split cascade's boundaries and propositions. Document text only ever enters after a `Section:`/`Text:`
//! label, as data, and every structured reply is constrained by a JSON Schema.

use nanoindex_llm::GenerateRequest;
use serde_json::json;

/// Most generated tokens per summary.
const SUMMARY_MAX_TOKENS: u32 = 80;

/// The system message of summaries and the description.
const SUMMARY_SYSTEM: &str = "You summarise sections of documents for a search index. You \
                              write in your own words and never copy sentences from the text.";

/// A summary of a section's `text`: its own text, or (`from_children`) a description made
/// of its own text's summary and its children's titles and summaries.
pub(super) fn summary(title: &str, text: &str, from_children: bool) -> GenerateRequest {
    let what = if from_children {
        "Summarise the section described above in one or two sentences of your own words: \
         what it covers and its main facts."
    } else {
        "Summarise the section above in one or two sentences of your own words, naming its \
         main facts and figures."
    };
    GenerateRequest::chat(
        SUMMARY_SYSTEM,
        &format!("Section: {title}\n\n{text}\n\n{what}"),
    )
    .with_max_tokens(SUMMARY_MAX_TOKENS)
    .with_stop(["\n\n"])
}

/// `request` asked again after its reply was rejected (a copy of the text's first sentence,
/// or degenerate): the same prompt with a stricter instruction at the end.
pub(super) fn summary_retry(request: &GenerateRequest) -> GenerateRequest {
    let mut request = request.clone();
    if let Some(last) = request.messages.last_mut() {
        last.content.push_str(
            " Start with \"This section\". Do not repeat the first sentence of the text.",
        );
    }
    request
}

/// The JSON Schema of a summary written as one JSON string that begins with "This
/// section " (at most 300 characters, no quotes or backslashes inside): a small model
/// cannot then echo the prompt's `Section:` label or copy the text's first line, which was
/// how most rejected summaries began.
fn own_words_schema() -> serde_json::Value {
    json!({"type": "string", "pattern": "^This section [^\"\\\\]*$", "maxLength": 300})
}

/// The summary of a window read for its entities too: [`summary`]'s request with the reply
/// constrained to one JSON string that begins with "This section " ([`own_words_schema`];
/// read it with [`summary_text`]).
///
/// `system` is the conversation's system message ([`reading_system`]).
pub(super) fn summary_in_own_words(title: &str, text: &str, system: &str) -> GenerateRequest {
    let mut request = summary(title, text, false)
        .with_json_schema(own_words_schema())
        .with_max_tokens(SUMMARY_MAX_TOKENS + 16);
    request.messages[0].content = system.to_string();
    request.stop.clear();
    request
}

/// The system message of a window's reading conversation ([`summary_in_own_words`], then
/// [`entities_after_summary`]): the summaries' instructions and what the entity turn will
/// ask for, with its types. It is the same for every window of a document, so the backend
/// evaluates it once (the prefix each conversation shares with the one before), and the
/// entity turn of each window is one short line instead of the type lists again. `focus`
/// says what the document is ("a company's annual report").
pub(super) fn reading_system(
    focus: &str,
    entity_types: &[&str],
    relation_types: &[&str],
) -> String {
    format!(
        "{SUMMARY_SYSTEM} When asked for entities, you list the entities a section of {focus} \
         names (types: {}), each name copied exactly as the text writes it, and the \
         relationships between them (types: {}), as JSON.",
        entity_types.join(", "),
        relation_types.join(", ")
    )
}

/// The summary asked again as the next turn of its conversation, after the model's
/// `rejected` reply to `request`: the backend still holds the conversation, so only the
/// reply and this turn are evaluated, not the section's text.
pub(super) fn summary_again(request: &GenerateRequest, rejected: &str) -> GenerateRequest {
    let mut request = request.clone();
    request
        .messages
        .push(nanoindex_llm::ChatMessage::assistant(rejected));
    request.messages.push(nanoindex_llm::ChatMessage::user(
        "That repeats the text. Summarise the section in one or two sentences of your own \
         words, naming its main facts and figures.",
    ));
    request
}

/// The text of a reply to [`summary_in_own_words`]: the JSON string's value, or — when the
/// token limit cut it before its closing quote — what was written of it.
pub(super) fn summary_text(reply: &str) -> String {
    serde_json::from_str::<String>(reply).unwrap_or_else(|_| {
        reply
            .trim()
            .trim_start_matches('"')
            .trim_end_matches('"')
            .to_string()
    })
}

/// One summary of a whole section from the summaries of its consecutive parts (`partial`,
/// one per line).
pub(super) fn combine(title: &str, partial: &str) -> GenerateRequest {
    GenerateRequest::chat(
        SUMMARY_SYSTEM,
        &format!(
            "Section: {title}\n\nSummaries of its consecutive parts:\n{partial}\n\nCombine them \
             into one summary of the whole section, in one or two sentences."
        ),
    )
    .with_max_tokens(SUMMARY_MAX_TOKENS)
    .with_stop(["\n\n"])
}

/// The one-sentence document description, from the file name, the opening text and the
/// top-level outline (titles with their summaries), each already cut to its budget.
pub(super) fn description(doc_name: &str, opening: &str, outline: &str) -> GenerateRequest {
    let user = format!(
        "Document file: {doc_name}\n\nOpening text:\n{opening}\n\nSections:\n{outline}\n\nIn \
         one sentence, say what kind of document this is, who it is from, and what subject or \
         period it covers."
    );
    GenerateRequest::chat(SUMMARY_SYSTEM, &user)
        .with_max_tokens(64)
        .with_stop(["\n\n"])
}

/// The JSON Schema of a window's entities and relationships: names of at most 80
/// characters, types from the enums `entity_types` and `relation_types`, 1 to 8 entities
/// and at most 5 relationships. (Small models fill a list to its maximum, repeating items
/// when they run out, and decoding those repeats was most of enrichment's time: 12 and 8
/// gave about 300 generated tokens per window on the default model.)
fn entities_schema(entity_types: &[&str], relation_types: &[&str]) -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {
            "entities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "maxLength": 80},
                        "type": {"type": "string", "enum": entity_types}
                    },
                    "required": ["name", "type"]
                },
                "minItems": 1,
                "maxItems": 8
            },
            "relationships": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "source": {"type": "string", "maxLength": 80},
                        "relation": {"type": "string", "enum": relation_types},
                        "target": {"type": "string", "maxLength": 80}
                    },
                    "required": ["source", "relation", "target"]
                },
                "maxItems": 5
            }
        },
        "required": ["entities", "relationships"],
        // Compact JSON: no indentation decoded between the items of the lists.
        "x-guidance": {"whitespace_flexible": false}
    })
}

/// Most generated tokens of an entities reply.
const ENTITIES_MAX_TOKENS: u32 = 256;

/// The entities and relationships of one window of a section's text, asked on their own
/// (no summary). `focus` says what the document is ("a company's annual report"). All but
/// the section's title and text is in the system message, which is therefore the same for
/// every window of a document: the prompt prefix the backend evaluates once.
pub(super) fn entities(
    focus: &str,
    title: &str,
    text: &str,
    entity_types: &[&str],
    relation_types: &[&str],
) -> GenerateRequest {
    let system = format!(
        "You extract entities and relationships from {focus}. You are given one section's \
         title and text. List the entities the text names (types: {}), each name copied \
         exactly as the text writes it, and the relationships between them (types: {}). \
         Reply with JSON only.",
        entity_types.join(", "),
        relation_types.join(", ")
    );
    GenerateRequest::chat(&system, &format!("Section: {title}\n\nText:\n{text}"))
        .with_max_tokens(ENTITIES_MAX_TOKENS)
        .with_json_schema(entities_schema(entity_types, relation_types))
}

/// The entities and relationships of the window a summary was just written for: the
/// summary's conversation (`summary_request` and the model's `summary_reply`, as generated)
/// with one more user turn asking for them; the types are in the conversation's system
/// message ([`reading_system`]) and the schema's enums. The conversation so far is the
/// prompt prefix the backend still holds, so the window's text is not evaluated again.
pub(super) fn entities_after_summary(
    summary_request: &GenerateRequest,
    summary_reply: &str,
    entity_types: &[&str],
    relation_types: &[&str],
) -> GenerateRequest {
    let mut request = summary_request.clone();
    request
        .messages
        .push(nanoindex_llm::ChatMessage::assistant(summary_reply));
    request.messages.push(nanoindex_llm::ChatMessage::user(
        "Now list the entities that section names and the relationships between them. Reply \
         with JSON only.",
    ));
    request.stop.clear();
    request
        .with_max_tokens(ENTITIES_MAX_TOKENS)
        .with_json_schema(entities_schema(entity_types, relation_types))
}

/// The split cascade's tier (b): 3 to 8 of a long section's paragraph `openings` where a
/// subsection begins, each copied from the list (an enum of the schema).
pub(super) fn boundaries(title: &str, openings: &[&str]) -> GenerateRequest {
    let listing: String = openings.iter().map(|o| format!("- {o}\n")).collect();
    let user = format!(
        "Section: {title}\n\nThe section is long. Its paragraphs begin like this, in order:\n\
         {listing}\nChoose 3 to 8 of these openings where a new subsection begins (a new \
         topic). Copy each chosen opening exactly."
    );
    let schema = json!({
        "type": "object",
        "properties": {
            "boundaries": {
                "type": "array",
                "items": {"type": "string", "enum": openings},
                "minItems": 3,
                "maxItems": 8
            }
        },
        "required": ["boundaries"]
    });
    GenerateRequest::chat(
        "You divide long sections of documents into subsections. Reply with JSON only.",
        &user,
    )
    .with_max_tokens(200)
    .with_json_schema(schema)
}

/// The split cascade's tier (c): the atomic claims of a window of dense `text`, each with
/// the opening of its source sentence chosen from `openings` (an enum of the schema); 1 to
/// 10 claims of at most 200 characters.
pub(super) fn propositions(text: &str, openings: &[String]) -> GenerateRequest {
    let user = format!(
        "Text:\n{text}\n\nList the claims this text makes. Each claim is one short sentence \
         that stands on its own: name the subject instead of using pronouns. For each claim, \
         `source` is the opening of the sentence it comes from, copied from this list:\n{}",
        openings
            .iter()
            .map(|o| format!("- {o}\n"))
            .collect::<String>()
    );
    let schema = json!({
        "type": "object",
        "properties": {
            "propositions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "claim": {"type": "string", "maxLength": 200},
                        "source": {"type": "string", "enum": openings}
                    },
                    "required": ["claim", "source"]
                },
                "minItems": 1,
                "maxItems": 10
            }
        },
        "required": ["propositions"]
    });
    GenerateRequest::chat(
        "You extract atomic, self-contained claims from documents. Reply with JSON only.",
        &user,
    )
    .with_max_tokens(600)
    .with_json_schema(schema)
}
