//! Reading one cell of a financial table row: the row's figures are matched to the column
//! header's years from the right (rows may start with a note number or a label holding
//! digits), so `Purchases of PP&E (1,577) (1,373) (1,420)` under `2018 2017 2016` gives
//! `(1,577)` for 2018.

use crate::analysis::numbers_in;
use crate::index::years_in;

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
