//! The HTTP backends against a loopback server the test runs: request bodies (messages,
//! token budget, JSON Schema, stop strings, API key), streamed replies, token counts, stop
//! strings and callback stops applied locally, and errors naming the server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::thread;

use nanoindex_llm::{GenerateRequest, LlmError, StopReason, TextGenerator, TokenControl};
use nanoindex_llm_http::{OllamaGenerator, OpenAiGenerator};
use serde_json::{json, Value};

/// A request as the server saw it.
#[derive(Debug)]
struct Seen {
    request_line: String,
    headers: Vec<String>,
    body: Value,
}

/// Serves one canned reply per connection, in order; returns the base URL and a channel of
/// the requests received.
fn serve(replies: Vec<(u16, &'static str, String)>) -> (String, mpsc::Receiver<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for (status, content_type, reply) in replies {
            let (mut socket, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(socket.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut headers = Vec::new();
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let line = line.trim_end().to_string();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.to_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
                headers.push(line);
            }
            let mut raw = vec![0u8; length];
            reader.read_exact(&mut raw).unwrap();
            let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
            tx.send(Seen {
                request_line: request_line.trim_end().to_string(),
                headers,
                body,
            })
            .unwrap();
            let reason = if status == 200 { "OK" } else { "Error" };
            let head = format!(
                "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nConnection: close\r\n\r\n"
            );
            socket.write_all(head.as_bytes()).unwrap();
            socket.write_all(reply.as_bytes()).unwrap();
        }
    });
    (url, rx)
}

fn collect(
    model: &mut dyn TextGenerator,
    request: &GenerateRequest,
) -> (String, nanoindex_llm::Generation) {
    let mut streamed = String::new();
    let generation = model
        .generate(request, &mut |piece| {
            streamed.push_str(piece);
            TokenControl::Continue
        })
        .unwrap();
    (streamed, generation)
}

#[test]
fn ollama_streams_ndjson_and_sends_the_schema() {
    let show =
        json!({"model_info": {"general.architecture": "llama", "llama.context_length": 8192}})
            .to_string();
    let chat = [
        json!({"message": {"role": "assistant", "content": "{\"a\""}, "done": false}),
        json!({"message": {"role": "assistant", "content": ": 1}"}, "done": false}),
        json!({"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop",
               "prompt_eval_count": 12, "eval_count": 2, "prompt_eval_duration": 40_000_000, "eval_duration": 20_000_000}),
    ]
    .iter()
    .map(|v| v.to_string() + "\n")
    .collect::<String>();
    let (url, seen) = serve(vec![
        (200, "application/json", show),
        (200, "application/x-ndjson", chat),
    ]);
    let mut model = OllamaGenerator::connect(&url, "tiny:1b").unwrap();
    assert_eq!(model.info().context_length, 8192);
    assert_eq!(model.info().architecture, "llama");
    let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    let request = GenerateRequest::chat("be terse", "give a")
        .with_max_tokens(7)
        .with_json_schema(schema.clone());
    let (streamed, generation) = collect(&mut model, &request);
    assert_eq!(generation.text, "{\"a\": 1}");
    assert_eq!(streamed, generation.text);
    assert_eq!(generation.n_prompt_tokens, 12);
    assert_eq!(generation.n_completion_tokens, 2);
    assert!((generation.prefill_ms - 40.0).abs() < 1e-6);
    assert_eq!(generation.stop_reason, StopReason::EndOfGeneration);
    let show_request = seen.recv().unwrap();
    assert_eq!(show_request.request_line, "POST /api/show HTTP/1.1");
    assert_eq!(show_request.body["model"], "tiny:1b");
    let chat_request = seen.recv().unwrap();
    assert_eq!(chat_request.request_line, "POST /api/chat HTTP/1.1");
    assert_eq!(chat_request.body["format"], schema);
    assert_eq!(chat_request.body["options"]["num_predict"], 7);
    assert_eq!(
        chat_request.body["messages"][0],
        json!({"role": "system", "content": "be terse"})
    );
    assert_eq!(
        chat_request.body["messages"][1],
        json!({"role": "user", "content": "give a"})
    );
}

