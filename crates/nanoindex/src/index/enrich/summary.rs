//! Node summaries and the document description.
//!
//! Every node whose prose (its own text less table rows, module `read`) is at least
//! [`MIN_SUMMARY_TOKENS`] gets a summary of it: the summaries the model wrote when it read
//! the prose's windows, combined into one when there are several. A node whose text is a
//! table of figures and little else is not paraphrased: its summary says what the table is,
//! from its title and column heads (no model). A node with children is summarised from its
//! own summary and its children's titles and summaries, deepest nodes first; where only one
//! of those summaries exists (its own, or one child's) it is the parent's, without asking the
//! model to say it again. All requests
//! of one stage go to the model together, several sequences per batch.
//!
//! A summary is kept only when it is usable: not empty, not degenerate (a phrase repeated
//! over and over) and not a copy of the text's first sentence. A rejected summary is asked
//! for again: as the next turns of its conversation when the window was read for entities
//! too (module `read`, at most [`super::SUMMARY_TURNS`] turns, and not read again alone),
//! otherwise alone with a stricter instruction; and then left out.

use std::collections::{HashMap, HashSet};

use nanoindex_core::tree::row_key;
use nanoindex_core::{estimate_tokens, TreeNode};
use nanoindex_llm::{GenerateRequest, LlmError};

use super::read::{prose, Reading, Window};
use super::{node_at, prompts, Calls};
use crate::text::{head, paragraphs, sentences, Cuts};

/// Nodes with less prose than this (estimated tokens) get no summary of their own text;
/// a parent still gets one from its children.
pub const MIN_SUMMARY_TOKENS: usize = 40;

/// Fewest figure rows that make a node without enough prose a table of figures.
const MIN_TABLE_ROWS: usize = 3;

/// What summarisation did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SummaryStats {
    /// Nodes that received a summary.
    pub summarised: usize,
    /// Nodes whose text was summarised in more than one part.
    pub in_parts: usize,
    /// Nodes of table rows described from their table's title and column heads (no model).
    pub tables: usize,
    /// Replies rejected (empty, degenerate, or a copy of the first sentence).
    pub rejected: usize,
    /// Nodes left without a summary after the retry.
    pub missing: usize,
}

/// One node's place in the tree and what it needs.
struct Target {
    path: Vec<usize>,
    depth: usize,
    title: String,
    /// The node's prose (own text less figure rows).
    own_text: String,
    has_children: bool,
    /// For a node of table rows with too little prose: what the table is.
    table: Option<String>,
}

