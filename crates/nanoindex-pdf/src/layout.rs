//! Reading order: turns the lines MuPDF found on a page into blocks in the order a person
//! reads them. Pure geometry, no MuPDF calls, so it is tested on hand-made boxes.
//!
//! Method: lines are grouped into *bands* (lines sharing a baseline). Consecutive bands
//! that keep a common vertical gutter (an x-interval no line crosses) form a *section*;
//! a section of prose on both sides of the gutter is read column by column (recursively,
//! so three columns work), while a section whose sides are not both prose — a table with a
//! label column and figure columns — is read row by row, each band joined into one line,
//! so `Purchases of property, plant and equipment (1,577) (1,373) (1,420)` stays together.
//! This is a variant of the recursive XY-cut (Nagy & Seth, 1984) that refuses cuts which
//! would tear table rows apart.

use nanoindex_core::extract::{RectPt, TextBlock, TextLine};

use crate::normalize::{collapse_letter_spacing, SOFT_HYPHEN};

/// Narrowest gap between columns, in points.
const MIN_GUTTER_PT: f32 = 7.0;
/// Fewest bands for a section to be read as columns.
const MIN_COLUMN_BANDS: usize = 3;

/// Orders `lines` (in any order) into blocks in reading order.
pub fn reading_order(lines: Vec<TextLine>) -> Vec<TextBlock> {
    let lines: Vec<TextLine> = lines
        .into_iter()
        .filter(|l| !l.text.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return Vec::new();
    }
    let mut segments = Vec::new();
    order_region(lines, 0, &mut segments);
    let mut blocks = Vec::new();
    for rows in segments {
        split_blocks(rows, &mut blocks);
    }
    for block in &mut blocks {
        dehyphenate(block);
    }
    blocks
}

/// Groups lines into bands of lines that share a baseline, top to bottom.
fn make_bands(mut lines: Vec<TextLine>) -> Vec<Vec<TextLine>> {
    lines.sort_by(|a, b| {
        a.bbox
            .center_y()
            .total_cmp(&b.bbox.center_y())
            .then(a.bbox.x0.total_cmp(&b.bbox.x0))
    });
    let mut bands: Vec<Vec<TextLine>> = Vec::new();
    let mut anchor: Option<RectPt> = None;
    for line in lines {
        let cy = line.bbox.center_y();
        match anchor {
            Some(a) if cy >= a.y0 && cy <= a.y1 => bands.last_mut().unwrap().push(line),
            _ => {
                anchor = Some(line.bbox);
                bands.push(vec![line]);
            }
        }
    }
    for band in &mut bands {
        band.sort_by(|a, b| a.bbox.x0.total_cmp(&b.bbox.x0));
    }
    bands
}

/// Free x-intervals of a band inside `[x0, x1]`.
fn free_intervals(band: &[TextLine], x0: f32, x1: f32) -> Vec<(f32, f32)> {
    let mut covered: Vec<(f32, f32)> = band.iter().map(|l| (l.bbox.x0, l.bbox.x1)).collect();
    covered.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut free = Vec::new();
    let mut cursor = x0;
    for (a, b) in covered {
        if a > cursor {
            free.push((cursor, a));
        }
        cursor = cursor.max(b);
    }
    if cursor < x1 {
        free.push((cursor, x1));
    }
    free
}

fn intersect(a: &[(f32, f32)], b: &[(f32, f32)]) -> Vec<(f32, f32)> {
    let mut out = Vec::new();
    for &(a0, a1) in a {
        for &(b0, b1) in b {
            let lo = a0.max(b0);
            let hi = a1.min(b1);
            if hi - lo >= MIN_GUTTER_PT {
                out.push((lo, hi));
            }
        }
    }
    out
}

fn is_prose(lines: &[&TextLine]) -> bool {
    if lines.len() < MIN_COLUMN_BANDS {
        return false;
    }
    let total_chars: usize = lines.iter().map(|l| l.text.chars().count()).sum();
    let wordy = lines
        .iter()
        .filter(|l| {
            l.text
                .split_whitespace()
                .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
                .count()
                >= 2
        })
        .count();
    total_chars / lines.len() >= 15 && wordy * 2 >= lines.len()
}

