//! Batch indexing: many PDFs, in parallel, with progress events, a manifest that lets a
//! second run skip unchanged documents (and an interrupted run resume), and sharding for
//! job arrays.
//!
//! The manifest ([`MANIFEST_FILE`] in the output folder) maps each output document name to
//! the SHA-256 of the PDF and a fingerprint of the indexing options; it is rewritten
//! atomically after every finished document, so whatever finished before an interruption
//! is skipped when the same command runs again. Within a document, the model's replies are
//! saved as they come ([`CHECKPOINT_SUFFIX`], [`crate::enrich::Checkpoint`]), so the
//! document interrupted resumes at the first request its checkpoint does not answer.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;

use nanoindex_core::{save_graph, save_tree, FORMAT_VERSION};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::enrich::Checkpoint;
use crate::{doc_name, sha256_hex, IndexError, IndexedDocument, NanoIndex, Progress};

/// Suffix of a document's checkpoint in the output folder (`<name>.checkpoint.jsonl`): the
/// model's replies so far while the document is enriched, removed when it is written.
pub const CHECKPOINT_SUFFIX: &str = "checkpoint.jsonl";

/// Name of the manifest file in the output folder.
pub const MANIFEST_FILE: &str = ".nanoindex-index.json";

/// Every `count`-th document starting at `index` (0-based) of the inputs sorted by path:
/// `--shard K/N`, for Slurm arrays and Kubernetes indexed Jobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N` with `0 <= K < N`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not K/N (for example 0/4)"))?;
        let index: usize = k
            .trim()
            .parse()
            .map_err(|_| format!("shard index `{k}` is not a number"))?;
        let count: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("shard count `{n}` is not a number"))?;
        if count == 0 || index >= count {
            return Err(format!(
                "shard `{s}` is out of range: K must be 0 to N-1 (K is 0-based)"
            ));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The inputs of this shard: sorted by path, then every `count`-th from `index`.
    pub fn select(&self, paths: &[PathBuf]) -> Vec<PathBuf> {
        let mut sorted = paths.to_vec();
        sorted.sort();
        sorted
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % self.count == self.index)
            .map(|(_, p)| p)
            .collect()
    }
}

/// How to run a batch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchOptions {
    /// Documents indexed at once (0 = [`NanoIndex::default_jobs`]: the cores the model's
    /// threads leave free). Extraction runs in
    /// parallel; the model serves one document at a time.
    pub jobs: usize,
    /// Only this shard of the inputs.
    pub shard: Option<Shard>,
    /// Index every document even when the manifest says it is unchanged.
    pub force: bool,
}

/// A document written to disk.
#[derive(Debug)]
pub struct WrittenDocument {
    /// Path of `<doc>.tree.json`.
    pub tree_path: PathBuf,
    /// Path of `<doc>.graph.json`.
    pub graph_path: PathBuf,
    /// The indexed document.
    pub document: IndexedDocument,
}

/// What happened to one input.
#[derive(Debug)]
pub enum Outcome {
    /// Indexed and written.
    Indexed(Box<WrittenDocument>),
    /// Same content and options as in the manifest, outputs present: not indexed again.
    Unchanged {
        /// The existing tree file.
        tree_path: PathBuf,
        /// The existing graph file.
        graph_path: PathBuf,
    },
    /// Failed; the rest of the batch went on.
    Failed(IndexError),
}

/// One input of a batch and its outcome.
#[derive(Debug)]
pub struct BatchItem {
    /// The input file.
    pub path: PathBuf,
    /// What happened.
    pub outcome: Outcome,
}

