//! Tables of figures found in a node's text: financial statements and the other borderless
//! tables of filings and releases, as a reader sees them.
//!
//! A table is a run of lines of one page that are table rows — one definition of a row for
//! the whole engine, [`nanoindex_core::figures::is_row_before`] — with the label lines
//! between them ("Current assets:") and the header lines above the first row ("2018 2017
//! 2016", "Three Months Ended"). A row's cells are its label and the figures it ends with;
//! the figures are put into columns by their horizontal position on the page (estimated
//! within their span from the span's box), so a row with a blank cell keeps its figures under
//! the right header. A table that runs on at the top of the next page, with as many columns,
//! is the same table.

use std::collections::BTreeSet;
use std::ops::Range;

use nanoindex_core::extract::{RectPt, TextSpan};
use nanoindex_core::figures::{is_row_before, is_table_row, numbers_in};
use nanoindex_core::years::is_year_word;
use nanoindex_core::{BoundingBox, Table, TableCell};

use crate::assemble::to_fraction;
use crate::flat::{states_unit, FlatLine};

/// At most this many lines above the first row are read as its header rows.
const MAX_HEADER_LINES: usize = 3;

/// One line cut into cells: the label (maybe empty) and the figure cells with their
/// horizontal extent in PDF points.
struct Cut {
    label: String,
    label_box: Option<RectPt>,
    figures: Vec<(String, RectPt)>,
}

/// A table being found: where its first row is, the last page it reaches, its number of
/// figure columns and whether its last row ends its page.
struct Found {
    pos: usize,
    table: Table,
    last_page: u32,
    columns: usize,
    ends_page: bool,
}

