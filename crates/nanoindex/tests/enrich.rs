//! Enrichment on PDFs the tests write: tier (a) of the split cascade (headings inside an
//! oversized outline leaf, no model), entities and relationships of a contract and a 10-K
//! page (rules, then a model whose replies are checked against the text), and summaries
//! with the real default model (required in CI, skipped elsewhere when not installed),
//! batched and one by one.

mod common;

use std::path::Path;
use std::sync::{Arc, Mutex};

use common::{default_model, Flow};
use nanoindex::core::{DocumentTree, Entity, TreeNode};
use nanoindex::llm::{
    GenerateRequest, Generation, ModelInfo, StopReason, TextGenerator, TokenControl,
};
use nanoindex::{Config, EnrichOptions, IndexedDocument, NanoIndex};
use nanoindex_pdf::write::PdfBuilder;

fn find<'a>(tree: &'a DocumentTree, title: &str) -> &'a TreeNode {
    tree.iter_nodes()
        .find(|n| n.title == title)
        .unwrap_or_else(|| {
            let titles: Vec<&str> = tree.iter_nodes().map(|n| n.title.as_str()).collect();
            panic!("no node `{title}` in {titles:?}")
        })
}

fn no_model_options(split_tokens: Option<usize>) -> EnrichOptions {
    EnrichOptions {
        split_tokens,
        summaries: false,
        llm_entities: false,
        ..EnrichOptions::default()
    }
}

fn index_with(engine: &NanoIndex, bytes: &[u8], name: &str) -> IndexedDocument {
    engine
        .index_bytes(bytes, Path::new(name))
        .unwrap_or_else(|e| panic!("indexing {name}: {e}"))
}

/// An outline with two entries; the second covers three pages of text with bold
/// sub-headings and a markdown-style heading that the outline does not list.
fn handbook() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "Overview");
    f.para(&["This handbook explains the terms of service for all customers."]);
    f.new_page();
    f.heading(16.0, "Terms");
    f.para(&["These terms apply to every order placed with the company."]);
    let body = [
        "Each paragraph of this clause sets out obligations of the parties in some detail,",
        "so that the section as a whole is long enough to be split into smaller parts.",
        "The parties agree that the obligations below are binding from the order date.",
    ];
    for heading in ["Payment", "Termination", "## Governing law"] {
        if heading.starts_with("##") {
            f.gap();
            f.line(10.0, false, heading);
        } else {
            f.heading(12.0, heading);
        }
        for _ in 0..6 {
            f.para(&body);
        }
    }
    let mut bytes_pdf = f.pdf;
    bytes_pdf.outline(1, "Overview", 0).outline(1, "Terms", 1);
    bytes_pdf.to_bytes()
}

#[test]
fn inner_headings_split_an_oversized_outline_leaf_without_a_model() {
    let bytes = handbook();
    let engine = NanoIndex::new(Config {
        enrich: no_model_options(Some(500)),
        ..Config::default()
    });
    let doc = index_with(&engine, &bytes, "handbook.pdf");
    assert_eq!(doc.tree.extraction_metadata.tree_method, "outline");
    let terms = find(&doc.tree, "Terms");
    assert_eq!(
        terms.split_method,
        Some(nanoindex_core::SplitMethod::Headings)
    );
    let titles: Vec<&str> = terms.nodes.iter().map(|n| n.title.as_str()).collect();
    assert_eq!(titles, ["Payment", "Termination", "Governing law"]);
    assert_eq!(doc.report.llm_calls, 0);
    // The parent keeps the text before the first inner heading; each child starts at its
    // heading and carries ids below the parent.
    assert!(terms
        .text
        .as_deref()
        .unwrap()
        .contains("These terms apply to every order"));
    assert!(!terms.text.as_deref().unwrap().contains("Payment"));
    for child in &terms.nodes {
        assert!(child.node_id.as_str().starts_with(terms.node_id.as_str()));
        assert!(child
            .text
            .as_deref()
            .unwrap()
            .contains("binding from the order date"));
    }
    assert_eq!(terms.nodes[0].start_index, 2);

    // Without a limit the outline leaf stays whole.
    let whole = NanoIndex::new(Config {
        enrich: no_model_options(None),
        ..Config::default()
    });
    let doc = index_with(&whole, &bytes, "handbook.pdf");
    let terms = find(&doc.tree, "Terms");
    assert!(terms.nodes.is_empty() && terms.split_method.is_none());
}

