//! Debug aid: MuPDF's plain text of each page, to compare with the extractor. With a second
//! argument, only the lines containing it, each character with its left and right edge (PDF
//! points), its size and `*` for a space MuPDF inserted itself (synthetic).
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let filter = std::env::args().nth(2);
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
        if filter.is_none() {
            println!("page {i}: {:?}", tp.to_text().unwrap());
        }
        for b in tp.blocks() {
            for l in b.lines() {
                let text: String = l.chars().filter_map(|c| c.char()).collect();
                if filter.as_ref().is_some_and(|f| !text.contains(f.as_str())) {
                    continue;
                }
                let cs: Vec<String> = l
                    .chars()
                    .map(|c| {
                        let q = c.quad();
                        let synthetic = c.flags().contains(mupdf::TextCharFlags::SYNTHETIC);
                        format!(
                            "{:?}{}{:.1}-{:.1}",
                            c.char().unwrap_or('?'),
                            if synthetic { "*" } else { "" },
                            q.ul.x,
                            q.ur.x
                        )
                    })
                    .collect();
                println!(
                    "  page {} size {:.1}: {}",
                    i + 1,
                    l.chars().next().map_or(0.0, |c| c.size()),
                    cs.join(" ")
                );
            }
        }
    }
}