/// Tables in `lines[range]`, in reading order, each with the flat index of its first row
/// (label lines included). Furniture lines and contents pages (`toc`, 1-based) are skipped. Each table has `page` (1-based, its first page), `title` (the short line above
/// its headers, if any), `headers` (the last header row's texts, label column first),
/// `rows` (cell texts, label first, `""` for a blank cell) and our `header_rows`, `cells`
/// (text and box, page fractions) and `markdown`; `id` and `section_id` are set by the
/// caller once node ids exist.
pub fn find(lines: &[FlatLine], range: Range<usize>, toc: &BTreeSet<u32>) -> Vec<(usize, Table)> {
    let body: Vec<usize> = range
        .filter(|&i| !lines[i].furniture && !toc.contains(&lines[i].page_no))
        .collect();
    let text = |k: usize| lines[body[k]].line.text.trim();
    let row_at = |k: usize| {
        let next = body
            .get(k + 1)
            .filter(|&&n| lines[n].page_no == lines[body[k]].page_no)
            .map(|&n| lines[n].line.text.trim());
        is_row_before(text(k), next) && !names_periods(text(k))
    };
    let mut tables: Vec<Found> = Vec::new();
    let mut k = 0;
    while k < body.len() {
        if !row_at(k) {
            k += 1;
            continue;
        }
        let page = lines[body[k]].page_no;
        // Where the first row's figures begin: a header line reaches over them.
        let figure_left = cut(&lines[body[k]])
            .figures
            .iter()
            .map(|f| f.1.x0)
            .fold(f32::MAX, f32::min);
        // The run: rows, rows of one figure after the first, and label lines followed by a
        // row within two lines; up to two label lines right under the header lines
        // ("Assets", "Current assets") open it.
        // Column heads right above the first row ("Europe, Middle East" over "& Africa") are
        // its header lines, not label lines that open the run.
        // (A label line such as "Current assets:" in a narrow, indented table is no head: a
        // head ends without a colon and reaches over the figure columns.)
        let headed = k > 0
            && lines[body[k - 1]].page_no == page
            && !text(k - 1).ends_with(':')
            && lines[body[k - 1]].line.bbox.x1 > figure_left
            && !header_lines(lines, &body[..k], page, figure_left).is_empty();
        let mut above = k;
        while !headed
            && above > 0
            && k - above < 2
            && lines[body[above - 1]].page_no == page
            && is_label_line(text(above - 1))
        {
            above -= 1;
        }
        let start =
            if above < k && !header_lines(lines, &body[..above], page, figure_left).is_empty() {
                above
            } else {
                k
            };
        let mut end = k + 1;
        while end < body.len() && lines[body[end]].page_no == page {
            let labels_rows = || {
                is_label_line(text(end))
                    && (1..=2).any(|d| {
                        body.get(end + d).is_some_and(|&n| lines[n].page_no == page)
                            && row_at(end + d)
                    })
            };
            let row = row_at(end)
                || (!names_periods(text(end))
                    && (one_figure_row(text(end)) || ends_in_figures(text(end))));
            if !(row || labels_rows()) {
                break;
            }
            end += 1;
        }
        let run: Vec<usize> = body[start..end].to_vec();
        k = end;
        // Two rows or more that end in two figures or more: an address block's telephone
        // lines ("Telephone: (212) 438-1000") are no table.
        let figure_rows = run
            .iter()
            .filter(|&&i| trailing_figures(lines[i].line.text.trim()) >= 2)
            .count();
        if figure_rows < 2 {
            continue;
        }
        let headers: Vec<usize> = header_lines(lines, &body[..start], page, figure_left);
        // The table's title: the short line above its headers on its page, passing over
        // lines that only state the period ("Years ended December 31") or the unit
        // ("(In millions)").
        let title = body[..start]
            .iter()
            .rev()
            .skip(headers.len())
            .take(4)
            .map(|&i| &lines[i])
            .take_while(|l| l.page_no == page)
            .map(|l| l.line.text.trim())
            .take_while(|t| {
                t.split_whitespace().count() <= 12 && !t.ends_with(['.', '。']) && !is_table_row(t)
            })
            .find(|t| {
                !states_period(t) && !states_unit(&t.to_lowercase()) && trailing_figures(t) == 0
            })
            .unwrap_or_default()
            .to_string();
        let (table, columns) = build(lines, &headers, &run, title);
        let ends_page = body.get(end).is_none_or(|&n| lines[n].page_no != page);
        // Runs on from the foot of the previous page: the same table, when that one filled
        // its page to the foot, this one opens its page, with as many columns, and repeats
        // the same headers and title (or none, or says it is continued).
        if let Some(prev) = tables.last_mut() {
            let first_on_page = body[..start]
                .iter()
                .rev()
                .take_while(|&&i| lines[i].page_no == page)
                .count()
                <= headers.len() + 1;
            let texts = |rows: &[Vec<TableCell>]| -> Vec<Vec<String>> {
                rows.iter()
                    .map(|r| r.iter().map(|c| c.text.clone()).collect())
                    .collect()
            };
            let same_headers = table.header_rows.is_empty()
                || texts(&table.header_rows) == texts(&prev.table.header_rows);
            let same_title = table.title.is_empty()
                || table.title == prev.table.title
                || table.title.to_lowercase().contains("continued");
            if prev.ends_page
                && prev.last_page + 1 == page
                && prev.columns == columns
                && first_on_page
                && same_headers
                && same_title
            {
                prev.table.rows.extend(table.rows);
                prev.table.cells.extend(table.cells);
                prev.last_page = page;
                prev.ends_page = ends_page;
                continue;
            }
        }
        tables.push(Found {
            pos: body[start],
            table,
            last_page: page,
            columns,
            ends_page,
        });
    }
    tables
        .into_iter()
        .map(|f| {
            let mut t = f.table;
            t.markdown = t.to_markdown();
            (f.pos, t)
        })
        .collect()
}

/// A line whose figures are all years, two or more (`(Millions) 2018 2017 2016`): a header
/// that names the columns' periods, not a row.
fn names_periods(text: &str) -> bool {
    let numbers = numbers_in(text);
    numbers.len() >= 2 && numbers.iter().all(|n| is_year_word(&text[n.range.clone()]))
}

/// A row of a table that holds one figure, at its end, after a label of at most 15 words
/// (`Total other comprehensive income (loss), net of tax (888)`): part of a table it is in,
/// never the start of one.
fn one_figure_row(text: &str) -> bool {
    let numbers = numbers_in(text);
    let last = text.split_whitespace().last().unwrap_or("");
    let digits = last.chars().filter(char::is_ascii_digit).count();
    // "(888)", "1,573", "$ 45", "153": not the "12" of "described in Note 12".
    let figure_like = last.contains([',', '(', '$']) || digits >= 3;
    numbers.len() == 1
        && text.split_whitespace().count() <= 16
        && figure_like
        && is_figure_token(last)
        && !last.ends_with('.')
}