/// A contract and a 10-K page in one PDF, headings by typography.
fn filing_and_contract() -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, "SERVICES AGREEMENT");
    f.para(&[
        "This Services Agreement (the \"Agreement\") is made on March 1, 2024 (the",
        "\"Effective Date\") between Aster Labs LLC and Brightline Corp. for data services",
        "that Aster Labs provides in Delaware and Ontario.",
    ]);
    f.heading(12.0, "9. Governing Law");
    f.para(&[
        "This Agreement shall be governed by and construed in accordance with the laws of",
        "the State of New York.",
    ]);
    f.heading(12.0, "10. Signatures");
    f.para(&["Signed for Aster Labs: Maria Chen, Chief Executive Officer"]);
    f.new_page();
    f.heading(16.0, "Item 7. Management's Discussion and Analysis");
    f.para(&[
        "Harbor Pay LLC, a wholly owned subsidiary of Harbor Mills, Inc., processes payments.",
        "Revenue increased 12% compared with 2023, and net sales were $4.2 billion in 2024.",
        "Harbor Mills Inc. expects capital expenditures of $300 million in fiscal 2025.",
    ]);
    f.bytes()
}

/// A model that answers extraction requests from the window it is shown: it names every
/// word of a fixed list that occurs in the window (some with wrong types, one invented),
/// and records the requests.
struct Extractor {
    info: ModelInfo,
    requests: Arc<Mutex<Vec<GenerateRequest>>>,
}

impl TextGenerator for Extractor {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn generate(
        &mut self,
        request: &GenerateRequest,
        _on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> nanoindex_llm::Result<Generation> {
        self.requests.lock().unwrap().push(request.clone());
        let prompt = &request.messages.last().unwrap().content;
        let window = prompt.split("Text:\n").nth(1).unwrap_or("");
        let mut entities = Vec::new();
        let mut relationships = Vec::new();
        if window.contains("Ontario") {
            entities.push(serde_json::json!({"name": "Ontario", "type": "location"}));
            entities.push(serde_json::json!({"name": "aster labs", "type": "organization"}));
            // Wrong type: an organisation is not an amount.
            entities.push(serde_json::json!({"name": "Brightline Corp", "type": "money"}));
            // Not in the text.
            entities
                .push(serde_json::json!({"name": "Zorblax Industries", "type": "organization"}));
            relationships.push(
                serde_json::json!({"source": "Aster Labs", "relation": "operates_in", "target": "Ontario"}),
            );
            relationships.push(
                serde_json::json!({"source": "Aster Labs", "relation": "operates_in", "target": "Zorblax Industries"}),
            );
        }
        let text =
            serde_json::json!({"entities": entities, "relationships": relationships}).to_string();
        Ok(Generation {
            text,
            tokens: Vec::new(),
            n_prompt_tokens: 10,
            n_cached_prompt_tokens: 0,
            n_completion_tokens: 5,
            prefill_ms: 1.0,
            decode_ms: 1.0,
            stop_reason: StopReason::EndOfGeneration,
        })
    }
}

fn entity<'a>(entities: &'a [Entity], kind: &str, name: &str) -> &'a Entity {
    entities
        .iter()
        .find(|e| e.entity_type == kind && e.name == name)
        .unwrap_or_else(|| panic!("no {kind} `{name}` in {entities:#?}"))
}

