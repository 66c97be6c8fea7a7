//! Reading one cell of a financial table row: the row's figures are matched to the column
//! header's years from the right (rows may start with a note number or a label holding
//! digits), so `Purchases of PP&E (1,577) (1,373) (1,420)` under `2018 2017 2016` gives
//! `(1,577)` for 2018.
//!
//! The tables of the tree ([`nanoindex_core::Table`], found once by `nanoindex-tree`) are
//! read here too: [`IndexedTable`] gives each figure column the header cells over it
//! ([`Column`]), so a row's figure is taken from the cell in its column by position — a
//! blank cell stays blank — and cited with the cell's box.

use nanoindex_core::figures::MONTHS;
use nanoindex_core::{BoundingBox, NodeId, Table};

use crate::analysis::numbers_in;
use crate::index::years_in;

/// A figure column of a tree table, as its header rows name it.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The texts of the header cells over the column, top row first, joined with a space
    /// (`Three Months Ended July 1, 2023`); a cell that spans several columns (`Nine Months
    /// Ended` over two years) heads each of them.
    pub head: String,
    /// Distinct years the head names, in order.
    pub years: Vec<u32>,
    /// Boxes of the header cells over the column (page fractions, the table's first page).
    pub head_boxes: Vec<BoundingBox>,
}

/// A table of the document tree with its columns read, as the retrieval index keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedTable {
    /// The node whose text holds the table.
    pub node_id: NodeId,
    /// The table as the tree stores it (`cells`: label cell first, then one cell per
    /// figure column).
    pub table: Table,
    /// One entry per figure column (`table.cells[r][k + 1]` is row `r`'s cell of column
    /// `k`).
    pub columns: Vec<Column>,
}

/// A figure read from a tree table's cell.
#[derive(Debug, Clone, PartialEq)]
pub struct TableFigure {
    /// The figure as [`read_cell`] gives it: the cell's text as printed, its value and the
    /// column's year.
    pub cell: Cell,
    /// Index of the figure column (0 for a figure read from a line under its header line).
    pub column: usize,
    /// Whether it was read from a tree table's cell (else from a line under its header).
    pub in_table: bool,
    /// The cell's box, then the boxes of its column's header cells on the same page (page
    /// fractions), each with its text.
    pub boxes: Vec<BoundingBox>,
    /// The column's head ([`Column::head`]).
    pub head: String,
    /// The stub head: the header rows' label cells over the row labels, top first, joined
    /// with a space ("Net Sales (Millions)" over rows of regions); what every row counts.
    /// Empty when the header rows leave that corner blank, and for a figure read under a
    /// header line.
    pub stub_head: String,
}

impl IndexedTable {
    /// Reads `table`'s columns (see [`Column`]): a header cell heads the figure columns whose
    /// horizontal extent (the union of their body cells' boxes) it overlaps by at least half
    /// of the narrower of the two; a header cell that overlaps none heads the column it was
    /// put in.
    #[must_use]
    pub fn new(node_id: NodeId, table: Table) -> IndexedTable {
        let width = table
            .cells
            .iter()
            .chain(&table.header_rows)
            .map(|r| r.len().saturating_sub(1))
            .max()
            .unwrap_or(0);
        let extents: Vec<Option<(f32, f32)>> = (0..width)
            .map(|k| {
                table
                    .cells
                    .iter()
                    .filter_map(|r| r.get(k + 1))
                    .filter(|c| !c.text.trim().is_empty())
                    .filter_map(|c| c.bbox.as_ref())
                    .map(|b| (b.x, b.x + b.width))
                    .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
            })
            .collect();
        let mut columns: Vec<Column> = (0..width)
            .map(|_| Column {
                head: String::new(),
                years: Vec::new(),
                head_boxes: Vec::new(),
            })
            .collect();
        for row in &table.header_rows {
            for (j, cell) in row.iter().enumerate().skip(1) {
                let text = cell.text.trim();
                if text.is_empty() {
                    continue;
                }
                let mut over: Vec<usize> = match &cell.bbox {
                    Some(b) => extents
                        .iter()
                        .enumerate()
                        .filter_map(|(k, e)| {
                            let (x0, x1) = (*e)?;
                            let overlap = (b.x + b.width).min(x1) - b.x.max(x0);
                            (overlap > 0.0 && overlap >= 0.5 * b.width.min(x1 - x0)).then_some(k)
                        })
                        .collect(),
                    None => Vec::new(),
                };
                if over.is_empty() && j <= width {
                    over.push(j - 1);
                }
                for k in over {
                    let column = &mut columns[k];
                    if !column.head.is_empty() {
                        column.head.push(' ');
                    }
                    column.head.push_str(text);
                    if let Some(b) = &cell.bbox {
                        let mut b = b.clone();
                        b.text = Some(text.to_string());
                        column.head_boxes.push(b);
                    }
                }
            }
        }
        // A table-wide period ("Year ended December 31, 2022" over columns of regions): the
        // header rows name one year, in one row that states a period; it dates every column.
        let mut dated_rows = table.header_rows.iter().filter_map(|row| {
            let text = row
                .iter()
                .skip(1)
                .map(|c| c.text.trim())
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let years = numbers_in(&text)
                .into_iter()
                .filter(|n| n.is_year())
                .count();
            (years > 0).then_some((text, years, row))
        });
        if let (Some((text, 1, row)), None) = (dated_rows.next(), dated_rows.next()) {
            if states_period(&text) {
                for column in columns.iter_mut().filter(|c| !c.head.contains(&text)) {
                    column.head = format!("{text} {}", column.head).trim().to_string();
                    column.head_boxes.extend(row.iter().skip(1).filter_map(|c| {
                        let mut b = c.bbox.clone()?;
                        b.text = Some(c.text.trim().to_string());
                        (!c.text.trim().is_empty()).then_some(b)
                    }));
                }
            }
        }
        for column in &mut columns {
            for n in numbers_in(&column.head) {
                if n.is_year() && n.value > 0.0 {
                    let y = n.value as u32;
                    if !column.years.contains(&y) {
                        column.years.push(y);
                    }
                }
            }
        }
        IndexedTable {
            node_id,
            table,
            columns,
        }
    }

