//! Enrichment of a structure-only tree (SPEC "Indexing pipeline", steps 3–5), in order:
//!
//! 1. the split cascade for leaves still over the size limit (module `split`; tier (a), headings
//!    inside the text, already ran in `nanoindex-tree`);
//! 2. the graph: cross-references and rule-based entities (`nanoindex-graph`, always);
//! 3. one reading of every window of prose (module `read`): the window's text is evaluated
//!    once for its summary and its entities and relationships (two turns of one
//!    conversation, the second reusing the first's cached prompt);
//! 4. node summaries from the windows' summaries, parents from their children's, tables of
//!    figures from their title and head (module `summary`), and the document description;
//! 5. the entities and relationships the model read, checked against their window and merged
//!    into the graph (module `entities`), with the domain's types ([`domain`]) and the user's
//!    custom ones.
//!
//! Steps 3 to 5 (and tiers b and c of step 1) need a model; without one the result is the
//! structure, paragraph splits and the rule-based graph, with zero model calls. Model
//! requests of a stage are sent together (tier (b) asks one leaf at a time) through
//! [`nanoindex_llm::TextGenerator::generate_batch`] (several sequences per batch on
//! llama.cpp).

mod checkpoint;
pub mod domain;
mod entities;
mod prompts;
mod read;
mod split;
mod summary;

use std::time::Instant;

use nanoindex_core::{assign_node_ids, DocumentGraph, DocumentTree};
use nanoindex_llm::{
    Conversations, GenerateRequest, Generation, LlmError, TextGenerator, TokenControl,
};

pub use checkpoint::Checkpoint;
pub use entities::EntityStats;
pub use read::{SUMMARY_TURNS, WINDOW_TOKENS};
pub use split::SplitStats;
pub use summary::{SummaryStats, MIN_SUMMARY_TOKENS};

/// What to do beyond the structure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnrichOptions {
    /// Leaves over this many estimated tokens are split (`None`: no split).
    pub split_tokens: Option<usize>,
    /// Write node summaries (needs a model).
    pub summaries: bool,
    /// Write a one-sentence document description (needs a model).
    pub doc_description: bool,
    /// Extraction domain (see [`domain::DOMAINS`]); `None`: the domain detected from the
    /// content (the tree's `domain`, when it is a known one), else `generic`.
    pub domain: Option<domain::Domain>,
    /// Extra entity types for the model, beyond the domain's.
    pub entity_types: Vec<nanoindex_core::EntityType>,
    /// Extra relationship types for the model, beyond the domain's.
    pub relation_types: Vec<nanoindex_core::RelationType>,
    /// Ask the model for entities and relationships (needs a model).
    pub llm_entities: bool,
    /// Most requests sent to the model together.
    pub batch_size: usize,
    /// Most estimated tokens of document text in one request.
    pub prompt_budget: usize,
}

impl Default for EnrichOptions {
    fn default() -> Self {
        EnrichOptions {
            split_tokens: Some(nanoindex_tree::DEFAULT_SPLIT_TOKENS),
            summaries: true,
            doc_description: false,
            domain: None,
            entity_types: Vec::new(),
            relation_types: Vec::new(),
            llm_entities: true,
            batch_size: 8,
            prompt_budget: 900,
        }
    }
}

/// A stage of enrichment, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The split cascade.
    Split,
    /// The rule-based graph.
    Graph,
    /// The one reading of every window of prose (summaries and entities together).
    Read,
    /// Node summaries.
    Summaries,
    /// The document description.
    Description,
    /// Entities found by the model, checked and merged into the graph (no model requests:
    /// they were read in [`Stage::Read`]).
    Entities,
}

impl Stage {
    /// Display name.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Split => "split",
            Stage::Graph => "graph",
            Stage::Read => "read",
            Stage::Summaries => "summaries",
            Stage::Description => "description",
            Stage::Entities => "entities",
        }
    }
}