#[test]
fn contract_and_filing_entities_point_at_their_nodes() {
    let bytes = filing_and_contract();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let model = Extractor {
        info: ModelInfo {
            name: "extractor".into(),
            architecture: "test".into(),
            context_length: 4096,
            context_length_used: 4096,
            vocab_size: 0,
            backend: "test".into(),
        },
        requests: Arc::clone(&requests),
    };
    let engine = NanoIndex::with_generator(
        Config {
            enrich: EnrichOptions {
                summaries: false,
                domain: Some("legal_contract".parse().unwrap()),
                entity_types: vec!["Service Line".parse().unwrap()],
                relation_types: vec!["provides".parse().unwrap()],
                ..EnrichOptions::default()
            },
            ..Config::default()
        },
        Box::new(model),
    );
    let doc = index_with(&engine, &bytes, "filing.pdf");
    let tree = &doc.tree;
    let g = &doc.graph;
    let preamble = find(tree, "SERVICES AGREEMENT");
    let law = find(tree, "9. Governing Law");
    let signatures = find(tree, "10. Signatures");
    let mdna = find(tree, "Item 7. Management's Discussion and Analysis");

    // Rule-based.
    assert_eq!(
        entity(&g.entities, "defined_term", "Effective Date").source_node_ids,
        std::slice::from_ref(&preamble.node_id)
    );
    entity(&g.entities, "date", "March 1, 2024");
    assert_eq!(
        entity(&g.entities, "person", "Maria Chen").source_node_ids,
        std::slice::from_ref(&signatures.node_id)
    );
    let rel = |source: &str, target: &str, kind: &str| {
        g.relationships
            .iter()
            .find(|r| {
                r.source == source
                    && r.target == target
                    && r.relation_type
                        .as_ref()
                        .map(nanoindex_core::RelationType::as_str)
                        == Some(kind)
            })
            .unwrap_or_else(|| panic!("no {source} -{kind}-> {target} in {:#?}", g.relationships))
    };
    assert_eq!(
        rel("Agreement", "New York", "governed_by").source_node_ids,
        std::slice::from_ref(&law.node_id)
    );
    assert_eq!(
        rel("Maria Chen", "Chief Executive Officer", "holds_title").source_node_ids,
        std::slice::from_ref(&signatures.node_id)
    );
    assert_eq!(
        rel("Harbor Pay LLC", "Harbor Mills, Inc.", "subsidiary_of").source_node_ids,
        std::slice::from_ref(&mdna.node_id)
    );
    assert_eq!(
        rel("revenue", "12%", "grew_by").source_node_ids,
        std::slice::from_ref(&mdna.node_id)
    );
    rel("capital expenditures", "$300 million", "has_value");
    // `Harbor Mills Inc.` and `Harbor Mills, Inc.` are one organisation.
    let harbor: Vec<&Entity> = g
        .entities
        .iter()
        .filter(|e| e.entity_type == "organization" && e.name.starts_with("Harbor Mills"))
        .collect();
    assert_eq!(harbor.len(), 1, "{harbor:#?}");

    // Found by the model, checked against the text: the location is new, `aster labs`
    // merges into the rule-based `Aster Labs LLC` (in the document's spelling), the wrong
    // type and the invented name are dropped, and so is the relation to the invented name.
    assert_eq!(
        entity(&g.entities, "location", "Ontario").source_node_ids,
        std::slice::from_ref(&preamble.node_id)
    );
    let aster = entity(&g.entities, "organization", "Aster Labs LLC");
    assert!(aster.source_node_ids.contains(&preamble.node_id));
    assert!(!g.entities.iter().any(|e| e.name.contains("Zorblax")));
    assert!(!g
        .entities
        .iter()
        .any(|e| e.entity_type == "money" && e.name.contains("Brightline")));
    rel("Aster Labs LLC", "Ontario", "operates_in");
    let stats = &doc.report.entities;
    assert_eq!(stats.rejected_entities, 2, "{stats:?}");
    assert_eq!(stats.rejected_relationships, 1, "{stats:?}");
    assert_eq!(doc.report.domain, "legal_contract");
    // The custom types reach the model's schema.
    let requests = requests.lock().unwrap();
    assert!(!requests.is_empty());
    let schema = requests[0].json_schema.as_ref().unwrap().to_string();
    assert!(schema.contains("\"service_line\""), "{schema}");
    assert!(schema.contains("\"provides\""), "{schema}");
    assert!(schema.contains("\"governed_by\""), "{schema}");
}

/// Sections long enough to be summarised.
fn report() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let sections: [(&str, [&str; 3]); 3] = [
        (
            "Revenue",
            [
                "Northwind Traders sold 1.2 million units of its flagship kettle in 2024.",
                "Sales in Europe grew by a quarter while sales in Asia were flat for the year.",
                "Total revenue reached $410 million, the highest in the company's history.",
            ],
        ),
        (
            "Employees",
            [
                "The company employed 2,300 people at the end of the year across four sites.",
                "Staff turnover fell to 8 percent after a new training programme was started.",
                "Most new hires joined the engineering and customer support departments.",
            ],
        ),
        (
            "Outlook",
            [
                "Management expects revenue growth of about 6 percent in the coming year.",
                "A second factory in Poland should open in the spring and add capacity.",
                "The main risks are higher steel prices and weaker consumer demand in Europe.",
            ],
        ),
    ];
    for (title, lines) in sections {
        let page = pdf.page();
        page.text(72.0, 90.0, 16.0, true, title);
        for (i, line) in lines.iter().enumerate() {
            page.text(72.0, 130.0 + 16.0 * i as f32, 10.0, false, line);
        }
    }
    pdf.to_bytes()
}

fn summaries(
    batch_size: usize,
    model: Box<dyn TextGenerator>,
) -> (Vec<(String, String, String)>, usize) {
    let engine = NanoIndex::with_generator(
        Config {
            enrich: EnrichOptions {
                llm_entities: false,
                batch_size,
                ..EnrichOptions::default()
            },
            ..Config::default()
        },
        model,
    );
    let doc = index_with(&engine, &report(), "northwind.pdf");
    let nodes = doc
        .tree
        .iter_nodes()
        .filter(|n| {
            nanoindex_core::estimate_tokens(n.text.as_deref().unwrap_or(""))
                >= nanoindex::enrich::MIN_SUMMARY_TOKENS
        })
        .map(|n| {
            (
                n.title.clone(),
                n.text.clone().unwrap_or_default(),
                n.summary.clone().unwrap_or_default(),
            )
        })
        .collect();
    (nodes, doc.report.llm_calls)
}