    /// The figure columns dated `year` alone (a column whose head names two years, a
    /// change between them, is none of either), left to right.
    #[must_use]
    pub fn year_columns(&self, year: u32) -> Vec<usize> {
        self.columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.years == [year])
            .map(|(k, _)| k)
            .collect()
    }

    /// The figure of body row `row` in figure column `column`, with its box and its column's
    /// header boxes; `None` when the cell is blank or holds no figure (`—`), or when the
    /// column names no single year.
    #[must_use]
    pub fn figure(&self, row: usize, column: usize) -> Option<TableFigure> {
        let head = self.columns.get(column)?;
        let [year] = head.years[..] else {
            return None;
        };
        let cell = self.table.cells.get(row)?.get(column + 1)?;
        let text = cell.text.trim();
        let number = numbers_in(text).into_iter().next()?;
        let page = cell.bbox.as_ref().map(|b| b.page);
        let mut boxes: Vec<BoundingBox> = cell
            .bbox
            .iter()
            .map(|b| {
                let mut b = b.clone();
                b.text = Some(text.to_string());
                b
            })
            .collect();
        boxes.extend(
            head.head_boxes
                .iter()
                .filter(|b| Some(b.page) == page)
                .cloned(),
        );
        Some(TableFigure {
            cell: Cell {
                text: text.trim_start_matches(['$', ' ']).to_string(),
                value: number.value,
                year,
            },
            column,
            in_table: true,
            boxes,
            head: head.head.clone(),
            stub_head: self
                .table
                .header_rows
                .iter()
                .filter_map(|r| r.first())
                .map(|c| c.text.trim())
                .filter(|t| !t.is_empty())
                .collect::<Vec<_>>()
                .join(" "),
        })
    }

    /// Whether any figure column is dated by a single year: only then are its columns read
    /// by position (a table whose header rows were not found is read by its header line).
    #[must_use]
    pub fn dated(&self) -> bool {
        self.columns.iter().any(|c| c.years.len() == 1)
    }

    /// The figure of body row `row` for `year`: of the columns dated `year`, those whose
    /// head names the period `length` asks for (all of them when none does); among those,
    /// where they are of different things (regions, segments: [`Column::head`] words other
    /// than the period's), the one whose head names more of `asked`'s words (the question),
    /// else the one headed as the whole (`Total`, `Worldwide`, `Consolidated`); else the
    /// first of the asked period, or the `occurrence`-th (0 for the first, the shorter
    /// period by convention), else the first. `None` when no column is dated `year` or that
    /// row's cell is blank.
    #[must_use]
    pub fn figure_for(
        &self,
        row: usize,
        year: u32,
        occurrence: usize,
        length: Option<PeriodLength>,
        asked: &str,
    ) -> Option<TableFigure> {
        let columns = self.year_columns(year);
        let of_length: Vec<usize> = length.map_or_else(Vec::new, |want| {
            columns
                .iter()
                .copied()
                .filter(|&k| period_length(&self.columns[k].head) == Some(want))
                .collect()
        });
        let column = if of_length.is_empty() {
            self.by_what(&columns, asked)
                .or_else(|| columns.get(occurrence).copied())
                .or_else(|| columns.first().copied())?
        } else {
            self.by_what(&of_length, asked).unwrap_or(of_length[0])
        };
        self.figure(row, column)
    }

    /// Of `columns` (one year's), when their heads name different things besides the period,
    /// the one naming the most of `asked`'s words (and more than any other), else the first
    /// headed as the whole; `None` when the heads differ only in their periods or neither
    /// choice decides.
    fn by_what(&self, columns: &[usize], asked: &str) -> Option<usize> {
        let what: Vec<(usize, Vec<String>)> = columns
            .iter()
            .map(|&k| (k, what_words(&self.columns[k].head)))
            .collect();
        if what.windows(2).all(|w| w[0].1 == w[1].1) {
            return None;
        }
        let asked: Vec<String> = words(asked).collect();
        let named = |w: &[String]| w.iter().filter(|w| asked.contains(w)).count();
        let best = what.iter().map(|(_, w)| named(w)).max().unwrap_or(0);
        let mut most = what.iter().filter(|(_, w)| named(w) == best);
        if let (true, Some((k, _)), None) = (best > 0, most.next(), most.next()) {
            return Some(*k);
        }
        what.iter()
            .find(|(_, w)| w.iter().any(|w| WHOLE.contains(&w.as_str())))
            .map(|(k, _)| *k)
    }
}