/// Writes `summary` on every node of `structure` that is large enough, from the readings of
/// its prose's `windows` (one [`Reading`] per window, in order; a summary missing or not
/// usable is asked for now, alone). `rows` are the tree's figure rows ([`row_key`]s).
/// `budget` is the most estimated tokens of source text per request.
///
/// # Errors
///
/// Model failures only.
pub(crate) fn summarize(
    structure: &mut [TreeNode],
    calls: &mut Calls<'_, '_>,
    windows: &[Window],
    readings: &[Reading],
    rows: &HashSet<String>,
    budget: usize,
) -> Result<SummaryStats, LlmError> {
    let mut stats = SummaryStats::default();
    let mut targets = Vec::new();
    collect(structure, rows, &mut Vec::new(), &mut targets);
    let index: HashMap<&[usize], usize> = targets
        .iter()
        .enumerate()
        .map(|(t, target)| (target.path.as_slice(), t))
        .collect();

    // Stage 1: the summary of every window, read with its entities; a window whose summary
    // is missing or not usable, and was not asked again in its conversation, is asked for
    // it alone.
    let mut window_summary: Vec<Option<String>> = Vec::with_capacity(windows.len());
    let mut retry = Vec::new();
    let mut retry_at = Vec::new();
    for (w, (window, reading)) in windows.iter().zip(readings).enumerate() {
        let text = reading.summary.as_deref().map(clean).unwrap_or_default();
        // Rejected, and asked again in its conversation when it was read.
        stats.rejected += reading.retried;
        if usable(&text, &window.text) {
            window_summary.push(Some(text));
        } else if reading.retried > 0 {
            // Its conversation had its retries; not read again.
            stats.rejected += 1;
            window_summary.push(None);
        } else {
            // Asked alone, with the stricter instruction (a window read for its summary
            // only, in a batch, or one whose reading was skipped).
            if reading.summary.is_some() {
                stats.rejected += 1;
            }
            window_summary.push(None);
            retry.push(prompts::summary_retry(&prompts::summary(
                &window.title,
                &window.text,
                false,
            )));
            retry_at.push(w);
        }
    }
    for (w, reply) in retry_at.into_iter().zip(calls.batch(&retry)?) {
        let text = clean(&reply.text);
        if usable(&text, &windows[w].text) {
            window_summary[w] = Some(text);
        } else {
            stats.rejected += 1;
        }
    }
    let mut own_summary: Vec<Option<String>> = vec![None; targets.len()];
    let mut pieces: Vec<Vec<String>> = vec![Vec::new(); targets.len()];
    for (window, summary) in windows.iter().zip(window_summary) {
        if let (Some(&t), Some(s)) = (index.get(window.path.as_slice()), summary) {
            pieces[t].push(s);
        }
    }
    for (t, target) in targets.iter().enumerate() {
        if let Some(table) = &target.table {
            stats.tables += 1;
            own_summary[t] = Some(table.clone());
        }
    }
    // Stage 2: combine the parts of long texts.
    let mut combine_owner = Vec::new();
    let mut combine_requests = Vec::new();
    let mut combine_sources = Vec::new();
    for (t, p) in pieces.iter_mut().enumerate() {
        match p.len() {
            0 => {}
            1 => own_summary[t] = p.pop(),
            _ => {
                stats.in_parts += 1;
                let joined = p.join("\n");
                combine_requests.push(prompts::combine(&targets[t].title, &joined));
                combine_sources.push(targets[t].own_text.clone());
                combine_owner.push(t);
            }
        }
    }
    let combined = checked(calls, &combine_requests, &combine_sources, &mut stats)?;
    for (t, s) in combine_owner.into_iter().zip(combined) {
        own_summary[t] = s;
    }
    let mut summary: Vec<Option<String>> = targets
        .iter()
        .zip(&own_summary)
        .map(|(t, s)| if t.has_children { None } else { s.clone() })
        .collect();

    // Stage 3: parents, deepest first, from their own summary and their children's.
    let max_depth = targets.iter().map(|t| t.depth).max().unwrap_or(0);
    for depth in (0..=max_depth).rev() {
        let mut owners = Vec::new();
        let mut requests = Vec::new();
        let mut sources = Vec::new();
        for (t, target) in targets.iter().enumerate() {
            if target.depth != depth || !target.has_children {
                continue;
            }
            let kids: Vec<usize> = targets
                .iter()
                .enumerate()
                .filter(|(_, c)| c.depth == depth + 1 && c.path.starts_with(&target.path))
                .map(|(c, _)| c)
                .collect();
            let children: Vec<String> = kids
                .iter()
                .map(|&c| match &summary[c] {
                    Some(s) => format!("- {}: {s}", targets[c].title),
                    None => format!("- {}", targets[c].title),
                })
                .collect();
            let mut summarised = kids.iter().filter_map(|&c| summary[c].as_ref());
            let (first, second) = (summarised.next().cloned(), summarised.next());
            match (&own_summary[t], first, second) {
                (None, None, _) => continue,
                // Nothing to combine: the one summary there is says what the model would
                // be asked to say again (a section whose text is its one subsection; one
                // whose subsections got none).
                (None, Some(only), None) if kids.len() == 1 => {
                    summary[t] = Some(only);
                    continue;
                }
                (Some(own), None, _) => {
                    summary[t] = Some(own.clone());
                    continue;
                }
                _ => {}
            }
            let mut context = String::new();
            if let Some(s) = &own_summary[t] {
                context.push_str(&format!("Introduction: {s}\n"));
            }
            context.push_str("Subsections:\n");
            context.push_str(head(&children.join("\n"), budget));
            requests.push(prompts::summary(&target.title, &context, true));
            sources.push(target.own_text.clone());
            owners.push(t);
        }
        let done = checked(calls, &requests, &sources, &mut stats)?;
        for (t, s) in owners.into_iter().zip(done) {
            summary[t] = s;
        }
    }
    for (target, s) in targets.iter().zip(summary) {
        let big = estimate_tokens(&target.own_text) >= MIN_SUMMARY_TOKENS;
        match s {
            Some(s) => {
                stats.summarised += 1;
                node_at(structure, &target.path).summary = Some(s);
            }
            None if big => stats.missing += 1,
            None => {}
        }
    }
    Ok(stats)
}

