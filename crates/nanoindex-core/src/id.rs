//! Node ids: dotted, 4-digit, depth-first, 0-based, as NanoIndex writes them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Id of a tree node, e.g. `0002.0001` for the second child of the third top-level node.
///
/// Serialised as the plain string, so JSON stays NanoIndex-compatible.
///
/// ```
/// use nanoindex_core::NodeId;
/// let id = NodeId::from_path(&[2, 1]);
/// assert_eq!(id.as_str(), "0002.0001");
/// assert_eq!(id.depth(), 2);
/// assert_eq!(id.parent().unwrap().as_str(), "0002");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub String);

impl NodeId {
    /// Builds the id of the node reached by taking child `path[0]` at the top level, then
    /// child `path[1]`, and so on (0-based indices).
    pub fn from_path(path: &[usize]) -> Self {
        let parts: Vec<String> = path.iter().map(|i| format!("{i:04}")).collect();
        NodeId(parts.join("."))
    }

    /// The id as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Depth of the node: 1 for top-level nodes.
    pub fn depth(&self) -> usize {
        if self.0.is_empty() {
            0
        } else {
            self.0.split('.').count()
        }
    }

    /// Id of the parent node, or `None` for a top-level node.
    pub fn parent(&self) -> Option<NodeId> {
        self.0
            .rfind('.')
            .map(|cut| NodeId(self.0[..cut].to_string()))
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for NodeId {
    fn from(s: &str) -> Self {
        NodeId(s.to_string())
    }
}
