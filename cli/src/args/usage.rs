//! The usage text (`--help`): the commands, the scenario parameters from the page's list of them
//! (`core::scenario::param_keys`) and the command line's own options from their table
//! ([`OPTIONS`](super::options::OPTIONS)).

use llm_slo_planner::core::model::format;
use llm_slo_planner::core::plan::ab::{DEFAULT_TOL_PCT, MAX_TOL_PCT};
use llm_slo_planner::core::scenario::param_keys;

use super::options::{flag_keys, gates, options_usage};

/// The usage text, with the scenario parameters from the page's list.
pub fn usage() -> String {
    let params: Vec<String> = param_keys()
        .into_iter()
        .map(|k| format!("--{}", k.replace('_', "-")))
        .collect();
    format!(
        "llm-slo-planner: the highest concurrency that meets a per-user token-speed SLO, from measured sweeps.

Usage:
  llm-slo-planner plan [FILES_OR_FOLDERS...] (--tps S | --tpot MS) [PARAMETERS] [OPTIONS]
  llm-slo-planner list [FILES_OR_FOLDERS...] [--src SRC]
  llm-slo-planner compare [BASELINE...] --vs CANDIDATE... (--tps S | --tpot MS) [--tol PCT] [PARAMETERS]
      B against A at the target's per-user speed, beyond the noise of repeated runs. Each side is
      files or folders (A's first: every file after --vs is B's); --vs 'gpu=B200&gpus=1' (the
      link's vs: gpu, gpus, cfg, src) picks B among A's data, B's files or a bundled source;
      --model/--gpu/--gpus/--cfg pick A. --tol: percent, 0 to {}
      (default {}). Exit 0 better or no difference, 1 worse beyond the noise and the tolerance,
      3 cannot judge, 2 bad input. --json adds result.comparison; --csv one row.

Without files, the bundled ML.ENERGY data (--src lm-arena-chat, gpqa, sourcegraph-fim, image-chat,
or reference). Folders are read whole, as the page reads a picked folder.

Scenario parameters (the page's URL parameters, same names, values and defaults; - or _):
  {}
  --model, --gpu, --gpus and --cfg pick one deployment as a link would; without them, every
  deployment is planned.

Options:
{}
  KIND is one of: {}

Exit status: 0 ok or all-meet; 1 unattainable, or a {} gate;
3 no-data (cannot judge); 2 a bad parameter, or no usable row. With several deployments, the
worst: 2, then 1, then 3, then 0.
",
        format::url_number(MAX_TOL_PCT),
        format::url_number(DEFAULT_TOL_PCT),
        params.join(" "),
        options_usage(),
        flag_keys(),
        gates()
    )
}
