//! A cycle-safe walk of the PDF outline (`/Outlines` → `/First` → `/Next`).
//!
//! MuPDF's own loader gives up on an outline with a loop and returns nothing; this walker
//! remembers every outline item it has visited (by object number) and stops a chain when it
//! comes back to one, so it keeps every entry it can reach. Destinations are resolved
//! through explicit page references, page indices, named destinations (`/Dests` and the
//! `/Names` tree, via MuPDF's link resolver) and `/GoTo` actions.

use std::collections::HashSet;

use mupdf::pdf::{PdfDocument, PdfObject};
use nanoindex_core::extract::OutlineEntry;

/// Deepest outline level followed.
const MAX_DEPTH: u32 = 32;
/// Most outline entries read from one file.
const MAX_ENTRIES: usize = 20_000;
/// Longest outline title kept, in characters; a longer one is cut and ends in `…`.
pub const MAX_TITLE_CHARS: usize = 300;

/// What the walk left out, for the warnings.
#[derive(Default)]
struct Cuts {
    /// Entries deeper than [`MAX_DEPTH`] were skipped.
    depth: bool,
    /// Entries past [`MAX_ENTRIES`] were skipped.
    entries: bool,
    /// Titles cut at [`MAX_TITLE_CHARS`].
    titles: usize,
}

impl Cuts {
    fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.depth {
            out.push(format!(
                "the outline is nested deeper than {MAX_DEPTH} levels; deeper entries were left out"
            ));
        }
        if self.entries {
            out.push(format!(
                "the outline has more than {MAX_ENTRIES} entries; the rest were left out"
            ));
        }
        if self.titles > 0 {
            out.push(format!(
                "{} outline title(s) longer than {MAX_TITLE_CHARS} characters were cut",
                self.titles
            ));
        }
        out
    }
}

/// Reads the outline of `doc` in document order, with a warning for each limit met (depth
/// [`MAX_DEPTH`], [`MAX_ENTRIES`] entries, titles of [`MAX_TITLE_CHARS`]). Entries whose
/// destination does not resolve keep their title with `page_no: None`. Only this walker reads
/// outlines: `mupdf::PdfDocument::outlines` dereferences a missing title and crashes the
/// process (a segmentation fault found by fuzzing, on an encrypted file with object streams).
pub fn read_outline(doc: &PdfDocument) -> (Vec<OutlineEntry>, Vec<String>) {
    let mut out = Vec::new();
    let mut cuts = Cuts::default();
    let first = doc
        .catalog()
        .ok()
        .and_then(|c| c.get_dict("Outlines").ok().flatten())
        .and_then(|o| o.get_dict("First").ok().flatten());
    if let Some(first) = first {
        let mut visited = HashSet::new();
        walk(doc, first, 1, &mut visited, &mut out, &mut cuts);
    }
    (out, cuts.warnings())
}

fn walk(
    doc: &PdfDocument,
    first: PdfObject,
    level: u32,
    visited: &mut HashSet<i32>,
    out: &mut Vec<OutlineEntry>,
    cuts: &mut Cuts,
) {
    let mut item = Some(first);
    let mut anonymous: i32 = 0;
    while let Some(node) = item.take() {
        if out.len() >= MAX_ENTRIES {
            cuts.entries = true;
            return;
        }
        if level > MAX_DEPTH {
            cuts.depth = true;
            return;
        }
        let key = if node.is_indirect().unwrap_or(false) {
            node.as_indirect().unwrap_or(-1)
        } else {
            anonymous += 1;
            if anonymous as usize > MAX_ENTRIES {
                return;
            }
            -anonymous
        };
        if key >= 0 && !visited.insert(key) {
            return;
        }
        let title = node
            .get_dict("Title")
            .ok()
            .flatten()
            .and_then(|t| t.as_string().ok())
            .map(|t| clean_title(&t, cuts))
            .unwrap_or_default();
        out.push(OutlineEntry {
            title,
            level,
            page_no: destination_page(doc, &node).map(|idx| idx + 1),
        });
        if let Ok(Some(child)) = node.get_dict("First") {
            walk(doc, child, level + 1, visited, out, cuts);
        }
        item = node.get_dict("Next").ok().flatten();
    }
}

/// The title without control characters, whitespace collapsed, cut at [`MAX_TITLE_CHARS`].
fn clean_title(title: &str, cuts: &mut Cuts) -> String {
    let clean = title
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if clean.chars().count() <= MAX_TITLE_CHARS {
        return clean;
    }
    cuts.titles += 1;
    let mut cut: String = clean.chars().take(MAX_TITLE_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// 0-based page index of an outline item's destination.
fn destination_page(doc: &PdfDocument, item: &PdfObject) -> Option<u32> {
    if let Ok(Some(dest)) = item.get_dict("Dest") {
        return resolve_dest(doc, &dest);
    }
    let action = item.get_dict("A").ok().flatten()?;
    let kind = action.get_dict("S").ok().flatten()?.as_name().ok()?;
    if kind != b"GoTo" {
        return None;
    }
    resolve_dest(doc, &action.get_dict("D").ok().flatten()?)
}

fn resolve_dest(doc: &PdfDocument, dest: &PdfObject) -> Option<u32> {
    if dest.is_array().ok()? {
        let target = dest.get_array(0).ok().flatten()?;
        if target.is_int().ok()? {
            return u32::try_from(target.as_int().ok()?).ok();
        }
        if !target.is_dict().ok()? {
            return None;
        }
        return u32::try_from(doc.lookup_page_number(&target).ok()?).ok();
    }
    let name = if dest.is_name().ok()? {
        String::from_utf8_lossy(&dest.as_name().ok()?).into_owned()
    } else if dest.is_string().ok()? {
        dest.as_string().ok()?
    } else {
        return None;
    };
    if let Some(target) = lookup_named(doc, &name) {
        let explicit = if target.is_dict().ok()? {
            target.get_dict("D").ok().flatten()?
        } else {
            target
        };
        if explicit.is_array().ok()? {
            return resolve_dest(doc, &explicit);
        }
    }
    let uri = format!("#nameddest={}", percent_encode(&name));
    let link = doc.resolve_link(&uri).ok().flatten()?;
    Some(link.loc.page_number)
}

/// Looks a named destination up in the catalog's `/Dests` dictionary (PDF 1.1, name keys)
/// and in the `/Names` → `/Dests` name tree (PDF 1.2+, string keys).
fn lookup_named(doc: &PdfDocument, name: &str) -> Option<PdfObject> {
    let catalog = doc.catalog().ok()?;
    if let Some(found) = catalog
        .get_dict("Dests")
        .ok()
        .flatten()
        .and_then(|d| d.get_dict(name).ok().flatten())
    {
        return Some(found);
    }
    let tree = doc
        .load_name_tree(PdfObject::new_name("Dests").ok()?)
        .ok()?;
    let found = tree.get_dict(name).ok().flatten();
    if found.is_some() {
        return found;
    }
    // Name-tree keys are strings; compare them as text in case the key's encoding differs.
    let n = tree.dict_len().ok()?;
    (0..n as i32).find_map(|i| {
        let key = tree.get_dict_key(i).ok().flatten()?;
        let text = key.as_string().ok().or_else(|| {
            key.as_name()
                .ok()
                .map(|b| String::from_utf8_lossy(&b).into_owned())
        })?;
        (text == name)
            .then(|| tree.get_dict_val(i).ok().flatten())
            .flatten()
    })
}

fn percent_encode(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
