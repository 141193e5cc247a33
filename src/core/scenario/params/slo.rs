//! The parameters of the SLO: target, statistic, limits, attainment ([`Group::Slo`]).

use super::{Declared, Group, JsonField, Param, Readme};
use crate::core::model::format::url_number;
use crate::core::plan::planner::Target;
use crate::core::scenario::{parse_attain, JsonEntry, ParamErrorKind};

/// The per-user target, in one of its units.
pub(super) const TARGET: Declared = Declared {
    param: Param {
        keys: &["tps", "tpot"],
        group: Group::Slo,
        needs: None,
        read: |r, k, v| r.target(k, v),
        write: |s, link| match s.slo.target {
            Target::TokensPerSecond(v) => link.number("tps", Some(v)),
            Target::MsPerToken(v) => link.number("tpot", Some(v)),
        },
    },
    form: None,
    json: &[
        JsonField {
            key: "target_unit",
            value: |s| match s.slo.target {
                Target::TokensPerSecond(_) => "tok/s per user".into(),
                Target::MsPerToken(_) => "ms per token".into(),
            },
        },
        JsonField {
            key: "target_value",
            value: |s| match s.slo.target {
                Target::TokensPerSecond(v) | Target::MsPerToken(v) => v.into(),
            },
        },
    ],
    readme: Readme {
        meaning: "per-user target: tok/s per user, or ms per output token (give one)",
        default: "`tps=20`",
    },
};

/// The statistic the target is judged on.
pub(super) const STAT: Declared = Declared {
    param: Param {
        keys: &["stat"],
        group: Group::Slo,
        needs: None,
        read: |r, _, v| r.stat(v),
        write: |s, link| link.text("stat", Some(s.slo.stat.key())),
    },
    form: None,
    json: &[JsonField {
        key: "statistic",
        value: |s| s.slo.stat.key().into(),
    }],
    readme: Readme {
        meaning: "`p50`, `p90`, `p95`, `p99`, `itl_mean` (ITL), `tpot_mean`, `tpot_p50`, `tpot_p90`, `tpot_p95`, `tpot_p99` (TPOT), `ntpot_mean`, `ntpot_p50`, `ntpot_p90`, `ntpot_p95`, `ntpot_p99` (normalized TPOT: end-to-end ÷ output tokens, TTFT included) or `rate`; the menu offers what the sweep has, and says beside a statistic where its per-user speed cannot be true (`implausible-speed`)",
        default: "`p50`",
    },
};

/// Tail limits.
pub(super) const LIMIT: Declared = Declared {
    param: Param {
        keys: &["limit"],
        group: Group::Slo,
        needs: None,
        read: |r, _, v| r.limit(v),
        write: |s, link| {
            for limit in &s.slo.limits {
                link.pair(
                    "limit",
                    &format!("{}:{}", limit.stat.key(), url_number(limit.max_ms)),
                );
            }
        },
    },
    form: None,
    json: &[JsonField {
        key: "limits",
        value: |s| {
            JsonEntry::Objects(
                s.slo
                    .limits
                    .iter()
                    .map(|l| {
                        vec![
                            ("statistic", l.stat.key().into()),
                            ("max_ms", l.max_ms.into()),
                        ]
                    })
                    .collect(),
            )
        },
    }],
    readme: Readme {
        meaning: "optional tail limit `STAT:MS`, repeatable, e.g. `limit=p99:150`; TTFT too (`ttft_mean`, `ttft_p50`, `ttft_p90`, `ttft_p95`, `ttft_p99`) and end-to-end latency (`e2e_mean`, `e2e_p50`, `e2e_p90`, `e2e_p95`, `e2e_p99`)",
        default: "none",
    },
};

/// The share of requests that must each meet the SLO.
pub(super) const ATTAIN: Declared = Declared {
    param: Param {
        keys: &["attain"],
        group: Group::Slo,
        needs: None,
        read: |r, _, v| {
            r.attain = Some(parse_attain(v).map_err(ParamErrorKind::Invalid)?);
            Ok(())
        },
        write: |s, link| link.number("attain", s.slo.attain),
    },
    form: None,
    json: &[JsonField {
        key: "attain_percent",
        value: |s| s.slo.attain.into(),
    }],
    readme: Readme {
        meaning: "the share of requests, percent (50 to 100, e.g. `95` or `99.9`), that must each meet the target (their own TPOT) and every TTFT and end-to-end limit (their own TTFT and end-to-end latency) at a level: judged on per-request records (see \"Attainment\"); a sweep without them is not judged, and the message offers its aggregate statistic",
        default: "none: judged on the level's statistic",
    },
};
