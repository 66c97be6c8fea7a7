//! What a repaired file lost, page by page. MuPDF repairs a file whose cross-reference table
//! is broken (a download cut short, a damaged disk) by scanning it for objects, and reads what
//! it finds without saying what is gone. For each page this finds, in the file's own bytes,
//! the losses that change its text: a content stream that is missing (its object is not in
//! the file), one that is cut short (no `endstream` before the next object or the end of the
//! file: text after the cut is lost), and a font that is missing (the page's text in it is
//! lost or garbled).

use std::collections::HashMap;

use mupdf::pdf::{PdfDocument, PdfObject};

/// Most pages checked (a lying page count must not drive the work).
const MAX_PAGES: u32 = 100_000;

/// Where each object starts in the file (the last definition wins, as in an incremental
/// update), and where every `endstream` keyword is, in one pass over the bytes.
struct Layout {
    /// Object number → byte offset of its `N G obj` header.
    objects: HashMap<i32, usize>,
    /// Sorted offsets of every object header.
    starts: Vec<usize>,
    /// Sorted offsets of every `endstream`.
    endstreams: Vec<usize>,
}

impl Layout {
    fn scan(bytes: &[u8]) -> Layout {
        let mut objects = HashMap::new();
        let mut starts = Vec::new();
        let mut endstreams = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i..].starts_with(b"endstream") {
                endstreams.push(i);
                i += 9;
                continue;
            }
            if bytes[i..].starts_with(b" obj") || bytes[i..].starts_with(b"\nobj") {
                if let Some((num, start)) = object_number_before(bytes, i) {
                    objects.insert(num, start);
                    starts.push(start);
                }
                i += 4;
                continue;
            }
            i += 1;
        }
        starts.sort_unstable();
        // Found in file order already; sorted for the binary searches of `is_cut`.
        endstreams.sort_unstable();
        Layout {
            objects,
            starts,
            endstreams,
        }
    }

    /// Whether the stream object `num` is in the file but has no `endstream` before the next
    /// object (or the end of the file).
    fn is_cut(&self, num: i32) -> bool {
        let Some(&start) = self.objects.get(&num) else {
            return false;
        };
        let next = self
            .starts
            .get(self.starts.partition_point(|&s| s <= start))
            .copied()
            .unwrap_or(usize::MAX);
        let first_end = self.endstreams.partition_point(|&e| e <= start);
        self.endstreams.get(first_end).is_none_or(|&e| e >= next)
    }
}

/// `N G` before ` obj` at `at`: the object number and where its header starts.
fn object_number_before(bytes: &[u8], at: usize) -> Option<(i32, usize)> {
    let digits_back = |end: usize| {
        let mut s = end;
        while s > 0 && bytes[s - 1].is_ascii_digit() {
            s -= 1;
        }
        (s < end).then_some(s)
    };
    let gen_start = digits_back(at)?;
    if gen_start == 0 || !bytes[gen_start - 1].is_ascii_whitespace() {
        return None;
    }
    let num_start = digits_back(gen_start - 1)?;
    let num = std::str::from_utf8(&bytes[num_start..gen_start - 1])
        .ok()?
        .parse()
        .ok()?;
    Some((num, num_start))
}

/// One line per page of `doc` (parsed from `bytes`, repaired by MuPDF) saying what of its
/// text the damage lost; empty when nothing is found missing.
pub(crate) fn page_losses(doc: &PdfDocument, bytes: &[u8], page_count: u32) -> Vec<String> {
    let layout = Layout::scan(bytes);
    let mut out = Vec::new();
    for idx in 0..page_count.min(MAX_PAGES) {
        let Ok(page) = doc.find_page(idx as i32) else {
            continue;
        };
        let mut losses = content_losses(&page, &layout).unwrap_or_default();
        losses.extend(font_losses(&page).unwrap_or_default());
        if !losses.is_empty() {
            out.push(format!(
                "page {}: damaged file: {}",
                idx + 1,
                losses.join("; ")
            ));
        }
    }
    out
}

/// The page's content streams that are missing or cut short.
fn content_losses(page: &PdfObject, layout: &Layout) -> Result<Vec<String>, mupdf::Error> {
    let Some(contents) = page.get_dict("Contents")? else {
        return Ok(Vec::new());
    };
    let streams: Vec<PdfObject> = if contents.is_array()? {
        contents.array_iter()?.collect::<Result<_, _>>()?
    } else {
        vec![contents]
    };
    let mut out = Vec::new();
    for stream in streams {
        if !stream.is_indirect()? {
            continue;
        }
        let num = stream.as_indirect()?;
        let present = stream
            .resolve()?
            .is_some_and(|s| !s.is_null().unwrap_or(true));
        if !present || !layout.objects.contains_key(&num) {
            out.push(format!(
                "its content stream (object {num}) is missing; the page's text is lost"
            ));
        } else if layout.is_cut(num) {
            out.push(format!(
                "its content stream (object {num}) is cut short; the text after the cut is lost"
            ));
        }
    }
    Ok(out)
}

/// The page's fonts whose objects are missing.
fn font_losses(page: &PdfObject) -> Result<Vec<String>, mupdf::Error> {
    let Some(resources) = page.get_dict_inheritable("Resources")? else {
        return Ok(Vec::new());
    };
    let Some(fonts) = resources.get_dict("Font")? else {
        return Ok(Vec::new());
    };
    if !fonts.is_dict()? {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for entry in fonts.dict_iter()? {
        let (name, font) = entry?;
        let missing =
            font.is_indirect()? && font.resolve()?.is_none_or(|f| f.is_null().unwrap_or(true));
        if missing {
            let name = String::from_utf8_lossy(&name.as_name()?).into_owned();
            out.push(format!(
                "font `{name}` is missing; its text may be lost or garbled"
            ));
        }
    }
    Ok(out)
}