/// Something that happened in a batch, for progress displays.
#[derive(Debug)]
pub enum BatchEvent<'a> {
    /// The inputs are known: `total` documents in this shard, of which `unchanged` will be
    /// skipped.
    Planned {
        /// Documents in this run (after sharding).
        total: usize,
        /// Documents the manifest shows unchanged.
        unchanged: usize,
    },
    /// A document's pages were extracted and its structure built.
    Extracted {
        /// The input.
        path: &'a Path,
        /// Its page count.
        pages: u32,
        /// Its node count before enrichment.
        nodes: usize,
        /// Seconds its extraction and structure took (not counting the model's work).
        seconds: f64,
    },
    /// Before the model's work on a document, its structure-only tree and graph were written
    /// (an interrupted run leaves them; the enriched ones replace them).
    StructureWritten {
        /// The input.
        path: &'a Path,
        /// The tree file written.
        tree: &'a Path,
    },
    /// A batch of model requests finished for a document.
    Model {
        /// The input.
        path: &'a Path,
        /// Where its enrichment is.
        progress: &'a Progress,
    },
    /// A document is done (indexed, skipped or failed).
    Finished {
        /// The input and its outcome.
        item: &'a BatchItem,
    },
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    format_version: u32,
    documents: BTreeMap<String, ManifestEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ManifestEntry {
    source_path: String,
    sha256: String,
    options: String,
    tree: String,
    graph: String,
}

impl Manifest {
    fn load(out_dir: &Path) -> Manifest {
        std::fs::read(out_dir.join(MANIFEST_FILE))
            .ok()
            .and_then(|b| serde_json::from_slice::<Manifest>(&b).ok())
            .filter(|m| m.format_version == FORMAT_VERSION)
            .unwrap_or(Manifest {
                format_version: FORMAT_VERSION,
                documents: BTreeMap::new(),
            })
    }

    fn save(&self, out_dir: &Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        nanoindex_core::io::write_atomic(&out_dir.join(MANIFEST_FILE), &bytes)
    }

    /// Takes in what other processes (shards sharing the folder) wrote to the manifest on
    /// disk since it was read; this run's entries win.
    fn merge_from_disk(&mut self, out_dir: &Path) {
        let mut on_disk = Manifest::load(out_dir);
        on_disk.documents.append(&mut self.documents);
        *self = on_disk;
    }
}

impl NanoIndex {
    /// A fingerprint of everything that changes the output for the same PDF: the tool's
    /// version and output revisions, the model and how it is loaded, the OCR mode and
    /// languages and whether their data is installed (scans indexed without it are read
    /// again once it is), and the enrichment options that change results (not the batch size, which only changes speed).
    fn options_fingerprint(&self) -> String {
        let c = &self.config;
        let mut enrich = c.enrich.clone();
        enrich.batch_size = 0;
        sha256_hex(
            format!(
                "version={};format={FORMAT_VERSION};tree={};graph={};llm={:?};default_model={};\
                 llm_options={:?};enrich={enrich:?};password={};ocr={};ocr_ready={}",
                env!("CARGO_PKG_VERSION"),
                crate::prepare::TREE_REVISION,
                crate::prepare::GRAPH_REVISION,
                c.llm,
                nanoindex_models::DEFAULT_TEXT_MODEL,
                c.llm_options,
                c.password.is_some(),
                c.ocr.cache_key(),
                self.ocr_ready()
            )
            .as_bytes(),
        )[..16]
            .to_string()
    }

