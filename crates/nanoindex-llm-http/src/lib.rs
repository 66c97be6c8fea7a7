//! HTTP text-generation backends: a model served by Ollama (`/api/chat`) or by any
//! OpenAI-compatible server (`/v1/chat/completions`: llama-server, vLLM, LM Studio).
//!
//! These are the only backends that use the network, and only toward the server the user
//! named (`ollama:NAME` at `OLLAMA_HOST`, default `http://127.0.0.1:11434`;
//! `openai:MODEL@BASE_URL`, API key from `OPENAI_API_KEY` when set). Replies are streamed
//! (Ollama's NDJSON, OpenAI's server-sent events) through the shared
//! [`nanoindex_llm::TextStream`], so stop strings and the per-token callback behave as with
//! local backends. A JSON Schema is sent as Ollama's `format` or OpenAI's
//! `response_format: {type: "json_schema"}`; the server enforces it.
//!
//! ```no_run
//! use nanoindex_llm::{GenerateRequest, TextGenerator, TokenControl};
//! use nanoindex_llm_http::OllamaGenerator;
//! let mut model = OllamaGenerator::connect("http://127.0.0.1:11434", "llama3.2:1b").unwrap();
//! let reply = model
//!     .generate(&GenerateRequest::chat("", "Name a colour."), &mut |_| TokenControl::Continue)
//!     .unwrap();
//! println!("{}", reply.text);
//! ```

use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

use nanoindex_llm::{
    GenerateRequest, Generation, LlmError, ModelInfo, Result, StopReason, StreamEvent,
    TextGenerator, TextStream, TokenControl,
};
use serde_json::{json, Value};

/// Default Ollama address when `OLLAMA_HOST` is not set.
pub const DEFAULT_OLLAMA_HOST: &str = "http://127.0.0.1:11434";

/// Context length assumed when the server does not report one, in tokens.
const DEFAULT_CONTEXT: u32 = 4096;

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout_connect(Duration::from_secs(10))
        .timeout_read(Duration::from_secs(600))
        .build()
}

/// `OLLAMA_HOST` as a base URL (`host:port` gets `http://`), else the default.
#[must_use]
pub fn ollama_host() -> String {
    match std::env::var("OLLAMA_HOST") {
        Ok(h) if !h.trim().is_empty() => {
            let h = h.trim().trim_end_matches('/');
            if h.starts_with("http://") || h.starts_with("https://") {
                h.to_string()
            } else {
                format!("http://{h}")
            }
        }
        _ => DEFAULT_OLLAMA_HOST.to_string(),
    }
}

fn http_error(server: &str, error: ureq::Error) -> LlmError {
    match error {
        ureq::Error::Status(code, response) => {
            let body = response.into_string().unwrap_or_default();
            let body: String = body.chars().take(300).collect();
            LlmError::Inference(format!("`{server}` answered HTTP {code}: {body}"))
        }
        ureq::Error::Transport(t) => LlmError::Inference(format!("cannot reach `{server}`: {t}")),
    }
}

/// Feeds streamed text through the stop-string filter and the callback; returns whether
/// generation should end (stop string or callback).
fn deliver(
    stream: &mut TextStream,
    piece: &str,
    on_token: &mut dyn FnMut(&str) -> TokenControl,
    reason: &mut Option<StopReason>,
) -> bool {
    match stream.push(piece.as_bytes()) {
        StreamEvent::Text(text) => {
            if !text.is_empty() && on_token(&text) == TokenControl::Stop {
                *reason = Some(StopReason::Callback);
                return true;
            }
            false
        }
        StreamEvent::Stopped(text) => {
            if !text.is_empty() {
                on_token(&text);
            }
            *reason = Some(StopReason::StopString);
            true
        }
    }
}

/// Releases what the stream held back (through the callback) and returns the whole text.
fn finish_text(stream: &mut TextStream, on_token: &mut dyn FnMut(&str) -> TokenControl) -> String {
    let tail = stream.finish();
    if !tail.is_empty() {
        on_token(&tail);
    }
    stream.text().to_string()
}

fn messages(request: &GenerateRequest) -> Value {
    Value::Array(
        request
            .messages
            .iter()
            .map(|m| json!({"role": m.role.as_str(), "content": m.content}))
            .collect(),
    )
}

/// A model served by Ollama.
#[derive(Debug)]
pub struct OllamaGenerator {
    base_url: String,
    model: String,
    info: ModelInfo,
    agent: ureq::Agent,
}

