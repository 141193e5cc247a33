//! The short "how this is computed" note, stating the rules of `core::planner` in words.

use leptos::prelude::*;

use crate::core::sweep::Source;

/// How the recommendation and each figure are computed, and where the shown data comes from.
#[component]
pub fn Method(source: &'static Source) -> impl IntoView {
    view! {
        <details class="method" data-testid="method" open>
            <summary>"How this is computed"</summary>
            <ul>
                <li>
                    "Each level is one setting of the sweep variable (vLLM "<code>"max_num_seqs"</code>", a client's concurrency, or a request rate). "
                    "A level meets the target when its latency at the chosen statistic is at most the target in ms per token "
                    "(for a tok/s target S: when 1000 / latency ≥ S)."
                </li>
                <li>
                    "p50/p90/p95/p99 are percentiles of inter-token latency (ITL), pooled over all tokens: "
                    "“tok/s at p90 ITL” means 90% of token gaps are at most that long. It is not the p90 of per-user speed. "
                    <strong>"rate"</strong>" = avg_batch_size × 1000 / output throughput ms per token: throughput shared by the "
                    "requests in flight. It includes prefill and queueing, so it is not mean ITL."
                </li>
                <li>
                    <strong>"Recommendation"</strong>" = the largest level such that every level at or below it meets. "
                    "A higher level that meets again after a lower one failed is shown as “also meets”, never recommended."
                </li>
                <li>
                    "Tail limits (optional): a level meets only if the target and every limit hold. "
                    "The estimate, when shown, takes latency as linear in log2(max_num_seqs) between the recommended level and the next "
                    "measured one (which fails) and solves for the target; it is labelled as an estimate and never replaces the measured answer."
                </li>
                <li>
                    "A sweep is one configuration: runs that differ in any field their file states (GPU, parallelism, engine, dataset, date, …) are separate sweeps. "
                    "Where several runs share a level, all are listed and each figure of the level is the worst over the runs that report it "
                    "(highest latency, J/token and power; lowest throughput, avg batch and served rate); fewer than all is said (“1 of 2 runs”)."
                </li>
                <li>
                    "On a request-rate sweep, a level served below 0.8 × its offered rate (completed ÷ (duration − mean end-to-end latency)) "
                    "fails as “saturated”. A per-user speed that implies 100× or more the measured throughput is flagged “implausible-speed”."
                </li>
                <li>
                    "Throughput and power are totals over all GPUs of the deployment; per GPU = throughput / GPU count. "
                    "J/token is the stored "<code>"energy_per_token_joules"</code>" (= power / throughput); where a file stores none it is derived "
                    "from the same run (power ÷ throughput, or J per request ÷ output tokens) and marked as derived. "
                    "Per-user tok/s = 1000 / latency. Headroom is in the unit you entered: (speed − S) / S, or (T − latency) / T."
                </li>
                <li data-testid="method-data">
                    {format!(
                        "Data shown: {} ({}), {} run{} of {} deployment{}; see “Where these numbers come from” below. A value the data does not report is shown as “not reported”.",
                        source.task_display_name,
                        source.provenance.publisher,
                        source.row_count(),
                        if source.row_count() == 1 { "" } else { "s" },
                        source.sweeps.len(),
                        if source.sweeps.len() == 1 { "" } else { "s" },
                    )}
                </li>
            </ul>
        </details>
    }
}
