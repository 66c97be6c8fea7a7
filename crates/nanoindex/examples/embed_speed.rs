//! Times the default embedder on passages of a PDF: passages/s and tokens.
//! `cargo run -p nanoindex --example embed_speed -- FILE.pdf [N]`
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: embed_speed FILE.pdf [N]");
    let n: usize = args.next().map_or(64, |s| s.parse().expect("N"));
    let doc = nanoindex::NanoIndex::default().index(&path).expect("index");
    let passages = nanoindex_retrieve::passages(&doc.tree);
    let texts = nanoindex_retrieve::dense_texts(&passages);
    let refs: Vec<&str> = texts.iter().take(n).map(String::as_str).collect();
    let embedder = nanoindex::llm::load_embedder(None).expect("embedder");
    let t = std::time::Instant::now();
    embedder.embed(&refs).expect("embed");
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} of {} passages in {s:.2} s = {:.1} passages/s",
        refs.len(),
        passages.len(),
        refs.len() as f64 / s
    );
}
