//! Chat prompts rendered with the Jinja template stored in the GGUF
//! (`tokenizer.chat_template`), through minijinja with the settings Hugging Face's
//! `apply_chat_template` uses (`trim_blocks`, `lstrip_blocks`, Python string methods,
//! `raise_exception`).

use minijinja::{context, Environment, Error, ErrorKind};
use nanoindex_llm::{GenerateRequest, LlmError};

/// A compiled chat template.
#[derive(Debug)]
pub(crate) struct ChatTemplate {
    env: Environment<'static>,
    bos_token: String,
    eos_token: String,
}

const NAME: &str = "chat";

impl ChatTemplate {
    /// Compiles `source`; `bos_token` and `eos_token` are the texts templates may write.
    ///
    /// Errors are the template engine's message.
    pub(crate) fn new(source: &str, bos_token: &str, eos_token: &str) -> Result<Self, String> {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_function(
            "raise_exception",
            |message: String| -> Result<String, Error> {
                Err(Error::new(ErrorKind::InvalidOperation, message))
            },
        );
        env.add_function("strftime_now", |_format: String| -> String {
            // Templates use it for a "today's date" line; a fixed date keeps prompts (and
            // so greedy outputs) reproducible.
            "01 Jan 2026".to_string()
        });
        env.add_template_owned(NAME, source.to_string())
            .map_err(|e| e.to_string())?;
        Ok(Self {
            env,
            bos_token: bos_token.to_string(),
            eos_token: eos_token.to_string(),
        })
    }

    /// The prompt for `request`'s messages with the assistant turn opened.
    ///
    /// # Errors
    ///
    /// [`LlmError::InvalidRequest`] when the template fails (for example, it raises an
    /// exception because roles do not alternate).
    pub(crate) fn render(&self, request: &GenerateRequest) -> Result<String, LlmError> {
        let messages: Vec<_> = request
            .messages
            .iter()
            .map(|m| context! { role => m.role.as_str(), content => m.content.as_str() })
            .collect();
        let template = self.env.get_template(NAME).map_err(|e| {
            LlmError::InvalidRequest(format!("cannot apply the chat template: {e}"))
        })?;
        template
            .render(context! {
                messages => messages,
                add_generation_prompt => true,
                bos_token => self.bos_token.as_str(),
                eos_token => self.eos_token.as_str(),
            })
            .map_err(|e| LlmError::InvalidRequest(format!("cannot apply the chat template: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHATML: &str = "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\\nDefault<|im_end|>\\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

    #[test]
    fn chatml_template_renders_like_the_reference() {
        let template = ChatTemplate::new(CHATML, "", "").unwrap();
        let prompt = template
            .render(&GenerateRequest::chat("Be brief.", "Hi"))
            .unwrap();
        assert_eq!(
            prompt,
            "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
        );
        let prompt = template.render(&GenerateRequest::chat("", "Hi")).unwrap();
        assert!(
            prompt.starts_with("<|im_start|>system\nDefault<|im_end|>\n"),
            "{prompt}"
        );
    }

    #[test]
    fn python_methods_trimmed_blocks_and_exceptions() {
        let source = "{{ bos_token }}{% for m in messages %}\n{% if m.role == 'assistant' %}{{ raise_exception('no assistant') }}{% endif %}\n<{{ m.role }}>{{ m.content.strip() }}\n{% endfor %}";
        let template = ChatTemplate::new(source, "<s>", "</s>").unwrap();
        let prompt = template
            .render(&GenerateRequest::chat("", "  hello  "))
            .unwrap();
        assert_eq!(prompt, "<s><user>hello\n");
        let mut request = GenerateRequest::chat("", "x");
        request
            .messages
            .push(nanoindex_llm::ChatMessage::assistant("y"));
        let error = template.render(&request).unwrap_err().to_string();
        assert!(error.contains("no assistant"), "{error}");
    }

    #[test]
    fn broken_template_is_an_error() {
        assert!(ChatTemplate::new("{% for %}", "", "").is_err());
    }
}