/// Appends the rows of `lines` to `segments`, one segment per column or run of rows.
fn order_region(lines: Vec<TextLine>, depth: usize, segments: &mut Vec<Vec<TextLine>>) {
    let rx0 = lines
        .iter()
        .map(|l| l.bbox.x0)
        .fold(f32::INFINITY, f32::min);
    let rx1 = lines
        .iter()
        .map(|l| l.bbox.x1)
        .fold(f32::NEG_INFINITY, f32::max);
    let bands = make_bands(lines);
    // Free x-intervals of every band, computed once: a section scan revisits bands.
    let free: Vec<Vec<(f32, f32)>> = bands.iter().map(|b| free_intervals(b, rx0, rx1)).collect();
    let interior = |g: &Vec<(f32, f32)>| -> Vec<(f32, f32)> {
        g.iter()
            .copied()
            .filter(|&(a, b)| a > rx0 + 0.5 && b < rx1 - 0.5 && b - a >= MIN_GUTTER_PT)
            .collect()
    };
    let mut rows: Vec<TextLine> = Vec::new();
    let mut i = 0;
    while i < bands.len() {
        let start_gutters = interior(&free[i]);
        let mut j = i + 1;
        let mut gutters = start_gutters.clone();
        if depth < 4 && !gutters.is_empty() {
            while j < bands.len() {
                let next = intersect(&gutters, &free[j]);
                if next.is_empty() {
                    break;
                }
                gutters = next;
                j += 1;
            }
        }
        let section_len = j - i;
        if section_len >= MIN_COLUMN_BANDS && !gutters.is_empty() {
            let (g0, g1) = gutters
                .iter()
                .copied()
                .max_by(|a, b| (a.1 - a.0).total_cmp(&(b.1 - b.0)))
                .unwrap();
            let cut = (g0 + g1) / 2.0;
            let section: Vec<&TextLine> = bands[i..j].iter().flatten().collect();
            let (left, right): (Vec<&TextLine>, Vec<&TextLine>) = section
                .iter()
                .partition(|l| (l.bbox.x0 + l.bbox.x1) / 2.0 < cut);
            if is_prose(&left) && is_prose(&right) {
                if !rows.is_empty() {
                    segments.push(std::mem::take(&mut rows));
                }
                let left = left.into_iter().cloned().collect();
                let right = right.into_iter().cloned().collect();
                order_region(left, depth + 1, segments);
                order_region(right, depth + 1, segments);
                i = j;
                continue;
            }
        }
        rows.push(merge_band(bands[i].clone()));
        i += 1;
    }
    if !rows.is_empty() {
        segments.push(rows);
    }
}

/// Joins the lines of one band, left to right, into a single line.
fn merge_band(band: Vec<TextLine>) -> TextLine {
    let mut iter = band.into_iter();
    let mut row = iter.next().expect("bands are never empty");
    for line in iter {
        let cjk_join = row.text.chars().last().is_some_and(is_cjk)
            && line.text.chars().next().is_some_and(is_cjk);
        if !row.text.ends_with(' ') && !line.text.starts_with(' ') && !cjk_join {
            row.text.push(' ');
        }
        row.text.push_str(&line.text);
        row.bbox = row.bbox.union(&line.bbox);
        row.spans.extend(line.spans);
    }
    let trimmed = row.text.trim();
    row.text = if trimmed.contains(' ') {
        collapse_letter_spacing(trimmed)
    } else {
        trimmed.to_string()
    };
    row
}

/// Han, kana and Hangul: scripts written without spaces between words.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x3000..=0x303F)
}

/// Cuts a run of rows into blocks at vertical gaps and font-size changes.
fn split_blocks(rows: Vec<TextLine>, blocks: &mut Vec<TextBlock>) {
    let mut current: Vec<TextLine> = Vec::new();
    for row in rows {
        if let Some(prev) = current.last() {
            // Top-to-top distance against the font size: font boxes vary in height between
            // fonts, line pitch does not. Body leading is 1.1–1.5 em; a paragraph gap adds more.
            let pitch = row.bbox.y0 - prev.bbox.y0;
            let em = prev.max_size_pt().max(row.max_size_pt()).max(1.0);
            let size_change = (prev.max_size_pt() - row.max_size_pt()).abs() > 1.0;
            let style_change = prev.is_bold() != row.is_bold();
            if pitch > 1.55 * em + 1.0 || pitch < 0.0 || size_change || style_change {
                push_block(std::mem::take(&mut current), blocks);
            }
        }
        current.push(row);
    }
    push_block(current, blocks);
}

fn push_block(lines: Vec<TextLine>, blocks: &mut Vec<TextBlock>) {
    if lines.is_empty() {
        return;
    }
    let bbox = lines
        .iter()
        .skip(1)
        .fold(lines[0].bbox, |acc, l| acc.union(&l.bbox));
    blocks.push(TextBlock { lines, bbox });
}