/// Words after which a figure belongs to a row's label (`net of allowances of $95 and $103`,
/// `Notes due 2027`).
const JOINING_WORDS: &[&str] = &[
    "and", "or", "of", "to", "from", "by", "at", "due", "than", "per", "in", "on", "for",
];

/// Whether a token of a row is (part of) a figure cell: `1,577`, `(1,577)`, `$`, `22.4%`,
/// `>5000`, `—`, `N/A`. `8)` closes a parenthesis the label opened (`(… per share, Note
/// 8)`) and `31,` is a date's day: neither is, and neither is a token with a dash inside
/// (`438-1000`).
fn is_figure_token(t: &str) -> bool {
    // "31," is a date's day ("December 31, 2015"); a figure cell never ends in a comma.
    if (t.ends_with(')') && !t.contains('(')) || t.ends_with(',') {
        return false;
    }
    let bare = t
        .trim_start_matches(['$', '(', '€', '£', '<', '>', '≈', '~', '+'])
        .trim_end_matches([')', '%', '*']);
    // "438-1000", "10036-6710", "2019-2021": a telephone number, a ZIP code, a span of years.
    if bare.trim_start_matches('-').contains('-') {
        return false;
    }
    matches!(t, "—" | "–" | "-" | "$" | "%" | "N/A" | "n/a" | "NM")
        || (!bare.is_empty()
            && bare.chars().any(|c| c.is_ascii_digit())
            && bare
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '-')))
}

/// Whether a line of a table's run ends in two or more figures after a label
/// (`Dividends declared ($4.44 per share, Note 8) (2,678) (2,678)`): a row inside a table
/// even where figures in its label keep it from reading as a row on its own.
fn ends_in_figures(text: &str) -> bool {
    let trailing = trailing_figures(text);
    trailing >= 2 && text.split_whitespace().count() > trailing
}

/// How many figures a line ends with (tokens with digits among its trailing figure tokens).
fn trailing_figures(text: &str) -> usize {
    text.split_whitespace()
        .rev()
        .take_while(|t| is_figure_token(t))
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .count()
}

/// A line that only states the period of the figures under it: `Years ended December 31`,
/// `Three Months Ended`, `As of June 30, 2023`, `At December 31`.
fn states_period(text: &str) -> bool {
    let t = text.to_lowercase();
    t.contains(" ended")
        || t.starts_with("ended")
        || t.starts_with("as of ")
        || t.starts_with("at ")
}

/// A line that labels the rows under it: without figures, not a sentence, at most 20 words
/// (`Current assets:`, `Adjustments to reconcile net income … to net cash` wrapped over two
/// lines).
fn is_label_line(text: &str) -> bool {
    let words = text.split_whitespace().count();
    (1..=20).contains(&words)
        && !text.ends_with('.')
        && numbers_in(text).is_empty()
        && text.chars().any(char::is_alphabetic)
}

/// The header lines right above a table's first row on its page (up to
/// [`MAX_HEADER_LINES`]): short lines that are no rows and either name periods (two or more
/// years, or a year and some words), stand right of the label column (`Three Months Ended`),
/// or reach over the figure columns, which begin at `figure_left` (PDF points; `Boiling
/// Points °C min max avg`).
fn header_lines(lines: &[FlatLine], before: &[usize], page: u32, figure_left: f32) -> Vec<usize> {
    let mut out = Vec::new();
    for &i in before.iter().rev().take(MAX_HEADER_LINES) {
        let l = &lines[i];
        let text = l.line.text.trim();
        if l.page_no != page
            || (is_table_row(text) && !names_periods(text))
            || text.split_whitespace().count() > 12
        {
            break;
        }
        let years = numbers_in(text)
            .iter()
            .filter(|n| is_year_word(&text[n.range.clone()]))
            .count();
        // A centred title or a unit line ("(In millions, except per share data)") over a table
        // is no header of its columns.
        let middle = (l.line.bbox.x0 + l.line.bbox.x1) / 2.0;
        let centred = (middle - l.page_size.0 / 2.0).abs() <= 0.05 * l.page_size.0;
        let unit = states_unit(&text.to_lowercase());
        let indented = !(centred || unit) && l.line.bbox.x0 > l.page_size.0 * 0.35;
        // Two or more words over the figure columns ("min max avg"), not a title's last word.
        let words_over = l
            .line
            .spans
            .iter()
            .flat_map(words_of)
            .filter(|(_, r)| r.x0 >= figure_left - 2.0)
            .count();
        let over_figures = !unit && words_over >= 2 && !text.ends_with(['.', '。', ':']);
        if years >= 2
            || (years >= 1 && !centred && text.chars().any(char::is_alphabetic))
            || indented
            || over_figures
        {
            out.push(i);
        } else {
            break;
        }
    }
    out.reverse();
    out
}

