//! The `fast` pipeline: read the best pages; unless the reader's answer is already decided
//! (no draft could change it), the model picks evidence lines, then answers (two model calls;
//! the second reuses the first's prompt prefix).

use super::prompts;
use super::session::Session;
use super::AskError;

impl Session<'_> {
    /// `fast`: read the best pages, let the model pick lines, answer from them. Returns the
    /// draft (empty when there was no evidence or no parsable reply) and no reasoning.
    pub(super) fn fast(&mut self) -> Result<(String, Option<String>), AskError> {
        let pages = self.top_pages(self.options.max_pages);
        self.read("retrieval", &pages, &[]);
        self.rank_evidence(&[]);
        self.step("read");
        // Retrieval and the reader already decided: a draft could not change the answer.
        if !self.draft_can_change(&self.read_parts()) {
            self.trace.model_skipped = Some(
                "the reader's answer is decided by the pages read; no draft could change it"
                    .to_string(),
            );
            return Ok((String::new(), None));
        }
        let budget = self.budget_chars(96);
        let (block, shown) = self.evidence_block(4, budget.min(1100));
        if shown.is_empty() {
            return Ok((String::new(), None));
        }
        let prefix = prompts::fast_prefix(&block, &self.query.question);
        let n = shown.len();
        let reply = self.generate("pick", &prompts::fast_pick(&prefix, n), false)?;
        let picked: Vec<usize> = prompts::parse::<prompts::Pick>(&reply)
            .map(|p| p.lines)
            .unwrap_or_default()
            .into_iter()
            .filter(|&l| (1..=n).contains(&l))
            .collect();
        let preferred: Vec<usize> = picked.iter().map(|&l| shown[l - 1]).collect();
        let reply = self.generate("answer", &prompts::fast_answer(&prefix, &picked), true)?;
        // An unparsable reply (the token budget ran out mid-string) is no answer.
        let draft =
            prompts::parse::<prompts::FastReply>(&reply).map_or_else(String::new, |r| r.answer);
        self.rank_evidence(&preferred);
        Ok((draft.trim().to_string(), None))
    }
}
