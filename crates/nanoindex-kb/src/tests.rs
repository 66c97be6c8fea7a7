use super::*;
use std::collections::BTreeMap;

use nanoindex_core::{assign_node_ids, EntityType, RelationType, TreeNode};

fn tree(nodes: &[(&str, u32, &str)]) -> DocumentTree {
    let structure = nodes
        .iter()
        .map(|(title, page, text)| {
            let mut n = TreeNode::new(*title, *page, *page);
            n.text = Some((*text).to_string());
            n
        })
        .collect();
    let mut tree = DocumentTree {
        structure,
        ..DocumentTree::default()
    };
    assign_node_ids(&mut tree.structure);
    tree
}

fn q1() -> DocumentTree {
    tree(&[
        (
            "Highlights",
            1,
            "Revenue for the first quarter was $1,204 million.",
        ),
        ("Outlook", 2, "We expect steady demand for cordless tools."),
    ])
}

fn q2() -> DocumentTree {
    tree(&[
        (
            "Highlights",
            1,
            "Revenue for the second quarter was $1,377 million.",
        ),
        ("Risks", 2, "Supply of lithium cells remains tight."),
    ])
}

/// Lowercase words without punctuation, digits joined across thousands separators: the
/// tests' stand-in for the engine's retrieval tokenizer.
fn terms(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace(',', "")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// One stored passage per node (each node here is on one page).
fn passages(tree: &DocumentTree) -> Vec<StoredPassage> {
    tree.iter_nodes()
        .map(|n| {
            let text = n.text.clone().unwrap_or_default();
            StoredPassage {
                node_id: n.node_id.to_string(),
                title_path: n.title.clone(),
                page_no: n.start_index,
                terms: terms(&format!("{}\n{text}", n.title)),
                text,
                vector: None,
            }
        })
        .collect()
}

fn new_document<'a>(
    name: &'a str,
    sha: &'a str,
    tree: &'a DocumentTree,
    graph: &'a DocumentGraph,
    passages: &'a [StoredPassage],
    name_terms: &'a [String],
) -> NewDocument<'a> {
    NewDocument {
        name,
        source_path: None,
        sha256: sha,
        tree,
        graph,
        passages,
        name_terms,
    }
}

fn put(store: &mut Store, name: &str, sha: &str, tree: &DocumentTree) -> Added {
    let graph = DocumentGraph::default();
    let mut passages = passages(tree);
    for (i, p) in passages.iter_mut().enumerate() {
        p.vector = Some(vec![i as f32, 0.5]);
    }
    let name_terms = terms(name);
    let doc = new_document(name, sha, tree, &graph, &passages, &name_terms);
    store.put(&doc).unwrap()
}

fn search(store: &Store, query: &str, k: usize) -> Vec<SearchHit> {
    store.search(&terms(query), k).unwrap()
}

#[test]
fn adding_is_idempotent_by_content_and_a_changed_document_replaces_its_old_version() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    assert_eq!(put(&mut store, "acme-q1", "aa", &q1()), Added::New);
    assert_eq!(
        put(&mut store, "acme-q1", "aa", &q1()),
        Added::Unchanged("acme-q1".into())
    );
    // The same content under another name is the document already there.
    assert_eq!(
        put(&mut store, "copy-of-q1", "aa", &q1()),
        Added::Unchanged("acme-q1".into())
    );
    assert_eq!(put(&mut store, "acme-q1", "bb", &q2()), Added::Replaced);
    let docs = store.documents().unwrap();
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].sha256, "bb");
    assert_eq!(docs[0].passages, 2);
    // The replaced version's passages are gone from the full-text index too.
    assert!(search(&store, "cordless tools", 10).is_empty());
    assert_eq!(search(&store, "lithium", 10).len(), 1);

    let (tree, _, vectors) = store.load("acme-q1").unwrap();
    assert_eq!(tree, q2());
    let stored: Vec<(&str, &[f32])> = vectors
        .iter()
        .map(|v| (v.text.as_str(), v.vector.as_slice()))
        .collect();
    let texts: Vec<String> = passages(&q2()).into_iter().map(|p| p.text).collect();
    assert_eq!(
        stored,
        [
            (texts[0].as_str(), &[0.0, 0.5][..]),
            (texts[1].as_str(), &[1.0, 0.5][..])
        ]
    );

    assert!(store.remove("acme-q1").unwrap());
    assert!(!store.remove("acme-q1").unwrap());
    let status = store.status().unwrap();
    assert_eq!((status.documents, status.passages), (0, 0));
    assert!(search(&store, "lithium", 10).is_empty());
}