/// Words that head a column of the whole, beside its parts' columns.
const WHOLE: [&str; 5] = ["total", "worldwide", "consolidated", "combined", "overall"];

/// Words that name a period (month names aside, [`MONTHS`]), not what a column counts.
const PERIOD_WORDS: [&str; 24] = [
    "year", "years", "ended", "ending", "month", "months", "week", "weeks", "quarter", "quarters",
    "three", "six", "nine", "twelve", "fiscal", "as", "of", "at", "the", "for", "period", "to",
    "date", "and",
];

/// Lowercased words of `text` (letters and digits, two or more characters, not a number
/// alone: `q3` and `h1` are words, `2022` is not).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2 && !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_lowercase)
}

/// The words of a column's head that say what it counts (`worldwide` of `Year ended
/// December 31, 2022 Worldwide`): its words other than the period's.
fn what_words(head: &str) -> Vec<String> {
    words(head)
        .filter(|w| !PERIOD_WORDS.contains(&w.as_str()) && !MONTHS.contains(&w.as_str()))
        .collect()
}

/// Whether `text` states a period or a date (`Year ended December 31, 2022`, `As of June
/// 30, 2023`), not a year alone.
fn states_period(text: &str) -> bool {
    const STATING: [&str; 10] = [
        "ended", "ending", "year", "years", "month", "months", "week", "weeks", "quarter", "fiscal",
    ];
    words(text).any(|w| STATING.contains(&w.as_str()) || MONTHS.contains(&w.as_str()))
}

/// The length of period a text names: a quarter, six or nine months, or a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeriodLength {
    /// Three months, thirteen weeks, a quarter.
    Quarter,
    /// Six or nine months, year to date.
    Interim,
    /// Twelve months, a year, 52 or 53 weeks.
    Year,
}

/// The one length of period `text` names (`Three Months Ended June 30`, `Twelve Months
/// Ended`, `Years Ended`, `52 weeks`), or `None` when it names none or several.
#[must_use]
pub fn period_length(text: &str) -> Option<PeriodLength> {
    let lower = text.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let found = [
        (
            PeriodLength::Quarter,
            has(&[
                "three months",
                "3 months",
                "thirteen weeks",
                "13 weeks",
                "quarter",
            ]),
        ),
        (
            PeriodLength::Interim,
            has(&[
                "six months",
                "nine months",
                "26 weeks",
                "39 weeks",
                "year to date",
            ]),
        ),
        (
            PeriodLength::Year,
            has(&[
                "twelve months",
                "12 months",
                "year ended",
                "years ended",
                "52 weeks",
                "53 weeks",
            ]),
        ),
    ];
    let mut named = found.iter().filter(|(_, f)| *f).map(|(p, _)| *p);
    let first = named.next()?;
    named.next().is_none().then_some(first)
}