/// Cuts a row into its label and the figures it ends with: trailing tokens that are figures
/// (`1,577`, `(1,577)`, `22.4%`, `—`), a lone `$` joined to the figure after it and a lone
/// `%` to the one before.
fn cut(l: &FlatLine) -> Cut {
    let text = l.line.text.as_str();
    let xs = char_positions(l);
    let mut tokens: Vec<Range<usize>> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                tokens.push(s..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        tokens.push(s..text.len());
    }
    let mut first_figure = tokens.len();
    while first_figure > 0 && is_figure_token(&text[tokens[first_figure - 1].clone()]) {
        first_figure -= 1;
    }
    // "Balance at December 31, 2015 $ 11,468": the year after a date's day is the label's.
    while first_figure > 0 && first_figure < tokens.len() {
        let before = &text[tokens[first_figure - 1].clone()];
        let token = &text[tokens[first_figure].clone()];
        if is_year_word(token) && before.ends_with(',') {
            first_figure += 1;
        } else {
            break;
        }
    }
    // "… allowances of $95 and $103 5,020 4,911", "4.50% Notes due 2027 $ 500": a figure
    // right after a word that joins it to the label is the label's.
    while first_figure > 0 && first_figure + 1 < tokens.len() {
        let before = text[tokens[first_figure - 1].clone()].to_lowercase();
        if !JOINING_WORDS.contains(&before.as_str()) {
            break;
        }
        first_figure += 1;
        // "$ 95": the figure after a lone "$".
        if text[tokens[first_figure - 1].clone()] == *"$" && first_figure + 1 < tokens.len() {
            first_figure += 1;
        }
    }
    let mut figures: Vec<Range<usize>> = Vec::new();
    let mut pending_dollar: Option<usize> = None;
    for t in &tokens[first_figure..] {
        let s = &text[t.clone()];
        if s == "$" {
            pending_dollar = Some(t.start);
        } else if s == "%" && !figures.is_empty() {
            if let Some(last) = figures.last_mut() {
                last.end = t.end;
            }
        } else {
            figures.push(pending_dollar.take().unwrap_or(t.start)..t.end);
        }
    }
    let rect_of = |r: &Range<usize>| {
        let x0 = xs.get(r.start).copied().unwrap_or(l.line.bbox.x0);
        let x1 = xs.get(r.end).copied().unwrap_or(l.line.bbox.x1);
        RectPt {
            x0,
            y0: l.line.bbox.y0,
            x1: x1.max(x0),
            y1: l.line.bbox.y1,
        }
    };
    let label_end = tokens.get(first_figure).map_or(text.len(), |t| t.start);
    let label = text[..label_end].trim().to_string();
    let label_box = (!label.is_empty()).then(|| {
        let start = text.len() - text.trim_start().len();
        rect_of(&(start..label_end))
    });
    Cut {
        label,
        label_box,
        figures: figures
            .iter()
            .map(|r| (text[r.clone()].trim().to_string(), rect_of(r)))
            .collect(),
    }
}

