//! Resident memory of a GGUF model loaded by candle-transformers' own quantized model
//! (`candle-transformers`, for Gemma 3 `quantized_gemma3`) or by this crate, after loading
//! and after evaluating a short prompt: the before/after figure for the RoPE-table fix.
//!
//! Usage: `cargo run --release --example resident_memory -p nanoindex-llm-candle -- \
//!   (candle-transformers|ours) PATH.gguf`

use std::io::BufReader;

use candle_core::quantized::gguf_file;
use candle_core::{Device, Tensor};
use nanoindex_llm::{GenerateRequest, TextGenerator, TokenControl};
use nanoindex_llm_candle::{CandleConfig, CandleGenerator};

/// `VmRSS` and `VmHWM` of this process in MiB.
fn resident_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (which, path) = match args.as_slice() {
        [_, which, path] => (which.as_str(), std::path::PathBuf::from(path)),
        _ => {
            eprintln!("usage: resident_memory (candle-transformers|ours) PATH.gguf");
            std::process::exit(2);
        }
    };
    match which {
        "candle-transformers" => {
            use candle_transformers::models::quantized_gemma3::ModelWeights;
            let mut file = BufReader::new(std::fs::File::open(&path).expect("open"));
            let content = gguf_file::Content::read(&mut file).expect("gguf");
            let mut model =
                ModelWeights::from_gguf(content, &mut file, &Device::Cpu).expect("load");
            let (rss, _) = resident_mib();
            println!("candle-transformers quantized_gemma3 after load: {rss:.0} MiB resident");
            let input = Tensor::new(&[[2_u32, 818, 5279, 529, 7001, 563]], &Device::Cpu).unwrap();
            model.forward(&input, 0).expect("forward");
            let (rss, hwm) = resident_mib();
            println!("after a 6-token prompt: {rss:.0} MiB resident, peak {hwm:.0} MiB");
        }
        "ours" => {
            let config = CandleConfig {
                n_threads: Some(1),
                ..CandleConfig::default()
            };
            let mut generator = CandleGenerator::load(&path, config).expect("load");
            let (rss, _) = resident_mib();
            println!(
                "nanoindex-llm-candle (n_ctx {}) after load: {rss:.0} MiB resident",
                generator.info().context_length_used
            );
            let request = GenerateRequest::chat("", "The capital of France is").with_max_tokens(1);
            generator
                .generate(&request, &mut |_| TokenControl::Continue)
                .expect("generate");
            let (rss, hwm) = resident_mib();
            println!("after a 6-token prompt: {rss:.0} MiB resident, peak {hwm:.0} MiB");
            println!("{:?}", generator.context_memory());
        }
        other => {
            eprintln!("unknown model implementation `{other}`");
            std::process::exit(2);
        }
    }
}