impl OllamaGenerator {
    /// Connects to the Ollama server at `base_url` and checks that it serves `model`
    /// (`POST /api/show`), reading its architecture and context length.
    ///
    /// # Errors
    /// [`LlmError::Load`] when the server is unreachable or does not have the model (the
    /// message says to `ollama pull` it).
    pub fn connect(base_url: &str, model: &str) -> Result<Self> {
        let base_url = base_url.trim_end_matches('/').to_string();
        let agent = agent();
        let url = format!("{base_url}/api/show");
        let shown: Value = agent
            .post(&url)
            .set("Content-Type", "application/json")
            .send_string(&json!({"model": model}).to_string())
            .map_err(|e| LlmError::Load {
                path: format!("ollama:{model}").into(),
                reason: match e {
                    ureq::Error::Status(404, _) => format!(
                        "the Ollama server at `{base_url}` does not have it (run `ollama pull {model}`)"
                    ),
                    other => http_error(&base_url, other).to_string(),
                },
            })?
            .into_json()
            .map_err(|e| LlmError::Load {
                path: format!("ollama:{model}").into(),
                reason: format!("unreadable reply from `{url}`: {e}"),
            })?;
        let architecture = shown["model_info"]["general.architecture"]
            .as_str()
            .unwrap_or("unknown")
            .to_string();
        let context_length = shown["model_info"][format!("{architecture}.context_length")]
            .as_u64()
            .map_or(DEFAULT_CONTEXT, |n| n.min(u64::from(u32::MAX)) as u32);
        Ok(OllamaGenerator {
            info: ModelInfo {
                name: model.to_string(),
                architecture,
                context_length,
                context_length_used: context_length.min(DEFAULT_CONTEXT),
                vocab_size: 0,
                backend: "ollama".to_string(),
            },
            base_url,
            model: model.to_string(),
            agent,
        })
    }
}