/// The x position (PDF points) of each byte offset of a line's text, plus one past the end,
/// estimated from the boxes of its spans (characters spread evenly over their span's box).
fn char_positions(l: &FlatLine) -> Vec<f32> {
    let text = l.line.text.as_str();
    let mut xs = vec![f32::NAN; text.len() + 1];
    let mut cursor = 0;
    for span in &l.line.spans {
        // The box holds the span's printed characters: a space at its end (the line's last
        // span, trimmed from the line's text) is none of them.
        let printed = span.text.trim();
        let Some(found) = text[cursor..].find(printed).map(|f| f + cursor) else {
            continue;
        };
        let n = printed.chars().count().max(1) as f32;
        for (k, (i, _)) in printed.char_indices().enumerate() {
            xs[found + i] = span.bbox.x0 + (span.bbox.x1 - span.bbox.x0) * k as f32 / n;
        }
        xs[found + printed.len()] = span.bbox.x1;
        cursor = found + printed.len();
    }
    // Offsets no span covered (spaces between spans) take the position before them.
    let mut last = l.line.bbox.x0;
    for x in &mut xs {
        if x.is_nan() {
            *x = last;
        } else {
            last = *x;
        }
    }
    xs
}

/// Builds a table from its header lines and its run of rows; returns it with its number of
/// figure columns.
fn build(lines: &[FlatLine], headers: &[usize], run: &[usize], title: String) -> (Table, usize) {
    let cuts: Vec<(usize, Cut)> = run.iter().map(|&i| (i, cut(&lines[i]))).collect();
    // Where the figure columns begin: header text left of it heads the label column.
    let left = cuts
        .iter()
        .flat_map(|(_, c)| c.figures.iter().map(|f| f.1.x0))
        .fold(f32::MAX, f32::min);
    // Columns: the largest figure count two or more rows share (a statement of changes in
    // equity fills all six only on its balance rows), else the most common one. A row with
    // more figures than that (a footnote mark, a figure ending its label) gives its leading
    // ones back to its label, so the rest stay under their headers.
    let mut counts = std::collections::BTreeMap::new();
    for (_, c) in cuts.iter().filter(|(_, c)| !c.figures.is_empty()) {
        *counts.entry(c.figures.len()).or_insert(0usize) += 1;
    }
    let columns = counts
        .iter()
        .rev()
        .find(|&(_, &rows)| rows >= 2)
        .or_else(|| counts.iter().max_by_key(|&(&n, &rows)| (rows, n)))
        .map_or(0, |(&n, _)| n);
    // Column positions: the mean right edge of each column over the rows that fill them all.
    let full: Vec<&Cut> = cuts
        .iter()
        .map(|(_, c)| c)
        .filter(|c| c.figures.len() == columns)
        .collect();
    let mut edges: Vec<f32> = (0..columns)
        .map(|j| full.iter().map(|c| c.figures[j].1.x1).sum::<f32>() / full.len().max(1) as f32)
        .collect();
    // A column that only a few rows fill ("Other / Unallocated", with a figure in the net
    // sales row alone): a row with more figures than there are columns, whose figure after
    // one that stands under a column stands under none, adds a column there. Its leading
    // figures (a footnote mark, a figure ending its label) never do.
    let tolerance = edges
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f32::MAX, f32::min)
        .min(75.0)
        * 0.4;
    let off_column = |edges: &[f32], x: f32| edges.iter().all(|e| (e - x).abs() > tolerance);
    let mut added = Vec::new();
    for (_, c) in cuts.iter().filter(|(_, c)| c.figures.len() > columns) {
        for pair in c.figures.windows(2) {
            let (before, x) = (pair[0].1.x1, pair[1].1.x1);
            if !off_column(&edges, before)
                && off_column(&edges, x)
                && added.iter().all(|&a: &f32| (a - x).abs() > tolerance)
            {
                added.push(x);
            }
        }
    }
    if !added.is_empty() && columns > 0 {
        edges.extend(added.iter().copied());
        edges.sort_by(f32::total_cmp);
    }
    let columns = edges.len();
    let nearest = |x: f32| {
        edges
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1 - x).abs().total_cmp(&(b.1 - x).abs()))
            .map_or(0, |(j, _)| j)
    };
    let cell = |text: String, rect: Option<RectPt>, l: &FlatLine| TableCell {
        text,
        bbox: rect.map(|r| to_fraction(r, l.page_no, l.page_size, "table_cell")),
    };
    let mut cells: Vec<Vec<TableCell>> = Vec::new();
    for (i, c) in cuts {
        let l = &lines[i];
        let mut c = c;
        let mut surplus = c.figures.len().saturating_sub(columns);
        // Where a column was added, leading figures under no column (a footnote mark "(1)")
        // belong to the label too.
        while !added.is_empty()
            && surplus + 1 < c.figures.len()
            && off_column(&edges, c.figures[surplus].1.x1)
        {
            surplus += 1;
        }
        for (text, rect) in c.figures.drain(..surplus) {
            c.label = format!("{} {text}", c.label).trim().to_string();
            c.label_box = Some(match c.label_box {
                Some(b) => b.union(&rect),
                None => rect,
            });
        }
        let width = columns;
        let mut row: Vec<TableCell> = (0..=width).map(|_| TableCell::default()).collect();
        row[0] = cell(c.label, c.label_box, l);
        let aligned = c.figures.len() == columns;
        let mut used = vec![false; width];
        for (k, (text, rect)) in c.figures.into_iter().enumerate() {
            let mut j = if aligned { k } else { nearest(rect.x1) };
            // Two figures nearest one column: the later takes the next free one (or the
            // first free one, when none is free after it).
            while j < width && used[j] {
                j += 1;
            }
            if j == width {
                j = used.iter().position(|&u| !u).unwrap_or(width);
            }
            if let Some(slot) = used.get_mut(j) {
                *slot = true;
                row[j + 1] = cell(text, Some(rect), l);
            }
        }
        cells.push(row);
    }
    // Header rows: each span over the figure columns goes to the column nearest its right
    // edge; text that ends left of the columns is the label column's header.
    let header_rows: Vec<Vec<TableCell>> = headers
        .iter()
        .map(|&i| {
            let l = &lines[i];
            let mut row: Vec<TableCell> = (0..=columns).map(|_| TableCell::default()).collect();
            let spans: Vec<&TextSpan> = l
                .line
                .spans
                .iter()
                .filter(|s| !s.text.trim().is_empty())
                .collect();
            let mut pieces: Vec<(String, RectPt)> =
                spans.iter().flat_map(|s| header_pieces(s)).collect();
            // "min max avg" set as one span over three columns: a word each.
            let words: Vec<(String, RectPt)> = spans.iter().flat_map(|s| words_of(s)).collect();
            if pieces.iter().filter(|p| p.1.x1 > left).count() < columns
                && words.iter().filter(|w| w.1.x1 > left).count() == columns
            {
                pieces = words;
            }
            // As many years as columns ("(Millions) 2018 2017 2016"): one a column, in order;
            // the words before them head the labels. (Positions inside a span are estimates
            // that a wide gap between its words throws off.)
            let years: Vec<usize> = pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| is_year_word(&p.0))
                .map(|(i, _)| i)
                .collect();
            let by_order = columns > 0 && years.len() == columns;
            for (i, (text, rect)) in pieces.into_iter().enumerate() {
                let j = match years.iter().position(|&y| y == i) {
                    Some(k) if by_order => k + 1,
                    None if by_order && i < years[0] => 0,
                    _ if rect.x1 <= left || columns == 0 => 0,
                    _ => nearest(rect.x1) + 1,
                };
                let target = &mut row[j];
                if !target.text.is_empty() {
                    target.text.push(' ');
                }
                target.text.push_str(&text);
                let b = to_fraction(rect, l.page_no, l.page_size, "table_cell");
                target.bbox = Some(match target.bbox.take() {
                    Some(a) => union(&a, &b),
                    None => b,
                });
            }
            row
        })
        .collect();
    let page = lines[run[0]].page_no;
    let bounds = run
        .iter()
        .chain(headers)
        .map(|&i| lines[i].line.bbox)
        .reduce(|a, b| a.union(&b))
        .map(|r| to_fraction(r, page, lines[run[0]].page_size, "table"));
    let table = Table {
        title,
        headers: header_rows
            .last()
            .map(|r| r.iter().map(|c| c.text.clone()).collect())
            .unwrap_or_default(),
        rows: cells
            .iter()
            .map(|r| r.iter().map(|c| c.text.clone()).collect())
            .collect(),
        page,
        bounding_box: bounds.and_then(|b| serde_json::to_value(b).ok()),
        header_rows,
        cells,
        ..Table::default()
    };
    (table, columns)
}