#[test]
fn search_and_selection_rank_documents_by_passages_and_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    put(&mut store, "acme-2023-q1", "aa", &q1());
    put(&mut store, "acme-2023-q2", "bb", &q2());
    let hits = search(&store, "second quarter revenue", 5);
    assert_eq!(hits[0].doc_name, "acme-2023-q2");
    assert_eq!(hits[0].page_no, 1);
    assert_eq!(
        hits[0].text,
        "Revenue for the second quarter was $1,377 million."
    );
    // Figures are found as the tokenizer writes them.
    assert_eq!(search(&store, "1,204", 5)[0].doc_name, "acme-2023-q1");
    // Terms that read as FTS5 syntax are searched as words: the two revenue passages.
    let syntax: Vec<String> = ["\"revenue\"", "OR", "NEAR(", "*"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(store.search(&syntax, 5).unwrap().len(), 2);

    let chosen = store
        .select_documents(&terms("What was revenue in Q1 and Q2?"), 5)
        .unwrap();
    let names: Vec<&str> = chosen.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names.len(), 2, "{chosen:?}");
    let chosen = store
        .select_documents(
            &terms("Which risks does acme report for lithium supply?"),
            5,
        )
        .unwrap();
    assert_eq!(chosen[0].name, "acme-2023-q2", "{chosen:?}");

    // A name dated to another year than the question's counts half.
    put(&mut store, "acme-2021-q2", "cc", &q2());
    let chosen = store
        .select_documents(
            &terms("Which risks did acme report for lithium supply in 2023?"),
            5,
        )
        .unwrap();
    assert_eq!(chosen[0].name, "acme-2023-q2", "{chosen:?}");
    let older = chosen.iter().find(|s| s.name == "acme-2021-q2").unwrap();
    assert!(older.score <= 0.5 * chosen[0].score + 1e-9, "{chosen:?}");
    assert!(older.reason.contains("another year"), "{older:?}");
}

#[test]
fn a_store_of_a_newer_format_is_refused_and_a_missing_or_changed_source_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path()).unwrap();
        store
            .conn
            .execute(
                "UPDATE meta SET value = ?1 WHERE key = 'format_version'",
                params![(FORMAT_VERSION + 1).to_string()],
            )
            .unwrap();
    }
    let err = Store::open(dir.path()).unwrap_err();
    assert!(matches!(err, KbError::NewerFormat { found, .. } if found == FORMAT_VERSION + 1));
    let newer = format!("format version {}", FORMAT_VERSION + 1);
    assert!(err.to_string().contains(&newer), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let pdf = dir.path().join("a.pdf");
    std::fs::write(&pdf, b"first").unwrap();
    let graph = DocumentGraph::default();
    for (name, path, sha) in [
        ("a", pdf.clone(), sha256_hex(b"first")),
        ("gone", dir.path().join("gone.pdf"), "cc".to_string()),
    ] {
        let tree = q1();
        let passages = passages(&tree);
        let mut doc = new_document(name, &sha, &tree, &graph, &passages, &[]);
        doc.source_path = Some(&path);
        store.put(&doc).unwrap();
    }
    assert_eq!(lint::lint(&store).unwrap().len(), 1);
    std::fs::write(&pdf, b"changed").unwrap();
    let problems = lint::lint(&store).unwrap();
    assert!(matches!(&problems[0], lint::Problem::StaleSource { doc, .. } if doc == "a"));
    assert!(matches!(&problems[1], lint::Problem::MissingSource { doc, .. } if doc == "gone"));
}

