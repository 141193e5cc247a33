//! The parameters of a power budget ([`Group::Fleet`]).

use super::{Declared, Group, JsonField, Param, Readme};
use crate::core::plan::power::PowerBasis;
use crate::core::scenario::{
    parse_host_w, parse_power, parse_power_basis, power_text, ParamErrorKind,
};

/// A power budget.
pub(super) const POWER: Declared = Declared {
    param: Param {
        keys: &["power"],
        group: Group::Fleet,
        needs: None,
        read: |r, _, v| {
            r.fleet.power.budget_w = Some(parse_power(v).map_err(ParamErrorKind::Invalid)?);
            Ok(())
        },
        write: |s, link| {
            if let Some(w) = s.fleet.power.budget_w {
                link.pair("power", &power_text(w));
            }
        },
    },
    form: None,
    json: &[JsonField {
        key: "power_budget_w",
        value: |s| s.fleet.power.budget_w.into(),
    }],
    readme: Readme {
        meaning: "a power budget with its unit, `W`, `kW`, `MW` or `GW` (e.g. `1MW`, `400kW`; from 1 W to 10 GW): the replicas, GPUs and users that fit in it at the recommended level, all in (host watts and PUE), and tok/s and users per MW",
        default: "none",
    },
};

/// What one GPU's power is read from.
pub(super) const POWER_BASIS: Declared = Declared {
    param: Param {
        keys: &["power_basis"],
        group: Group::Fleet,
        needs: Some("power"),
        read: |r, _, v| {
            r.fleet.power.basis = parse_power_basis(v).map_err(ParamErrorKind::Invalid)?;
            Ok(())
        },
        write: |s, link| {
            let basis = s.fleet.power.basis;
            if basis != PowerBasis::default() {
                link.pair("power_basis", basis.key());
            }
        },
    },
    form: None,
    json: &[JsonField {
        key: "power_basis",
        value: |s| s.fleet.power.basis.key().into(),
    }],
    readme: Readme {
        meaning: "what one GPU's power is read from: `measured` (the sweep's power at the recommended level ÷ its GPUs, the GPUs alone) or `tdp` (the GPU type's rated board power, from the table in \"A power budget\")",
        default: "measured",
    },
};

/// Watts per GPU beyond the GPU itself.
pub(super) const HOST_W: Declared = Declared {
    param: Param {
        keys: &["host_w"],
        group: Group::Fleet,
        needs: Some("power"),
        read: |r, _, v| {
            r.fleet.power.host_w = Some(parse_host_w(v).map_err(ParamErrorKind::Invalid)?);
            Ok(())
        },
        write: |s, link| link.number("host_w", s.fleet.power.host_w),
    },
    form: None,
    json: &[JsonField {
        key: "host_w",
        value: |s| s.fleet.power.host_w.unwrap_or(0.0).into(),
    }],
    readme: Readme {
        meaning: "watts per GPU beyond the GPU itself (CPU, memory, network, fans), 0 to 10,000, added before the PUE",
        default: "0 (said in the answer)",
    },
};
