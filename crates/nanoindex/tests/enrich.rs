//! Enrichment on PDFs the tests write: tier (a) of the split cascade (headings inside an
//! oversized outline leaf, no model), entities and relationships of a contract and a 10-K
//! page (rules, then a model whose replies are checked against the text), and summaries
//! with the real default model (required in CI, skipped elsewhere when not installed),
//! batched and one by one; each window of prose read once for its summary and entities
//! together, tables of figures not paraphrased; a killed enrichment resumed from its
//! checkpoint.

mod common;

use std::path::Path;
use std::sync::{Arc, Mutex};

use common::{default_model, Flow};
use nanoindex::core::{DocumentTree, Entity, TreeNode};
use nanoindex::llm::{
    GenerateRequest, Generation, ModelInfo, StopReason, TextGenerator, TokenControl,
};
use nanoindex::{Config, EnrichOptions, IndexedDocument, NanoIndex, Outcome};
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

/// A company profile: a page of prose, then a statement of operations that is only rows of
/// figures under its year heads.
fn profile_and_statement() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let page = pdf.page();
    page.text(72.0, 90.0, 16.0, true, "Business Overview");
    let prose = [
        "Northwind Traders designs kettles and toasters and sells them in twelve countries.",
        "The company was founded in Oslo in 1998 and moved its head office to Bergen in 2015.",
        "Its largest customer is Harbor Stores, which bought a fifth of all units last year.",
        "Most products are made under contract in Poland and shipped by rail to Scandinavia.",
    ];
    for (i, line) in prose.iter().enumerate() {
        page.text(72.0, 130.0 + 16.0 * i as f32, 10.0, false, line);
    }
    let page = pdf.page();
    page.text(
        72.0,
        90.0,
        16.0,
        true,
        "Consolidated Statements of Operations",
    );
    page.text(72.0, 112.0, 9.0, false, "(In millions of dollars)");
    for (x, t) in [(400.0, "2024"), (480.0, "2023")] {
        page.text(x, 132.0, 9.0, true, t);
    }
    let rows = [
        ("Net sales", ["1,200", "1,100"]),
        ("Cost of sales", ["(800)", "(760)"]),
        ("Gross profit", ["400", "340"]),
        ("Selling and administrative expenses", ["(150)", "(140)"]),
        ("Operating income", ["250", "200"]),
        ("Net earnings", ["190", "150"]),
    ];
    for (i, (label, cells)) in rows.iter().enumerate() {
        let y = 152.0 + 14.0 * i as f32;
        page.text(72.0, y, 9.0, false, label);
        for (x, c) in [400.0, 480.0].iter().zip(cells) {
            page.text(*x + 24.0 - 4.5 * c.len() as f32, y, 9.0, false, c);
        }
    }
    pdf.to_bytes()
}

/// A model that reads a window as asked: a summary (a JSON string) for a summary turn, and
/// for the entities turn every name of a fixed list found in the window the conversation
/// began with; records the requests.
struct WindowReader {
    info: ModelInfo,
    requests: Arc<Mutex<Vec<GenerateRequest>>>,
    /// The entity replies as written: the model cycles through its list as a small model
    /// does, item by item, until the schema's maximum of 8 or until told to stop.
    entity_replies: Arc<Mutex<Vec<String>>>,
}

const NORTHWIND_SUMMARY: &str =
    "A maker of kitchen appliances, its history, main customer and factories.";

