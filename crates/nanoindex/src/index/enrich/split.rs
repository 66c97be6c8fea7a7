//! Tiers (b)–(d) of the split cascade for leaves still over the size limit after tier (a)
//! (headings inside the text, done by `nanoindex-tree` while it builds the tree):
//!
//! - (b) `llm_boundaries`: the model picks 3–8 subsection starts among the openings of the
//!   leaf's paragraphs (or sentences), copied verbatim; an opening that is not found in the
//!   text verbatim is rejected, and the tier fails when fewer than two survive;
//! - (c) `propositions`, for dense text (few paragraphs, or paragraphs over half the
//!   limit): the whole text, window by window, is turned into atomic claims, each tied to
//!   the sentence it came from; every child holds the verbatim source text from its
//!   sentence to the next claim's, with the claim as its title and `proposition`;
//! - (d) `paragraphs`: consecutive paragraphs packed up to the limit (sentences, then lines,
//!   when one paragraph is over it) — never fixed token windows — titled `<title> (part i
//!   of n)`.
//!
//! Children keep the exact text of the parent (their `source_span` says where it was); the
//! parent keeps the text before the first child as its own. A child still over the limit
//! is split again by tier (d).

use std::ops::Range;

use nanoindex_core::{estimate_tokens, SourceSpan, SplitMethod, TextPageSpan, TreeNode};
use nanoindex_llm::{GenerateRequest, LlmError};

use super::{node_at, prompts, Calls};
use crate::text::{
    boundaries, find_opening, head, opening_words, pack, paragraphs, sentences, title_of, Cuts,
};

/// What the cascade did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SplitStats {
    /// Leaves over the limit when the cascade started.
    pub oversized: usize,
    /// Leaves split by model-proposed boundaries (tier b).
    pub llm_boundaries: usize,
    /// Leaves split into propositions (tier c).
    pub propositions: usize,
    /// Leaves split into paragraph chunks (tier d), children re-split included.
    pub paragraphs: usize,
    /// Boundaries the model proposed that were not in the text verbatim.
    pub rejected_boundaries: usize,
    /// Propositions whose source sentence was not in the text verbatim, or empty claims.
    pub rejected_propositions: usize,
}

/// One child to be: a byte range of the parent's text and its title.
#[derive(Debug, Clone, PartialEq)]
struct Piece {
    range: Range<usize>,
    title: String,
    proposition: Option<String>,
}

/// Most openings shown to the model in tier (b).
const MAX_OPENINGS: usize = 40;
/// Words per opening.
const OPENING_WORDS: usize = 8;
/// Estimated tokens of text per proposition window (tier c).
const PROPOSITION_WINDOW_TOKENS: usize = 300;

/// Splits every leaf of `structure` whose text is over `limit` estimated tokens, with the
/// model when `calls` is given (tiers b and c) and by paragraphs otherwise. Node ids are
/// not reassigned here.
///
/// # Errors
///
/// Only model failures ([`LlmError`]); a reply that is not usable makes the tier fail and
/// the next one run.
pub(crate) fn split_oversized(
    structure: &mut [TreeNode],
    mut calls: Option<&mut Calls<'_, '_>>,
    limit: usize,
) -> Result<SplitStats, LlmError> {
    let mut stats = SplitStats::default();
    let mut paths = Vec::new();
    collect_oversized(structure, limit, &mut Vec::new(), &mut paths);
    stats.oversized = paths.len();
    for path in paths {
        let node = node_at(structure, &path);
        let text = node.text.clone().unwrap_or_default();
        let keep = heading_end(&node.title, &text);
        let mut plan = None;
        if let Some(calls) = calls.as_deref_mut() {
            plan = llm_boundaries(node, &text, keep, calls, &mut stats)?
                .map(|pieces| (pieces, SplitMethod::LlmBoundaries));
            if plan.is_none() && is_dense(&text, limit) {
                plan = propositions(&text, keep, calls, &mut stats)?
                    .map(|p| (p, SplitMethod::Propositions));
            }
        }
        let (pieces, method) = plan.unwrap_or_else(|| {
            (
                paragraph_chunks(&node.title, &text, keep, limit),
                SplitMethod::Paragraphs,
            )
        });
        if pieces.len() < 2 && pieces.first().is_none_or(|p| p.range.start <= keep) {
            continue;
        }
        match method {
            SplitMethod::LlmBoundaries => stats.llm_boundaries += 1,
            SplitMethod::Propositions => stats.propositions += 1,
            SplitMethod::Headings | SplitMethod::Paragraphs => stats.paragraphs += 1,
        }
        apply(node, &text, pieces, method);
        for child in &mut node.nodes {
            let child_text = child.text.clone().unwrap_or_default();
            if estimate_tokens(&child_text) > limit {
                let keep = heading_end(&child.title, &child_text);
                let pieces = paragraph_chunks(&child.title, &child_text, keep, limit);
                if pieces.len() >= 2 {
                    stats.paragraphs += 1;
                    apply(child, &child_text, pieces, SplitMethod::Paragraphs);
                }
            }
        }
    }
    Ok(stats)
}

