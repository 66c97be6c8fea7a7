//! The retrieval index of one document: page-sized passages (a node's text on one page) with
//! BM25 and optional dense vectors, the lines of every page, node titles and the graph's
//! entities and cross-references.

use std::collections::{BTreeMap, HashMap, HashSet};

use bm25::{Embedder, EmbedderBuilder, Embedding, Scorer, TokenEmbedder, TokenEmbedding};
use nanoindex_core::tree::row_key;
use nanoindex_core::{BoundingBox, DocumentGraph, DocumentTree, EntityType, NodeId, TreeNode};

use crate::analysis::{tokenize, FinancialTokenizer};
use crate::query::{QueryAnalysis, Statement};
use crate::table::{read_cell_in, IndexedTable, PeriodLength, TableFigure};
pub use nanoindex_core::figures::is_table_row;
use nanoindex_core::figures::{is_row_before, numbers_in};

/// Characters of a passage (after its title path) given to the dense embedder; all-MiniLM
/// reads up to 256 word pieces, but its cost grows with the square of the length: the head of
/// each passage (about 90 word pieces) is what the vector describes.
pub const DENSE_TEXT_CHARS: usize = 200;

/// A node's own text on one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Passage {
    /// The node.
    pub node_id: NodeId,
    /// Titles from the root to the node, joined with ` > `.
    pub title_path: String,
    /// 1-based page.
    pub page_no: u32,
    /// The text (lines separated by `\n`).
    pub text: String,
}

impl Passage {
    /// The titles from the root to the node, top-level section first.
    pub fn titles(&self) -> impl Iterator<Item = &str> {
        self.title_path.split(" > ")
    }

    /// The node's own title: the last of [`Passage::titles`].
    pub fn leaf_title(&self) -> &str {
        leaf_title(&self.title_path)
    }
}

/// One line of a page, in reading order.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Index of the passage the line belongs to.
    pub passage: usize,
    /// 1-based page.
    pub page_no: u32,
    /// The line as extracted (table rows are one line).
    pub text: String,
    terms: Vec<String>,
}

/// Why a page ranks where it does; every signal is in `[0, 1]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageHit {
    /// 1-based page.
    pub page_no: u32,
    /// The node of the page's best passage.
    pub node_id: NodeId,
    /// Fused score (higher is better).
    pub score: f32,
    /// BM25 of the best passage, relative to the best passage of the document.
    pub lexical: f32,
    /// Cosine similarity of the best passage to the question, relative to the best.
    pub dense: f32,
    /// Share of the question's terms in the node's titles, and the statement the question
    /// names when this page is that statement.
    pub structure: f32,
    /// Graph signal: the node holds an entity of the question or is referenced by a top
    /// node.
    pub graph: f32,
    /// Weighted share of the question's terms on the page's best line.
    pub line: f32,
}

/// A line chosen as evidence, with the table header that gives its columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Snippet {
    /// Index into [`RetrievalIndex::lines`] of the line that matched.
    pub line: usize,
    /// First and last line (inclusive) of the snippet: a prose line is extended to the end
    /// of its sentence (two lines more at most) and back over a broken-off start.
    pub lines: (usize, usize),
    /// 1-based page.
    pub page_no: u32,
    /// Node holding the line.
    pub node_id: NodeId,
    /// The line's text.
    pub text: String,
    /// The nearest line above on the same page that names two or more years (a table's
    /// column header), when the line holds numbers.
    pub header: Option<String>,
    /// Score used to choose it.
    pub score: f32,
    /// Boxes of the table cells the answer read on the line (the figure's cell and its
    /// column's header cells; page fractions, each with its text), cited beside the line's
    /// own boxes; empty for prose and for rows read without a tree table.
    pub cells: Vec<BoundingBox>,
}

/// The retrieval index of one document. Build once per tree; searching is read-only.
pub struct RetrievalIndex {
    passages: Vec<Passage>,
    lines: Vec<Line>,
    page_lines: BTreeMap<u32, Vec<usize>>,
    bm25: Embedder<u64, FinancialTokenizer>,
    scorer: Scorer<usize, u64>,
    doc_freq: HashMap<String, u32>,
    title_terms: HashMap<NodeId, HashSet<String>>,
    entity_nodes: Vec<(HashSet<String>, Vec<NodeId>)>,
    references: HashMap<NodeId, Vec<NodeId>>,
    naming_text: String,
    naming: HashSet<String>,
    tables: Vec<IndexedTable>,
    table_rows: HashMap<usize, (usize, usize)>,
}

/// Pages whose passages dense similarity re-ranks (see
/// [`RetrievalIndex::dense_candidates`]): three times the pages a question reads by default.
pub const DENSE_PAGES: usize = 24;

/// Longest first-page line taken as part of a document's title.
const TITLE_CHARS: usize = 80;

/// Weight of a query term that names the document (see [`RetrievalIndex::naming_text`]) in
/// lexical scores: questions name the document ("under the CytoDyn–Vyera license
/// agreement"), while the passage that answers rarely repeats the name, and every passage
/// that does is no more relevant for it.
pub const NAMING_WEIGHT: f32 = 0.25;

impl std::fmt::Debug for RetrievalIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RetrievalIndex")
            .field("passages", &self.passages.len())
            .field("lines", &self.lines.len())
            .finish()
    }
}