/// A progress report: `done` of `total` model requests of `stage` are finished, with the
/// tokens generated so far in this document.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// The stage running.
    pub stage: Stage,
    /// Requests of the stage finished.
    pub done: usize,
    /// Requests of the stage known so far (a stage may add requests as it goes).
    pub total: usize,
    /// Tokens generated in this document so far.
    pub completion_tokens: u64,
    /// Generated tokens per second of model time in this document so far.
    pub tokens_per_s: f64,
}

/// What enrichment did and what it cost.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct EnrichReport {
    /// The split cascade.
    pub split: SplitStats,
    /// Summaries.
    pub summaries: SummaryStats,
    /// Whether a document description was written.
    pub description: bool,
    /// The domain whose types were used.
    pub domain: String,
    /// Model extraction of entities.
    pub entities: EntityStats,
    /// Model requests made.
    pub llm_calls: usize,
    /// Requests whose prompt did not fit the model's context (their step fell back).
    pub llm_skipped: usize,
    /// Requests answered from the checkpoint of an earlier, interrupted run (not sent to the
    /// model, not counted in `llm_calls` or the token counts).
    pub llm_replayed: usize,
    /// What went wrong without stopping enrichment (a checkpoint that cannot be written).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Prompt tokens evaluated (cached prefixes excluded).
    pub prompt_tokens: u64,
    /// Tokens of the document's own text (every node's text), in the model's vocabulary
    /// (estimated at four characters a token when the backend cannot count): the measure
    /// `prompt_tokens` is compared with. 0 without a model.
    pub text_tokens: u64,
    /// Tokens generated.
    pub completion_tokens: u64,
    /// Wall time per stage, in milliseconds, in order.
    pub stage_ms: Vec<(Stage, f64)>,
}

/// The model with its batch size and the counters of one document.
pub(crate) struct Calls<'a, 'p> {
    /// The model (taken out while [`Calls::serve`] runs, which lends the rest of `Calls` to
    /// the conversations it serves).
    llm: Option<&'a mut dyn TextGenerator>,
    batch_size: usize,
    calls: usize,
    prompt_tokens: u64,
    completion_tokens: u64,
    model_ms: f64,
    /// Requests that did not fit the model's context (answered as empty).
    skipped: usize,
    /// Requests answered from the checkpoint (an earlier, interrupted run).
    replayed: usize,
    warnings: Vec<String>,
    checkpoint: Option<&'p mut Checkpoint>,
    stage: Stage,
    done: usize,
    total: usize,
    /// Requests counted into `total` ahead ([`Calls::expect`]) and not made yet.
    expected: usize,
    progress: Option<&'p mut dyn FnMut(&Progress)>,
}

impl<'a, 'p> Calls<'a, 'p> {
    pub(crate) fn new(llm: &'a mut dyn TextGenerator, batch_size: usize) -> Self {
        Calls {
            llm: Some(llm),
            batch_size: batch_size.max(1),
            calls: 0,
            prompt_tokens: 0,
            completion_tokens: 0,
            model_ms: 0.0,
            skipped: 0,
            replayed: 0,
            warnings: Vec::new(),
            checkpoint: None,
            stage: Stage::Split,
            done: 0,
            total: 0,
            expected: 0,
            progress: None,
        }
    }

    /// The model.
    fn model(&mut self) -> &mut dyn TextGenerator {
        self.llm
            .as_deref_mut()
            .expect("the model is back in `Calls` whenever `serve` is not running")
    }

