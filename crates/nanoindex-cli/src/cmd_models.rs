//! `nanoindex-local models`: where models live and which of the known models are
//! installed. Models are installed by `scripts/fetch-models.sh`.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use nanoindex::llm::{models_dir, ModelFileStatus, ModelManifest};

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
    let dir = models_dir()?;
    match args.command {
        ModelsCommand::Path { json } => {
            if json {
                println!("{}", serde_json::to_string(&dir.display().to_string())?);
            } else {
                println!("{}", dir.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        ModelsCommand::List { verify, json } => {
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
                println!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                eprintln!("models directory: {}", dir.display());
                for (model, file, status) in &rows {
                    println!(
                        "{:<28} {:<9} {:>7.1} MB  {:<18} {}",
                        model.name,
                        model.kind,
                        file.size as f64 / 1e6,
                        status_word(*status),
                        file.location(&dir).display()
                    );
                }
                if !all_usable {
                    eprintln!("hint: install the missing models with `scripts/fetch-models.sh`");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
