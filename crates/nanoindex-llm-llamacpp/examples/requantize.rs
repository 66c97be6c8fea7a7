//! Converts a GGUF model to another quantization with llama.cpp's own quantizer
//! (`llama_model_quantize`, requantizing allowed), to measure how the stored format changes
//! prefill and decode speed (issue: the default SmolLM2 Q4_1 prefills slower than a model
//! twice its size in Q4_K_M).
//!
//! `cargo run -p nanoindex-llm-llamacpp --example requantize -- IN.gguf OUT.gguf q8_0|q4_0|q4_k_m|f16`

use std::ffi::CString;

use llama_cpp_sys_2 as sys;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, kind] = args.as_slice() else {
        return Err("usage: requantize IN.gguf OUT.gguf q8_0|q4_0|q4_k_m|f16".into());
    };
    let ftype = match kind.as_str() {
        "q8_0" => sys::LLAMA_FTYPE_MOSTLY_Q8_0,
        "q4_0" => sys::LLAMA_FTYPE_MOSTLY_Q4_0,
        "q4_k_m" => sys::LLAMA_FTYPE_MOSTLY_Q4_K_M,
        "f16" => sys::LLAMA_FTYPE_MOSTLY_F16,
        other => return Err(format!("unknown type `{other}`").into()),
    };
    let (input, output) = (
        CString::new(input.as_str())?,
        CString::new(output.as_str())?,
    );
    // SAFETY: plain C calls with valid, NUL-terminated paths and a parameter struct made by
    // llama.cpp itself; the backend is initialised first, as llama.cpp requires.
    let rc = unsafe {
        sys::llama_backend_init();
        let mut params = sys::llama_model_quantize_default_params();
        params.ftype = ftype;
        params.allow_requantize = true;
        params.nthread = 1;
        sys::llama_model_quantize(input.as_ptr(), output.as_ptr(), &params)
    };
    if rc != 0 {
        return Err(format!("llama_model_quantize failed with code {rc}").into());
    }
    Ok(())
}
