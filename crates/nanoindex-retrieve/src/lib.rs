//! Retrieval for nanoindex-local: finds the pages and lines of a document that answer a
//! question without relying on a language model's judgement.
//!
//! - [`analysis`]: one tokenizer for documents and questions (financial numbers, CJK
//!   bigrams, Arabic, English plurals) and number parsing.
//! - [`query`]: what a question asks for (terms, metric synonyms, statement, years).
//! - [`index`]: page-sized passages scored by BM25 (the `bm25` crate) and dense vectors,
//!   boosted by the tree (titles, the financial statement a question names) and the graph
//!   (entities, cross-references); then the best lines of the best pages.
//! - [`table`]: the figure of a table row in a given year's column.
//!
//! ```
//! use nanoindex_core::{DocumentGraph, DocumentTree, TreeNode};
//! use nanoindex_retrieve::{QueryAnalysis, RetrievalIndex};
//! let mut node = TreeNode::new("Cash flows", 3, 3);
//! node.text = Some("Purchases of property, plant and equipment (96) (88)".into());
//! let tree = DocumentTree { structure: vec![node], ..DocumentTree::default() };
//! let index = RetrievalIndex::build(&tree, &DocumentGraph::default());
//! let query = QueryAnalysis::new("What were capital expenditures?");
//! assert_eq!(index.rank_pages(&query, &[])[0].page_no, 3);
//! ```

pub mod analysis;
pub mod index;
pub mod query;
pub mod table;

pub use index::{
    dense_texts, is_table_row, passages, Line, PageHit, Passage, RetrievalIndex, Snippet,
    DENSE_PAGES,
};
pub use query::{QueryAnalysis, Statement};