/// Where the heading paragraph at the start of a node's text ends: when the first paragraph
/// is one short line that begins like the title (`ITEM 1A. RISK FACTORS` for `Item 1A. Risk
/// Factors`), the start of the second paragraph, so that the heading stays the parent's own
/// text; else 0.
fn heading_end(title: &str, text: &str) -> usize {
    let paras = paragraphs(text);
    let (Some(first), Some(second)) = (paras.first(), paras.get(1)) else {
        return 0;
    };
    let head = &text[first.clone()];
    let word = |s: &str| {
        s.split(|c: char| !c.is_alphanumeric())
            .find(|w| !w.is_empty())
            .map(str::to_lowercase)
    };
    let short = !head.contains('\n') && head.chars().count() <= 120;
    if short && word(head).is_some() && word(head) == word(title) {
        second.start
    } else {
        0
    }
}

fn collect_oversized(
    nodes: &[TreeNode],
    limit: usize,
    path: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    for (i, node) in nodes.iter().enumerate() {
        path.push(i);
        if node.nodes.is_empty() {
            if node
                .text
                .as_deref()
                .is_some_and(|t| estimate_tokens(t) > limit)
            {
                out.push(path.clone());
            }
        } else {
            collect_oversized(&node.nodes, limit, path, out);
        }
        path.pop();
    }
}

/// Dense text: fewer than three paragraphs, or a paragraph over half the limit — paragraph
/// chunks would be blind cuts there.
fn is_dense(text: &str, limit: usize) -> bool {
    let paras = paragraphs(text);
    paras.len() < 3
        || paras
            .iter()
            .any(|p| estimate_tokens(&text[p.clone()]) > limit / 2)
}

/// Places where a child may start: paragraph starts, plus sentence starts when there are
/// fewer than four paragraphs. Offset 0 is excluded.
fn candidate_starts(text: &str) -> Vec<usize> {
    let paras = paragraphs(text);
    let mut starts: Vec<usize> = paras.iter().map(|p| p.start).filter(|&s| s > 0).collect();
    if starts.len() < 4 {
        for p in &paras {
            starts.extend(
                sentences(text, p.clone(), Cuts::Sentences)
                    .into_iter()
                    .map(|s| s.start)
                    .filter(|&s| s > 0),
            );
        }
        starts.sort_unstable();
        starts.dedup();
    }
    starts
}

/// Tier (b).
fn llm_boundaries(
    node: &TreeNode,
    text: &str,
    keep: usize,
    calls: &mut Calls<'_, '_>,
    stats: &mut SplitStats,
) -> Result<Option<Vec<Piece>>, LlmError> {
    let mut starts = candidate_starts(text);
    starts.retain(|&s| s > keep);
    if starts.len() < 3 {
        return Ok(None);
    }
    let stride = starts.len().div_ceil(MAX_OPENINGS);
    let mut shown: Vec<(usize, String)> = Vec::new();
    for &s in starts.iter().step_by(stride) {
        let opening = opening_words(text, s, OPENING_WORDS);
        if !opening.is_empty() && !shown.iter().any(|(_, o)| *o == opening) {
            shown.push((s, opening));
        }
    }
    if shown.len() < 3 {
        return Ok(None);
    }
    let openings: Vec<&str> = shown.iter().map(|(_, o)| o.as_str()).collect();
    let request = prompts::boundaries(&node.title, &openings);
    let reply = calls.one(&request)?;
    let chosen: Vec<String> = serde_json::from_str::<serde_json::Value>(&reply.text)
        .ok()
        .and_then(|v| v.get("boundaries").cloned())
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    let mut accepted: Vec<usize> = Vec::new();
    for b in &chosen {
        match find_opening(text, &starts, b) {
            Some(at) if at > 0 => accepted.push(at),
            Some(_) => {}
            None => stats.rejected_boundaries += 1,
        }
    }
    accepted.sort_unstable();
    accepted.dedup();
    if accepted.len() < 2 {
        return Ok(None);
    }
    Ok(Some(pieces_from_starts(text, &accepted, |_| None)))
}