    /// Serves `work`'s conversations on the model (continuous batching,
    /// [`TextGenerator::serve`]) with the accounting of [`Calls::batch`]: a request the
    /// checkpoint holds a reply to is answered from it (not watched, not sent), every reply
    /// from the model is counted and saved to the checkpoint as it comes, a request that
    /// does not fit the context gets an empty reply, and progress (with the model time so
    /// far and the turns the source adds, [`Conversations::planned`]) is reported after each
    /// reply.
    ///
    /// # Errors
    ///
    /// Model failures, and the first error of a request other than its prompt not fitting
    /// the context (a JSON Schema the backend cannot use): no conversation starts after it.
    pub(crate) fn serve(&mut self, work: &mut dyn Conversations) -> Result<(), LlmError> {
        let llm = self
            .llm
            .take()
            .expect("`serve` is not called while it runs");
        let model = llm.info().name.clone();
        let base_ms = self.model_ms;
        let mut accounted = Accounted {
            calls: self,
            work,
            model,
            keys: std::collections::HashMap::new(),
            started: Instant::now(),
            base_ms,
            failure: None,
        };
        let outcome = llm.serve(&mut accounted);
        let failure = accounted.failure.take();
        let elapsed = accounted.started.elapsed().as_secs_f64() * 1000.0;
        self.model_ms = base_ms + elapsed;
        self.llm = Some(llm);
        outcome?;
        failure.map_or(Ok(()), Err)
    }

    /// Counts a reply from the model: one call, its evaluated prompt tokens (cached prefixes
    /// excluded) and its generated tokens.
    fn count(&mut self, reply: &Generation) {
        self.calls += 1;
        self.prompt_tokens += u64::from(
            reply
                .n_prompt_tokens
                .saturating_sub(reply.n_cached_prompt_tokens),
        );
        self.completion_tokens += u64::from(reply.n_completion_tokens);
    }

    /// Saves `(key, reply text)` pairs to the checkpoint, if any; a checkpoint that cannot be
    /// written is dropped with a warning (the work is not lost, only the chance to resume
    /// it).
    fn save(&mut self, replies: &[(String, String)]) {
        let Some(checkpoint) = self.checkpoint.as_deref_mut() else {
            return;
        };
        if let Err(e) = checkpoint.save(replies) {
            self.warnings.push(format!(
                "cannot save the model's replies to `{}` ({e}); an interrupted run will not \
                 resume from them",
                checkpoint.path().display()
            ));
            self.checkpoint = None;
        }
    }

    /// Counts one request of the stage as finished (into the total too, unless
    /// [`Calls::expect`] counted it ahead) and reports progress.
    fn finished_one(&mut self) {
        if self.expected > 0 {
            self.expected -= 1;
        } else {
            self.total += 1;
        }
        self.done += 1;
        self.report();
    }

    fn start_stage(&mut self, stage: Stage) {
        self.stage = stage;
        self.done = 0;
        self.total = 0;
        self.expected = 0;
    }

    /// One request.
    pub(crate) fn one(&mut self, request: &GenerateRequest) -> Result<Generation, LlmError> {
        Ok(self
            .batch(std::slice::from_ref(request))?
            .pop()
            .expect("one reply per request"))
    }

    /// Counts `n` requests the stage will make one batch at a time into its total now, so
    /// that progress shows how many are left from the start.
    pub(crate) fn expect(&mut self, n: usize) {
        self.total += n;
        self.expected += n;
    }

    /// Several requests, `batch_size` at a time; replies in request order. Requests the
    /// checkpoint holds a reply to are answered from it; the model's replies are saved to
    /// it after each batch.
    pub(crate) fn batch(
        &mut self,
        requests: &[GenerateRequest],
    ) -> Result<Vec<Generation>, LlmError> {
        let counted = self.expected.min(requests.len());
        self.expected -= counted;
        self.total += requests.len() - counted;
        let mut out = Vec::with_capacity(requests.len());
        let model = self.model().info().name.clone();
        for chunk in requests.chunks(self.batch_size) {
            let keys: Vec<String> = match &self.checkpoint {
                Some(_) => chunk.iter().map(|r| Checkpoint::key(&model, r)).collect(),
                None => Vec::new(),
            };
            let mut replies: Vec<Option<Generation>> = keys
                .iter()
                .map(|k| {
                    let saved = self.checkpoint.as_ref()?.get(k)?;
                    Some(Generation {
                        text: saved.to_string(),
                        ..empty_generation()
                    })
                })
                .chain(std::iter::repeat_with(|| None))
                .take(chunk.len())
                .collect();
            let todo: Vec<usize> = (0..chunk.len()).filter(|&i| replies[i].is_none()).collect();
            self.replayed += chunk.len() - todo.len();
            if !todo.is_empty() {
                let asked: Vec<GenerateRequest> = todo.iter().map(|&i| chunk[i].clone()).collect();
                let started = Instant::now();
                let answered = self.run(&asked)?;
                self.model_ms += started.elapsed().as_secs_f64() * 1000.0;
                for r in &answered {
                    self.count(r);
                }
                if self.checkpoint.is_some() {
                    let saved: Vec<(String, String)> = todo
                        .iter()
                        .zip(&answered)
                        .map(|(&i, r)| (keys[i].clone(), r.text.clone()))
                        .collect();
                    self.save(&saved);
                }
                for (i, r) in todo.into_iter().zip(answered) {
                    replies[i] = Some(r);
                }
            }
            self.done += chunk.len();
            out.extend(
                replies
                    .into_iter()
                    .map(|r| r.expect("every request answered")),
            );
            self.report();
        }
        Ok(out)
    }

