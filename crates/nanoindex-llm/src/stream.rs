//! Turns a stream of token bytes into final text: whole UTF-8 characters only, stop strings
//! cut out. Shared by all backends so that streaming and stop strings behave the same.

/// What [`TextStream::push`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamEvent {
    /// Text that is now final and can be shown (may be empty).
    Text(String),
    /// A stop string appeared; the payload is the final text before it. Generation must end.
    Stopped(String),
}

/// Accumulates the bytes of generated tokens and releases text once it is final.
///
/// Text is held back while it ends in an incomplete UTF-8 sequence or in a prefix of a stop
/// string, so a caller that prints every released piece never shows a stop string.
///
/// ```
/// use nanoindex_llm::{StreamEvent, TextStream};
/// let mut stream = TextStream::new(vec!["END".to_string()]);
/// assert_eq!(stream.push(b"hello E"), StreamEvent::Text("hello ".into()));
/// assert_eq!(stream.push(b"ND more"), StreamEvent::Stopped(String::new()));
/// assert_eq!(stream.text(), "hello ");
/// ```
#[derive(Debug, Clone)]
pub struct TextStream {
    stop: Vec<String>,
    /// Bytes received and not yet released.
    pending: Vec<u8>,
    /// Text released so far.
    released: String,
    stopped: bool,
}

impl TextStream {
    /// A stream that ends at the first of `stop` (empty strings are ignored).
    #[must_use]
    pub fn new(stop: Vec<String>) -> Self {
        let stop = stop.into_iter().filter(|s| !s.is_empty()).collect();
        Self {
            stop,
            pending: Vec::new(),
            released: String::new(),
            stopped: false,
        }
    }

    /// Adds the bytes of one token and returns the text that became final.
    ///
    /// After a [`StreamEvent::Stopped`] further pushes are ignored and return empty text.
    pub fn push(&mut self, bytes: &[u8]) -> StreamEvent {
        if self.stopped {
            return StreamEvent::Text(String::new());
        }
        self.pending.extend_from_slice(bytes);
        // The longest prefix of `pending` that is valid UTF-8.
        let valid_len = match std::str::from_utf8(&self.pending) {
            Ok(text) => text.len(),
            Err(error) => {
                if error.error_len().is_some() {
                    // Invalid bytes that no later byte can fix: replace them.
                    let text = String::from_utf8_lossy(&self.pending).into_owned();
                    self.pending = text.into_bytes();
                    self.pending.len()
                } else {
                    error.valid_up_to()
                }
            }
        };
        let text = String::from_utf8_lossy(&self.pending[..valid_len]).into_owned();
        // `pending` starts with the text held back earlier. Released text never ends in a
        // stop-string prefix, so a stop string can only begin inside `text`.
        if let Some(at) = self
            .stop
            .iter()
            .filter_map(|stop| text.find(stop.as_str()))
            .min()
        {
            self.stopped = true;
            let before = text[..at].to_string();
            self.released.push_str(&before);
            self.pending.clear();
            return StreamEvent::Stopped(before);
        }
        let release_len = text.len() - self.held_suffix_len(&text);
        let released_now = text[..release_len].to_string();
        self.released.push_str(&released_now);
        self.pending.drain(..release_len);
        StreamEvent::Text(released_now)
    }

    /// Releases whatever is held back (an unfinished stop-string prefix or an incomplete
    /// UTF-8 sequence, replaced by U+FFFD) at the end of generation.
    pub fn finish(&mut self) -> String {
        if self.stopped {
            return String::new();
        }
        let rest = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        self.released.push_str(&rest);
        rest
    }

    /// All text released so far.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.released
    }

    /// Whether a stop string was seen.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Length of the longest suffix of `text` that is a proper prefix of a stop string.
    fn held_suffix_len(&self, text: &str) -> usize {
        let mut best = 0;
        for stop in &self.stop {
            for len in (1..stop.len()).rev() {
                if len <= best {
                    break;
                }
                if text.len() >= len
                    && text.is_char_boundary(text.len() - len)
                    && stop.is_char_boundary(len)
                    && text.ends_with(&stop[..len])
                {
                    best = len;
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(stream: &mut TextStream, pieces: &[&[u8]]) -> (String, bool) {
        let mut shown = String::new();
        for piece in pieces {
            match stream.push(piece) {
                StreamEvent::Text(text) => shown.push_str(&text),
                StreamEvent::Stopped(text) => {
                    shown.push_str(&text);
                    return (shown, true);
                }
            }
        }
        shown.push_str(&stream.finish());
        (shown, false)
    }

    #[test]
    fn multibyte_character_split_across_tokens_is_held_until_complete() {
        let mut stream = TextStream::new(Vec::new());
        let euro = "€".as_bytes();
        assert_eq!(stream.push(b"1 "), StreamEvent::Text("1 ".into()));
        assert_eq!(stream.push(&euro[..1]), StreamEvent::Text(String::new()));
        assert_eq!(stream.push(&euro[1..]), StreamEvent::Text("€".into()));
        assert_eq!(stream.text(), "1 €");
    }

    #[test]
    fn stop_string_split_across_tokens_is_never_shown() {
        let mut stream = TextStream::new(vec!["</answer>".into()]);
        let (shown, stopped) = collect(&mut stream, &[b"42 </", b"ans", b"wer> trailing"]);
        assert!(stopped);
        assert_eq!(shown, "42 ");
        assert_eq!(stream.text(), "42 ");
    }

    #[test]
    fn held_prefix_is_released_when_it_turns_out_not_to_be_a_stop() {
        let mut stream = TextStream::new(vec!["\n\n".into()]);
        let (shown, stopped) = collect(&mut stream, &[b"a\n", b"b\n"]);
        assert!(!stopped);
        assert_eq!(shown, "a\nb\n");
    }

    #[test]
    fn earliest_of_several_stop_strings_wins() {
        let mut stream = TextStream::new(vec!["ZZ".into(), "B".into()]);
        let (shown, stopped) = collect(&mut stream, &[b"aaBccZZ"]);
        assert!(stopped);
        assert_eq!(shown, "aa");
    }

    #[test]
    fn invalid_utf8_is_replaced_not_held_forever() {
        let mut stream = TextStream::new(Vec::new());
        let (shown, _) = collect(&mut stream, &[b"a\xff", b"b"]);
        assert_eq!(shown, "a\u{fffd}b");
    }

    #[test]
    fn unfinished_utf8_at_end_is_flushed_as_replacement() {
        let mut stream = TextStream::new(Vec::new());
        let (shown, _) = collect(&mut stream, &[b"x", &"é".as_bytes()[..1]]);
        assert_eq!(shown, "x\u{fffd}");
    }
}