impl TextGenerator for WindowReader {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn generate(
        &mut self,
        request: &GenerateRequest,
        on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> nanoindex_llm::Result<Generation> {
        self.requests.lock().unwrap().push(request.clone());
        let window = &request.messages[1].content;
        let mut stop_reason = StopReason::EndOfGeneration;
        let summary_turn = request
            .json_schema
            .as_ref()
            .is_some_and(|s| s["type"] == "string");
        let text = if summary_turn && request.messages.len() == 2 {
            // The first reply copies the text's first sentence.
            serde_json::json!(
                "Northwind Traders designs kettles and toasters and sells them in twelve \
                 countries."
            )
            .to_string()
        } else if summary_turn {
            serde_json::json!(NORTHWIND_SUMMARY).to_string()
        } else {
            let entities: Vec<serde_json::Value> = [
                ("Northwind Traders", "organization"),
                ("Harbor Stores", "organization"),
                ("Oslo", "location"),
            ]
            .iter()
            .filter(|(name, _)| window.contains(name))
            .map(|(name, kind)| serde_json::json!({"name": name, "type": kind}))
            .collect();
            let mut pieces = vec![r#"{"entities": ["#.to_string()];
            for (i, e) in entities.iter().cycle().take(8).enumerate() {
                let comma = if i > 0 { ", " } else { "" };
                pieces.push(format!("{comma}{e}"));
            }
            pieces.push(r#"], "relationships": []}"#.to_string());
            let mut written = String::new();
            for piece in pieces {
                written.push_str(&piece);
                if on_token(&piece) == TokenControl::Stop {
                    stop_reason = StopReason::Callback;
                    break;
                }
            }
            self.entity_replies.lock().unwrap().push(written.clone());
            written
        };
        Ok(Generation {
            text,
            tokens: Vec::new(),
            n_prompt_tokens: 100,
            n_cached_prompt_tokens: 0,
            n_completion_tokens: 30,
            prefill_ms: 1.0,
            decode_ms: 1.0,
            stop_reason,
        })
    }
}

#[test]
fn each_window_is_read_once_for_its_summary_and_entities_and_tables_are_not_paraphrased() {
    let requests = Arc::new(Mutex::new(Vec::new()));
    let entity_replies = Arc::new(Mutex::new(Vec::new()));
    let model = WindowReader {
        info: ModelInfo {
            name: "reader".into(),
            architecture: "test".into(),
            context_length: 4096,
            context_length_used: 4096,
            vocab_size: 0,
            backend: "test".into(),
        },
        requests: Arc::clone(&requests),
        entity_replies: Arc::clone(&entity_replies),
    };
    let engine = NanoIndex::with_generator(Config::default(), Box::new(model));
    let doc = index_with(&engine, &profile_and_statement(), "northwind.pdf");
    // The entity list was ended at its first repeated item, not decoded to its maximum.
    let entity_replies = entity_replies.lock().unwrap();
    assert_eq!(entity_replies.len(), 1, "{entity_replies:?}");
    assert_eq!(
        entity_replies[0].matches("Northwind Traders").count(),
        2,
        "{entity_replies:?}"
    );
    assert!(!entity_replies[0].contains("relationships"));
    let overview = find(&doc.tree, "Business Overview");
    let statement = find(&doc.tree, "Consolidated Statements of Operations");
    assert!(
        statement.text.as_deref().unwrap_or("").contains("1,200"),
        "{statement:#?}"
    );

    // One window of prose, read in turns of one conversation: the summary, asked again
    // when it copies the text, then the entities; each turn repeats the ones before it and
    // their replies, so that the backend continues from its cache. Nothing else went to
    // the model.
    let requests = requests.lock().unwrap();
    let report = &doc.report;
    assert_eq!(report.entities.windows, 1, "{report:#?}");
    assert_eq!(requests.len(), 3, "{requests:#?}");
    assert_eq!(report.llm_calls, 3);
    assert_eq!(report.summaries.rejected, 1, "{report:#?}");
    // The summary is one JSON string that must begin with "This section".
    let summary_schema = requests[0].json_schema.as_ref().unwrap();
    assert_eq!(summary_schema["type"], "string");
    assert!(summary_schema["pattern"]
        .as_str()
        .unwrap()
        .starts_with("^This section"));
    assert!(requests[0].messages[1]
        .content
        .contains("Northwind Traders designs"));
    let again = &requests[1];
    assert_eq!(again.messages[..2], requests[0].messages[..]);
    assert!(
        again.messages[3].content.contains("own words"),
        "{again:#?}"
    );
    let second = &requests[2];
    assert_eq!(second.messages[..4], again.messages[..]);
    assert_eq!(
        second.messages[4].content,
        serde_json::json!(NORTHWIND_SUMMARY).to_string()
    );
    assert!(!second.messages[5].content.contains("Northwind"));
    let schema = second.json_schema.as_ref().unwrap();
    for field in ["entities", "relationships"] {
        assert!(schema["properties"].get(field).is_some(), "{schema}");
    }
    // The statement's rows never reach the model: its summary says what the table is.
    assert!(requests
        .iter()
        .all(|r| r.messages.iter().all(|m| !m.content.contains("1,200"))));
    let table_summary = statement.summary.as_deref().unwrap_or("");
    assert!(
        table_summary.starts_with("Table of figures: Consolidated Statements of Operations")
            && table_summary.contains("2024")
            && table_summary.contains("Net sales"),
        "{table_summary}"
    );
    assert_eq!(report.summaries.tables, 1, "{report:#?}");
    // The window's summary is the overview's, and its entities are in the graph.
    assert_eq!(overview.summary.as_deref(), Some(NORTHWIND_SUMMARY));
    for name in ["Northwind Traders", "Harbor Stores", "Oslo"] {
        let e = doc
            .graph
            .entities
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no {name} in {:#?}", doc.graph.entities));
        assert!(e.source_node_ids.contains(&overview.node_id), "{e:?}");
    }
    // The document's own tokens are counted (estimated here: the test model cannot count).
    let text: usize = doc
        .tree
        .iter_nodes()
        .filter_map(|n| n.text.as_deref())
        .map(nanoindex::core::estimate_tokens)
        .sum();
    assert_eq!(report.text_tokens, text as u64);
}

/// A model that writes a summary naming the section (and no entities), counts the requests
/// it serves, and dies (as a killed process) at request `die_at`.
struct Counted {
    info: ModelInfo,
    served: Arc<Mutex<usize>>,
    die_at: Option<usize>,
}

impl TextGenerator for Counted {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn generate(
        &mut self,
        request: &GenerateRequest,
        _on_token: &mut dyn FnMut(&str) -> TokenControl,
    ) -> nanoindex_llm::Result<Generation> {
        let mut served = self.served.lock().unwrap();
        if self.die_at == Some(*served) {
            panic!("the indexing process is killed during the model's work");
        }
        *served += 1;
        let title = request.messages[1]
            .content
            .strip_prefix("Section: ")
            .and_then(|p| p.lines().next())
            .unwrap_or("the document");
        let summary = format!("This part is about {title} and what it reports.");
        let text = match &request.json_schema {
            Some(schema) if schema["type"] == "string" => serde_json::json!(summary).to_string(),
            Some(_) => serde_json::json!({"entities": [], "relationships": []}).to_string(),
            None => summary,
        };
        Ok(Generation {
            text,
            tokens: Vec::new(),
            n_prompt_tokens: 50,
            n_cached_prompt_tokens: 0,
            n_completion_tokens: 10,
            prefill_ms: 1.0,
            decode_ms: 1.0,
            stop_reason: StopReason::EndOfGeneration,
        })
    }
}

fn counted_engine(served: &Arc<Mutex<usize>>, die_at: Option<usize>) -> NanoIndex {
    let model = Counted {
        info: ModelInfo {
            name: "counted".into(),
            architecture: "test".into(),
            context_length: 4096,
            context_length_used: 4096,
            vocab_size: 0,
            backend: "test".into(),
        },
        served: Arc::clone(served),
        die_at,
    };
    NanoIndex::with_generator(
        Config {
            enrich: EnrichOptions {
                batch_size: 1,
                ..EnrichOptions::default()
            },
            ..Config::default()
        },
        Box::new(model),
    )
}

fn summaries_of(tree: &DocumentTree) -> Vec<(String, Option<String>)> {
    tree.iter_nodes()
        .map(|n| (n.title.clone(), n.summary.clone()))
        .collect()
}

#[test]
fn a_killed_enrichment_resumes_at_the_first_request_its_checkpoint_does_not_answer() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("northwind.pdf");
    std::fs::write(&pdf, report()).unwrap();
    let batch = |engine: &NanoIndex, out: &Path| {
        let items = engine.index_batch(
            std::slice::from_ref(&pdf),
            out,
            &nanoindex::BatchOptions::default(),
            &|_| {},
        );
        items.into_iter().next().unwrap().outcome
    };
    // Uninterrupted, for comparison.
    let whole = Arc::new(Mutex::new(0));
    let Outcome::Indexed(done) = batch(&counted_engine(&whole, None), &dir.path().join("a")) else {
        panic!("the uninterrupted run failed")
    };
    let total = *whole.lock().unwrap();
    assert!(total >= 3, "{total} requests");

    // Killed at its third request: the two replies before it are saved.
    let out = dir.path().join("b");
    let served = Arc::new(Mutex::new(0));
    let killed = batch(&counted_engine(&served, Some(2)), &out);
    assert!(matches!(killed, Outcome::Failed(_)), "{killed:?}");
    let checkpoint = out.join(format!("northwind.{}", nanoindex::CHECKPOINT_SUFFIX));
    let saved = std::fs::read_to_string(&checkpoint).unwrap();
    assert_eq!(saved.lines().count(), 2, "{saved}");

    // The same command again: only the requests not answered yet reach the model, and the
    // result is the uninterrupted run's.
    let resumed_served = Arc::new(Mutex::new(0));
    let Outcome::Indexed(resumed) = batch(&counted_engine(&resumed_served, None), &out) else {
        panic!("the resumed run failed")
    };
    assert_eq!(*resumed_served.lock().unwrap(), total - 2);
    assert_eq!(resumed.document.report.llm_replayed, 2);
    assert_eq!(resumed.document.report.llm_calls, total - 2);
    assert_eq!(
        summaries_of(&resumed.document.tree),
        summaries_of(&done.document.tree)
    );
    assert!(!checkpoint.exists(), "the checkpoint outlived its document");
}

/// Two chapters without prose of their own: one holds a single section, the other two.
fn chapters() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    let prose = |title: &str| {
        [
            format!("The {title} section describes how Northwind Traders did in 2024 overall."),
            "Results were set against the plan the board approved at the start of the year."
                .to_string(),
            "Each figure in it was checked by the finance team before this report was made."
                .to_string(),
        ]
    };
    for (chapter, sections) in [
        ("Financial Review", vec!["Revenue"]),
        ("Operations", vec!["Employees", "Outlook"]),
    ] {
        let page = pdf.page();
        page.text(72.0, 80.0, 20.0, true, chapter);
        let mut y = 120.0;
        for section in sections {
            page.text(72.0, y, 14.0, true, section);
            for (i, line) in prose(section).iter().enumerate() {
                page.text(72.0, y + 24.0 + 16.0 * i as f32, 10.0, false, line);
            }
            y += 110.0;
        }
    }
    pdf.to_bytes()
}

#[test]
fn a_parent_with_one_summary_below_it_takes_that_summary_without_a_model_call() {
    let served = Arc::new(Mutex::new(0));
    let doc = index_with(&counted_engine(&served, None), &chapters(), "chapters.pdf");
    let outline: Vec<(usize, &str)> = {
        fn walk<'a>(nodes: &'a [TreeNode], depth: usize, out: &mut Vec<(usize, &'a str)>) {
            for n in nodes {
                out.push((depth, n.title.as_str()));
                walk(&n.nodes, depth + 1, out);
            }
        }
        let mut out = Vec::new();
        walk(&doc.tree.structure, 0, &mut out);
        out
    };
    assert_eq!(
        outline,
        [
            (0, "Financial Review"),
            (1, "Revenue"),
            (0, "Operations"),
            (1, "Employees"),
            (1, "Outlook")
        ],
        "{outline:?}"
    );
    let summary = |title: &str| find(&doc.tree, title).summary.clone().unwrap_or_default();
    // The one section's summary is its chapter's: asking the model to say it again is no
    // summary of more.
    assert_eq!(
        summary("Financial Review"),
        "This part is about Revenue and what it reports."
    );
    // Two sections' summaries are combined by the model into their chapter's.
    assert_eq!(
        summary("Operations"),
        "This part is about Operations and what it reports."
    );
    // Requests: each section's window read in its conversation (summary, entities), and one
    // for the chapter of two.
    assert_eq!(doc.report.llm_calls, 3 * 2 + 1, "{:#?}", doc.report);
    assert_eq!(*served.lock().unwrap(), doc.report.llm_calls);
}