/// A graph naming `Acme Corp` with a stated revenue, found in node `0000`.
fn acme_graph(revenue: &str) -> DocumentGraph {
    let node = vec![nanoindex_core::NodeId::from("0000")];
    DocumentGraph {
        entities: vec![
            nanoindex_core::Entity {
                name: "Acme Corp".into(),
                entity_type: EntityType::Organization,
                description: String::new(),
                source_node_ids: node.clone(),
            },
            nanoindex_core::Entity {
                name: "Revenue".into(),
                entity_type: EntityType::Metric,
                description: String::new(),
                source_node_ids: node.clone(),
            },
        ],
        relationships: vec![nanoindex_core::Relationship {
            source: "Revenue".into(),
            target: revenue.into(),
            relation_type: Some(RelationType::HasValue),
            keywords: String::new(),
            description: String::new(),
            source_node_ids: node,
        }],
        ..DocumentGraph::default()
    }
}

/// Every file of the wiki: path relative to it → text.
fn wiki_files(root: &Path) -> BTreeMap<String, String> {
    let wiki = root.join(wiki::WIKI_DIR);
    let mut out = BTreeMap::new();
    let mut stack = vec![wiki.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(&wiki).unwrap().display().to_string();
                out.insert(rel, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    out
}

#[test]
fn the_wiki_renders_from_stored_facts_and_a_version_1_store_gains_them_when_opened() {
    let dir = tempfile::tempdir().unwrap();
    let (t1, t2) = (q1(), q2());
    let (g1, g2) = (acme_graph("$1,204 million"), acme_graph("$1,377 million"));
    {
        let mut store = Store::open(dir.path()).unwrap();
        for (name, sha, tree, graph) in [("q1", "a1", &t1, &g1), ("q2", "a2", &t2, &g2)] {
            let passages = passages(tree);
            store
                .put(&new_document(name, sha, tree, graph, &passages, &[]))
                .unwrap();
        }
        wiki::render(&mut store).unwrap();
    }
    let rendered = wiki_files(dir.path());
    // Named in both documents: a concept page with both values and the pages that state
    // them, and each document page links to it; the outline is each document's own.
    let concept = rendered
        .iter()
        .find(|(path, _)| path.starts_with("concepts/") && path.contains("revenue"))
        .map(|(_, text)| text.clone())
        .unwrap_or_else(|| panic!("{:?}", rendered.keys()));
    assert!(
        concept.contains("$1,204 million") && concept.contains("$1,377 million"),
        "{concept}"
    );
    let q2_page = &rendered["documents/q2.md"];
    assert!(
        q2_page.contains("[[concepts/acme-corp|Acme Corp]]"),
        "{q2_page}"
    );
    assert!(q2_page.contains("- Risks (p. 2)"), "{q2_page}");

    // The same store as version 1 wrote it: no facts tables.
    {
        let store = Store::open(dir.path()).unwrap();
        store
            .conn
            .execute_batch(
                "DROP TABLE outlines; DROP TABLE mentions; \
                 UPDATE meta SET value = '1' WHERE key = 'format_version';",
            )
            .unwrap();
    }
    let mut store = Store::open(dir.path()).unwrap();
    let version: String = store
        .conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'format_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, FORMAT_VERSION.to_string());
    wiki::render(&mut store).unwrap();
    assert_eq!(wiki_files(dir.path()), rendered);

    // A removed document's facts go with it.
    store.remove("q1").unwrap();
    wiki::render(&mut store).unwrap();
    let after = wiki_files(dir.path());
    assert!(!after.contains_key("documents/q1.md"));
    let revenue = after
        .iter()
        .find(|(path, _)| path.starts_with("concepts/") && path.contains("revenue"))
        .map(|(_, text)| text.clone())
        .unwrap();
    assert!(
        !revenue.contains("$1,204 million") && revenue.contains("$1,377 million"),
        "{revenue}"
    );
    let count: i64 = store
        .conn
        .query_row("SELECT COUNT(*) FROM mentions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 2, "the mentions of q2 alone");

    // A version-1 store with a document whose stored tree no longer parses still opens
    // (the document gets empty facts and stays removable).
    drop(store);
    {
        let store = Store::open(dir.path()).unwrap();
        store
            .conn
            .execute_batch(
                "DROP TABLE outlines; DROP TABLE mentions; \
                 UPDATE meta SET value = '1' WHERE key = 'format_version'; \
                 UPDATE documents SET tree_json = '{' WHERE name = 'q2';",
            )
            .unwrap();
    }
    let mut store = Store::open(dir.path()).unwrap();
    assert!(matches!(store.load("q2"), Err(KbError::Damaged { .. })));
    assert!(store.remove("q2").unwrap());
}

/// Stores a document whose graph the rule-based extractor builds from `nodes`.
fn put_built(store: &mut Store, name: &str, nodes: &[(&str, u32, &str)]) {
    let tree = tree(nodes);
    let graph = nanoindex_graph::build_graph(&tree);
    let passages = passages(&tree);
    store
        .put(&new_document(name, name, &tree, &graph, &passages, &[]))
        .unwrap();
}

/// A contradiction as (concept, period, [(doc, value, pages)]).
type Found = (String, String, Vec<(String, String, Vec<u32>)>);

/// The contradictions `lint` reports.
fn contradictions(store: &Store) -> Vec<Found> {
    lint::contradictions(store)
        .unwrap()
        .into_iter()
        .map(|p| match p {
            lint::Problem::Contradiction {
                concept,
                period,
                values,
                ..
            } => (
                concept.to_lowercase(),
                period,
                values
                    .into_iter()
                    .map(|v| (v.doc, v.value, v.pages))
                    .collect(),
            ),
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn values_of_one_issuer_and_period_that_differ_across_documents_are_contradictions() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    put_built(
        &mut store,
        "acme-q1",
        &[
            ("Overview", 1, "Acme Tools Inc. makes cordless drills."),
            (
                "Results",
                2,
                "Revenue for the first quarter of 2024 was $1,204 million.",
            ),
        ],
    );
    // The second quarter's report restates the first quarter (another figure), states its
    // own quarter, and names its issuer without the legal suffix's punctuation.
    put_built(
        &mut store,
        "acme-q2",
        &[
            ("Overview", 1, "ACME Tools, Inc makes cordless drills."),
            (
                "Results",
                2,
                "Revenue for the second quarter of 2024 was $1,377 million.",
            ),
            (
                "Restatement",
                3,
                "Revenue for the first quarter of 2024 was $1,210 million, as restated.",
            ),
        ],
    );
    // Another issuer's first quarter is no contradiction; a rounded statement of the same
    // figure agrees.
    put_built(
        &mut store,
        "birch-q1",
        &[
            ("Overview", 1, "Birch Mills Corp. mills flour."),
            (
                "Results",
                2,
                "Revenue for the first quarter of 2024 was $88 million.",
            ),
        ],
    );
    put_built(
        &mut store,
        "acme-annual",
        &[
            ("Overview", 1, "Acme Tools Inc. makes cordless drills."),
            (
                "Quarters",
                4,
                "Revenue for the second quarter of 2024 was $1.4 billion.",
            ),
        ],
    );
    assert_eq!(
        contradictions(&store),
        [(
            "revenue".to_string(),
            "Q1 2024".to_string(),
            vec![
                ("acme-q1".to_string(), "$1,204 million".to_string(), vec![2]),
                ("acme-q2".to_string(), "$1,210 million".to_string(), vec![3]),
            ]
        )]
    );
    // The lint reports it with both documents and pages.
    let problems: Vec<String> = lint::lint(&store)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        problems.iter().any(|p| p.contains("Q1 2024")
            && p.contains("$1,204 million in `acme-q1` (p. 2)")
            && p.contains("$1,210 million in `acme-q2` (p. 3)")),
        "{problems:?}"
    );

    // The issuer's two spellings are one concept page; its revenue page gives each value's
    // period.
    wiki::render(&mut store).unwrap();
    let pages = wiki_files(dir.path());
    let issuers: Vec<&String> = pages
        .keys()
        .filter(|p| p.starts_with("concepts/acme"))
        .collect();
    assert_eq!(issuers.len(), 1, "{:?}", pages.keys());
    let revenue = pages
        .iter()
        .find(|(path, _)| path.starts_with("concepts/revenue"))
        .map(|(_, text)| text.as_str())
        .unwrap();
    assert!(
        revenue.contains("| Q2 2024 | 2 | $1,377 million |"),
        "{revenue}"
    );
}

#[test]
fn a_version_2_store_gains_issuers_and_periods_when_opened() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut store = Store::open(dir.path()).unwrap();
        for (name, value) in [("a", "$10 million"), ("b", "$12 million")] {
            put_built(
                &mut store,
                name,
                &[
                    ("Overview", 1, "Acme Tools Inc. makes drills."),
                    ("Results", 2, &format!("Revenue for 2023 was {value}.")),
                ],
            );
        }
        assert_eq!(contradictions(&store).len(), 1);
        // As version 2 wrote it: no issuer, no periods.
        store
            .conn
            .execute_batch(
                "ALTER TABLE mentions DROP COLUMN period; ALTER TABLE outlines DROP COLUMN issuer; \
                 UPDATE meta SET value = '2' WHERE key = 'format_version';",
            )
            .unwrap();
    }
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(
        store.meta("format_version").unwrap(),
        Some(FORMAT_VERSION.to_string())
    );
    assert_eq!(
        contradictions(&store),
        [(
            "revenue".to_string(),
            "2023".to_string(),
            vec![
                ("a".to_string(), "$10 million".to_string(), vec![2]),
                ("b".to_string(), "$12 million".to_string(), vec![2]),
            ]
        )]
    );
}

#[test]
fn a_value_is_dated_only_when_its_sentence_states_the_whole_metric_for_one_period() {
    let period =
        |sentence: &str, metric: &str, value: &str| wiki::level_period(sentence, metric, value);
    let stated = [
        (
            "Net sales were $1,284 million in 2024, up 6.2% from $1,209 million in 2023.",
            "net sales",
            "$1,284 million",
            "2024",
        ),
        (
            "Total revenue for the first quarter of 2024 was $1,204 million.",
            "revenue",
            "$1,204 million",
            "Q1 2024",
        ),
        (
            "Revenue for FY2024 was $9 million.",
            "revenue",
            "$9 million",
            "2024",
        ),
        (
            "Our revenue for the six months ended June 30, 2023 was $40 million.",
            "revenue",
            "$40 million",
            "six months ended june 2023",
        ),
    ];
    for (sentence, metric, value, expected) in stated {
        assert_eq!(
            period(sentence, metric, value).as_deref(),
            Some(expected),
            "{sentence}"
        );
    }
    let not_a_level = [
        // Another year's figure follows.
        (
            "Operating income was $187 million, compared with $162 million in 2023.",
            "operating income",
            "$187 million",
        ),
        // Two years, two figures.
        (
            "Revenue for 2024 and 2023 was $5.2 billion and $4.8 billion, respectively.",
            "revenue",
            "$5.2 billion",
        ),
        // A segment's figure.
        (
            "Services revenue for 2024 was $1.1 billion.",
            "revenue",
            "$1.1 billion",
        ),
        // A change, another measure.
        (
            "Revenue increased $83 million in 2017.",
            "revenue",
            "$83 million",
        ),
        (
            "The gross profit rate for 2017 was 23.9%.",
            "gross profit",
            "23.9%",
        ),
        // Which quarter, is not said.
        (
            "Revenue for the quarter ended in 2024 was $40 million.",
            "revenue",
            "$40 million",
        ),
    ];
    for (sentence, metric, value) in not_a_level {
        assert_eq!(period(sentence, metric, value), None, "{sentence}");
    }
}
