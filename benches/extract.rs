//! Criterion benchmark of structure-only indexing (extraction + tree + cross-references) on
//! a 60-page report the benchmark writes itself (headings, prose, figure tables), reported
//! as pages per second. For real filings and the PyMuPDF comparison see
//! `scripts/bench-extract.sh`.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nanoindex::{Config, NanoIndex};
use nanoindex_pdf::write::PdfBuilder;

const PAGES: usize = 60;

fn report() -> Vec<u8> {
    let mut pdf = PdfBuilder::new();
    for p in 0..PAGES {
        let page = pdf.page();
        page.text(
            72.0,
            60.0,
            14.0,
            true,
            &format!("{}. Section {}", p + 1, p + 1),
        );
        let mut y = 90.0;
        for l in 0..30 {
            page.text(
                72.0,
                y,
                10.0,
                false,
                &format!(
                "Line {l} of section {p}: revenue grew as described in Section {}.1 and Note {}.",
                (p + 2) % PAGES + 1,
                l % 9 + 1
            ),
            );
            y += 12.5;
        }
        for r in 0..12 {
            page.text(72.0, y, 9.0, false, &format!("Operating line item {r}"))
                .text(
                    380.0,
                    y,
                    9.0,
                    false,
                    &format!("{},{:03}", r + 1, p * 7 % 1000),
                )
                .text(
                    450.0,
                    y,
                    9.0,
                    false,
                    &format!("({},{:03})", r + 2, p * 3 % 1000),
                );
            y += 11.0;
        }
    }
    pdf.to_bytes()
}

fn bench(c: &mut Criterion) {
    let bytes = report();
    let engine = NanoIndex::new(Config::default());
    let mut group = c.benchmark_group("index_no_llm");
    group.throughput(Throughput::Elements(PAGES as u64));
    group.sample_size(20);
    group.bench_function("60_page_report", |b| {
        b.iter(|| {
            let doc = engine
                .index_bytes(&bytes, Path::new("bench.pdf"))
                .expect("indexes");
            assert_eq!(doc.tree.extraction_metadata.page_count, PAGES as u32);
            doc
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