impl TextGenerator for OllamaGenerator {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn generate(
        &mut self,
        request: &GenerateRequest,
        on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> Result<Generation> {
        let mut options = json!({
            "temperature": request.temperature.max(0.0),
            "top_p": request.top_p,
            "seed": request.seed,
            "num_predict": request.max_tokens,
            "num_ctx": self.info.context_length_used,
        });
        if !request.stop.is_empty() {
            options["stop"] = json!(request.stop);
        }
        let mut body = json!({
            "model": self.model,
            "messages": messages(request),
            "stream": true,
            "options": options,
        });
        if let Some(schema) = &request.json_schema {
            body["format"] = schema.clone();
        }
        let started = Instant::now();
        let url = format!("{}/api/chat", self.base_url);
        let response = self
            .agent
            .post(&url)
            .set("Content-Type", "application/json")
            .send_string(&body.to_string())
            .map_err(|e| http_error(&self.base_url, e))?;
        let mut stream = TextStream::new(request.stop.clone());
        let mut reason: Option<StopReason> = None;
        let mut first_token: Option<Instant> = None;
        let (mut n_prompt, mut n_completion) = (0u32, 0u32);
        let (mut prefill_ms, mut decode_ms) = (None, None);
        for line in BufReader::new(response.into_reader()).lines() {
            let line = line.map_err(|e| LlmError::Inference(format!("reading `{url}`: {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let event: Value = serde_json::from_str(&line)
                .map_err(|e| LlmError::Inference(format!("unreadable line from `{url}`: {e}")))?;
            if let Some(error) = event["error"].as_str() {
                return Err(LlmError::Inference(format!("`{url}`: {error}")));
            }
            if let Some(piece) = event["message"]["content"].as_str() {
                if !piece.is_empty() {
                    first_token.get_or_insert_with(Instant::now);
                    n_completion += 1;
                    if deliver(&mut stream, piece, on_token, &mut reason) {
                        break;
                    }
                }
            }
            if event["done"].as_bool() == Some(true) {
                n_prompt = event["prompt_eval_count"].as_u64().unwrap_or(0) as u32;
                if let Some(n) = event["eval_count"].as_u64() {
                    n_completion = n as u32;
                }
                prefill_ms = event["prompt_eval_duration"].as_f64().map(|ns| ns / 1e6);
                decode_ms = event["eval_duration"].as_f64().map(|ns| ns / 1e6);
                if reason.is_none() {
                    reason = Some(match event["done_reason"].as_str() {
                        Some("length") => StopReason::MaxTokens,
                        _ => StopReason::EndOfGeneration,
                    });
                }
                break;
            }
        }
        let text = finish_text(&mut stream, on_token);
        let first = first_token.unwrap_or_else(Instant::now);
        Ok(Generation {
            text,
            tokens: Vec::new(),
            n_prompt_tokens: n_prompt,
            n_cached_prompt_tokens: 0,
            n_completion_tokens: n_completion,
            prefill_ms: prefill_ms.unwrap_or_else(|| (first - started).as_secs_f64() * 1000.0),
            decode_ms: decode_ms.unwrap_or_else(|| first.elapsed().as_secs_f64() * 1000.0),
            stop_reason: reason.unwrap_or(StopReason::EndOfGeneration),
        })
    }
}

/// A model served by an OpenAI-compatible server.
#[derive(Debug)]
pub struct OpenAiGenerator {
    base_url: String,
    model: String,
    api_key: Option<String>,
    info: ModelInfo,
    agent: ureq::Agent,
}

impl OpenAiGenerator {
    /// A generator for `model` at `base_url` (`http://host:port`, with or without `/v1`).
    /// `api_key` is sent as a bearer token when given. Nothing is sent until the first
    /// request (many local servers have no model list to check against).
    #[must_use]
    pub fn new(base_url: &str, model: &str, api_key: Option<String>) -> Self {
        let base = base_url.trim_end_matches('/');
        let base = base.strip_suffix("/v1").unwrap_or(base).to_string();
        OpenAiGenerator {
            info: ModelInfo {
                name: model.to_string(),
                architecture: "unknown".to_string(),
                context_length: DEFAULT_CONTEXT,
                context_length_used: DEFAULT_CONTEXT,
                vocab_size: 0,
                backend: "openai".to_string(),
            },
            base_url: base,
            model: model.to_string(),
            api_key,
            agent: agent(),
        }
    }
}

impl TextGenerator for OpenAiGenerator {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn generate(
        &mut self,
        request: &GenerateRequest,
        on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> Result<Generation> {
        let mut body = json!({
            "model": self.model,
            "messages": messages(request),
            "max_tokens": request.max_tokens,
            "temperature": request.temperature.max(0.0),
            "top_p": request.top_p,
            "seed": request.seed,
            "stream": true,
            "stream_options": {"include_usage": true},
        });
        if !request.stop.is_empty() {
            body["stop"] = json!(request.stop);
        }
        if let Some(schema) = &request.json_schema {
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": schema, "strict": true}
            });
        }
        let started = Instant::now();
        let url = format!("{}/v1/chat/completions", self.base_url);
        let mut call = self
            .agent
            .post(&url)
            .set("Content-Type", "application/json")
            .set("Accept", "text/event-stream");
        if let Some(key) = &self.api_key {
            call = call.set("Authorization", &format!("Bearer {key}"));
        }
        let response = call
            .send_string(&body.to_string())
            .map_err(|e| http_error(&self.base_url, e))?;
        let mut stream = TextStream::new(request.stop.clone());
        let mut reason: Option<StopReason> = None;
        let mut first_token: Option<Instant> = None;
        let (mut n_prompt, mut n_completion, mut counted) = (0u32, 0u32, 0u32);
        for line in BufReader::new(response.into_reader()).lines() {
            let line = line.map_err(|e| LlmError::Inference(format!("reading `{url}`: {e}")))?;
            let Some(data) = line.strip_prefix("data:") else {
                continue;
            };
            let data = data.trim();
            if data == "[DONE]" {
                break;
            }
            let event: Value = serde_json::from_str(data)
                .map_err(|e| LlmError::Inference(format!("unreadable event from `{url}`: {e}")))?;
            if let Some(error) = event.get("error") {
                return Err(LlmError::Inference(format!("`{url}`: {error}")));
            }
            if let Some(usage) = event.get("usage").filter(|u| u.is_object()) {
                n_prompt = usage["prompt_tokens"].as_u64().unwrap_or(0) as u32;
                n_completion = usage["completion_tokens"].as_u64().unwrap_or(0) as u32;
            }
            let choice = &event["choices"][0];
            if let Some(piece) = choice["delta"]["content"].as_str() {
                if !piece.is_empty() {
                    first_token.get_or_insert_with(Instant::now);
                    counted += 1;
                    if deliver(&mut stream, piece, on_token, &mut reason) {
                        break;
                    }
                }
            }
            if let Some(finish) = choice["finish_reason"].as_str() {
                reason.get_or_insert(match finish {
                    "length" => StopReason::MaxTokens,
                    _ => StopReason::EndOfGeneration,
                });
            }
        }
        let text = finish_text(&mut stream, on_token);
        let first = first_token.unwrap_or_else(Instant::now);
        Ok(Generation {
            text,
            tokens: Vec::new(),
            n_prompt_tokens: n_prompt,
            n_cached_prompt_tokens: 0,
            n_completion_tokens: if n_completion > 0 {
                n_completion
            } else {
                counted
            },
            prefill_ms: (first - started).as_secs_f64() * 1000.0,
            decode_ms: first.elapsed().as_secs_f64() * 1000.0,
            stop_reason: reason.unwrap_or(StopReason::EndOfGeneration),
        })
    }
}