    /// Indexes `paths` into `out_dir` (`<doc>.tree.json`, `<doc>.graph.json`), `jobs`
    /// documents at a time, skipping documents the manifest shows unchanged, and reports
    /// progress to `on_event` (called from worker threads). A failing file — including one
    /// whose indexing panicked, or a second input with the same output name — is reported in
    /// its [`BatchItem`] and the others go on. Results come back in the order of the
    /// (sharded) inputs.
    ///
    /// Workers are plain threads, not a rayon pool: a model backend that runs its own rayon
    /// pool while a worker holds the shared model could otherwise be handed another
    /// document on the same thread.
    pub fn index_batch(
        &self,
        paths: &[PathBuf],
        out_dir: &Path,
        options: &BatchOptions,
        on_event: &(dyn Fn(BatchEvent<'_>) + Sync),
    ) -> Vec<BatchItem> {
        let paths = match options.shard {
            Some(shard) => shard.select(paths),
            None => paths.to_vec(),
        };
        let fingerprint = self.options_fingerprint();
        let manifest = Mutex::new(Manifest::load(out_dir));
        // Hash every input first (keeping only the digest), so the plan and the progress
        // total are known up front.
        let hashes: Vec<Option<String>> = paths
            .par_iter()
            .map(|p| std::fs::read(p).ok().map(|b| sha256_hex(&b)))
            .collect();
        // Two inputs with one output name would overwrite each other: the later ones fail.
        let mut first_with_name: std::collections::HashMap<String, usize> = Default::default();
        let clash: Vec<Option<PathBuf>> = paths
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let first = *first_with_name.entry(doc_name(p)).or_insert(i);
                (first != i).then(|| paths[first].clone())
            })
            .collect();
        let unchanged: Vec<Option<(PathBuf, PathBuf)>> = paths
            .iter()
            .zip(&hashes)
            .zip(&clash)
            .map(|((path, sha), clash)| {
                let sha = sha.as_ref()?;
                if options.force || clash.is_some() {
                    return None;
                }
                let m = manifest.lock().unwrap_or_else(|p| p.into_inner());
                let entry = m.documents.get(&doc_name(path))?;
                let tree = out_dir.join(&entry.tree);
                let graph = out_dir.join(&entry.graph);
                (entry.sha256 == *sha
                    && entry.options == fingerprint
                    && tree.is_file()
                    && graph.is_file())
                .then_some((tree, graph))
            })
            .collect();
        on_event(BatchEvent::Planned {
            total: paths.len(),
            unchanged: unchanged.iter().filter(|u| u.is_some()).count(),
        });
        let work = |i: usize| -> BatchItem {
            let path = &paths[i];
            let outcome = if let Some(first) = &clash[i] {
                Outcome::Failed(IndexError::NameClash {
                    path: path.clone(),
                    other: first.clone(),
                })
            } else if let Some((tree_path, graph_path)) = unchanged[i].clone() {
                // Unchanged content never skips the password: a wrong one fails as it would
                // on the first run.
                let display = path.display().to_string();
                match std::fs::read(path)
                    .map_err(|source| IndexError::Io {
                        path: path.clone(),
                        source,
                    })
                    .and_then(|bytes| {
                        nanoindex_pdf::password_protected(
                            &bytes,
                            &display,
                            self.config.password.as_deref(),
                        )
                        .map_err(IndexError::from)
                    }) {
                    Ok(_) => Outcome::Unchanged {
                        tree_path,
                        graph_path,
                    },
                    Err(e) => Outcome::Failed(e),
                }
            } else {
                let run = || self.index_one(path, out_dir, &manifest, on_event);
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
                    Ok(Ok((written, sha))) => {
                        let mut m = manifest.lock().unwrap_or_else(|p| p.into_inner());
                        m.merge_from_disk(out_dir);
                        m.documents.insert(
                            written.document.tree.doc_name.clone(),
                            ManifestEntry {
                                source_path: path.display().to_string(),
                                sha256: sha,
                                options: fingerprint.clone(),
                                tree: file_name(&written.tree_path),
                                graph: file_name(&written.graph_path),
                            },
                        );
                        match m.save(out_dir) {
                            Ok(()) => Outcome::Indexed(Box::new(written)),
                            Err(source) => Outcome::Failed(IndexError::Io {
                                path: out_dir.join(MANIFEST_FILE),
                                source,
                            }),
                        }
                    }
                    Ok(Err(e)) => Outcome::Failed(e),
                    Err(_) => Outcome::Failed(IndexError::Internal { path: path.clone() }),
                }
            };
            let item = BatchItem {
                path: path.clone(),
                outcome,
            };
            on_event(BatchEvent::Finished { item: &item });
            item
        };
        let jobs = if options.jobs == 0 {
            self.default_jobs().unwrap_or(1)
        } else {
            options.jobs
        }
        .clamp(1, paths.len().max(1));
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Mutex<Vec<Option<BatchItem>>> =
            Mutex::new((0..paths.len()).map(|_| None).collect());
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if i >= paths.len() {
                        break;
                    }
                    let item = work(i);
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(item);
                });
            }
        });
        results
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .into_iter()
            .zip(&paths)
            .map(|(item, path)| {
                item.unwrap_or_else(|| BatchItem {
                    path: path.clone(),
                    outcome: Outcome::Failed(IndexError::Internal { path: path.clone() }),
                })
            })
            .collect()
    }

    fn index_one(
        &self,
        path: &Path,
        out_dir: &Path,
        manifest: &Mutex<Manifest>,
        on_event: &(dyn Fn(BatchEvent<'_>) + Sync),
    ) -> Result<(WrittenDocument, String), IndexError> {
        let bytes = std::fs::read(path).map_err(|source| IndexError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let sha = sha256_hex(&bytes);
        let bytes = bytes.as_slice();
        let extraction = std::time::Instant::now();
        let tree = self.structure(bytes, path)?;
        on_event(BatchEvent::Extracted {
            path,
            pages: tree.extraction_metadata.page_count,
            nodes: tree.iter_nodes().count(),
            seconds: extraction.elapsed().as_secs_f64(),
        });
        let name = tree.doc_name.clone();
        let tree_path = out_dir.join(format!("{name}.tree.json"));
        let graph_path = out_dir.join(format!("{name}.graph.json"));
        if self.model()?.is_some() {
            // Model work takes minutes to hours: the structure-only tree and graph are written
            // first, so an interrupted or failed run still leaves a usable index (the
            // manifest records the document only when the enriched one is written).
            // The files are about to stop being the enriched ones an entry may record.
            {
                let mut m = manifest.lock().unwrap_or_else(|p| p.into_inner());
                m.merge_from_disk(out_dir);
                if m.documents.remove(&name).is_some() {
                    m.save(out_dir).map_err(|source| IndexError::Io {
                        path: out_dir.join(MANIFEST_FILE),
                        source,
                    })?;
                }
            }
            let mut outline = tree.clone();
            let graph = self.enrich_without_model(&mut outline, path)?;
            save_tree(&outline, &tree_path)?;
            save_graph(&graph, &graph_path)?;
            on_event(BatchEvent::StructureWritten {
                path,
                tree: &tree_path,
            });
        }
        let mut progress = |p: &Progress| on_event(BatchEvent::Model { path, progress: p });
        // The model's replies are saved as they come: a killed run resumes where it stopped.
        let checkpoint_path = out_dir.join(format!("{name}.{CHECKPOINT_SUFFIX}"));
        let mut checkpoint = match self.model()? {
            Some(_) => {
                Some(
                    Checkpoint::open(&checkpoint_path).map_err(|source| IndexError::Io {
                        path: checkpoint_path.clone(),
                        source,
                    })?,
                )
            }
            None => None,
        };
        let document = self.enrich(tree, path, Some(&mut progress), checkpoint.as_mut())?;
        save_tree(&document.tree, &tree_path)?;
        save_graph(&document.graph, &graph_path)?;
        if let Some(checkpoint) = checkpoint {
            checkpoint.remove().map_err(|source| IndexError::Io {
                path: checkpoint_path,
                source,
            })?;
        }
        Ok((
            WrittenDocument {
                tree_path,
                graph_path,
                document,
            },
            sha,
        ))
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_sorted_inputs() {
        let paths: Vec<PathBuf> = ["c.pdf", "a.pdf", "e.pdf", "b.pdf", "d.pdf"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let s0: Shard = "0/2".parse().unwrap();
        let s1: Shard = "1/2".parse().unwrap();
        assert_eq!(
            s0.select(&paths),
            ["a.pdf", "c.pdf", "e.pdf"].map(PathBuf::from)
        );
        assert_eq!(s1.select(&paths), ["b.pdf", "d.pdf"].map(PathBuf::from));
        assert!("2/2".parse::<Shard>().is_err());
        assert!("1".parse::<Shard>().is_err());
        assert!("a/3".parse::<Shard>().is_err());
    }
}
