//! Debug aid: MuPDF's plain text of each page, to compare with the extractor.
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let mut doc = mupdf::pdf::PdfDocument::open(&path).expect("open");
    println!("auth {:?}", doc.authenticate(""));
    println!(
        "needs_pw {:?} perms {:?}",
        doc.needs_password(),
        doc.permissions().bits()
    );
    for i in 0..doc.page_count().unwrap() {
        let page = doc.load_page(i).unwrap();
        let tp = page.to_text_page(mupdf::TextPageFlags::empty()).unwrap();
        println!("page {i}: {:?}", tp.to_text().unwrap());
        for b in tp.blocks() {
            for l in b.lines() {
                let cs: Vec<String> = l
                    .chars()
                    .map(|c| format!("{:?}{:.0}", c.char(), c.quad().ul.x))
                    .collect();
                println!("  line: {}", cs.join(" "));
            }
        }
    }
}
