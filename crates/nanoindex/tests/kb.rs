//! The knowledge base on PDFs the tests write: documents chosen by retrieval, a comparison
//! answered from two documents with citations naming each, idempotent adds, replacement,
//! removal, folders of `index` output, and a source that changed on disk. The model's
//! replies are unusable (not JSON), so what is asserted is the engine's own work.

mod common;

use common::Flow;
use nanoindex::{AskOptions, Config, IndexError, KnowledgeBase, Mode, NanoIndex};
use nanoindex_core::AnswerStatus;
use nanoindex_llm::ScriptedGenerator;

fn quarterly(quarter: &str, revenue: &str, other: &str) -> Vec<u8> {
    let mut f = Flow::new();
    f.heading(16.0, &format!("Harbor Mills {quarter} 2024 Report"));
    f.para(&["Harbor Mills makes flour and baking mixes for grocers."]);
    f.new_page();
    f.heading(12.0, "Results of Operations");
    f.para(&[&format!(
        "Revenue for the {quarter} of 2024 was $1,{revenue} million, on steady demand."
    )]);
    f.para(&[other]);
    f.bytes()
}

fn engine() -> NanoIndex {
    let replies: Vec<&str> = vec!["not json"; 40];
    NanoIndex::with_generator(
        Config {
            dense: false,
            ..Config::default()
        },
        Box::new(ScriptedGenerator::new(replies)),
    )
}

/// Asks in `fast` mode.
fn ask(kb: &mut KnowledgeBase, question: &str) -> nanoindex::KbAnswer {
    kb.ask(question, &fast(), &mut |_| {}).unwrap()
}

/// A comparison of the two quarterly reports: both revenues stated, each report cited on
/// page 2 (where it states its revenue).
fn assert_both_quarters(answer: &nanoindex::KbAnswer) {
    let content = &answer.answer.content;
    assert!(content.contains("$1,204 million"), "{answer:#?}");
    assert!(content.contains("$1,377 million"), "{answer:#?}");
    let mut cited: Vec<(String, Vec<u32>)> = answer
        .answer
        .citations
        .iter()
        .map(|c| (c.doc_name.clone().unwrap(), c.pages.clone()))
        .collect();
    cited.sort();
    cited.dedup();
    assert_eq!(
        cited,
        [
            ("harbor-q1-2024".to_string(), vec![2]),
            ("harbor-q2-2024".to_string(), vec![2])
        ],
        "{answer:#?}"
    );
}

fn fast() -> AskOptions {
    AskOptions {
        mode: Mode::Fast,
        ..AskOptions::default()
    }
}

#[test]
fn a_comparison_is_answered_from_both_documents_and_a_narrow_question_from_one() {
    let dir = tempfile::tempdir().unwrap();
    let q1 = dir.path().join("harbor-q1-2024.pdf");
    let q2 = dir.path().join("harbor-q2-2024.pdf");
    std::fs::write(
        &q1,
        quarterly("first quarter", "204", "Wheat costs rose in the quarter."),
    )
    .unwrap();
    std::fs::write(
        &q2,
        quarterly("second quarter", "377", "A new mill opened in Salem."),
    )
    .unwrap();
    let mut kb = KnowledgeBase::open(&dir.path().join("kb"), engine()).unwrap();
    for p in [&q1, &q2] {
        let report = kb.add(p, &mut |_| {}).unwrap();
        assert_eq!(report.outcome, "added");
        assert_eq!(report.pages, 2);
    }

    let answer = ask(
        &mut kb,
        "Compare revenue in the first quarter and the second quarter",
    );
    let mut read = answer.read.clone();
    read.sort();
    assert_eq!(read, ["harbor-q1-2024", "harbor-q2-2024"]);
    assert_eq!(
        answer.answer.status,
        Some(AnswerStatus::Answered),
        "{answer:#?}"
    );
    assert_both_quarters(&answer);

    // A question one document answers reads that one and cites only it.
    let answer = ask(&mut kb, "Where did the new mill open?");
    assert_eq!(answer.read, ["harbor-q2-2024"]);
    assert_eq!(answer.considered[0].name, "harbor-q2-2024");
    assert!(answer.answer.content.contains("Salem"), "{answer:#?}");
    assert!(answer
        .answer
        .citations
        .iter()
        .all(|c| c.doc_name.as_deref() == Some("harbor-q2-2024")));

    // Both questions were recorded.
    assert_eq!(kb.status().unwrap().questions, 2);
}