#[test]
fn ollama_without_the_model_says_to_pull_it() {
    let (url, _seen) = serve(vec![(
        404,
        "application/json",
        r#"{"error":"model not found"}"#.into(),
    )]);
    let error = OllamaGenerator::connect(&url, "absent:7b").unwrap_err();
    assert!(matches!(error, LlmError::Load { .. }));
    assert!(
        error.to_string().contains("ollama pull absent:7b"),
        "{error}"
    );
}

fn sse(pieces: &[&str]) -> String {
    let mut out = String::new();
    for p in pieces {
        let event = json!({"choices": [{"delta": {"content": p}, "finish_reason": null}]});
        out.push_str(&format!("data: {event}\n\n"));
    }
    let last = json!({"choices": [{"delta": {}, "finish_reason": "length"}]});
    out.push_str(&format!("data: {last}\n\n"));
    let usage = json!({"choices": [], "usage": {"prompt_tokens": 21, "completion_tokens": 4}});
    out.push_str(&format!("data: {usage}\n\ndata: [DONE]\n\n"));
    out
}

#[test]
fn openai_streams_server_sent_events_with_usage_and_key() {
    let (url, seen) = serve(vec![(
        200,
        "text/event-stream",
        sse(&["Par", "is", " is", " big"]),
    )]);
    let mut model =
        OpenAiGenerator::new(&format!("{url}/v1"), "local-model", Some("sk-test".into()));
    let schema = json!({"type": "object"});
    let request = GenerateRequest::chat("", "capital?")
        .with_max_tokens(4)
        .with_json_schema(schema.clone());
    let (_, generation) = collect(&mut model, &request);
    assert_eq!(generation.text, "Paris is big");
    assert_eq!(generation.n_prompt_tokens, 21);
    assert_eq!(generation.n_completion_tokens, 4);
    assert_eq!(generation.stop_reason, StopReason::MaxTokens);
    let request_seen = seen.recv().unwrap();
    assert_eq!(
        request_seen.request_line,
        "POST /v1/chat/completions HTTP/1.1"
    );
    assert!(
        request_seen
            .headers
            .iter()
            .any(|h| h == "Authorization: Bearer sk-test"),
        "{:?}",
        request_seen.headers
    );
    assert_eq!(request_seen.body["model"], "local-model");
    assert_eq!(request_seen.body["max_tokens"], 4);
    assert_eq!(
        request_seen.body["response_format"]["json_schema"]["schema"],
        schema
    );
}

#[test]
fn stop_strings_and_callback_stops_apply_locally() {
    let (url, _seen) = serve(vec![
        (
            200,
            "text/event-stream",
            sse(&["one ", "two ", "STOP", " three"]),
        ),
        (200, "text/event-stream", sse(&["a", "b", "c"])),
    ]);
    let mut model = OpenAiGenerator::new(&url, "m", None);
    let request = GenerateRequest::chat("", "count").with_stop(["STOP"]);
    let (streamed, generation) = collect(&mut model, &request);
    assert_eq!(generation.text, "one two ");
    assert_eq!(streamed, "one two ");
    assert_eq!(generation.stop_reason, StopReason::StopString);
    let mut pieces = 0;
    let generation = model
        .generate(&GenerateRequest::chat("", "letters"), &mut |_| {
            pieces += 1;
            if pieces == 2 {
                TokenControl::Stop
            } else {
                TokenControl::Continue
            }
        })
        .unwrap();
    assert_eq!(generation.text, "ab");
    assert_eq!(generation.stop_reason, StopReason::Callback);
}

#[test]
fn an_unreachable_server_is_named_in_the_error() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let mut model = OpenAiGenerator::new(&url, "m", None);
    let error = model
        .generate(&GenerateRequest::chat("", "hi"), &mut |_| {
            TokenControl::Continue
        })
        .unwrap_err();
    assert!(error.to_string().contains(&url), "{error}");
}