/// The x position (PDF points) of byte offset `byte` of a span's text, its characters spread
/// evenly over the span's box.
fn x_in_span(span: &TextSpan, byte: usize) -> f32 {
    let n = span.text.trim_end().chars().count().max(1) as f32;
    let k = (span.text[..byte].chars().count() as f32).min(n);
    span.bbox.x0 + (span.bbox.x1 - span.bbox.x0) * k / n
}

/// A header span cut at each year when it names two or more (`(Millions) 2018 2017 2016`
/// gives `(Millions)`, `2018`, `2017`, `2016`; words between or after the years, such as
/// `% Change`, are pieces of their own), else the whole span; boxes estimated within the
/// span.
fn header_pieces(span: &TextSpan) -> Vec<(String, RectPt)> {
    let text = span.text.as_str();
    let x_at = |byte: usize| x_in_span(span, byte);
    let years: Vec<Range<usize>> = numbers_in(text)
        .into_iter()
        .filter(|m| is_year_word(&text[m.range.clone()]))
        .map(|m| m.range)
        .collect();
    // The text between the cuts, trimmed, where it holds any.
    let gap = |from: usize, to: usize| {
        let part = &text[from..to];
        let s = from + part.len() - part.trim_start().len();
        (s < from + part.trim_end().len()).then(|| s..from + part.trim_end().len())
    };
    let pieces: Vec<Range<usize>> = if years.len() >= 2 {
        let mut out = Vec::new();
        let mut from = 0;
        for y in years {
            out.extend(gap(from, y.start));
            from = y.end;
            out.push(y);
        }
        out.extend(gap(from, text.len()));
        out
    } else {
        gap(0, text.len()).into_iter().collect()
    };
    pieces
        .into_iter()
        .map(|r| {
            let rect = RectPt {
                x0: x_at(r.start),
                y0: span.bbox.y0,
                x1: x_at(r.end),
                y1: span.bbox.y1,
            };
            (text[r].trim().to_string(), rect)
        })
        .collect()
}