/// The issue's own question, with the default model (llama.cpp, SmolLM2): both quarterly
/// reports are read and each is cited on the page that states its revenue.
#[test]
fn compare_q1_and_q2_revenue_with_the_default_model_cites_both_reports() {
    let Some(model) = common::default_model() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (name, quarter, revenue) in [
        ("harbor-q1-2024", "first quarter", "204"),
        ("harbor-q2-2024", "second quarter", "377"),
    ] {
        let path = dir.path().join(format!("{name}.pdf"));
        std::fs::write(&path, quarterly(quarter, revenue, "Flour prices held.")).unwrap();
        paths.push(path);
    }
    let engine = NanoIndex::with_generator(
        Config {
            dense: false,
            ..Config::default()
        },
        model,
    );
    let mut kb = KnowledgeBase::open(&dir.path().join("kb"), engine).unwrap();
    for p in &paths {
        kb.add(p, &mut |_| {}).unwrap();
    }
    assert_both_quarters(&ask(&mut kb, "Compare Q1 and Q2 revenue"));
}

#[test]
fn adds_are_idempotent_a_changed_file_replaces_its_version_and_a_changed_source_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("harbor.pdf");
    std::fs::write(&pdf, quarterly("first quarter", "204", "Wheat costs rose.")).unwrap();
    let kb_dir = dir.path().join("kb");
    let mut kb = KnowledgeBase::open(&kb_dir, engine()).unwrap();
    assert_eq!(kb.add(&pdf, &mut |_| {}).unwrap().outcome, "added");
    assert_eq!(kb.add(&pdf, &mut |_| {}).unwrap().outcome, "unchanged");
    assert!(kb.lint().unwrap().is_empty());

    // The file changes on disk: lint says so, and asking refuses the changed source.
    std::fs::write(&pdf, quarterly("first quarter", "299", "Wheat costs fell.")).unwrap();
    let problems = kb.lint().unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0]
        .to_string()
        .contains("changed since it was added"));
    let err = kb
        .ask(
            "What was revenue in the first quarter?",
            &fast(),
            &mut |_| {},
        )
        .unwrap_err();
    assert!(matches!(err, IndexError::KbSource { .. }), "{err}");

    // Adding it again replaces the old version.
    assert_eq!(kb.add(&pdf, &mut |_| {}).unwrap().outcome, "replaced");
    assert_eq!(kb.status().unwrap().documents, 1);
    let answer = ask(&mut kb, "What was revenue in the first quarter?");
    assert_eq!(
        answer.answer.status,
        Some(AnswerStatus::Answered),
        "{answer:#?}"
    );
    assert!(
        answer.answer.content.contains("$1,299 million"),
        "{answer:#?}"
    );

    assert!(kb.remove("harbor").unwrap());
    assert_eq!(kb.status().unwrap().documents, 0);
    let answer = ask(&mut kb, "What was revenue in the first quarter?");
    assert_eq!(answer.answer.status, Some(AnswerStatus::NotFound));
    assert!(answer.answer.citations.is_empty());

    // A store reopened by another handle sees the same documents.
    drop(kb);
    let kb = KnowledgeBase::open(&kb_dir, engine()).unwrap();
    assert_eq!(kb.status().unwrap().questions, 2);
}

#[test]
fn a_folder_of_index_output_is_added_tree_by_tree() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shard-0");
    std::fs::create_dir_all(&out).unwrap();
    let engine = engine();
    for (name, quarter, revenue) in [
        ("a-q1", "first quarter", "204"),
        ("b-q2", "second quarter", "377"),
    ] {
        let pdf = out.join(format!("{name}.pdf"));
        std::fs::write(&pdf, quarterly(quarter, revenue, "Flour prices held.")).unwrap();
        let indexed = engine.index(&pdf).unwrap();
        nanoindex_core::save_tree(&indexed.tree, out.join(format!("{name}.tree.json"))).unwrap();
        // The PDF stays beside its tree (where `index` found it); only trees are added.
        std::fs::rename(&pdf, dir.path().join(format!("{name}.pdf"))).unwrap();
        let mut tree = indexed.tree.clone();
        tree.extraction_metadata.source_path =
            Some(dir.path().join(format!("{name}.pdf")).display().to_string());
        nanoindex_core::save_tree(&tree, out.join(format!("{name}.tree.json"))).unwrap();
    }
    let sources = nanoindex::inputs::files_of(
        std::slice::from_ref(&out),
        nanoindex::inputs::FolderFiles::PdfsAndTrees,
    )
    .unwrap();
    assert_eq!(sources.len(), 2, "{sources:?}");
    let mut kb = KnowledgeBase::open(&dir.path().join("kb"), engine).unwrap();
    for s in &sources {
        assert_eq!(kb.add(s, &mut |_| {}).unwrap().outcome, "added");
    }
    let names: Vec<String> = kb
        .store()
        .documents()
        .unwrap()
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(names, ["a-q1", "b-q2"]);
    let hits = kb.search("second quarter revenue", 3).unwrap();
    assert_eq!(hits[0].doc_name, "b-q2");
    assert_eq!(hits[0].page_no, 2);
}

