//! `nanoindex-local extract`: the tables of a PDF (or of a tree written by `index`) as
//! markdown, JSON or CSV, each with its page and the node that holds it (no model runs); or,
//! with `--schema S.json`, the schema's fields filled from the document, each value found in
//! a quote on its page and cited with boxes (`nanoindex::fields`), as JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use nanoindex::core::Table;

use crate::args::{engine, ModelArgs, OpenArgs};

/// How `extract` writes the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Each table as a GitHub-flavoured markdown table under a `##` line naming its title
    /// (else its section's), page and node.
    Markdown,
    /// A JSON array of tables: NanoIndex's fields (`id`, `title`, `headers`, `rows`, `page`,
    /// `section_id`, `bounding_box`) and ours (`header_rows`, `cells` with boxes, `markdown`).
    Json,
    /// One CSV of all tables, a record per row: `table_id`, `page`, `kind` (`header` or
    /// `row`), then the row's cells (records differ in length between tables).
    Csv,
}

/// Arguments of `extract`.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// A PDF, or a tree file written by `index`.
    file: PathBuf,
    /// Only tables that start on these 1-based pages: `5`, `3-7` or `1,4-6`.
    #[arg(long)]
    pages: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    format: Format,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Fill this JSON Schema's fields (an object of string, number, integer and boolean
    /// properties, each asked by its description) with the model, instead of writing tables.
    /// Prints JSON: per field its value, how it was found, page, quote and boxes.
    #[arg(long, conflicts_with = "pages")]
    schema: Option<PathBuf>,
    #[command(flatten)]
    open: OpenArgs,
    /// The model that reads the fields (with `--schema`).
    #[command(flatten)]
    model: ModelArgs,
}

/// Pages as ranges, 1-based and inclusive.
#[derive(Debug)]
struct Pages(Vec<(u32, u32)>);

impl Pages {
    fn contains(&self, page: u32) -> bool {
        self.0.iter().any(|&(a, b)| (a..=b).contains(&page))
    }
}

/// Parses a page list (`5`, `3-7`, `1,4-6`; 1-based, ranges inclusive).
///
/// # Errors
/// A part that is not a page number or a range of two in rising order.
fn parse_pages(spec: &str) -> anyhow::Result<Pages> {
    let mut pages = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let page = |s: &str| -> anyhow::Result<u32> {
            s.trim()
                .parse::<u32>()
                .ok()
                .filter(|&p| p >= 1)
                .with_context(|| format!("`--pages {spec}`: `{s}` is not a page number (1, 2, …)"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (page(a)?, page(b)?);
                if a > b {
                    bail!("`--pages {spec}`: the range `{part}` runs backwards");
                }
                pages.push((a, b));
            }
            None => {
                let p = page(part)?;
                pages.push((p, p));
            }
        }
    }
    if pages.is_empty() {
        bail!("`--pages {spec}` names no page");
    }
    Ok(Pages(pages))
}

/// Runs `extract --schema`: the fields as one JSON object (`document`, then `fields` keyed
/// by name), written to `--output` or standard output.
fn fill(args: &ExtractArgs, schema_path: &std::path::Path) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(schema_path)
        .with_context(|| format!("cannot read the schema `{}`", schema_path.display()))?;
    let schema: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("`{}` is not JSON", schema_path.display()))?;
    // The schema is checked before any model loads or any document is read.
    nanoindex::fields::schema_fields(&schema)
        .map_err(|e| anyhow::anyhow!("cannot fill `{}`: {e}", schema_path.display()))?;
    let engine = engine(&args.open, Some(&args.model));
    let prepared = engine.prepare(&args.file, &mut |m| eprintln!("{m}"))?;
    let values = engine.fill_schema(&prepared, &schema, args.model.max_pages.max(1))?;
    let mut fields = serde_json::Map::new();
    for v in &values {
        fields.insert(v.field.name.clone(), serde_json::to_value(v)?);
    }
    let json = serde_json::json!({
        "document": args.file.display().to_string(),
        "fields": fields,
    });
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write `{}`", path.display()))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    out.flush()?;
    let found = values.iter().filter(|v| !v.value.is_null()).count();
    eprintln!("{found} of {} fields found", values.len());
    Ok(ExitCode::SUCCESS)
}

/// Runs `extract`.
pub fn run(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    if let Some(schema) = &args.schema {
        return fill(&args, schema);
    }
    let pages = args.pages.as_deref().map(parse_pages).transpose()?;
    let open = OpenArgs {
        password: args.open.password.clone(),
        // Tables need no passage vectors.
        no_dense: true,
        ocr: args.open.ocr.clone(),
    };
    let prepared = engine(&open, None).prepare(&args.file, &mut |m| eprintln!("{m}"))?;
    // (table, title of the section that holds it)
    let tables: Vec<(&Table, &str)> = prepared
        .document
        .tree
        .iter_nodes()
        .flat_map(|n| n.tables.iter().map(move |t| (t, n.title.as_str())))
        .filter(|(t, _)| pages.as_ref().is_none_or(|p| p.contains(t.page)))
        .collect();
    if tables.is_empty() {
        eprintln!(
            "no table of figures found in `{}`{}",
            args.file.display(),
            args.pages
                .as_deref()
                .map(|p| format!(" on pages {p}"))
                .unwrap_or_default()
        );
    }
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write `{}`", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    match args.format {
        Format::Markdown => {
            for (t, section) in &tables {
                // A table without a caption of its own is named by its section.
                let title = if t.title.is_empty() {
                    section
                } else {
                    t.title.as_str()
                };
                writeln!(out, "## {title} (page {}, node {})\n", t.page, t.section_id)?;
                // Trees written by NanoIndex carry no markdown: render it from the rows.
                let markdown = if t.markdown.is_empty() {
                    t.to_markdown()
                } else {
                    t.markdown.clone()
                };
                writeln!(out, "{markdown}")?;
            }
        }
        Format::Json => {
            let tables: Vec<&Table> = tables.iter().map(|(t, _)| *t).collect();
            writeln!(out, "{}", serde_json::to_string_pretty(&tables)?)?;
        }
        Format::Csv => {
            let mut csv = csv::WriterBuilder::new().flexible(true).from_writer(out);
            csv.write_record(["table_id", "page", "kind", "cells…"])?;
            for (t, _) in &tables {
                let page = t.page.to_string();
                let header_rows = t.header_rows.iter().map(|r| ("header", r));
                for (kind, row) in header_rows.chain(t.cells.iter().map(|r| ("row", r))) {
                    let lead = [t.id.as_str(), page.as_str(), kind];
                    csv.write_record(lead.into_iter().chain(row.iter().map(|c| c.text.as_str())))?;
                }
            }
            csv.flush()?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_lists_read_as_written_and_bad_ones_say_why() {
        let pages = parse_pages("1,4-6, 9").unwrap();
        let got: Vec<u32> = (1..=10).filter(|&p| pages.contains(p)).collect();
        assert_eq!(got, [1, 4, 5, 6, 9]);
        // A range is kept as a range, however long.
        assert!(parse_pages("1-4000000000").unwrap().contains(3_999_999_999));
        let err = parse_pages("7-3").unwrap_err().to_string();
        assert!(err.contains("runs backwards"), "{err}");
        let err = parse_pages("0").unwrap_err().to_string();
        assert!(err.contains("`0` is not a page number"), "{err}");
        assert!(parse_pages(",").is_err());
    }
}
