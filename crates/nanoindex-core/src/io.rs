//! Saving and loading tree and graph JSON. Writes are atomic: a temporary file in the same
//! directory, then a rename, so a crash never leaves half a file.

use std::fs;
use std::io::Write;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::CoreError;
use crate::graph::DocumentGraph;
use crate::tree::DocumentTree;

fn io_err(path: &Path, source: std::io::Error) -> CoreError {
    CoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn write_json<T: Serialize>(value: &T, path: &Path, what: &'static str) -> Result<(), CoreError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|source| CoreError::Json {
        path: path.to_path_buf(),
        what,
        source,
    })?;
    bytes.push(b'\n');
    write_atomic(path, &bytes).map_err(|e| io_err(path, e))
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory (named by
/// process and thread, so concurrent writers never share one), synced, then renamed over
/// `path`; parent directories are created. A crash leaves the old file or the new one, never
/// half a file. The one atomic write of the workspace.
///
/// # Errors
/// The I/O error of creating the directory, writing, syncing or renaming (the temporary
/// file is removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_string());
    let tmp = dir.join(format!(
        ".{file_name}.{}.{:?}.tmp",
        std::process::id(),
        std::thread::current().id()
    ));
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn read_json<T: DeserializeOwned>(path: &Path, what: &'static str) -> Result<T, CoreError> {
    let bytes = fs::read(path).map_err(|e| io_err(path, e))?;
    serde_json::from_slice(&bytes).map_err(|source| CoreError::Json {
        path: path.to_path_buf(),
        what,
        source,
    })
}

/// Writes `tree` as pretty JSON to `path`, atomically, creating parent directories.
///
/// # Errors
/// [`CoreError::Io`] when the directory or file cannot be written.
pub fn save_tree(tree: &DocumentTree, path: impl AsRef<Path>) -> Result<(), CoreError> {
    write_json(tree, path.as_ref(), "tree")
}

/// Reads a tree written by this crate or by NanoIndex's `save_tree`.
///
/// # Errors
/// [`CoreError::Io`] when the file cannot be read, [`CoreError::Json`] when it is not a tree.
pub fn load_tree(path: impl AsRef<Path>) -> Result<DocumentTree, CoreError> {
    read_json(path.as_ref(), "tree")
}

/// Writes `graph` as pretty JSON to `path`, atomically.
///
/// # Errors
/// [`CoreError::Io`] when the directory or file cannot be written.
pub fn save_graph(graph: &DocumentGraph, path: impl AsRef<Path>) -> Result<(), CoreError> {
    write_json(graph, path.as_ref(), "graph")
}

/// Reads a graph file.
///
/// # Errors
/// [`CoreError::Io`] when the file cannot be read, [`CoreError::Json`] when it is not a graph.
pub fn load_graph(path: impl AsRef<Path>) -> Result<DocumentGraph, CoreError> {
    read_json(path.as_ref(), "graph")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{assign_node_ids, BoundingBox, TreeNode};

    #[test]
    fn tree_round_trips_and_keeps_unknown_metadata() {
        let mut root = TreeNode::new("Item 7. Management's Discussion", 3, 5);
        root.text = Some("Revenue grew 5%.".into());
        root.bounding_boxes.push(BoundingBox {
            page: 3,
            x: 0.1,
            y: 0.2,
            width: 0.5,
            height: 0.05,
            confidence: 1.0,
            region_type: "heading".into(),
            text: None,
        });
        root.nodes.push(TreeNode::new("Results", 4, 5));
        let mut structure = vec![TreeNode::new("Cover", 1, 2), root];
        assign_node_ids(&mut structure);
        let mut tree = DocumentTree {
            doc_name: "acme".into(),
            doc_description: None,
            domain: Some("sec_10k".into()),
            extraction_metadata: Default::default(),
            structure,
            all_bounding_boxes: vec![],
            page_dimensions: vec![],
        };
        tree.extraction_metadata
            .extra
            .insert("parser".into(), serde_json::json!("nanonets"));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/acme.tree.json");
        save_tree(&tree, &path).unwrap();
        let back = load_tree(&path).unwrap();
        assert_eq!(back, tree);
        assert_eq!(back.find_node("0001.0000").unwrap().title, "Results");
        assert_eq!(back.find_node("0001.0000").unwrap().level, 2);
        let raw: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(raw["extraction_metadata"]["parser"], "nanonets");
        assert_eq!(raw["structure"][1]["nodes"][0]["node_id"], "0001.0000");
    }

    #[test]
    fn loads_a_minimal_nanoindex_tree() {
        let json = r#"{"doc_name":"d","structure":[{"title":"A","node_id":"0000","start_index":1,"end_index":2,"nodes":[{"title":"B"}]}]}"#;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.json");
        fs::write(&path, json).unwrap();
        let tree = load_tree(&path).unwrap();
        assert_eq!(tree.structure[0].nodes[0].title, "B");
        assert_eq!(tree.structure[0].confidence, 1.0);
        assert_eq!(tree.extraction_metadata.format_version, 0);
    }

    #[test]
    fn split_methods_are_typed_and_an_unknown_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.json");
        let node = |method: &str| {
            format!(r#"{{"doc_name":"d","structure":[{{"title":"A","split_method":"{method}"}}]}}"#)
        };
        fs::write(&path, node("llm_boundaries")).unwrap();
        let tree = load_tree(&path).unwrap();
        assert_eq!(
            tree.structure[0].split_method,
            Some(crate::SplitMethod::LlmBoundaries)
        );
        fs::write(&path, node("windows")).unwrap();
        let err = load_tree(&path).unwrap_err().to_string();
        assert!(err.contains("d.json") && err.contains("windows"), "{err}");
    }

    #[test]
    fn bad_json_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("broken.tree.json");
        fs::write(&path, "{not json").unwrap();
        let err = load_tree(&path).unwrap_err().to_string();
        assert!(err.contains("broken.tree.json"), "{err}");
        assert!(err.contains("not a valid tree file"), "{err}");
    }
}