/// Tier (c).
fn propositions(
    text: &str,
    keep: usize,
    calls: &mut Calls<'_, '_>,
    stats: &mut SplitStats,
) -> Result<Option<Vec<Piece>>, LlmError> {
    let sentence_ranges: Vec<Range<usize>> = paragraphs(text)
        .into_iter()
        .filter(|p| p.start >= keep)
        .flat_map(|p| sentences(text, p, Cuts::Sentences))
        .collect();
    let sentence_starts: Vec<usize> = sentence_ranges.iter().map(|s| s.start).collect();
    let windows = pack(
        text,
        keep..text.len(),
        &sentence_starts,
        PROPOSITION_WINDOW_TOKENS,
    );
    let mut requests = Vec::new();
    let mut window_starts: Vec<Vec<usize>> = Vec::new();
    for w in &windows {
        let starts: Vec<usize> = sentence_starts
            .iter()
            .copied()
            .filter(|s| w.contains(s))
            .collect();
        let mut openings: Vec<String> = Vec::new();
        for &s in &starts {
            let o = opening_words(text, s, 6);
            if !o.is_empty() && !openings.contains(&o) {
                openings.push(o);
            }
        }
        if openings.is_empty() {
            window_starts.push(Vec::new());
            requests.push(None);
            continue;
        }
        requests.push(Some(prompts::propositions(
            head(&text[w.clone()], 2 * PROPOSITION_WINDOW_TOKENS),
            &openings,
        )));
        window_starts.push(starts);
    }
    let live: Vec<GenerateRequest> = requests.iter().flatten().cloned().collect();
    let mut replies = calls.batch(&live)?.into_iter();
    let mut claims: Vec<(usize, String)> = Vec::new();
    for (request, starts) in requests.iter().zip(&window_starts) {
        if request.is_none() {
            continue;
        }
        let Some(reply) = replies.next() else { break };
        let items: Vec<serde_json::Value> = serde_json::from_str::<serde_json::Value>(&reply.text)
            .ok()
            .and_then(|v| v.get("propositions").cloned())
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default();
        for item in items {
            let claim = item
                .get("claim")
                .and_then(|c| c.as_str())
                .unwrap_or("")
                .trim()
                .to_string();
            let source = item.get("source").and_then(|s| s.as_str()).unwrap_or("");
            match find_opening(text, starts, source) {
                Some(at) if claim.split_whitespace().count() >= 3 => {
                    if !claims.iter().any(|(a, _)| *a == at) {
                        claims.push((at, claim));
                    }
                }
                _ => stats.rejected_propositions += 1,
            }
        }
    }
    claims.sort_by_key(|(at, _)| *at);
    if claims.len() < 2 {
        return Ok(None);
    }
    let starts: Vec<usize> = claims.iter().map(|(at, _)| *at).collect();
    Ok(Some(pieces_from_starts(text, &starts, |i| {
        Some(claims[i].1.clone())
    })))
}

/// Tier (d): paragraphs packed up to `limit`; a paragraph over the limit is cut at its
/// sentences, a sentence over it at its lines. Pieces are titled `<title> (part i of n)`:
/// their first lines are arbitrary, the parent's title is what they share.
fn paragraph_chunks(title: &str, text: &str, keep: usize, limit: usize) -> Vec<Piece> {
    let bounds = boundaries(text, limit);
    let ranges = pack(text, keep..text.len(), &bounds, limit);
    let n = ranges.len();
    ranges
        .into_iter()
        .enumerate()
        .map(|(i, range)| Piece {
            title: format!("{} (part {} of {n})", title_of(title, 80), i + 1),
            range,
            proposition: None,
        })
        .collect()
}

/// Pieces from sorted child starts: each runs to the next start (the last to the end).
fn pieces_from_starts(
    text: &str,
    starts: &[usize],
    proposition: impl Fn(usize) -> Option<String>,
) -> Vec<Piece> {
    starts
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let end = starts.get(i + 1).copied().unwrap_or(text.len());
            let prop = proposition(i);
            let title = match &prop {
                Some(claim) => title_of(claim, 100),
                None => title_of(&text[s..end], 80),
            };
            Piece {
                range: s..end,
                title,
                proposition: prop,
            }
        })
        .collect()
}