    /// One batch of requests on the model.
    fn run(&mut self, chunk: &[GenerateRequest]) -> Result<Vec<Generation>, LlmError> {
        let attempt = if chunk.len() == 1 {
            // One request: `generate` reuses the previous prompt's cached prefix.
            self.model()
                .generate(&chunk[0], &mut |_| TokenControl::Continue)
                .map(|r| vec![r])
        } else {
            self.model().generate_batch(chunk)
        };
        match attempt {
            Ok(replies) => Ok(replies),
            // A prompt that does not fit the context: the others of the chunk still run, one
            // by one, and that one gets an empty (unusable) reply.
            Err(LlmError::InvalidRequest(_)) => {
                let mut replies = Vec::with_capacity(chunk.len());
                for request in chunk {
                    match self
                        .model()
                        .generate(request, &mut |_| TokenControl::Continue)
                    {
                        Ok(r) => replies.push(r),
                        Err(LlmError::InvalidRequest(_)) => {
                            self.skipped += 1;
                            replies.push(empty_generation());
                        }
                        Err(e) => return Err(e),
                    }
                }
                Ok(replies)
            }
            Err(e) => Err(e),
        }
    }

    fn report(&mut self) {
        let p = Progress {
            stage: self.stage,
            done: self.done,
            total: self.total,
            completion_tokens: self.completion_tokens,
            tokens_per_s: if self.model_ms > 0.0 {
                self.completion_tokens as f64 * 1000.0 / self.model_ms
            } else {
                0.0
            },
        };
        if let Some(progress) = self.progress.as_deref_mut() {
            progress(&p);
        }
    }
}

/// The conversations of [`Calls::serve`] with its accounting: requests answered from the
/// checkpoint never reach the model.
struct Accounted<'c, 'a, 'p, 'w> {
    calls: &'c mut Calls<'a, 'p>,
    work: &'w mut dyn Conversations,
    model: String,
    /// Checkpoint key of each conversation's request in flight (with a checkpoint only).
    keys: std::collections::HashMap<usize, String>,
    /// When serving started, and the model time counted before it: progress reports the
    /// model time so far.
    started: Instant,
    base_ms: f64,
    /// The first error that is not a request's own prompt being too long (a JSON Schema the
    /// backend cannot use): no conversation starts after it, and `serve` returns it.
    failure: Option<LlmError>,
}

impl Accounted<'_, '_, '_, '_> {
    /// `request` of conversation `id`, or the first later request of it the checkpoint
    /// holds no reply to (earlier ones answered from it), or `None` when the conversation
    /// ends on saved replies.
    fn unsaved(&mut self, id: usize, mut request: GenerateRequest) -> Option<GenerateRequest> {
        loop {
            let Some(checkpoint) = self.calls.checkpoint.as_deref() else {
                return Some(request);
            };
            let key = Checkpoint::key(&self.model, &request);
            let Some(saved) = checkpoint.get(&key).map(str::to_string) else {
                self.keys.insert(id, key);
                return Some(request);
            };
            self.calls.replayed += 1;
            self.calls.finished_one();
            let reply = Generation {
                text: saved,
                ..empty_generation()
            };
            request = self.work.reply(id, Ok(reply))?;
        }
    }
}