/// Joins words split across lines: `adip-` + `iscing elit` → `adipiscing` + `elit`, when
/// the line ends in a hyphen (or soft hyphen) after a letter and the next line starts with a
/// lowercase letter. Soft hyphens elsewhere are removed.
fn dehyphenate(block: &mut TextBlock) {
    for i in 0..block.lines.len() {
        let ends_hyphen = {
            let text = block.lines[i].text.trim_end();
            let mut rev = text.chars().rev();
            matches!((rev.next(), rev.next()), (Some('-' | SOFT_HYPHEN), Some(c)) if c.is_alphabetic())
        };
        let next_lower = block
            .lines
            .get(i + 1)
            .and_then(|l| l.text.trim_start().chars().next())
            .is_some_and(|c| c.is_lowercase());
        if ends_hyphen && next_lower {
            let next_text = block.lines[i + 1].text.trim_start().to_string();
            let (head, rest) = match next_text.find(' ') {
                Some(cut) => (
                    next_text[..cut].to_string(),
                    next_text[cut + 1..].to_string(),
                ),
                None => (next_text.clone(), String::new()),
            };
            let line = &mut block.lines[i];
            let trimmed_len = line.text.trim_end().len();
            line.text.truncate(trimmed_len);
            line.text.pop();
            line.text.push_str(&head);
            block.lines[i + 1].text = rest;
        }
        block.lines[i].text.retain(|c| c != SOFT_HYPHEN);
    }
    block.lines.retain(|l| !l.text.trim().is_empty());
}

#[cfg(test)]
mod tests {
    use super::*;
    use nanoindex_core::extract::TextSpan;

    fn line(text: &str, x0: f32, y0: f32, x1: f32) -> TextLine {
        let bbox = RectPt {
            x0,
            y0,
            x1,
            y1: y0 + 10.0,
        };
        TextLine {
            text: text.to_string(),
            spans: vec![TextSpan {
                text: text.to_string(),
                font: "Times-Roman".into(),
                size_pt: 10.0,
                bold: false,
                italic: false,
                bbox,
            }],
            bbox,
        }
    }

    fn texts(blocks: &[TextBlock]) -> Vec<String> {
        blocks
            .iter()
            .flat_map(|b| b.lines.iter().map(|l| l.text.clone()))
            .collect()
    }

    #[test]
    fn two_columns_read_column_by_column() {
        let mut lines = vec![line(
            "A Title Spanning The Whole Page Width",
            50.0,
            40.0,
            550.0,
        )];
        for i in 0..6 {
            let y = 70.0 + 12.0 * i as f32;
            lines.push(line(
                &format!("left column sentence number {i} goes here"),
                50.0,
                y,
                290.0,
            ));
            lines.push(line(
                &format!("right column sentence number {i} goes here"),
                310.0,
                y,
                550.0,
            ));
        }
        let order = texts(&reading_order(lines));
        assert_eq!(order[0], "A Title Spanning The Whole Page Width");
        for i in 0..6 {
            assert_eq!(
                order[1 + i],
                format!("left column sentence number {i} goes here")
            );
            assert_eq!(
                order[7 + i],
                format!("right column sentence number {i} goes here")
            );
        }
    }

    #[test]
    fn table_rows_stay_on_one_line() {
        let rows = [
            (
                "Net cash provided by operating activities",
                "6,439",
                "6,240",
                "6,662",
            ),
            (
                "Purchases of property, plant and equipment (PP&E)",
                "(1,577)",
                "(1,373)",
                "(1,420)",
            ),
            (
                "Proceeds from sale of PP&E and other assets",
                "262",
                "49",
                "58",
            ),
            (
                "Acquisitions, net of cash acquired",
                "13",
                "(2,023)",
                "(16)",
            ),
        ];
        let mut lines = Vec::new();
        for (i, (label, a, b, c)) in rows.iter().enumerate() {
            let y = 100.0 + 12.0 * i as f32;
            lines.push(line(c, 500.0, y, 530.0));
            lines.push(line(label, 50.0, y, 300.0));
            lines.push(line(a, 380.0, y, 410.0));
            lines.push(line(b, 440.0, y, 470.0));
        }
        let order = texts(&reading_order(lines));
        assert_eq!(
            order[1],
            "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)"
        );
        assert_eq!(order.len(), 4);
    }

    #[test]
    fn hyphenated_words_join_across_lines() {
        let lines = vec![
            line("Lorem ipsum dolor sit amet, adip-", 50.0, 100.0, 300.0),
            line("iscing elit, sed do eiusmod", 50.0, 111.0, 280.0),
        ];
        let order = texts(&reading_order(lines));
        assert_eq!(
            order,
            [
                "Lorem ipsum dolor sit amet, adipiscing",
                "elit, sed do eiusmod"
            ]
        );
    }

    #[test]
    fn hyphen_before_capital_is_kept() {
        let lines = vec![
            line("the non-", 50.0, 100.0, 300.0),
            line("GAAP measure", 50.0, 111.0, 280.0),
        ];
        assert_eq!(texts(&reading_order(lines)), ["the non-", "GAAP measure"]);
    }
}