/// A figure read from a table row.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The figure as written in the row, with its parentheses or sign (`(1,577)`).
    pub text: String,
    /// Its value (negative for parentheses).
    pub value: f64,
    /// The column's year.
    pub year: u32,
}

/// The figure of `row` in the column of `year`, given the table's `header` line.
/// `None` when the header names fewer than two years, does not name `year`, or the row has
/// fewer figures than the header has years.
///
/// ```
/// use nanoindex_retrieve::table::read_cell;
/// let cell = read_cell("Purchases of PP&E (1,577) (1,373) (1,420)", "(Millions) 2018 2017 2016", 2018).unwrap();
/// assert_eq!(cell.text, "(1,577)");
/// assert_eq!(cell.value, -1577.0);
/// ```
#[must_use]
pub fn read_cell(row: &str, header: &str, year: u32) -> Option<Cell> {
    read_cell_in(row, header, year, 0)
}

/// Years named by a column header, each mention in order (`July 1, 2023 June 25, 2022
/// July 1, 2023 June 25, 2022` gives `[2023, 2022, 2023, 2022]`); `None` as [`years_in`].
fn year_mentions(header: &str) -> Option<Vec<u32>> {
    years_in(header)?;
    Some(
        numbers_in(header)
            .into_iter()
            .filter(|n| n.is_year() && n.value > 0.0)
            .map(|n| n.value as u32)
            .collect(),
    )
}