/// The words of a span with boxes estimated from the span's box (characters spread evenly).
fn words_of(span: &TextSpan) -> Vec<(String, RectPt)> {
    let text = span.text.as_str();
    let x_at = |byte: usize| x_in_span(span, byte);
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                let rect = RectPt {
                    x0: x_at(s),
                    y0: span.bbox.y0,
                    x1: x_at(i),
                    y1: span.bbox.y1,
                };
                out.push((text[s..i].to_string(), rect));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// The smallest box holding both (same page assumed; the first's page is kept).
fn union(a: &BoundingBox, b: &BoundingBox) -> BoundingBox {
    let x0 = a.x.min(b.x);
    let y0 = a.y.min(b.y);
    let x1 = (a.x + a.width).max(b.x + b.width);
    let y1 = (a.y + a.height).max(b.y + b.height);
    BoundingBox {
        x: x0,
        y: y0,
        width: x1 - x0,
        height: y1 - y0,
        ..a.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_of_one_figure_continues_a_table() {
        assert!(one_figure_row(
            "Total other comprehensive income (loss), net of tax (888)"
        ));
        assert!(!one_figure_row("Revenue grew 12% in the year."));
        assert!(!one_figure_row("Net sales 1,200 1,100"));
        assert!(ends_in_figures(
            "Dividends declared ($4.44 per share, Note 8) (2,678) (2,678)"
        ));
        assert!(!ends_in_figures("1,200 1,100"));
        assert_eq!(trailing_figures("Telephone: (212) 438-1000"), 0);
        assert_eq!(trailing_figures("Inventories (509) (387) 57"), 3);
        assert!(!ends_in_figures(
            "The plan ran from 2019 to 2021 and cost 5 million."
        ));
    }

    #[test]
    fn periods_are_no_titles() {
        assert!(states_period("Years ended December 31"));
        assert!(states_period("At December 31"));
        assert!(!states_period("Consolidated Balance Sheet"));
    }
}