impl Conversations for Accounted<'_, '_, '_, '_> {
    fn start(&mut self, idle: bool) -> Option<(usize, GenerateRequest)> {
        if self.failure.is_some() {
            return None;
        }
        loop {
            let (id, request) = self.work.start(idle)?;
            if let Some(request) = self.unsaved(id, request) {
                return Some((id, request));
            }
        }
    }

    fn watch(&mut self, id: usize, written: &str) -> TokenControl {
        self.work.watch(id, written)
    }

    fn reply(&mut self, id: usize, reply: Result<Generation, LlmError>) -> Option<GenerateRequest> {
        let key = self.keys.remove(&id);
        let reply = match reply {
            Ok(r) => {
                self.calls.count(&r);
                if let Some(key) = key {
                    self.calls.save(&[(key, r.text.clone())]);
                }
                r
            }
            // A request of its own that cannot run (its prompt does not fit the context):
            // an empty, unusable reply, as in `Calls::run`.
            Err(LlmError::InvalidRequest(_)) => {
                self.calls.skipped += 1;
                empty_generation()
            }
            // Any other error of a request (a JSON Schema the backend cannot use) would fail
            // every window alike: enrichment stops with it.
            Err(e) => {
                self.failure.get_or_insert(e);
                return None;
            }
        };
        self.calls.model_ms = self.base_ms + self.started.elapsed().as_secs_f64() * 1000.0;
        self.calls.finished_one();
        let next = self.work.reply(id, Ok(reply));
        self.calls.expect(self.work.planned());
        self.unsaved(id, next?)
    }
}

/// The node at a path of child indices (`[2, 0]` = first child of the third top-level
/// node). Paths come from walking the same structure, so they are always valid.
pub(crate) fn node_at<'a>(
    structure: &'a mut [nanoindex_core::TreeNode],
    path: &[usize],
) -> &'a mut nanoindex_core::TreeNode {
    let (first, rest) = path.split_first().expect("non-empty path");
    let mut node = &mut structure[*first];
    for &i in rest {
        node = &mut node.nodes[i];
    }
    node
}

fn empty_generation() -> Generation {
    Generation {
        text: String::new(),
        tokens: Vec::new(),
        n_prompt_tokens: 0,
        n_cached_prompt_tokens: 0,
        n_completion_tokens: 0,
        prefill_ms: 0.0,
        decode_ms: 0.0,
        stop_reason: nanoindex_llm::StopReason::ContextFull,
    }
}