/// A one-sentence description of the document from its top-level titles and summaries.
///
/// # Errors
///
/// Model failures only; `Ok(None)` when the reply is not usable.
pub(crate) fn describe(
    doc_name: &str,
    structure: &[TreeNode],
    calls: &mut Calls<'_, '_>,
    budget: usize,
) -> Result<Option<String>, LlmError> {
    let outline: Vec<String> = structure
        .iter()
        .map(|n| match &n.summary {
            Some(s) => format!("- {}: {s}", n.title),
            None => format!("- {}", n.title),
        })
        .collect();
    let first_text = structure
        .iter()
        .find_map(|n| n.text.as_deref())
        .unwrap_or("");
    let request = prompts::description(
        doc_name,
        head(first_text, budget / 4),
        head(&outline.join("\n"), budget * 3 / 4),
    );
    let reply = calls.one(&request)?;
    let text = clean(&reply.text);
    Ok((!text.is_empty() && !crate::text::is_repetitive(&text)).then_some(text))
}

fn collect(
    nodes: &[TreeNode],
    rows: &HashSet<String>,
    path: &mut Vec<usize>,
    out: &mut Vec<Target>,
) {
    for (i, node) in nodes.iter().enumerate() {
        path.push(i);
        let (own_text, left_out) = prose(node.text.as_deref().unwrap_or(""), rows);
        let table = (left_out >= MIN_TABLE_ROWS && estimate_tokens(&own_text) < MIN_SUMMARY_TOKENS)
            .then(|| table_summary(node, rows));
        out.push(Target {
            path: path.clone(),
            depth: path.len(),
            title: node.title.clone(),
            own_text,
            has_children: !node.nodes.is_empty(),
            table,
        });
        collect(&node.nodes, rows, path, out);
        path.pop();
    }
}

/// What a node of table rows holds, from its first table's title and column heads and its
/// first row labels (the node's own title and row lines when the tree kept no table on it):
/// `Table of figures: Revenue by segment. Columns: 2024, 2023. Rows: Cloud, Devices, …`.
fn table_summary(node: &TreeNode, rows: &HashSet<String>) -> String {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let table = node.tables.iter().find(|t| !t.cells.is_empty());
    let title = table
        .map(|t| squash(&t.title))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| squash(&node.title));
    let mut out = format!("Table of figures: {}.", title.trim_end_matches('.'));
    if let Some(table) = table {
        let heads: Vec<String> = table
            .headers
            .iter()
            .skip(1)
            .map(|h| squash(h))
            .filter(|h| !h.is_empty())
            .collect();
        if !heads.is_empty() {
            out.push_str(&format!(" Columns: {}.", heads.join(", ")));
        }
    }
    // Row labels: a row's first cell, or the text of its line before the first figure.
    let labels: Vec<String> = match table {
        Some(t) => t
            .cells
            .iter()
            .filter_map(|r| r.first())
            .map(|c| squash(&c.text))
            .collect(),
        None => node
            .text
            .as_deref()
            .unwrap_or("")
            .lines()
            .filter(|l| rows.contains(&row_key(l)))
            .map(|l| {
                let end = l.find(|c: char| c.is_ascii_digit() || c == '$' || c == '(');
                squash(&l[..end.unwrap_or(l.len())])
            })
            .collect(),
    };
    let labels: Vec<&str> = labels
        .iter()
        .map(|l| l.trim_end_matches([' ', '.', ':']))
        .filter(|l| l.chars().any(char::is_alphabetic))
        .collect();
    if !labels.is_empty() {
        let shown = labels.len().min(6);
        let more = if labels.len() > shown { ", …" } else { "" };
        out.push_str(&format!(" Rows: {}{more}.", labels[..shown].join(", ")));
    }
    out
}

/// Runs `requests` (batched) and checks each reply against its source text; rejected ones
/// are asked once more with a stricter instruction.
fn checked(
    calls: &mut Calls<'_, '_>,
    requests: &[GenerateRequest],
    sources: &[String],
    stats: &mut SummaryStats,
) -> Result<Vec<Option<String>>, LlmError> {
    let replies = calls.batch(requests)?;
    let mut out: Vec<Option<String>> = Vec::with_capacity(replies.len());
    let mut retry = Vec::new();
    let mut retry_at = Vec::new();
    for (i, reply) in replies.iter().enumerate() {
        let text = clean(&reply.text);
        if usable(&text, &sources[i]) {
            out.push(Some(text));
        } else {
            stats.rejected += 1;
            out.push(None);
            retry.push(prompts::summary_retry(&requests[i]));
            retry_at.push(i);
        }
    }
    let second = calls.batch(&retry)?;
    for (i, reply) in retry_at.into_iter().zip(second) {
        let text = clean(&reply.text);
        if usable(&text, &sources[i]) {
            out[i] = Some(text);
        } else {
            stats.rejected += 1;
        }
    }
    Ok(out)
}