#[test]
fn a_tree_is_added_with_the_graph_file_given_and_an_unreadable_graph_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("harbor-q1.pdf");
    std::fs::write(
        &pdf,
        quarterly("first quarter", "204", "Flour prices held."),
    )
    .unwrap();
    let engine = engine();
    let indexed = engine.index(&pdf).unwrap();
    let tree_path = dir.path().join("harbor-q1.tree.json");
    nanoindex_core::save_tree(&indexed.tree, &tree_path).unwrap();
    // A graph made elsewhere (another extractor, another name), with an entity the rules
    // do not find.
    let mut graph = indexed.graph.clone();
    graph.entities.push(nanoindex_core::Entity {
        name: "Salem Grain Cooperative".into(),
        entity_type: nanoindex_core::EntityType::Organization,
        description: String::new(),
        source_node_ids: vec![indexed.tree.structure[0].node_id.clone()],
    });
    let graph_path = dir.path().join("reviewed-graph.json");
    std::fs::write(&graph_path, serde_json::to_string(&graph).unwrap()).unwrap();

    let mut kb = KnowledgeBase::open(&dir.path().join("kb"), engine).unwrap();
    let missing = dir.path().join("no-such-graph.json");
    match kb.add_tree(&tree_path, Some(&missing), &mut |_| {}) {
        Err(IndexError::GraphLoad { path, .. }) => assert_eq!(path, missing),
        other => panic!("{other:?}"),
    }
    assert!(kb.store().documents().unwrap().is_empty());

    let report = kb
        .add_tree(&tree_path, Some(&graph_path), &mut |_| {})
        .unwrap();
    assert_eq!(
        (report.name.as_str(), report.outcome.as_str()),
        ("harbor-q1", "added")
    );
    let (_, stored, _) = kb.store().load("harbor-q1").unwrap();
    assert_eq!(stored, graph);
}

#[test]
fn the_wiki_is_rendered_from_the_store_with_every_link_resolving() {
    let dir = tempfile::tempdir().unwrap();
    let kb_dir = dir.path().join("kb");
    let mut kb = KnowledgeBase::open(&kb_dir, engine()).unwrap();
    for (file, quarter, revenue, other) in [
        (
            "Harbor Mills Q1 (2024).pdf",
            "first quarter",
            "204",
            "Northwind Traders Inc. bought flour.",
        ),
        (
            "Société Générale ../q2.pdf",
            "second quarter",
            "377",
            "Northwind Traders Inc. bought mixes.",
        ),
    ] {
        let path = dir.path().join(file.replace('/', "_"));
        std::fs::write(&path, quarterly(quarter, revenue, other)).unwrap();
        kb.add(&path, &mut |_| {}).unwrap();
    }
    ask(&mut kb, "What was revenue in the second quarter?");
    let wiki = kb_dir.join("wiki");
    let mut files: Vec<String> = Vec::new();
    let mut stack = vec![wiki.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p.strip_prefix(&wiki).unwrap().display().to_string());
            }
        }
    }
    files.sort();
    assert_eq!(
        files,
        [
            "_index.md",
            "concepts/northwind-traders-inc.md",
            "concepts/revenue.md",
            "documents/harbor-mills-q1-2024.md",
            "documents/soci-t-g-n-rale-q2.md",
            "log.md",
            "queries/1-what-was-revenue-in-the-second-quarter.md",
        ]
    );
    // Every page has front matter; the query page cites its document by link.
    for f in &files {
        let text = std::fs::read_to_string(wiki.join(f)).unwrap();
        assert!(text.starts_with("---\ntype: "), "{f}: {text}");
    }
    let query =
        std::fs::read_to_string(wiki.join("queries/1-what-was-revenue-in-the-second-quarter.md"))
            .unwrap();
    assert!(query.contains("$1,377 million"), "{query}");
    assert!(query.contains("[[documents/soci-t-g-n-rale-q2|"), "{query}");
    let concept = std::fs::read_to_string(wiki.join("concepts/northwind-traders-inc.md")).unwrap();
    assert!(
        concept.contains("[[documents/harbor-mills-q1-2024\\|"),
        "{concept}"
    );
    // A metric's values per document, each with its page.
    let revenue = std::fs::read_to_string(wiki.join("concepts/revenue.md")).unwrap();
    assert!(
        revenue.contains(
            "| [[documents/harbor-mills-q1-2024\\|Harbor Mills Q1 (2024)]] | Q1 2024 | 2 | $1,204 million |"
        ),
        "{revenue}"
    );
    assert!(
        revenue.contains("| Q2 2024 | 2 | $1,377 million |"),
        "{revenue}"
    );
    // The question about revenue links to the concept, and the concept back to it.
    assert!(revenue.contains("[[queries/1-what-was-revenue-in-the-second-quarter|"));
    assert!(query.contains("[[concepts/revenue|"), "{query}");
    let log = std::fs::read_to_string(wiki.join("log.md")).unwrap();
    assert_eq!(log.matches(" add: ").count(), 2, "{log}");
    assert_eq!(log.matches(" question: ").count(), 1, "{log}");
    assert!(kb.lint().unwrap().is_empty(), "{:?}", kb.lint().unwrap());

    // A planted orphan page and a broken link are found.
    std::fs::write(
        wiki.join("concepts/stray.md"),
        "---\ntype: concept\n---\n[[documents/nowhere]]\n",
    )
    .unwrap();
    let problems: Vec<String> = kb.lint().unwrap().iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            "wiki `concepts/stray.md`: link [[documents/nowhere]] has no page",
            "wiki `concepts/stray.md`: no page links to it",
        ]
    );
    // Removing a document renders the wiki again without it (and without the stray page).
    assert!(kb.remove("Harbor Mills Q1 (2024)").unwrap());
    assert!(!wiki.join("documents/harbor-mills-q1-2024.md").exists());
    assert!(!wiki.join("concepts/stray.md").exists());
    assert!(kb.lint().unwrap().is_empty());
}

