//! The parameters of the comparison with a candidate ([`Group::Comparison`]).

use super::{Declared, Group, JsonField, Param, Readme};
use crate::core::plan::ab::DEFAULT_TOL_PCT;
use crate::core::scenario::{parse_tol, ParamErrorKind, Vs};

/// The candidate compared with the deployment shown.
pub(super) const VS: Declared = Declared {
    param: Param {
        keys: &["vs"],
        group: Group::Comparison,
        needs: None,
        read: |r, _, v| {
            r.versus.vs = Some(Vs::parse(v).map_err(ParamErrorKind::Invalid)?);
            Ok(())
        },
        write: |s, link| link.text("vs", s.versus.vs.as_ref().map(Vs::write).as_deref()),
    },
    form: None,
    json: &[JsonField {
        key: "vs",
        value: |s| s.versus.vs.as_ref().map(Vs::write).into(),
    }],
    readme: Readme {
        meaning: "the candidate B compared with the deployment shown (A) at the target: the selectors a link uses to pick a deployment (`gpu`, `gpus`, `cfg`) and its `src`, as one query string, percent-encoded, e.g. `vs=gpu%3DB200%26gpus%3D1` (B200, 1 GPU); A's model, in A's source when `src` is left out. A `vs` that names no sweep, or names A itself, is said and the rest of the scenario stands",
        default: "none",
    },
};

/// The tolerance of the comparison's verdict.
pub(super) const TOL: Declared = Declared {
    param: Param {
        keys: &["tol"],
        group: Group::Comparison,
        needs: Some("vs"),
        read: |r, _, v| {
            r.versus.tol_pct = parse_tol(v).map_err(ParamErrorKind::Invalid)?;
            Ok(())
        },
        write: |s, link| {
            if s.versus.tol_pct != DEFAULT_TOL_PCT {
                link.number("tol", Some(s.versus.tol_pct));
            }
        },
    },
    form: None,
    json: &[JsonField {
        key: "tol_percent",
        value: |s| s.versus.tol_pct.into(),
    }],
    readme: Readme {
        meaning: "the comparison's tolerance, percent (0 to 50): B is better when the low end of the ratio's interval is above 1 + tol, worse when its high end is below 1 − tol",
        default: "2",
    },
};
