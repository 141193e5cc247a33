//! A source: the sweeps of one publication or import, with their models, what tells each sweep
//! apart from the others of its model (its label and `cfg`, named once) and where the numbers
//! come from ([`Provenance`]).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::core::model::deployment::Deployment;
use crate::core::model::sweep::{Model, Sweep};

/// A set of sweeps from one publication, e.g. the ML.ENERGY `lm-arena-chat` task. Built with
/// [`Source::new`], which names each sweep (label and `cfg`) once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "SourceParts", into = "SourceParts")]
pub struct Source {
    /// Task id, e.g. `lm-arena-chat`.
    pub task: String,
    /// Task display name, e.g. `LLM Chat (LM Arena)`.
    pub task_display_name: String,
    /// Models, in first-seen order.
    pub models: Vec<Model>,
    /// Sweeps, in first-seen order.
    pub sweeps: Vec<Sweep>,
    /// Where the data comes from and what it does not state.
    pub provenance: Provenance,
    /// For a source held in part (the bundled data's default model family, which the page
    /// carries from the start): what the whole holds. Its other models are listed in `models`
    /// with no sweeps here; the page reads the whole before showing one of them. `None`: the
    /// source is whole. Not part of the serialised form (what crosses is always a whole source).
    pub whole: Option<Whole>,
    names: Vec<SweepNames>,
    /// Each model's sweeps in menu order ([`Source::sweeps_of`]), sorted once here.
    menus: Vec<Vec<usize>>,
    /// Each sweep's configuration ([`Source::configuration_of`]), found once here.
    configurations: Vec<usize>,
}

/// What a whole source holds, said by a part of it (see [`Source::whole`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Whole {
    /// Its runs.
    pub rows: usize,
    /// Its sweeps.
    pub sweeps: usize,
    /// Its GPU types, each once, in the order first met (as [`Source::gpu_types`]).
    pub gpu_types: Vec<&'static str>,
}

/// What the page calls a sweep.
#[derive(Clone, Debug, Default, PartialEq)]
struct SweepNames {
    label: String,
    cfg: Option<String>,
}

/// A [`Source`] without its derived names (its serialised form).
#[derive(Serialize, Deserialize)]
struct SourceParts {
    task: String,
    task_display_name: String,
    models: Vec<Model>,
    sweeps: Vec<Sweep>,
    provenance: Provenance,
}

impl From<SourceParts> for Source {
    fn from(p: SourceParts) -> Source {
        Source::new(
            p.task,
            p.task_display_name,
            p.models,
            p.sweeps,
            p.provenance,
        )
    }
}

impl From<Source> for SourceParts {
    fn from(s: Source) -> SourceParts {
        SourceParts {
            task: s.task,
            task_display_name: s.task_display_name,
            models: s.models,
            sweeps: s.sweeps,
            provenance: s.provenance,
        }
    }
}

/// The identity fields beyond hardware that differ among `group`, and (for `cfg`) parallelism
/// and precision: the texts that tell the group's sweeps apart.
fn telling_apart(sweeps: &[Sweep], group: &[usize], with_base: bool) -> Vec<Vec<String>> {
    let mut parts: Vec<Vec<String>> = vec![Vec::new(); group.len()];
    let mut column = |text: &dyn Fn(&Deployment) -> String| {
        let texts: Vec<String> = group.iter().map(|&i| text(&sweeps[i].deployment)).collect();
        if texts.iter().any(|t| *t != texts[0]) {
            for (p, t) in parts.iter_mut().zip(texts) {
                p.push(t);
            }
        }
    };
    if with_base {
        column(&|d| d.parallelism_label());
        column(&|d| d.precision_label().to_string());
    }
    for field in Deployment::FIELDS {
        column(&|d| d.field_label(field));
    }
    parts
}

impl Source {
    /// A source; names each sweep: its label (hardware, parallelism, precision, and the other
    /// identity fields that differ among the model's sweeps) and its `cfg` (what tells it apart
    /// from the sweeps of the same model, GPU type and count; `None` when it is the only one).
    pub fn new(
        task: String,
        task_display_name: String,
        models: Vec<Model>,
        sweeps: Vec<Sweep>,
        provenance: Provenance,
    ) -> Source {
        let mut names = vec![SweepNames::default(); sweeps.len()];
        let mut by_model: Vec<Vec<usize>> = vec![Vec::new(); models.len()];
        for (i, s) in sweeps.iter().enumerate() {
            if let Some(of_model) = by_model.get_mut(s.model_index) {
                of_model.push(i);
            }
        }
        for of_model in &by_model {
            // What tells the sweep apart comes first: a closed menu shows the start of a label.
            for (&i, extras) in of_model.iter().zip(telling_apart(&sweeps, of_model, false)) {
                let base = sweeps[i].deployment.base_label();
                names[i].label = if extras.is_empty() {
                    base
                } else {
                    format!("{} · {base}", extras.join(", "))
                };
            }
            // The sweeps of one GPU type and count, in first-seen order.
            let mut groups: Vec<Vec<usize>> = Vec::new();
            let mut group_of: HashMap<(&str, Option<u32>), usize> = HashMap::new();
            for &i in of_model {
                let d = &sweeps[i].deployment;
                let at = *group_of
                    .entry((d.gpu.as_str(), d.num_gpus))
                    .or_insert_with(|| {
                        groups.push(Vec::new());
                        groups.len() - 1
                    });
                groups[at].push(i);
            }
            for group in groups.iter().filter(|g| g.len() > 1) {
                let mut seen: HashSet<String> = HashSet::new();
                for (&j, parts) in group.iter().zip(telling_apart(&sweeps, group, true)) {
                    let mut cfg = parts.join(", ");
                    let base = cfg.clone();
                    let mut n = 1;
                    while seen.contains(&cfg) {
                        n += 1;
                        cfg = format!("{base} #{n}");
                    }
                    seen.insert(cfg.clone());
                    names[j].cfg = Some(cfg);
                }
            }
        }
        // A configuration: every identity field but the date (campaigns of one setup).
        let mut configuration_ids: HashMap<String, usize> = HashMap::new();
        let configurations = sweeps
            .iter()
            .map(|s| {
                let mut undated = s.deployment.clone();
                undated.date = None;
                let key = format!("{}\u{0}{}", s.model_index, undated.identity_key());
                let next = configuration_ids.len();
                *configuration_ids.entry(key).or_insert(next)
            })
            .collect();
        let menus = by_model
            .into_iter()
            .map(|mut of_model| {
                crate::core::model::order::sort_by(&mut of_model, |&a, &b| {
                    sweeps[a].deployment.picker_order(&sweeps[b].deployment)
                });
                of_model
            })
            .collect();
        Source {
            task,
            task_display_name,
            models,
            sweeps,
            provenance,
            whole: None,
            names,
            menus,
            configurations,
        }
    }