/// Turns `pieces` of `text` (the node's own text) into children of `node`.
fn apply(node: &mut TreeNode, text: &str, pieces: Vec<Piece>, method: SplitMethod) {
    let intro_end = pieces.first().map_or(text.len(), |p| p.range.start);
    let mut children = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let Range { start, end } = piece.range;
        let body = &text[start..end];
        let trimmed_end = start + body.trim_end().len();
        let first_page = node.page_of_offset(start);
        let last_page = node.page_of_offset(trimmed_end.saturating_sub(1).max(start));
        let mut child = TreeNode::new(piece.title, first_page, last_page.max(first_page));
        child.text = Some(text[start..trimmed_end].to_string());
        child.text_pages = std::iter::once(TextPageSpan {
            page: first_page,
            offset: 0,
        })
        .chain(
            node.text_pages
                .iter()
                .filter(|p| p.offset > start && p.offset < trimmed_end)
                .map(|p| TextPageSpan {
                    page: p.page,
                    offset: p.offset - start,
                }),
        )
        .collect();
        child.source_span = Some(SourceSpan {
            start,
            end: trimmed_end,
        });
        child.proposition = piece.proposition;
        child.confidence = node.confidence;
        child.bounding_boxes = node
            .bounding_boxes
            .iter()
            .filter(|b| b.region_type != "heading" && (first_page..=last_page).contains(&b.page))
            .cloned()
            .collect();
        children.push(child);
    }
    let intro = text[..intro_end].trim_end();
    node.text = (!intro.trim().is_empty()).then(|| intro.to_string());
    node.text_pages.retain(|p| p.offset < intro.len().max(1));
    node.split_method = Some(method);
    node.nodes = children;
}

#[cfg(test)]
mod tests {
    use super::*;
    use nanoindex_llm::ScriptedGenerator;

    fn leaf(text: &str) -> TreeNode {
        let mut n = TreeNode::new("Terms", 3, 4);
        n.text = Some(text.to_string());
        n.text_pages = vec![
            TextPageSpan { page: 3, offset: 0 },
            TextPageSpan {
                page: 4,
                offset: text.find("Payment").unwrap_or(0),
            },
        ];
        n
    }

    fn contract() -> String {
        let mut text = String::from("These terms apply to every order.\n\n");
        for (topic, n) in [
            ("Delivery", 6),
            ("Payment", 6),
            ("Warranty", 6),
            ("Liability", 6),
        ] {
            for i in 0..n {
                text.push_str(&format!(
                    "{topic} rule {i} says the supplier and the customer agree on {topic} \
                     matters in detail here.\n\n"
                ));
            }
        }
        text.trim_end().to_string()
    }

    #[test]
    fn verified_model_boundaries_split_the_leaf_verbatim() {
        let text = contract();
        let mut structure = vec![leaf(&text)];
        let mut llm = ScriptedGenerator::new([
            r#"{"boundaries": ["Payment rule 0 says the supplier and the", "Warranty rule 0 says the supplier and the", "Nowhere in this text at all"]}"#,
        ]);
        let mut calls = Calls::new(&mut llm, 4);
        let stats = split_oversized(&mut structure, Some(&mut calls), 200).unwrap();
        let node = &structure[0];
        assert_eq!(node.split_method, Some(SplitMethod::LlmBoundaries));
        assert_eq!(stats.rejected_boundaries, 1);
        let titles: Vec<&str> = node.nodes.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(titles.len(), 2, "{titles:?}");
        assert!(titles[0].starts_with("Payment rule 0"));
        assert!(titles[1].starts_with("Warranty rule 0"));
        // The parent keeps the text before the first boundary; children are verbatim.
        assert!(node
            .text
            .as_deref()
            .unwrap()
            .ends_with("Delivery matters in detail here."));
        let first = &node.nodes[0];
        let span = first.source_span.unwrap();
        assert_eq!(&text[span.start..span.end], first.text.as_deref().unwrap());
        assert_eq!(first.start_index, 4);
        // The second child (Warranty and Liability) is still over the limit: re-split by
        // paragraphs, its pieces verbatim slices of its own text.
        let second = &node.nodes[1];
        assert_eq!(second.split_method, Some(SplitMethod::Paragraphs));
        let own = &text[second.source_span.unwrap().start..second.source_span.unwrap().end];
        for piece in &second.nodes {
            let s = piece.source_span.unwrap();
            assert_eq!(&own[s.start..s.end], piece.text.as_deref().unwrap());
        }
        assert!(second
            .nodes
            .last()
            .unwrap()
            .text
            .as_deref()
            .unwrap()
            .contains("Liability rule 5"));
    }