/// Enriches `tree` (structure-only, as `nanoindex-tree` built it) and returns its graph.
/// With `llm` `None`, only the model-free steps run (paragraph splits and the rule-based
/// graph). `progress` hears about every finished batch of model requests. With a
/// `checkpoint`, requests it holds replies to are answered from it and the model's replies
/// are saved to it as they come ([`Checkpoint`]).
///
/// # Errors
///
/// Model failures ([`LlmError`]); replies that cannot be used are not errors (they are
/// counted in the report and the step falls back).
pub fn enrich<'p>(
    tree: &mut DocumentTree,
    llm: Option<&mut dyn TextGenerator>,
    options: &EnrichOptions,
    progress: Option<&'p mut dyn FnMut(&Progress)>,
    checkpoint: Option<&'p mut Checkpoint>,
) -> Result<(DocumentGraph, EnrichReport), LlmError> {
    let mut report = EnrichReport::default();
    let mut calls = llm.map(|llm| {
        let mut c = Calls::new(llm, options.batch_size);
        c.progress = progress;
        c.checkpoint = checkpoint;
        c
    });
    let timed = |stage: Stage, started: Instant, report: &mut EnrichReport| {
        report
            .stage_ms
            .push((stage, started.elapsed().as_secs_f64() * 1000.0));
    };

    let started = Instant::now();
    if let Some(limit) = options.split_tokens {
        if let Some(c) = calls.as_mut() {
            c.start_stage(Stage::Split);
        }
        report.split = split::split_oversized(&mut tree.structure, calls.as_mut(), limit)?;
        assign_node_ids(&mut tree.structure);
    }
    timed(Stage::Split, started, &mut report);

    let started = Instant::now();
    let mut graph = nanoindex_graph::build_graph(tree);
    timed(Stage::Graph, started, &mut report);

    // The tree's domain is the detector's `DomainName`; a tree written by another tool may
    // name one without a preset, and then the generic types are used (the report says so).
    let chosen = options
        .domain
        .or_else(|| tree.domain.as_deref().and_then(|d| d.parse().ok()))
        .unwrap_or_else(domain::Domain::generic);
    let domain_name = chosen.name().to_string();
    report.domain = domain_name.clone();
    if let Some(calls) = calls.as_mut() {
        report.text_tokens = tree
            .iter_nodes()
            .filter_map(|n| n.text.as_deref())
            .map(|t| {
                calls
                    .model()
                    .count_tokens(t)
                    .unwrap_or_else(|| nanoindex_core::estimate_tokens(t)) as u64
            })
            .sum();
        // Each window of prose is read once, for its summary and its entities together.
        let rows = tree.figure_row_keys();
        let preset = chosen.preset();
        let (entity_types, relation_types) =
            domain::types_for(preset, &options.entity_types, &options.relation_types);
        let entity_names: Vec<&str> = entity_types.iter().map(|t| t.as_str()).collect();
        let relation_names: Vec<&str> = relation_types.iter().map(|t| t.as_str()).collect();
        let asked = read::Asked {
            summaries: options.summaries,
            entities: options.llm_entities.then_some(read::EntityAsk {
                focus: preset.focus,
                entity_types: &entity_names,
                relation_types: &relation_names,
            }),
        };
        let window_tokens = if options.llm_entities {
            read::WINDOW_TOKENS.min(options.prompt_budget)
        } else {
            options.prompt_budget
        };
        let (windows, readings) = if options.summaries || options.llm_entities {
            let started = Instant::now();
            calls.start_stage(Stage::Read);
            let windows = read::windows(&tree.structure, &rows, window_tokens, MIN_SUMMARY_TOKENS);
            let readings = read::read(calls, &windows, &asked)?;
            timed(Stage::Read, started, &mut report);
            (windows, readings)
        } else {
            (Vec::new(), Vec::new())
        };
        if options.summaries {
            let started = Instant::now();
            calls.start_stage(Stage::Summaries);
            report.summaries = summary::summarize(
                &mut tree.structure,
                calls,
                &windows,
                &readings,
                &rows,
                options.prompt_budget,
            )?;
            timed(Stage::Summaries, started, &mut report);
        }
        if options.doc_description {
            let started = Instant::now();
            calls.start_stage(Stage::Description);
            tree.doc_description = summary::describe(
                &tree.doc_name,
                &tree.structure,
                calls,
                options.prompt_budget,
            )?;
            report.description = tree.doc_description.is_some();
            timed(Stage::Description, started, &mut report);
        }
        if options.llm_entities {
            let started = Instant::now();
            report.entities = entities::merge(
                &windows,
                &readings,
                &mut graph,
                &entity_types,
                &relation_types,
            );
            timed(Stage::Entities, started, &mut report);
        }
        report.llm_calls = calls.calls;
        report.llm_skipped = calls.skipped;
        report.llm_replayed = calls.replayed;
        report.warnings = std::mem::take(&mut calls.warnings);
        report.prompt_tokens = calls.prompt_tokens;
        report.completion_tokens = calls.completion_tokens;
    }
    if options.domain.is_some() {
        tree.domain = Some(domain_name);
    }
    Ok((graph, report))
}
