//! `nanoindex-local models`: where models live and which of the known models are
//! installed. Models are installed by `scripts/fetch-models.sh`.

use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use nanoindex::llm::{hf_offline, hf_pull, models_dir, ModelFileStatus, ModelManifest};

/// Arguments of `models`.
#[derive(Debug, Args)]
pub struct ModelsArgs {
    #[command(subcommand)]
    command: ModelsCommand,
}

#[derive(Debug, Subcommand)]
enum ModelsCommand {
    /// List the known models with their install status and location.
    List {
        /// Also compute each file's sha256 and compare it with the manifest (reads every
        /// file).
        #[arg(long)]
        verify: bool,
        /// Print the list as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Get a file from a Hugging Face model repository into the Hugging Face cache and
    /// print its path (the only command that downloads; with `HF_HUB_OFFLINE=1` it only
    /// looks in the cache).
    Pull {
        /// Repository id (`HuggingFaceTB/SmolLM2-135M-Instruct-GGUF`).
        repo: String,
        /// File in the repository (`smollm2-135m-instruct-q8_0.gguf`).
        file: String,
        /// Branch, tag or commit (default `main`).
        #[arg(long)]
        revision: Option<String>,
        /// Print the path as a JSON string.
        #[arg(long)]
        json: bool,
    },
    /// Print the models directory (`NANOINDEX_MODELS`, else the user cache).
    Path {
        /// Print the path as a JSON string.
        #[arg(long)]
        json: bool,
    },
}

fn status_word(status: ModelFileStatus) -> String {
    match status {
        ModelFileStatus::Missing => "missing".into(),
        ModelFileStatus::WrongSize { found } => format!("wrong size ({found} bytes)"),
        ModelFileStatus::Present => "installed".into(),
        ModelFileStatus::Verified => "verified".into(),
        ModelFileStatus::ChecksumMismatch => "checksum mismatch".into(),
    }
}

/// Runs `models`.
pub fn run(args: ModelsArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        ModelsCommand::Pull {
            repo,
            file,
            revision,
            json,
        } => {
            let path = hf_pull(&repo, &file, revision.as_deref()).with_context(|| {
                if hf_offline() {
                    format!("cannot pull `{file}` of `{repo}` offline")
                } else {
                    format!("cannot pull `{file}` from `{repo}`")
                }
            })?;
            if json {
                crate::output::outln!("{}", serde_json::to_string(&path.display().to_string())?)?;
            } else {
                crate::output::outln!("{}", path.display())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        ModelsCommand::Path { json } => {
            let dir = models_dir()?;
            if json {
                crate::output::outln!("{}", serde_json::to_string(&dir.display().to_string())?)?;
            } else {
                crate::output::outln!("{}", dir.display())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        ModelsCommand::List { verify, json } => {
            let dir = models_dir()?;
            let manifest = ModelManifest::builtin();
            let mut rows = Vec::new();
            let mut all_usable = true;
            for model in &manifest.models {
                for file in &model.files {
                    let status = file.status(&dir, verify)?;
                    all_usable &= status.is_usable();
                    rows.push((model, file, status));
                }
            }
            if json {
                let list: Vec<serde_json::Value> = rows
                    .iter()
                    .map(|(model, file, status)| {
                        serde_json::json!({
                            "name": model.name,
                            "kind": model.kind,
                            "license": model.license,
                            "path": file.location(&dir),
                            "size": file.size,
                            "sha256": file.sha256,
                            "status": status_word(*status),
                        })
                    })
                    .collect();
                let value = serde_json::json!({ "models_dir": dir, "files": list });
                crate::output::outln!("{}", serde_json::to_string_pretty(&value)?)?;
            } else {
                eprintln!("models directory: {}", dir.display());
                for (model, file, status) in &rows {
                    crate::output::outln!(
                        "{:<28} {:<9} {:>7.1} MB  {:<18} {}",
                        model.name,
                        model.kind,
                        file.size as f64 / 1e6,
                        status_word(*status),
                        file.location(&dir).display()
                    )?;
                }
                if !all_usable {
                    eprintln!("hint: install the missing models with `scripts/fetch-models.sh`");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