    #[test]
    fn a_reply_with_unverifiable_boundaries_falls_back_to_paragraphs() {
        let text = contract();
        let mut structure = vec![leaf(&text)];
        let mut llm = ScriptedGenerator::new([
            r#"{"boundaries": ["Payment rules begin here", "Warranty is next"]}"#,
        ]);
        let mut calls = Calls::new(&mut llm, 4);
        let stats = split_oversized(&mut structure, Some(&mut calls), 200).unwrap();
        assert_eq!(stats.rejected_boundaries, 2);
        let node = &structure[0];
        assert_eq!(node.split_method, Some(SplitMethod::Paragraphs));
        assert!(node.nodes.len() >= 3, "{}", node.nodes.len());
        for child in &node.nodes {
            assert!(estimate_tokens(child.text.as_deref().unwrap()) <= 200);
            // Paragraph chunks start at a paragraph.
            let span = child.source_span.unwrap();
            assert!(span.start == 0 || text[..span.start].ends_with("\n\n"));
        }
        let joined: String = node
            .nodes
            .iter()
            .map(|c| c.text.clone().unwrap())
            .collect::<Vec<_>>()
            .join("\n\n");
        assert_eq!(joined, text, "paragraph chunks lose nothing");
    }

    #[test]
    fn propositions_keep_verbatim_source_spans() {
        // One dense paragraph: no blank lines.
        let sentences_text: Vec<String> = (0..30)
            .map(|i| {
                format!("Clause {i} obliges the lessee to keep the premises insured at all times.")
            })
            .collect();
        let text = sentences_text.join(" ");
        let mut structure = vec![leaf(&text)];
        let windows = pack(
            &text,
            0..text.len(),
            &sentences(&text, 0..text.len(), Cuts::Sentences)
                .iter()
                .map(|s| s.start)
                .collect::<Vec<_>>(),
            PROPOSITION_WINDOW_TOKENS,
        )
        .len();
        // Boundaries reply (rejected: too few), then one reply per window.
        let mut replies = vec![r#"{"boundaries": []}"#.to_string()];
        replies.push(
            r#"{"propositions": [{"claim": "The lessee must insure the premises.", "source": "Clause 3 obliges the lessee to keep"}, {"claim": "Invented claim with invented source text.", "source": "The moon is made of"}, {"claim": "The lessee keeps premises insured always.", "source": "Clause 9 obliges the lessee to keep"}]}"#.to_string(),
        );
        for _ in 1..windows {
            replies.push(r#"{"propositions": []}"#.to_string());
        }
        let mut llm = ScriptedGenerator::new(replies);
        let mut calls = Calls::new(&mut llm, 4);
        let stats = split_oversized(&mut structure, Some(&mut calls), 200).unwrap();
        let node = &structure[0];
        assert_eq!(node.split_method, Some(SplitMethod::Propositions));
        assert_eq!(stats.rejected_propositions, 1);
        assert_eq!(node.nodes.len(), 2);
        let first = &node.nodes[0];
        assert_eq!(
            first.proposition.as_deref(),
            Some("The lessee must insure the premises.")
        );
        let span = first.source_span.unwrap();
        assert!(text[span.start..].starts_with("Clause 3 obliges"));
        assert!(first
            .text
            .as_deref()
            .unwrap()
            .starts_with("Clause 3 obliges"));
        // The whole node was processed: the last child runs to the end of the text.
        assert_eq!(node.nodes[1].source_span.unwrap().end, text.len());
        assert!(text.starts_with(node.text.as_deref().unwrap()));
    }

    #[test]
    fn without_a_model_paragraph_chunks_respect_the_limit() {
        let text = contract();
        let mut structure = vec![leaf(&text)];
        let stats = split_oversized(&mut structure, None, 120).unwrap();
        assert_eq!(stats.paragraphs, 1);
        assert!(structure[0]
            .nodes
            .iter()
            .all(|c| estimate_tokens(c.text.as_deref().unwrap()) <= 120));
        // A heading line at the start stays the parent's own text.
        let headed = format!("TERMS AND CONDITIONS\n\n{text}");
        let mut structure = vec![leaf(&headed)];
        split_oversized(&mut structure, None, 120).unwrap();
        assert_eq!(structure[0].text.as_deref(), Some("TERMS AND CONDITIONS"));
        assert!(structure[0].nodes[0]
            .text
            .as_deref()
            .unwrap()
            .starts_with("These terms apply"));
        // A leaf under the limit is left alone.
        let mut small = vec![leaf("Short text.")];
        let stats = split_oversized(&mut small, None, 120).unwrap();
        assert_eq!(stats.oversized, 0);
        assert!(small[0].nodes.is_empty() && small[0].split_method.is_none());
    }
}
