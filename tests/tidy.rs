//! Architecture rules that run: every crate's `Cargo.toml` is read and its dependencies
//! checked against the layers of ARCHITECTURE.md (a crate depends only on crates of lower
//! layers), the crates that alone may link MuPDF, llama.cpp and petgraph or open sockets, and
//! the CLI's one engine dependency.

use std::collections::BTreeMap;
use std::path::Path;

/// Each workspace crate and its layer (ARCHITECTURE.md, "Layers").
const LAYERS: &[(&str, u8)] = &[
    ("nanoindex-core", 0),
    ("nanoindex-pdf", 1),
    ("nanoindex-tree", 1),
    ("nanoindex-graph", 1),
    ("nanoindex-llm", 1),
    ("nanoindex-models", 1),
    ("nanoindex-llm-llamacpp", 2),
    ("nanoindex-llm-candle", 2),
    ("nanoindex-llm-http", 2),
    ("nanoindex-llm-conformance", 2),
    ("nanoindex-embed", 2),
    ("nanoindex-retrieve", 2),
    ("nanoindex-kb", 2),
    ("nanoindex", 3),
    ("nanoindex-cli", 4),
];

/// External crates only one workspace crate may depend on, and why.
const EXCLUSIVE: &[(&str, &str, &str)] = &[
    ("mupdf", "nanoindex-pdf", "only the PDF crate links MuPDF"),
    (
        "rusqlite",
        "nanoindex-kb",
        "only the knowledge base store opens SQLite",
    ),
    (
        "llama-cpp-2",
        "nanoindex-llm-llamacpp",
        "only the llama.cpp crate links llama.cpp",
    ),
    (
        "petgraph",
        "nanoindex-graph",
        "only the graph crate names petgraph",
    ),
    (
        "ureq",
        "nanoindex-llm-http",
        "only the HTTP backend opens connections",
    ),
    (
        "hf-hub",
        "nanoindex-models",
        "only `models pull` downloads, behind the model-files crate's `pull` feature",
    ),
];

/// Every crate's parsed `Cargo.toml` under `crates/`: crate name → manifest.
fn crate_manifests() -> BTreeMap<String, toml::Table> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&root).expect("crates/ lists") {
        let path = entry.expect("entry").path().join("Cargo.toml");
        let text = std::fs::read_to_string(&path).expect("Cargo.toml reads");
        let manifest: toml::Table = text
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = manifest["package"]["name"]
            .as_str()
            .expect("package name")
            .to_string();
        out.insert(name, manifest);
    }
    out
}

/// The entries of table `key` of a manifest, each with `value` read from its entry.
fn entries<T>(
    manifest: &toml::Table,
    key: &str,
    value: impl Fn(&toml::Value) -> T,
) -> BTreeMap<String, T> {
    manifest
        .get(key)
        .and_then(toml::Value::as_table)
        .map(|t| t.iter().map(|(k, v)| (k.clone(), value(v))).collect())
        .unwrap_or_default()
}

/// `[dependencies]` of every crate under `crates/`: crate name → (dependency → optional).
fn manifests() -> BTreeMap<String, BTreeMap<String, bool>> {
    crate_manifests()
        .into_iter()
        .map(|(name, manifest)| {
            let deps = entries(&manifest, "dependencies", |v| {
                v.get("optional")
                    .and_then(toml::Value::as_bool)
                    .unwrap_or(false)
            });
            (name, deps)
        })
        .collect()
}

/// `[features]` of the workspace crate `name`: feature → what it enables.
fn features(name: &str) -> BTreeMap<String, Vec<String>> {
    entries(&crate_manifests()[name], "features", |v| {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    })
}

fn layer(name: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

#[test]
fn every_crate_has_a_layer_and_depends_only_on_lower_layers() {
    let mut broken = Vec::new();
    for (name, deps) in manifests() {
        let Some(own) = layer(&name) else {
            broken.push(format!(
                "{name} has no layer in tests/tidy.rs and ARCHITECTURE.md"
            ));
            continue;
        };
        for dep in deps.keys().filter(|d| d.starts_with("nanoindex")) {
            match layer(dep) {
                Some(l) if l < own => {}
                _ => broken.push(format!(
                    "{name} (L{own}) depends on {dep} (not a lower layer)"
                )),
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn native_libraries_and_network_crates_have_one_home() {
    let manifests = manifests();
    let mut broken = Vec::new();
    for (external, home, why) in EXCLUSIVE {
        for (name, deps) in &manifests {
            if deps.contains_key(*external) && name != home {
                broken.push(format!("{name} depends on {external}: {why}"));
            }
        }
    }
    // The download code is optional: `--no-default-features` builds the engine without it.
    assert_eq!(
        manifests["nanoindex-models"].get("hf-hub"),
        Some(&true),
        "hf-hub must be optional"
    );
    let engine_features = features("nanoindex");
    assert!(
        !engine_features["default"].is_empty()
            && engine_features["pull"] == ["nanoindex-models/pull"],
        "the engine's `pull` feature is the one switch for downloads: {engine_features:?}"
    );
    // Retrieval is pure computation: no PDF, model or network crate.
    for dep in manifests["nanoindex-retrieve"].keys() {
        if [
            "mupdf",
            "ureq",
            "hf-hub",
            "llama-cpp-2",
            "candle-core",
            "rusqlite",
        ]
        .contains(&dep.as_str())
        {
            broken.push(format!(
                "nanoindex-retrieve depends on {dep}: retrieval does no I/O"
            ));
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn the_cli_depends_only_on_the_engine() {
    let manifests = manifests();
    let internal: Vec<&String> = manifests["nanoindex-cli"]
        .keys()
        .filter(|d| d.starts_with("nanoindex"))
        .collect();
    assert_eq!(
        internal,
        ["nanoindex"],
        "the CLI is parse → one engine call → render"
    );
}

#[test]
fn the_conformance_suite_is_dev_only() {
    let manifests = manifests();
    let users: Vec<&String> = manifests
        .iter()
        .filter(|(_, deps)| deps.contains_key("nanoindex-llm-conformance"))
        .map(|(name, _)| name)
        .collect();
    assert!(
        users.is_empty(),
        "only [dev-dependencies] may name nanoindex-llm-conformance: {users:?}"
    );
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/nanoindex-llm-conformance/Cargo.toml"),
    )
    .expect("the conformance crate's manifest reads");
    assert!(
        text.contains("publish = false"),
        "the suite is not published"
    );
}