/// Trims the reply, drops a leading `Summary:` label, ends it where it starts to loop
/// ([`crate::text::loop_start`]), and cuts a sentence left unfinished by the token limit
/// or the loop (when a finished one comes before it).
pub(crate) fn clean(reply: &str) -> String {
    let text = reply.trim();
    let text = crate::text::loop_start(text).map_or(text, |at| text[..at].trim_end());
    let text = ["Summary:", "**Summary:**", "Summary -"]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .unwrap_or(text);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.ends_with(['.', '!', '?', '"', ')']) {
        return text;
    }
    match text.rfind(". ") {
        Some(end) if end > 20 => text[..=end].to_string(),
        _ => text,
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Replies that restate the prompt's own labels (`Section: …`, `Subsections:`) instead of
/// summarising.
fn echoes_prompt(summary: &str) -> bool {
    let lower = summary.trim_start().to_lowercase();
    [
        "section:",
        "subsections:",
        "introduction:",
        "text:",
        "summaries of its",
    ]
    .iter()
    .any(|label| lower.starts_with(label) || lower.contains(&format!(" {label}")))
}

/// A summary is usable when it has at least four words, three of them words of letters
/// (not a date stamp or a row of figures), is not degenerate, is not the source's first line
/// (its heading) or first sentence (nor that sentence with a few words added or cut), and
/// does not restate the prompt's labels.
pub(crate) fn usable(summary: &str, source: &str) -> bool {
    let s = words(summary);
    let lettered = s
        .iter()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 3)
        .count();
    if s.len() < 4 || lettered < 3 || crate::text::is_repetitive(summary) || echoes_prompt(summary)
    {
        return false;
    }
    let heading = words(source.lines().find(|l| !l.trim().is_empty()).unwrap_or(""));
    if s.len() <= heading.len() + 1 && s.iter().all(|w| heading.contains(w)) {
        return false;
    }
    let Some(first) = paragraphs(source)
        .into_iter()
        .flat_map(|p| sentences(source, p, Cuts::Sentences))
        .map(|r| words(&source[r]))
        .find(|w| w.len() >= 3)
    else {
        return true;
    };
    let copies = |s: &[String]| {
        let shared_prefix = s.iter().zip(&first).take_while(|(a, b)| a == b).count();
        shared_prefix >= first.len().min(s.len()).saturating_sub(2).max(3)
            && shared_prefix * 10 >= s.len() * 7
    };
    // "This section of the …" followed by the first sentence is a copy all the same: the
    // summary is also compared from after each of its opening filler words.
    let mut from = s.as_slice();
    if copies(from) {
        return false;
    }
    if from.starts_with(&["this".to_string(), "section".to_string()]) {
        from = &from[2..];
        loop {
            if copies(from) {
                return false;
            }
            match from.first() {
                Some(w) if ["of", "is", "the", "covers"].contains(&w.as_str()) => {
                    from = &from[1..];
                }
                _ => break,
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_looping_reply_keeps_its_sentences_before_the_loop() {
        let reply = "This section is a summary of the current report, detailing the key \
                     findings and statistics. It includes the date of the report, the date of \
                     the first report, the date of the first report, the date of the first";
        assert_eq!(
            clean(reply),
            "This section is a summary of the current report, detailing the key findings and \
             statistics."
        );
        // A reply without a loop is only trimmed.
        assert_eq!(
            clean("  Summary: The lease runs five years.  "),
            "The lease runs five years."
        );
    }

    #[test]
    fn copies_of_the_first_sentence_are_not_summaries() {
        let source = "The company leases its headquarters in Austin. Rent is $2 million a year.";
        assert!(!usable(
            "The company leases its headquarters in Austin.",
            source
        ));
        assert!(!usable(
            "The company leases its headquarters in Austin, Texas.",
            source
        ));
        assert!(!usable("  ", source));
        assert!(!usable("Section: Quarterly Financial Report", source));
        // A date stamp, and the heading copied.
        assert!(!usable(
            "2023-06-03T09:22:22.14.23.18.00.00.00.json",
            source
        ));
        assert!(!usable(
            "Section 202. Governing Law.",
            "Section 202. Governing Law.\nThis Indenture is governed by New York law."
        ));
        assert_eq!(
            clean("Summary: The lease runs to 2030. Rent rises by 3% each"),
            "The lease runs to 2030."
        );
        assert!(!usable(
            "rent rent rent rent rent rent rent rent rent rent rent rent rent",
            source
        ));
        assert!(usable(
            "This section describes the Austin headquarters lease and its $2 million annual rent.",
            source
        ));
        assert!(!usable(
            "This section of the company leases its headquarters in Austin.",
            source
        ));
    }
}
