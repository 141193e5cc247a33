//! The parameters of how the page shows the answer: the chart's axis, the side-by-side table,
//! the requests panel's level ([`Group::View`]).

use super::{Declared, Group, Param, Readme};
use crate::core::plan::chart::ChartY;
use crate::core::scenario::{parse_positive, parse_word, Accepts, ParamErrorKind};

/// The chart's y axis.
pub(super) const Y: Declared = Declared {
    param: Param {
        keys: &["y"],
        group: Group::View,
        needs: None,
        read: |r, _, v| {
            parse_word(v, "cost", Accepts::Cost).map_err(ParamErrorKind::Invalid)?;
            r.view.chart_y = ChartY::Cost;
            Ok(())
        },
        write: |s, link| {
            if s.drawn_chart_y() == ChartY::Cost {
                link.pair("y", "cost");
            }
        },
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "`cost`: the trade-off chart's y axis as total $ per million output tokens (log) instead of tok/s per GPU; used only when a price is given (a switch above the chart sets it)",
        default: "tok/s per GPU",
    },
};

/// Every model in the side-by-side table.
pub(super) const CMP: Declared = Declared {
    param: Param {
        keys: &["cmp"],
        group: Group::View,
        needs: None,
        read: |r, _, v| {
            parse_word(v, "all", Accepts::All).map_err(ParamErrorKind::Invalid)?;
            r.view.compare_all = true;
            Ok(())
        },
        write: |s, link| {
            if s.view.compare_all {
                link.pair("cmp", "all");
            }
        },
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "`all`: the side-by-side table lists every model's deployments that meet the target, not only this model's (the \"All models\" switch)",
        default: "this model and its precision variants",
    },
};

/// The side-by-side table's order.
pub(super) const SORT: Declared = Declared {
    param: Param {
        keys: &["sort"],
        group: Group::View,
        needs: None,
        read: |r, _, v| r.sort(v),
        write: |s, link| {
            // A cost column orders nothing without a price (fleet $/hour without a load).
            match s.view.compare_sort.filter(|(column, _)| {
                column.sortable(
                    s.priced(),
                    s.fleet.capacity.has_load(),
                    s.fleet.capacity.api.is_some(),
                )
            }) {
                Some((column, false)) => link.pair("sort", column.key()),
                Some((column, true)) => link.pair("sort", &format!("{}:reversed", column.key())),
                None => {}
            }
        },
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "the side-by-side table's order, a column by its name in the CSV download: `level`, `throughput_per_gpu_tok_s`, `throughput_tok_s`, `energy_j_per_token`, `per_user_tok_s`, and with a price `fleet_cost_usd_per_hour`, `total_cost_usd_per_mtok` (and with an `api`, `vs_api`); best first, or worst first with `:reversed` (e.g. `sort=energy_j_per_token:reversed`). Pressing a column's header sets it; the switch clears it",
        default: "the table's own order (by cost when prices are given)",
    },
};

/// The level the requests panel shows.
pub(super) const REQUESTS_AT: Declared = Declared {
    param: Param {
        keys: &["requests_at"],
        group: Group::View,
        needs: Some("attain"),
        read: |r, _, v| {
            r.view.requests_at = Some(parse_positive(v).map_err(ParamErrorKind::Invalid)?);
            Ok(())
        },
        write: |s, link| link.number("requests_at", s.view.requests_at),
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "the level whose requests the requests panel shows (under `attain`, a level with per-request records, e.g. `requests_at=16`); picking a level there sets it; a level the deployment has no per-request records at is named, and the panel shows its own",
        default: "the recommended level, else the first that fails",
    },
};
