//! Printed page labels from the catalog's `/PageLabels` number tree (ISO 32000-1 §12.4.2):
//! ranges starting at a page index, each with a style (`/S`: `D` decimal, `R`/`r` roman,
//! `A`/`a` letters), a prefix (`/P`) and a first value (`/St`, default 1). A range without a
//! style is its prefix alone (`u:`), which MuPDF's own helper drops.

use std::collections::HashSet;

use mupdf::pdf::{PdfDocument, PdfObject};

/// Deepest number-tree level followed.
const MAX_DEPTH: usize = 16;

/// One label range.
#[derive(Debug, Clone, PartialEq)]
struct Range {
    start: u32,
    style: Option<u8>,
    prefix: String,
    first: i64,
}

/// Labels of pages `0..page_count`, or an empty list when the file defines none.
pub fn page_labels(doc: &PdfDocument, page_count: u32) -> Vec<String> {
    let Some(root) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get_dict("PageLabels").ok().flatten())
    else {
        return Vec::new();
    };
    let mut ranges = Vec::new();
    let mut seen = HashSet::new();
    collect(&root, 0, &mut seen, &mut ranges);
    if ranges.is_empty() {
        return Vec::new();
    }
    ranges.sort_by_key(|r| r.start);
    (0..page_count)
        .map(|idx| {
            let Some(range) = ranges.iter().rev().find(|r| r.start <= idx) else {
                return (idx + 1).to_string();
            };
            let value = range.first + i64::from(idx - range.start);
            format!("{}{}", range.prefix, format_value(range.style, value))
        })
        .collect()
}

fn collect(node: &PdfObject, depth: usize, seen: &mut HashSet<i32>, out: &mut Vec<Range>) {
    if depth > MAX_DEPTH {
        return;
    }
    if node.is_indirect().unwrap_or(false) {
        if let Ok(num) = node.as_indirect() {
            if !seen.insert(num) {
                return;
            }
        }
    }
    if let Ok(Some(nums)) = node.get_dict("Nums") {
        let n = nums.len().unwrap_or(0);
        for i in (0..n.saturating_sub(1)).step_by(2) {
            let (Ok(Some(key)), Ok(Some(value))) =
                (nums.get_array(i as i32), nums.get_array(i as i32 + 1))
            else {
                continue;
            };
            let Ok(start) = key.as_int() else { continue };
            let Ok(start) = u32::try_from(start) else {
                continue;
            };
            let style = value
                .get_dict("S")
                .ok()
                .flatten()
                .and_then(|s| s.as_name().ok())
                .and_then(|n| n.first().copied());
            let prefix = value
                .get_dict("P")
                .ok()
                .flatten()
                .and_then(|p| p.as_string().ok())
                .unwrap_or_default();
            let first = value
                .get_dict("St")
                .ok()
                .flatten()
                .and_then(|s| s.as_int().ok())
                .map_or(1, i64::from)
                .max(1);
            out.push(Range {
                start,
                style,
                prefix,
                first,
            });
        }
    }
    if let Ok(Some(kids)) = node.get_dict("Kids") {
        for i in 0..kids.len().unwrap_or(0) {
            if let Ok(Some(kid)) = kids.get_array(i as i32) {
                collect(&kid, depth + 1, seen, out);
            }
        }
    }
}

/// Formats a label number in a `/S` style.
fn format_value(style: Option<u8>, value: i64) -> String {
    match style {
        Some(b'D') => value.to_string(),
        Some(b'R') => roman(value).to_uppercase(),
        Some(b'r') => roman(value),
        Some(b'A') => letters(value).to_uppercase(),
        Some(b'a') => letters(value),
        _ => String::new(),
    }
}

fn roman(mut n: i64) -> String {
    const TABLE: [(i64, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut out = String::new();
    for (value, digits) in TABLE {
        while n >= value && out.len() < 64 {
            out.push_str(digits);
            n -= value;
        }
    }
    out
}

/// `a`…`z`, then `aa`…`zz`, … (ISO 32000-1 table 159).
fn letters(n: i64) -> String {
    let n = n.max(1) - 1;
    let letter = (b'a' + (n % 26) as u8) as char;
    std::iter::repeat_n(letter, (n / 26 + 1).min(64) as usize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_styles() {
        assert_eq!(format_value(Some(b'r'), 4), "iv");
        assert_eq!(format_value(Some(b'R'), 1994), "MCMXCIV");
        assert_eq!(format_value(Some(b'a'), 28), "bb");
        assert_eq!(format_value(Some(b'D'), 16059), "16059");
        assert_eq!(format_value(None, 3), "");
    }
}
