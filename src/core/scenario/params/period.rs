//! The parameters of a load that varies over a period ([`Group::Fleet`]).

use super::{Declared, Group, JsonField, Param, Readme};
use crate::core::plan::period::Scaling;
use crate::core::scenario::{load_text, parse_lag, parse_load, parse_min_replicas, ParamErrorKind};

/// A load over time.
pub(super) const LOAD: Declared = Declared {
    param: Param {
        keys: &["load"],
        group: Group::Fleet,
        needs: None,
        read: |r, _, v| {
            r.fleet.load = Some(parse_load(v).map_err(ParamErrorKind::Invalid)?);
            Ok(())
        },
        write: |s, link| {
            if let Some(load) = &s.fleet.load {
                link.pair("load", &load_text(load));
            }
        },
    },
    form: None,
    json: &[JsonField {
        key: "load",
        value: |s| s.fleet.load.as_ref().map(load_text).into(),
    }],
    readme: Readme {
        meaning: "a load that varies over a period, `KIND:STEP:V1,V2,...`: KIND `rps` or `users`, STEP the minutes each value covers (at least a second, 0.0167, and at most 10,080), then at most 10,080 values (a week by the minute), each 0 to 10⁹; e.g. `load=rps:60:3,2,2,2,3,5,9,14,18,20,21,22,22,21,20,19,18,17,16,14,11,8,6,4` for a day by the hour. A bad part is named (`value 2 must be a number…`) and the rest of the scenario stands. The page shows the period under the fleet (figures with their formulas, a chart of the load and the replicas, every deployment's cost side by side) and has a field for it among the fleet inputs (values, this form, or a pasted CSV of `timestamp,value`; shapes to start from); the command line writes it in its text, as `result.period` in `--json` and as the `period_*` columns in `--csv` (see \"Plan for a day\")",
        default: "none",
    },
};

/// Minutes a replica takes to come up.
pub(super) const LAG: Declared = Declared {
    param: Param {
        keys: &["lag"],
        group: Group::Fleet,
        needs: Some("load"),
        read: |r, _, v| {
            r.fleet.scaling.lag_min = parse_lag(v).map_err(ParamErrorKind::Invalid)?;
            Ok(())
        },
        write: |s, link| {
            if s.fleet.scaling.lag_min != Scaling::default().lag_min {
                link.number("lag", Some(s.fleet.scaling.lag_min));
            }
        },
    },
    form: None,
    json: &[JsonField {
        key: "lag_min",
        value: |s| s.fleet.scaling.lag_min.into(),
    }],
    readme: Readme {
        meaning: "minutes a replica takes to come up (0, or a second, 0.0167, to 10,080): the replicas at a step cover the highest load until lag later",
        default: "0",
    },
};

/// The fewest replicas that always run.
pub(super) const MIN_REPLICAS: Declared = Declared {
    param: Param {
        keys: &["min_replicas"],
        group: Group::Fleet,
        needs: Some("load"),
        read: |r, _, v| {
            r.fleet.scaling.min_replicas =
                parse_min_replicas(v).map_err(ParamErrorKind::Invalid)?;
            Ok(())
        },
        write: |s, link| {
            let floor = s.fleet.scaling.min_replicas;
            if floor != Scaling::default().min_replicas {
                link.pair("min_replicas", &floor.to_string());
            }
        },
    },
    form: None,
    json: &[JsonField {
        key: "min_replicas",
        value: |s| s.fleet.scaling.min_replicas.into(),
    }],
    readme: Readme {
        meaning: "the fewest replicas that always run, a whole number (0 to 1,000,000)",
        default: "1",
    },
};