/// Splits the tree into passages, one per node and page, in reading order.
#[must_use]
pub fn passages(tree: &DocumentTree) -> Vec<Passage> {
    fn walk(nodes: &[TreeNode], path: &mut Vec<String>, out: &mut Vec<Passage>) {
        for node in nodes {
            path.push(node.title.clone());
            let title_path = path.join(" > ");
            if let Some(text) = node.text.as_deref() {
                let mut cuts: Vec<(usize, u32)> = node
                    .text_pages
                    .iter()
                    .map(|s| (s.offset.min(text.len()), s.page))
                    .collect();
                if cuts.first().is_none_or(|c| c.0 > 0) {
                    cuts.insert(0, (0, node.start_index));
                }
                for (i, &(start, page_no)) in cuts.iter().enumerate() {
                    let end = cuts.get(i + 1).map_or(text.len(), |c| c.0);
                    let Some(piece) = text.get(start..end) else {
                        continue;
                    };
                    if piece.trim().is_empty() {
                        continue;
                    }
                    out.push(Passage {
                        node_id: node.node_id.clone(),
                        title_path: title_path.clone(),
                        page_no,
                        text: piece.trim_matches('\n').to_string(),
                    });
                }
            }
            walk(&node.nodes, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(&tree.structure, &mut Vec::new(), &mut out);
    out
}

/// Texts to embed for dense retrieval, one per passage: the title path, then the passage's
/// words (figures left out: they cost the embedder many word pieces and carry no meaning
/// for it; lexical search finds them) up to [`DENSE_TEXT_CHARS`] characters.
#[must_use]
pub fn dense_texts(passages: &[Passage]) -> Vec<String> {
    passages
        .iter()
        .map(|p| {
            let mut text = p.title_path.clone();
            text.push('\n');
            let words = p
                .text
                .split_whitespace()
                .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
                .filter(|w| w.chars().any(char::is_alphabetic));
            for w in words {
                if text.len() + w.len() + 1 > p.title_path.len() + DENSE_TEXT_CHARS {
                    break;
                }
                text.push_str(w);
                text.push(' ');
            }
            text.trim_end().to_string()
        })
        .collect()
}

/// See [`RetrievalIndex::naming_text`].
fn naming_text(doc_name: &str, lines: &[Line]) -> String {
    let mut out = doc_name.replace(['-', '_'], " ");
    let first_page = lines.first().map_or(1, |l| l.page_no);
    for (i, line) in lines
        .iter()
        .take_while(|l| l.page_no == first_page)
        .enumerate()
    {
        let text = &line.text;
        if text.len() > TITLE_CHARS {
            break;
        }
        let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
        let upper = letters.iter().filter(|c| c.is_uppercase()).count();
        if i == 0 || (letters.len() >= 4 && upper * 10 >= letters.len() * 7) || numbers_it(text) {
            out.push('\n');
            out.push_str(text);
        }
    }
    out
}

/// Labels of the numbers that identify a document on its first page (a protocol's, a
/// court case's, a policy's): "Current Protocol Number: V3 16.10.23 IRAS no – 327246".
const DOCUMENT_NUMBER_LABELS: &[&str] = &[
    "protocol number",
    "protocol no",
    "iras no",
    "iras number",
    "case no",
    "docket no",
    "policy no",
    "policy number",
    "file no",
];

/// Whether a first-page line states a number that identifies the document
/// ([`DOCUMENT_NUMBER_LABELS`]): a question names the document by it ("the study (IRAS
/// 327246)").
fn numbers_it(line: &str) -> bool {
    let lower = line.to_lowercase();
    DOCUMENT_NUMBER_LABELS.iter().any(|l| lower.contains(l))
        && line.chars().any(|c| c.is_ascii_digit())
}

fn query_embedding(terms: &[&String]) -> Embedding<u64> {
    Embedding(
        terms
            .iter()
            .map(|t| TokenEmbedding {
                index: u64::embed(t),
                value: 1.0,
            })
            .collect(),
    )
}

impl RetrievalIndex {
    /// Builds the index of `tree` and `graph`. Dense similarities are not part of the index:
    /// the caller computes them for the passages [`RetrievalIndex::dense_candidates`] names
    /// and gives them to [`RetrievalIndex::rank_pages`].
    #[must_use]
    pub fn build(tree: &DocumentTree, graph: &DocumentGraph) -> Self {
        let passages = passages(tree);
        let docs: Vec<String> = passages
            .iter()
            .map(|p| format!("{}\n{}", leaf_title(&p.title_path), p.text))
            .collect();
        let doc_refs: Vec<&str> = docs.iter().map(String::as_str).collect();
        let bm25 = EmbedderBuilder::<u64, FinancialTokenizer>::with_tokenizer_and_fit_to_corpus(
            FinancialTokenizer,
            &doc_refs,
        )
        .build();
        let mut scorer = Scorer::new();
        let mut doc_freq: HashMap<String, u32> = HashMap::new();
        for (i, doc) in docs.iter().enumerate() {
            scorer.upsert(&i, bm25.embed(doc));
            let unique: HashSet<String> = tokenize(doc).into_iter().collect();
            for t in unique {
                *doc_freq.entry(t).or_default() += 1;
            }
        }
        let mut lines = Vec::new();
        let mut page_lines: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, p) in passages.iter().enumerate() {
            for text in p.text.lines().filter(|l| !l.trim().is_empty()) {
                page_lines.entry(p.page_no).or_default().push(lines.len());
                lines.push(Line {
                    passage: i,
                    page_no: p.page_no,
                    text: text.to_string(),
                    terms: tokenize(text),
                });
            }
        }
        let mut title_terms = HashMap::new();
        for node in tree.iter_nodes() {
            let mut terms: HashSet<String> = tokenize(&node.title).into_iter().collect();
            let mut parent = node.node_id.parent();
            while let Some(id) = parent {
                if let Some(p) = tree.find_node(id.as_str()) {
                    terms.extend(tokenize(&p.title));
                }
                parent = id.parent();
            }
            title_terms.insert(node.node_id.clone(), terms);
        }
        let entity_nodes = graph
            .entities
            .iter()
            .filter(|e| e.entity_type != EntityType::Section)
            .map(|e| {
                (
                    tokenize(&e.name).into_iter().collect(),
                    e.source_node_ids.clone(),
                )
            })
            .filter(|(terms, _): &(HashSet<String>, _)| !terms.is_empty())
            .collect();
        let mut references: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        for r in &graph.cross_references {
            references
                .entry(r.source_node_id.clone())
                .or_default()
                .push(r.target_node_id.clone());
        }
        let naming_text = naming_text(&tree.doc_name, &lines);
        let naming = tokenize(&naming_text).into_iter().collect();
        let (tables, table_rows) = table_rows(tree, &lines, &page_lines);
        RetrievalIndex {
            passages,
            lines,
            page_lines,
            bm25,
            scorer,
            doc_freq,
            title_terms,
            entity_nodes,
            references,
            naming_text,
            naming,
            tables,
            table_rows,
        }
    }

    /// The tables of the tree, with their columns read, in reading order.
    #[must_use]
    pub fn tables(&self) -> &[IndexedTable] {
        &self.tables
    }

    /// The figure line `line` gives for `year`, read the one way the engine reads a row's
    /// columns: when the line is a body row of a tree table with dated columns, from its cell
    /// in the column of `year` (see [`IndexedTable::figure_for`]; `occurrence` and `length`
    /// choose among several columns of one year, and `asked`, the question, among columns of
    /// different things), cited with the cell's and its header's
    /// boxes, and `None` for a blank cell; otherwise from the line's figures under its header
    /// line (the nearest line above naming two or more years, [`read_cell_in`]), without
    /// boxes and with that header line as `head`.
    #[must_use]
    pub fn read_figure(
        &self,
        line: usize,
        year: u32,
        occurrence: usize,
        length: Option<PeriodLength>,
        asked: &str,
    ) -> Option<TableFigure> {
        if let Some((table, row)) = self.table_row(line).filter(|(t, _)| t.dated()) {
            return table.figure_for(row, year, occurrence, length, asked);
        }
        let header = self.header_above(line)?;
        let cell = read_cell_in(&self.lines.get(line)?.text, &header, year, occurrence)?;
        Some(TableFigure {
            cell,
            column: 0,
            in_table: false,
            boxes: Vec::new(),
            head: header,
            stub_head: String::new(),
        })
    }

    /// The years the columns of line `line` are dated by, in order: its tree table's dated
    /// columns when it is a row of one, else those of its header line; empty when neither
    /// names any.
    #[must_use]
    pub fn column_years(&self, line: usize) -> Vec<u32> {
        if let Some((table, _)) = self.table_row(line).filter(|(t, _)| t.dated()) {
            let mut years = Vec::new();
            for c in table.columns.iter().filter(|c| c.years.len() == 1) {
                if !years.contains(&c.years[0]) {
                    years.push(c.years[0]);
                }
            }
            return years;
        }
        self.header_above(line)
            .and_then(|h| years_in(&h))
            .unwrap_or_default()
    }

    /// The tree table whose body row line `line` is, and the row's index in its `cells`;
    /// `None` for a line that is no row of a tree table.
    #[must_use]
    pub fn table_row(&self, line: usize) -> Option<(&IndexedTable, usize)> {
        let &(t, r) = self.table_rows.get(&line)?;
        Some((&self.tables[t], r))
    }

    /// The text that names the document: its name (`-` and `_` as spaces), then its title
    /// (the first line of its first page, when short) and the capitalised caption lines
    /// above the first paragraph of that page ("IN THE SUPREME COURT OF NORTH CAROLINA",
    /// "GIFT SURPLUS, LLC … v. STATE OF NORTH CAROLINA") and the short lines of that page that
    /// state the document's number ("Protocol Number: V3 … IRAS no – 327246"), one per line.
    #[must_use]
    pub fn naming_text(&self) -> &str {
        &self.naming_text
    }

    /// The passages, in reading order.
    #[must_use]
    pub fn passages(&self) -> &[Passage] {
        &self.passages
    }

    /// Every line of the document, in reading order.
    #[must_use]
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The passages whose dense similarity to `query` [`RetrievalIndex::rank_pages`] uses:
    /// those on the [`DENSE_PAGES`] best pages by every other signal (BM25, titles, graph,
    /// best line, statement), as indices into [`RetrievalIndex::passages`] in reading order.
    ///
    /// Dense similarity re-ranks this shortlist and never brings in a page from outside it,
    /// so a question needs vectors for about a hundred passages, not the whole document (a
    /// first question on a new PDF is not held up by embedding it all), and its ranking
    /// does not depend on which vectors earlier questions happened to compute. A question
    /// that no other signal matches at all (a paraphrase in other words) gets every
    /// passage: dense similarity is then its only signal.
    #[must_use]
    pub fn dense_candidates(&self, query: &QueryAnalysis) -> Vec<usize> {
        let ranking = self.rank_pages(query, &[]);
        if ranking.first().is_none_or(|h| h.score <= 0.0) {
            return (0..self.passages.len()).collect();
        }
        let pages: HashSet<u32> = ranking
            .iter()
            .take(DENSE_PAGES)
            .map(|h| h.page_no)
            .collect();
        (0..self.passages.len())
            .filter(|&i| pages.contains(&self.passages[i].page_no))
            .collect()
    }

    /// Average BM25 document length in terms (for diagnostics).
    #[must_use]
    pub fn average_passage_terms(&self) -> f32 {
        self.bm25.avgdl()
    }

    /// How many passages hold `term` (an index term, see [`crate::analysis::tokenize`]).
    #[must_use]
    pub fn doc_freq(&self, term: &str) -> usize {
        self.doc_freq.get(term).map_or(0, |&d| d as usize)
    }

    /// Inverse document frequency of `term` over passages (BM25's, Robertson–Spärck Jones
    /// with +1 inside the log).
    #[must_use]
    pub fn idf(&self, term: &str) -> f32 {
        let n = self.passages.len() as f32;
        let df = self.doc_freq.get(term).copied().unwrap_or(0) as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// Weighted share of the question's terms found in `terms` (question terms weigh 1,
    /// expansions 0.6, each times its IDF), in `[0, 1]`.
    fn coverage(&self, query: &QueryAnalysis, terms: &[String]) -> f32 {
        let mut total = 0.0;
        let mut found = 0.0;
        for (weight, term) in query
            .terms
            .iter()
            .map(|t| (1.0, t))
            .chain(query.expansions.iter().map(|t| (0.6, t)))
        {
            let w = weight * self.idf(term);
            total += w;
            if terms.iter().any(|t| t == term) {
                found += w;
            }
        }
        if total > 0.0 {
            found / total
        } else {
            0.0
        }
    }

    /// Score of one line for `query`: term coverage, plus a little when the question wants a
    /// number and the line has one for a year of the question.
    #[must_use]
    pub fn line_score(&self, query: &QueryAnalysis, line: usize) -> f32 {
        let line = &self.lines[line];
        let mut score = self.coverage(query, &line.terms);
        if score > 0.0 && query.wants_number && !numbers_in(&line.text).is_empty() {
            score += 0.1;
        }
        score
    }

    /// Indices into [`RetrievalIndex::lines`] of page `page_no`'s lines, in reading order
    /// (empty for a page without text).
    #[must_use]
    pub fn page_line_ids(&self, page_no: u32) -> &[usize] {
        self.page_lines.get(&page_no).map_or(&[], Vec::as_slice)
    }

    /// Analysed terms of line `line` (see [`crate::analysis::tokenize`]).
    #[must_use]
    pub fn line_terms(&self, line: usize) -> &[String] {
        &self.lines[line].terms
    }

    /// Whether page `page_no` is the statement `statement` itself: a short line near the top
    /// names it as a statement ("Consolidated Statements of Cash Flows", "Balance Sheets"),
    /// and the page is mostly figures (not a contents page or a discussion).
    #[must_use]
    pub fn is_statement_page(&self, page_no: u32, statement: Statement) -> bool {
        let Some(ids) = self.page_lines.get(&page_no) else {
            return false;
        };
        // Compared without spaces: extraction can split a letter-spaced title word
        // ("Balance Shee t").
        let compact = |t: &str| -> String {
            t.chars()
                .filter(|c| !c.is_whitespace())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let titled = ids.iter().take(10).any(|&i| {
            let text = &self.lines[i].text;
            let t = compact(text);
            text.len() < 90
                && statement
                    .title_phrases()
                    .iter()
                    .any(|p| t.contains(&compact(p)))
                && (t.contains("statement")
                    || t.contains("consolidated")
                    || t.contains("balancesheet"))
                && !t.contains("notesto")
                && numbers_in(text).iter().all(|n| n.value.abs() >= 1900.0)
        });
        let numeric = ids
            .iter()
            .filter(|&&i| numbers_in(&self.lines[i].text).len() >= 2)
            .count();
        titled && numeric >= 8 && numeric * 3 >= ids.len()
    }

    /// Ranks pages for `query`. `dense` holds `(passage, cosine similarity to the
    /// question)` for the passages of [`RetrievalIndex::dense_candidates`] (indices into
    /// [`RetrievalIndex::passages`]); a passage not listed scores 0 on the dense signal, and
    /// an empty slice ranks without it.
    #[must_use]
    pub fn rank_pages(&self, query: &QueryAnalysis, dense: &[(usize, f32)]) -> Vec<PageHit> {
        if self.passages.is_empty() {
            return Vec::new();
        }
        let mut terms: Vec<&String> = query.all_terms().collect();
        terms.dedup();
        // Terms that name the document count at NAMING_WEIGHT, unless the question has no
        // other terms.
        let (naming, other): (Vec<&String>, Vec<&String>) =
            terms.iter().partition(|t| self.naming.contains(**t));
        let mut lexical = vec![0.0f32; self.passages.len()];
        if other.is_empty() {
            for hit in self.scorer.matches(&query_embedding(&naming)) {
                lexical[hit.id] = hit.score;
            }
        } else {
            for hit in self.scorer.matches(&query_embedding(&other)) {
                lexical[hit.id] = hit.score;
            }
            if !naming.is_empty() {
                for hit in self.scorer.matches(&query_embedding(&naming)) {
                    lexical[hit.id] += NAMING_WEIGHT * hit.score;
                }
            }
        }
        normalise(&mut lexical);
        let similarities = dense;
        let mut dense = vec![0.0f32; self.passages.len()];
        for &(i, similarity) in similarities {
            if let Some(d) = dense.get_mut(i) {
                *d = similarity.max(0.0);
            }
        }
        normalise(&mut dense);
        // Graph: entities named in the question, and the targets of cross-references made by
        // the best lexical passages.
        let query_terms: HashSet<&String> = query.terms.iter().collect();
        let mut graph_nodes: HashMap<&NodeId, f32> = HashMap::new();
        for (names, nodes) in &self.entity_nodes {
            let shared = names.iter().filter(|t| query_terms.contains(t)).count();
            if shared > 0 && shared * 2 >= names.len() {
                for n in nodes {
                    graph_nodes.insert(n, 1.0);
                }
            }
        }
        let mut by_lexical: Vec<usize> = (0..self.passages.len()).collect();
        by_lexical.sort_by(|&a, &b| lexical[b].total_cmp(&lexical[a]));
        for &i in by_lexical.iter().take(5) {
            if let Some(targets) = self.references.get(&self.passages[i].node_id) {
                for t in targets {
                    graph_nodes.entry(t).or_insert(0.5);
                }
            }
        }
        let mut pages: BTreeMap<u32, PageHit> = BTreeMap::new();
        for (i, p) in self.passages.iter().enumerate() {
            let structure = self.title_terms.get(&p.node_id).map_or(0.0, |titles| {
                let terms: Vec<String> = titles.iter().cloned().collect();
                self.coverage(query, &terms)
            });
            let graph = graph_nodes.get(&p.node_id).copied().unwrap_or(0.0);
            let score = 0.5 * lexical[i] + 0.3 * dense[i] + 0.15 * structure + 0.05 * graph;
            let entry = pages.entry(p.page_no).or_insert_with(|| PageHit {
                page_no: p.page_no,
                score: f32::MIN,
                ..PageHit::default()
            });
            if score > entry.score {
                *entry = PageHit {
                    page_no: p.page_no,
                    node_id: p.node_id.clone(),
                    score,
                    lexical: lexical[i],
                    dense: dense[i],
                    structure,
                    graph,
                    line: 0.0,
                };
            }
        }
        let mut ranked: Vec<PageHit> = pages.into_values().collect();
        for hit in &mut ranked {
            let best_line = self.page_lines.get(&hit.page_no).map_or(0.0, |ids| {
                ids.iter()
                    .map(|&i| self.line_score(query, i))
                    .fold(0.0f32, f32::max)
            });
            hit.line = best_line.min(1.0);
            hit.score += 0.35 * hit.line;
            if let Some(statement) = query.statement {
                if self.is_statement_page(hit.page_no, statement) {
                    hit.structure = hit.structure.max(1.0);
                    hit.score += 0.35;
                }
            }
        }
        ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.page_no.cmp(&b.page_no)));
        ranked
    }

    /// The best lines of `pages` for `query`: at most `max_snippets`, at most `per_page` from
    /// one page, ordered by score (line score plus a share of the page's rank, plus a bonus
    /// on the financial statement the question names or implies).
    #[must_use]
    pub fn snippets(
        &self,
        query: &QueryAnalysis,
        pages: &[PageHit],
        max_snippets: usize,
        per_page: usize,
    ) -> Vec<Snippet> {
        let mut scored: Vec<(f32, usize)> = Vec::new();
        let top = top_score(pages);
        for page in pages {
            let Some(ids) = self.page_lines.get(&page.page_no) else {
                continue;
            };
            let mut on_page: Vec<(f32, usize)> = ids
                .iter()
                .map(|&i| (self.line_score(query, i), i))
                .filter(|(s, _)| *s > 0.0)
                .collect();
            on_page.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let bonus = self.page_bonus(query, page, top);
            for (s, i) in on_page.into_iter().take(per_page) {
                scored.push((s + bonus, i));
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored
            .into_iter()
            .take(max_snippets)
            .map(|(score, i)| self.snippet(i, score))
            .collect()
    }

    /// How well line `line` answers `query` as evidence, given the page ranking `pages` (best
    /// first): its [`line_score`](Self::line_score), plus 0.3 × its page's score relative to
    /// the best page, plus 0.5 on the financial statement the question names or implies. The
    /// one evidence score: [`snippets`](Self::snippets) orders lines by it, and `ask` ranks
    /// evidence found by other means (keyword search, the reader) with it.
    #[must_use]
    pub fn evidence_score(&self, query: &QueryAnalysis, pages: &[PageHit], line: usize) -> f32 {
        let page_no = self.lines[line].page_no;
        let bonus = pages.iter().find(|h| h.page_no == page_no).map_or_else(
            || self.statement_bonus(query, page_no),
            |page| self.page_bonus(query, page, top_score(pages)),
        );
        self.line_score(query, line) + bonus
    }

    /// The share of a page's rank and its statement bonus in [`evidence_score`](Self::evidence_score).
    fn page_bonus(&self, query: &QueryAnalysis, page: &PageHit, top: f32) -> f32 {
        0.3 * page.score / top + self.statement_bonus(query, page.page_no)
    }

    /// 0.5 when page `page_no` is the financial statement the question names or implies.
    fn statement_bonus(&self, query: &QueryAnalysis, page_no: u32) -> f32 {
        if query
            .statement
            .is_some_and(|st| self.is_statement_page(page_no, st))
        {
            0.5
        } else {
            0.0
        }
    }

    /// Lines of `page_no` containing any of `terms` (exact analysed terms), best first; for
    /// keyword search when retrieval came up short.
    #[must_use]
    pub fn keyword_lines(&self, terms: &[String], limit: usize) -> Vec<Snippet> {
        let mut scored: Vec<(f32, usize)> = self
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let s: f32 = terms
                    .iter()
                    .filter(|t| l.terms.contains(t))
                    .map(|t| self.idf(t))
                    .sum();
                (s, i)
            })
            .filter(|(s, _)| *s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored
            .into_iter()
            .take(limit)
            .map(|(s, i)| self.snippet(i, s))
            .collect()
    }

    /// The snippet for line `line`: the line with the rest of its sentence (prose) and, for
    /// a line with figures, its table header.
    #[must_use]
    pub fn snippet(&self, line: usize, score: f32) -> Snippet {
        let l = &self.lines[line];
        let has_figure = numbers_in(&l.text).iter().any(|n| !n.is_year());
        let header = if has_figure {
            self.header_above(line)
        } else {
            None
        };
        let (first, last) = self.sentence_span(line);
        let text = self.lines[first..=last]
            .iter()
            .map(|l| l.text.trim())
            .collect::<Vec<_>>()
            .join(" ");
        Snippet {
            line,
            lines: (first, last),
            page_no: l.page_no,
            node_id: self.passages[l.passage].node_id.clone(),
            text,
            header,
            score,
            cells: Vec::new(),
        }
    }

    /// Whether line `line` is a table row: a body row of a tree table with a figure (the
    /// tree also takes a statement's one-figure rows; its label lines are no rows), else by the one rule of `nanoindex_core::figures`
    /// ([`is_row_before`], given the next line of its passage).
    #[must_use]
    pub fn is_row(&self, line: usize) -> bool {
        let Some(this) = self.lines.get(line) else {
            return false;
        };
        let figure_row = self.table_row(line).is_some_and(|(t, r)| {
            t.table.cells[r]
                .iter()
                .skip(1)
                .any(|c| c.text.chars().any(|ch| ch.is_ascii_digit()))
        });
        if figure_row {
            return true;
        }
        let next = self
            .lines
            .get(line + 1)
            .filter(|n| n.passage == this.passage)
            .map(|n| n.text.as_str());
        is_row_before(&this.text, next)
    }

    /// Lines `(first, last)` of the sentence around `line`, within its passage.
    fn sentence_span(&self, line: usize) -> (usize, usize) {
        let this = &self.lines[line];
        if self.is_row(line) {
            return (line, line);
        }
        let same = |i: usize| {
            self.lines
                .get(i)
                .is_some_and(|l| l.passage == this.passage && !self.is_row(i))
        };
        let mut first = line;
        let starts_mid = this
            .text
            .trim_start()
            .starts_with(|c: char| c.is_lowercase());
        if starts_mid && line > 0 && same(line - 1) && !ends_sentence(&self.lines[line - 1].text) {
            first = line - 1;
        }
        let mut last = line;
        while last < line + 2 && !ends_sentence(&self.lines[last].text) && same(last + 1) {
            last += 1;
        }
        (first, last)
    }

    /// The nearest line above `line` on its page naming two or more distinct years and
    /// nothing else numeric beyond dates (a table's column header), within 60 lines.
    fn header_above(&self, line: usize) -> Option<String> {
        let page = self.lines[line].page_no;
        let ids = self.page_lines.get(&page)?;
        let pos = ids.iter().position(|&i| i == line)?;
        ids[..pos].iter().rev().take(60).find_map(|&i| {
            let text = &self.lines[i].text;
            years_in(text)
                .filter(|ys| ys.len() >= 2)
                .map(|_| text.clone())
        })
    }
}

/// The tables of a tree and the lines that are their rows (see [`table_rows`]).
type TableRows = (Vec<IndexedTable>, HashMap<usize, (usize, usize)>);

/// The tables of `tree` (see [`IndexedTable`]) and, for each line of `lines` that is one of
/// their body rows, `(table, row)`. A row is matched to the first line not yet matched on its
/// page whose text is the row's cells with the same characters (whitespace aside, [`row_key`]): the tree
/// finds tables in the very lines the passages are made of (a table belongs to the node where
/// it starts; its rows may lie in the nodes after it, when a label line of a statement was
/// taken for a heading).
fn table_rows(
    tree: &DocumentTree,
    lines: &[Line],
    page_lines: &BTreeMap<u32, Vec<usize>>,
) -> TableRows {
    let mut tables = Vec::new();
    let mut rows = HashMap::new();
    for node in tree.iter_nodes() {
        for table in &node.tables {
            let t = tables.len();
            for (r, cells) in table.cells.iter().enumerate() {
                let page = cells
                    .iter()
                    .find_map(|c| c.bbox.as_ref().map(|b| b.page))
                    .unwrap_or(table.page);
                let key: String = cells.iter().map(|c| row_key(&c.text)).collect();
                if key.is_empty() {
                    continue;
                }
                let found = page_lines.get(&page).and_then(|ids| {
                    ids.iter()
                        .copied()
                        .find(|&i| !rows.contains_key(&i) && row_key(&lines[i].text) == key)
                });
                if let Some(i) = found {
                    rows.insert(i, (t, r));
                }
            }
            tables.push(IndexedTable::new(node.node_id.clone(), table.clone()));
        }
    }
    (tables, rows)
}

/// The best page's score of a ranking (best first), kept above zero for division.
fn top_score(pages: &[PageHit]) -> f32 {
    pages.first().map_or(1.0, |p| p.score.max(1e-6))
}

/// Distinct years ([`YEARS`](crate::analysis::YEARS)) written in `text`, in order, when the line is a column header:
/// `None` when it holds other figures too (beyond day numbers of dates).
#[must_use]
pub fn years_in(text: &str) -> Option<Vec<u32>> {
    let mut years = Vec::new();
    for n in numbers_in(text) {
        if n.is_year() && n.value > 0.0 {
            let y = n.value as u32;
            if !years.contains(&y) {
                years.push(y);
            }
        } else if n.decimals == 0 && (1.0..=31.0).contains(&n.value) {
            continue;
        } else {
            return None;
        }
    }
    Some(years)
}

/// Ends with sentence punctuation (or a closing quote or parenthesis after it): the rule by
/// which a snippet groups extracted *lines* (a line that does not end a sentence is joined
/// with the next). It is not a sentence splitter; text is cut into sentences by the engine's
/// one splitter (`nanoindex::text::sentences`), which this crate, below the engine, cannot
/// call.
fn ends_sentence(text: &str) -> bool {
    let t = text.trim_end().trim_end_matches(['"', '\'', '”', ')']);
    t.ends_with(['.', '?', '!', ':', ';'])
}

fn leaf_title(path: &str) -> &str {
    path.rsplit(" > ").next().unwrap_or(path)
}

/// Scales `values` so the largest is 1 (all zeros stay zeros).
fn normalise(values: &mut [f32]) {
    let max = values.iter().copied().fold(0.0f32, f32::max);
    if max > 0.0 {
        for v in values {
            *v /= max;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nanoindex_core::{assign_node_ids, CrossReference, Entity, TextPageSpan};

    fn node(title: &str, page: u32, text: &str) -> TreeNode {
        let mut n = TreeNode::new(title, page, page);
        n.text = Some(text.to_string());
        n
    }

    /// A small 10-K: MD&A on page 2, balance sheet on 3, cash flows on 4, a tax note on 5
    /// and a Japanese summary on 6.
    fn report() -> DocumentTree {
        let mut mdna = node(
            "Management's Discussion and Analysis",
            2,
            "Net sales rose 6% on demand for cordless tools.\nCapital spending will continue on the Salem line.\nSee Note 5 for income taxes.",
        );
        mdna.end_index = 2;
        let balance = node(
            "Consolidated Balance Sheets",
            3,
            "Consolidated Balance Sheets\n(Millions) 2024 2023\nInventories 301 288\nProperty, plant and equipment, net 640 602\nTotal current liabilities 410 395\nCash and cash equivalents 212 180\nAccounts receivable 199 187\nTotal assets 2,150 2,020\nLong-term debt 500 520\nOther liabilities 80 75",
        );
        let cash = node(
            "Consolidated Statements of Cash Flows",
            4,
            "Consolidated Statements of Cash Flows\n(Millions) 2024 2023 2022\nNet earnings 140 120 110\nDepreciation 60 55 50\nPurchases of property, plant and equipment (96) (71) (64)\nProceeds from sales of assets 4 3 2\nNet cash used in investing activities (92) (68) (62)\nDividends paid (40) (38) (36)\nNet cash from operating activities 210 190 170\nRepayment of debt (20) (20) (20)\nNet change in cash 32 24 10",
        );
        let tax = node(
            "Note 5. Income Taxes",
            5,
            "The effective tax rate was 22.4% in 2024 and 23.1% in 2023.",
        );
        let japan = node(
            "概要",
            6,
            "当社の売上高は増加しました。現金流量は安定しています。",
        );
        let mut item8 = TreeNode::new("Item 8. Financial Statements", 3, 5);
        item8.nodes = vec![balance, cash, tax];
        let mut tree = DocumentTree {
            structure: vec![mdna, item8, japan],
            ..DocumentTree::default()
        };
        assign_node_ids(&mut tree.structure);
        tree
    }

    fn top_pages(index: &RetrievalIndex, question: &str, n: usize) -> Vec<u32> {
        index
            .rank_pages(&QueryAnalysis::new(question), &[])
            .iter()
            .take(n)
            .map(|h| h.page_no)
            .collect()
    }

    #[test]
    fn a_first_page_line_stating_the_documents_number_names_it() {
        assert!(numbers_it(
            "Current Protocol Number: V3 16.10.23 IRAS no – 327246"
        ));
        assert!(numbers_it("Case No. 20-16276"));
        assert!(!numbers_it("Protocol number to be confirmed"));
        assert!(!numbers_it("Net sales rose 4% in 2023"));
    }

    #[test]
    fn words_that_name_the_document_count_less_than_the_question_s_own() {
        let intro = node(
            "LICENSE AGREEMENT",
            1,
            "Harbor Vyne License Agreement\nThis License Agreement is made between Harbor Inc. and Vyne LLC.",
        );
        let grant = node(
            "2.1 Grant of License",
            2,
            "Harbor grants Vyne an exclusive license under the Harbor patents.\nVyne accepts the license granted by Harbor under this license agreement.\nThe license to Vyne covers the Harbor know-how.",
        );
        let law = node(
            "14.2 Governing Law",
            3,
            "This Agreement is governed by the laws of the State of New York.",
        );
        let mut tree = DocumentTree {
            doc_name: "harbor-vyne-license-agreement".into(),
            structure: vec![intro, grant, law],
            ..DocumentTree::default()
        };
        assign_node_ids(&mut tree.structure);
        let index = RetrievalIndex::build(&tree, &DocumentGraph::default());
        assert!(index
            .naming_text()
            .contains("harbor vyne license agreement"));
        assert_eq!(
            top_pages(
                &index,
                "Which law governs the Harbor–Vyne license agreement?",
                1
            ),
            [3]
        );
        // A question made only of the document's words still finds them.
        assert_eq!(top_pages(&index, "Harbor Vyne license", 1)[0], 2);
    }

    #[test]
    fn statements_rank_first_for_their_metrics() {
        let tree = report();
        let index = RetrievalIndex::build(&tree, &DocumentGraph::default());
        assert_eq!(
            top_pages(&index, "What was the FY2024 capital expenditure?", 1),
            [4]
        );
        assert_eq!(
            top_pages(
                &index,
                "What is the year end FY2024 net PPNE? Use the balance sheet.",
                1
            ),
            [3]
        );
        assert_eq!(
            top_pages(&index, "What was the effective tax rate in 2024?", 1),
            [5]
        );
        assert_eq!(top_pages(&index, "Why did net sales rise?", 1), [2]);
        // A figure written with separators and parentheses is found by its digits.
        assert_eq!(top_pages(&index, "Which amount was (96)?", 1), [4]);
        // CJK text is searchable through bigrams.
        assert_eq!(top_pages(&index, "売上高", 1), [6]);
    }

    #[test]
    fn snippets_carry_the_column_header() {
        let tree = report();
        let index = RetrievalIndex::build(&tree, &DocumentGraph::default());
        let query = QueryAnalysis::new("What was the FY2024 capital expenditure?");
        let pages = index.rank_pages(&query, &[]);
        let snippets = index.snippets(&query, &pages[..2], 3, 2);
        assert_eq!(
            snippets[0].text,
            "Purchases of property, plant and equipment (96) (71) (64)"
        );
        assert_eq!(snippets[0].page_no, 4);
        assert_eq!(
            snippets[0].header.as_deref(),
            Some("(Millions) 2024 2023 2022")
        );
    }

    #[test]
    fn rows_of_large_figures_get_their_header() {
        let tree = report();
        let index = RetrievalIndex::build(&tree, &DocumentGraph::default());
        let line = index
            .lines()
            .iter()
            .position(|l| l.text.starts_with("Total assets"))
            .unwrap();
        assert_eq!(
            index.snippet(line, 0.0).header.as_deref(),
            Some("(Millions) 2024 2023")
        );
    }

    #[test]
    fn graph_entities_and_dense_vectors_move_pages_up() {
        let tree = report();
        let tax_node = tree.structure[1].nodes[2].node_id.clone();
        let mdna_node = tree.structure[0].node_id.clone();
        let question = "Who audits Northwind?";
        let plain = RetrievalIndex::build(&tree, &DocumentGraph::default());
        assert!(plain.rank_pages(&QueryAnalysis::new(question), &[])[0].lexical == 0.0);
        let graph = DocumentGraph {
            entities: vec![Entity {
                name: "Northwind".into(),
                entity_type: "organization".into(),
                description: String::new(),
                source_node_ids: vec![tax_node.clone()],
            }],
            cross_references: vec![CrossReference {
                source_node_id: mdna_node,
                target_node_id: tax_node,
                text: "Note 5".into(),
                page: 2,
            }],
            ..DocumentGraph::default()
        };
        let with_graph = RetrievalIndex::build(&tree, &graph);
        let hits = with_graph.rank_pages(&QueryAnalysis::new(question), &[]);
        assert_eq!(hits[0].page_no, 5);
        assert_eq!(hits[0].graph, 1.0);
        // Dense: a vector pointing at the Japanese passage puts its page first.
        let query = QueryAnalysis::new("overview");
        let candidates = plain.dense_candidates(&query);
        let last = passages(&tree).len() - 1;
        assert!(candidates.contains(&last), "{candidates:?}");
        let similarities: Vec<(usize, f32)> = candidates
            .iter()
            .map(|&i| (i, if i == last { 0.9 } else { 0.1 }))
            .collect();
        let hits = plain.rank_pages(&query, &similarities);
        assert_eq!(hits[0].page_no, 6);
        assert!((hits[0].dense - 1.0).abs() < 1e-6, "{:?}", hits[0]);
    }

    #[test]
    fn dense_similarity_re_ranks_only_the_best_pages_by_the_other_signals() {
        let nodes: Vec<TreeNode> = (1..=40)
            .map(|page| {
                let text = if page == 33 {
                    "Dividends declared per share rose this year.".to_string()
                } else {
                    format!("Operating segment note number {page} describes assets.")
                };
                node(&format!("Note {page}"), page, &text)
            })
            .collect();
        let mut tree = DocumentTree {
            doc_name: "notes".into(),
            structure: nodes,
            ..DocumentTree::default()
        };
        assign_node_ids(&mut tree.structure);
        let index = RetrievalIndex::build(&tree, &DocumentGraph::default());
        let query = QueryAnalysis::new("What dividends were declared per share?");
        let candidates = index.dense_candidates(&query);
        let pages: HashSet<u32> = candidates
            .iter()
            .map(|&i| index.passages()[i].page_no)
            .collect();
        assert_eq!(pages.len(), DENSE_PAGES);
        assert!(pages.contains(&33), "the lexical match is a candidate");
        // Nothing but dense similarity can rank a question in none of the document's words.
        let unmatched = QueryAnalysis::new("Qu'en pense-t-on ?");
        assert_eq!(
            index.dense_candidates(&unmatched).len(),
            index.passages().len()
        );
    }

    #[test]
    fn passages_split_nodes_at_page_breaks() {
        let mut n = node("Long", 7, "first page line\nsecond page line");
        n.end_index = 8;
        n.text_pages = vec![
            TextPageSpan { page: 7, offset: 0 },
            TextPageSpan {
                page: 8,
                offset: 16,
            },
        ];
        let tree = DocumentTree {
            structure: vec![n],
            ..DocumentTree::default()
        };
        let p = passages(&tree);
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].page_no, p[0].text.as_str()), (7, "first page line"));
        assert_eq!((p[1].page_no, p[1].text.as_str()), (8, "second page line"));
    }
}