/// All 17 FinanceBench dev filings in one knowledge base (structure-only, lexical): status,
/// a question about one filing answered from it, a comparison citing two filings, search,
/// lint and the wiki.
#[test]
fn the_financebench_filings_in_one_knowledge_base() {
    let Some(data) = common::shared_data() else {
        return;
    };
    let pdfs = data.join("data/financebench-dev/pdfs");
    let dir = tempfile::tempdir().unwrap();
    let kb_dir = dir.path().join("kb");
    let cache = dir.path().join("cache");
    let engine = NanoIndex::with_generator(
        Config {
            dense: false,
            cache: Some(cache),
            ..Config::default()
        },
        Box::new(ScriptedGenerator::new(vec!["not json"; 40])),
    );
    let mut kb = KnowledgeBase::open(&kb_dir, engine).unwrap();
    let files = nanoindex::inputs::files_of(
        std::slice::from_ref(&pdfs),
        nanoindex::inputs::FolderFiles::PdfsAndTrees,
    )
    .unwrap();
    assert_eq!(files.len(), 17);
    for f in &files {
        kb.add(f, &mut |_| {}).unwrap();
    }
    let status = kb.status().unwrap();
    assert_eq!(status.documents, 17);
    assert!(status.pages > 1_000, "{status:?}");

    // A question about one filing is answered from that filing.
    let answer = ask(
        &mut kb,
        "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
    );
    assert_eq!(answer.read[0], "3M_2018_10K", "{:?}", answer.considered);
    assert!(
        answer.answer.content.contains("$1,577 million"),
        "{answer:#?}"
    );
    let cited: Vec<(Option<String>, Vec<u32>)> = answer
        .answer
        .citations
        .iter()
        .map(|c| (c.doc_name.clone(), c.pages.clone()))
        .collect();
    assert_eq!(cited[0], (Some("3M_2018_10K".to_string()), vec![60]));

    // A comparison reads both filings and cites each.
    let answer = ask(
        &mut kb,
        "Compare the net PP&E of Boeing at year end FY2018 and of 3M at year end FY2018",
    );
    let docs: std::collections::BTreeSet<String> = answer
        .answer
        .citations
        .iter()
        .filter_map(|c| c.doc_name.clone())
        .collect();
    assert!(
        docs.contains("BOEING_2018_10K") && docs.contains("3M_2018_10K"),
        "{answer:#?}"
    );

    let hits = kb
        .search("Netflix streaming content obligations", 5)
        .unwrap();
    assert!(hits[0].doc_name.starts_with("NETFLIX"), "{hits:?}");
    assert!(kb.lint().unwrap().is_empty(), "{:?}", kb.lint().unwrap());
    assert!(kb_dir.join("wiki/documents/3m-2018-10k.md").is_file());
}