    /// True when the model has sweeps here; false for a model of the whole not held by this
    /// part (see [`Source::whole`]).
    pub fn holds_model(&self, model_index: usize) -> bool {
        self.menus.get(model_index).is_some_and(|m| !m.is_empty())
    }

    /// Runs and sweeps of the whole source (this one's own when it is whole).
    pub fn whole_counts(&self) -> (usize, usize) {
        self.whole
            .as_ref()
            .map_or((self.row_count(), self.sweeps.len()), |w| {
                (w.rows, w.sweeps)
            })
    }

    /// Indexes of the models in menu order: by organisation (the `model_id` before its `/`, case
    /// ignored), then total parameters (so 8B comes before 70B), then `model_id`.
    pub fn models_in_menu_order(&self) -> Vec<usize> {
        let mut models: Vec<usize> = (0..self.models.len()).collect();
        let org = |id: &str| {
            id.split('/')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase()
        };
        crate::core::model::order::sort_by(&mut models, |&a, &b| {
            let (ma, mb) = (&self.models[a], &self.models[b]);
            org(&ma.model_id)
                .cmp(&org(&mb.model_id))
                .then(
                    ma.total_params_b
                        .partial_cmp(&mb.total_params_b)
                        .unwrap_or(std::cmp::Ordering::Equal),
                )
                .then(ma.model_id.cmp(&mb.model_id))
        });
        models
    }

    /// The GPU types of the source's sweeps (of the whole, for a part), each once, in the order
    /// first met ("GPU not stated" left out: it takes only the price for every type).
    pub fn gpu_types(&self) -> Vec<&str> {
        if let Some(whole) = &self.whole {
            return whole.gpu_types.clone();
        }
        let mut types: Vec<&str> = Vec::new();
        for sweep in &self.sweeps {
            let gpu = sweep.deployment.gpu.as_str();
            if gpu != crate::core::model::deployment::GPU_NOT_STATED && !types.contains(&gpu) {
                types.push(gpu);
            }
        }
        types
    }

    /// Index of the model with this `model_id`.
    pub fn model_index(&self, model_id: &str) -> Option<usize> {
        self.models.iter().position(|m| m.model_id == model_id)
    }

    /// The sweep's label in the picker: whatever beyond hardware, parallelism and precision tells
    /// it apart from the model's other sweeps, then those, e.g. `2026-03-25 · 8 x h200, TP8, fp8`.
    pub fn sweep_label(&self, sweep_index: usize) -> &str {
        self.names.get(sweep_index).map_or("", |n| n.label.as_str())
    }

    /// The sweep's URL `cfg`: what tells it apart from the sweeps of the same model, GPU type
    /// and count; `None` when it is the only one.
    pub fn sweep_cfg(&self, sweep_index: usize) -> Option<&str> {
        self.names.get(sweep_index)?.cfg.as_deref()
    }

    /// Indices into `sweeps` of the model's deployments: GPU type, then fewest GPUs, then newest
    /// date first (sorted once, when the source is built).
    pub fn sweeps_of(&self, model_index: usize) -> Vec<usize> {
        self.menus.get(model_index).cloned().unwrap_or_default()
    }

    /// The configuration of a sweep: equal for two sweeps of one model whose identity differs
    /// in the date alone (campaigns of one setup), an index into no list.
    pub fn configuration_of(&self, sweep_index: usize) -> usize {
        self.configurations
            .get(sweep_index)
            .copied()
            .unwrap_or(sweep_index)
    }

    /// Total number of rows over all sweeps.
    pub fn row_count(&self) -> usize {
        self.sweeps.iter().map(|s| s.rows.len()).sum()
    }
}

/// Where a source's numbers come from. `None` fields are "not stated" by the source and are
/// shown as such, never filled in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// Who published or measured the data, e.g. `ML.ENERGY leaderboard`.
    pub publisher: String,
    /// When the data was taken or published, where known.
    pub date: Option<String>,
    /// Serving engine and version, where stated.
    pub engine: Option<String>,
    /// Input (prompt) length distribution, where stated.
    pub input_lengths: Option<String>,
    /// Warm-up before measuring, where stated.
    pub warmup: Option<String>,
    /// Further notes (caveats, derivations), each a sentence.
    pub notes: Vec<String>,
    /// Reference systems: shown for reading, kept out of rankings and cost comparisons.
    pub reference: bool,
}