fn first_sentence(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = flat.find(". ").map_or(flat.len(), |i| i + 1);
    flat[..end].to_string()
}

#[test]
fn summaries_from_the_default_model_are_written_batched_and_one_by_one_alike() {
    let Some(model) = default_model() else {
        return;
    };
    let (batched, calls) = summaries(8, model);
    assert_eq!(batched.len(), 3, "{batched:#?}");
    for (title, text, summary) in &batched {
        assert!(!summary.trim().is_empty(), "no summary for {title}");
        let first = first_sentence(text);
        let flat = summary.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_ne!(
            flat, first,
            "{title}: the summary copies the first sentence"
        );
        assert!(!flat.starts_with(&first), "{title}: {flat}");
    }
    assert!(calls >= 3);
    let Some(model) = default_model() else {
        return;
    };
    let (single, _) = summaries(1, model);
    // Decoding several sequences in one llama.cpp batch evaluates the prompts' shared
    // prefix once and multiplies several rows at a time, which rounds differently from one
    // sequence alone; a near tie can then flip late in a long reply. So the greedy outputs
    // must agree word for word over their first 12 words (about the 16 tokens the runtime
    // conformance tests use), and the measured agreement is printed.
    for ((title, _, a), (_, _, b)) in batched.iter().zip(&single) {
        let (wa, wb): (Vec<&str>, Vec<&str>) = (
            a.split_whitespace().collect(),
            b.split_whitespace().collect(),
        );
        let common = wa.iter().zip(&wb).take_while(|(x, y)| x == y).count();
        eprintln!(
            "{title}: batched and single agree on {common} of {} words",
            wa.len().max(wb.len())
        );
        assert!(
            common >= 12.min(wa.len().max(wb.len())),
            "{title}: batched `{a}` vs single `{b}`"
        );
    }
}

/// A model whose process dies at its first request (a panic, caught by the batch as it
/// would be lost to a kill).
struct DiesAtFirstRequest(nanoindex_llm::ModelInfo);

impl nanoindex_llm::TextGenerator for DiesAtFirstRequest {
    fn info(&self) -> &nanoindex_llm::ModelInfo {
        &self.0
    }

    fn generate(
        &mut self,
        _request: &nanoindex_llm::GenerateRequest,
        _on_token: &mut dyn FnMut(&str) -> nanoindex_llm::TokenControl,
    ) -> nanoindex_llm::Result<nanoindex_llm::Generation> {
        panic!("the indexing process is killed during the model's work")
    }
}

fn dying_engine() -> NanoIndex {
    let info = nanoindex_llm::ModelInfo {
        name: "dies".into(),
        architecture: "none".into(),
        context_length: 2048,
        context_length_used: 2048,
        vocab_size: 1,
        backend: "test".into(),
    };
    NanoIndex::with_generator(Config::default(), Box::new(DiesAtFirstRequest(info)))
}

#[test]
fn a_batch_writes_the_structure_only_index_before_the_model_works_and_keeps_it_when_it_dies() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("handbook.pdf");
    std::fs::write(&pdf, handbook()).unwrap();
    let out = dir.path().join("out");
    // A finished run first (no model): the manifest records the document.
    let done = NanoIndex::new(Config::default()).index_batch(
        std::slice::from_ref(&pdf),
        &out,
        &nanoindex::BatchOptions::default(),
        &|_| {},
    );
    assert!(matches!(done[0].outcome, nanoindex::Outcome::Indexed(_)));
    // Then a forced run with a model that dies.
    let written = Mutex::new(Vec::new());
    let items = dying_engine().index_batch(
        std::slice::from_ref(&pdf),
        &out,
        &nanoindex::BatchOptions {
            force: true,
            ..nanoindex::BatchOptions::default()
        },
        &|event| {
            if let nanoindex::BatchEvent::StructureWritten { tree, .. } = event {
                written.lock().unwrap().push(tree.to_path_buf());
            }
        },
    );
    assert!(
        matches!(items[0].outcome, nanoindex::Outcome::Failed(_)),
        "{:?}",
        items[0].outcome
    );
    let written = written.into_inner().unwrap();
    assert_eq!(written, [out.join("handbook.tree.json")]);
    let tree = nanoindex::core::load_tree(&written[0]).unwrap();
    assert!(tree.iter_nodes().count() > 1, "{tree:?}");
    assert!(tree.iter_nodes().all(|n| n.summary.is_none()));
    assert!(out.join("handbook.graph.json").is_file());
    // The manifest no longer calls the document done: the next plain run indexes it again.
    let again = dying_engine().index_batch(
        std::slice::from_ref(&pdf),
        &out,
        &nanoindex::BatchOptions::default(),
        &|_| {},
    );
    assert!(matches!(again[0].outcome, nanoindex::Outcome::Failed(_)));
}
