//! Pages of a file whose page tree lies about its size: a `/Count` of a billion over one real
//! page makes MuPDF's own page lookup fail ("Invalid number of pages") or claim pages that do
//! not exist. The page objects the file really holds are found by walking the tree's `/Kids`
//! (cycle-safe, bounded), else by scanning every object for `/Type /Page`, and copied into a
//! new in-memory document with a truthful page tree, as `mutool clean` recovers them (their
//! content, resources and sizes; not their annotations).

use std::collections::HashSet;

use mupdf::pdf::{PdfDocument, PdfGraftMap, PdfObject};

/// Most pages recovered, and most objects scanned, from one file (bounds time and memory on
/// lying files).
const MAX_PAGES: usize = 100_000;

/// Deepest page tree walked.
const MAX_DEPTH: usize = 64;

/// Page attributes copied into the rebuilt page, looked up through the page's ancestors for
/// the inheritable ones (ISO 32000-1 §7.7.3.4: Resources, MediaBox, CropBox, Rotate).
/// Annotations are not copied: each names its page (`/P`), which would pull the lying page
/// tree into the rebuilt document.
const PAGE_KEYS: &[&str] = &[
    "MediaBox",
    "CropBox",
    "Rotate",
    "Resources",
    "Contents",
    "UserUnit",
];

/// A document holding exactly the pages `doc` really has, in page-tree order (object order
/// when the tree cannot be walked), and how many it holds; `None` when no page object is
/// found. The pages keep their content and resources; their annotations, the outline and the
/// page labels of the original are not copied.
pub(crate) fn rebuild(doc: &PdfDocument) -> Option<(PdfDocument, usize)> {
    let mut pages = walk_tree(doc).unwrap_or_default();
    if pages.is_empty() {
        pages = scan_objects(doc).unwrap_or_default();
    }
    if pages.is_empty() {
        return None;
    }
    let mut rebuilt = PdfDocument::new();
    // One graft map for every page: resources the pages share are copied once.
    let mut map = rebuilt.new_graft_map().ok()?;
    let mut count = 0;
    for page in &pages {
        if copy_page(&mut rebuilt, &mut map, page, count).is_ok() {
            count += 1;
        }
    }
    drop(map);
    if count == 0 {
        return None;
    }
    let mut bytes = Vec::new();
    rebuilt.write_to(&mut bytes).ok()?;
    let reopened = PdfDocument::from_bytes(&bytes).ok()?;
    Some((reopened, count))
}

/// The `/Page` leaves under the catalog's `/Pages`, in order, each object visited once.
fn walk_tree(doc: &PdfDocument) -> Result<Vec<PdfObject>, mupdf::Error> {
    let Some(root) = doc.catalog()?.get_dict("Pages")? else {
        return Ok(Vec::new());
    };
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![(root, 0usize)];
    while let Some((node, depth)) = stack.pop() {
        if out.len() >= MAX_PAGES {
            break;
        }
        if depth > MAX_DEPTH {
            continue;
        }
        if node.is_indirect()? && !seen.insert(node.as_indirect()?) {
            continue;
        }
        let Some(node) = node.resolve()? else {
            continue;
        };
        if !node.is_dict()? {
            continue;
        }
        match node.get_dict("Kids")? {
            Some(kids) if kids.is_array()? => {
                // Pushed in reverse so that pages pop in document order.
                let n = kids.len()?.min(MAX_PAGES);
                for i in (0..n).rev() {
                    if let Some(kid) = kids.get_array(i as i32)? {
                        stack.push((kid, depth + 1));
                    }
                }
            }
            _ if is_page(&node)? => out.push(node),
            _ => {}
        }
    }
    Ok(out)
}

/// Every object of the file that is a `/Type /Page` dictionary, in object order.
fn scan_objects(doc: &PdfDocument) -> Result<Vec<PdfObject>, mupdf::Error> {
    let mut out = Vec::new();
    let n = doc.xref_len()?.min(10 * MAX_PAGES);
    for xref in 1..n {
        let Ok(Some(object)) = doc.xref_object(xref as i32) else {
            continue;
        };
        if object.is_dict()? && is_page(&object)? {
            out.push(object);
            if out.len() >= MAX_PAGES {
                break;
            }
        }
    }
    Ok(out)
}

fn is_page(node: &PdfObject) -> Result<bool, mupdf::Error> {
    Ok(match node.get_dict("Type")? {
        Some(kind) => kind.is_name()? && kind.as_name()? == b"Page",
        None => false,
    })
}

/// Copies `page` (its page attributes, inherited ones resolved, never its `/Parent`) into
/// `into` as page `at` (0-based), grafting what it refers to through `map`.
fn copy_page(
    into: &mut PdfDocument,
    map: &mut PdfGraftMap,
    page: &PdfObject,
    at: usize,
) -> Result<(), mupdf::Error> {
    let mut dict = into.new_dict()?;
    dict.dict_put("Type", into.new_name("Page")?)?;
    for key in PAGE_KEYS {
        if let Some(value) = page.get_dict_inheritable(*key)? {
            dict.dict_put(*key, map.graft_object(&value)?)?;
        }
    }
    if page.get_dict_inheritable("MediaBox")?.is_none() {
        // A page without a size is read as US Letter, as MuPDF does.
        let mut letter = into.new_array()?;
        for v in [0, 0, 612, 792] {
            letter.array_push(into.new_int(v)?)?;
        }
        dict.dict_put("MediaBox", letter)?;
    }
    let object = into.add_object(&dict)?;
    into.insert_page(at as i32, &object)
}
