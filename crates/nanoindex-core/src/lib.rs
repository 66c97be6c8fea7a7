//! placeholder for build warmup