/// As [`read_cell`], for tables whose header names each year more than once (a 10-Q's
/// "Three Months Ended … Nine Months Ended …" over the same two years): when the row has one
/// figure per year mention, `occurrence` 0 is the year's first column (the shorter period,
/// which comes first by convention), 1 its second; otherwise the columns are the distinct
/// years and `occurrence` must be 0.
///
/// ```
/// use nanoindex_retrieve::table::read_cell_in;
/// let header = "July 1, 2023 June 25, 2022 July 1, 2023 June 25, 2022";
/// let row = "Net income $ 19,881 $ 19,442 $ 74,039 $ 79,082";
/// assert_eq!(read_cell_in(row, header, 2023, 0).unwrap().text, "19,881");
/// assert_eq!(read_cell_in(row, header, 2023, 1).unwrap().text, "74,039");
/// ```
#[must_use]
pub fn read_cell_in(row: &str, header: &str, year: u32, occurrence: usize) -> Option<Cell> {
    let distinct = years_in(header)?;
    if distinct.len() < 2 {
        return None;
    }
    let mentions = year_mentions(header)?;
    // A year-like figure in a row is a year (a note's date) unless written with a thousands
    // separator (`1,990` is an amount).
    let all: Vec<_> = numbers_in(row)
        .into_iter()
        .filter(|n| {
            let separated = row[n.range.clone()].contains(',');
            separated || !n.is_year()
        })
        .collect();
    // Percentage columns the header does not date ("2023 2022 Change"): a row of amounts
    // with a change after each pair has its amounts in the year columns.
    let plain: Vec<_> = all.iter().filter(|n| !n.percent).cloned().collect();
    let (years, figures) = if all.len() == mentions.len() && mentions.len() > distinct.len() {
        (mentions, all)
    } else if plain.len() < all.len() && plain.len() == mentions.len() {
        (mentions, plain)
    } else if occurrence == 0 {
        (distinct, all)
    } else {
        return None;
    };
    let column = years
        .iter()
        .enumerate()
        .filter(|(_, &y)| y == year)
        .nth(occurrence)
        .map(|(i, _)| i)?;
    if figures.len() < years.len() {
        return None;
    }
    let figure = &figures[figures.len() - years.len() + column];
    let mut start = figure.range.start;
    let mut end = figure.range.end;
    let bytes = row.as_bytes();
    if figure.value < 0.0 {
        if let Some(open) = row[..start].rfind(['(', '-']) {
            if row[open + 1..start].trim_matches(['$', ' ']).is_empty() {
                start = open;
            }
        }
        if bytes.get(end) == Some(&b')') {
            end += 1;
        }
    }
    if figure.percent {
        if let Some(p) = row[end..].find('%') {
            end += p + 1;
        }
    }
    Some(Cell {
        text: row[start..end].to_string(),
        value: figure.value,
        year,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(text: &str, x: f32, width: f32) -> nanoindex_core::TableCell {
        nanoindex_core::TableCell {
            text: text.into(),
            bbox: Some(BoundingBox {
                page: 4,
                x,
                y: 0.2,
                width,
                height: 0.01,
                confidence: 1.0,
                region_type: "table_cell".into(),
                text: None,
            }),
        }
    }

    fn blank() -> nanoindex_core::TableCell {
        nanoindex_core::TableCell::default()
    }

    /// A 10-Q's header: a period spanning two columns over each pair of years.
    fn quarterly() -> IndexedTable {
        let table = Table {
            page: 4,
            header_rows: vec![
                vec![
                    blank(),
                    blank(),
                    cell("Three Months Ended", 0.60, 0.14),
                    blank(),
                    cell("Nine Months Ended", 0.78, 0.14),
                ],
                vec![
                    blank(),
                    cell("2023", 0.62, 0.04),
                    cell("2022", 0.70, 0.04),
                    cell("2023", 0.80, 0.04),
                    cell("2022", 0.88, 0.04),
                ],
            ],
            cells: vec![
                vec![
                    cell("Net sales", 0.1, 0.1),
                    cell("81,797", 0.60, 0.06),
                    cell("82,959", 0.68, 0.06),
                    cell("293,787", 0.78, 0.06),
                    cell("304,182", 0.86, 0.06),
                ],
                vec![
                    cell("Restructuring", 0.1, 0.1),
                    cell("$ (12)", 0.61, 0.05),
                    blank(),
                    cell("(40)", 0.79, 0.05),
                    cell("—", 0.88, 0.02),
                ],
            ],
            ..Table::default()
        };
        IndexedTable::new(NodeId::default(), table)
    }

    #[test]
    fn a_spanning_period_heads_each_column_under_it() {
        let t = quarterly();
        let heads: Vec<&str> = t.columns.iter().map(|c| c.head.as_str()).collect();
        assert_eq!(
            heads,
            [
                "Three Months Ended 2023",
                "Three Months Ended 2022",
                "Nine Months Ended 2023",
                "Nine Months Ended 2022"
            ]
        );
        assert_eq!(t.year_columns(2023), [0, 2]);
        assert!(t.dated());
        // The period asked chooses among a year's columns; else the occurrence does.
        let read = |length, occurrence| {
            t.figure_for(0, 2023, occurrence, length, "")
                .map(|f| f.cell.text)
        };
        assert_eq!(
            read(Some(PeriodLength::Interim), 0).as_deref(),
            Some("293,787")
        );
        assert_eq!(
            read(Some(PeriodLength::Quarter), 1).as_deref(),
            Some("81,797")
        );
        assert_eq!(read(None, 1).as_deref(), Some("293,787"));
        assert_eq!(read(None, 0).as_deref(), Some("81,797"));
        // A cell is read by its column, with its sign, and cited with its box and its
        // headers' boxes; a blank cell or a dash is no figure.
        let f = t.figure_for(1, 2023, 0, None, "").unwrap();
        assert_eq!((f.cell.text.as_str(), f.cell.value), ("(12)", -12.0));
        let texts: Vec<_> = f.boxes.iter().map(|b| b.text.clone().unwrap()).collect();
        assert_eq!(texts, ["$ (12)", "Three Months Ended", "2023"]);
        assert_eq!(
            t.figure_for(1, 2022, 0, Some(PeriodLength::Quarter), ""),
            None
        );
        assert_eq!(
            t.figure_for(1, 2022, 1, Some(PeriodLength::Interim), ""),
            None
        );
        assert_eq!(t.figure_for(1, 2021, 0, None, ""), None);
        assert_eq!(
            t.figure_for(1, 2023, 0, Some(PeriodLength::Interim), "")
                .map(|f| f.cell.value),
            Some(-40.0)
        );
    }

    #[test]
    fn one_period_over_region_columns_dates_them_all_and_the_question_picks_one() {
        let table = Table {
            page: 4,
            header_rows: vec![
                vec![
                    blank(),
                    blank(),
                    cell("Year ended December 31, 2022", 0.58, 0.14),
                    blank(),
                ],
                vec![
                    blank(),
                    cell("Americas", 0.40, 0.05),
                    cell("Europe", 0.62, 0.05),
                    cell("Worldwide", 0.86, 0.05),
                ],
            ],
            cells: vec![vec![
                cell("Net sales", 0.1, 0.1),
                cell("18,400", 0.40, 0.06),
                cell("5,928", 0.62, 0.06),
                cell("34,229", 0.86, 0.06),
            ]],
            ..Table::default()
        };
        let t = IndexedTable::new(NodeId::default(), table);
        assert_eq!(t.year_columns(2022), [0, 1, 2]);
        let read = |asked: &str| t.figure_for(0, 2022, 0, None, asked).map(|f| f.cell.text);
        assert_eq!(
            read("What were total net sales?").as_deref(),
            Some("34,229")
        );
        assert_eq!(read("What were net sales?").as_deref(), Some("34,229"));
        assert_eq!(read("Net sales in Europe?").as_deref(), Some("5,928"));
        // A question naming the annual period still chooses by what it asks.
        let annual = |asked: &str| {
            t.figure_for(0, 2022, 0, Some(PeriodLength::Year), asked)
                .map(|f| f.cell.text)
        };
        assert_eq!(annual("Total net sales FY2022?").as_deref(), Some("34,229"));
        assert_eq!(annual("Europe net sales FY2022?").as_deref(), Some("5,928"));
        // Each column cites the period's box beside its own head.
        let f = t.figure_for(0, 2022, 0, None, "Americas").unwrap();
        let texts: Vec<_> = f.boxes.iter().map(|b| b.text.clone().unwrap()).collect();
        assert_eq!(
            texts,
            ["18,400", "Americas", "Year ended December 31, 2022"]
        );
        // A lone year that states no period ("2022" over one of two columns) dates no other.
        let table = Table {
            header_rows: vec![vec![
                blank(),
                cell("2022", 0.6, 0.04),
                cell("% change", 0.8, 0.06),
            ]],
            cells: vec![vec![
                cell("Net sales", 0.1, 0.1),
                cell("100", 0.6, 0.04),
                cell("5 %", 0.8, 0.04),
            ]],
            ..Table::default()
        };
        assert_eq!(
            IndexedTable::new(NodeId::default(), table).year_columns(2022),
            [0]
        );
    }

    #[test]
    fn period_lengths_are_read_from_heads() {
        assert_eq!(
            period_length("Three Months Ended July 1, 2023"),
            Some(PeriodLength::Quarter)
        );
        assert_eq!(
            period_length("Years Ended December 31"),
            Some(PeriodLength::Year)
        );
        assert_eq!(period_length("2023"), None);
        // Two lengths named: none is decided.
        assert_eq!(period_length("Three Months and Nine Months Ended"), None);
    }

    #[test]
    fn undated_change_columns_are_skipped() {
        // A 10-Q table with a change column after each period.
        let header = "July 1, June 25, July 1, June 25, 2023 2022 Change 2023 2022 Change";
        let row = "iPhone $ 39,669 $ 40,665 (2)% $ 156,778 $ 162,863 (4)%";
        assert_eq!(read_cell_in(row, header, 2023, 0).unwrap().text, "39,669");
        assert_eq!(read_cell_in(row, header, 2022, 0).unwrap().text, "40,665");
        assert_eq!(read_cell_in(row, header, 2023, 1).unwrap().text, "156,778");
        // An annual table with a percentage change.
        let row = "Net sales 4,100 3,800 8 %";
        assert_eq!(
            read_cell(row, "2024 2023 Change", 2024).unwrap().text,
            "4,100"
        );
        // A row of percentages keeps them.
        let row = "Products 35.4 % 34.5 % 36.5 % 36.8 %";
        let header = "July 1, June 25, July 1, June 25, 2023 2022 2023 2022";
        assert_eq!(read_cell_in(row, header, 2022, 0).unwrap().text, "34.5 %");
    }

    #[test]
    fn reads_the_year_column_from_the_right() {
        let header = "Years ended December 31 2018 2017 2016";
        let row = "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)";
        assert_eq!(read_cell(row, header, 2017).unwrap().text, "(1,373)");
        assert_eq!(read_cell(row, header, 2016).unwrap().value, -1420.0);
        assert_eq!(read_cell(row, header, 2015), None);
        // Amounts that look like years are amounts when written with a separator.
        let cell = read_cell("Total current assets 2,140 1,990", "2024 2023", 2023).unwrap();
        assert_eq!(cell.value, 1990.0);
        let row = "Net sales (Note 3) $ 43,638 $ 42,151";
        assert_eq!(read_cell(row, "2023 2022", 2022).unwrap().text, "42,151");
    }

    #[test]
    fn too_few_figures_or_years_give_none() {
        assert_eq!(read_cell("Total 12", "2023 2022", 2023), None);
        assert_eq!(read_cell("Total 12 13", "Fiscal 2023", 2023), None);
        let percent = read_cell("Gross margin 22.4% 23.1%", "2023 2022", 2023).unwrap();
        assert_eq!(percent.text, "22.4%");
    }
}
