//! The `agentic` and `agentic_graph` pipelines: decompose, pick outline sections (or graph
//! seeds), rounds of reading, sufficiency per data point, answer with reasoning, one retry
//! with keyword search after a refusal.

use std::collections::HashSet;

use nanoindex_retrieve::analysis::tokenize;
use nanoindex_retrieve::{PageHit, QueryAnalysis};

use super::hygiene::is_refusal;
use super::session::{overlaps, Session};
use super::{prompts, AskError, Mode};

impl Session<'_> {
    /// The outline as the model sees it: up to 25 nodes (those sharing terms with the
    /// question first), in document order, `id title (pages)` with summaries when present.
    pub(super) fn outline_choices(&self) -> Vec<(String, String)> {
        let terms: HashSet<String> = self.query.all_terms().cloned().collect();
        let mut nodes: Vec<(usize, bool, &nanoindex_core::TreeNode)> = self
            .doc
            .tree
            .iter_nodes()
            .enumerate()
            .filter(|(_, n)| n.node_id.depth() <= 3)
            .map(|(i, n)| {
                let relevant = tokenize(&n.title).iter().any(|t| terms.contains(t));
                (i, relevant, n)
            })
            .collect();
        nodes.sort_by_key(|(i, relevant, _)| (!*relevant, *i));
        nodes.truncate(25);
        nodes.sort_by_key(|(i, _, _)| *i);
        nodes
            .into_iter()
            .map(|(_, _, n)| {
                let mut label = format!("{} (pages {}-{})", n.title, n.start_index, n.end_index);
                if let Some(summary) = &n.summary {
                    label.push_str(": ");
                    label.extend(summary.chars().take(100));
                }
                (n.node_id.to_string(), label)
            })
            .collect()
    }

    /// Best pages of `node` (and its descendants) for the question, best first.
    pub(super) fn node_pages(&self, node: &str, n: usize) -> Vec<u32> {
        let Some(found) = self.doc.tree.find_node(node) else {
            return Vec::new();
        };
        let (lo, hi) = (found.start_index, found.end_index);
        let mut pages: Vec<u32> = self
            .ranking
            .iter()
            .filter(|h| h.page_no >= lo && h.page_no <= hi)
            .map(|h| h.page_no)
            .take(n)
            .collect();
        if pages.is_empty() {
            pages.push(lo);
        }
        pages
    }

    pub(super) fn data_point_queries(&self) -> Vec<QueryAnalysis> {
        self.trace
            .data_points
            .iter()
            .map(|dp| {
                let mut q = QueryAnalysis::new(dp);
                if q.years.is_empty() {
                    q.years.clone_from(&self.query.years);
                }
                q.statement = q.statement.or(self.query.statement);
                q.wants_number |= self.query.wants_number;
                q
            })
            .filter(|q| !q.terms.is_empty())
            .collect()
    }

    /// `agentic` and `agentic_graph`.
    pub(super) fn agentic(&mut self) -> Result<(String, Option<String>), AskError> {
        let question = self.query.question.clone();
        // (1) Decompose into data points.
        let reply = self.generate("decompose", &prompts::decompose(&question), false)?;
        let question_terms: HashSet<String> = self.query.all_terms().cloned().collect();
        let mut points: Vec<String> = prompts::parse::<prompts::DataPoints>(&reply)
            .map(|p| p.data_points)
            .unwrap_or_default()
            .into_iter()
            .map(|p| p.trim().to_string())
            .filter(|p| tokenize(p).iter().any(|t| question_terms.contains(t)))
            .collect();
        points.dedup();
        if points.is_empty() {
            points.push(question.clone());
        }
        self.trace.data_points = points;
        let data_points = self.data_point_queries();

        // (2) Round one: retrieval, plus the model's outline pick (or the graph's seeds).
        let mut seeds: Vec<u32> = Vec::new();
        let mut source = "retrieval+outline";
        if self.options.mode == Mode::AgenticGraph {
            source = "retrieval+graph";
            for hit in self.ranking.iter().filter(|h| h.graph > 0.0).take(3) {
                seeds.push(hit.page_no);
            }
        } else {
            let choices = self.outline_choices();
            if !choices.is_empty() {
                let listing: String = choices
                    .iter()
                    .map(|(id, label)| format!("{id}: {label}\n"))
                    .collect();
                let ids: Vec<&String> = choices.iter().map(|(id, _)| id).collect();
                let reply = self.generate(
                    "outline",
                    &prompts::outline(&listing, &ids, &question),
                    false,
                )?;
                for id in prompts::parse::<prompts::Sections>(&reply)
                    .map(|s| s.sections)
                    .unwrap_or_default()
                {
                    seeds.extend(self.node_pages(&id, 1));
                }
            }
        }
        let mut first: Vec<u32> = self.top_pages(4);
        first.extend(seeds);
        self.read(source, &first, &data_points);

        // (3) Rounds of reading and asking for more (at least two, at most five).
        for round in 2..=5 {
            if self.budget_left() == 0 {
                break;
            }
            let unread: Vec<PageHit> = self
                .ranking
                .iter()
                .filter(|h| !self.trace.pages_read.contains(&h.page_no))
                .take(6)
                .cloned()
                .collect();
            if unread.is_empty() {
                break;
            }
            let mut options: Vec<(String, u32)> = Vec::new();
            for h in &unread {
                let title = self
                    .doc
                    .tree
                    .find_node(h.node_id.as_str())
                    .map_or_else(String::new, |n| n.title.clone());
                options.push((format!("page {} ({})", h.page_no, title), h.page_no));
            }
            self.rank_evidence(&[]);
            let budget = self.budget_chars(40).min(1500);
            let (block, _) = self.evidence_block(6, budget);
            let labels: Vec<&String> = options.iter().map(|(l, _)| l).collect();
            let request = prompts::read_more(&block, &question, &labels);
            let reply = self.generate(&format!("round_{round}"), &request, false)?;
            let more = prompts::parse::<prompts::More>(&reply);
            let enough = more.as_ref().is_some_and(|m| m.enough);
            if enough && round > 2 {
                break;
            }
            let mut next: Vec<u32> = more
                .and_then(|m| {
                    options
                        .iter()
                        .find(|(l, _)| *l == m.read_next)
                        .map(|(_, p)| *p)
                })
                .into_iter()
                .collect();
            next.push(unread[0].page_no);
            self.read("model", &next, &data_points);
            if enough {
                break;
            }
        }

        // (4) Sufficiency: every data point needs a line that covers half its terms.
        for dp in &data_points {
            let covered = self
                .evidence
                .iter()
                .any(|s| self.doc.index.line_score(dp, s.line) >= 0.5);
            if covered || self.budget_left() == 0 {
                continue;
            }
            let targeted: Vec<u32> = self
                .doc
                .index
                .rank_pages(dp, &[])
                .iter()
                .map(|h| h.page_no)
                .filter(|p| !self.trace.pages_read.contains(p))
                .take(2)
                .collect();
            self.read("sufficiency", &targeted, std::slice::from_ref(dp));
        }
        self.step("read");

        // (5) Answer with reasoning.
        let (mut draft, mut reasoning) = self.agentic_answer()?;
        // (7) A refusal: retry once with keyword search over the pages read and the budget left.
        if is_refusal(&draft) {
            self.trace.verification.refusal_retry = true;
            let terms: Vec<String> = self.query.all_terms().cloned().collect();
            let found = self.doc.index.keyword_lines(&terms, 40);
            let mut extra_pages = Vec::new();
            for s in found {
                let read = self.trace.pages_read.contains(&s.page_no);
                if !read && !extra_pages.contains(&s.page_no) {
                    extra_pages.push(s.page_no);
                }
                if read && !self.evidence.iter().any(|e| overlaps(e, &s)) {
                    self.evidence.push(s);
                }
            }
            self.read("keyword", &extra_pages, &data_points);
            self.step("keyword");
            (draft, reasoning) = self.agentic_answer()?;
        }
        Ok((draft, reasoning))
    }

    pub(super) fn agentic_answer(&mut self) -> Result<(String, Option<String>), AskError> {
        self.rank_evidence(&[]);
        let budget = self.budget_chars(200);
        let (block, _) = self.evidence_block(8, budget.min(2400));
        if block.is_empty() {
            return Ok((String::new(), None));
        }
        let question = self.query.question.clone();
        let reply = self.generate("answer", &prompts::agentic_answer(&block, &question), true)?;
        Ok(match prompts::parse::<prompts::AgenticReply>(&reply) {
            Some(r) => (
                r.answer.trim().to_string(),
                Some(r.reasoning.trim().to_string()),
            ),
            None => (String::new(), None),
        })
    }
}
