//! placeholder for build warmup
pub use mupdf;
